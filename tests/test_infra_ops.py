"""Operations commands: ``manage.py outbox_sweep`` publishes what the outbox still holds."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from tournaments.models import OutboxMessage

pytestmark = pytest.mark.django_db


def test_outbox_sweep_publishes_unsent_rows_and_says_how_many(settings, monkeypatch):
    from tournaments.services import outbox

    sent: list[tuple[str, list[object]]] = []
    monkeypatch.setattr(outbox, "_send", lambda task, args: sent.append((task, args)))
    OutboxMessage.objects.create(task="tournaments.tasks.standings_recompute", args=[7], coalesce_key="standings-7")
    OutboxMessage.objects.create(task="tournaments.tasks.standings_recompute", args=[7], coalesce_key="standings-7")
    out = StringIO()
    call_command("outbox_sweep", stdout=out)
    assert out.getvalue().strip() == "outbox: 1 published, 0 still unsent"
    assert sent == [("tournaments.tasks.standings_recompute", [7])]  # one burst, one publication
    assert not OutboxMessage.objects.filter(sent_at__isnull=True).exists()


def test_outbox_sweep_keeps_rows_when_the_broker_is_down(monkeypatch):
    from tournaments.services import outbox

    def broker_down(task, args):
        raise ConnectionError("redis down")

    monkeypatch.setattr(outbox, "_send", broker_down)
    OutboxMessage.objects.create(task="tournaments.tasks.standings_recompute", args=[7])
    out, err = StringIO(), StringIO()
    call_command("outbox_sweep", stdout=out, stderr=err)
    assert out.getvalue().strip() == "outbox: 0 published, 1 still unsent"
    assert "broker could not be reached" in err.getvalue()
    row = OutboxMessage.objects.get()
    assert row.sent_at is None and row.attempts == 1 and "redis down" in row.last_error
