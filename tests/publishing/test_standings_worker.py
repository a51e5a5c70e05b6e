"""A new snapshot's standings are rendered by the worker that stored it, not after the publisher's render.

On the national day of 2026-12-06 a finished game reached the published standings in 2.0 s (p50) and 5.3 s
(p95): the change waited for the publisher's render in progress (1-2 s at 1,000 pairs), the second between
its renders, and its own render. The recomputation now sends ``publishing.tasks.publish_standings`` through
the outbox, on the default queue, and the standings' two files have a record and a lock of their own
(``publishing.publish.render_standings``), so whichever of the worker and the publisher comes second renders
nothing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.test import Client

from publishing import files, pages, publish
from tests.tournaments.factories import make_published_event
from tournaments.models import OutboxMessage, StandingsSnapshot, Tournament
from tournaments.services.standings import PUBLISH_STANDINGS_TASK, tournament_standings_recompute

pytestmark = pytest.mark.django_db


def _standings_file(tournament: Any, root: Path) -> dict[str, Any]:
    json_address, _ = pages.standings_addresses(tournament.slug)
    return json.loads(files.file_for(json_address, root).read_bytes())


def _order(rows: list[dict[str, Any]]) -> list[int]:
    return [row["entry_id"] for row in rows]


def _stale_snapshot(tournament: Any) -> list[int]:
    """A snapshot that no longer matches the games (its rows reversed, its digest made up), published: what
    the files show before the recomputation. Returns the right order."""
    latest = StandingsSnapshot.objects.filter(tournament=tournament).latest("id")
    StandingsSnapshot.objects.create(tournament=tournament, after_round=latest.after_round, source_hash="stale",
                                     rows=list(reversed(latest.rows)), clubs=latest.clubs)
    publish.publish_full(tournament.pk)
    return _order(latest.rows)


def test_a_new_snapshot_is_published_by_the_recomputation_that_stored_it(publish_root: Path,
                                                                       django_capture_on_commit_callbacks: Any):
    tournament, live, *_ = make_published_event(8)
    right = _stale_snapshot(tournament)
    public = _standings_file(tournament, publish_root)
    assert [row["entry"] for row in public["rows"]] == list(reversed(right))

    with django_capture_on_commit_callbacks(execute=True):  # the outbox sends once the snapshot commits
        assert tournament_standings_recompute(tournament_id=tournament.pk)  # the worker's task; no publisher
    message = OutboxMessage.objects.filter(task=PUBLISH_STANDINGS_TASK).latest("id")
    assert message.args == [tournament.pk] and message.sent_at is not None
    public = _standings_file(tournament, publish_root)
    assert [row["entry"] for row in public["rows"]] == right
    json_address, whole_address = pages.standings_addresses(tournament.slug)
    for address in (json_address, whole_address):
        assert files.file_for(address, publish_root).read_bytes() == Client().get(address).content, address

    # the publisher's render of the same change finds them rendered: nothing of the standings again
    state = publish.load_state(tournament.slug)
    state["rendered_at"], state["results_at"] = 0, 9e18
    publish.save_state(tournament.slug, state)
    outcome = publish.publish_event(tournament.pk, {"boards": [live.pk], "standings": True})
    assert "standings" not in outcome.groups and "event" in outcome.groups


def test_the_same_input_sends_nothing_and_an_unpublished_event_is_left_to_the_publisher(publish_root: Path):
    tournament, *_ = make_published_event(6)
    before = OutboxMessage.objects.filter(task=PUBLISH_STANDINGS_TASK).count()
    assert not tournament_standings_recompute(tournament_id=tournament.pk)  # nothing new: no message
    assert OutboxMessage.objects.filter(task=PUBLISH_STANDINGS_TASK).count() == before

    Tournament.objects.filter(pk=tournament.pk).update(published=False)
    StandingsSnapshot.objects.filter(tournament=tournament).update(source_hash="stale")
    assert tournament_standings_recompute(tournament_id=tournament.pk)
    assert OutboxMessage.objects.filter(task=PUBLISH_STANDINGS_TASK).count() == before  # not published
    assert publish.publish_standings(tournament.pk).rendered == 0


def test_withdrawing_an_event_forgets_its_standings_record_and_a_late_render_writes_nothing(publish_root: Path):
    tournament, *_ = make_published_event(6)
    publish.publish_full(tournament.pk)
    record = files.state_dir() / f"{publish.standings_key(tournament.slug)}.json"
    assert record.exists()
    Tournament.objects.filter(pk=tournament.pk).update(published=False)
    publish.publish_event(tournament.pk, {"full": True})
    assert not record.exists()
    json_address, _ = pages.standings_addresses(tournament.slug)
    assert not files.file_for(json_address, publish_root).exists()
    # the worker's render arriving after the withdrawal (its snapshot stored just before): nothing comes back
    assert publish.render_standings(tournament.slug, force=True).written == 0
    assert not files.file_for(json_address, publish_root).exists()


def test_the_standings_render_is_on_the_default_queue_not_behind_the_publishers_renders():
    routes = django_settings.CELERY_TASK_ROUTES
    assert "publishing.tasks.publish_event" in routes
    assert PUBLISH_STANDINGS_TASK not in routes  # the default queue, served by the worker
    from config.celery import app

    app.loader.import_default_modules()
    assert PUBLISH_STANDINGS_TASK in app.tasks


def test_the_worker_asks_for_the_events_render_after_a_new_snapshots_files(publish_root: Path, monkeypatch: Any,
                                                                          django_capture_on_commit_callbacks: Any):
    """Under a worker the publisher no longer recomputes the standings before its render, so the standings
    page and its live part would show the old snapshot until the next change: the worker's task asks for the
    event's render once it has published a new snapshot's files (the outbox's ``publish_event``), and asks
    nothing when there was nothing new. Eager, the change's own render recomputed them first: no message."""
    from config.celery import app
    from publishing import tasks
    from tournaments.services.publication import PUBLISH_TASK

    tournament, *_ = make_published_event(6)
    _stale_snapshot(tournament)
    sent: list[Any] = []
    monkeypatch.setattr("tournaments.services.outbox.outbox_publish", lambda **kw: sent.append(kw))  # no broker
    StandingsSnapshot.objects.create(tournament=tournament, after_round=1, source_hash="newer",
                                     rows=StandingsSnapshot.objects.filter(tournament=tournament).latest("id").rows,
                                     clubs=[])
    before = OutboxMessage.objects.filter(task=PUBLISH_TASK).count()
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False  # as under a worker
    try:
        with django_capture_on_commit_callbacks(execute=True):
            result = tasks.publish_standings.run(tournament.pk)
        assert result["rendered"] > 0
        asked = OutboxMessage.objects.filter(task=PUBLISH_TASK).order_by("id")[before:]
        assert [m.args for m in asked] == [[tournament.pk, {}]]
        assert [m["task"] for m in sent] == [PUBLISH_TASK]  # sent once committed (here: captured)
        with django_capture_on_commit_callbacks(execute=True):
            assert tasks.publish_standings.run(tournament.pk)["rendered"] == 0  # the same snapshot: nothing
        assert OutboxMessage.objects.filter(task=PUBLISH_TASK).count() == before + 1
    finally:
        app.conf.task_always_eager = eager
    assert eager  # the tests run eager: the change's own render recomputed the standings, no message
    StandingsSnapshot.objects.create(tournament=tournament, after_round=1, source_hash="newest",
                                     rows=StandingsSnapshot.objects.filter(tournament=tournament).latest("id").rows,
                                     clubs=[])
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.publish_standings.run(tournament.pk)["rendered"] > 0
    assert OutboxMessage.objects.filter(task=PUBLISH_TASK).count() == before + 1
