"""An entry's club name of the day travels in the archive (docs/archive.md; docs/leagues-model.md, "Club and player
identity"): a club renamed after the event is exported under its new name, yet the imported event's pages and
standings show the name it was played under; an archive without ``club_name`` (written before it was carried)
still imports, its entries taking the name the archive gives their club."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.urls import reverse

from tournaments import selectors
from tournaments.models import Board, Club, Entry, Player, Tournament
from tournaments.services import club_create, club_update, player_create
from tournaments.services.archive import archive_export, archive_import
from tournaments.services.archive.schema import _validator
from tournaments.services.errors import ValidationFailed
from tournaments.services.identity import club_merge, player_merge
from tournaments.services.standings import tournament_standings_recompute

from .archive_helpers import organiser
from .factories import make_entries, make_round, make_tournament, seat, win_game

pytestmark = pytest.mark.django_db

OLD, NEW = "Couva AFC", "Couva All Fours Club"


def _renamed_after_play() -> Tournament:
    """A published event of two pairs (Couva AFC v Bay Boys), one game won on table 1; then Couva renamed."""
    couva, bay = Club.objects.create(name=OLD), Club.objects.create(name="Bay Boys")
    tournament = make_tournament()
    a = make_entries(tournament, 1, club=couva)[0]
    b = make_entries(tournament, 1, club=bay)[0]
    round_ = make_round(tournament, [(a, b)])
    win_game(seat(Board.objects.get(round=round_, table=1)))
    Tournament.objects.filter(pk=tournament.pk).update(published=True)
    tournament_standings_recompute(tournament_id=tournament.pk)
    club_update(club=couva, user=None, name=NEW)
    return Tournament.objects.get(pk=tournament.pk)


def _shown(tournament: Tournament) -> dict[str, Any]:
    """The club names the event's standings show (pairs' and clubs'), and its scorecard's figures."""
    board = Board.objects.get(round__tournament=tournament, table=1)
    return {
        "pairs": sorted(r.club for r in selectors.standings(tournament).rows),
        "clubs": sorted(r.name for r in selectors.club_standings(tournament).rows),
        "values": [r.values for r in selectors.standings(tournament).rows],
        "board": (board.bullseyes_a, board.bullseyes_b, board.chalks_a, board.chalks_b, board.winner),
    }


def _empty_server() -> None:
    """Every table emptied inside the test's transaction. On PostgreSQL the deferred foreign-key checks of
    the rows written so far are run first: TRUNCATE refuses a table with pending trigger events."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    call_command("flush", "--no-input", verbosity=0)
    assert not Tournament.objects.exists() and not Club.objects.exists()


def test_the_archive_carries_the_name_of_the_day_and_the_copy_shows_it(client):
    original = _renamed_after_play()
    before = _shown(original)
    assert before["pairs"] == ["Bay Boys", OLD] and before["clubs"] == ["Bay Boys", OLD]
    document = json.loads(json.dumps(archive_export(tournament=original)))
    assert sorted(e["club_name"] for e in document["entries"]) == ["Bay Boys", OLD]
    assert sorted(c["name"] for c in document["people"]["clubs"]) == ["Bay Boys", NEW]  # the club as it is now
    assert list(_validator().iter_errors(document)) == []

    _empty_server()
    copy_ = archive_import(document=document, user=organiser("importer"))

    assert set(Club.objects.values_list("name", flat=True)) == {NEW, "Bay Boys"}
    assert sorted(Entry.objects.filter(tournament=copy_).values_list("club_name", flat=True)) == ["Bay Boys", OLD]
    assert _shown(copy_) == before
    board = Board.objects.get(round__tournament=copy_, table=1)
    for name, args in (("standings", [copy_.slug]), ("pairings", [copy_.slug, 1]), ("board", [copy_.slug, board.pk])):
        body = client.get(reverse(f"web:{name}", args=args)).content.decode()
        assert OLD in body and NEW not in body, name
    for read in ("standings/", f"boards/{board.pk}/"):
        data = str(client.get(f"/api/v1/public/tournaments/{copy_.slug}/{read}").json())
        assert OLD in data and NEW not in data, read


def test_an_archive_without_club_name_imports_with_the_clubs_name_it_gives():
    original = _renamed_after_play()
    before = _shown(original)
    document = archive_export(tournament=original)
    older = copy.deepcopy(document)
    for entry in older["entries"]:
        del entry["club_name"]  # as written before the field existed
    assert list(_validator().iter_errors(older)) == []

    _empty_server()
    copy_ = archive_import(document=older, user=organiser("importer"))

    # The name the archive gives the club (its name when exported), recorded on the entries: a later rename on
    # this server does not reach the imported event either.
    assert sorted(Entry.objects.filter(tournament=copy_).values_list("club_name", flat=True)) == ["Bay Boys", NEW]
    shown = _shown(copy_)
    assert shown["pairs"] == ["Bay Boys", NEW] and shown["clubs"] == ["Bay Boys", NEW]
    assert (shown["values"], shown["board"]) == (before["values"], before["board"])
    club_update(club=Club.objects.get(name=NEW), user=None, name="Couva Kickers")
    assert sorted(r.club for r in selectors.standings(copy_).rows) == ["Bay Boys", NEW]


def test_a_club_name_too_long_is_refused_with_its_path():
    document = archive_export(tournament=_renamed_after_play())
    document["entries"][0]["club_name"] = "x" * 121
    with pytest.raises(ValidationFailed) as refused:
        archive_import(document=document, user=organiser("importer"))
    assert refused.value.code == "archive_invalid" and "entries[0].club_name" in str(refused.value.fields)


def test_a_club_known_here_by_an_alias_is_matched_and_the_event_keeps_its_name():
    """The importing organisation merged the archive's spelling into its own club: the archive's club and players
    are matched through the aliases (no third spelling made), and the copy still shows the name of the day."""
    couva, bay = Club.objects.create(name=OLD), Club.objects.create(name="Bay Boys")
    tournament = make_tournament()
    a = make_entries(tournament, 1, club=couva)[0]
    b = make_entries(tournament, 1, club=bay)[0]
    win_game(seat(Board.objects.get(round=make_round(tournament, [(a, b)]), table=1)))
    tournament_standings_recompute(tournament_id=tournament.pk)
    document = json.loads(json.dumps(archive_export(tournament=tournament)))
    names = [a.pair.player_1.name, a.pair.player_2.name]
    _empty_server()
    importer = organiser("importer")
    kept = club_create(name=NEW, user=importer)
    club_merge(keep=kept, variant=club_create(name=OLD, user=importer), user=importer)
    player = player_create(name="K. Baptiste", club=kept, user=importer)
    player_merge(keep=player, variant=player_create(name=names[0], club=kept, user=importer), user=importer)

    copy_ = archive_import(document=document, user=importer)

    assert set(Club.objects.values_list("name", flat=True)) == {NEW, "Bay Boys"}
    entry = Entry.objects.get(tournament=copy_, club=kept)
    assert entry.club_name == OLD and entry.player_1_id == player.pk
    assert OLD in [r.club for r in selectors.standings(copy_).rows]
    assert not Player.objects.filter(name=names[0]).exists()


def test_two_clubs_of_the_archive_stay_two_when_one_is_an_alias_here():
    couva, variant = Club.objects.create(name=NEW), Club.objects.create(name=OLD)
    tournament = make_tournament()
    a = make_entries(tournament, 1, club=couva)[0]
    b = make_entries(tournament, 1, club=variant)[0]
    win_game(seat(Board.objects.get(round=make_round(tournament, [(a, b)]), table=1)))
    tournament_standings_recompute(tournament_id=tournament.pk)
    document = json.loads(json.dumps(archive_export(tournament=tournament)))
    _empty_server()
    importer = organiser("importer")
    kept = club_create(name=NEW, user=importer)
    club_merge(keep=kept, variant=club_create(name=OLD, user=importer), user=importer)

    copy_ = archive_import(document=document, user=importer)  # the club table compares equal: two clubs

    assert sorted(Entry.objects.filter(tournament=copy_).values_list("club__name", flat=True)) == [OLD, NEW]
    assert sorted(r.name for r in selectors.club_standings(copy_).rows) == [OLD, NEW]
