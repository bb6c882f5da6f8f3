"""QR codes as inline SVG (segno): no image file, no script, nothing the CSP must allow."""

import segno
from django.utils.safestring import SafeString, mark_safe


def qr_svg(data: str, *, title: str, size: str = "") -> SafeString:
    """An SVG QR code of `data`, titled for screen readers (segno escapes the title and
    writes only numbers and path data besides it). No fixed size, only a viewBox: the style
    sheet sizes it (`qr-<size>`), so it fits a phone and fills a printed page."""
    svg = segno.make(data, error="m").svg_inline(
        scale=1,
        title=title,
        svgclass=f"qr qr-{size}" if size else "qr",
        lineclass="qr-line",
        omitsize=True,
    )
    return mark_safe(svg.replace("<svg ", '<svg role="img" ', 1))  # noqa: S308 - built above
