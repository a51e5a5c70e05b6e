"""At most one run of a worker's task per key at a time, with a pause between runs: a burst of calls becomes
the run in progress and one more after it.

A national day's boards finish their games in waves (a round starts them together): on 2026-12-06 a wave
brought several confirmations a second for tens of seconds, each one a standings recomputation of 1,000
pairs (0.1-1 s) and each new snapshot a render of the standings (0.7-1.4 s on the busy box), so both
worker processes ran flat out and the tablets waited seconds for the CPU (docs/operations.md). The
recomputation reads the latest games whenever it runs, so a run that starts after a call covers it: calls
arriving during a run need one run after it, not one each.

The lease and the count of calls live in the cache (Redis in production, shared by every worker process):

* a call counts itself, then takes the lease (``cache.add``) or, finding it held, leaves its call to the
  holder ("merged");
* the holder notes the count, runs, gives the lease back, and if the count moved meanwhile takes the lease
  again and asks for one more run ``gap`` seconds later (``again``), which holds the lease through the
  pause: calls during it merge into that run. A call after the give-back takes the lease itself, so none is
  lost between the two;
* a lease outlives a process killed mid-run by at most ``LEASE_SECONDS``; the outbox sweep and the
  reconciliation publish what was missed meanwhile. A cache that answers nothing (Redis down: the cache's
  errors are ignored) holds no lease, and every call runs, as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.core.cache import cache

T = TypeVar("T")

LEASE_SECONDS = 30
CALLS_SECONDS = 3600


def _keys(key: str) -> tuple[str, str]:
    return f"hangjack:coalesce:{key}:lease", f"hangjack:coalesce:{key}:calls"


def _count(calls: str) -> None:
    cache.add(calls, 0, CALLS_SECONDS)
    try:
        cache.incr(calls)
    except ValueError:  # expired between the two
        cache.set(calls, 1, CALLS_SECONDS)


def coalesced(key: str, run: Callable[[], T], *, again: Callable[[float], None], gap: float,
              owner: bool = False) -> tuple[str, T | None]:
    """``run()`` unless a run of ``key`` is in progress or due (then ``("merged", None)``); after it, when
    calls came meanwhile, ``again(gap)`` schedules the next run with ``owner=True``. Returns ``("done" or
    "again", run's result)``."""
    lease, calls = _keys(key)
    if not owner:
        _count(calls)
        if not cache.add(lease, 1, LEASE_SECONDS) and cache.get(lease) is not None:
            return "merged", None
    seen = cache.get(calls)
    try:
        result = run()
    finally:
        cache.delete(lease)  # given back even when the run fails (its retry comes back as a call)
    if cache.get(calls) != seen and cache.add(lease, 1, LEASE_SECONDS):
        try:
            again(gap)
        except Exception:
            cache.delete(lease)  # not scheduled: the next call runs (and beat's reconciliation asks each minute)
            raise
        return "again", result
    return "done", result


__all__ = ["LEASE_SECONDS", "coalesced"]
