"""The games' stored log lines become data (issue 29): each line the effect's kind and its
fields (seats by their letters or indexes), put in words when shown, in the reader's language
(play/effect_words.py), instead of a sentence of English stored once.

- A refereed Split UNO game is replayed from its events (``public["event"]``), each on the
  events that were active when it was entered (an undone event included, on the moves before
  it), and an event's stored lines are replaced only when they are exactly the engine's
  English for it (the clock's "Time is up." first, for an event of the clock's).
- A Trois or CPT-113 game is replayed from its deal and moves the same way; its public lines
  and each seat's own lines (the private parts) are replaced on the same condition.
- Anything else stays as it is — a product's own words, a game that no longer replays, a
  dealt Split UNO game (whose log was always data) — and is shown as stored: the edge takes
  plain strings too.

Backwards, every line of data is put back into English words (the engine's), as stored before.
"""

from django.db import migrations

REFEREED = "split_uno_refereed"
MATCHING = ("trois", "cpt113")
CLOCK = "clock"
TIME_UP = "Time is up."


def _replayed(rows, start, step):
    """Each event row with what applying it did (None: it does not apply), each applied on
    the rows active when it was entered — those before it not undone by then (an undo takes
    back the latest events, so this is the table it met). ``start()`` is the table before the
    first row, ``step(table, row)`` the table after a row and its effects. The tables are
    carried along while each row meets the one before it (always, without undone rows)."""
    undone = any(r.undone_at is not None for r in rows)
    applied, table, before = [], None, []
    for n, row in enumerate(rows):
        if undone:
            chain = [
                r.pk
                for r in rows
                if r.seq < row.seq and (r.undone_at is None or r.undone_at > row.created_at)
            ]
        else:
            chain = before
        try:
            if table is None or chain != applied:
                table, applied, chosen = start(), [], set(chain)
                for r in rows:
                    if r.pk in chosen:
                        table, _ = step(table, r)
                        applied.append(r.pk)
            table, effects = step(table, row)
            applied.append(row.pk)
        except Exception:  # noqa: BLE001 - a row that does not replay stays as stored
            if not undone:  # every later row stands on this one
                for later in rows[n:]:
                    yield later, None
                return
            table, applied = None, []
            yield row, None
            continue
        before = [*before, row.pk] if undone else applied
        yield row, effects


def _all_strings(lines):
    return isinstance(lines, list) and all(isinstance(line, str) for line in lines)


def _refereed(rows, save):
    from games.split_uno import Duel
    from play.adapters.split_uno_refereed import log_lines

    opening = next((r for r in rows if "header" in r.public), None)
    if opening is None:
        return
    header = opening.public["header"]
    moves = [r for r in rows if "event" in r.public]

    def start():
        return Duel.from_record({**header, "events": []})

    def step(duel, row):
        return duel, duel.apply(row.public["event"])

    for row, effects in _replayed(moves, start, step):
        lines = row.public.get("log")
        if effects is None or not lines or not _all_strings(lines):
            continue
        english, data = _describe(header, effects), log_lines(effects)
        if row.by == CLOCK:
            english, data = [TIME_UP, *english], [{"say": "time_up"}, *data]
        if lines == english:
            row.public = {**row.public, "log": data}
            save(row)


def _describe(header, effects):
    from games.split_uno.effects import describe_all

    return describe_all(effects, header.get("seats") or {})


def _matching(game, rows, secrets, seed, save, save_secret):
    from play.adapters.base import Event, Refused
    from play.adapters.matching import log_line
    from play.registry import adapter_for

    adapter = adapter_for(game.kind)
    try:
        sitting = adapter._seating(game.config, game.seats)
    except Refused:
        return
    deal = rows[0] if rows else None
    if deal is None or deal.by != "dealer":
        return

    def event(row):
        return Event(row.by, row.public, {k: s.facts for k, s in secrets.get(row.pk, {}).items()})

    groups = len(sitting.seats) // adapter.seats_a_hand
    rules = adapter.engine.rules

    def start():
        return adapter._dealt(sitting, seed, [event(deal)])

    def step(state, row):
        return rules.apply(adapter._replaying(state, event(row)), row.public["move"])

    for row, effects in _replayed(rows[1:], start, step):
        if effects is None:
            continue
        lines = row.public.get("log")
        if lines and _all_strings(lines) and lines == [e.text for e in effects]:
            row.public = {**row.public, "log": [log_line(game.kind, e) for e in effects]}
            save(row)
        for key, secret in secrets.get(row.pk, {}).items():
            own = secret.facts.get("log") if isinstance(secret.facts, dict) else None
            if key not in sitting.seats or not own or not _all_strings(own):
                continue
            who = sitting.seats.index(key) % groups
            if own == [e.seen_by(who) for e in effects]:
                secret.facts = {
                    **secret.facts,
                    "log": [log_line(game.kind, e, who) for e in effects],
                }
                save_secret(secret)


def logs_to_data(apps, schema_editor):
    Game = apps.get_model("play", "Game")
    GameEvent = apps.get_model("play", "GameEvent")
    GameSecret = apps.get_model("play", "GameSecret")
    EventSecret = apps.get_model("play", "EventSecret")

    def save(row):
        row.save(update_fields=["public"])

    def save_secret(secret):
        secret.save(update_fields=["facts"])

    for game in Game.objects.filter(kind__in=(REFEREED, *MATCHING)).order_by("pk").iterator():
        rows = list(GameEvent.objects.filter(game_id=game.pk).order_by("seq", "pk"))
        if game.kind == REFEREED:
            _refereed(rows, save)
            continue
        secret = GameSecret.objects.filter(game_id=game.pk).first()
        if secret is None:
            continue
        secrets = {}
        for part in EventSecret.objects.filter(event__game_id=game.pk):
            secrets.setdefault(part.event_id, {})[part.key] = part
        _matching(game, rows, secrets, bytes(secret.seed), save, save_secret)


def data_to_logs(apps, schema_editor):
    """Every line of data in the engine's English again (names by the stored ones)."""
    from django.utils import translation

    from play.adapters.base import Refused
    from play.effect_words import say_all
    from play.registry import adapter_for

    Game = apps.get_model("play", "Game")
    GameEvent = apps.get_model("play", "GameEvent")
    EventSecret = apps.get_model("play", "EventSecret")
    with translation.override("en"):
        for game in Game.objects.filter(kind__in=(REFEREED, *MATCHING)).iterator():
            rows = list(GameEvent.objects.filter(game_id=game.pk).order_by("seq", "pk"))
            if game.kind == REFEREED:
                opening = next((r for r in rows if "header" in r.public), None)
                names = opening.public["header"].get("seats", {}) if opening else {}
            else:
                try:
                    names = list(adapter_for(game.kind)._seating(game.config, game.seats).names)
                except Refused:
                    names = []
            for row in rows:
                lines = row.public.get("log")
                if lines and not _all_strings(lines):
                    row.public = {**row.public, "log": say_all(lines, names)}
                    row.save(update_fields=["public"])
            for part in EventSecret.objects.filter(event__game_id=game.pk):
                own = part.facts.get("log") if isinstance(part.facts, dict) else None
                if own and not _all_strings(own):
                    part.facts = {**part.facts, "log": say_all(own, names)}
                    part.save(update_fields=["facts"])


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0005_event_actor"),
        # The moves the products stored before the table core: on it by now.
        ("duels", "0012_remove_duel_deadline"),
        ("tables", "0005_remove_tableevent"),
        ("practice", "0009_drop_old_storage_and_deadline"),
    ]

    operations = [migrations.RunPython(logs_to_data, data_to_logs, elidable=True)]
