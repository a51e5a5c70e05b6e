"""Fixtures of a season (docs/leagues-model.md): generated and entered, the clash check, replays, walkovers,
point deductions, line-ups and substitutions, teams and rosters."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.tournaments.factories import (
    make_club,
    make_entries,
    make_organiser,
    make_team_round,
    make_tournament,
    seat,
    win_game,
)
from tests.tournaments.leagues_helpers import add_pair, day, make_season, make_team
from tournaments.models import Board, BoardPair, Club, LineupSubstitution, Pair, Player, TeamMatch
from tournaments.services import Conflict, ValidationFailed, game_confirm, organisation_personal
from tournaments.services.leagues import (
    deduction_add,
    deduction_void,
    division_create,
    fixture_create,
    fixture_replay,
    fixture_walkover,
    fixtures_generate,
    league_standings,
    lineup_set,
    lineup_substitute,
    match_day_create,
    match_day_update,
    match_totals_enter,
    paper_game_enter,
    roster_add,
    team_create,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    season, user = make_season()
    teams = [make_team(season, user, name, seed=i) for i, name in enumerate(["Couva", "Penal", "Siparia", "Fyzabad"], 1)]
    return season, user, teams


def test_a_double_round_robin_meets_every_pair_twice_home_and_away(league):
    season, user, teams = league
    made = fixtures_generate(tournament=season, user=user, double=True, dates=[day(n) for n in range(1, 7)])
    assert len(made) == 12 and season.rounds.count() == 6
    meetings = Counter((m.team_a_id, m.team_b_id) for m in made)
    ids = [t.pk for t in teams]
    assert set(meetings) == {(a, b) for a in ids for b in ids if a != b}  # each pair once at each home
    assert all(count == 1 for count in meetings.values())
    by_day = Counter(t for m in made for t in (m.team_a_id, m.team_b_id))
    assert set(by_day.values()) == {6}  # one fixture a day each
    assert [r.date for r in season.rounds.order_by("number")] == [day(n) for n in range(1, 7)]


def test_a_team_twice_on_one_day_is_refused_naming_both_fixtures(league):
    season, user, (couva, penal, siparia, _) = league
    first = match_day_create(tournament=season, user=user, date=day(1), venue="Couva")
    same_date = match_day_create(tournament=season, user=user, date=day(1), venue="Penal")
    fixture_create(round=first, home=couva, away=penal, user=user)
    with pytest.raises(Conflict) as refused:
        fixture_create(round=same_date, home=siparia, away=couva, user=user)
    assert refused.value.code == "fixture_clash"
    assert refused.value.message == ("Couva would play twice on 2026-04-04: round 1 (2026-04-04): Couva v Penal "
                                     "and round 2 (2026-04-04): Siparia v Couva.")
    # a match day without a date is a day of its own
    undated = match_day_create(tournament=season, user=user)
    fixture_create(round=undated, home=siparia, away=couva, user=user)
    with pytest.raises(Conflict):
        fixture_create(round=undated, home=penal, away=siparia, user=user)
    # moving a day's date onto another day with the same team is refused too
    with pytest.raises(Conflict) as refused:
        match_day_update(round=undated, user=user, date=day(1))
    assert refused.value.code == "fixture_clash"


def test_a_replay_voids_the_first_fixture_and_only_the_replay_counts(league):
    season, user, (couva, penal, *_) = league
    first = match_day_create(tournament=season, user=user, date=day(1))
    again = match_day_create(tournament=season, user=user, date=day(3))
    match = fixture_create(round=first, home=couva, away=penal, user=user)
    match_totals_enter(team_match=match, user=user, games=[5, 2], hang_jacks=[1, 1])
    with pytest.raises(ValidationFailed):
        fixture_replay(team_match=match, round=again, user=user, reason=" ")
    replay = fixture_replay(team_match=match, round=again, user=user, reason="the home team fielded a suspended pair")
    assert (replay.replay_of_id, replay.status, TeamMatch.objects.get(pk=match.pk).status) == (match.pk, "scheduled", "void")
    match_totals_enter(team_match=replay, user=user, games=[1, 5], hang_jacks=[0, 2])
    rows = {r["team"]: r for r in league_standings(tournament=season)["rows"]}
    assert (rows["Penal"]["played"], rows["Penal"]["wins"], rows["Penal"]["bullseyes_won"]) == (1, 1, 5)
    assert (rows["Couva"]["played"], rows["Couva"]["bullseyes_won"], rows["Couva"]["hang_jacks_for"]) == (1, 1, 0)


def test_walkovers_and_deductions(league):
    season, user, (couva, penal, siparia, fyzabad) = league
    first = match_day_create(tournament=season, user=user, date=day(1))
    one = fixture_create(round=first, home=couva, away=penal, user=user)
    two = fixture_create(round=first, home=siparia, away=fyzabad, user=user)
    one = fixture_walkover(team_match=one, absent="home", user=user, reason="no team")
    assert (one.status, one.result_source, one.winner, one.bullseyes_a, one.bullseyes_b) == ("walkover", "forfeit", 1, 0, 5)
    fixture_walkover(team_match=two, absent="both", user=user)
    with pytest.raises(Conflict):
        match_totals_enter(team_match=one, user=user, games=[5, 0], hang_jacks=[0, 0])
    row = deduction_add(team=penal, user=user, reason="late line-up", match_points=1)
    with pytest.raises(ValidationFailed) as refused:
        deduction_add(team=penal, user=user, reason="", match_points=1)
    assert refused.value.code == "reason_required"
    rows = {r["team"]: r for r in league_standings(tournament=season)["rows"]}
    # Penal: a walkover win (5-0 under the race to 5, forfeit policy: no hang jacks), 2 points less 1 deducted
    assert (rows["Penal"]["wins"], rows["Penal"]["forfeits_won"], rows["Penal"]["match_points"],
            rows["Penal"]["bullseyes_won"]) == (1, 1, 1, 5)
    assert (rows["Couva"]["losses"], rows["Couva"]["forfeits_lost"], rows["Couva"]["bullseyes_lost"]) == (1, 1, 5)
    assert (rows["Siparia"]["losses"], rows["Fyzabad"]["losses"]) == (1, 1)  # neither came: two losses
    assert rows["Penal"]["sources"] == {"walkover": 1}
    deduction_void(deduction=row, user=user)
    rows = {r["team"]: r for r in league_standings(tournament=season)["rows"]}
    assert rows["Penal"]["match_points"] == 2


def test_line_ups_seat_k_boards_and_a_substitution_is_recorded(league):
    season, user, (couva, penal, *_) = league
    couva_pairs = [add_pair(couva, user) for _ in range(3)]
    penal_pairs = [add_pair(penal, user) for _ in range(2)]
    match_day = match_day_create(tournament=season, user=user, date=day(1))
    match = fixture_create(round=match_day, home=couva, away=penal, user=user)
    with pytest.raises(ValidationFailed) as refused:
        lineup_set(team_match=match, team=couva, entries=couva_pairs, user=user)  # K is 2
    assert refused.value.code == "lineup_invalid"
    with pytest.raises(ValidationFailed):
        lineup_set(team_match=match, team=couva, entries=[couva_pairs[0], penal_pairs[0]], user=user)
    lineup_set(team_match=match, team=couva, entries=couva_pairs[:2], user=user)
    assert not Board.objects.filter(team_match=match).exists()
    lineup_set(team_match=match, team=penal, entries=penal_pairs, user=user)
    boards = list(Board.objects.filter(team_match=match).order_by("slot"))
    # slot i against slot i; the home pair on side 0 at board 1, the away pair at board 2
    assert [(b.slot, b.table, b.pair_a_id, b.pair_b_id) for b in boards] == [
        (0, 1, couva_pairs[0].pk, penal_pairs[0].pk), (1, 2, penal_pairs[1].pk, couva_pairs[1].pk)]
    with pytest.raises(Conflict) as refused:
        lineup_set(team_match=match, team=couva, entries=couva_pairs[1:], user=user)
    assert refused.value.code == "lineup_fixed"
    sub = lineup_substitute(team_match=match, team=couva, slot=1, entry=couva_pairs[2], user=user, reason="ill")
    assert (sub.out_entry_id, sub.in_entry_id, sub.slot) == (couva_pairs[1].pk, couva_pairs[2].pk, 1)
    assert Board.objects.get(pk=boards[1].pk).pair_b_id == couva_pairs[2].pk
    assert BoardPair.objects.get(board=boards[1], side=1).entry_id == couva_pairs[2].pk
    assert TeamMatch.objects.get(pk=match.pk).lineup_a == [couva_pairs[0].pk, couva_pairs[2].pk]
    paper_game_enter(board=boards[0], user=user, score=[14, 3], hang_jacks=[0, 0])
    with pytest.raises(Conflict) as refused:
        lineup_substitute(team_match=match, team=couva, slot=0, entry=couva_pairs[1], user=user)
    assert refused.value.code == "board_started"
    assert LineupSubstitution.objects.filter(team_match=match).count() == 1


def test_a_club_fields_two_teams_and_a_roster_holds_its_own_pairs(league):
    season, user, (couva, penal, *_) = league
    second = team_create(tournament=season, club=couva.club, user=user, name="Couva B")
    assert second.club_id == couva.club_id
    with pytest.raises(ValidationFailed) as refused:
        team_create(tournament=season, club=penal.club, user=user, name="Couva B")
    assert refused.value.code == "team_exists"
    owner = organisation_personal(user=user)
    other = Club.objects.create(name="Elsewhere", owner=owner)
    p1, p2 = (Player.objects.create(name=n, club=other, owner=owner) for n in ("X One", "X Two"))
    pair = Pair.objects.create(player_1=p1, player_2=p2, club=other, owner=owner)
    with pytest.raises(ValidationFailed) as refused:
        roster_add(team=penal, pair=pair, user=user)
    assert refused.value.code == "pair_of_another_club"


def test_a_club_team_event_seated_by_the_draw_plays_as_teams_too():
    """docs/leagues-model.md: a club-team event gets one team per club (the draw makes it when first needed),
    its club's pairs on the roster; the league table reads it like any season."""
    tournament = make_tournament(entrant_type="club_teams", team_format={"boards": 1, "kind": "games", "n": 1})
    organiser = make_organiser(tournament)
    clubs = [make_club("Couva"), make_club("Penal")]
    for club in clubs:
        make_entries(tournament, 2, club=club)
    round_ = make_team_round(tournament, clubs)
    match = TeamMatch.objects.get(round=round_)
    assert (match.team_a.club_id, match.team_b.club_id, match.team_a.name) == (clubs[0].pk, clubs[1].pk, "Couva")
    assert {e.team.club_id for e in tournament.entries.select_related("team")} == {clubs[0].pk, clubs[1].pk}
    assert all(e.team.club_id == e.pair.club_id for e in tournament.entries.select_related("team", "pair"))
    board = seat(Board.objects.get(team_match=match))
    win_game(board, to=1)
    game_confirm(game=board.games.get(number=1), party="organiser", user=organiser)
    assert TeamMatch.objects.get(pk=match.pk).status == "played"
    rows = league_standings(tournament=tournament)["rows"]
    assert [(r["team"], r["wins"], r["chalks_for"]) for r in rows] == [("Penal", 1, 14), ("Couva", 0, 0)]


def test_a_division_plays_its_own_boards_and_race_and_values_its_byes_by_it():
    season, user = make_season(team_format={"boards": 2, "kind": "first_to_total", "n": 5})
    lower = division_create(tournament=season, user=user, name="Division 2", boards=1, race_target=3)
    upper = division_create(tournament=season, user=user, name="Division 1")
    a, b, c = (make_team(season, user, name, lower, pairs=1, seed=i) for i, name in enumerate("ABC", 1))
    d = make_team(season, user, "D", upper, seed=4)
    made = fixtures_generate(tournament=season, user=user, division=lower, dates=[day(1), day(2), day(3)])
    assert {tuple(sorted(m.team_format.items())) for m in made} == {
        (("boards", 1), ("kind", "first_to_total"), ("n", 3))}
    cross = fixture_create(round=match_day_create(tournament=season, user=user, date=day(4)), home=a, away=d, user=user)
    assert cross.team_format == {"boards": 2, "kind": "first_to_total", "n": 5}  # across divisions: the season's
    first_day = [m for m in made if m.round.number == 1 and m.team_b_id]
    with pytest.raises(ValidationFailed) as refused:
        match_totals_enter(team_match=first_day[0], user=user, games=[5, 0], hang_jacks=[0, 0])
    assert "A race to 3" in refused.value.message
    for m in made:
        if m.team_b_id:
            match_totals_enter(team_match=m, user=user, games=[3, 1], hang_jacks=[0, 0])
    # a home win each time; every team one bye, valued by the division's race target 3 (league bye policy)
    table = league_standings(tournament=season, division=lower)
    assert table["race_target"] == 3
    assert sorted((r["team"], r["byes"], r["bullseyes_won"]) for r in table["rows"]) == [
        ("A", 1, 3 + 3 + 1), ("B", 1, 3 + 3 + 1), ("C", 1, 3 + 3 + 1)]


def test_fixtures_on_one_date_take_their_own_tables(league):
    season, user, (couva, penal, siparia, fyzabad) = league
    for team in (couva, penal, siparia, fyzabad):
        add_pair(team, user)
        add_pair(team, user)
    hall_1 = match_day_create(tournament=season, user=user, date=day(1), venue="Couva")
    hall_2 = match_day_create(tournament=season, user=user, date=day(1), venue="Penal")
    one = fixture_create(round=hall_1, home=couva, away=penal, user=user)
    two = fixture_create(round=hall_2, home=siparia, away=fyzabad, user=user)
    for match, home, away in ((one, couva, penal), (two, siparia, fyzabad)):
        lineup_set(team_match=match, team=home, entries=list(home.roster.all()), user=user)
        lineup_set(team_match=match, team=away, entries=list(away.roster.all()), user=user)
    tables = [(b.round_id, b.table) for b in Board.objects.filter(round__tournament=season).order_by("table")]
    assert tables == [(hall_1.pk, 1), (hall_1.pk, 2), (hall_2.pk, 3), (hall_2.pk, 4)]
