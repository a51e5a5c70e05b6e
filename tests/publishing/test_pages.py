"""The spectators' pages of issue 17 are published too (docs/adr/0013): Follow my pair, the hall display,
the entries' list, the clubs' and players' histories, and the public JSON Follow my pair reads, each a file
byte for byte what Django serves; an unpublished event's histories lose it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from publishing import files, publish
from tournaments.services import tournament_update

pytestmark = pytest.mark.django_db(transaction=True)


def addresses(tournament: Any, entries: list[Any]) -> list[str]:
    slug = tournament.slug
    return [f"/t/{slug}/follow/", f"/t/{slug}/hall/", f"/t/{slug}/entries/",
            f"/clubs/{entries[0].pair.club_id}/", f"/players/{entries[0].pair.player_1_id}/",
            f"/players/{entries[3].pair.player_2_id}/",
            f"/api/v1/public/tournaments/{slug}/rounds/", f"/api/v1/public/tournaments/{slug}/rounds/1/",
            f"/api/v1/public/tournaments/{slug}/standings/"]


def test_each_spectator_page_and_the_follow_json_lands_as_a_file(event: Any, publish_root: Path) -> None:
    tournament, _round, _boards, entries = event
    publish.publish_full(tournament.pk)
    client = Client()
    for address in addresses(tournament, entries):
        path = files.file_for(address, publish_root)
        assert path.exists(), address
        assert path.with_name(path.name + ".gz").exists(), address
        assert path.read_bytes() == client.get(address).content, address
    assert entries[0].pair.player_1.name in files.file_for(f"/t/{tournament.slug}/entries/", publish_root).read_text()


def test_the_hall_follows_a_change_without_a_full_render(event: Any, publish_root: Path) -> None:
    from tests.publishing.test_publish import play_and_confirm

    tournament, _round, boards, entries = event
    publish.publish_full(tournament.pk)
    hall = files.file_for(f"/t/{tournament.slug}/hall/", publish_root)
    before = hall.read_bytes()
    play_and_confirm(boards[0])
    assert hall.read_bytes() != before
    assert hall.read_bytes() == Client().get(f"/t/{tournament.slug}/hall/").content


def test_unpublishing_withdraws_the_histories_that_only_it_showed(event: Any, publish_root: Path) -> None:
    from tests.tournaments.factories import make_organiser

    tournament, _round, _boards, entries = event
    publish.publish_full(tournament.pk)
    club = files.file_for(f"/clubs/{entries[0].pair.club_id}/", publish_root)
    player = files.file_for(f"/players/{entries[2].pair.player_1_id}/", publish_root)
    assert club.exists() and player.exists()
    tournament_update(tournament=tournament, user=make_organiser(tournament), published=False)
    assert not club.exists() and not player.exists()


def test_django_serves_a_published_history_from_its_file(event: Any, publish_root: Path, settings: Any) -> None:
    settings.PUBLISH_SERVE = True  # make run's middleware (Caddy serves any path that has a file)
    tournament, _round, _boards, entries = event
    publish.publish_full(tournament.pk)
    for address in (f"/clubs/{entries[0].pair.club_id}/", f"/players/{entries[0].pair.player_1_id}/"):
        path = files.file_for(address, publish_root)
        path.write_bytes(b"<p>from the file</p>")  # the middleware answers from the file, not the view
        path.with_name(path.name + ".gz").unlink()
        assert Client().get(address).content == b"<p>from the file</p>", address
