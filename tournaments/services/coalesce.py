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
* a lease outlives a process killed mid-run by at most ``LEASE_SECONDS``, but the killed run itself does
  not wait for it: the lease holds the call's ``token`` (the task's id), and the same task delivered again
  (its worker killed: ``acks_late``) finds its own token and runs. Other calls merge into it as into any run.
  Until 2026-12-06 the publisher's render recomputed the standings too, which hid a redelivered run that
  merged into its own dead lease (the drills' worker kill); the outbox sweep and the reconciliation publish
  what was missed besides. A cache that answers nothing (Redis down: the cache's
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
              owner: bool = False, token: str = "") -> tuple[str, T | None]:
    """``run()`` unless a run of ``key`` is in progress or due (then ``("merged", None)``); after it, when
    calls came meanwhile, ``again(gap)`` schedules the next run with ``owner=True``. ``token`` names the call
    (a task's id): a lease holding it is this very call's, taken before its process was killed, and it runs.
    Returns ``("done" or "again", run's result)``."""
    lease, calls = _keys(key)
    if not owner:
        _count(calls)
        if not cache.add(lease, token or 1, LEASE_SECONDS):
            held = cache.get(lease)
            if held is not None and not (token and held == token):
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
