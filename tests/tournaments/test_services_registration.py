"""Registration (issue 12): the import with a preview (CSV and XLSX), check-in, fees, tags, requested byes,
and the Swiss draft of pairs drawn from check-in (absent pairs left out, several byes in one round)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from openpyxl import Workbook

from tests.tournaments.factories import make_entries, make_organiser, make_tournament, make_user
from tests.tournaments.test_pairing_service import pairs_event, play_round, tables
from tests.tournaments.test_tournament_e2e import eager_celery  # noqa: F401 - a fixture
from tournaments.models import AuditEvent, Availability, Board, Club, Entry, Pair, Player, Round, Tournament
from tournaments.selectors.availability import check_in_round, round_field
from tournaments.services import (
    Conflict,
    NotAllowed,
    ValidationFailed,
    club_create,
    pair_create,
    player_create,
    round_start,
)
from tournaments.services.checkin import (
    MAX_TAGS,
    entry_bye_request,
    entry_check_in,
    entry_details_set,
    entry_fee_paid_set,
    entry_tags_set,
    tags_clean,
)
from tournaments.services.import_preview import (
    MAX_BYTES,
    MAX_ROWS,
    ImportRowsInvalid,
    pairs_import_check,
    pairs_import_commit,
    pairs_import_preview,
)

pytestmark = pytest.mark.django_db

HEADER = "player_1,player_2,club,seed,tags,byes\n"
GOOD = (
    "Kenrick Baptiste,Ria Mohammed,Couva Kings,1,ladies; Juniors,\n"
    "Anil Ramdeen,Joy Charles,Couva Kings,2,,3\n"
    "Marcus Cox,Lisa Ali,,3,seniors,\n"
)
BAD = (
    ",Dee Roberts,Arima Aces,4,,\n"           # line 5: player_1 empty
    "Sam Lee,Tom Lee,Arima Aces,first,,\n"    # line 6: a seed that is not a number
)


def stored() -> tuple[int, ...]:
    return (Club.objects.count(), Player.objects.count(), Pair.objects.count(), Entry.objects.count(),
            Availability.objects.count(), AuditEvent.objects.count())


def event(**kwargs: Any) -> tuple[Tournament, Any]:
    tournament = make_tournament(**kwargs)
    return tournament, make_organiser(tournament)


def xlsx(rows: list[list[Any]]) -> bytes:
    book = Workbook()
    sheet = book.active
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


# ---- tags ---------------------------------------------------------------------------------------------
def test_tags_are_short_lower_case_names_each_once() -> None:
    assert tags_clean("Ladies;  juniors , LADIES") == ["ladies", "juniors"]
    assert tags_clean(["Under-18", "  over 60 "]) == ["under-18", "over 60"]
    assert tags_clean("") == [] and tags_clean(None) == []
    for bad in ("=cmd|calc", "x" * 25, ";".join(f"t{i}" for i in range(MAX_TAGS + 1)), ["ok", 3]):
        with pytest.raises(ValidationFailed) as refused:
            tags_clean(bad)  # type: ignore[arg-type]
        assert refused.value.code == "tags_invalid" and "tags" in refused.value.fields


# ---- the preview --------------------------------------------------------------------------------------
def test_a_csv_preview_shows_every_row_its_outcome_and_per_field_errors_and_stores_nothing() -> None:
    tournament, organiser = event()
    club_create(name="Couva Kings", user=organiser)
    before = stored()
    preview = pairs_import_preview(data=(HEADER + GOOD + BAD).encode(), filename="pairs.csv", tournament=tournament,
                                   user=organiser)
    assert stored() == before, "a preview writes nothing"
    assert preview.kind == "csv" and len(preview.rows) == 5 and not preview.ok
    first, second, third, empty_name, bad_seed = preview.rows
    assert [r.line for r in preview.rows] == [2, 3, 4, 5, 6]
    assert first.ok and first.actions == {"club": "existing", "player_1": "new", "player_2": "new", "pair": "new",
                                          "entry": "new"}
    assert first.tags == ["ladies", "juniors"] and first.seed == 1
    assert "New pair of two new players; club Couva Kings; entered" in first.outcome()
    assert second.byes == [3] and "bye requested in round 3" in second.outcome()
    assert third.actions["club"] == "none"
    assert set(empty_name.errors) == {"player_1"} and "empty" in empty_name.errors["player_1"]
    assert set(bad_seed.errors) == {"seed"} and "whole number" in bad_seed.errors["seed"]
    counts = preview.counts()
    assert counts["rows_with_errors"] == 2 and counts["entries_new"] == 3 and counts["clubs_new"] == 0
    assert preview.as_dict()["rows"][3]["errors"] == {"player_1": empty_name.errors["player_1"]}


def test_an_xlsx_preview_reads_the_first_sheet_values_only() -> None:
    tournament, organiser = event()
    data = xlsx([
        ["Player 1", "Player 2", "Club", "Seed", "Tags"],
        ["Kenrick Baptiste", "Ria Mohammed", "Couva Kings", 1.0, "ladies"],
        [None, None, None, None, None],
        ["Anil  Ramdeen", "Joy Charles", "Couva Kings", 2, None],
        ["Sam Lee", "Sam Lee", "Arima Aces", 3, None],
        ["Tom Lee", "Dee Roberts", "Arima Aces", -4, None],
    ])
    preview = pairs_import_preview(data=data, filename="Entries.xlsx", tournament=tournament, user=organiser)
    assert preview.kind == "xlsx"
    assert [r.line for r in preview.rows] == [2, 4, 5, 6]
    assert preview.rows[0].seed == 1 and preview.rows[0].tags == ["ladies"]
    assert preview.rows[1].values["player_1"] == "Anil Ramdeen"
    assert "player_2" in preview.rows[2].errors and "same player" in preview.rows[2].errors["player_2"]
    assert "seed" in preview.rows[3].errors
    # the second row of a new club: still one new club
    assert preview.counts()["clubs_new"] == 1


def test_the_preview_matches_existing_clubs_players_pairs_and_entries_by_name() -> None:
    tournament, organiser = event()
    club = club_create(name="Couva Kings", user=organiser)
    p1 = player_create(name="Kenrick Baptiste", club=club, user=organiser)
    p2 = player_create(name="Ria Mohammed", club=club, user=organiser)
    pair = pair_create(player_1=p1, player_2=p2, club=club, user=organiser)
    Entry.objects.create(tournament=tournament, pair=pair, seed=1)
    anil = player_create(name="Anil Ramdeen", club=club, user=organiser)
    joy = player_create(name="Joy Charles", club=club, user=organiser)
    Entry.objects.create(tournament=tournament, pair=pair_create(player_1=anil, player_2=joy, club=club, user=organiser))
    Club.objects.create(name="Couva Kings (another organisation's)")
    data = (HEADER + "ria mohammed,KENRICK BAPTISTE,couva kings,5,,\nAnil Ramdeen,Sue Park,Couva Kings,,,\n")
    preview = pairs_import_preview(data=data.encode(), filename="x.csv", tournament=tournament, user=organiser)
    known, clash = preview.rows
    assert known.ok and known.actions == {"club": "existing", "player_1": "existing", "player_2": "existing",
                                          "pair": "existing", "entry": "update"}
    assert known.matched["pair"] == pair.pk
    assert set(clash.errors) == {"player_1"} and "already plays in this event" in clash.errors["player_1"]


def test_rows_are_checked_together_a_pair_or_a_player_twice() -> None:
    tournament, organiser = event()
    data = HEADER + "A One,B Two,C,1,,\nB Two,A One,C,2,,\nA One,D Four,C,3,,\n"
    rows = pairs_import_preview(data=data.encode(), filename="x.csv", tournament=tournament, user=organiser).rows
    assert rows[0].ok
    assert "same pair is already on line 2" in rows[1].errors["row"]
    assert "A One already plays on line 2" in rows[2].errors["player_1"]


def test_fixing_bad_rows_then_confirming_stores_everything_in_one_go() -> None:
    tournament, organiser = event(match_format={"kind": "first_to", "n": 2})
    preview = pairs_import_preview(data=(HEADER + GOOD + BAD).encode(), filename="pairs.csv", tournament=tournament,
                                   user=organiser)
    rows = [row.input() for row in preview.rows]
    before = stored()
    with pytest.raises(ImportRowsInvalid) as refused:
        pairs_import_commit(rows=rows, tournament=tournament, user=organiser)
    assert refused.value.code == "import_rows_invalid" and set(refused.value.fields) == {"rows[3].player_1",
                                                                                        "rows[4].seed"}
    assert len(refused.value.preview.errors) == 2
    assert stored() == before, "nothing stored while a row is wrong"
    rows[3]["player_1"] = "Carla Roberts"
    rows[4]["seed"] = "5"
    assert pairs_import_check(rows=rows, tournament=tournament, user=organiser).ok
    result = pairs_import_commit(rows=rows, tournament=tournament, user=organiser)
    assert (result.entries_created, result.clubs_created, result.players_created, result.byes_requested) == (5, 2, 10, 1)
    entries = {e.pair.player_1.name: e for e in Entry.objects.filter(tournament=tournament).select_related("pair__player_1")}
    assert entries["Kenrick Baptiste"].tags == ["ladies", "juniors"] and entries["Sam Lee"].seed == 5
    assert Availability.objects.get(entry=entries["Anil Ramdeen"]).state == "bye"
    assert Availability.objects.get(entry=entries["Anil Ramdeen"]).round_number == 3
    assert AuditEvent.objects.filter(action="pairs.import").count() == 1
    assert AuditEvent.objects.filter(action="entry.create").count() == 5
    # the same rows again: every pair is already entered and nothing new is made
    again = pairs_import_commit(rows=rows, tournament=tournament, user=organiser)
    assert (again.entries_created, again.pairs_created, again.players_created) == (0, 0, 0)


def test_the_import_limits_and_unreadable_files_are_clear_refusals() -> None:
    tournament, organiser = event()

    def refused(data: bytes, filename: str = "x.csv") -> ValidationFailed:
        with pytest.raises(ValidationFailed) as exc:
            pairs_import_preview(data=data, filename=filename, tournament=tournament, user=organiser)
        return exc.value

    assert refused(b"").code == "import_empty"
    assert refused(b"a" * (MAX_BYTES + 1)).code == "import_too_large"
    many = HEADER + "".join(f"P{i} a,P{i} b,,{i + 1},,\n" for i in range(MAX_ROWS + 1))
    too_many = refused(many.encode())
    assert too_many.code == "import_too_large" and str(MAX_ROWS) in too_many.message
    missing = refused(b"name,partner\nA,B\n")
    assert missing.code == "import_unreadable" and "player_1" in missing.message
    assert refused(HEADER.encode()).code == "import_empty"
    assert refused(b"PK\x03\x04 not a workbook", "list.xlsx").code == "import_unreadable"
    assert refused(b"anything", "old.xls").code == "import_unreadable"
    windows = pairs_import_preview(data=(HEADER + "Jos\xe9 Ali,Ann Roy,,1,,\n").encode("cp1252"), filename="w.csv",
                                   tournament=tournament, user=organiser)
    assert windows.rows[0].values["player_1"] == "José Ali" and windows.notes


def test_only_an_organiser_of_the_tournament_previews_or_confirms() -> None:
    tournament, _ = event()
    stranger = make_user()
    with pytest.raises(NotAllowed):
        pairs_import_preview(data=(HEADER + GOOD).encode(), filename="x.csv", tournament=tournament, user=stranger)
    with pytest.raises(NotAllowed):
        pairs_import_commit(rows=[{"player_1": "A", "player_2": "B", "club": "", "seed": ""}], tournament=tournament,
                            user=stranger)
    assert Entry.objects.count() == 0


@pytest.mark.parametrize(("rows", "code"), [
    ("not a list", "rows_invalid"),
    ([], "import_empty"),
    ([{"player_1": "A", "player_2": "B", "club": "", "seed": "", "colour": "red"}], "rows_invalid"),
    ([{"player_1": ["A"], "player_2": "B"}], "rows_invalid"),
    ([{"player_1": "A", "player_2": "B", "line": "two"}], "rows_invalid"),
    ([["A", "B"]], "rows_invalid"),
])
def test_rows_sent_back_in_another_shape_are_refused(rows: Any, code: str) -> None:
    tournament, organiser = event()
    with pytest.raises(ValidationFailed) as refused:
        pairs_import_commit(rows=rows, tournament=tournament, user=organiser)
    assert refused.value.code == code


def test_requested_byes_in_the_import_are_checked_against_the_event() -> None:
    tournament, organiser = event(pairing_system="round_robin")
    rows = pairs_import_check(rows=[{"player_1": "A", "player_2": "B", "byes": "2"}], tournament=tournament,
                              user=organiser).rows
    assert "no requested byes" in rows[0].errors["byes"]
    swiss, organiser = event()
    rows = pairs_import_check(rows=[{"player_1": "A", "player_2": "B", "byes": [2, 9]},
                                    {"player_1": "C", "player_2": "D", "byes": "x"}], tournament=swiss,
                              user=organiser).rows
    assert "after the 5 rounds planned" in rows[0].errors["byes"] and "not a round number" in rows[1].errors["byes"]


# ---- check-in, fees and tags ----------------------------------------------------------------------------
def test_check_in_records_one_state_per_entry_and_round() -> None:
    tournament, organiser = event()
    entry, other = make_entries(tournament, 2)
    entry_check_in(entry=entry, round_number=1, state="absent", user=organiser)
    entry_check_in(entry=entry, round_number=1, state="present", user=organiser)
    assert Availability.objects.get(entry=entry, round_number=1).state == "present"
    assert Availability.objects.get(entry=entry, round_number=1).updated_by == organiser
    field = round_field(tournament, 1)
    assert field.present == [entry.pk, other.pk] and field.counts()["not_checked_in"] == 0
    Tournament.objects.filter(pk=tournament.pk).update(requires_check_in=True)
    field = round_field(Tournament.objects.get(pk=tournament.pk), 1)
    assert field.present == [entry.pk] and field.not_checked_in == [other.pk]
    assert AuditEvent.objects.filter(action="entry.check_in").count() == 2


def test_check_in_refusals() -> None:
    tournament, organiser = event()
    entry, withdrawn = make_entries(tournament, 2)
    Entry.objects.filter(pk=withdrawn.pk).update(withdrawn=True)
    withdrawn.refresh_from_db()
    cases = [
        (dict(entry=entry, round_number=1, state="late"), ValidationFailed, "state_invalid"),
        (dict(entry=entry, round_number=0, state="present"), ValidationFailed, "round_invalid"),
        (dict(entry=withdrawn, round_number=1, state="present"), Conflict, "entry_withdrawn"),
    ]
    for kwargs, error, code in cases:
        with pytest.raises(error) as refused:
            entry_check_in(user=organiser, **kwargs)
        assert refused.value.code == code
    with pytest.raises(NotAllowed):
        entry_check_in(entry=entry, round_number=1, state="absent", user=make_user())
    Round.objects.create(tournament=tournament, number=1, status=Round.Status.DRAFTED)
    with pytest.raises(Conflict) as refused:
        entry_check_in(entry=entry, round_number=1, state="absent", user=organiser)
    assert refused.value.code == "round_already_paired"
    assert check_in_round(tournament) == 2
    assert not Availability.objects.exists()


def test_a_scorekeeper_checks_pairs_in_and_records_fees_at_the_door() -> None:
    from tournaments.models import TournamentRole

    tournament, _ = event()
    entry = make_entries(tournament, 1)[0]
    scorekeeper = make_user()
    TournamentRole.objects.create(tournament=tournament, user=scorekeeper, role="scorekeeper")
    entry_check_in(entry=entry, round_number=1, state="absent", user=scorekeeper)
    assert entry_fee_paid_set(entry=entry, paid=True, user=scorekeeper).fee_paid is True
    assert Entry.objects.get(pk=entry.pk).fee_paid is True
    with pytest.raises(ValidationFailed):
        entry_fee_paid_set(entry=entry, paid="yes", user=scorekeeper)  # type: ignore[arg-type]


def test_tags_details_and_requested_byes() -> None:
    tournament, organiser = event()
    entry = make_entries(tournament, 1)[0]
    assert entry_tags_set(entry=entry, tags="Ladies; juniors", user=organiser).tags == ["ladies", "juniors"]
    changed = entry_details_set(entry=entry, user=organiser, seed=9, tags=["seniors"], fee_paid=True)
    assert (changed.seed, changed.tags, changed.fee_paid) == (9, ["seniors"], True)
    entry_bye_request(entry=entry, round_number=2, user=organiser)
    assert round_field(tournament, 2).byes == [entry.pk]
    entry_bye_request(entry=entry, round_number=2, user=organiser, requested=False)
    assert round_field(tournament, 2).byes == [] and not Availability.objects.exists()
    knockout, ko_organiser = event(pairing_system="knockout")
    ko_entry = make_entries(knockout, 1)[0]
    with pytest.raises(ValidationFailed) as refused:
        entry_check_in(entry=ko_entry, round_number=1, state="bye", user=ko_organiser)
    assert refused.value.code == "bye_not_offered"


# ---- the draw follows check-in ------------------------------------------------------------------------
def in_round(round_: Round) -> set[int]:
    return {e for pair in tables(round_) for e in pair if e is not None}


def test_the_draft_leaves_out_absent_pairs() -> None:
    tournament, e, organiser = pairs_event(8)
    for entry in e[:2]:
        entry_check_in(entry=entry, round_number=1, state="absent", user=organiser)
    round_ = round_start(tournament=tournament, user=organiser)
    assert round_.status == "drafted"
    assert in_round(round_) == {x.pk for x in e[2:]}
    assert Board.objects.filter(round=round_, pair_b__isnull=True).count() == 0
    assert len(tables(round_)) == 3


def test_where_check_in_is_required_only_pairs_checked_in_are_drawn() -> None:
    tournament, e, organiser = pairs_event(6)
    Tournament.objects.filter(pk=tournament.pk).update(requires_check_in=True)
    tournament.refresh_from_db()
    with pytest.raises(Conflict) as refused:
        round_start(tournament=tournament, user=organiser)
    assert refused.value.code == "field_too_small" and "check pairs in" in refused.value.message
    assert not Round.objects.filter(tournament=tournament).exists()
    for entry in e[:4]:
        entry_check_in(entry=entry, round_number=1, state="present", user=organiser)
    round_ = round_start(tournament=tournament, user=organiser)
    assert in_round(round_) == {x.pk for x in e[:4]}


def test_requested_byes_and_the_odd_bye_make_several_byes_in_one_round() -> None:
    tournament, e, organiser = pairs_event(10)
    entry_check_in(entry=e[0], round_number=1, state="absent", user=organiser)
    entry_bye_request(entry=e[1], round_number=1, user=organiser)
    entry_check_in(entry=e[2], round_number=1, state="bye", user=organiser)
    round_ = round_start(tournament=tournament, user=organiser)  # 7 present: 3 boards and the odd bye
    byes = Board.objects.filter(round=round_, pair_b__isnull=True)
    assert byes.count() == 3 and all(b.table is None for b in byes)
    requested = {b.pair_a_id for b in byes if b.explanation == "requested a bye"}
    assert requested == {e[1].pk, e[2].pk}
    assert e[0].pk not in in_round(round_)
    assert sorted(b.table for b in Board.objects.filter(round=round_, pair_b__isnull=False)) == [1, 2, 3]
    assert all(b.decided for b in byes), "a bye board is decided at once, like the draft's own bye"
    # a requested bye is not the draft's bye: in round 2 (odd again) it may still fall to a pair that asked for one
    play_round(round_, organiser)
    entry_check_in(entry=e[0], round_number=2, state="absent", user=organiser)
    second = round_start(tournament=tournament, user=organiser)
    odd = [b for b in Board.objects.filter(round=second, pair_b__isnull=True)]
    assert len(odd) == 1
    first_odd = next(b.pair_a_id for b in byes if b.explanation != "requested a bye")
    assert odd[0].pair_a_id != first_odd, "the pair that had the draft's bye does not get it twice"


def test_records_of_another_organisation_are_not_matched() -> None:
    tournament, organiser = event()
    club_create(name="Arima Aces", user=make_user())
    rows = pairs_import_check(rows=[{"player_1": "A One", "player_2": "B Two", "club": "arima aces"}],
                              tournament=tournament, user=organiser).rows
    assert rows[0].ok and rows[0].actions["club"] == "new"


def test_a_formula_cell_is_an_error_of_its_row_in_csv_and_xlsx() -> None:
    tournament, organiser = event()
    csv_rows = pairs_import_preview(data=(HEADER + "=cmd|' /C calc'!A0,Ann Roy,,1,,\n").encode(), filename="x.csv",
                                    tournament=tournament, user=organiser).rows
    data = xlsx([["player_1", "player_2", "club", "seed"], ["Ann Roy", "=HYPERLINK(\"http://x\",\"Bo\")", "", 1]])
    xlsx_rows = pairs_import_preview(data=data, filename="x.xlsx", tournament=tournament, user=organiser).rows
    assert "formula" in csv_rows[0].errors["player_1"]
    assert "formula" in xlsx_rows[0].errors["player_2"]


def test_the_entry_details_set_the_requested_byes_and_keep_those_of_paired_rounds() -> None:
    tournament, organiser = event()
    entry = make_entries(tournament, 1)[0]
    entry_details_set(entry=entry, user=organiser, byes="2; 4")
    assert round_field(tournament, 2).byes == [entry.pk] and round_field(tournament, 4).byes == [entry.pk]
    Round.objects.create(tournament=tournament, number=2, status=Round.Status.CLOSED)
    entry_details_set(entry=entry, user=organiser, byes=[3])
    stored = sorted(Availability.objects.filter(entry=entry).values_list("round_number", flat=True))
    assert stored == [2, 3], "round 2 is paired: its bye stays"
    with pytest.raises(ValidationFailed) as refused:
        entry_details_set(entry=entry, user=organiser, byes="first")
    assert refused.value.code == "byes_invalid"
