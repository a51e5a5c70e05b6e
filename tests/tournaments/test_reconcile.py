"""What a lost broker message leaves behind is healed: ``reconcile`` asks the idempotent jobs again.

Redis keeps nothing on disk, so a pairing or recompute it had accepted is gone when it restarts.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.tournaments.factories import make_entries, make_organiser, make_tournament
from tests.tournaments.test_tournament_e2e import eager_celery  # noqa: F401 - a fixture
from tournaments.models import Round, StandingsSnapshot, Tournament
from tournaments.services.rounds import round_create
from tournaments.services.standings import tournament_standings_recompute
from tournaments.tasks import STALE_PENDING_SECONDS, reconcile

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]


def running_event() -> Tournament:
    tournament = make_tournament()
    make_entries(tournament, 6)
    make_organiser(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    return tournament


def test_a_round_left_pending_by_a_lost_pairing_task_is_paired_again():
    tournament = running_event()
    tournament_standings_recompute(tournament_id=tournament.pk)
    snapshot = StandingsSnapshot.objects.filter(tournament=tournament).latest()
    StandingsSnapshot.objects.filter(pk=snapshot.pk).update(
        created_at=timezone.now() - timedelta(seconds=STALE_PENDING_SECONDS + 5))
    round_ = round_create(tournament=tournament)
    Round.objects.filter(pk=round_.pk).update(paired_from=snapshot)  # as round_start left it; the task was lost

    assert reconcile() == {"rounds": 1, "tournaments": 1}
    round_.refresh_from_db()
    assert round_.status == Round.Status.DRAFTED
    assert round_.boards.count() == 3


def test_a_fresh_pending_round_and_a_failed_pairing_are_left_to_the_organiser():
    tournament = running_event()
    tournament_standings_recompute(tournament_id=tournament.pk)
    snapshot = StandingsSnapshot.objects.filter(tournament=tournament).latest()
    round_ = round_create(tournament=tournament)
    Round.objects.filter(pk=round_.pk).update(paired_from=snapshot)
    assert reconcile()["rounds"] == 0  # its task may still be on its way

    StandingsSnapshot.objects.filter(pk=snapshot.pk).update(created_at=timezone.now() - timedelta(hours=1))
    Round.objects.filter(pk=round_.pk).update(feasibility_note="Pairing failed: no pairs entered")
    assert reconcile()["rounds"] == 0
    assert Round.objects.get(pk=round_.pk).status == Round.Status.PENDING


def test_standings_asked_again_store_nothing_when_nothing_changed():
    tournament = running_event()
    reconcile()
    count = StandingsSnapshot.objects.filter(tournament=tournament).count()
    reconcile()
    assert StandingsSnapshot.objects.filter(tournament=tournament).count() == count == 1
