"""The registry (tournaments/formats): one typed source of formats, tie-breaks and bye policies.

Also pins what the copies it replaced did: a board's and a team match's outcome, the bye's figures.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from tournaments import formats
from tournaments.formats import (
    BYE_PRESETS,
    DEFAULT_BYE_POLICY,
    DEFAULT_TIE_BREAKS,
    TIE_BREAKS,
    AwardPolicy,
    FormatError,
    MatchFormat,
    MatchKind,
    TeamFormat,
    TeamKind,
    match_outcome,
    race_target,
    team_match_decision,
)
from tournaments.ranking import (
    BoardResult,
    ByeRecord,
    RankingConfig,
    compute_standings,
    implemented_tie_breaks,
)
from tournaments.ranking import types as ranking_types


# ---- tie-breaks ------------------------------------------------------------------------------------------
def test_the_ranking_core_computes_exactly_the_registered_tie_breaks():
    assert implemented_tie_breaks() == frozenset(TIE_BREAKS.names())
    assert len(TIE_BREAKS.names()) == 12


def test_there_is_one_default_tie_break_order_and_the_ranking_core_uses_it():
    assert RankingConfig().tie_breaks == DEFAULT_TIE_BREAKS
    assert ranking_types.DEFAULT_TIE_BREAKS is DEFAULT_TIE_BREAKS
    from tournaments.models.events import default_tiebreaks

    assert tuple(default_tiebreaks()) == DEFAULT_TIE_BREAKS


def test_a_leagues_tie_break_order_parses():
    league = ["bullseyes_won", "bullseyes_lost", "wins", "hang_jacks_for", "hang_jacks_against"]
    assert TIE_BREAKS.parse(league) == tuple(league)


@pytest.mark.parametrize(
    ("value", "code", "path"),
    [
        ("wins", "not_a_list", "tiebreaks"),
        ([], "no_tie_breaks", "tiebreaks"),
        (["wins", "sonneborn_berger"], "unknown_tie_break", "tiebreaks[1]"),
        (["wins", "wins"], "repeated_tie_break", "tiebreaks[1]"),
        ([3], "unknown_tie_break", "tiebreaks[0]"),
    ],
)
def test_a_bad_tie_break_list_names_the_item_and_why(value, code, path):
    with pytest.raises(FormatError) as err:
        TIE_BREAKS.parse(value)
    assert (err.value.code, err.value.path) == (code, path)
    assert err.value.message


def test_every_tie_break_has_a_label_a_heading_and_a_sentence_for_players():
    for tb in TIE_BREAKS:
        assert tb.label and tb.short and tb.explanation.endswith(".")
    lower = {tb.name for tb in TIE_BREAKS if not tb.higher_is_better}
    assert lower == {"bullseyes_lost", "chalks_against", "hang_jacks_against"}


# ---- match formats ---------------------------------------------------------------------------------------
def test_match_formats_round_trip_and_say_what_they_are():
    for data in ({"kind": "first_to", "n": 2}, {"kind": "games", "n": 3}):
        fmt = MatchFormat.from_dict(data)
        assert fmt.to_dict() == data
        assert fmt.label and fmt.explanation
    assert MatchFormat.from_dict({"kind": "first_to", "n": 2}).label == "First to 2 games"
    race = MatchFormat.from_dict({"kind": "race", "n": 17}, chosen=False)
    assert race.kind is MatchKind.RACE
    extra = MatchFormat.from_dict({"kind": "games", "n": 3, "extra": True}, chosen=False)
    assert extra.to_dict() == {"kind": "games", "n": 3, "extra": True}


@pytest.mark.parametrize(
    ("data", "path"),
    [
        ({"kind": "race", "n": 2}, "match_format.kind"),
        ({"kind": "first_to", "n": 0}, "match_format.n"),
        ({"kind": "first_to", "n": 100}, "match_format.n"),
        ({"kind": "first_to", "n": True}, "match_format.n"),
        ({"kind": "first_to"}, "match_format.n"),
        ({"kind": "first_to", "n": 2, "x": 1}, "match_format.x"),
        ("first_to", "match_format"),
    ],
)
def test_a_bad_match_format_names_its_field(data, path):
    with pytest.raises(FormatError) as err:
        MatchFormat.from_dict(data)
    assert err.value.path == path


def test_team_formats_round_trip_and_give_their_boards_format():
    race = TeamFormat.from_dict({"boards": 12, "kind": "first_to_total", "n": 17})
    assert race.to_dict() == {"boards": 12, "kind": "first_to_total", "n": 17}
    assert race.board_format == MatchFormat(MatchKind.RACE, 17)
    fixed = TeamFormat.from_dict({"boards": 4, "kind": "games", "n": 2})
    assert fixed.board_format == MatchFormat(MatchKind.GAMES, 2)
    with pytest.raises(FormatError) as err:
        TeamFormat.from_dict({"boards": 0, "kind": "games", "n": 1})
    assert err.value.path == "team_format.boards"


def test_the_race_target_comes_from_the_events_setting():
    first_to = MatchFormat(MatchKind.FIRST_TO, 2)
    assert race_target(first_to, None) == 2
    assert race_target(MatchFormat(MatchKind.GAMES, 3), None) is None
    assert race_target(first_to, TeamFormat(12, TeamKind.FIRST_TO_TOTAL, 17)) == 17
    assert race_target(first_to, TeamFormat(4, TeamKind.GAMES, 1)) is None


# ---- where a board stands --------------------------------------------------------------------------------
def test_first_to_two_is_decided_at_two_and_later_games_do_not_count():
    out = match_outcome(MatchFormat(MatchKind.FIRST_TO, 2), [0, 1, 0, 1])
    assert (out.decided, out.winner, out.counted) == (True, 0, 3)
    assert match_outcome(MatchFormat(MatchKind.FIRST_TO, 2), [0, 1]).needs_game


def test_time_called_on_a_level_board_is_a_draw_except_in_a_knockout():
    fmt = MatchFormat(MatchKind.FIRST_TO, 2)
    draw = match_outcome(fmt, [0, 1], time_called=True)
    assert draw.decided and draw.is_draw
    assert not match_outcome(fmt, [0, 1], time_called=True, knockout=True).decided
    ahead = match_outcome(fmt, [1], time_called=True)
    assert ahead.decided and ahead.winner == 1


def test_a_level_fixed_games_board_is_a_draw_but_a_knockout_plays_on():
    fmt = MatchFormat(MatchKind.GAMES, 2)
    assert match_outcome(fmt, [0, 1]).is_draw
    ko = match_outcome(fmt, [0, 1], knockout=True)
    assert not ko.decided and ko.needs_game
    assert match_outcome(fmt, [0, 1, 1], knockout=True).winner == 1


def test_a_race_board_plays_until_its_team_match_is_decided():
    fmt = MatchFormat(MatchKind.RACE, 17)
    assert match_outcome(fmt, [0, 0, 1]).needs_game
    done = match_outcome(fmt, [0, 0, 1], race_decided=True)
    assert done.decided and done.winner == 0


# ---- where a team match stands ---------------------------------------------------------------------------
def test_twelve_tables_totalled_go_to_the_club_with_more_bullseyes():
    fmt = TeamFormat(12, TeamKind.GAMES, 2)
    assert team_match_decision(fmt, (11, 13), boards_decided=True) == formats.TeamDecision(True, 1)
    assert not team_match_decision(fmt, (11, 13), boards_decided=False).decided
    assert team_match_decision(fmt, (11, 13), boards_decided=False, time_called=True).winner == 1


def test_level_team_totals_are_a_draw_or_in_a_knockout_one_more_game():
    fmt = TeamFormat(2, TeamKind.GAMES, 2)
    assert team_match_decision(fmt, (2, 2), boards_decided=True) == formats.TeamDecision(True, None)
    assert team_match_decision(fmt, (2, 2), boards_decided=True, knockout=True).needs_extra
    called = team_match_decision(fmt, (2, 2), boards_decided=True, knockout=True, time_called=True)
    assert not called.decided and not called.needs_extra


def test_a_race_to_seventeen_ends_when_one_club_gets_there():
    fmt = TeamFormat(4, TeamKind.FIRST_TO_TOTAL, 17)
    assert not team_match_decision(fmt, (16, 12), boards_decided=False).decided
    assert team_match_decision(fmt, (17, 12), boards_decided=False) == formats.TeamDecision(True, 0)
    assert team_match_decision(fmt, (3, 5), boards_decided=False, time_called=True).winner == 1
    assert team_match_decision(fmt, (0, 0), boards_decided=False, has_opponent=False).winner == 0


# ---- bye policies ----------------------------------------------------------------------------------------
def test_the_stored_bye_shape_before_the_registry_still_reads():
    assert AwardPolicy.from_dict({"result": "win", "score": "average"}) == DEFAULT_BYE_POLICY
    bare = AwardPolicy.from_dict({"result": "win", "score": "none"})
    assert bare == BYE_PRESETS["bare_win"].policy
    assert AwardPolicy.from_dict(None) == DEFAULT_BYE_POLICY


def test_bye_policies_round_trip_through_their_canonical_form():
    for preset in BYE_PRESETS.values():
        data = preset.policy.to_dict()
        assert AwardPolicy.from_dict(data) == preset.policy
        assert AwardPolicy.from_dict(preset.name) == preset.policy
        assert preset.policy.preset == preset.name
        assert preset.policy.describe() == preset.explanation
    custom = AwardPolicy.from_dict({"result": "draw", "chalks": {"for": {"source": "fixed", "value": 20}}})
    assert custom.preset is None
    assert "20" in custom.describe()


@pytest.mark.parametrize(
    ("data", "path"),
    [
        ({"result": "bonus"}, "bye_policy.result"),
        ({"bullseyes": {"for": {"source": "luck"}}}, "bye_policy.bullseyes.for.source"),
        ({"bullseyes": {"for": {"source": "fixed", "value": 1000}}}, "bye_policy.bullseyes.for.value"),
        ({"bullseyes": {"for": {"source": "zero", "value": 3}}}, "bye_policy.bullseyes.for.value"),
        ({"bullseyes": {"up": {"source": "zero"}}}, "bye_policy.bullseyes"),
        ({"colour": "red"}, "bye_policy.colour"),
        ("generous", "bye_policy"),
    ],
)
def test_a_bad_bye_policy_names_its_field(data, path):
    with pytest.raises(FormatError) as err:
        AwardPolicy.from_dict(data)
    assert err.value.path == path


def _bye_row(policy: AwardPolicy, race: int | None = None):
    # Round 1: 1 beat 2 by 2-1 (chalks 30-20, a hang jack), 3 sat out. Round 2: 3 beat 1 by 2-0.
    boards = [
        BoardResult(1, 1, 2, (2, 1), (30, 20), (1, 0), True),
        BoardResult(2, 3, 1, (2, 0), (28, 9), (0, 0), True),
    ]
    standings = compute_standings([1, 2, 3], boards, [ByeRecord(1, 3)],
                                  RankingConfig(bye=policy, race_target=race))
    return standings.row(3)


def test_the_default_bye_is_a_win_with_the_rounds_average_never_more_than_a_win():
    row = _bye_row(DEFAULT_BYE_POLICY)
    assert row.wins == 2 and row.match_points == 4
    assert row.bullseyes_won == 2 + Fraction(3, 2)
    assert row.bullseyes_lost == 0 + Fraction(3, 2)


def test_a_leagues_bye_scores_the_race_target_for_and_its_own_average_against():
    row = _bye_row(BYE_PRESETS["league"].policy, race=17)
    assert row.bullseyes_won == 2 + 17  # the race target, from the event's setting
    assert row.bullseyes_lost == 0 + 0  # its own average against: 0 over its one played match
    assert row.chalks_for == 28 and row.hang_jacks_for == 0


def test_an_own_average_may_be_rounded_down_and_a_fixed_figure_is_that_figure():
    policy = AwardPolicy.from_dict({"bullseyes": {"for": {"source": "own_average", "rounding": "floor"},
                                                  "against": {"source": "fixed", "value": 5}}})
    boards = [BoardResult(1, 3, 1, (2, 0), decided=True), BoardResult(2, 3, 2, (1, 2), decided=True)]
    row = compute_standings([1, 2, 3], boards, [ByeRecord(3, 3)], RankingConfig(bye=policy)).row(3)
    assert row.bullseyes_won == 3 + 1  # 3 won in 2 matches: 1.5 rounded down
    assert row.bullseyes_lost == 2 + 5


def test_a_policy_that_awards_the_race_target_needs_an_event_with_one():
    with pytest.raises(ValueError, match="race target"):
        RankingConfig(bye=BYE_PRESETS["league"].policy, race_target=None)
