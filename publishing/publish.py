"""Render an event's public output to files: on each change (merged), in the sweep, and in full.

Pages come in groups, each with a fingerprint of what it shows (``tournaments.selectors.fingerprint``, and
one query for every board's):

* ``standings``: the standings' JSON and whole table, with a record and a lock of their own
  (``render_standings``): the worker renders them as soon as it stores a new snapshot, and a render here
  only when their fingerprint moved since;
* ``event``: home, standings (and its polled fragment) and their JSON;
* ``round:N``: a round's pairings, its fragment and JSON; ``board:ID``: a scorecard, its fragment and JSON;
* ``results``: the rounds' list, statistics, clubs, every pair's and club's page (1,000 pair pages are the
  costliest part of a render): under a worker never inside a change's render but in passes of their own,
  sliced, paced and under their own lock (``publishing.results``); eager, inline at most every
  ``PUBLISH_RESULTS_SECONDS``;
* ``site``: the list of published events.

A change's message renders the event group, the rounds and boards it names (a board brings its round) and
asks for a results pass (under a worker) or, eager, renders the results group when its fingerprint moved. The sweep (Celery beat) renders every group whose stored
fingerprint differs from the database's, so a message lost with Redis, or a change no service announced,
is published within the sweep's period. A full render (names, settings, publication, finishing) renders
every group and withdraws the event's files that no longer answer (a re-drafted round's boards, a removed
pair). A tournament deleted or unpublished has its folders withdrawn at once.

Merging: one render per event at a time (a file lock per event, so renders never overtake each other), and
a pause between them (``MIN_INTERVAL``, a second, or ``RENDER_PACE`` times the last render's own time when
longer): a message arriving within it (those queued while the render ran included) adds its hints to the
event's pending set and, unless one is already due, schedules one deferred render for the rest of the pause.
The standings are recomputed by the change's own message to the worker, which renders a new snapshot's
standings and then asks for the event's render (``publishing.tasks.publish_standings``); eager, a render with
the ``standings`` hint recomputes them first.
Under ``task_always_eager`` (``make run``, tests) there is no worker to defer to: each message renders at
once. Fingerprints are read before rendering, so a change during a render leaves them stale and the next
render or sweep publishes it.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Max

from tournaments.models import Board, Entry, Tournament
from tournaments.models.querysets import RoundQuerySet
from tournaments.selectors.fingerprint import fingerprint
from tournaments.selectors.memo import render_memo
from tournaments.selectors.public import prefetch_boards
from tournaments.services.publication import merge_hints

from . import files, pages, results
from .render import render

log = logging.getLogger(__name__)

#: A render of an event starts at least this long after the last one ended; the changes that arrive meanwhile
#: wait in the event's state and go out together in one render. Counted from the render's start until
#: 2026-12-06, which merged nothing once a render took longer than this (2-5 s at 1,000 pairs on a busy box):
#: each message then rendered its own board, one board a render against five boards' hands a second, and
#: the publish queue and the boards' staleness grew all day (docs/operations.md, "The second look").
MIN_INTERVAL = 1.0
#: The sweep renders stale boards for at most this long (it holds the event's lock, which every change's render
#: waits for); the rest wait for the next sweep, or for their own change's message, which usually comes first.
#: Unbounded, on the national day of 2026-12-06 a sweep re-rendered every board whose messages were still
#: queued (1,100-1,500 pages, 13-47 s on the niced publisher), back to back, and the standings waited for it:
#: freshness p95 26 s with a p50 of 1.4 s.
SWEEP_BOARD_SECONDS = 2.0
#: ... and no sooner than this many times the last render's own (wall) time after it: the renders of one event
#: take at most about 1 / (1 + RENDER_PACE) of a publisher's process, and less of a busy box, whose renders take
#: longer. At 1 (the interval alone), each render made cheaper on the national day of 2026-12-06 only made the
#: renders more frequent (145 renders of 2.2 s in a five-minute check, then 261 of 1.0 s): the publisher
#: kept its 0.45 of a core, the scorers' requests waited behind it. A board's page then shows a hand within
#: about (1 + 2 x RENDER_PACE) renders' time; the standings' JSON and table do not wait for it (the worker
#: renders them with each new snapshot: ``publish_standings``). 1.5 until the boards' reads were made all at
#: once (``prefetch_boards``: a change's render 523 -> 320 ms of CPU at 1,000 pairs); 2.5 keeps the pause
#: between renders about as long as before (a board's page as fresh) and the publisher's share at about
#: 1 / 3.5 of a process instead of 1 / 2.5 (docs/operations.md, "The fifth look").
RENDER_PACE = 2.5
SITE_KEY = "_site"


@dataclass
class Outcome:
    """What one publication did: pages rendered, files written and withdrawn, and how long it took."""

    rendered: int = 0
    written: int = 0
    removed: int = 0
    deferred: bool = False
    withdrawn: bool = False
    left: int = 0  # stale board groups a sweep left for its next run (its time budget spent)
    seconds: float = 0.0
    groups: list[str] = field(default_factory=list)

    def add(self, other: Outcome) -> None:
        self.rendered += other.rendered
        self.written += other.written
        self.removed += other.removed


@dataclass
class Group:
    key: str
    fingerprint: str | None  # the standings group's is read under its own lock (``render_standings``)
    addresses: list[str]
    slug: str = ""


def enabled() -> bool:
    return bool(getattr(settings, "PUBLISH_ENABLED", False))


# ---- the renderer's records: one JSON file and one lock per event -----------------------------------------
@contextlib.contextmanager
def locked(slug: str) -> Iterator[None]:
    """One render of an event at a time, across worker processes (a file lock beside the files)."""
    path = files.state_dir() / f"{slug}.lock"
    with open(path, "a+b") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def load_state(slug: str) -> dict[str, Any]:
    try:
        data = json.loads((files.state_dir() / f"{slug}.json").read_text())
    except (FileNotFoundError, ValueError):
        return {"fp": {}}
    return data if isinstance(data, dict) else {"fp": {}}


def save_state(slug: str, state: dict[str, Any]) -> None:
    directory = files.state_dir()
    temp = directory / f".{slug}.{os.getpid()}.tmp"
    temp.write_text(json.dumps(state, sort_keys=True))
    os.replace(temp, directory / f"{slug}.json")


# ---- groups and their fingerprints ------------------------------------------------------------------------
def _board_fingerprints(tournament: Tournament, board_ids: list[int] | None) -> dict[int, tuple[int, str]]:
    """Each public board's round number and fingerprint (its ``updated_at``, newest hand, latest undo) in one
    query; ``board_ids`` None: every board of the event's public rounds."""
    boards = Board.objects.filter(round__tournament=tournament, round__status__in=RoundQuerySet.PUBLIC_STATUSES)
    if board_ids is not None:
        boards = boards.filter(pk__in=board_ids)
    rows = boards.order_by().values_list("id", "round__number", "round__status", "updated_at").annotate(
        hand=Max("games__hands__id"), voided=Max("games__hands__voided_at"))
    return {
        row[0]: (row[1], hashlib.blake2b(repr(row[2:]).encode(), digest_size=12).hexdigest()) for row in rows
    }


def _public_round_numbers(tournament: Tournament) -> list[int]:
    return list(tournament.rounds.public().order_by("number").values_list("number", flat=True))


def results_addresses(tournament: Tournament) -> list[str]:
    """Every address of the results group, in a stable order (a pass's slices walk it)."""
    entry_ids = Entry.objects.filter(tournament=tournament).order_by("id").values_list("id", flat=True)
    club_ids = sorted(set(Entry.objects.filter(tournament=tournament, pair__club__isnull=False).order_by()
                          .values_list("pair__club_id", flat=True).distinct()))
    slug = tournament.slug
    return (pages.results_addresses(slug) + pages.entry_addresses(slug, entry_ids)
            + pages.club_addresses(slug, club_ids) + pages.history_addresses(club_ids, _player_ids(tournament)))


_results_addresses = results_addresses  # the name benchmarks/published_reads.py reads


def _player_ids(tournament: Tournament) -> list[int]:
    pairs = Entry.objects.filter(tournament=tournament).order_by().values_list("pair__player_1_id", "pair__player_2_id")
    return sorted({player for pair in pairs for player in pair if player is not None})


def _history_of(tournament: Tournament) -> list[str]:
    club_ids = sorted(set(Entry.objects.filter(tournament=tournament, pair__club__isnull=False).order_by()
                          .values_list("pair__club_id", flat=True)))
    return pages.history_addresses(club_ids, _player_ids(tournament))


def site_fingerprint() -> str:
    rows = list(Tournament.objects.filter(published=True).order_by("id").values_list(
        "id", "slug", "name", "status", "starts_on", "ends_on", "venue"))
    return hashlib.blake2b(repr(rows).encode(), digest_size=12).hexdigest()


def event_groups(tournament: Tournament, *, rounds: list[int] | None, boards: list[int] | None,
                 results: bool) -> list[Group]:
    """The event group, the named rounds and boards (None: all public ones) and, if asked, the results."""
    slug = tournament.slug
    groups = [Group("standings", None, pages.standings_addresses(slug), slug=slug),
              Group("event", fingerprint(slug, tier="live"), pages.event_addresses(slug))]
    board_prints = _board_fingerprints(tournament, boards)
    numbers = set(_public_round_numbers(tournament) if rounds is None else rounds)
    numbers |= {number for number, _ in board_prints.values()}
    for number in sorted(numbers):
        groups.append(Group(f"round:{number}", fingerprint(slug, tier="live", number=number),
                            pages.round_addresses(slug, number)))
    for board_id in sorted(set(board_prints) | set(boards or [])):
        print_ = board_prints.get(board_id)
        groups.append(Group(f"board:{board_id}", print_[1] if print_ else None, pages.board_addresses(slug, board_id)))
    if results:
        groups.append(Group("results", fingerprint(slug, tier="results"), results_addresses(tournament)))
    return groups


# ---- rendering ----------------------------------------------------------------------------------------------
def render_addresses(addresses: list[str]) -> tuple[Outcome, set[str]]:
    """Render and write each address (unchanged files untouched); a page no longer public is withdrawn.
    Returns the outcome and the addresses now published."""
    outcome, live = Outcome(), set()
    with render_memo():
        render_each(addresses, outcome, live)
    return outcome, live


def render_each(addresses: list[str], outcome: Outcome, live: set[str]) -> None:
    for address in addresses:
        body = render(address)
        outcome.rendered += 1
        if body is None:
            outcome.removed += int(files.remove(address))
            continue
        live.add(address)
        outcome.written += int(files.write(address, body))


def standings_key(slug: str) -> str:
    """The record and lock of an event's standings group: apart from the event's own, so the worker renders
    the standings the moment it stores a new snapshot while the publisher renders the rest (1-2 s at 1,000
    pairs, under the event's lock)."""
    return f"{slug}.standings"


def render_standings(slug: str, *, force: bool = False) -> Outcome:
    """The standings' JSON and whole table when their fingerprint (``tier="standings"``: the latest snapshot,
    the rounds' and the event's states) moved since they were last rendered, by whoever renders them: the
    worker after storing a new snapshot (``publish_standings``), the publisher in a change's render, a full
    render or the sweep (``force`` renders whatever the record says). Under the group's own lock, the
    fingerprint read inside it, so two renderers never both render the same snapshot."""
    key = standings_key(slug)
    with locked(key):
        state = load_state(key)
        print_ = fingerprint(slug, tier="standings")
        if print_ is None or (not force and state.get("fp", {}).get("standings") == print_):
            return Outcome()
        outcome, _ = render_addresses(pages.standings_addresses(slug))
        outcome.groups.append("standings")
        save_state(key, {"fp": {"standings": print_}})
    return outcome


def publish_standings(tournament_id: int) -> Outcome:
    """The worker's render of a new snapshot's standings (``publishing.tasks.publish_standings``, on the
    default queue, sent by ``tournament_standings_recompute`` through the outbox): the standings' JSON is what
    a finished game is waited for on, and the publisher's next render may be seconds away. An event not
    published is left to the publisher (which withdraws it)."""
    if not enabled():
        return Outcome()
    started = time.monotonic()
    slug = Tournament.objects.filter(pk=tournament_id, published=True).values_list("slug", flat=True).first()
    if slug is None:
        return Outcome()
    outcome = render_standings(slug)
    outcome.seconds = time.monotonic() - started
    if outcome.rendered:
        log.info("published %s's standings: %d rendered, %d written in %.3fs", slug, outcome.rendered,
                 outcome.written, outcome.seconds)
    return outcome


def group_boards(groups: list[Group]) -> list[int]:
    """The ids of the boards among ``groups`` (``board:ID``)."""
    return [int(g.key.split(":", 1)[1]) for g in groups if g.key.startswith("board:")]


def render_groups(groups: list[Group], state: dict[str, Any], *, force: set[str] | None = None,
                  board_budget: float | None = None) -> tuple[Outcome, set[str]]:
    """Render the groups forced (None: all) or whose fingerprint moved; record their fingerprints. With
    ``board_budget`` (seconds), board groups already rendered once are rendered again only until that much time
    has gone: the rest stay stale (not recorded) for the next call. A board never rendered (a round just
    published: Django would answer every phone's read of it) is rendered whatever the budget."""
    stored = state.setdefault("fp", {})
    outcome, live = Outcome(), set()
    started = time.monotonic()
    with render_memo():  # one read of the entries, boards and standings for every page of the render
        for group in groups:
            if (board_budget is not None and group.key.startswith("board:") and group.key in stored
                    and time.monotonic() - started >= board_budget):  # a board never rendered always goes out
                if group.fingerprint is None or stored.get(group.key) != group.fingerprint:
                    outcome.left += 1
                continue
            _render_group(group, stored, force, outcome, live)
    return outcome, live


def _render_group(group: Group, stored: dict[str, Any], force: set[str] | None, outcome: Outcome,
                  live: set[str]) -> None:
    forced = force is None or group.key in force or group.key.split(":")[0] in force
    if group.key == "standings":  # its own record and lock (``render_standings``); inside this render's memo
        done = render_standings(group.slug, force=forced)
        outcome.add(done)
        outcome.groups += done.groups
        live |= set(group.addresses)
        return
    if not forced and group.fingerprint is not None and stored.get(group.key) == group.fingerprint:
        return
    done, published = render_addresses(group.addresses)
    outcome.add(done)
    outcome.groups.append(group.key)
    live |= published
    if group.fingerprint is None:
        stored.pop(group.key, None)
    else:
        stored[group.key] = group.fingerprint


def publish_site(*, force: bool = False) -> Outcome:
    """The list of published events, when it changed (or ``force``)."""
    with locked(SITE_KEY):
        state = load_state(SITE_KEY)
        print_ = site_fingerprint()
        if not force and state.get("fp", {}).get("site") == print_:
            return Outcome()
        outcome, _ = render_addresses(pages.site_addresses())
        state.setdefault("fp", {})["site"] = print_
        save_state(SITE_KEY, state)
        return outcome


def withdraw(slug: str) -> Outcome:
    """Take every file of an event down (deleted or unpublished), and forget its fingerprints."""
    outcome = Outcome(withdrawn=True)
    for prefix in pages.event_prefixes(slug):
        outcome.removed += int(files.remove_tree(prefix))
    with contextlib.suppress(FileNotFoundError):
        (files.state_dir() / f"{slug}.json").unlink()
    with locked(standings_key(slug)), contextlib.suppress(FileNotFoundError):  # the worker's render waits
        (files.state_dir() / f"{standings_key(slug)}.json").unlink()
    results.forget(slug)
    return outcome


def _results_due(state: dict[str, Any], now: float) -> bool:
    seconds = float(getattr(settings, "PUBLISH_RESULTS_SECONDS", 10))
    return now - float(state.get("results_at", 0)) >= seconds


def _render_event(tournament: Tournament, hints: dict[str, Any], state: dict[str, Any], now: float,
                  schedule: results.Schedule | None) -> Outcome:
    """The change's groups; the results inline when eager (``schedule`` None) and due, else a pass asked for."""
    if hints.get("full"):
        groups = event_groups(tournament, rounds=None, boards=None, results=False)
        with render_memo():
            prefetch_boards(tournament, group_boards(groups))
            outcome, live = render_groups(groups, state)
        if schedule is None:
            done, published, _ = results.render_inline(tournament, force=True)
            outcome.add(done)
            outcome.groups.append("results")
            live |= published
            state["results_at"] = now
        else:  # the pass renders them; until then they are kept, not pruned
            live |= set(results_addresses(tournament))
            results.request(tournament.pk, tournament.slug, schedule, force=True)
        stale = set().union(*(files.published_addresses(p) for p in pages.event_prefixes(tournament.slug))) - live
        for address in stale:
            outcome.removed += int(files.remove(address))
        state["fp"] = {g.key: g.fingerprint for g in groups if g.fingerprint is not None}
        return outcome
    rounds = list(hints.get("rounds", []))
    boards = list(hints.get("boards", []))
    if not rounds and not boards:
        from tournaments.selectors import round_to_show

        current = round_to_show(tournament)
        rounds = [current.number] if current is not None else []
    groups = event_groups(tournament, rounds=rounds, boards=boards, results=False)
    # the standings' group only when its fingerprint moved: a new snapshot, a round's or the event's state
    # (a change of names or of the standings' settings comes with ``full``, which renders everything)
    with render_memo():  # the boards' reads for all of them at once, then the pages from the memo
        prefetch_boards(tournament, group_boards(groups))
        outcome, _ = render_groups(groups, state, force={"event", "round", "board"})
    if schedule is not None:
        results.request(tournament.pk, tournament.slug, schedule)  # marks dirty; never renders here
    elif _results_due(state, now):
        done, _, rendered = results.render_inline(tournament)
        if rendered:
            outcome.add(done)
            outcome.groups.append("results")
            state["results_at"] = now
    return outcome


#: How long an eager render waits for the tournament's row (a recomputation or a pairing holding it) before
#: it gives up: the task raises OperationalError and is retried with backoff (``publishing.tasks``).
STANDINGS_LOCK_TIMEOUT = "5s"


def _standings_recompute(tournament_id: int) -> None:
    """Bring the standings up to date before rendering them (the ``standings`` hint, eager only: under a worker
    the change's own recomputation message does it, and the worker's render of the new snapshot asks for the
    event's render after it: ``publish_standings``), waiting at most ``STANDINGS_LOCK_TIMEOUT`` for the
    tournament's row on PostgreSQL."""
    from tournaments.services.standings import tournament_standings_recompute

    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(f"SET LOCAL lock_timeout = '{STANDINGS_LOCK_TIMEOUT}'")
        tournament_standings_recompute(tournament_id=tournament_id)


def render_interval(state: dict[str, Any]) -> float:
    """How long after a render's end the next may start: ``MIN_INTERVAL``, or ``RENDER_PACE`` times the last
    render's own time when longer."""
    return max(MIN_INTERVAL, RENDER_PACE * float(state.get("render_seconds", 0.0)))


def publish_event(tournament_id: int, hints: dict[str, Any] | None = None, *,
                  defer: Callable[[float], None] | None = None,
                  schedule_results: results.Schedule | None = None) -> Outcome:
    """Publish one event's change (the task of the outbox's ``publish_event`` messages).

    ``defer(seconds)`` schedules a later run of this task (a worker); None renders at once (eager).
    ``schedule_results(tournament_id, token, seconds)`` queues a results slice (a worker: the results render
    apart, ``publishing.results``); None renders the results inline when due (eager).
    """
    hints = dict(hints or {})
    if not enabled():
        return Outcome()
    started = time.monotonic()
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    slug = tournament.slug if tournament is not None else str(hints.get("slug", ""))
    if not slug:
        return Outcome()
    with locked(slug):
        if tournament is None or not tournament.published:
            outcome = withdraw(slug)
            if tournament is not None:  # unpublished: its clubs' and players' histories lose the event
                done, _ = render_addresses(_history_of(tournament))
                outcome.add(done)
        else:
            state = load_state(slug)
            now = time.time()
            merged = merge_hints(state.pop("pending", {}), hints)
            wait = float(state.get("rendered_at", 0)) + render_interval(state) - now
            if defer is not None and wait > 0 and not hints.get("deferred"):
                state["pending"] = merged
                if float(state.get("deferred_until", 0)) <= now:
                    state["deferred_until"] = now + wait
                    defer(wait)
                save_state(slug, state)
                return Outcome(deferred=True)
            if merged.get("standings") and defer is None:  # eager: no worker recomputes them first
                _standings_recompute(tournament.pk)
            state.pop("deferred_until", None)
            outcome = _render_event(tournament, merged, state, now, schedule_results)
            state["rendered_at"] = time.time()  # when it ended: see MIN_INTERVAL
            state["render_seconds"] = round(state["rendered_at"] - now, 3)  # see RENDER_PACE
            save_state(slug, state)
    outcome.add(publish_site(force=outcome.withdrawn))
    outcome.seconds = time.monotonic() - started
    log.info("published %s: %d rendered, %d written, %d withdrawn in %.3fs (%s)", slug, outcome.rendered,
             outcome.written, outcome.removed, outcome.seconds, ",".join(outcome.groups[:6]))
    return outcome


def publish_full(tournament_id: int) -> Outcome:
    """Render every page of an event (or withdraw it), now."""
    return publish_event(tournament_id, {"full": True})


#: An event rendered this recently is busy: its changes' messages are flowing, and what the sweep would find
#: stale is mostly what they are about to render. The sweep (every 30 s) looks at a busy event only every
#: ``SWEEP_BUSY_EVERY`` seconds (the net for a lost message stays); on the national day's check of 2026-12-06
#: 10:44 its renders of boards whose messages were still queued took 3.3 s of the publisher every 30 s.
SWEEP_BUSY_SECONDS = 10.0
SWEEP_BUSY_EVERY = 120.0


def _busy(state: dict[str, Any], now: float) -> bool:
    recent = now - float(state.get("rendered_at", 0)) < SWEEP_BUSY_SECONDS
    return recent and now - float(state.get("swept_at", 0)) < SWEEP_BUSY_EVERY


def _due(state: dict[str, Any], now: float) -> set[str]:
    """The board groups a deferred render is due to render (its time not long past: its message not lost)."""
    if float(state.get("deferred_until", 0)) < now - SWEEP_BUSY_SECONDS:
        return set()
    return {f"board:{board_id}" for board_id in state.get("pending", {}).get("boards", [])}


def sweep(*, schedule_results: results.Schedule | None = None) -> dict[str, int]:
    """Re-render every group whose fingerprint moved; withdraw events no longer published (Celery beat).
    The results: inline (``schedule_results`` None) or, under a worker, a pass asked for where their stored
    fingerprint differs or a pass was abandoned (``results.watch``)."""
    if not enabled():
        return {}
    published = dict(Tournament.objects.filter(published=True).values_list("slug", "id"))
    counts = {"events": 0, "rendered": 0, "written": 0, "withdrawn": 0, "results_asked": 0, "boards_left": 0}
    for prefix in pages.event_prefixes("x"):
        folder = files.file_for(prefix).parent.parent  # <root>/t, <root>/api/v1/public/tournaments
        if folder.is_dir():
            for child in folder.iterdir():
                if child.is_dir() and not child.name.startswith(".") and child.name not in published:
                    with locked(child.name):
                        withdraw(child.name)
                    counts["withdrawn"] += 1
    for slug, tournament_id in sorted(published.items()):
        tournament = Tournament.objects.filter(pk=tournament_id, published=True).first()
        if tournament is None:
            continue
        outcome = Outcome()
        with locked(slug):
            state = load_state(slug)
            now = time.time()
            # boards left stale by the last sweep's budget are looked at again even if the event has not moved
            moved = state.get("fp", {}).get("event") != fingerprint(slug, tier="live") or state.get("boards_left")
            if moved and not _busy(state, now):
                due = _due(state, now)
                groups = event_groups(tournament, rounds=None, boards=None, results=False)
                outcome, _ = render_groups([g for g in groups if g.key not in due], state, force=set(),
                                           board_budget=SWEEP_BOARD_SECONDS)
                # the boards left to the deferred render are looked at again next time (its message may be lost)
                outcome.left += sum(1 for g in groups if g.key in due)
                state["boards_left"] = outcome.left
                state["swept_at"] = now
                save_state(slug, state)
        if schedule_results is not None:
            counts["results_asked"] += int(results.watch(tournament_id, slug, schedule_results) is not None)
        else:
            done, _, rendered = results.render_inline(tournament)
            outcome.add(done)
            if rendered:
                outcome.groups.append("results")
        if outcome.groups:
            counts["events"] += 1
        counts["rendered"] += outcome.rendered
        counts["boards_left"] += outcome.left
        counts["written"] += outcome.written
    site = publish_site()
    counts["rendered"] += site.rendered
    counts["written"] += site.written
    return counts
