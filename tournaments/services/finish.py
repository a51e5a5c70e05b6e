"""The end of an event: ``tournament_finish`` and ``tournament_reopen`` (docs/organiser-guide.md, "From the
last round to the prize table").

Finishing is refused (409) while anything is left to play or to rule on, with the round or table named:

* ``round_open``: a round pending, drafted, published or in play ("Round 4 is still in play: close it
  first");
* ``dispute_open``: a disputed board ("Round 3, table 2 is disputed: rule on it first");
* ``tournament_not_started``: no round was ever played;
* ``tournament_finished``: the event is already finished.

Otherwise, in one transaction: the standings are recomputed from the confirmed games; the final results are
frozen in ``Tournament.final_results`` (``selectors.final.final_results_data``: the final standings with the
tie-break order and each tie-break's explanation, the prizes awarded, the payout and the records); the
status becomes ``finished`` with ``finished_at``; every tablet of the event is revoked and its unused
pairing codes voided (``devices.tournament_devices_revoke``); an audit event and an outbox message (the
public pages then say "Final results").

Reopening (``tournament_reopen``, refused 409 ``tournament_not_finished`` unless finished) sets the event
running again: the final results are kept, marked superseded (``final_results["reopened_at"]``), and the
tablets stay revoked: each table's tablet must be paired again.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from tournaments.actors import Actor
from tournaments.models import Board, Round, Tournament
from tournaments.selectors.final import final_results_data, venue_zone
from tournaments.selectors.snapshots import latest_snapshot

from ._common import STANDINGS_TASK, require_organiser
from .audit import audit_record
from .devices import tournament_devices_revoke
from .errors import Conflict
from .outbox import outbox_enqueue
from .publication import public_change
from .standings import tournament_standings_recompute

#: What the organiser is told about a round that is not closed, by its status.
ROUND_REFUSALS = {
    Round.Status.PENDING: "Round {n} is still being paired: pair it, play it and close it first.",
    Round.Status.DRAFTED: "Round {n} is drafted but not played: publish it, play it and close it first.",
    Round.Status.PUBLISHED: "Round {n} is still in play: close it first.",
    Round.Status.IN_PLAY: "Round {n} is still in play: close it first.",
}


def finish_refusals(tournament: Tournament) -> list[Conflict]:
    """Every reason the event cannot finish now (empty: it can). A read: the console shows these before
    the organiser confirms, and ``tournament_finish`` raises the first."""
    if tournament.status == Tournament.Status.FINISHED:
        when = (tournament.finished_at.astimezone(venue_zone(tournament)).strftime("%d %b %Y %H:%M")
                if tournament.finished_at else "")
        return [Conflict("tournament_finished",
                         f"The event is already finished{' (' + when + ')' if when else ''}: reopen it to change anything.")]
    refusals: list[Conflict] = []
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number").values_list("number", "status"))
    if not rounds:
        return [Conflict("tournament_not_started", "No round has been played yet: there is nothing to finish.")]
    for number, status in rounds:
        if status != Round.Status.CLOSED:
            refusals.append(Conflict("round_open", ROUND_REFUSALS.get(status, "Round {n} is open: close it first.")
                                     .format(n=number), current={"round": number, "status": status}))
    disputed = Board.objects.filter(round__tournament=tournament, disputed=True).order_by("round__number", "table")
    for number, table in disputed.values_list("round__number", "table"):
        refusals.append(Conflict("dispute_open", f"Round {number}, table {table} is disputed: rule on it first.",
                                 current={"round": number, "table": table}))
    return refusals


@transaction.atomic
def tournament_finish(*, tournament: Tournament, user: Actor) -> Tournament:
    """End the event (see the module): refused 409 while a round is open or a board disputed."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if user is not None:
        require_organiser(user, locked.pk)
    refusals = finish_refusals(locked)
    if refusals:
        raise refusals[0]
    tournament_standings_recompute(tournament_id=locked.pk)
    now = timezone.now()
    previous = locked.final_results if isinstance(locked.final_results, dict) else None
    results = final_results_data(locked, latest_snapshot(locked), finished_at=now)
    if previous and previous.get("reopened_at"):
        results["previous"] = [*previous.get("previous", []),
                               {"finished_at": previous.get("finished_at"), "reopened_at": previous.get("reopened_at")}]
    locked.status, locked.finished_at, locked.final_results = Tournament.Status.FINISHED, now, results
    locked.save(update_fields=["status", "finished_at", "final_results"])
    revoked = tournament_devices_revoke(tournament=locked, user=user)
    audit_record(action="tournament.finish", obj=locked, tournament_id=locked.pk, user=user,
                 after={"finished_at": now.isoformat(), "tablets_revoked": revoked,
                        "prizes": [{"title": p["title"], "winners": [w["name"] for w in p["winners"]]}
                                   for p in results["prizes"]],
                        "payout": {k: results["payout"][k] for k in ("total_paid", "fees_collected", "balance")}})
    outbox_enqueue(STANDINGS_TASK, [locked.pk], coalesce_key=f"standings:{locked.pk}")
    public_change(locked.pk, full=True, standings=True)
    return locked


@transaction.atomic
def tournament_reopen(*, tournament: Tournament, user: Actor) -> Tournament:
    """Set a finished event running again; its final results are kept but superseded, its tablets stay
    revoked (409 ``tournament_not_finished`` unless it is finished)."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if user is not None:
        require_organiser(user, locked.pk)
    if locked.status != Tournament.Status.FINISHED:
        raise Conflict("tournament_not_finished", "The event is not finished: there is nothing to reopen.")
    now = timezone.now()
    results: dict[str, Any] = dict(locked.final_results or {})
    results["reopened_at"] = now.isoformat()
    locked.status, locked.final_results = Tournament.Status.RUNNING, results
    locked.save(update_fields=["status", "final_results"])
    audit_record(action="tournament.reopen", obj=locked, tournament_id=locked.pk, user=user,
                 before={"finished_at": locked.finished_at.isoformat() if locked.finished_at else None},
                 after={"reopened_at": results["reopened_at"]})
    outbox_enqueue(STANDINGS_TASK, [locked.pk], coalesce_key=f"standings:{locked.pk}")
    public_change(locked.pk, full=True, standings=True)
    return locked


__all__ = ["ROUND_REFUSALS", "finish_refusals", "tournament_finish", "tournament_reopen"]
