"""Registration in the console through the test client (issue 12): add a pair, import a CSV of 24 pairs with
two bad rows fixed in the preview, check two pairs in absent, draft round 1 without them, the public starting
list; empty states, refusals shown, roles and CSRF."""

from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from openpyxl import Workbook

from tests.tournaments.factories import make_tournament
from tests.tournaments.test_tournament_e2e import eager_celery  # noqa: F401 - a fixture
from tournaments.models import Availability, Board, Entry, Round, Tournament, TournamentRole
from tournaments.services import round_start

pytestmark = pytest.mark.django_db

CLUBS = ("Couva Kings", "Arima Aces", "Point Fortin Kickers", "Tobago Jacks")


def url(name: str, *args: Any) -> str:
    return reverse(f"web:{name}", args=args)


@pytest.fixture
def event() -> Tournament:
    tournament = make_tournament()
    Tournament.objects.filter(pk=tournament.pk).update(published=True, name="Carnival Open", entry_fee="50.00")
    tournament.refresh_from_db()
    return tournament


@pytest.fixture
def organiser(event: Tournament) -> User:
    user = User.objects.create_user("org", password="pw-organiser-1")
    TournamentRole.objects.create(tournament=event, user=user)
    return user


@pytest.fixture
def client_of(organiser: User) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


def csv_of_24(bad: bool = True) -> bytes:
    lines = ["player_1,player_2,club,seed,tags"]
    for i in range(1, 25):
        p1, p2 = f"Player {2 * i - 1}", f"Player {2 * i}"
        seed = str(i)
        if bad and i == 7:
            p1 = ""  # line 8: a missing name
        if bad and i == 15:
            seed = "fifteen"  # line 16: not a number
        tags = "ladies" if i % 6 == 0 else ""
        lines.append(f"{p1},{p2},{CLUBS[i % 4]},{seed},{tags}")
    return ("\n".join(lines) + "\n").encode()


def preview_form(response: Any) -> dict[str, Any]:
    """The preview's form as the browser would post it: the rows, and every input of a bad row."""
    html = response.content.decode()
    rows = re.search(r'name="rows" value="([^"]*)"', html)
    assert rows is not None
    import html as htmllib

    data: dict[str, Any] = {"rows": htmllib.unescape(rows.group(1))}
    for name, value in re.findall(r'<input id="(r\d+-\w+)" name="\1" value="([^"]*)"', html):
        data[name] = htmllib.unescape(value)
    return data


# ---- the whole path: add, import with fixes, check in, draft -----------------------------------------------
def test_empty_states_say_what_to_do_next(client_of: Client, event: Tournament) -> None:
    page = client_of.get(url("console_entries", event.slug))
    assert page.status_code == 200
    assert b"No pairs yet: add one or import a list" in page.content
    assert url("console_entry_add", event.slug).encode() in page.content
    assert url("console_entries_import", event.slug).encode() in page.content
    check = client_of.get(url("console_check_in", event.slug))
    assert check.status_code == 200 and b"Enter the pairs first" in check.content
    tabs = client_of.get(url("console_tournament", event.slug)).content
    assert b">Entries</a>" in tabs and b">Check-in</a>" in tabs


def test_add_a_pair_in_one_form_then_change_it(client_of: Client, event: Tournament) -> None:
    form = client_of.get(url("console_entry_add", event.slug))
    assert form.status_code == 200 and b'list="club-names"' in form.content
    response = client_of.post(url("console_entry_add", event.slug), {
        "player_1": "Kenrick Baptiste", "player_2": "Ria Mohammed", "club": "Couva Kings", "seed": "1",
        "tags": "Ladies; juniors"})
    assert response.status_code == 302 and response["Location"] == url("console_entries", event.slug)
    entry = Entry.objects.get(tournament=event)
    assert entry.pair.club.name == "Couva Kings" and entry.seed == 1 and entry.tags == ["ladies", "juniors"]
    listing = client_of.get(url("console_entries", event.slug)).content.decode()
    assert "Kenrick Baptiste &amp; Ria Mohammed" in listing and "ladies" in listing and "Couva Kings" in listing
    # the club is offered to the next form
    assert b'<option value="Couva Kings">' in client_of.get(url("console_entry_add", event.slug)).content
    # the same player again is refused on its field, nothing stored
    again = client_of.post(url("console_entry_add", event.slug), {
        "player_1": "Kenrick Baptiste", "player_2": "Joy Charles", "club": "Couva Kings"})
    assert again.status_code == 400 and "already plays in this event" in again.content.decode()
    assert Entry.objects.filter(tournament=event).count() == 1
    # change: seed, tags, fee paid
    edit = client_of.post(url("console_entry_edit", event.slug, entry.pk),
                          {"seed": "3", "tags": "seniors", "fee_paid": "on"})
    assert edit.status_code == 302
    entry.refresh_from_db()
    assert (entry.seed, entry.tags, entry.fee_paid, entry.withdrawn) == (3, ["seniors"], True, False)
    bad_tags = client_of.post(url("console_entry_edit", event.slug, entry.pk), {"tags": "=cmd"})
    assert bad_tags.status_code == 400 and b"letters, digits and spaces" in bad_tags.content


def test_remove_shows_the_services_refusal(client_of: Client, event: Tournament, organiser: User) -> None:
    client_of.post(url("console_entry_add", event.slug), {"player_1": "A One", "player_2": "B Two"})
    client_of.post(url("console_entry_add", event.slug), {"player_1": "C Three", "player_2": "D Four"})
    first, second = Entry.objects.filter(tournament=event).order_by("id")
    round_ = Round.objects.create(tournament=event, number=1, status=Round.Status.DRAFTED)
    Board.objects.create(round=round_, table=1, pair_a=first, pair_b=second, match_format={"kind": "first_to", "n": 2})
    refused = client_of.post(url("console_entries", event.slug), {"entry": first.pk}, follow=True)
    assert b"has played in this tournament: withdraw it instead" in refused.content
    assert Entry.objects.filter(pk=first.pk).exists()


def test_import_24_pairs_fix_two_bad_rows_check_two_in_absent_and_draft_without_them(
    client_of: Client, event: Tournament, organiser: User, eager_celery: None  # noqa: F811
) -> None:
    assert client_of.get(url("console_entries_import", event.slug)).status_code == 200
    upload = SimpleUploadedFile("carnival.csv", csv_of_24(), content_type="text/csv")
    preview = client_of.post(url("console_entries_import", event.slug), {"file": upload})
    assert preview.status_code == 200
    html = preview.content.decode()
    assert "Nothing is stored yet" in html and Entry.objects.count() == 0
    assert html.count('<tr id="row') == 24 and len(re.findall(r'<tr id="row\d+" class="bad">', html)) == 2
    assert "player_1 is empty" in html and "is not a whole number above 0" in html
    assert html.count("New pair of two new players") == 22
    form = preview_form(preview)
    assert {"r6-player_1", "r14-seed"} <= set(form)
    # confirming while a row is still wrong stores nothing and shows the preview again
    refused = client_of.post(url("console_entries_import", event.slug), {**form, "action": "confirm"})
    assert refused.status_code == 400 and Entry.objects.count() == 0
    form["r6-player_1"] = "Player 13"
    form["r14-seed"] = "15"
    checked = client_of.post(url("console_entries_import", event.slug), {**form, "action": "check"})
    assert checked.status_code == 200 and not re.findall(r'<tr id="row\d+" class="bad">', checked.content.decode())
    done = client_of.post(url("console_entries_import", event.slug), {**preview_form(checked), "action": "confirm"},
                          follow=True)
    assert done.status_code == 200 and b"Imported: 24 pairs entered" in done.content
    entries = list(Entry.objects.filter(tournament=event).order_by("seed"))
    assert len(entries) == 24 and entries[14].seed == 15 and entries[6].pair.player_1.name == "Player 13"
    assert entries[5].tags == ["ladies"]

    # check-in at the door: two absent
    page = client_of.get(url("console_check_in", event.slug))
    assert page.status_code == 200 and b"Check-in \xc2\xb7 round 1" in page.content
    assert page.content.count(b'value="present"') == 24
    for entry in entries[:2]:
        response = client_of.post(url("console_check_in", event.slug), {"entry": entry.pk, "round": 1,
                                                                          "action": "absent"})
        assert response.status_code == 302 and response["Location"].endswith(f"#e{entry.pk}")
    client_of.post(url("console_check_in", event.slug), {"entry": entries[2].pk, "round": 1, "action": "paid"})
    assert Entry.objects.get(pk=entries[2].pk).fee_paid
    counts = client_of.get(url("console_check_in", event.slug)).content.decode()
    assert re.search(r"<strong>22</strong> present", counts) and re.search(r"<strong>2</strong> absent", counts)
    found = client_of.get(url("console_check_in", event.slug), {"q": "player 47"}).content.decode()
    assert found.count('value="present"') == 1
    assert Availability.objects.filter(state="absent").count() == 2

    round_ = round_start(tournament=event, user=organiser)
    seated = {e for b in Board.objects.filter(round=round_) for e in (b.pair_a_id, b.pair_b_id) if e}
    assert len(seated) == 22 and not seated & {entries[0].pk, entries[1].pk}
    # once round 1 is paired, check-in moves to round 2
    assert b"round 2" in client_of.get(url("console_check_in", event.slug)).content


def test_an_xlsx_file_previews_like_a_csv(client_of: Client, event: Tournament) -> None:
    book = Workbook()
    sheet = book.active
    sheet.append(["player_1", "player_2", "club", "seed"])
    sheet.append(["Kenrick Baptiste", "Ria Mohammed", "Couva Kings", 1])
    out = io.BytesIO()
    book.save(out)
    upload = SimpleUploadedFile("list.xlsx", out.getvalue())
    preview = client_of.post(url("console_entries_import", event.slug), {"file": upload})
    assert preview.status_code == 200 and b"New pair of two new players; new club Couva Kings" in preview.content


@pytest.mark.parametrize(("name", "data", "text"), [
    ("x.csv", b"", b"The submitted file is empty"),
    ("x.csv", b"name,partner\nA,B\n", b"missing: player_1"),
    ("old.xls", b"whatever", b"Save the list as .xlsx"),
])
def test_a_file_that_cannot_be_read_is_explained_on_the_upload_form(client_of: Client, event: Tournament, name: str,
                                                                    data: bytes, text: bytes) -> None:
    response = client_of.post(url("console_entries_import", event.slug), {"file": SimpleUploadedFile(name, data)})
    assert response.status_code == 400 and text in response.content


def test_a_tampered_preview_is_refused_without_a_500(client_of: Client, event: Tournament) -> None:
    for rows in ("not json", json.dumps({"a": 1}), json.dumps([[1, 2]])):
        response = client_of.post(url("console_entries_import", event.slug), {"rows": rows, "action": "confirm"},
                                  follow=True)
        assert response.status_code == 200 and b"upload the file again" in response.content
    odd = json.dumps([{"player_1": "A", "player_2": "B", "colour": "red"}])
    response = client_of.post(url("console_entries_import", event.slug), {"rows": odd, "action": "confirm"},
                              follow=True)
    assert response.status_code == 200 and b"not a column of the import" in response.content
    assert Entry.objects.count() == 0


# ---- who may ----------------------------------------------------------------------------------------------
def test_a_scorekeeper_checks_in_at_the_door_and_cannot_import(event: Tournament) -> None:
    scorekeeper = User.objects.create_user("door", password="pw-door-1")
    TournamentRole.objects.create(tournament=event, user=scorekeeper, role="scorekeeper")
    organiser = User.objects.create_user("boss", password="pw-boss-1")
    TournamentRole.objects.create(tournament=event, user=organiser)
    boss = Client()
    boss.force_login(organiser)
    boss.post(url("console_entry_add", event.slug), {"player_1": "A One", "player_2": "B Two"})
    entry = Entry.objects.get(tournament=event)
    door = Client()
    door.force_login(scorekeeper)
    assert door.get(url("console_check_in", event.slug)).status_code == 200
    door.post(url("console_check_in", event.slug), {"entry": entry.pk, "round": 1, "action": "absent"})
    assert Availability.objects.get(entry=entry).state == "absent"
    refused = door.post(url("console_entries_import", event.slug),
                        {"file": SimpleUploadedFile("x.csv", b"player_1,player_2,club,seed\nC,D,,\n")})
    assert refused.status_code in (400, 403) and Entry.objects.count() == 1
    added = door.post(url("console_entry_add", event.slug), {"player_1": "C", "player_2": "D"})
    assert added.status_code in (400, 403) and Entry.objects.count() == 1


@pytest.mark.parametrize("name", ["console_entries", "console_entry_add", "console_entries_import", "console_check_in"])
def test_the_pages_need_a_role_on_the_tournament(event: Tournament, name: str) -> None:
    assert Client().get(url(name, event.slug)).status_code == 302  # to the login page
    stranger = Client()
    stranger.force_login(User.objects.create_user("stranger", password="pw-stranger-1"))
    assert stranger.get(url(name, event.slug)).status_code == 403
    assert stranger.post(url(name, event.slug), {}).status_code == 403


def test_forms_need_the_csrf_token(organiser: User, event: Tournament) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser)
    response = client.post(url("console_entry_add", event.slug), {"player_1": "A", "player_2": "B"})
    assert response.status_code == 403 and Entry.objects.count() == 0


# ---- the public starting list -----------------------------------------------------------------------------
def test_the_public_starting_list(client_of: Client, event: Tournament) -> None:
    client_of.post(url("console_entry_add", event.slug), {"player_1": "A One", "player_2": "B Two",
                                                          "club": "Couva Kings", "seed": "2", "tags": "ladies"})
    client_of.post(url("console_entry_add", event.slug), {"player_1": "C Three", "player_2": "D Four", "seed": "1"})
    client_of.post(url("console_entry_add", event.slug), {"player_1": "E Five", "player_2": "F Six", "seed": "3"})
    Entry.objects.filter(pair__player_1__name="E Five").update(withdrawn=True)
    page = Client().get(url("public_entries", event.slug))
    assert page.status_code == 200
    html = page.content.decode()
    assert html.index("C Three &amp; D Four") < html.index("A One &amp; B Two")
    assert "Couva Kings" in html and "ladies" in html and "E Five" not in html
    assert "2 pairs" in html
    home = Client().get(url("tournament", event.slug)).content.decode()
    assert url("public_entries", event.slug) in home
    Tournament.objects.filter(pk=event.pk).update(published=False)
    assert Client().get(url("public_entries", event.slug)).status_code == 404


def test_requested_byes_are_set_on_the_entry_form(client_of: Client, event: Tournament) -> None:
    client_of.post(url("console_entry_add", event.slug), {"player_1": "A One", "player_2": "B Two"})
    entry = Entry.objects.get(tournament=event)
    form = client_of.get(url("console_entry_edit", event.slug, entry.pk))
    assert b"Requested byes" in form.content
    saved = client_of.post(url("console_entry_edit", event.slug, entry.pk), {"byes": "3; 2"})
    assert saved.status_code == 302
    assert sorted(Availability.objects.filter(entry=entry, state="bye").values_list("round_number", flat=True)) == [2, 3]
    assert b"bye requested: round 2, 3" in client_of.get(url("console_entries", event.slug)).content
    client_of.post(url("console_entry_edit", event.slug, entry.pk), {"byes": "3"})
    assert list(Availability.objects.filter(entry=entry).values_list("round_number", flat=True)) == [3]
    bad = client_of.post(url("console_entry_edit", event.slug, entry.pk), {"byes": "two"})
    assert bad.status_code == 400 and b"is not a round number" in bad.content
    Tournament.objects.filter(pk=event.pk).update(pairing_system="round_robin")
    assert b"Requested byes" not in client_of.get(url("console_entry_edit", event.slug, entry.pk)).content
