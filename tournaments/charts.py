"""Line charts as plain geometry for server-rendered inline SVG (issue 9).

No chart library and no inline style: this module turns series of numbers into coordinates,
ticks and label positions; the template draws them with SVG presentation attributes and the
classes `static/css/public.css` colours (light, dark and print alike). Pure Python, no Django.

The x axis always spans rounds 0–15, so a chart drawn in round 8 shows how much of the group
phase is left; every series starts at 0 before round 1.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass

# Dash patterns tell the lines apart without colour (WCAG 1.4.1, and black-and-white print).
DASHES = ("", "8 4", "2 4", "12 4 2 4", "4 4", "1 3")
# Room between two labels in chart units: enough for the larger type a phone gets (the chart
# is scaled down there, public.css scales its text up).
LABEL_GAP = 22.0


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    round: int
    value: int


@dataclass(frozen=True)
class Line:
    """One series: the polyline, its dots, and its label in the right margin, joined to the
    line's last point by a leader (labels never sit on another line's body)."""

    label: str
    css: str
    dash: str
    points: str
    dots: tuple[Point, ...]
    values: tuple[int, ...]
    label_x: float
    label_y: float
    end_x: float
    end_y: float

    @property
    def markers(self) -> str:
        """Every dot of the line as one SVG path (a circle of radius 3 per round): one
        element instead of fifteen keeps the page light to build and to draw."""
        return " ".join(f"M{p.x - 3:.1f},{p.y:.1f}a3,3 0 1,0 6,0a3,3 0 1,0 -6,0" for p in self.dots)

    @property
    def leader_y(self) -> float:
        return round(self.label_y - 4, 1)

    @property
    def last(self) -> int:
        return self.values[-1] if self.values else 0


@dataclass(frozen=True)
class Tick:
    pos: float
    label: str


@dataclass(frozen=True)
class LineChart:
    title: str
    width: int
    height: int
    left: float
    right: float
    top: float
    bottom: float
    lines: tuple[Line, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    zero_y: float
    rounds: int
    played: int

    @property
    def y_label_x(self) -> float:
        return self.left - 6

    @property
    def x_label_y(self) -> float:
        return self.bottom + 16

    @property
    def x_title_y(self) -> float:
        return self.bottom + 30

    @property
    def label_leader_x(self) -> float:
        return self.right + 6

    @property
    def empty(self) -> bool:
        return self.played == 0

    @property
    def table_rounds(self) -> range:
        """The rounds the table of numbers lists: those played so far."""
        return range(1, self.played + 1)

    @property
    def ends(self) -> str:
        """Where each line ends, "Reds +4; Blues -3": names and numbers only, so that the
        template puts it in a sentence of the page's language."""
        return "; ".join(f"{line.label} {line.last:+d}" for line in self.lines)

    @property
    def description(self) -> str:
        """A sentence for the chart's `<desc>`, in English (the template writes its own in the
        page's language from `played` and `ends`)."""
        if self.empty:
            return "No round has been decided yet."
        return f"After round {self.played}: {self.ends}."


def nice_step(span: float, target: int = 5) -> int:
    """A tick step of 1, 2 or 5 times a power of ten giving about `target` ticks."""
    if span <= 0:
        return 1
    raw = span / target
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * power:
            return max(1, int(factor * power))
    return max(1, int(10 * power))


def _spread(wanted: list[float], gap: float, low: float, high: float) -> list[float]:
    """Move label positions apart by at least `gap`, keeping them inside [low, high] and in
    their original order (labels of lines ending level would otherwise print on top of each
    other)."""
    order = sorted(range(len(wanted)), key=lambda i: wanted[i])
    placed = [0.0] * len(wanted)
    previous = low - gap
    for i in order:
        placed[i] = max(wanted[i], previous + gap)
        previous = placed[i]
    overflow = previous - high
    if overflow > 0:  # pushed past the bottom: shift the stack up as a whole
        for i in order:
            placed[i] -= overflow
    return [round(p, 1) for p in placed]


def line_chart(
    series: Sequence[tuple[str, Sequence[int]]],
    *,
    rounds: int = 15,
    title: str = "",
    width: int = 640,
    height: int = 300,
    label_width: int = 150,
    series_prefix: str = "series",
) -> LineChart:
    """Geometry of a line chart of cumulative values after rounds 1..n (n ≤ `rounds`).

    `series` is `(label, values)` with `values[i]` the value after round i + 1; all series
    should be as long as the number of rounds played. Labels go right of the plot, spread so
    that they never overlap, each joined to its line's end by a leader.
    """
    left, top, bottom_margin = 44.0, 14.0, 34.0
    right = float(width - label_width)
    bottom = float(height - bottom_margin)
    played = max((len(values) for _, values in series), default=0)
    everything = [v for _, values in series for v in values] + [0]
    low, high = min(everything), max(everything)
    step = nice_step(high - low or 1)
    low = step * math.floor(low / step)
    high = step * math.ceil(high / step)
    if high == low:
        high = low + step

    def x_of(round_number: int) -> float:
        return round(left + (right - left) * round_number / rounds, 1)

    def y_of(value: float) -> float:
        return round(bottom - (bottom - top) * (value - low) / (high - low), 1)

    lines = []
    ends = []
    for index, (label, values) in enumerate(series):
        dots = tuple(Point(x_of(r), y_of(v), r, v) for r, v in enumerate([0, *values]))
        ends.append(dots[-1].y)
        lines.append((label, index, dots, tuple(values)))
    label_ys = _spread(ends, LABEL_GAP, top + 4, bottom)
    built = tuple(
        Line(
            label=label,
            css=f"{series_prefix}-{index + 1}",
            dash=DASHES[index % len(DASHES)],
            points=" ".join(f"{p.x},{p.y}" for p in dots),
            dots=dots[1:],
            values=values,
            label_x=right + 10,
            label_y=round(label_ys[index] + 4, 1),
            end_x=dots[-1].x,
            end_y=dots[-1].y,
        )
        for (label, index, dots, values) in lines
    )
    x_ticks = tuple(Tick(x_of(r), str(r)) for r in range(0, rounds + 1, 3 if rounds > 10 else 1))
    y_ticks = tuple(
        Tick(y_of(v), f"{v:+d}" if v else "0") for v in range(int(low), int(high) + 1, step)
    )
    return LineChart(
        title=title,
        width=width,
        height=height,
        left=left,
        right=right,
        top=top,
        bottom=bottom,
        lines=built,
        x_ticks=x_ticks,
        y_ticks=y_ticks,
        zero_y=y_of(0),
        rounds=rounds,
        played=played,
    )
