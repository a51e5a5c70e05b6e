"""The results group, apart from the changes: rendered in passes of bounded slices, paced, one pass at a time.

The results group (the rounds' list, statistics, clubs, the entries' list, Follow my pair, one page per pair
and club, the clubs' and players' histories) costs tens of seconds of CPU at 1,000 pairs. Under a worker it
never renders inside a change's render: a change (``publish.publish_event``) only *asks* for a pass
(``request``), which marks the event dirty and, when no pass is in flight or queued, queues the first slice
(``publishing.tasks.publish_results``, the "publish" queue) no sooner than the pace allows.

* **Own lock, own records.** A slice holds ``<slug>.results.lock`` while it renders (never the event's
  lock); its records are ``<slug>.results.json``, read and written under ``<slug>.results-state.lock``, held
  only for the milliseconds of a read and a write. A change and a slice of the same event run in either order
  without waiting for each other; each file is still written atomically (``files.write``).
* **Bounded slices.** A slice renders at most ``PUBLISH_RESULTS_SLICE_SECONDS`` of pages (1 s) or
  ``SLICE_PAGES``, records where it stopped and re-queues itself at the back of the queue, no sooner than
  ``SLICE_PACE`` times its own time later, so a change's message queued meanwhile gets the worker between two
  slices and a pass never takes a whole process.
* **One pass in flight.** A pass is named by a token; a slice whose token is not the current pass's stops.
  A change during a pass marks the event dirty: when the pass ends, exactly one more is queued.
* **Pace.** A pass starts no sooner than ``PUBLISH_RESULTS_SECONDS`` after the last one started, and no
  sooner than ``PUBLISH_RESULTS_PACE`` (2) times the last one's rendering time after it ended; its slices are
  paced too (``SLICE_PACE``, 2): results take at most about a fifth of one worker process on average and a
  third while a pass runs, and a pair page shows a result within about eight times a pass's work.
* A pass whose fingerprint (read when it starts) equals the stored one renders nothing, unless forced (a full
  render), and the next look waits the interval (hands in mid-game alone ask for a pass every second). A pass or a queued start left without its task (a lost message, a worker killed) is taken as
  abandoned after ``STALE_SECONDS`` without news; the next request or the beat's sweep starts another.

Eager (``make run``, tests) there is no queue: ``render_inline`` renders the whole group at once.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

from django.conf import settings

from tournaments.models import Tournament
from tournaments.selectors.fingerprint import fingerprint
from tournaments.selectors.memo import render_memo

from . import files, pages

log = logging.getLogger(__name__)

#: A pass starts no sooner than ``pace()`` times the last pass's rendering time after it ended, and each slice
#: of a pass no sooner than ``slice_pace()`` times the slice's own time after it: results take at most about
#: 1 / (1 + SLICE_PACE) of one worker process while a pass runs, and 1 / ((1 + SLICE_PACE) + PACE) on average.
#: Until 2026-12-06 the slices followed each other at once and only passes were paced (4, a fifth of a process
#: since the national day of 2026-12-04): a pass at 1,000 pairs took the publisher's whole process for 70-100 s
#: every five minutes, and the scorers' requests queued behind it (docs/operations.md, "The fifth look"). The
#: same average now comes evenly: a third of a process during a pass, and a pass a third of its length later;
#: a pair page (which no phone polls) shows a result within about eight times a pass's work (W, 20 s quiet).
PACE = 2.0
SLICE_PACE = 2.0
#: At most this many pages in one slice (the time budget usually ends it first).
SLICE_PAGES = 400
#: A pass or a queued start without news for this long is taken as lost.
STALE_SECONDS = 180.0

#: ``schedule(tournament_id, token, seconds)`` queues a slice; False when the broker refused it.
Schedule = Callable[[int, str, float], bool]


def slice_seconds() -> float:
    return float(getattr(settings, "PUBLISH_RESULTS_SLICE_SECONDS", 1.0))


def interval() -> float:
    return float(getattr(settings, "PUBLISH_RESULTS_SECONDS", 10))


def pace() -> float:
    return float(getattr(settings, "PUBLISH_RESULTS_PACE", PACE))


def slice_pace() -> float:
    return float(getattr(settings, "PUBLISH_RESULTS_SLICE_PACE", SLICE_PACE))


# ---- records and locks ------------------------------------------------------------------------------------
@contextlib.contextmanager
def _flock(name: str) -> Iterator[None]:
    with open(files.state_dir() / name, "a+b") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def render_lock(slug: str) -> contextlib.AbstractContextManager[None]:
    """Held by whoever renders the event's results pages (a slice, an inline render)."""
    return _flock(f"{slug}.results.lock")


def _state_lock(slug: str) -> contextlib.AbstractContextManager[None]:
    return _flock(f"{slug}.results-state.lock")


def load(slug: str) -> dict[str, Any]:
    try:
        data = json.loads((files.state_dir() / f"{slug}.results.json").read_text())
    except (FileNotFoundError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _save(slug: str, state: dict[str, Any]) -> None:
    directory = files.state_dir()
    temp = directory / f".{slug}.results.{os.getpid()}.tmp"
    temp.write_text(json.dumps(state, sort_keys=True))
    os.replace(temp, directory / f"{slug}.results.json")


def forget(slug: str) -> None:
    """The event is withdrawn: its results records go (a pass in flight stops at its next slice)."""
    with _state_lock(slug), contextlib.suppress(FileNotFoundError):
        (files.state_dir() / f"{slug}.results.json").unlink()


def due_at(state: dict[str, Any]) -> float:
    """When the next pass may start: the interval after the last start (or the last look that found nothing
    moved), ``pace()`` x the last pass's work after its end."""
    return max(max(float(state.get("started_at", 0)), float(state.get("checked_at", 0))) + interval(),
               float(state.get("ended_at", 0)) + pace() * float(state.get("duration", 0)))


def _busy(state: dict[str, Any], now: float) -> bool:
    for key in ("pass", "queued"):
        record = state.get(key)
        if record and now - float(record.get("beat", 0)) < STALE_SECONDS:
            return True
    return False


def stale(slug: str, tournament_id: int) -> bool:
    """The stored results fingerprint differs from the database's (the sweep's test)."""
    return load(slug).get("fp") != fingerprint(slug, tier="results")


# ---- asking for a pass ----------------------------------------------------------------------------------
def request(tournament_id: int, slug: str, schedule: Schedule, *, force: bool = False,
            now: float | None = None) -> str:
    """A change asks for the results: mark the event dirty; queue a pass unless one is in flight or queued.
    Returns "running", "queued" (already), or "scheduled" (a start queued now)."""
    now = time.time() if now is None else now
    with _state_lock(slug):
        state = load(slug)
        state["dirty"] = True
        state["force"] = bool(state.get("force")) or force
        if _busy(state, now):
            _save(slug, state)
            return "running" if state.get("pass") else "queued"
        token, wait = _queue(state, now)
        _save(slug, state)
    _send(tournament_id, slug, token, wait, schedule)
    return "scheduled"


def _queue(state: dict[str, Any], now: float) -> tuple[str, float]:
    token = uuid.uuid4().hex
    state.pop("pass", None)
    state["queued"] = {"token": token, "at": due_at(state), "beat": now}
    return token, max(0.0, due_at(state) - now)


def _send(tournament_id: int, slug: str, token: str, wait: float, schedule: Schedule) -> None:
    if schedule(tournament_id, token, wait):
        return
    with _state_lock(slug):  # the broker refused: forget the start, the next request or the sweep retries
        state = load(slug)
        for key in ("queued", "pass"):
            if (state.get(key) or {}).get("token") == token:
                state.pop(key)
        _save(slug, state)


# ---- one slice --------------------------------------------------------------------------------------------
def run_slice(tournament_id: int, token: str, schedule: Schedule, *, max_pages: int | None = None,
              max_seconds: float | None = None) -> dict[str, Any]:
    """Render the next slice of the pass ``token`` (starting it if it is the queued one); queue the rest, or,
    at the pass's end, one more pass if a change came meanwhile. Returns what it did."""
    from .publish import Outcome, render_each

    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or not tournament.published:
        return {"status": "gone"}
    slug = tournament.slug
    with render_lock(slug):
        with _state_lock(slug):
            state = load(slug)
            current = _begin(tournament, state, token, time.time())
            _save(slug, state)
        if current is None:
            return {"status": "stale" if state.get("pass") or state.get("queued") else "idle"}
        if current.get("skipped"):
            return {"status": "unchanged"}
        started = time.monotonic()
        limit = slice_seconds() if max_seconds is None else max_seconds
        todo = current["addresses"][current["done"]:current["done"] + (max_pages or SLICE_PAGES)]
        rendered: list[str] = []
        outcome: Any = Outcome()
        with render_memo():  # one read of the entries and standings for the slice's pages
            for address in todo:  # one page at a time, the clock read between pages
                render_each([address], outcome, set())
                rendered.append(address)
                if time.monotonic() - started >= limit:
                    break
        work = time.monotonic() - started
        if not Tournament.objects.filter(pk=tournament_id, published=True).exists():
            _unwrite(slug, rendered)  # withdrawn while this slice rendered: take its files back
            return {"status": "gone"}
        return _end_slice(tournament_id, slug, token, len(rendered), work, schedule)


def _begin(tournament: Tournament, state: dict[str, Any], token: str, now: float) -> dict[str, Any] | None:
    """The pass this slice continues (its record), a ``skipped`` mark, or None when the token is not current."""
    current = state.get("pass")
    if current and current.get("token") == token:
        current["beat"] = now
        return current
    queued = state.get("queued")
    if not queued or queued.get("token") != token:
        return None
    state.pop("queued")
    print_ = fingerprint(tournament.slug, tier="results")
    forced = bool(state.pop("force", False))
    state["dirty"] = False
    if print_ == state.get("fp") and not forced:
        state["checked_at"] = now  # the next look no sooner than the interval: hands alone move nothing here
        return {"skipped": True}  # nothing shown moved: no pass, and the pace is not spent
    from .publish import results_addresses

    state["pass"] = {"token": token, "addresses": results_addresses(tournament), "done": 0,
                     "fingerprint": print_, "work": 0.0, "beat": now}
    state["started_at"] = now
    return state["pass"]


def _end_slice(tournament_id: int, slug: str, token: str, count: int, work: float,
               schedule: Schedule) -> dict[str, Any]:
    now = time.time()
    with _state_lock(slug):
        state = load(slug)
        current = state.get("pass")
        if not current or current.get("token") != token:
            return {"status": "stale", "rendered": count}
        current["done"] += count
        current["work"] = float(current["work"]) + work
        current["beat"] = now
        if current["done"] < len(current["addresses"]):
            next_token, wait = token, slice_pace() * work  # the rest, paced: see SLICE_PACE
            result = {"status": "continued", "rendered": count}
        else:
            state.pop("pass")
            state["fp"] = current["fingerprint"]
            state["ended_at"], state["duration"] = now, current["work"]
            result = {"status": "finished", "rendered": count, "pages": len(current["addresses"]),
                      "work": round(current["work"], 3)}
            if not state.get("dirty"):
                _save(slug, state)
                return result
            next_token, wait = _queue(state, now)  # a change came during the pass: exactly one more
            result["next"] = "queued"
        _save(slug, state)
    _send(tournament_id, slug, next_token, wait, schedule)
    return result


def _unwrite(slug: str, addresses: list[str]) -> None:
    prefixes = pages.event_prefixes(slug)
    for address in addresses:
        if any(address.startswith(prefix) for prefix in prefixes):
            files.remove(address)


# ---- eager, and the sweep --------------------------------------------------------------------------------
def render_inline(tournament: Tournament, *, force: bool = False) -> tuple[Any, set[str], bool]:
    """Render the whole results group now (eager, the ``publish`` command, a sweep without a worker) when its
    fingerprint moved or ``force``. Returns the outcome, the addresses published, and whether it rendered."""
    from .publish import Outcome, render_addresses, results_addresses

    slug = tournament.slug
    print_ = fingerprint(slug, tier="results")
    with render_lock(slug):
        if not force and load(slug).get("fp") == print_:
            return Outcome(), set(), False
        started, now = time.monotonic(), time.time()
        outcome, live = render_addresses(results_addresses(tournament))
        with _state_lock(slug):
            state = load(slug)
            state.update(fp=print_, started_at=now, ended_at=time.time(), duration=time.monotonic() - started)
            _save(slug, state)
    return outcome, live, True


def watch(tournament_id: int, slug: str, schedule: Schedule) -> str | None:
    """The sweep's look at an event's results under a worker: a stale fingerprint asks for a pass; a pass
    or queued start abandoned (no news for ``STALE_SECONDS``) is replaced. None when nothing was needed."""
    now = time.time()
    state = load(slug)
    if _busy(state, now):
        return None
    if state.get("fp") == fingerprint(slug, tier="results") and not state.get("pass") and not state.get("queued"):
        return None
    return request(tournament_id, slug, schedule, now=now)
