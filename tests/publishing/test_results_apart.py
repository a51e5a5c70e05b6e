"""The results group apart from the changes (docs/adr/0013, "Results apart from changes"): under a worker a
change never waits for a results pass; a pass's slices render every results page exactly once; a change during
a pass brings exactly one more pass; passes are paced; an abandoned pass is replaced, never doubled."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from publishing import files, publish, results
from tournaments.models import Board
from tournaments.selectors.fingerprint import fingerprint

pytestmark = pytest.mark.django_db(transaction=True)


class Queue:
    """Stands for the Celery queue: records each slice queued (``schedule_results``)."""

    def __init__(self) -> None:
        self.sent: list[tuple[int, str, float]] = []

    def __call__(self, tournament_id: int, token: str, seconds: float) -> bool:
        self.sent.append((tournament_id, token, seconds))
        return True

    @property
    def token(self) -> str:
        return self.sent[-1][1]


def change(tournament: Any, board: Any, queue: Queue) -> publish.Outcome:
    """A change's message as a worker runs it (results apart), the one-a-second merging out of the way."""
    state = publish.load_state(tournament.slug)
    state["rendered_at"] = 0
    publish.save_state(tournament.slug, state)
    return publish.publish_event(tournament.pk, {"boards": [board.pk]}, defer=lambda seconds: None,
                                 schedule_results=queue)


def move_results(board: Any) -> None:
    """A change the results show (a board's update), made behind the services' back: no eager render."""
    Board.objects.filter(pk=board.pk).update(updated_at=timezone.now())


def run_pass(tournament: Any, queue: Queue, *, pages: int = 3) -> list[dict[str, Any]]:
    """Run the queued pass slice by slice, as the worker would, until it ends."""
    done: list[dict[str, Any]] = []
    token = queue.token
    while True:
        before = len(queue.sent)
        result = results.run_slice(tournament.pk, token, queue, max_pages=pages, max_seconds=60)
        done.append(result)
        if result["status"] != "continued":
            return done
        # the rest, paced by the slice's own time (SLICE_PACE)
        assert len(queue.sent) == before + 1 and queue.sent[-1][1] == token and queue.sent[-1][2] >= 0


def test_a_change_renders_and_writes_while_a_results_pass_holds_its_lock(event: Any, publish_root: Path) -> None:
    tournament, _round, boards, _entries = event
    queue = Queue()
    results.request(tournament.pk, tournament.slug, queue, force=True)
    assert results.run_slice(tournament.pk, queue.token, queue, max_pages=2)["status"] == "continued"
    lock = files.state_dir() / f"{tournament.slug}.results.lock"
    holder = subprocess.Popen(  # a slice rendering in another worker process: holds the results lock 30 s
        [sys.executable, "-c", "import fcntl, sys, time; f = open(sys.argv[1], 'a+b'); "
         "fcntl.flock(f.fileno(), fcntl.LOCK_EX); print('held', flush=True); time.sleep(30)", str(lock)],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        board_page = f"/t/{tournament.slug}/boards/{boards[0].pk}/"
        files.remove(board_page, publish_root)
        sent = len(queue.sent)
        started = time.monotonic()
        outcome = change(tournament, boards[0], queue)
        elapsed = time.monotonic() - started
    finally:
        holder.kill()
        holder.wait()
    assert elapsed < 15, elapsed  # not the 30 s the lock is held
    # event 6, round 1 3, board 3 (the standings' 2 unchanged: no new snapshot since the last render); no results
    assert outcome.rendered == 12 and "results" not in outcome.groups
    assert files.file_for(board_page, publish_root).read_bytes() == Client().get(board_page).content
    assert len(queue.sent) == sent  # the pass in flight is not doubled ...
    assert results.load(tournament.slug)["dirty"] is True  # ... it is marked to run again


def test_a_pass_renders_every_results_page_exactly_once(event: Any, publish_root: Path, monkeypatch: Any) -> None:
    tournament, _round, _boards, _entries = event
    rendered: list[str] = []
    original = publish.render

    def counted(address: str) -> Any:
        rendered.append(address)
        return original(address)

    monkeypatch.setattr(publish, "render", counted)
    queue = Queue()
    assert results.request(tournament.pk, tournament.slug, queue, force=True) == "scheduled"
    slices = run_pass(tournament, queue, pages=3)
    expected = publish.results_addresses(tournament)
    assert len(expected) > 6 and rendered == expected  # each once, in order, none twice
    assert len(slices) == -(-len(expected) // 3) and slices[-1]["status"] == "finished"
    state = results.load(tournament.slug)
    assert "pass" not in state and state["fp"] == fingerprint(tournament.slug, tier="results")
    for address in expected:
        assert files.file_for(address, publish_root).read_bytes() == Client().get(address).content, address
    assert results.run_slice(tournament.pk, queue.token, queue)["status"] == "idle"  # a late copy does nothing


def test_changes_during_a_pass_bring_exactly_one_more_pass(event: Any, publish_root: Path) -> None:
    tournament, _round, boards, _entries = event
    queue = Queue()
    results.request(tournament.pk, tournament.slug, queue, force=True)
    first = queue.token
    assert results.run_slice(tournament.pk, first, queue, max_pages=2)["status"] == "continued"
    sent = len(queue.sent)
    for board in boards:  # two changes the results show, mid-pass
        move_results(board)
        change(tournament, board, queue)
    assert len(queue.sent) == sent  # no second pass beside this one
    slices = run_pass(tournament, queue)
    assert slices[-1]["status"] == "finished" and slices[-1]["next"] == "queued"
    second = queue.token
    assert second != first and len(queue.sent) == sent + len(slices) - 1 + 1
    slices = run_pass(tournament, queue)  # the one more pass: it renders (the results moved) ...
    assert slices[-1]["status"] == "finished" and "next" not in slices[-1]
    assert queue.token == second  # ... and no third
    assert results.load(tournament.slug)["fp"] == fingerprint(tournament.slug, tier="results")


def test_a_pass_with_nothing_moved_renders_nothing(event: Any, publish_root: Path) -> None:
    tournament, _round, boards, _entries = event
    results.render_inline(tournament)  # the results as the database has them (the fixture seats behind its back)
    queue = Queue()
    change(tournament, boards[0], queue)
    assert results.run_slice(tournament.pk, queue.token, queue)["status"] == "unchanged"
    state = results.load(tournament.slug)
    assert "pass" not in state and "queued" not in state and state["checked_at"] > 0


def test_passes_are_paced_by_the_interval_and_by_their_own_work(event: Any, settings: Any) -> None:
    tournament, _round, _boards, _entries = event
    settings.PUBLISH_RESULTS_SECONDS = 10
    assert results.due_at({"started_at": 100, "ended_at": 102, "duration": 1}) == 110  # the interval rules
    settings.PUBLISH_RESULTS_PACE = 4
    assert results.due_at({"started_at": 100, "ended_at": 130, "duration": 30}) == 250  # 4 x its work rules
    settings.PUBLISH_RESULTS_PACE = 2
    assert results.due_at({"started_at": 100, "ended_at": 130, "duration": 30}) == 190  # the setting's pace
    settings.PUBLISH_RESULTS_PACE = 4
    now = time.time()
    results._save(tournament.slug, {"fp": "x", "started_at": now - 40, "ended_at": now - 5, "duration": 20})
    queue = Queue()
    assert results.request(tournament.pk, tournament.slug, queue, now=now) == "scheduled"
    assert queue.sent[-1][2] == pytest.approx(75)  # ended 5 s ago, worked 20 s: starts 80 s after its end
    assert results.request(tournament.pk, tournament.slug, queue, now=now + 1) == "queued"
    assert len(queue.sent) == 1  # one start queued, however many changes ask
    # a look that found nothing moved: the next one waits the interval (not one a second while hands go in)
    assert results.due_at({"started_at": 100, "checked_at": 150, "ended_at": 101, "duration": 1}) == 160


def test_an_abandoned_pass_is_replaced_and_its_late_slices_stop(event: Any, publish_root: Path) -> None:
    tournament, _round, _boards, _entries = event
    queue = Queue()
    results.request(tournament.pk, tournament.slug, queue, force=True)
    lost = queue.token
    assert results.run_slice(tournament.pk, lost, queue, max_pages=1)["status"] == "continued"
    later = time.time() + results.STALE_SECONDS + 1  # its next slice never came (a worker killed, Redis lost)
    assert results.request(tournament.pk, tournament.slug, queue, now=later) == "scheduled"
    assert queue.token != lost
    assert results.run_slice(tournament.pk, lost, queue)["status"] == "stale"  # the old pass stops


def test_the_sweep_under_a_worker_asks_for_a_pass_instead_of_rendering_results(event: Any, publish_root: Path) -> None:
    tournament, _round, boards, _entries = event
    move_results(boards[0])
    queue = Queue()
    counts = publish.sweep(schedule_results=queue)
    assert counts["results_asked"] == 1 and len(queue.sent) == 1
    assert publish.sweep(schedule_results=queue)["results_asked"] == 0  # queued already: not twice
    run_pass(tournament, queue)
    assert results.load(tournament.slug)["fp"] == fingerprint(tournament.slug, tier="results")


def test_a_full_render_under_a_worker_keeps_the_results_files_and_forces_a_pass(event: Any, publish_root: Path) -> None:
    tournament, _round, _boards, entries = event
    pair_page = f"/t/{tournament.slug}/pairs/{entries[0].pk}/"
    assert files.file_for(pair_page, publish_root).exists()
    queue = Queue()
    publish.save_state(tournament.slug, {"fp": {}})  # the one-a-second merging out of the way
    outcome = publish.publish_event(tournament.pk, {"full": True}, defer=lambda s: None, schedule_results=queue)
    assert "results" not in outcome.groups and files.file_for(pair_page, publish_root).exists()  # not pruned
    assert len(queue.sent) == 1
    slices = run_pass(tournament, queue, pages=100)  # forced: renders though nothing moved
    assert slices[-1]["status"] == "finished" and slices[-1]["pages"] == len(publish.results_addresses(tournament))


def test_the_results_task_runs_a_whole_pass_through_celery(event: Any, publish_root: Path) -> None:
    """The wiring: ``schedule_results`` sends ``publishing.tasks.publish_results`` (eager here: each slice, and
    the slice it queues, runs at once), and the pass ends with the fingerprint recorded."""
    from publishing import tasks

    tournament, _round, boards, _entries = event
    move_results(boards[0])
    assert results.request(tournament.pk, tournament.slug, tasks.schedule_results) == "scheduled"
    state = results.load(tournament.slug)
    assert "pass" not in state and "queued" not in state
    assert state["fp"] == fingerprint(tournament.slug, tier="results") and state["duration"] > 0


def test_a_passs_slices_are_paced_by_their_own_time(event: Any, settings: Any) -> None:
    """A slice that rendered for W seconds queues the rest of its pass SLICE_PACE x W later, not at once: a
    pass at 1,000 pairs took the publisher's whole process for 70-100 s (docs/operations.md, "The fifth
    look")."""
    tournament, _round, _boards, _entries = event
    settings.PUBLISH_RESULTS_SLICE_PACE = 2
    queue = Queue()
    results.request(tournament.pk, tournament.slug, queue, force=True)
    token = queue.token
    assert results.run_slice(tournament.pk, token, queue, max_pages=1)["status"] == "continued"
    assert results._end_slice(tournament.pk, tournament.slug, token, 0, 0.75, queue)["status"] == "continued"
    assert queue.sent[-1][1:] == (token, pytest.approx(1.5))
    assert results.slice_pace() == 2 and results.SLICE_PACE == 2 and results.PACE == 2
