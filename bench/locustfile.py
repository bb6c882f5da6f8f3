"""The crowd of bench/crowd.py (issue 15), for locust (headless; crowd.py starts it).

- `Spectator`: opens the standings page once, then polls its live part as the page does
  (htmx: `HX-Request`, the tag it holds as `If-None-Match`) every CROWD_POLL_SECONDS, each at
  its own pace between 0.85 and 1.15 times that (static/js/app.js does the same), with no
  session cookie, as an anonymous spectator.
- `Referee`: signs in, then plays the duel bench/crowd.py names in the file CROWD_DUEL_FILE:
  reads its record, picks a legal move with the engine, posts it as the console does, a move
  every CROWD_MOVE_SECONDS; after CROWD_RESULT_SECONDS it ends the duel by a forfeit (a
  result), and waits for the next duel.

Every request's start time, name, duration and status go to CROWD_SAMPLES (JSON lines) when
the run stops, so that crowd.py can take percentiles around the results.
"""

import json
import os
import random
import re
import sys
import time
from pathlib import Path

from locust import FastHttpUser, events, task

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from games.split_uno import Duel  # noqa: E402 - the pure engine, no Django

SLUG = os.environ.get("CROWD_SLUG", "crowd-cup")
POLL = float(os.environ.get("CROWD_POLL_SECONDS", "5"))
MOVE = float(os.environ.get("CROWD_MOVE_SECONDS", "0.5"))
RESULT = float(os.environ.get("CROWD_RESULT_SECONDS", "10"))
# Set by bench/crowd.py: files of its own (tempfile), not guessed names.
DUEL_FILE = Path(os.environ["CROWD_DUEL_FILE"])
SAMPLES = os.environ["CROWD_SAMPLES"]
USERNAME = os.environ.get("CROWD_REFEREE", "crowd-referee")
PASSWORD = os.environ.get("CROWD_PASSWORD", "")

# The tag the page's live part sends back, as the template escapes it in `hx-headers`.
TAG = re.compile(r"If-None-Match&quot;: &quot;\\&quot;(t\d+-v\d+)\\&quot;")

samples: list[tuple[float, str, float, int]] = []


@events.request.add_listener
def _sample(request_type, name, response_time, response_length, response=None, **kwargs):
    status = getattr(response, "status_code", 0) if response is not None else 0
    samples.append((time.time() - response_time / 1000, name, response_time, status))


@events.quitting.add_listener
def _dump(environment, **kwargs):
    with open(SAMPLES, "w") as out:
        for row in samples:
            out.write(json.dumps(row) + "\n")


class Spectator(FastHttpUser):
    weight = 500

    def on_start(self):
        self.tag = ""
        self.url = f"/t/{SLUG}/standings/"
        with self.client.get(self.url, name="standings page", catch_response=True) as r:
            found = TAG.search(r.text or "")
            if found:
                self.tag = f'"{found[1]}"'
            r.success()
        # Spread the crowd's first polls over one interval, as page loads would be.
        time.sleep(random.uniform(0, POLL))

    def wait_time(self):
        return POLL * random.uniform(0.85, 1.15)

    @task
    def poll(self):
        headers = {"HX-Request": "true"}
        if self.tag:
            headers["If-None-Match"] = self.tag
        with self.client.get(self.url, headers=headers, name="poll", catch_response=True) as r:
            if r.status_code == 304:
                r.success()
            elif r.status_code == 200:
                self.tag = r.headers.get("ETag", self.tag)
                r.request_meta["name"] = "poll, changed (200)"
                r.success()
            else:
                r.failure(f"status {r.status_code}")


class Referee(FastHttpUser):
    weight = 1
    fixed_count = 1

    def wait_time(self):
        return MOVE

    def on_start(self):
        page = self.client.get("/accounts/login/", name="referee: sign-in page")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text or "")
        self.client.post(
            "/accounts/login/",
            data={
                "username": USERNAME,
                "password": PASSWORD,
                "csrfmiddlewaretoken": token[1] if token else "",
            },
            headers={"Referer": self.host + "/accounts/login/"},
            name="referee: sign in",
        )
        self.duel = None
        self.started = 0.0

    @task
    def move(self):
        try:
            current = int(DUEL_FILE.read_text().strip() or 0)
        except (OSError, ValueError):
            return
        if not current:
            return
        if current != self.duel:
            self.duel, self.started = current, time.time()
        base = f"/t/{SLUG}/duels/{self.duel}/"
        record = self.client.get(base + "record.json", name="referee: record")
        if record.status_code != 200:
            return
        engine = Duel.from_record(record.json())
        seq = len(record.json()["events"])
        if engine.finished:
            return
        if time.time() - self.started >= RESULT:
            data = {
                "seq": seq,
                "rev": seq,
                "ending": "forfeit_B",
                "reason": "bench",
                "confirm": "on",
            }
            self.client.post(base + "end/", data=data, headers=self.htmx(), name="referee: result")
            return
        event = random.choice(engine.legal_events())
        data = {"seq": seq, "rev": seq, "type": event["type"]}
        if event["type"] == "round":
            data.update({f"card_{seat}": card for seat, card in event["cards"].items()})
        elif event["type"] == "action":
            data.update({"seat": event["seat"], "card": event["card"]})
            if "color" in event:
                data["color"] = event["color"]
        else:
            data.update({"seat": event["seat"], "choice": event["choice"]})
        self.client.post(base + "move/", data=data, headers=self.htmx(), name="referee: move")

    def htmx(self):
        token = self.client.cookiejar  # the CSRF cookie, sent back as the header htmx sends
        value = next((c.value for c in token if c.name == "csrftoken"), "")
        return {"HX-Request": "true", "X-CSRFToken": value, "Referer": self.host + "/"}
