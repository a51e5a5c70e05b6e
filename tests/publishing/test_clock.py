"""The public JSON carries the live round's clock (ends_at, the venue's time, whether time is called), in the
published files as soon as the organiser moves it, and in the OpenAPI document."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator

from publishing import files
from tests.tournaments.factories import make_organiser
from tournaments.services.closing import round_call_time, round_clock_set

pytestmark = pytest.mark.django_db(transaction=True)


def published(root: Path, address: str) -> Any:
    return json.loads(files.file_for(address, root).read_text())


def test_the_clock_reaches_the_published_round_and_rounds_json(event: Any, publish_root: Path) -> None:
    tournament, round_, _boards, _entries = event
    organiser = make_organiser(tournament)
    base = f"/api/v1/public/tournaments/{tournament.slug}"
    round_clock_set(round=round_, minutes=30, user=organiser)
    round_.refresh_from_db()
    clock = published(publish_root, f"{base}/rounds/1/")["round"]["clock"]
    assert clock["ends_at"] == round_.ends_at.isoformat()
    assert clock["time_called"] is False and len(clock["ends_local"]) == 5 and clock["time_zone"]
    assert "seconds_left" not in clock  # a file cannot count down: the reader does, from ends_at
    assert published(publish_root, f"{base}/rounds/")[0]["clock"] == clock
    round_call_time(round=round_, user=organiser)
    assert published(publish_root, f"{base}/rounds/1/")["round"]["clock"]["time_called"] is True
    assert published(publish_root, f"{base}/rounds/")[0]["clock"]["time_called"] is True


def test_a_round_without_a_time_limit_has_no_clock(event: Any, publish_root: Path) -> None:
    from publishing import publish

    tournament, _round, _boards, _entries = event
    publish.publish_full(tournament.pk)
    assert published(publish_root, f"/api/v1/public/tournaments/{tournament.slug}/rounds/1/")["round"]["clock"] is None


def test_the_openapi_document_declares_the_clock(db: Any) -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    clock = schema["components"]["schemas"]["PublicRound"]["properties"]["clock"]
    shape = next(s for s in clock["oneOf"] if s.get("type") == "object")
    assert set(shape["properties"]) == {"ends_at", "ends_local", "time_zone", "time_called"}
