"""Forms of the tournament pages: the shape of the input only; the services decide."""

from typing import Any

from django import forms

from .models import ENTRANT_NAME_MAX, TOURNAMENT_NAME_MAX, TieBreakMode
from .presentation import preset_label, variant_label
from .services.setup import MAX_TIME_LIMIT_MINUTES, TOURNAMENT_PRESETS, TOURNAMENT_VARIANTS

# The settings a tournament is created with and later configured (services.setup.configure).
SETTINGS = ("duel_preset", "variants", "tiebreak_mode", "shared_cards", "duel_time_limit_minutes")


class TournamentForm(forms.Form):
    """A new tournament: its name and the settings of TOURNAMENT.md (each has a default)."""

    name = forms.CharField(max_length=TOURNAMENT_NAME_MAX, label="Tournament name")
    duel_preset = forms.ChoiceField(
        label="Duel rules",
        initial="tournament",
        choices=[(p, preset_label(p, note=True)) for p in TOURNAMENT_PRESETS],
        help_text="Every duel is refereed under these rules, with two seats and no truth or dare.",
    )
    variants = forms.MultipleChoiceField(
        label="Variants",
        required=False,
        widget=forms.CheckboxSelectMultiple,
        choices=[(v, variant_label(v, note=True)) for v in TOURNAMENT_VARIANTS],
    )
    tiebreak_mode = forms.ChoiceField(
        label="Tie-breaks for the top four",
        choices=TieBreakMode.choices,
        initial=TieBreakMode.FULL,
        widget=forms.RadioSelect,
    )
    shared_cards = forms.BooleanField(
        label="Shared action cards",
        required=False,
        initial=True,
        help_text="A player may give one action card to a group-mate after a duel.",
    )
    duel_time_limit_minutes = forms.IntegerField(
        label="Duel time limit (minutes)",
        required=False,
        min_value=1,
        max_value=MAX_TIME_LIMIT_MINUTES,
        help_text=f"Optional, 1 to {MAX_TIME_LIMIT_MINUTES}. Leave empty for no limit.",
    )

    def settings(self) -> dict[str, Any]:
        """The cleaned settings, as `configure` takes them (disabled fields left out)."""
        return {
            key: self.cleaned_data[key]
            for key in SETTINGS
            if key in self.fields and not self.fields[key].disabled
        }


class EntrantForm(forms.Form):
    name = forms.CharField(max_length=ENTRANT_NAME_MAX, label="Player name")
