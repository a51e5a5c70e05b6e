"""The staff admin: every page opens, play records are read-only, the pairs CSV import is all or nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tournaments.models import AuditEvent, Club, Entry, Pair, Player, Tournament
from tournaments.services.imports import PairsImportRefused, pairs_import, parse_pairs_csv

pytestmark = pytest.mark.django_db

GOOD_CSV = """player_1,player_2,club,seed
Anil Ramdass,Keisha Mohammed,Couva Kings,1
Marlon Joseph,Ria Baptiste,Couva Kings,2
Dexter Ali,Shane Lewis,Arima All Stars,
"""


@pytest.fixture
def staff_client(client):
    user = get_user_model().objects.create_superuser("admin", "admin@example.org", "pw-for-tests-only")
    client.force_login(user)
    return client


def counts() -> tuple[int, int, int]:
    return Club.objects.count(), Player.objects.count(), Pair.objects.count()


def run_import(*, data, tournament=None):
    return pairs_import(data=data, tournament=tournament, user=None)


def refused(data, tournament=None) -> PairsImportRefused:
    """The import's refusal: nothing written, every bad row listed."""
    with pytest.raises(PairsImportRefused) as caught:
        pairs_import(data=data, tournament=tournament, user=None)
    return caught.value


# ---- the import itself ----------------------------------------------------------------------------


def test_import_creates_missing_clubs_players_and_pairs():
    result = run_import(data=GOOD_CSV.encode())
    assert (result.clubs_created, result.players_created, result.pairs_created) == (2, 6, 3)
    assert counts() == (2, 6, 3)
    pair = Pair.objects.get(player_1__name="Anil Ramdass")
    assert pair.player_2.name == "Keisha Mohammed"
    assert pair.club.name == "Couva Kings" and pair.seed == 1
    assert pair.player_1.club == pair.club
    assert Pair.objects.get(player_1__name="Dexter Ali").seed is None
    assert AuditEvent.objects.filter(action="pairs_imported").count() == 1


def test_import_reuses_existing_players_and_clubs_and_is_idempotent():
    couva = Club.objects.create(name="Couva Kings")
    Player.objects.create(name="Anil Ramdass", club=couva)
    result = run_import(data=GOOD_CSV)
    assert result.clubs_created == 1 and result.players_created == 5
    again = run_import(data=GOOD_CSV)
    assert (again.pairs_created, again.pairs_existing, again.players_created, again.clubs_created) == (0, 3, 0, 0)
    assert counts() == (2, 6, 3)


def test_same_name_in_another_club_is_another_player():
    run_import(data="player_1,player_2,club,seed\nJohn Paul,Mary Jane,San Fernando,\n")
    run_import(data="player_1,player_2,club,seed\nJohn Paul,Mary Jane,Tobago Aces,\n")
    assert Player.objects.filter(name="John Paul").count() == 2


def test_one_bad_row_imports_nothing_and_every_bad_row_is_reported():
    bad = """player_1,player_2,club,seed
Anil Ramdass,Keisha Mohammed,Couva Kings,1
,Ria Baptiste,Couva Kings,2
Dexter Ali,Dexter Ali,Arima All Stars,
Vishnu Maharaj,Lisa Charles,Arima All Stars,first
Keisha Mohammed,Anil Ramdass,Couva Kings,3
"""
    result = refused(bad)
    assert result.code == "csv_rows_invalid"
    assert set(result.fields) == {"line 3", "line 4", "line 5", "line 6"}
    by_line = {error.line: error.message for error in result.errors}
    assert set(by_line) == {3, 4, 5, 6}
    assert "player_1 is empty" in by_line[3]
    assert "same player" in by_line[4]
    assert "'first' is not a whole number" in by_line[5]
    assert "already on line 2" in by_line[6]
    assert counts() == (0, 0, 0)
    assert not AuditEvent.objects.exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("player_1,player_2,seed\nA,B,1\n", "missing column(s): club"),
        ("", "the file is empty"),
        (b"player_1,player_2,club,seed\n\xff\xfe,x,y,1\n", "not UTF-8"),
        ("player_1,player_2,club,seed\n", "no pairs in the file"),
    ],
)
def test_file_level_problems_are_reported(data, message):
    result = refused(data)
    assert result.code in ("csv_unreadable", "csv_rows_invalid")
    assert message in str(result.errors[0])
    assert counts() == (0, 0, 0)


def test_header_names_are_case_and_space_insensitive_and_bom_is_ignored():
    rows, errors = parse_pairs_csv("\ufeff Player_1 , PLAYER_2,Club,seed\nA  B,C,Club X,4\n".encode())
    assert not errors
    assert rows[0].player_1 == "A B" and rows[0].seed == 4


def test_import_into_a_tournament_enters_the_pairs_with_their_seeds():
    tournament = Tournament.objects.create(name="Couva Open", slug="couva-open")
    result = run_import(data=GOOD_CSV, tournament=tournament)
    assert result.entries_created == 3
    seeds = dict(Entry.objects.filter(tournament=tournament).values_list("pair__player_1__name", "seed"))
    assert seeds == {"Anil Ramdass": 1, "Marlon Joseph": 2, "Dexter Ali": None}


def test_a_player_in_two_pairs_of_one_tournament_is_refused():
    tournament = Tournament.objects.create(name="Couva Open", slug="couva-open")
    data = "player_1,player_2,club,seed\nA,B,Club,1\nA,C,Club,2\n"
    assert run_import(data=data).pairs_created == 2  # a club roster may have both partnerships
    Pair.objects.all().delete()
    result = refused(data, tournament)
    assert "already plays on line 2" in result.errors[0].message
    assert not Entry.objects.exists()


# ---- through the admin ----------------------------------------------------------------------------


def test_admin_import_page_imports_a_good_file(staff_client):
    url = reverse("admin:tournaments_pair_import_csv")
    assert staff_client.get(url).status_code == 200
    upload = SimpleUploadedFile("pairs.csv", GOOD_CSV.encode(), content_type="text/csv")
    response = staff_client.post(url, {"file": upload})
    assert response.status_code == 302
    assert Pair.objects.count() == 3


def test_admin_import_page_lists_bad_rows_and_imports_nothing(staff_client):
    url = reverse("admin:tournaments_pair_import_csv")
    upload = SimpleUploadedFile("pairs.csv", b"player_1,player_2,club,seed\nA,B,X,1\nC,,X,2\n")
    response = staff_client.post(url, {"file": upload})
    assert response.status_code == 200
    body = response.content.decode()
    assert "Nothing was imported" in body and "player_2 is empty" in body
    assert Pair.objects.count() == 0


def test_import_page_is_for_staff_only(client):
    response = client.get(reverse("admin:tournaments_pair_import_csv"))
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_pairs_changelist_links_to_the_import(staff_client):
    body = staff_client.get(reverse("admin:tournaments_pair_changelist")).content.decode()
    assert reverse("admin:tournaments_pair_import_csv") in body


# ---- every page opens; play records are read-only ------------------------------------------------


MODELS = [
    "club", "player", "pair", "tournament", "tournamentrole", "entry", "round", "board", "game", "hand",
    "auditevent", "idempotencyrecord", "standingssnapshot", "device", "pairingcode", "outboxmessage",
]


@pytest.mark.parametrize("model", MODELS)
def test_every_changelist_opens(staff_client, model):
    assert staff_client.get(reverse(f"admin:tournaments_{model}_changelist")).status_code == 200


@pytest.mark.parametrize("model", ["club", "player", "pair", "tournament"])
def test_people_and_tournaments_can_be_added(staff_client, model):
    assert staff_client.get(reverse(f"admin:tournaments_{model}_add")).status_code == 200


@pytest.mark.parametrize(
    "model", ["round", "board", "game", "hand", "auditevent", "idempotencyrecord", "outboxmessage", "device"]
)
def test_play_records_cannot_be_added_here(staff_client, model):
    assert staff_client.get(reverse(f"admin:tournaments_{model}_add")).status_code == 403


def test_audit_event_is_view_only(staff_client):
    event = AuditEvent.objects.create(action="test", object_type="x", object_id="1", after={"k": 1})
    change = reverse("admin:tournaments_auditevent_change", args=[event.pk])
    response = staff_client.get(change)
    assert response.status_code == 200
    assert b'name="action"' not in response.content  # no editable field
    assert staff_client.post(change, {"action": "edited"}).status_code == 403
    delete = reverse("admin:tournaments_auditevent_delete", args=[event.pk])
    assert staff_client.post(delete, {"post": "yes"}).status_code == 403
    event.refresh_from_db()
    assert event.action == "test"


def test_tournament_page_shows_entries_inline(staff_client):
    tournament = Tournament.objects.create(name="Couva Open", slug="couva-open")
    run_import(data=GOOD_CSV, tournament=tournament)
    body = staff_client.get(reverse("admin:tournaments_tournament_change", args=[tournament.pk])).content.decode()
    assert "entries-TOTAL_FORMS" in body and 'value="3"' in body


def test_revoking_a_device_goes_through_the_service(staff_client):
    from tournaments.models import Device

    tournament = Tournament.objects.create(name="Couva Open", slug="couva-open")
    device = Device.objects.create(tournament=tournament, table=1, token_digest="d" * 64, token_prefix="abcd1234")
    response = staff_client.post(
        reverse("admin:tournaments_device_changelist"), {"action": "revoke", "_selected_action": [device.pk]}
    )
    assert response.status_code == 302
    device.refresh_from_db()
    assert device.revoked_at is not None
    assert AuditEvent.objects.filter(action="device.revoke", object_id=str(device.pk)).exists()


def test_audit_list_and_round_page_do_not_grow_queries_with_rows(staff_client, django_assert_max_num_queries):
    from tournaments.models import Board, Device, Round

    tournament = Tournament.objects.create(name="Couva Open", slug="couva-open")
    run_import(data=GOOD_CSV + "Vishnu Maharaj,Lisa Charles,Arima All Stars,\n", tournament=tournament)
    entries = list(Entry.objects.filter(tournament=tournament))
    round_ = Round.objects.create(tournament=tournament, number=1)
    Board.objects.create(round=round_, table=1, pair_a=entries[0], pair_b=entries[1])
    Board.objects.create(round=round_, table=2, pair_a=entries[2], pair_b=entries[3])
    for table in range(1, 6):
        device = Device.objects.create(tournament=tournament, table=table, token_digest=f"{table:064d}",
                                       token_prefix=f"p{table}")
        AuditEvent.objects.create(tournament=tournament, device=device, action="hand.submit",
                                  object_type="hand", object_id=str(table))
    with django_assert_max_num_queries(12):
        assert staff_client.get(reverse("admin:tournaments_auditevent_changelist")).status_code == 200
    with django_assert_max_num_queries(12):
        assert staff_client.get(reverse("admin:tournaments_round_change", args=[round_.pk])).status_code == 200
