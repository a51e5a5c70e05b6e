"""CPU time from /proc: per process tree (a service and everything it forked) and for the whole machine.

A tree's time is the user and system time of its live processes plus what each of them reaped from
children that exited (``cutime``/``cstime``): PostgreSQL backends and recycled gunicorn workers count
once they are gone too.
"""

from __future__ import annotations

import os
import resource
from collections import defaultdict
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")


def _stats() -> dict[int, tuple[int, float]]:
    """pid -> (ppid, CPU seconds of the process and its reaped children)."""
    found: dict[int, tuple[int, float]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            raw = (entry / "stat").read_text()
        except OSError:
            continue
        fields = raw[raw.rfind(")") + 2:].split()
        # fields[0] is the state: ppid is fields[1]; utime, stime, cutime, cstime are fields[11:15]
        ppid = int(fields[1])
        ticks = sum(int(v) for v in fields[11:15])
        found[int(entry.name)] = (ppid, ticks / TICK)
    return found


def tree_seconds(roots: dict[str, int]) -> dict[str, float]:
    """CPU seconds used so far by each named process tree."""
    stats = _stats()
    children: dict[int, list[int]] = defaultdict(list)
    for pid, (ppid, _) in stats.items():
        children[ppid].append(pid)
    totals: dict[str, float] = {}
    for name, root in roots.items():
        total, todo = 0.0, [root]
        while todo:
            pid = todo.pop()
            if pid in stats:
                total += stats[pid][1]
                todo.extend(children.get(pid, []))
        totals[name] = total
    return totals


def self_seconds() -> float:
    """This process's own CPU seconds (user + system)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def machine_busy_seconds() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine since boot, over all cores."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + (values[4] if len(values) > 4 else 0)
    total = sum(values[:8])
    return (total - idle) / TICK, total / TICK
