"""Forms of the organiser pages (issue 8).

They check the shape of the input only — a number is a number, a reason is given — and turn
it into the arguments of one service call; the services decide what is allowed. Forms over
players are built from the rows the page shows, so a select never offers someone who could
not be chosen when the page was drawn.
"""

from collections.abc import Iterable, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from . import presentation
from .forms import PLAYED_AT_TABLE, PLAYED_ONLINE, TournamentForm
from .models import GROUP_NAME_MAX, Entrant, Group, Phase, Tournament
from .presentation import action_text, page_out_of_date
from .services.setup import DUEL_SETTINGS, ONLINE_SETTINGS

NO_GROUP = ""
WITHDRAW = "out"


class SettingsForm(TournamentForm):
    """The tournament's settings. Settings that have locked are shown disabled, with why."""

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        initial = {
            "name": tournament.name,
            "duel_preset": tournament.duel_preset,
            "variants": list(tournament.variants),
            "tiebreak_mode": tournament.tiebreak_mode,
            "shared_cards": tournament.shared_cards,
            "duel_time_limit_minutes": tournament.duel_time_limit_minutes,
            "online_duels": PLAYED_ONLINE if tournament.online_duels else PLAYED_AT_TABLE,
            "seat_clock": tournament.seat_clock,
            "language": tournament.language,
        }
        super().__init__(*args, initial=initial, **kwargs)
        # Issue 29: the tournament's language (Tournament.language); never locks.
        self.fields["language"] = forms.ChoiceField(
            label=_("Language of the tournament"),
            required=False,
            choices=Tournament._meta.get_field("language").choices,
            help_text=_(
                "The big screen is shown in this language, whatever the projector's browser "
                "says; the tournament's e-mails use it for anyone who has not chosen a "
                "language. “Each viewer's own language”: every page follows its reader."
            ),
        )
        # TOURNAMENT.md "Phases": the duel rules lock when the group phase starts, the
        # tie-break mode when the tie-breaks are planned. A disabled field keeps its value.
        if tournament.phase not in (Phase.DRAFT, Phase.REGISTRATION):
            for key in (*DUEL_SETTINGS, *ONLINE_SETTINGS):
                self.fields[key].disabled = True
                self.fields[key].help_text = _("Locked: the group phase has started.")
        if tournament.tiebreak_seed:
            self.fields["tiebreak_mode"].disabled = True
            self.fields["tiebreak_mode"].help_text = _("Locked: the tie-breaks are planned.")

    def changes(self) -> dict[str, Any]:
        return {
            "name": self.cleaned_data["name"],
            "language": self.cleaned_data["language"],
            **self.settings(),
        }


class GroupNamesForm(forms.Form):
    first = forms.CharField(max_length=GROUP_NAME_MAX, label=_("First-named group"))
    second = forms.CharField(max_length=GROUP_NAME_MAX, label=_("Second-named group"))


class PasteForm(forms.Form):
    # The label avoids the words "player name": that is the one-by-one field's label.
    names = forms.CharField(
        label=_("Names, one per line"),
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_(
            "Blank lines are skipped. Lines that cannot be registered are reported by "
            "their number and left here to fix."
        ),
    )


class CsvForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file"),
        help_text=_(
            "One player per row, the name in the first column; a first row reading "
            "“name” is a header. UTF-8."
        ),
    )


class WithdrawForm(forms.Form):
    entrant = forms.TypedChoiceField(label=_("Player to withdraw"), coerce=int)
    reason = forms.CharField(
        max_length=200,
        required=False,
        label=_("Reason (private)"),
        help_text=_("Seen only by the organisers."),
    )

    def __init__(self, *args: Any, entrants: Iterable[Entrant], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["entrant"].choices = [("", _("Choose a player"))] + [
            (e.pk, e.name) for e in entrants
        ]


def _group_choices(groups: Sequence[Group]) -> list[tuple[str, str]]:
    return [(str(g.order), g.name) for g in groups]


class SplitForm(forms.Form):
    """A split by hand: one select per active player (no group, or one of the two)."""

    def __init__(
        self, *args: Any, entrants: Iterable[Entrant], groups: Sequence[Group], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        order = {g.pk: str(g.order) for g in groups}
        choices = [(NO_GROUP, _("No group"))] + _group_choices(groups)
        self.entrants = list(entrants)
        for entrant in self.entrants:
            self.fields[f"g{entrant.pk}"] = forms.ChoiceField(
                label=entrant.name,
                choices=choices,
                required=False,
                initial=order.get(entrant.group_id, NO_GROUP),
            )

    def rows(self) -> list[tuple[Entrant, forms.BoundField]]:
        return [(e, self[f"g{e.pk}"]) for e in self.entrants]

    def assignment(self) -> dict[int, int | None]:
        return {
            e.pk: int(v) if (v := self.cleaned_data[f"g{e.pk}"]) else None for e in self.entrants
        }


class TransferForm(forms.Form):
    """One change between rounds: a target for each active player (a group, or withdrawal).

    Only players whose target differs from their group move; the whole set is one change,
    checked on its end state (TOURNAMENT.md "Fluid membership"). The organiser's
    confirmation of an elimination is the button they press (`confirm=1`), not a field: it
    must never be carried over from an earlier post.
    """

    reason = forms.CharField(
        max_length=200,
        required=False,
        label=_("Reason (private)"),
        help_text=_("Recorded in the audit log; for a withdrawal, kept as its reason."),
    )

    def __init__(
        self, *args: Any, entrants: Iterable[Entrant], groups: Sequence[Group], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.current = {
            e.pk: next((str(g.order) for g in groups if g.pk == e.group_id), NO_GROUP)
            for e in entrants
        }
        self.entrants = list(entrants)
        choices = _group_choices(groups) + [(WITHDRAW, _("Withdraw"))]
        for entrant in self.entrants:
            # Not required: a player left out of the post stays where they are.
            self.fields[f"to{entrant.pk}"] = forms.ChoiceField(
                label=_("%(name)s goes to") % {"name": entrant.name},
                choices=choices,
                required=False,
                initial=self.current[entrant.pk],
            )

    def target(self, entrant: Entrant) -> str:
        """The target this form shows for `entrant` (the posted one, else the current)."""
        field = self[f"to{entrant.pk}"]
        value = field.value()
        return str(value) if value else self.current[entrant.pk]

    def changes(self) -> dict[int, int | None]:
        out: dict[int, int | None] = {}
        for entrant in self.entrants:
            value = self.cleaned_data[f"to{entrant.pk}"] or self.current[entrant.pk]
            if value != self.current[entrant.pk]:
                out[entrant.pk] = None if value == WITHDRAW else int(value)
        return out


class RepresentativesForm(forms.Form):
    """Name a round's two representatives, give the duel a table, and (organisers) a referee."""

    first = forms.TypedChoiceField(coerce=int)
    second = forms.TypedChoiceField(coerce=int)
    table = forms.CharField(
        max_length=40,
        required=False,
        label=_("Table"),
        help_text=_("Where the duel is played, e.g. “Table 3”."),
    )
    referee = forms.TypedChoiceField(
        coerce=int,
        required=False,
        empty_value=None,
        label=_("Referee"),
        help_text=_("Leave it open and any referee can take the duel from its console."),
    )

    def __init__(
        self,
        *args: Any,
        groups: Sequence[Group],
        members: dict[int, list[Entrant]],
        referees: Sequence[Any] | None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        for key, group in (("first", groups[0]), ("second", groups[1])):
            field = self.fields[key]
            field.label = _("Representative of %(group)s") % {"group": group.name}
            field.choices = [("", _("Choose a player"))] + [
                (e.pk, e.name) for e in members.get(group.pk, [])
            ]
        if referees is None:  # only organisers assign referees; a referee takes a duel
            del self.fields["referee"]
        else:
            self.fields["referee"].choices = [("", _("Any referee"))] + [
                (u.pk, u.username) for u in referees
            ]


class SharedCardForm(forms.Form):
    giver = forms.TypedChoiceField(coerce=int, label=_("Giver"))
    receiver = forms.TypedChoiceField(coerce=int, label=_("Receiver (same group)"))

    def __init__(self, *args: Any, entrants: Iterable[Entrant], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", _("Choose a player"))] + [(e.pk, e.name) for e in entrants]
        self.fields["giver"].choices = choices
        self.fields["receiver"].choices = choices


class RulingForm(forms.Form):
    """A correction (winner A, B or nobody) or a void (group rounds), always with a reason.

    It carries the tournament's version its preview was drawn at (`version`) and its key
    (`intent`): recorded only while that preview is still true, and once."""

    # Not required for a preview, which is drawn afresh; required to record (`clean`).
    version = forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)
    intent = forms.CharField(max_length=64, required=False, widget=forms.HiddenInput)
    ruling = forms.ChoiceField(label=_("What counts from now on"), widget=forms.RadioSelect)
    reason = forms.CharField(
        max_length=300,
        label=_("Reason"),
        help_text=_("Required. A correction's reason is public; it is shown with the result."),
    )

    def __init__(self, *args: Any, seat_a: str, seat_b: str, voidable: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [
            ("A", _("%(name)s wins") % {"name": seat_a}),
            ("B", _("%(name)s wins") % {"name": seat_b}),
            ("none", _("No winner: the duel is replayed")),
        ]
        if voidable:
            choices += [
                ("void_replay", _("Void: replayed by the same two players")),
                ("void_none", _("Void: no result for this round")),
            ]
        self.fields["ruling"].choices = choices

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        # "Record this ruling" without the version its preview was drawn at would record a
        # ruling on a state nobody saw: refused in words (the field is hidden, so the error
        # is the form's).
        if "apply" in self.data and data.get("version") is None:
            raise forms.ValidationError(page_out_of_date())
        return data


class CancelForm(forms.Form):
    reason = forms.CharField(max_length=300, label=_("Why is the tournament cancelled?"))
    confirm = forms.BooleanField(
        label=_("I understand: cancelling is final; running duels close without a result.")
    )


class AuditFilterForm(forms.Form):
    action = forms.ChoiceField(required=False, label=_("What"))
    who = forms.ChoiceField(required=False, label=_("Who"))

    def __init__(
        self, *args: Any, actions: Iterable[str], actors: Iterable[tuple[int, str]], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["action"].choices = [("", _("Everything"))] + [
            (a, action_text(a)) for a in actions
        ]
        self.fields["who"].choices = [("", _("Anyone")), ("automation", _("The automation"))] + [
            (str(pk), name) for pk, name in actors
        ]


class IntentFields(forms.Form):
    """What a result form was drawn for, in hidden fields: its key (`intent`). Checked by the
    service, never trusted for who may."""

    intent = forms.CharField(max_length=64, required=False, widget=forms.HiddenInput)

    def intent_value(self) -> str:
        return self.cleaned_data.get("intent") or ""


class PaperResultForm(IntentFields):
    """A round's duel played on paper: its two representatives and who won, in one form
    (issue 16). The winner is named by group, so the choice never depends on the seats.

    It names the round it was drawn for (`round`) and the duel, when one existed (`duel`):
    a second copy of the sheet is answered with the round's result, never recorded as the
    next round's."""

    round = forms.IntegerField(min_value=1, required=False, widget=forms.HiddenInput)
    duel = forms.IntegerField(min_value=1, required=False, widget=forms.HiddenInput)
    first = forms.TypedChoiceField(coerce=int)
    second = forms.TypedChoiceField(coerce=int)
    winner = forms.ChoiceField(label=_("Who won"), widget=forms.RadioSelect)
    note = forms.CharField(
        max_length=200,
        required=False,
        label=_("Reason (private, optional)"),
        help_text=_(
            "Why it was played on paper; kept in the audit log. The duel's record says "
            "“played on paper”."
        ),
    )

    def __init__(
        self,
        *args: Any,
        groups: Sequence[Group],
        members: dict[int, list[Entrant]],
        named: tuple[Entrant, Entrant] | None = None,
        **kwargs: Any,
    ) -> None:
        # Its own ids: the page shows the naming form's "first" and "second" beside it.
        kwargs.setdefault("auto_id", "id_paper_%s")
        super().__init__(*args, **kwargs)
        for key, group in (("first", groups[0]), ("second", groups[1])):
            field = self.fields[key]
            # Not the naming form's words: both forms are on the page, each label unique.
            field.label = _("Played for %(group)s") % {"group": group.name}
            field.choices = [("", _("Choose a player"))] + [
                (e.pk, e.name) for e in members.get(group.pk, [])
            ]
        # The winner by name (issue 26): the players the round's duel names, each group's
        # (`named`: the first group's, then the second's). Their selects are then carried
        # hidden, so a name on a radio is always the player the sheet records; naming
        # other players is the naming form's. Before the players are known, the radios say
        # whom they mean: the player chosen above for each group.
        self.named = named
        if named is not None:
            for key in ("first", "second"):
                self.fields[key].widget = forms.HiddenInput()
            self.fields["winner"].choices = [
                ("first", presentation.paper_winner(named[0].name)),
                ("second", presentation.paper_winner(named[1].name)),
            ]
        else:
            self.fields["winner"].choices = [
                ("first", presentation.paper_winner_chosen(groups[0].name)),
                ("second", presentation.paper_winner_chosen(groups[1].name)),
            ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("round") is None:
            # A sheet that does not say which round it is for is never given the open one.
            raise forms.ValidationError(
                _("This form does not say which round it is for: reload the Rounds page.")
            )
        if self.named is not None and ("first" in self.errors or "second" in self.errors):
            # Its players travel hidden: their refusal is the form's, in words.
            raise forms.ValidationError(presentation.page_out_of_date())
        return data

    def winner_id(self) -> int:
        return self.cleaned_data[self.cleaned_data["winner"]]


class PaperDuelForm(IntentFields):
    """A duel whose players are known (a replay, a tie-break, a playoff) played on paper. Its
    duel is its address; `rev` is the duel's revision the page showed."""

    rev = forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)
    winner = forms.ChoiceField(label=_("Who won"), widget=forms.RadioSelect)
    note = PaperResultForm.base_fields["note"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        # Required, in words: the field is hidden, so its error is the form's.
        if data.get("rev") is None:
            raise forms.ValidationError(page_out_of_date())
        return data

    def __init__(self, *args: Any, seat_a: Entrant, seat_b: Entrant, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats = {"A": seat_a, "B": seat_b}
        self.fields["winner"].choices = [
            ("A", presentation.paper_winner(seat_a.name)),
            ("B", presentation.paper_winner(seat_b.name)),
        ]

    def winner_id(self) -> int:
        return self.seats[self.cleaned_data["winner"]].pk


def _local_datetime_field(label: str, **kwargs: Any) -> forms.DateTimeField:
    """A start time typed on the venue's wall clock (the tournament's zone)."""
    return forms.DateTimeField(
        label=label,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        **kwargs,
    )


def _in_zone(at: Any, zone: str) -> Any:
    """A typed wall-clock time read in `zone`, not the server's. An hour that comes twice
    (the clock going back) is read as its first."""
    from zoneinfo import ZoneInfo

    return at.replace(tzinfo=None).replace(tzinfo=ZoneInfo(zone)) if at is not None else None


class ScheduleForm(forms.Form):
    """The time zone and one optional start time per round or stage, typed in that zone."""

    def __init__(self, *args: Any, tournament: Tournament, starts: dict, **kwargs: Any) -> None:
        from .forms import zone_choices, zone_field
        from .presentation import start_key_label
        from .services.schedule import START_KEYS

        super().__init__(*args, initial={"time_zone": tournament.time_zone}, **kwargs)
        self.fields["time_zone"] = zone_field(choices=zone_choices(tournament.time_zone))
        self.stored = starts
        for key in START_KEYS:
            at = starts.get(key)
            self.fields[key] = _local_datetime_field(
                start_key_label(key),
                required=False,
                initial=at.replace(tzinfo=None) if at else None,
            )
        self.keys = START_KEYS

    def clean(self) -> dict[str, Any]:
        """Start times are read in the chosen zone. A time left as the page showed it keeps
        the instant it had: the second 02:30 of the night the clock goes back shows as
        02:30 and would otherwise be read as the first."""
        data = super().clean()
        zone = data.get("time_zone")
        if zone:
            for key in self.keys:
                at, stored = data.get(key), self.stored.get(key)
                if at is None:
                    continue
                same_zone = stored is not None and str(stored.tzinfo) == zone
                if same_zone and at.replace(tzinfo=None) == stored.replace(tzinfo=None):
                    data[key] = stored
                else:
                    data[key] = _in_zone(at, zone)
        return data

    def time_fields(self) -> list[forms.BoundField]:
        """The start times' fields in the event's order (the page lists them so)."""
        return [self[key] for key in self.keys]

    def starts(self) -> dict[str, Any]:
        return {key: self.cleaned_data.get(key) for key in self.keys}


def _minutes_field(label: str, low: int, high: int, help_text: str, **kwargs: Any):
    from .presentation import minutes_between

    words = {"min_value": minutes_between(low, high), "max_value": minutes_between(low, high)}
    return forms.IntegerField(
        label=label,
        min_value=low,
        max_value=high,
        help_text=help_text,
        error_messages=words,
        **kwargs,
    )


class PlanForm(forms.Form):
    """ "First round at … then every … minutes", with a gap before the tie-breaks and one
    before the playoffs: every start time at once (`services.schedule.plan_schedule`)."""

    def __init__(self, *args: Any, tournament: Tournament, every: int, **kwargs: Any) -> None:
        from .presentation import zone_label
        from .selectors_schedule import GAP_BEFORE_PLAYOFFS, GAP_BEFORE_TIE_BREAKS
        from .services.schedule import EVERY_MAX, GAP_MAX

        kwargs.setdefault("auto_id", "id_plan_%s")
        super().__init__(*args, **kwargs)
        self.zone = tournament.time_zone
        self.fields["first"] = _local_datetime_field(
            _("Group round 1 at"),
            help_text=_("On the venue's clock: %(zone)s.") % {"zone": zone_label(self.zone)},
        )
        self.fields["every"] = _minutes_field(
            _("Then a round every (minutes)"),
            1,
            EVERY_MAX,
            _(
                "Group rounds 2 to 15 follow at this interval, then the tie-breaks, Qualifier 1 "
                "beside the Eliminator, Qualifier 2 and the Grand Final, a slot each."
            ),
            initial=every,
        )
        self.fields["before_tie_breaks"] = _minutes_field(
            _("Extra minutes before the tie-breaks"),
            0,
            GAP_MAX,
            _("A break after round 15, while the tie-breaks are drawn."),
            initial=GAP_BEFORE_TIE_BREAKS,
        )
        self.fields["before_playoffs"] = _minutes_field(
            _("Extra minutes before the playoffs"),
            0,
            GAP_MAX,
            _(
                "The tie-breaks count as one slot: make this longer if several players may "
                "be level."
            ),
            initial=GAP_BEFORE_PLAYOFFS,
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        data["first"] = _in_zone(data.get("first"), self.zone)
        return data


class ShiftForm(forms.Form):
    """ "Shift everything not yet played by … minutes" (`services.schedule.shift_schedule`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        from .presentation import shift_between
        from .services.schedule import SHIFT_MAX

        kwargs.setdefault("auto_id", "id_shift_%s")
        super().__init__(*args, **kwargs)
        words = shift_between(SHIFT_MAX)
        self.fields["minutes"] = forms.IntegerField(
            label=_("Shift everything not yet played by (minutes)"),
            min_value=-SHIFT_MAX,
            max_value=SHIFT_MAX,
            help_text=_(
                "Running late: 15 moves every part not yet started 15 minutes later; "
                "−10 brings them 10 minutes earlier. Times already played stay."
            ),
            error_messages={"min_value": words, "max_value": words},
        )

    def clean_minutes(self) -> int:
        from .presentation import shift_between
        from .services.schedule import SHIFT_MAX

        minutes = self.cleaned_data["minutes"]
        if minutes == 0:
            raise forms.ValidationError(shift_between(SHIFT_MAX))
        return minutes
