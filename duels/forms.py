"""The console's forms: they read the shape of a move; the engine decides whether it is legal.

Every move form carries the sequence number and the revision the page showed, so a stale page
is told someone else entered a move instead of having its move applied on a state it never saw.
"""

import secrets
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .services import SEATS
from .words import PAGE_OUT_OF_DATE

# What a console form was drawn for is required: a post without it is refused in words,
# never applied on whatever state the duel is in now.
DRAWN_FOR = {"required": PAGE_OUT_OF_DATE}

SEAT_CHOICES = [(s, s) for s in SEATS]


def new_intent() -> str:
    """A fresh idempotency key for one rendered form (DESIGN.md: every write names what it is
    for): the same form sent again carries the same key and is answered "already recorded,
    nothing changed" instead of being applied twice or taken for someone else's move."""
    return secrets.token_urlsafe(16)


class SeqForm(forms.Form):
    seq = forms.IntegerField(min_value=0, widget=forms.HiddenInput, error_messages=DRAWN_FOR)
    rev = forms.IntegerField(min_value=0, widget=forms.HiddenInput, error_messages=DRAWN_FOR)
    # The key of the rendered console the form was sent from (absent from an older page).
    intent = forms.CharField(max_length=64, required=False, widget=forms.HiddenInput)


ENDINGS = ("forfeit_A", "forfeit_B", "time_limit", "adjudicate_A", "adjudicate_B")


ENDING_HELP = gettext_lazy(
    "Shown in the duel's log, e.g. “no show”, “time called”, or “played on paper: Alice won”."
)


def ending_choices(names: dict[str, str]) -> list[tuple[str, str]]:
    """How a duel can be ended, in words: the form's choices, and what the console shows
    before anything is posted (without building a form on every move's answer)."""
    a, b = names["A"], names["B"]
    forfeits = _("%(loser)s forfeits: %(winner)s wins")
    adjudicate = _("Adjudicate to %(name)s (also: a duel played on paper)")
    return [
        ("forfeit_A", forfeits % {"loser": a, "winner": b}),
        ("forfeit_B", forfeits % {"loser": b, "winner": a}),
        ("time_limit", _("Time limit: fewest number cards wins (equal: drawn)")),
        ("adjudicate_A", adjudicate % {"name": a}),
        ("adjudicate_B", adjudicate % {"name": b}),
    ]


class EndingForm(forms.Form):
    """Forfeit, time limit or adjudication: always with a reason and an explicit confirmation,
    since it ends the duel and only an organiser's correction changes it afterwards. Its
    sequence number travels in a SeqForm beside it."""

    ending = forms.ChoiceField(
        widget=forms.RadioSelect,
        label=gettext_lazy("How the duel ends"),
        error_messages={"required": gettext_lazy("Choose how the duel ends.")},
    )
    reason = forms.CharField(
        max_length=200,
        label=gettext_lazy("Reason or note"),
        error_messages={"required": gettext_lazy("Give a reason or a note: it goes into the log.")},
        help_text=ENDING_HELP,
    )
    confirm = forms.BooleanField(
        label=gettext_lazy("Yes, end the duel now"),
        error_messages={"required": gettext_lazy("Tick “Yes, end the duel now” to confirm.")},
    )

    def __init__(self, *args: Any, names: dict[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["ending"].choices = ending_choices(names)
        # Ids unique on the page: the console holds several forms.
        self.auto_id = "ending_%s"


class CorrectionForm(forms.Form):
    """An organiser's correction of a finished result (tournaments.services.corrections),
    with the key of the console it was sent from (a repeat is told, never applied twice) and
    the tournament's version the console showed (`version`): like the Results page's ruling,
    it is recorded only while what the organiser saw is still true."""

    intent = forms.CharField(max_length=64, required=False, widget=forms.HiddenInput)
    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput, error_messages=DRAWN_FOR)

    winner = forms.ChoiceField(
        widget=forms.RadioSelect,
        label=gettext_lazy("The result is"),
        error_messages={"required": gettext_lazy("Choose the corrected result.")},
    )
    reason = forms.CharField(
        max_length=300,
        label=gettext_lazy("Reason (public, shown with the result)"),
        error_messages={"required": gettext_lazy("A correction needs a reason.")},
    )

    def __init__(self, *args: Any, names: dict[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = [
            ("A", _("%(name)s wins") % {"name": names["A"]}),
            ("B", _("%(name)s wins") % {"name": names["B"]}),
            ("none", _("No winner (a replay is due)")),
        ]
        self.auto_id = "correction_%s"

    @property
    def winner_seat(self) -> str | None:
        seat = self.cleaned_data["winner"]
        return None if seat == "none" else seat
