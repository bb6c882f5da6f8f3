"""The public read API (JSON, OpenAPI at /api/openapi.json).

Public for published tournaments; an unpublished one answers 404 but to its own people.
Every answer carries the standings version as its ETag, so an unchanged poll costs a 304.
"""

import csv
import io
import json
import re
from typing import Annotated, Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from ninja import Field, Path, Router, Schema
from ninja.responses import NinjaJSONEncoder
from pydantic import TypeAdapter

from accounts.permissions import can_view

from . import live_cache, read_models
from .models import Tournament
from .selectors_public.standings import in_final_order, placings_of

router = Router(tags=["tournaments"])


class Group(Schema):
    id: int
    name: str
    order: int
    total: int
    status: str


class Summary(Schema):
    slug: str
    name: str
    phase: str
    published: bool
    version: int
    settings: dict[str, Any]
    groups: list[Group]
    current_round: int | None
    top_four_settled: bool
    placings: dict[int, int]


class Standing(Schema):
    player: int
    name: str
    status: str
    points: int
    played: int
    won: int
    lost: int
    rank: int | None
    shared: bool
    position: int


class GroupTable(Schema):
    id: int
    name: str
    total: int
    by_round: list[int]
    status: str
    eliminated_at_round: int | None
    members: list[str]


class DuelRow(Schema):
    id: int
    kind: str
    stage: str
    table: str
    round: int | None
    status: str
    seat_a: str | None
    seat_b: str | None
    seat_a_id: int | None
    seat_b_id: int | None
    winner: str | None
    finish: str | None
    corrected: bool
    correction_reason: str
    title: str = Field(description='The duel in words: "Group round 3", "Qualifier 1"')
    status_label: str = Field(description="`status` in words")
    finish_label: str = Field(description='`finish` in words ("shed all cards"), or empty')
    table_label: str = Field(description='`table` in words ("Table 3"), or empty')


class RoundRow(Schema):
    number: int
    status: str
    state: str = Field(
        description="`status` as it stands: a decided round whose result was voided is "
        '"replay_due" (its replay waits) or "voided"'
    )
    state_label: str = Field(description="`state` in words")
    duels: list[DuelRow]
    members: dict[str, list[str]]


class LogLine(Schema):
    seq: int
    event: dict[str, Any]
    summary: list[str]
    undone: bool


class DuelDetail(DuelRow):
    state: dict[str, Any] | None
    log: list[LogLine]


class Problem(Schema):
    detail: str = Field(
        description='Why there is no answer, in words, in the request\'s language ("Not found.")'
    )


class Invalid(Schema):
    detail: list[dict[str, Any]] = Field(
        description="Which part of the request is invalid, and why"
    )


# Every status an endpoint can answer is in the schema (checked by schemathesis in
# tests/api/test_schemathesis.py): 304 when `If-None-Match` holds the current ETag, 404 for
# a tournament (or duel) that does not exist or is not published to the caller, 422 for a
# duel id that is not a whole number. A new answer (a rate limit's 429) is added here.
UNCHANGED = {304: None}
MISSING = {404: Problem}
INVALID = {422: Invalid}

# The demo tournament's slug (`./dev run`) as the example: the schema's reader, and
# schemathesis, can try a slug that answers.
SlugPath = Annotated[
    str,
    Path(
        description="The tournament's slug, as in its address",
        example="demo-open",
    ),
]
DuelPath = Annotated[int, Path(description="The duel's id", example=1)]
CSV = {
    "responses": {
        200: {
            "description": "CSV, one header line then one line a row (UTF-8)",
            "content": {"text/csv": {"schema": {"type": "string"}}},
        }
    }
}


SLUG = re.compile(r"[-a-zA-Z0-9_]{1,140}")


def _load(request: HttpRequest, slug: SlugPath) -> Tournament:
    # The path is typed by anyone: a NUL or any other odd character is simply no tournament
    # (PostgreSQL would refuse a NUL in the query with an error, not a 404).
    if not SLUG.fullmatch(slug):
        raise Http404(_("No such tournament."))
    tournament = get_object_or_404(Tournament, slug=slug)
    if not can_view(request.user, tournament):
        raise Http404(_("No such tournament."))
    return tournament


def _etag(tournament: Tournament) -> str:
    # The labels (`title`, `status_label`, …) are in the request's language: an answer in one
    # language is never taken for one in another (issue 29); the lean poll path gives the same.
    return live_cache.api_tag(tournament.pk, tournament.standings_version)


def _fresh(request: HttpRequest, tournament: Tournament) -> HttpResponse | None:
    if request.headers.get("If-None-Match") == _etag(tournament):
        response = HttpResponseNotModified()
        response["ETag"] = _etag(tournament)
        patch_vary_headers(response, ["Cookie"])
        return response
    return None


def _tag(response: HttpResponse, tournament: Tournament) -> None:
    response["ETag"] = _etag(tournament)
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ["Cookie"])


def _answer(request: HttpRequest, slug: SlugPath, response: HttpResponse, read):
    """`read(tournament)`, or a 304 when the caller already has this version."""
    tournament = _load(request, slug)
    unchanged = _fresh(request, tournament)
    if unchanged is not None:
        return unchanged
    _tag(response, tournament)
    return read(tournament)


def _shared(request: HttpRequest, slug: SlugPath, endpoint: str, schema: Any, read):
    """Like `_answer`, for an answer that depends on the version alone: its JSON is made once
    per version and served to everyone from the shared cache (issue 15), through the same
    validation and encoder django-ninja applies to an answer it serialises itself."""
    tournament = _load(request, slug)
    live_cache.remember_version(tournament)
    unchanged = _fresh(request, tournament)
    if unchanged is not None:
        return unchanged
    adapter = TypeAdapter(schema)

    def render() -> str:
        data = adapter.dump_python(adapter.validate_python(read(tournament)))
        return json.dumps(data, cls=NinjaJSONEncoder)

    answer = HttpResponse(
        # One shared answer per language (live_cache.api_key): its labels are translated.
        live_cache.api_json(tournament, endpoint, render),
        content_type="application/json; charset=utf-8",
    )
    _tag(answer, tournament)
    return answer


@router.get(
    "/{slug}", response={200: Summary, **UNCHANGED, **MISSING}, summary="The tournament at a glance"
)
def tournament_summary(request, slug: SlugPath):
    return _shared(request, slug, "summary", Summary, read_models.summary)


@router.get(
    "/{slug}/standings",
    response={200: list[Standing], **UNCHANGED, **MISSING},
    summary="Individual standings",
)
def tournament_standings(request, slug: SlugPath):
    return _shared(request, slug, "standings", list[Standing], read_models.standings)


@router.get(
    "/{slug}/groups",
    response={200: list[GroupTable], **UNCHANGED, **MISSING},
    summary="Group standings",
)
def tournament_groups(request, slug: SlugPath):
    return _shared(request, slug, "groups", list[GroupTable], read_models.group_table)


@router.get(
    "/{slug}/rounds",
    response={200: list[RoundRow], **UNCHANGED, **MISSING},
    summary="Rounds, duels and membership",
)
def tournament_rounds(request, slug: SlugPath):
    return _shared(request, slug, "rounds", list[RoundRow], read_models.rounds)


@router.get(
    "/{slug}/tiebreaks",
    response={200: dict[str, Any], **UNCHANGED, **MISSING},
    summary="Tie-breaks with their draws and seeds, and the 'if it ended now' view",
)
def tournament_tiebreaks(request, slug: SlugPath):
    return _shared(request, slug, "tiebreaks", dict[str, Any], read_models.tiebreaks)


@router.get(
    "/{slug}/bracket",
    response={200: dict[str, Any], **UNCHANGED, **MISSING},
    summary="The Page playoff and placings",
)
def tournament_bracket(request, slug: SlugPath):
    return _shared(request, slug, "bracket", dict[str, Any], read_models.bracket)


def _duel(tournament: Tournament, duel_id: DuelPath):
    from duels.models import Duel

    return get_object_or_404(
        Duel.objects.select_related("round", "result"), pk=duel_id, tournament=tournament
    )


@router.get(
    "/{slug}/duels/{duel_id}",
    response={200: DuelDetail, **UNCHANGED, **MISSING, **INVALID},
    summary="One duel and its log",
)
def duel_detail(request, slug: SlugPath, response: HttpResponse, duel_id: DuelPath):
    return _answer(request, slug, response, lambda t: read_models.duel_detail(t, _duel(t, duel_id)))


@router.get(
    "/{slug}/duels/{duel_id}/record",
    response={200: dict[str, Any], **UNCHANGED, **MISSING, **INVALID},
    summary="The duel's record in the split-uno-duel format (RULES.md section 8)",
)
def duel_record(request, slug: SlugPath, response: HttpResponse, duel_id: DuelPath):
    from duels.services import record_of

    def read(tournament: Tournament) -> dict:
        duel = _duel(tournament, duel_id)
        if duel.seat_a_id is None or duel.seat_b_id is None:
            raise Http404(_("This duel has no players yet."))
        return record_of(duel)

    return _answer(request, slug, response, read)


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(cell: Any) -> Any:
    """A text cell a spreadsheet would run as a formula (OWASP "CSV injection") is written as
    text, behind a quote; numbers stay numbers."""
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
        return "'" + cell
    return cell


def _csv(tournament: Tournament, name: str, header: list[str], rows) -> HttpResponse:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(header)
    writer.writerows([spreadsheet_safe(cell) for cell in row] for row in rows)
    response = HttpResponse(buffer.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-{name}.csv"'
    _tag(response, tournament)
    return response


@router.get(
    "/{slug}/standings.csv",
    summary="Individual standings as CSV",
    response={200: None, **MISSING},
    openapi_extra=CSV,
)
def standings_csv(request, slug: SlugPath):
    tournament = _load(request, slug)
    rows = read_models.standings(tournament)
    # After the event the export is the final table: placings 1–4 first (the champion the
    # club posts), then everyone else by group-phase rank, inactive players last.
    place_of = placings_of(tournament)
    if place_of:
        rows = in_final_order(rows, place_of)
    return _csv(
        tournament,
        "standings",
        ["placing", "rank", "name", "status", "points", "played", "won", "lost"],
        [
            [
                place_of.get(r["player"], ""),
                ("T" if r["shared"] else "") + str(r["rank"]) if r["rank"] else "",
                r["name"],
                r["status"],
                r["points"],
                r["played"],
                r["won"],
                r["lost"],
            ]
            for r in rows
        ],
    )


@router.get(
    "/{slug}/results.csv",
    summary="Every duel's result as CSV",
    response={200: None, **MISSING},
    openapi_extra=CSV,
)
def results_csv(request, slug: SlugPath):
    tournament = _load(request, slug)
    names = dict(tournament.entrants.values_list("pk", "name"))
    duels = [read_models._duel_row(d, names) for d in read_models._duels(tournament)]
    return _csv(
        tournament,
        "results",
        [
            "duel",
            "kind",
            "round",
            "stage",
            "seat_a",
            "seat_b",
            "status",
            "winner",
            "finish",
            "corrected",
            "correction_reason",
            "title",
            "finish_label",
        ],
        [
            [
                d["id"],
                d["kind"],
                d["round"] or "",
                d["stage"],
                d["seat_a"] or "",
                d["seat_b"] or "",
                d["status"],
                d["winner"] or "",
                d["finish"] or "",
                "yes" if d["corrected"] else "",
                d["correction_reason"],
                d["title"],
                d["finish_label"],
            ]
            for d in duels
        ],
    )
