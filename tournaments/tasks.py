"""Celery tasks: they take ids, re-fetch, and call one service (HackSoft).

Acks late, rejected on worker loss, JSON only, with the time limits of config/settings/base.py. Both
tasks are idempotent: publishing one twice (the outbox sweep after a crash) does no harm.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from typing import Any

from celery import shared_task
from django.db import transaction

TASK_OPTIONS: dict[str, Any] = {"acks_late": True, "reject_on_worker_lost": True}

#: The real standings service, once it exists: ``tournament_standings_recompute(*, tournament_id)``.
STANDINGS_SERVICE = ("tournaments.services.standings", "tournament_standings_recompute")


@shared_task(name="tournaments.tasks.outbox_sweep", **TASK_OPTIONS)
def outbox_sweep() -> int:
    """Publish outbox rows still unsent (Redis was down, a process died)."""
    from tournaments.services.outbox import outbox_sweep as sweep

    return sweep()


@shared_task(name="tournaments.tasks.standings_recompute", **TASK_OPTIONS)
def standings_recompute(tournament_id: int) -> bool:
    """Recompute a tournament's standings from confirmed games (True when a new snapshot was stored)."""
    try:
        module = importlib.import_module(STANDINGS_SERVICE[0])
        service = getattr(module, STANDINGS_SERVICE[1])
    except (ImportError, AttributeError):
        return _standings_placeholder(tournament_id)
    return bool(service(tournament_id=tournament_id))


@transaction.atomic
def _standings_placeholder(tournament_id: int) -> bool:
    """Stand-in until the ranking lands: totals per entry over confirmed games, stored once per input."""
    from tournaments.models import Board, StandingsSnapshot, Tournament

    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        return False
    rows: dict[int, dict[str, int]] = {}
    boards = Board.objects.filter(round__tournament=tournament).order_by("id").values(
        "pair_a_id", "pair_b_id", "bullseyes_a", "bullseyes_b", "chalks_a", "chalks_b", "hang_jacks_a",
        "hang_jacks_b", "decided", "winner", "is_draw", "all_confirmed")
    for b in boards:
        for side, entry in ((0, b["pair_a_id"]), (1, b["pair_b_id"])):
            if entry is None:
                continue
            row = rows.setdefault(entry, {"entry": entry, "match_points": 0, "bullseyes": 0, "chalks_for": 0,
                                          "chalks_against": 0, "hang_jacks": 0})
            mine, theirs = ("a", "b") if side == 0 else ("b", "a")
            row["bullseyes"] += b[f"bullseyes_{mine}"]
            row["chalks_for"] += b[f"chalks_{mine}"]
            row["chalks_against"] += b[f"chalks_{theirs}"]
            row["hang_jacks"] += b[f"hang_jacks_{mine}"]
            if b["decided"] and b["all_confirmed"]:
                row["match_points"] += 1 if b["is_draw"] else (2 if b["winner"] == side else 0)
    ordered = sorted(rows.values(), key=lambda r: (-r["match_points"], -r["bullseyes"],
                                                   -(r["chalks_for"] - r["chalks_against"]), r["entry"]))
    source_hash = hashlib.sha256(json.dumps(ordered, sort_keys=True).encode()).hexdigest()
    latest = StandingsSnapshot.objects.filter(tournament=tournament).order_by("-created_at", "-id").first()
    if latest is not None and latest.source_hash == source_hash:
        return False
    after_round = tournament.rounds.filter(status="closed").order_by("-number").values_list("number", flat=True).first()
    StandingsSnapshot.objects.create(tournament=tournament, source_hash=source_hash, rows=ordered,
                                     after_round=after_round or 0)
    return True
