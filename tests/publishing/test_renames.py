"""Renames reach the published files (docs/adr/0013): a club's, a player's or a pair's new name is rendered
into every published event that shows it, one message per event; a removed entry leaves the files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.utils.html import escape

from publishing import files
from tests.publishing.test_publish import play_and_confirm
from tests.tournaments.factories import make_club, make_entries, make_tournament
from tournaments.models import OutboxMessage
from tournaments.services import club_update, entry_delete, pair_update, player_update

pytestmark = pytest.mark.django_db(transaction=True)


def page(root: Path, address: str) -> str:
    return files.file_for(address, root).read_text()


def test_a_club_renamed_shows_its_new_name_in_the_published_files(db: Any, publish_root: Path) -> None:
    # An event not yet played: a rename reaches it everywhere (a played event keeps the name it was played
    # under: tournaments/services/people.py); the club's history across events always shows its name.
    from publishing import publish

    club = make_club("Sangre Grande")
    tournament = make_tournament()
    make_entries(tournament, 2, club=club)
    tournament.published = True
    tournament.save(update_fields=["published"])
    publish.publish_full(tournament.pk)
    slug = tournament.slug
    for address in (f"/t/{slug}/entries/", f"/t/{slug}/clubs/{club.pk}/", f"/clubs/{club.pk}/"):
        assert "Sangre Grande" in page(publish_root, address) and "Kings" not in page(publish_root, address)
    club_update(club=club, user=None, name="Sangre Grande Kings")
    for address in (f"/t/{slug}/entries/", f"/t/{slug}/clubs/{club.pk}/", f"/clubs/{club.pk}/"):
        assert "Sangre Grande Kings" in page(publish_root, address), address


def test_a_player_and_a_pair_renamed_reach_the_pair_page_and_the_standings_json(event: Any, publish_root: Path) -> None:
    tournament, _round, boards, entries = event
    slug = tournament.slug
    player_update(player=entries[1].pair.player_1, user=None, name="Zebedee Renamed")
    assert escape("Zebedee Renamed") in page(publish_root, f"/t/{slug}/pairs/{entries[1].pk}/")
    play_and_confirm(boards[0])
    pair_update(pair=entries[2].pair, user=None, name="The Renamed Ones")
    assert "The Renamed Ones" in page(publish_root, f"/api/v1/public/tournaments/{slug}/standings/")
    assert "The Renamed Ones" in page(publish_root, f"/t/{slug}/standings/")


def test_one_message_per_published_event_showing_the_club(event: Any, publish_root: Path) -> None:
    tournament, _round, _boards, entries = event
    club = entries[0].club
    other = make_tournament()
    make_entries(other, 2, club=club)
    other.published = True
    other.save(update_fields=["published"])
    hidden = make_tournament()
    make_entries(hidden, 2, club=club)  # not published: no message
    unrelated = make_tournament()
    make_entries(unrelated, 2, club=make_club())
    unrelated.published = True
    unrelated.save(update_fields=["published"])
    OutboxMessage.objects.all().delete()
    club_update(club=club, user=None, town="Sangre Grande")
    sent = sorted(m.args[0] for m in OutboxMessage.objects.filter(task="publishing.tasks.publish_event"))
    assert sent == sorted([tournament.pk, other.pk])
    assert all(m.args[1].get("full") for m in OutboxMessage.objects.filter(task="publishing.tasks.publish_event"))


def test_a_removed_entry_leaves_the_published_entries_and_standings(db: Any, publish_root: Path) -> None:
    tournament = make_tournament()
    entries = make_entries(tournament, 3)
    tournament.published = True
    tournament.save(update_fields=["published"])
    from publishing import publish

    publish.publish_full(tournament.pk)
    gone = entries[2]
    address = f"/t/{tournament.slug}/entries/"
    assert gone.pair.player_1.name in page(publish_root, address)
    assert files.file_for(f"/t/{tournament.slug}/pairs/{gone.pk}/", publish_root).exists()
    entry_delete(entry=gone, user=None)
    assert gone.pair.player_1.name not in page(publish_root, address)
    assert not files.file_for(f"/t/{tournament.slug}/pairs/{gone.pk}/", publish_root).exists()
