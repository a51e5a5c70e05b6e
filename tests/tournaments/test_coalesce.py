"""One run per key at a time, and one more after it for the calls that came meanwhile (services/coalesce.py).

The standings' recomputation at a national day's wave of finished games: several calls a second, each a
second of CPU on a busy box; now the run in progress and one more after a pause.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.test import override_settings

from tournaments.services import coalesce


@pytest.fixture(autouse=True)
def _clean_cache():
    cache.clear()
    yield
    cache.clear()


class Later:
    """``again``: remembers the runs asked for instead of queueing them."""

    def __init__(self) -> None:
        self.asked: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.asked.append(seconds)


def test_calls_during_a_run_merge_into_one_run_after_it_which_holds_the_lease_through_the_pause():
    later, runs, merged = Later(), [], []

    def run() -> str:
        runs.append("run")
        for _ in range(3):  # three confirmations arrive while the standings are recomputed
            merged.append(coalesce.coalesced("k", lambda: "inner", again=later, gap=0.5)[0])
        return "stored"

    assert coalesce.coalesced("k", run, again=later, gap=0.5) == ("again", "stored")
    assert merged == ["merged"] * 3 and runs == ["run"] and later.asked == [0.5]
    # during the pause the next run holds the lease: another call merges too
    assert coalesce.coalesced("k", lambda: "x", again=later, gap=0.5) == ("merged", None)
    # the run asked for (owner) runs; nothing came during it: done, lease given back
    assert coalesce.coalesced("k", lambda: "second", again=later, gap=0.5, owner=True) == ("done", "second")
    assert later.asked == [0.5]
    assert coalesce.coalesced("k", lambda: "third", again=later, gap=0.5) == ("done", "third")


def test_a_quiet_call_runs_at_once_and_keys_do_not_share_a_lease():
    later = Later()

    def run() -> int:
        assert coalesce.coalesced("other", lambda: 2, again=later, gap=1) == ("done", 2)
        return 1

    assert coalesce.coalesced("one", run, again=later, gap=1) == ("done", 1)
    assert later.asked == []


def test_a_failed_run_or_a_failed_request_for_the_next_gives_the_lease_back():
    later = Later()

    def boom() -> None:
        raise RuntimeError("database gone")

    with pytest.raises(RuntimeError):
        coalesce.coalesced("k", boom, again=later, gap=0.5)
    assert coalesce.coalesced("k", lambda: 1, again=later, gap=0.5) == ("done", 1)  # not left "merged"

    def broker_down(seconds: float) -> None:
        raise ConnectionError("redis")

    def run() -> int:
        coalesce.coalesced("k", lambda: 0, again=broker_down, gap=0.5)  # a call during the run
        return 1

    with pytest.raises(ConnectionError):
        coalesce.coalesced("k", run, again=broker_down, gap=0.5)
    assert coalesce.coalesced("k", lambda: 2, again=later, gap=0.5) == ("done", 2)


@override_settings(CACHES={"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}})
def test_a_cache_that_keeps_nothing_lets_every_call_run():
    from django.core.cache import caches

    later, inner = Later(), []
    dummy = caches["default"]
    original = coalesce.cache
    coalesce.cache = dummy  # the module's cache as Redis down with its errors ignored answers: nothing kept
    try:
        def run() -> int:
            inner.append(coalesce.coalesced("k", lambda: 2, again=later, gap=0.5))
            return 1

        assert coalesce.coalesced("k", run, again=later, gap=0.5)[1] == 1
    finally:
        coalesce.cache = original
    assert inner == [("done", 2)]


@pytest.mark.django_db
def test_the_standings_task_under_a_worker_runs_once_for_calls_during_its_run(monkeypatch: Any):
    from config.celery import app
    from tournaments import tasks
    from tournaments.services import standings

    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False  # as under a worker (restored below: Celery's settings are no object)
    queued: list[tuple[list[Any], float]] = []
    monkeypatch.setattr(tasks.standings_recompute, "apply_async",
                        lambda args, countdown, retry: queued.append((args, countdown)))
    runs: list[int] = []

    def recompute(*, tournament_id: int, nowait: bool = False) -> bool:
        runs.append(tournament_id)
        if len(runs) == 1:
            assert tasks.standings_recompute.run(7) is False  # a second confirmation's task: merged
        return True

    monkeypatch.setattr(standings, "tournament_standings_recompute", recompute)
    try:
        assert tasks.standings_recompute.run(7) is True
        assert runs == [7] and queued == [([7, True], tasks.STANDINGS_GAP_SECONDS)]
        assert tasks.standings_recompute.run(7, True) is True  # the run after the pause
        assert runs == [7, 7] and len(queued) == 1
    finally:
        app.conf.task_always_eager = eager


def test_a_call_delivered_again_after_its_worker_was_killed_runs_in_spite_of_its_own_lease():
    """The worker killed mid-run leaves the lease (held up to ``LEASE_SECONDS``) naming the task; the same task
    delivered again (``acks_late``) finds its own token and runs, while any other call still merges."""
    lease, _calls = coalesce._keys("standings:9")
    killed_runs: list[str] = []

    def killed() -> str:
        raise SystemExit("SIGKILL")  # the process dies inside the run: its lease is never given back

    with pytest.raises(SystemExit):
        coalesce.coalesced("standings:9", killed, again=Later(), gap=0.5, token="task-1")
    cache.set(lease, "task-1", coalesce.LEASE_SECONDS)  # as the dead process left it (no finally in a SIGKILL)
    assert coalesce.coalesced("standings:9", lambda: killed_runs.append("x"), again=Later(), gap=0.5,
                              token="task-2") == ("merged", None)
    assert coalesce.coalesced("standings:9", lambda: "ran", again=Later(), gap=0.5, token="task-1") == ("done", "ran")
    assert killed_runs == [] and cache.get(lease) is None
