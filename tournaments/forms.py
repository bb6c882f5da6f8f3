"""Forms of the tournament pages: the shape of the input only; the services decide."""

import json
from functools import cache
from typing import Any

from django import forms
from django.forms.utils import flatatt
from django.utils.functional import lazy
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .models import ENTRANT_NAME_MAX, TOURNAMENT_NAME_MAX, TieBreakMode
from .presentation import (
    ALL_ZONES_LABEL,
    COMMON_ZONES_LABEL,
    KEPT_ZONE_LABEL,
    TIEBREAK_MODES,
    preset_label,
    variant_label,
    zone_label,
)
from .services.schedule import common_zones, default_zone, zone_aliases, zone_names
from .services.setup import (
    MAX_TIME_LIMIT_MINUTES,
    SEAT_CLOCK_MAX,
    SEAT_CLOCK_MIN,
    TOURNAMENT_PRESETS,
    TOURNAMENT_VARIANTS,
)


def _lazy_text(function: Any, *args: Any, **kwargs: Any) -> Any:
    """`function(*args, **kwargs)` worded when shown, in the reader's language (a form's class
    attributes are made once, at import)."""
    return lazy(function, str)(*args, **kwargs)


def _limit_help() -> str:
    return _("Optional, 1 to %(max)s. Leave empty for no limit.") % {"max": MAX_TIME_LIMIT_MINUTES}


def _seat_clock_help() -> str:
    return _(
        "%(min)s to %(max)s seconds for each sealed bid or decision of an online duel; when "
        "it runs out the app plays for the player."
    ) % {"min": SEAT_CLOCK_MIN, "max": SEAT_CLOCK_MAX}


# The settings a tournament is created with and later configured (services.setup.configure).
SETTINGS = (
    "duel_preset",
    "variants",
    "tiebreak_mode",
    "shared_cards",
    "duel_time_limit_minutes",
    "online_duels",
    "seat_clock",
)
# Settings a form may leave out (a post from an older page, a script): their value stays.
KEPT_WHEN_MISSING = ("online_duels", "seat_clock")
# ONLINE.md 6: how the duels are played, as the form's radio buttons send it.
PLAYED_AT_TABLE, PLAYED_ONLINE = "table", "online"


class TournamentForm(forms.Form):
    """A new tournament: its name and the settings of TOURNAMENT.md (each has a default)."""

    name = forms.CharField(max_length=TOURNAMENT_NAME_MAX, label=gettext_lazy("Tournament name"))
    duel_preset = forms.ChoiceField(
        label=gettext_lazy("Duel rules"),
        initial="tournament",
        choices=[(p, _lazy_text(preset_label, p, note=True)) for p in TOURNAMENT_PRESETS],
        help_text=gettext_lazy(
            "Every duel is refereed under these rules, with two seats and no truth or dare."
        ),
    )
    variants = forms.MultipleChoiceField(
        label=gettext_lazy("Variants"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        choices=[(v, _lazy_text(variant_label, v, note=True)) for v in TOURNAMENT_VARIANTS],
    )
    tiebreak_mode = forms.ChoiceField(
        label=gettext_lazy("Tie-breaks for the top four"),
        choices=[(v, TIEBREAK_MODES.get(v, label)) for v, label in TieBreakMode.choices],
        initial=TieBreakMode.FULL,
        widget=forms.RadioSelect,
    )
    shared_cards = forms.BooleanField(
        label=gettext_lazy("Shared action cards"),
        required=False,
        initial=True,
        help_text=gettext_lazy("A player may give one action card to a group-mate after a duel."),
    )
    duel_time_limit_minutes = forms.IntegerField(
        label=gettext_lazy("Duel time limit (minutes)"),
        required=False,
        min_value=1,
        max_value=MAX_TIME_LIMIT_MINUTES,
        help_text=_lazy_text(_limit_help),
    )
    online_duels = forms.TypedChoiceField(
        label=gettext_lazy("Duels are played"),
        choices=[
            (
                PLAYED_AT_TABLE,
                gettext_lazy("at a table (a referee enters the moves)"),
            ),
            (
                PLAYED_ONLINE,
                gettext_lazy("online (each player on their own device, cards dealt by the app)"),
            ),
        ],
        coerce=lambda value: value == PLAYED_ONLINE,
        empty_value=None,
        required=False,
        initial=PLAYED_AT_TABLE,
        widget=forms.RadioSelect,
        help_text=gettext_lazy(
            "Online, a duel is played by the accounts that claimed the two entries. A single "
            "duel may be switched on the Rounds page before it starts."
        ),
    )
    seat_clock = forms.IntegerField(
        label=gettext_lazy("Seat clock (seconds, 10–120)"),
        required=False,
        min_value=SEAT_CLOCK_MIN,
        max_value=SEAT_CLOCK_MAX,
        initial=30,
        help_text=_lazy_text(_seat_clock_help),
    )

    def settings(self) -> dict[str, Any]:
        """The cleaned settings, as `configure` takes them (disabled fields left out, and a
        setting with a default that the post left out)."""
        return {
            key: self.cleaned_data[key]
            for key in SETTINGS
            if key in self.fields
            and not self.fields[key].disabled
            and not (key in KEPT_WHEN_MISSING and self.cleaned_data[key] is None)
        }


ZONE_HELP = gettext_lazy(
    "The venue's: start times are typed in it, the big screen's clock shows it."
)


def zone_choices(current: str = "") -> list[tuple[str, list[tuple[str, str]]]]:
    """The time-zone select: the common zones first, then every zone (canonical names only,
    `services.schedule.zone_names`); a tournament's older name is kept, on its own."""
    choices = [
        (COMMON_ZONES_LABEL, [(z, zone_label(z)) for z in common_zones()]),
        (ALL_ZONES_LABEL, [(z, zone_label(z)) for z in zone_names()]),
    ]
    if current and current not in zone_names():
        choices.insert(0, (KEPT_ZONE_LABEL, [(current, zone_label(current))]))
    return choices


@cache
def _zone_options(choices: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]) -> str:
    """The options of the time-zone select, escaped, written once per list."""
    return "".join(
        f'<optgroup label="{escape(group)}">'
        + "".join(f'<option value="{escape(v)}">{escape(label)}</option>' for v, label in options)
        + "</optgroup>"
        for group, options in choices
    )


class ZoneSelect(forms.Select):
    """The time-zone select, written out at once: Django's template per option took 140 ms
    a page for its 430 options. The same HTML: option groups, the first match selected."""

    def render(self, name: str, value: Any, attrs: Any = None, renderer: Any = None) -> SafeString:
        chosen = str(value[0] if isinstance(value, list | tuple) and value else value or "")
        choices = tuple(
            (str(g), tuple((str(v), str(x)) for v, x in opts)) for g, opts in self.choices
        )
        options = _zone_options(choices)
        if chosen:  # the first option of that value (a common zone is listed twice)
            plain = f'<option value="{escape(chosen)}">'
            options = options.replace(plain, plain[:-1] + " selected>", 1)
        select = format_html(
            "<select{}>", flatatt({"name": name, **self.build_attrs(self.attrs, attrs)})
        )
        # Every part escaped above: the values and labels are the zone list's, the group names ours.
        return mark_safe(f"{select}{options}</select>")  # noqa: S308


def zone_field(*, attrs: dict[str, str] | None = None, **kwargs: Any) -> forms.ChoiceField:
    return forms.ChoiceField(
        label=gettext_lazy("Time zone"),
        help_text=ZONE_HELP,
        widget=ZoneSelect(attrs=attrs),
        **kwargs,
    )


class NewTournamentForm(TournamentForm):
    """Creating a tournament: the settings and the venue's time zone. The select starts at
    the site's default; a small script (static/js/app.js) moves it to the browser's own zone
    when the list has it, so a person without JavaScript gets the default, never nothing."""

    field_order = ["name", "time_zone"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        attrs = {}
        if not self.is_bound:  # a form sent back keeps the zone the person chose
            attrs = {"data-browser-zone": "", "data-zone-aliases": json.dumps(zone_aliases())}
        self.fields["time_zone"] = zone_field(
            choices=zone_choices(),
            initial=default_zone(),
            attrs=attrs,
            required=False,  # a post without it (a script) gets the default
        )
        self.fields["time_zone"].help_text = _(
            "The venue's: start times are typed in it, the big screen's clock shows it. Set "
            "from this device when it says which; change it later on Schedule."
        )
        self.order_fields(self.field_order)

    def clean_time_zone(self) -> str:
        return self.cleaned_data.get("time_zone") or default_zone()


class EntrantForm(forms.Form):
    name = forms.CharField(max_length=ENTRANT_NAME_MAX, label=gettext_lazy("Player name"))
