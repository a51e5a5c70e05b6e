"""Results from paper (docs/adr/0012-result-source.md): plausibility by the engine's rules, captains' entries
waiting for the other captain, a tablet refused on a paper game, and a fixture half from tablets and half from
paper whose table and statistics count each figure from where it comes."""

from __future__ import annotations

import pytest

from scoring import RuleSet
from tests.tournaments.factories import make_user, open_round, seat, submit, tally, win_game
from tests.tournaments.leagues_helpers import day, make_season, make_team
from tournaments.formats import TeamFormat
from tournaments.models import Board, Game, TeamMatch, Tournament
from tournaments.services import Conflict, NotAllowed, ValidationFailed, game_confirm, hand_submit
from tournaments.services.leagues import (
    check_game,
    check_match,
    fixture_create,
    league_standings,
    league_statistics,
    lineup_set,
    match_day_create,
    match_result_confirm,
    match_totals_enter,
    max_event_points,
    paper_game_confirm,
    paper_game_enter,
    team_captains_set,
)

pytestmark = pytest.mark.django_db

RULES = RuleSet.from_spec("trinidad-tournament")  # target 14; a jack kicked scores 3, a hang jack 3, Game 2


# ---- plausibility ------------------------------------------------------------------------------------------
def test_one_scoring_event_brings_at_most_three_under_trinidad_tournament_rules():
    assert max_event_points(RULES) == 3


@pytest.mark.parametrize(("score", "hang_jacks", "kicks", "counts", "field", "words"), [
    ((13, 10), (0, 0), None, None, "score", "Nobody reached the target (14)"),
    ((14, 14), (0, 0), None, None, "score", "Both sides at 14 or more"),
    ((17, 3), (0, 0), None, None, "score", "a winner has at most 16"),
    ((14, 2), (0, 1), None, None, "hang_jacks", "hang jacks, kicks and Game counts alone score 3, more than its 2"),
    ((14, 5), (0, 1), (0, 1), (0, 1), "figures", "alone score 6, more than its 5"),
])
def test_a_game_from_paper_is_refused_when_the_rules_cannot_give_it(score, hang_jacks, kicks, counts, field, words):
    with pytest.raises(ValidationFailed) as refused:
        check_game(RULES, score, hang_jacks, kicks, counts)
    assert refused.value.code == "implausible_result"
    assert field in refused.value.fields
    assert words in refused.value.message


@pytest.mark.parametrize(("score", "winner"), [((14, 0), 0), ((16, 13), 0), ((9, 14), 1), ((15, 12), 0)])
def test_a_game_the_rules_allow_is_accepted(score, winner):
    assert check_game(RULES, score, (1, 0) if score[0] >= 14 else (0, 1)) == winner


RACE = TeamFormat.from_dict({"boards": 2, "kind": "first_to_total", "n": 5})
GAMES = TeamFormat.from_dict({"boards": 2, "kind": "games", "n": 1})


@pytest.mark.parametrize(("fmt", "games", "hang_jacks", "time_called", "words"), [
    (RACE, (6, 3), (0, 0), False, "6 games is past it"),
    (RACE, (5, 5), (0, 0), False, "Both teams at 5"),
    (RACE, (4, 3), (0, 0), False, "Nobody reached 5"),
    (RACE, (5, 3), (41, 0), False, "41 hang jacks in 8 games: a game holds at most 5"),
    (GAMES, (2, 1), (0, 0), False, "2 boards of 1 games play 2 games, not 3"),
    (GAMES, (1, 0), (0, 0), False, "fewer only when time is called"),
])
def test_match_totals_are_refused_when_the_format_cannot_give_them(fmt, games, hang_jacks, time_called, words):
    with pytest.raises(ValidationFailed) as refused:
        check_match(fmt, RULES, games, hang_jacks, time_called=time_called)
    assert refused.value.code == "implausible_result"
    assert words in refused.value.message


def test_match_totals_below_the_race_target_stand_when_time_was_called():
    assert check_match(RACE, RULES, (4, 3), (1, 2), time_called=True) == 0
    assert check_match(GAMES, RULES, (1, 0), (0, 0), time_called=True) == 0
    assert check_match(RACE, RULES, (2, 5), (35, 0)) == 1  # 7 games hold at most 5 each for one side


# ---- a fixture of two boards ---------------------------------------------------------------------------------
@pytest.fixture
def fixture():
    season, organiser = make_season(team_format={"boards": 2, "kind": "games", "n": 1})
    home = make_team(season, organiser, "Couva Kings", pairs=3)
    away = make_team(season, organiser, "Penal Jacks", pairs=3)
    match_day = match_day_create(tournament=season, user=organiser, date=day(1), venue="Couva")
    match = fixture_create(round=match_day, home=home, away=away, user=organiser)
    lineup_set(team_match=match, team=home, entries=list(home.roster.order_by("id"))[:2], user=organiser)
    lineup_set(team_match=match, team=away, entries=list(away.roster.order_by("id"))[:2], user=organiser)
    open_round(match_day)
    first, second = Board.objects.filter(team_match=match).order_by("slot")
    return {"season": season, "organiser": organiser, "home": home, "away": away, "match": match, "first": first,
            "second": second}


def test_half_from_tablets_half_from_paper_counts_each_figure_from_where_it_comes(fixture):
    f = fixture
    first = seat(f["first"])  # board 1: the home pair on side 0
    win_game(first, to=0, hands=2)  # 14-0 with two hang jacks, from the tablet
    game_confirm(game=Game.objects.get(board=first, number=1), party="organiser", user=f["organiser"])
    # board 2: the away pair on side 0; the chalk sheet says the home pair won 14-9 with a hang jack
    paper = paper_game_enter(board=f["second"], user=f["organiser"], score=[9, 14], hang_jacks=[0, 1])
    assert (paper.result_source, paper.confirmed, paper.entered_as, paper.winner) == ("paper_game", True, "organiser", 1)
    match = TeamMatch.objects.get(pk=f["match"].pk)
    assert (match.status, match.decided, match.winner, match.bullseyes_a, match.bullseyes_b) == ("played", True, 0, 2, 0)
    assert (match.hang_jacks_a, match.hang_jacks_b) == (3, 0)
    assert Board.objects.get(pk=f["second"].pk).result_source == "paper_game"
    assert Board.objects.get(pk=first.pk).result_source == "hands"

    table = league_standings(tournament=f["season"])
    rows = {r["team"]: r for r in table["rows"]}
    home, away = rows["Couva Kings"], rows["Penal Jacks"]
    assert (home["rank"], home["played"], home["wins"], home["bullseyes_won"], home["bullseyes_lost"]) == (1, 1, 1, 2, 0)
    assert (home["chalks_for"], home["chalks_against"], home["hang_jacks_for"], home["hang_jacks_against"]) == (28, 9, 3, 0)
    assert (away["chalks_for"], away["chalks_against"], away["losses"]) == (9, 28, 1)
    assert home["sources"] == {"hands": 1, "paper_game": 1}

    stats = {s["team"]: s for s in league_statistics(tournament=f["season"])}
    h, a = stats["Couva Kings"], stats["Penal Jacks"]
    # the hands and Game counts come from the tablet's game only; the paper game's sheet had no kicks or counts
    assert (h["games_from_hands"], h["games_from_paper"], h["hands"]) == (1, 1, 2)
    assert (h["game_counts"], h["game_counts_unknown_games"], h["kicks_unknown_games"]) == (2, 1, 1)
    assert (a["game_counts"], a["hands"], a["chalks_for"], a["chalks_over"]) == (0, 2, 9, 1)

    # game scores feed chalk tie-breaks: allowed here (set on the row: the match day is still in play, and
    # tie-breaks change between rounds only)
    Tournament.objects.filter(pk=f["season"].pk).update(tiebreaks=["chalk_difference"])
    assert [r["team"] for r in league_standings(tournament=f["season"])["rows"]] == ["Couva Kings", "Penal Jacks"]


def test_a_tablet_write_to_a_game_entered_on_paper_answers_409(fixture):
    board = fixture["second"]
    paper_game_enter(board=board, user=fixture["organiser"], score=[14, 3], hang_jacks=[1, 0])
    record = {"dealer": 0, "kicks": ["9H"], "beg": "stand", "high": {"side": 0, "card": "AH"},
              "low": {"side": 0, "card": "2H"}, "jack": None, "game": [40, 20]}
    with pytest.raises(Conflict) as refused:
        hand_submit(board=Board.objects.get(pk=board.pk), game_number=1, hand_number=1, record=record)
    assert refused.value.code == "game_on_paper"


def test_paper_sets_aside_an_empty_game_a_tablet_opened_and_is_refused_once_a_hand_is_in(fixture):
    first = seat(fixture["first"])  # seated: the tablet's game 1 is open, with no hand yet
    game = paper_game_enter(board=first, user=fixture["organiser"], score=[14, 10], hang_jacks=[0, 0])
    assert game.number == 1 and Game.objects.filter(board=first, status="voided").count() == 1
    second = seat(fixture["second"])
    submit(second, tally(0, 0))
    with pytest.raises(Conflict) as refused:
        paper_game_enter(board=second, user=fixture["organiser"], score=[14, 10], hang_jacks=[0, 0])
    assert refused.value.code == "game_in_play"


def test_a_captains_totals_wait_for_the_other_captain(fixture):
    f = fixture
    home_captain, away_captain, stranger = make_user(), make_user(), make_user()
    team_captains_set(team=f["home"], captains=[home_captain], user=f["organiser"])
    team_captains_set(team=f["away"], captains=[away_captain], user=f["organiser"])
    with pytest.raises(NotAllowed) as refused:
        match_totals_enter(team_match=f["match"], user=stranger, games=[2, 0], hang_jacks=[1, 0])
    assert refused.value.code == "not_captain"
    match = match_totals_enter(team_match=f["match"], user=home_captain, games=[2, 0], hang_jacks=[1, 0])
    assert (match.result_source, match.entered_as, match.confirmed, match.entered_by) == (
        "match_totals", "captain_a", False, home_captain)
    assert league_standings(tournament=f["season"])["rows"][0]["played"] == 0  # not counted yet
    with pytest.raises(NotAllowed) as refused:
        match_result_confirm(team_match=match, user=home_captain)
    assert refused.value.code == "not_other_captain"
    match = match_result_confirm(team_match=match, user=away_captain)
    assert (match.confirmed, match.confirmed_by) == (True, away_captain)
    rows = {r["team"]: r for r in league_standings(tournament=f["season"])["rows"]}
    assert (rows["Couva Kings"]["played"], rows["Couva Kings"]["wins"], rows["Couva Kings"]["chalks_for"]) == (1, 1, None)
    assert rows["Couva Kings"]["sources"] == {"match_totals": 1}
    with pytest.raises(Conflict) as refused:
        match_totals_enter(team_match=match, user=away_captain, games=[0, 2], hang_jacks=[0, 0])
    assert refused.value.code == "result_confirmed"
    # the organiser may correct it
    match = match_totals_enter(team_match=match, user=f["organiser"], games=[1, 1], hang_jacks=[0, 0])
    assert (match.confirmed, match.winner, match.entered_as) == (True, None, "organiser")


def test_a_captains_paper_game_waits_for_the_other_captain(fixture):
    f = fixture
    home_captain, away_captain = make_user(), make_user()
    team_captains_set(team=f["home"], captains=[home_captain], user=f["organiser"])
    team_captains_set(team=f["away"], captains=[away_captain], user=f["organiser"])
    for board, score in ((f["first"], [14, 6]), (f["second"], [14, 11])):
        game = paper_game_enter(board=board, user=home_captain, score=score, hang_jacks=[0, 0])
        assert (game.confirmed, game.entered_as) == (False, "captain_a")
    assert league_standings(tournament=f["season"])["rows"][0]["played"] == 0
    with pytest.raises(NotAllowed):
        paper_game_confirm(game=game, user=home_captain)
    match_result_confirm(team_match=f["match"], user=away_captain)
    rows = {r["team"]: r for r in league_standings(tournament=f["season"])["rows"]}
    # board 1: home 14-6; board 2: the away pair on side 0 won 14-11: one game each, a draw
    assert (rows["Couva Kings"]["draws"], rows["Couva Kings"]["chalks_for"], rows["Couva Kings"]["chalks_against"]) == (
        1, 25, 20)
    assert rows["Penal Jacks"]["sources"] == {"paper_game": 1}


def test_the_organiser_may_not_type_totals_over_games_already_recorded(fixture):
    paper_game_enter(board=fixture["first"], user=fixture["organiser"], score=[14, 6], hang_jacks=[0, 0])
    with pytest.raises(Conflict) as refused:
        match_totals_enter(team_match=fixture["match"], user=fixture["organiser"], games=[2, 0], hang_jacks=[0, 0])
    assert refused.value.code == "match_has_games"


def test_a_board_needs_no_game_past_its_match(fixture):
    paper_game_enter(board=fixture["first"], user=fixture["organiser"], score=[14, 6], hang_jacks=[0, 0])
    with pytest.raises(Conflict) as refused:
        paper_game_enter(board=fixture["first"], user=fixture["organiser"], score=[14, 6], hang_jacks=[0, 0])
    assert refused.value.code == "match_decided"
