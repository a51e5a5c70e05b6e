"""Issue 13, forfeits in the pure cores (no database): what a forfeit scores in the standings, what the
forfeit policy of the registry accepts, and the games a forfeit awards under each match format.

docs/adr/0012-result-source.md: a forfeit is a win for the side present whatever the figures, both absent
is two losses, a forfeit is a result and not a meeting (no Buchholz opponent, no head-to-head), and when no
game was kept (``BoardResult.awarded``) the forfeit policy credits the winner (by default the round's
average chalks over the boards decided by play, capped at the average winner's) and charges the side that
forfeited the mirror image.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.formats import (
    BYE_PRESETS,
    DEFAULT_FORFEIT_POLICY,
    FORFEIT_PRESETS,
    AwardPolicy,
    FormatError,
    MatchFormat,
    MatchKind,
    Result,
    Source,
    SourceKind,
    describe_forfeit,
    forfeit_games,
    forfeit_policy,
)
from tournaments.formats.catalogue import catalogue
from tournaments.ranking import BoardResult, ByeRecord, RankingConfig, RankingError, compute_standings

A_ABSENT, B_ABSENT, BOTH = 0, 1, 2


def played(r: int, a: int, b: int, bulls=(2, 0), chalks=(28, 10), hang=(1, 0)) -> BoardResult:
    """A board decided by play."""
    return BoardResult(r, a, b, bulls, chalks, hang, decided=True)


def forfeit(r: int, a: int, b: int, absent: int, *, bulls=None, chalks=(0, 0), hang=(0, 0),
            awarded: bool = True) -> BoardResult:
    """A forfeited board as the service stores it: by default before any game, the first-to-2 games to
    nil on the side present (none when both are absent)."""
    if bulls is None:
        bulls = {A_ABSENT: (0, 2), B_ABSENT: (2, 0), BOTH: (0, 0)}[absent]
    return BoardResult(r, a, b, bulls, chalks, hang, decided=True, forfeited=absent, awarded=awarded)


# ---- results ----------------------------------------------------------------------------------------------
def test_a_forfeit_is_a_win_for_the_side_present_whatever_the_figures_say():
    # The figures favour pair 1 (it won the only game kept), but pair 1 forfeited: pair 2 wins.
    board = forfeit(1, 1, 2, A_ABSENT, bulls=(1, 0), chalks=(14, 3), awarded=False)
    assert board.winner == 1
    s = compute_standings([1, 2], [board], config=RankingConfig(points=(3, 1, 0)))
    one, two = s.row(1), s.row(2)
    assert (two.wins, two.losses, two.draws, two.match_points, two.played) == (1, 0, 0, 3, 1)
    assert (one.wins, one.losses, one.draws, one.match_points, one.played) == (0, 1, 0, 0, 1)
    assert (two.forfeits_won, two.forfeits_lost, one.forfeits_won, one.forfeits_lost) == (1, 0, 0, 1)
    assert s.ranked_ids() == (2, 1)
    assert two.record == "1-0" and one.record == "0-1"
    # The kept figures still count as they are (the game pair 1 won is pair 1's bullseye).
    assert (one.bullseyes_won, one.chalks_for, two.chalks_for) == (1, 14, 3)


def test_pair_b_forfeiting_gives_pair_a_the_win():
    board = forfeit(1, 1, 2, B_ABSENT)
    assert board.winner == 0
    s = compute_standings([1, 2], [board])
    assert (s.row(1).match_points, s.row(2).match_points) == (2, 0)
    assert (s.row(1).forfeits_won, s.row(2).forfeits_lost) == (1, 1)


def test_both_pairs_absent_is_two_losses_not_a_draw():
    board = forfeit(1, 1, 2, BOTH)
    assert board.winner is None
    # Points for a loss are not zero here, so a draw (2) could not pass for two losses (1 each).
    s = compute_standings([1, 2], [board], config=RankingConfig(points=(3, 2, 1)))
    for entrant in (1, 2):
        row = s.row(entrant)
        assert (row.wins, row.draws, row.losses, row.match_points, row.played) == (0, 0, 1, 1, 1)
        assert (row.forfeits_won, row.forfeits_lost) == (0, 1)
        assert row.record == "0-1"
        assert (row.chalks_for, row.chalks_against, row.bullseyes_won) == (0, 0, 0)


def test_an_undecided_forfeit_gives_nothing_yet():
    board = BoardResult(1, 1, 2, (0, 2), decided=False, forfeited=A_ABSENT, awarded=True)
    s = compute_standings([1, 2], [board])
    assert [(r.played, r.match_points, r.forfeits_won, r.forfeits_lost) for r in s.rows] == [(0, 0, 0, 0)] * 2


# ---- a result, not a meeting ----------------------------------------------------------------------------
def _four_pairs(first: BoardResult) -> list[BoardResult]:
    # Round 1: pair 1 v pair 2 (``first``), 3 beats 4. Round 2: 1 beats 3, 2 beats 4.
    return [first, played(1, 3, 4), played(2, 1, 3), played(2, 2, 4)]


def test_a_forfeit_gives_no_buchholz_opponent():
    s = compute_standings([1, 2, 3, 4], _four_pairs(forfeit(1, 1, 2, A_ABSENT)))
    points = {r.entrant_id: r.match_points for r in s.rows}
    assert points == {1: 2, 2: 4, 3: 2, 4: 0}
    # Pair 2's only opponent is pair 4; pair 1's only opponent is pair 3.
    assert s.row(2).buchholz == points[4] == 0
    assert s.row(1).buchholz == points[3] == 2
    assert s.row(3).buchholz == points[4] + points[1]
    assert s.row(4).buchholz == points[3] + points[2]
    # The same board played (pair 2 winning it) makes them opponents.
    real = compute_standings([1, 2, 3, 4], _four_pairs(played(1, 1, 2, bulls=(0, 2))))
    assert real.row(2).buchholz == 2 and real.row(1).buchholz == 6


def test_a_forfeit_is_not_a_head_to_head_meeting():
    # Pairs 1 and 2 end level on match points; their only board was forfeited by pair 1.
    boards = [forfeit(1, 1, 2, A_ABSENT), played(2, 1, 3)]
    config = RankingConfig(tie_breaks=("match_points", "head_to_head"))
    s = compute_standings([1, 2, 3], boards, config=config)
    assert s.row(1).match_points == s.row(2).match_points == 2
    assert s.row(1).rank == s.row(2).rank == 1 and s.row(1).tied and s.row(2).tied
    assert s.row(1).head_to_head is None and s.row(2).head_to_head is None
    # Played, the same board splits them by head to head.
    real = compute_standings([1, 2, 3], [played(1, 1, 2, bulls=(0, 2)), played(2, 1, 3)], config=config)
    assert real.ranked_ids()[:2] == (2, 1) and real.row(2).head_to_head == 2 and real.row(1).head_to_head == 0


# ---- awarded figures ------------------------------------------------------------------------------------
def test_the_default_policy_credits_the_rounds_average_chalks_and_charges_the_forfeiter_the_same():
    boards = [
        played(1, 3, 4, bulls=(2, 1), chalks=(38, 30), hang=(2, 1)),
        played(1, 5, 6, bulls=(2, 0), chalks=(28, 10), hang=(1, 0)),
        forfeit(1, 1, 2, B_ABSENT),
    ]
    s = compute_standings([1, 2, 3, 4, 5, 6], boards)
    average = Fraction(38 + 30 + 28 + 10, 4)  # per pair over the boards decided by play
    assert average == Fraction(53, 2) and average < Fraction(38 + 28, 2)  # under the average winner's
    winner, loser = s.row(1), s.row(2)
    assert (winner.chalks_for, winner.chalks_against) == (average, 0)
    assert (loser.chalks_for, loser.chalks_against) == (0, average)
    # No hang jacks, and the bullseyes are the board's games to nil, nothing more.
    assert (winner.hang_jacks_for, winner.hang_jacks_against, loser.hang_jacks_for, loser.hang_jacks_against) == (0,) * 4
    assert (winner.bullseyes_won, winner.bullseyes_lost, loser.bullseyes_won, loser.bullseyes_lost) == (2, 0, 0, 2)
    assert winner.as_dict()["chalks_for"] == 26.5 and loser.as_dict()["chalks_against"] == 26.5


def test_the_awarded_chalks_are_capped_at_what_the_average_winner_scored():
    # The losers scored more chalks than the winners: the average pair's 35 would beat a real win.
    boards = [played(1, 3, 4, bulls=(2, 1), chalks=(30, 40)), forfeit(1, 1, 2, A_ABSENT)]
    s = compute_standings([1, 2, 3, 4], boards)
    assert s.row(2).chalks_for == 30 and s.row(1).chalks_against == 30


def test_the_average_is_taken_over_boards_decided_by_play_only():
    boards = [
        played(1, 3, 4, bulls=(2, 0), chalks=(28, 10)),
        # A forfeit that kept a game (its figures are real but not decided by play) and an undecided board.
        forfeit(1, 5, 6, A_ABSENT, bulls=(1, 2), chalks=(90, 70), awarded=False),
        BoardResult(1, 7, 8, (1, 0), (14, 2), decided=False),
        forfeit(1, 1, 2, B_ABSENT),
    ]
    s = compute_standings(list(range(1, 9)), boards)
    assert s.row(1).chalks_for == Fraction(28 + 10, 2) and s.row(2).chalks_against == 19
    # Only the kept forfeit's own figures: no policy figures on top.
    assert (s.row(6).chalks_for, s.row(6).chalks_against) == (70, 90)


def test_a_round_of_forfeits_only_awards_nothing_under_the_average():
    s = compute_standings([1, 2, 3, 4], [forfeit(1, 1, 2, B_ABSENT), forfeit(1, 3, 4, A_ABSENT)])
    assert [(r.chalks_for, r.chalks_against, r.match_points) for r in s.rows] == [(0, 0, 2), (0, 0, 2), (0, 0, 0), (0, 0, 0)]


def test_the_bare_win_preset_adds_no_chalks_or_hang_jacks():
    boards = [played(1, 3, 4), forfeit(1, 1, 2, B_ABSENT)]
    config = RankingConfig(forfeit=forfeit_policy("bare_win"))
    s = compute_standings([1, 2, 3, 4], boards, config=config)
    winner, loser = s.row(1), s.row(2)
    assert (winner.chalks_for, winner.chalks_against, winner.hang_jacks_for) == (0, 0, 0)
    assert (loser.chalks_for, loser.chalks_against, loser.hang_jacks_against) == (0, 0, 0)
    assert (winner.match_points, winner.bullseyes_won, loser.bullseyes_lost) == (2, 2, 2)


def test_a_fixed_source_is_credited_and_mirrored():
    policy = forfeit_policy({
        "chalks": {"for": {"source": "fixed", "value": 20}, "against": {"source": "fixed", "value": 5}},
        "hang_jacks": {"for": {"source": "fixed", "value": 1}},
    })
    s = compute_standings([1, 2, 3, 4], [played(1, 3, 4), forfeit(1, 1, 2, A_ABSENT)],
                          config=RankingConfig(forfeit=policy))
    winner, loser = s.row(2), s.row(1)
    assert (winner.chalks_for, winner.chalks_against, winner.hang_jacks_for, winner.hang_jacks_against) == (20, 5, 1, 0)
    assert (loser.chalks_for, loser.chalks_against, loser.hang_jacks_for, loser.hang_jacks_against) == (5, 20, 0, 1)


def test_a_forfeit_that_kept_games_keeps_its_figures_and_is_awarded_nothing():
    # Pair 1 won game 1 (14-6, one hang jack), then withdrew: pair 2 is awarded the two games it needed.
    board = forfeit(1, 1, 2, A_ABSENT, bulls=(1, 2), chalks=(14, 6), hang=(1, 0), awarded=False)
    generous = forfeit_policy({"chalks": {"for": {"source": "fixed", "value": 50}}})
    s = compute_standings([1, 2, 3, 4], [board, played(1, 3, 4)], config=RankingConfig(forfeit=generous))
    one, two = s.row(1), s.row(2)
    assert (two.wins, two.bullseyes_won, two.bullseyes_lost, two.chalks_for, two.chalks_against) == (1, 2, 1, 6, 14)
    assert (one.losses, one.bullseyes_won, one.chalks_for, one.hang_jacks_for) == (1, 1, 14, 1)
    assert (two.forfeits_won, one.forfeits_lost) == (1, 1)


def test_both_absent_awards_no_figures_even_under_a_fixed_policy():
    policy = forfeit_policy({"chalks": {"for": {"source": "fixed", "value": 20}}})
    s = compute_standings([1, 2], [forfeit(1, 1, 2, BOTH)], config=RankingConfig(forfeit=policy))
    assert [(r.chalks_for, r.chalks_against) for r in s.rows] == [(0, 0), (0, 0)]


def test_forfeit_boards_leave_the_round_average_of_a_bye_alone():
    base = [played(1, 3, 4, bulls=(2, 1), chalks=(30, 22), hang=(1, 2))]
    bye = [ByeRecord(1, 5)]
    without = compute_standings([1, 2, 3, 4, 5], base, bye).row(5)
    extra = [forfeit(1, 1, 2, B_ABSENT),
             forfeit(1, 6, 7, A_ABSENT, bulls=(1, 2), chalks=(70, 80), hang=(5, 5), awarded=False)]
    with_forfeits = compute_standings([1, 2, 3, 4, 5, 6, 7], base + extra, bye).row(5)
    figures = ("bullseyes_won", "bullseyes_lost", "chalks_for", "chalks_against", "hang_jacks_for", "hang_jacks_against")
    assert [getattr(with_forfeits, f) for f in figures] == [getattr(without, f) for f in figures]
    assert without.chalks_for == 26 and without.bullseyes_won == Fraction(3, 2)


def test_forfeits_won_and_lost_are_counted_over_rounds_and_reported():
    boards = [
        forfeit(1, 1, 2, B_ABSENT), played(1, 3, 4),
        forfeit(2, 1, 3, A_ABSENT), forfeit(2, 2, 4, BOTH),
        played(3, 1, 4), forfeit(3, 2, 3, A_ABSENT),
    ]
    s = compute_standings([1, 2, 3, 4], boards)
    counts = {r.entrant_id: (r.forfeits_won, r.forfeits_lost, r.played, r.wins, r.losses) for r in s.rows}
    assert counts == {1: (1, 1, 3, 2, 1), 2: (0, 3, 3, 0, 3), 3: (2, 0, 3, 3, 0), 4: (0, 1, 3, 0, 3)}
    row = s.row(3).as_dict()
    assert (row["forfeits_won"], row["forfeits_lost"]) == (2, 0)
    # Pair 3's only opponent (its other boards were forfeits) is pair 4.
    assert s.row(3).buchholz == s.row(4).match_points


def test_a_byes_own_average_is_taken_over_play_alone_not_over_forfeited_games():
    """The league bye preset charges the entrant's own average bullseyes against, "over the matches it
    played" (docs/decisions.md). Pair 3 forfeited round 1 (the board shows 0-2 against it) and lost
    round 2 at the table 1-2; its bye in round 3 should charge an average of 2 games against, whether
    the forfeit counts as a match (4 games over 2) or not (2 over 1)."""
    boards = [forfeit(1, 3, 4, A_ABSENT), played(1, 1, 2),
              played(2, 1, 3, bulls=(2, 1), chalks=(28, 20)), played(2, 2, 4)]
    config = RankingConfig(bye=BYE_PRESETS["league"].policy, race_target=2)
    s = compute_standings([1, 2, 3, 4], boards, [ByeRecord(3, 3)], config)
    row = s.row(3)
    assert row.bullseyes_won == 1 + 2  # its game at the table and the race target of the bye
    assert row.bullseyes_lost == 2 + 2 + 2, "the forfeit's awarded games are averaged over boards played only"


# ---- a property -------------------------------------------------------------------------------------------
@st.composite
def events(draw) -> tuple[list[int], list[BoardResult], list[ByeRecord]]:
    n = draw(st.integers(2, 8))
    ids = list(range(1, n + 1))
    boards: list[BoardResult] = []
    byes: list[ByeRecord] = []
    for r in range(1, draw(st.integers(1, 4)) + 1):
        order = draw(st.permutations(ids))
        if n % 2:
            byes.append(ByeRecord(r, order[-1]))
        for i in range(0, n - 1, 2):
            a, b = order[i], order[i + 1]
            kind = draw(st.sampled_from(["played", "played", "a", "b", "both"]))
            bulls = (draw(st.integers(0, 3)), draw(st.integers(0, 3)))
            chalks = (draw(st.integers(0, 60)), draw(st.integers(0, 60)))
            hang = (draw(st.integers(0, 3)), draw(st.integers(0, 3)))
            decided = draw(st.booleans()) or kind != "played"
            if kind == "played":
                boards.append(BoardResult(r, a, b, bulls, chalks, hang, decided=decided))
            else:
                absent = {"a": A_ABSENT, "b": B_ABSENT, "both": BOTH}[kind]
                boards.append(BoardResult(r, a, b, bulls, chalks, hang, decided=True, forfeited=absent,
                                          awarded=draw(st.booleans())))
    return ids, boards, byes


def _given_points(board: BoardResult, points: Sequence[int]) -> int:
    win, draw_, loss = points
    if board.forfeited == BOTH:
        return 2 * loss
    if board.forfeited is not None or board.bullseyes[0] != board.bullseyes[1]:
        return win + loss
    return 2 * draw_


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(event=events(), points=st.sampled_from([(2, 1, 0), (3, 1, 0), (3, 2, 1)]),
       policy=st.sampled_from(["round_average", "bare_win"]))
def test_match_points_add_up_with_forfeits(event, points, policy):
    ids, boards, byes = event
    config = RankingConfig(points=points, forfeit=forfeit_policy(policy))
    s = compute_standings(ids, boards, byes, config)
    decided = [b for b in boards if b.decided]
    assert sum(r.match_points for r in s.rows) == sum(_given_points(b, points) for b in decided) + points[0] * len(byes)
    single = [b for b in decided if b.forfeited in (A_ABSENT, B_ABSENT)]
    both = [b for b in decided if b.forfeited == BOTH]
    assert sum(r.forfeits_won for r in s.rows) == len(single)
    assert sum(r.forfeits_lost for r in s.rows) == len(single) + 2 * len(both)
    for row in s.rows:
        assert row.wins + row.draws + row.losses == row.played + row.byes
        assert row.forfeits_won <= row.wins and row.forfeits_lost <= row.losses
    # Buchholz: the match points of the opponents met on boards decided by play (a forfeit is none).
    for row in s.rows:
        assert row.buchholz == sum(s.row(o).match_points for o in _opponents(row.entrant_id, boards))
    if not byes:  # what the policy credits a winner is charged, mirrored, to the pair that forfeited
        for won, lost in (("bullseyes_won", "bullseyes_lost"), ("chalks_for", "chalks_against"),
                          ("hang_jacks_for", "hang_jacks_against")):
            assert sum(getattr(r, won) for r in s.rows) == sum(getattr(r, lost) for r in s.rows)


def _opponents(entrant: int, boards: Sequence[BoardResult]) -> list[int]:
    return [b.side1 if b.side0 == entrant else b.side0 for b in boards
            if b.decided and b.forfeited is None and entrant in (b.side0, b.side1)]


# ---- the forfeit policy in the registry --------------------------------------------------------------------
def test_the_default_forfeit_policy_is_a_win_with_the_rounds_average_chalks_only():
    policy = forfeit_policy(None)
    assert policy == DEFAULT_FORFEIT_POLICY == FORFEIT_PRESETS["round_average"].policy
    assert policy.result is Result.WIN
    kinds = {key: source.kind for key, source in policy.sources.items()}
    assert kinds == {
        ("bullseyes", "for"): SourceKind.ZERO, ("bullseyes", "against"): SourceKind.ZERO,
        ("chalks", "for"): SourceKind.ROUND_AVERAGE, ("chalks", "against"): SourceKind.ZERO,
        ("hang_jacks", "for"): SourceKind.ZERO, ("hang_jacks", "against"): SourceKind.ZERO,
    }
    assert describe_forfeit(policy) == FORFEIT_PRESETS["round_average"].explanation


@pytest.mark.parametrize("result", ["draw", "loss"])
def test_a_forfeit_policy_is_always_a_win(result):
    with pytest.raises(FormatError) as exc:
        forfeit_policy({"result": result})
    assert exc.value.code == "bad_result" and exc.value.path == "forfeit_policy.result"
    with pytest.raises(FormatError):
        forfeit_policy({"preset": "bare_win", "result": result}, path="settings.forfeit_policy")


@pytest.mark.parametrize("sides", [
    {"for": {"source": "round_average"}},
    {"for": {"source": "fixed", "value": 2}, "against": {"source": "zero"}},
    {"for": {"source": "zero"}, "against": {"source": "own_average"}},
    {"for": {"source": "race_target"}, "against": {"source": "zero"}},
])
def test_a_forfeit_policy_refuses_bullseye_sources(sides):
    with pytest.raises(FormatError) as exc:
        forfeit_policy({"bullseyes": sides})
    assert exc.value.code == "unknown_field" and exc.value.path == "forfeit_policy.bullseyes"


def test_a_forfeit_policy_refuses_the_legacy_score_field_and_bye_presets():
    with pytest.raises(FormatError) as exc:
        forfeit_policy({"score": "average"})
    assert exc.value.code == "unknown_field"
    for data in ("league", {"preset": "league"}, "nothing"):
        with pytest.raises(FormatError) as exc:
            forfeit_policy(data)
        assert exc.value.code == "unknown_preset"
    with pytest.raises(FormatError):
        forfeit_policy(["round_average"])


def test_a_forfeit_policy_reads_its_own_stored_form_back():
    custom = forfeit_policy({"chalks": {"for": {"source": "fixed", "value": 21}},
                             "hang_jacks": {"for": {"source": "own_average", "rounding": "floor"}}})
    assert custom.source("chalks", "for") == Source(SourceKind.FIXED, 21)
    assert custom.source("chalks", "against").kind is SourceKind.ZERO  # from the default preset
    assert custom.preset_in(FORFEIT_PRESETS) is None and "21" in describe_forfeit(custom)
    for policy in [*(p.policy for p in FORFEIT_PRESETS.values()), custom]:
        stored = policy.to_dict()
        assert stored["bullseyes"] == {"for": {"source": "zero"}, "against": {"source": "zero"}}
        assert forfeit_policy(stored) == policy
    for name, preset in FORFEIT_PRESETS.items():
        assert forfeit_policy(name) == preset.policy
        assert forfeit_policy({"preset": name}) == preset.policy
        assert preset.policy.preset_in(FORFEIT_PRESETS) == name


def test_the_catalogue_lists_the_forfeit_presets_and_the_default():
    listed = catalogue()
    presets = listed["forfeit_presets"]
    assert [p["name"] for p in presets] == list(FORFEIT_PRESETS) == ["round_average", "bare_win"]
    for p in presets:
        assert p["label"] and p["explanation"]
        assert forfeit_policy(p["policy"]) == FORFEIT_PRESETS[p["name"]].policy
    assert listed["defaults"]["forfeit_policy"] == "round_average"


def test_a_forfeit_policy_awarding_the_race_target_needs_one():
    policy = AwardPolicy(Result.WIN, {**DEFAULT_FORFEIT_POLICY.sources,
                                      ("chalks", "for"): Source(SourceKind.RACE_TARGET)})
    with pytest.raises(RankingError) as exc:
        RankingConfig(forfeit=policy)
    assert exc.value.code == "no_race_target"
    assert RankingConfig(forfeit=policy, race_target=2).forfeit is policy


# ---- the games a forfeit awards -----------------------------------------------------------------------------
@pytest.mark.parametrize(("kind", "n", "won", "played_games", "awarded"), [
    (MatchKind.FIRST_TO, 2, 0, 0, 2),   # before any game: the match's games to nil
    (MatchKind.FIRST_TO, 2, 1, 1, 1),   # 1-0 up: the one game still needed
    (MatchKind.FIRST_TO, 2, 0, 1, 2),   # 0-1 down: both games still needed
    (MatchKind.FIRST_TO, 3, 1, 3, 2),
    (MatchKind.FIRST_TO, 2, 2, 2, 0),
    (MatchKind.GAMES, 3, 0, 0, 3),      # N games: the games not yet played
    (MatchKind.GAMES, 3, 1, 2, 1),
    (MatchKind.GAMES, 3, 0, 3, 0),
    (MatchKind.RACE, 0, 1, 1, 0),       # a team race's board: the clubs race on their other boards
])
def test_forfeit_games_by_match_format(kind, n, won, played_games, awarded):
    assert forfeit_games(MatchFormat(kind, n), won, played_games) == awarded
