"""Issue 13, the Swiss that steers: the look-ahead (``swiss_lookahead``) and the float rule.

Small Swiss fields (5-8 pairs over 5-6 rounds) used to draft a rematch-free round after which no
rematch-free finish existed; the look-ahead proposes the best draft that keeps one. The traps are
found by a seeded search here, the proposal is checked against a brute force that shares no code with
the pairing package, and the events are played on to the end with the proposed drafts. The float rule
(an entrant that floated last round is kept in its score group when a draft as good on every higher
tier allows) is checked by hand, against a brute force, and on 400-pair events.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tournaments.tourney_gen import random_board, random_field, random_history, ranked_field
from tournaments.pairing import (
    ClubAvoidance,
    DraftFigures,
    DraftRound,
    Entrant,
    FloatDirection,
    GroupPairing,
    History,
    LookAhead,
    LookAheadStatus,
    Outlook,
    PastBoard,
    PastBye,
    PastFloat,
    SwissConfig,
    draft_figures,
    pair_swiss,
    rematch_outlook,
    round_floats,
    swap_entrants,
    swiss_graph,
    swiss_lookahead,
)
from tournaments.pairing import swiss as swiss_module
from tournaments.ranking import BoardResult, ByeRecord

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CONFIGS = [
    SwissConfig(),
    SwissConfig(club_avoidance=ClubAvoidance.STRONG),
    SwissConfig(club_avoidance=ClubAvoidance.OFF, group_pairing=GroupPairing.ADJACENT),
]


# --- playing events -------------------------------------------------------------------------------


@dataclass
class Event:
    """A Swiss played round by round with random results; ``history`` records floats too."""

    field: list[Entrant]
    rounds: int
    rng: random.Random
    config: SwissConfig = SwissConfig()
    results: list[BoardResult] = field(default_factory=list)
    byes: list[ByeRecord] = field(default_factory=list)
    history: History = field(default_factory=History)
    played: int = 0
    rematch_rounds: int = 0

    def ranked(self) -> list[Entrant]:
        return ranked_field(self)  # type: ignore[arg-type]  # duck-typed: field, results, byes

    def play(self, draft: DraftRound, ranked: Sequence[Entrant]) -> None:
        r = draft.round_number
        self.rematch_rounds += draft.cost.rematches > 0
        for board in draft.boards:
            self.results.append(random_board(self.rng, r, board.side0, board.side1))
        if draft.bye:
            self.byes.append(ByeRecord(r, draft.bye.entrant))
        self.history = self.history.extended(*draft.as_past(), round_floats(draft, ranked))
        self.played = r

    def copy(self, seed: int) -> Event:
        return replace(self, results=list(self.results), byes=list(self.byes), rng=random.Random(seed))


def small_event(seed: int, clubs: int = 3, config: SwissConfig = CONFIGS[0]) -> Event:
    """5-8 pairs over 5-6 rounds, never more rounds than a rematch-free event can have (n - 1 for an
    even field, n for an odd one, the bye counting as an opponent)."""
    rng = random.Random(seed)
    n = rng.randint(5, 8)
    rounds = min(rng.randint(5, 6), n - 1 + n % 2)
    return Event(random_field(rng, n, clubs), rounds, rng, config)


@dataclass(frozen=True)
class Steered:
    ranked: list[Entrant]
    history: History
    answer: LookAhead


def steer_to_the_end(event: Event) -> list[Steered]:
    """Play the rest of ``event``, each round with the look-ahead's proposal when it makes one."""
    rounds = []
    for r in range(event.played + 1, event.rounds + 1):
        ranked = event.ranked()
        answer = swiss_lookahead(ranked, event.history, r, event.rounds - r, event.config)
        rounds.append(Steered(ranked, event.history, answer))
        event.play(answer.chosen, ranked)
    return rounds


@dataclass(frozen=True)
class Trap:
    seed: int
    event: Event
    ranked: list[Entrant]
    round_number: int


def find_traps(count: int, seeds: range = range(400)) -> list[Trap]:
    """Seeded search: events paired by ``pair_swiss`` alone, stopped at a round whose best draft is
    rematch-free and leaves no rematch-free finish although one existed before it."""
    traps: list[Trap] = []
    for seed in seeds:
        event = small_event(seed)
        for r in range(1, event.rounds + 1):
            ranked = event.ranked()
            ids = [e.id for e in ranked]
            draft = pair_swiss(ranked, event.history, round_number=r, config=event.config)
            left = event.rounds - r
            if draft.cost.rematches == 0 and left:
                before = rematch_outlook(ids, event.history, left + 1).status
                after = rematch_outlook(ids, event.history.extended(*draft.as_past()), left).status
                if before in (Outlook.POSSIBLE, Outlook.GUARANTEED) and after is Outlook.IMPOSSIBLE:
                    traps.append(Trap(seed, event.copy(seed), ranked, r))
                    break
            event.play(draft, ranked)
        if len(traps) == count:
            break
    return traps


@cache
def _traps() -> tuple[Trap, ...]:
    return tuple(find_traps(8))


# --- brute force, sharing no code with tournaments.pairing ------------------------------------


def _matchings(vertices: tuple[object, ...]) -> Iterator[list[tuple[object, object]]]:
    if not vertices:
        yield []
        return
    a, rest = vertices[0], vertices[1:]
    for k, b in enumerate(rest):
        for m in _matchings(rest[:k] + rest[k + 1 :]):
            yield [(a, b), *m]


def _rounds_exist(ids: Sequence[int], met: set[frozenset[object]], had_bye: set[int], rounds: int) -> bool:
    """``rounds`` more rounds in which nobody meets anyone twice and nobody gets a second bye."""
    vertices: tuple[object, ...] = (*ids, "bye") if len(ids) % 2 else tuple(ids)
    allowed = frozenset(
        frozenset((a, b))
        for i, a in enumerate(vertices)
        for b in vertices[i + 1 :]
        if frozenset((a, b)) not in met and not (b == "bye" and a in had_bye)
    )

    @cache
    def go(edges: frozenset[frozenset[object]], k: int) -> bool:
        if k == 0:
            return True
        return any(
            go(edges - {frozenset(p) for p in m}, k - 1)
            for m in _matchings(vertices)
            if all(frozenset(p) in edges for p in m)
        )

    return go(allowed, rounds)


def _all_drafts(
    ranked: Sequence[Entrant], history: History, config: SwissConfig
) -> Iterator[tuple[tuple[int, ...], list[tuple[int, int]], int | None]]:
    """Every draft of the round with its key on the tiers above tidiness: (rematches, bye rank,
    [strong] club-mates, score spread, [prefer] club-mates, repeat floats)."""
    points = {e.id: e.points for e in ranked}
    club = {e.id: e.club_id for e in ranked}
    last = max([b.round_number for b in history.boards] + [f.round_number for f in history.floats], default=0)
    floated = {f.entrant for f in history.floats if f.round_number == last}
    byes = {e.id: sum(1 for b in history.byes if b.entrant == e.id) for e in ranked}
    takers: list[int | None] = [None]
    if len(ranked) % 2:
        least = min(byes.values())
        takers = [e.id for e in reversed(ranked) if byes[e.id] == least]  # lowest-ranked first
    for rank, taker in enumerate(takers):
        rest = tuple(e.id for e in ranked if e.id != taker)
        for m in _matchings(rest):
            pairs = [(int(a), int(b)) for a, b in m]  # type: ignore[call-overload]
            met = sum(sum(1 for x in history.boards if {x.side0, x.side1} == {a, b}) ** 2 for a, b in pairs)
            mates = sum(1 for a, b in pairs if club[a] is not None and club[a] == club[b])
            spread = sum((points[a] - points[b]) ** 2 for a, b in pairs)
            again = sum((a in floated) + (b in floated) for a, b in pairs if points[a] != points[b])
            strong = mates if config.club_avoidance is ClubAvoidance.STRONG else 0
            prefer = mates if config.club_avoidance is ClubAvoidance.PREFER else 0
            yield (met, rank if taker is not None else 0, strong, spread, prefer, again), pairs, taker


def rematch_free_history(rng: random.Random, ids: Sequence[int], rounds: int) -> History:
    """``rounds`` random rounds in which nobody meets twice and nobody has two byes (rounds that
    cannot be drawn so, after 50 tries each, are left out)."""
    history = History()
    for r in range(1, rounds + 1):
        for _ in range(50):
            order = list(ids)
            rng.shuffle(order)
            sitting = order.pop() if len(order) % 2 else None
            pairs = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
            if all(history.times_met(a, b) == 0 for a, b in pairs) and (
                sitting is None or history.bye_count(sitting) == 0
            ):
                byes = [PastBye(r, sitting)] if sitting is not None else []
                history = history.extended([PastBoard(r, a, b) for a, b in pairs], byes)
                break
    return history


def brute_force_best_with_finish(
    ranked: Sequence[Entrant], history: History, rounds_left: int, config: SwissConfig
) -> tuple[tuple[int, ...] | None, tuple[int, ...]]:
    """(the least key of a draft that leaves a rematch-free finish, None if none does, among the
    drafts with the fewest rematches; the least key of all drafts)."""
    ids = [e.id for e in ranked]
    met = {frozenset((b.side0, b.side1)) for b in history.boards}
    had_bye = {b.entrant for b in history.byes}
    drafts = sorted(_all_drafts(ranked, history, config), key=lambda d: d[0])
    overall = drafts[0][0]
    for key, pairs, taker in drafts:
        if key[0] > overall[0]:
            break
        after = met | {frozenset(p) for p in pairs}
        if taker is not None:
            after.add(frozenset((taker, "bye")))
        if _rounds_exist(ids, after, had_bye | ({taker} if taker is not None else set()), rounds_left):
            return key, overall
    return None, overall


def key_of(
    draft: DraftRound, ranked: Sequence[Entrant], history: History, config: SwissConfig
) -> tuple[int, ...]:
    wanted = {frozenset(b.entrants) for b in draft.boards}
    taker = draft.bye.entrant if draft.bye else None
    for key, pairs, t in _all_drafts(ranked, history, config):
        if t == taker and {frozenset(p) for p in pairs} == wanted:
            return key
    raise AssertionError("the draft is not a draft of this field")


# --- the look-ahead -------------------------------------------------------------------------------


def test_a_seeded_search_finds_events_that_todays_draft_traps():
    traps = _traps()
    assert len(traps) == 8, "about one small event in ten is trapped (issue 13)"
    assert {len(t.ranked) for t in traps} >= {5, 6}  # odd fields (a bye) and even ones
    for trap in traps:
        # Today's draft is followed by a rematch whatever happens: play on with pair_swiss alone.
        plain = trap.event.copy(trap.seed + 1000)
        draft = pair_swiss(trap.ranked, plain.history, round_number=trap.round_number)
        plain.play(draft, trap.ranked)
        for r in range(trap.round_number + 1, plain.rounds + 1):
            ranked = plain.ranked()
            plain.play(pair_swiss(ranked, plain.history, round_number=r), ranked)
        assert plain.rematch_rounds > 0, trap.seed


def test_the_proposal_keeps_each_trapped_event_rematch_free_to_the_end():
    for trap in _traps():
        event = trap.event.copy(trap.seed + 1000)
        answers = [s.answer for s in steer_to_the_end(event)]
        first = answers[0]
        assert first.status is LookAheadStatus.PROPOSED, (trap.seed, first.message)
        assert first.best == pair_swiss(trap.ranked, trap.event.history, round_number=trap.round_number)
        assert first.outlook is not None and first.outlook.status is Outlook.IMPOSSIBLE
        assert first.proposal is not None and first.proposal.cost.rematches == 0
        assert first.proposal_outlook is not None
        assert first.proposal_outlook.status in (Outlook.POSSIBLE, Outlook.GUARANTEED)
        assert first.proven_best and first.chosen is first.proposal
        assert first.message.startswith("The best draft leaves no rematch-free finish for the ")
        assert "; this one keeps one " in first.message
        assert event.rematch_rounds == 0, (trap.seed, [a.message for a in answers])


def test_the_proposal_is_the_best_draft_that_keeps_a_finish_by_brute_force():
    for trap in _traps():
        history, ranked, r = trap.event.history, trap.ranked, trap.round_number
        left = trap.event.rounds - r
        answer = swiss_lookahead(ranked, history, r, left)
        assert answer.proposal is not None
        best_key, overall = brute_force_best_with_finish(ranked, history, left, SwissConfig())
        assert best_key is not None
        assert key_of(answer.proposal, ranked, history, SwissConfig()) == best_key
        assert key_of(answer.best, ranked, history, SwissConfig()) == overall
        # The cost comparison, figure by figure, from the boards themselves.
        points = {e.id: e.points for e in ranked}
        spread = sum(abs(points[b.side0] - points[b.side1]) for b in answer.proposal.boards)
        best_spread = sum(abs(points[b.side0] - points[b.side1]) for b in answer.best.boards)
        assert answer.extra is not None and answer.extra.score_difference == spread - best_spread
        assert answer.proposal_figures == draft_figures(answer.proposal, ranked, history)


@FAST
@given(seed=st.integers(0, 10**6), config=st.sampled_from(CONFIGS), clubs=st.integers(0, 3))
def test_steered_small_events_never_need_a_rematch(seed, config, clubs):
    # A field of n pairs can always play n - 1 rematch-free rounds (n with a bye); the look-ahead,
    # applied every round, keeps every such event free of rematches to the end.
    event = small_event(seed, clubs, config)
    steered = steer_to_the_end(event)
    assert event.rematch_rounds == 0, [s.answer.message for s in steered]
    for s in steered:
        answer = s.answer
        assert answer.status in (LookAheadStatus.NOT_NEEDED, LookAheadStatus.PROPOSED)
        assert (answer.message == "") == (answer.status is LookAheadStatus.NOT_NEEDED)
        if answer.proposal is not None:  # the best draft that keeps a finish, by brute force
            left = event.rounds - answer.best.round_number
            best_key, _ = brute_force_best_with_finish(s.ranked, s.history, left, config)
            assert key_of(answer.proposal, s.ranked, s.history, config) == best_key


@FAST
@given(seed=st.integers(0, 10**6), n=st.integers(4, 8), config=st.sampled_from(CONFIGS), data=st.data())
def test_every_answer_agrees_with_the_brute_force(seed, n, config, data):
    # Random (rematch-bearing) histories and points: whatever the look-ahead says is what the
    # brute force finds, including "no draft leaves a finish".
    played = data.draw(st.integers(1, n - 2))
    left = data.draw(st.integers(1, max(1, n - 2 + n % 2 - played)))  # mostly no more than can be new
    check_against_brute_force(seed, n, played, left, config)


def check_against_brute_force(seed: int, n: int, played: int, left: int, config: SwissConfig) -> LookAhead:
    rng = random.Random(seed)
    entrants = random_field(rng, n, clubs=3)
    ids = [e.id for e in entrants]
    history = (
        rematch_free_history(rng, ids, played) if rng.random() < 0.7 else random_history(rng, ids, played)
    )
    if rng.random() < 0.5:  # with the floats of the latest round
        points_then = {i: 2 * rng.randrange(played) for i in ids}
        floats = round_floats(
            [b for b in history.boards if b.round_number == played],
            [Entrant(i, points=points_then[i]) for i in ids],
        )
        history = History(history.boards, history.byes, floats)
    ranked = sorted(
        (Entrant(e.id, e.club_id, points=2 * rng.randrange(played + 1)) for e in entrants),
        key=lambda e: -e.points,
    )
    answer = swiss_lookahead(ranked, history, played + 1, left, config)
    best_key, overall = brute_force_best_with_finish(ranked, history, left, config)
    assert key_of(answer.best, ranked, history, config) == overall
    best_leaves_finish = answer.outlook is not None and answer.outlook.status is not Outlook.IMPOSSIBLE
    if best_leaves_finish:
        assert answer.status is LookAheadStatus.NOT_NEEDED
        assert best_key == overall
    elif best_key is None:
        assert answer.status is LookAheadStatus.NO_FINISH and answer.proposal is None
        assert "a rematch will be needed" in answer.message
    else:
        assert answer.status is LookAheadStatus.PROPOSED and answer.proposal is not None
        assert key_of(answer.proposal, ranked, history, config) == best_key
        assert answer.proposal.cost.rematches == answer.best.cost.rematches
    return answer


def test_nothing_to_say_when_the_best_draft_leaves_a_finish():
    entrants = [Entrant(i) for i in range(1, 9)]
    answer = swiss_lookahead(entrants, History(), 1, 2)
    assert answer.status is LookAheadStatus.NOT_NEEDED and answer.message == ""
    assert answer.best == pair_swiss(entrants, History(), round_number=1)
    assert answer.proposal is None and answer.chosen is answer.best and answer.extra is None
    assert answer.outlook is not None and answer.outlook.status is Outlook.GUARANTEED


def test_beyond_the_exact_limit_the_look_ahead_says_nothing():
    entrants = [Entrant(i) for i in range(1, 18)]
    answer = swiss_lookahead(entrants, History(), 1, 20)  # 20 rounds after this cannot all be new
    assert answer.status is LookAheadStatus.BEYOND_LIMIT
    assert answer.outlook is None and answer.message == "" and answer.proposal is None
    assert answer.best == pair_swiss(entrants, History(), round_number=1)
    assert swiss_lookahead(entrants, History(), 1, 20, exact_limit=17).status is LookAheadStatus.NO_FINISH


def test_when_no_draft_leaves_a_finish_the_organiser_is_told():
    five = [Entrant(i) for i in range(1, 6)]
    answer = swiss_lookahead(five, History(), 1, 5)  # six rounds of five pairs: someone meets twice
    assert answer.status is LookAheadStatus.NO_FINISH and answer.proposal is None
    assert answer.message == (
        "No draft of this round leaves a rematch-free finish for the 5 rounds after it: a rematch will be needed."
    )
    with pytest.raises(ValueError, match="cannot be negative"):
        swiss_lookahead(five, History(), 1, -1)


def test_the_classic_trap_of_six_pairs_and_its_sentence():
    # Round 3 of 5: the best draft completes two 3-by-3 blocks (1, 2, 3 have then met 4, 5, 6), and
    # what is left to meet is two triangles, which cannot be paired.
    six = [Entrant(1, points=4), Entrant(6, points=4), Entrant(5, points=2), Entrant(3, points=2),
           Entrant(2, points=0), Entrant(4, points=0)]  # fmt: skip
    rounds = [(1, 1, 4), (1, 2, 5), (1, 3, 6), (2, 5, 1), (2, 6, 2), (2, 4, 3)]
    played = History(boards=tuple(PastBoard(r, a, b) for r, a, b in rounds))
    answer = swiss_lookahead(six, played, 3, 2)
    assert [set(b.entrants) for b in answer.best.boards] == [{1, 6}, {3, 5}, {2, 4}]
    assert answer.status is LookAheadStatus.PROPOSED and answer.proposal is not None
    assert [set(b.entrants) for b in answer.proposal.boards] == [{1, 3}, {5, 6}, {2, 4}]
    assert answer.extra == DraftFigures(rematches=0, score_difference=4, floaters=4, same_club=0)
    assert answer.message == (
        "The best draft leaves no rematch-free finish for the 2 rounds after it; this one keeps one "
        "for 4 more points of score spread and 4 more floaters."
    )
    assert answer.proposal.notes[-1] == (
        "look-ahead: chosen so that the 2 rounds left can still be paired without a rematch"
    )
    # Past the draft budget the proposal is the best round of the witness schedule, flagged so.
    capped = swiss_lookahead(six, played, 3, 2, max_drafts=0)
    assert capped.status is LookAheadStatus.PROPOSED and not capped.proven_best
    assert capped.message.endswith("(the search stopped after 0 drafts: a better one may exist).")
    assert capped.proposal_outlook is not None and capped.proposal_outlook.status is Outlook.POSSIBLE


# --- the float rule -------------------------------------------------------------------------------


def boards_of(draft: DraftRound) -> list[set[int]]:
    return [set(b.entrants) for b in draft.boards]


SIX = [Entrant(i, points=p) for i, p in zip(range(1, 7), [6, 6, 6, 4, 4, 4], strict=True)]


def test_a_pair_that_floated_last_round_does_not_float_again_when_an_equal_draft_exists():
    plain = pair_swiss(SIX, History(), round_number=4)
    assert boards_of(plain) == [{1, 2}, {3, 4}, {5, 6}]  # 3 floats down, 4 up
    floated = History(floats=(PastFloat(3, 3, FloatDirection.DOWN), PastFloat(3, 4, FloatDirection.UP)))
    draft = pair_swiss(SIX, floated, round_number=4)
    assert boards_of(draft) == [{1, 3}, {2, 5}, {4, 6}]  # 2 floats down, 5 up instead
    same = ("rematches", "bye_rank", "same_club", "score_spread")
    assert [getattr(draft.cost, k) for k in same] == [getattr(plain.cost, k) for k in same]
    assert draft.cost.repeat_floats == 0 and draft.cost.tidiness > plain.cost.tidiness
    # Floats of an earlier round than the latest one do not count.
    older = History(boards=(PastBoard(4, 7, 8),), floats=floated.floats)
    assert boards_of(pair_swiss(SIX, older, round_number=5)) == boards_of(plain)


def test_an_unavoidable_repeat_float_is_counted_and_explained():
    # 1 and 2 have met 4, 5 and 6: only 3 can float down, although it floated last round.
    met = tuple(
        PastBoard(r, a, b) for r, (a, b) in enumerate([(1, 4), (2, 5), (1, 5), (2, 6), (1, 6), (2, 4)], 1)
    )
    history = History(boards=met, floats=(PastFloat(6, 3, FloatDirection.DOWN),))
    draft = pair_swiss(SIX, history, round_number=7)
    assert {1, 2} in boards_of(draft) and draft.cost.repeat_floats == 1
    board = next(b for b in draft.boards if 3 in b.entrants)
    assert board.explanation.endswith("; 6 pts floated last round too")
    assert draft_figures(draft, SIX, history) == DraftFigures(0, 2, 2, 0, 1)


def test_round_floats_records_who_left_their_score_group_and_which_way():
    ranked = [Entrant(1, points=4), Entrant(2, points=2), Entrant(3, points=2), Entrant(4, points=0),
              Entrant(5, points=0)]  # fmt: skip
    draft = pair_swiss(ranked, History(), round_number=3)
    assert draft.bye is not None and draft.bye.entrant == 5
    floats = round_floats(draft, ranked)
    assert floats == (
        PastFloat(3, 1, FloatDirection.DOWN),
        PastFloat(3, 2, FloatDirection.UP),
        PastFloat(3, 3, FloatDirection.DOWN),
        PastFloat(3, 4, FloatDirection.UP),
    )
    assert round_floats(draft.as_past()[0], ranked) == floats  # stored boards work the same
    swapped = swap_entrants(draft, 4, 5, ranked, History())  # 4 takes the bye, 5 sits with 3
    assert PastFloat(3, 5, FloatDirection.UP) in round_floats(swapped, ranked)
    history = History().extended(*draft.as_past(), floats)
    assert history.float_in(1, 3) is FloatDirection.DOWN and history.float_in(5, 3) is None
    assert history.float_in(1, 2) is None and History(floats=floats) == History(floats=floats)


@FAST
@given(seed=st.integers(0, 10**6), n=st.integers(1, 12).map(lambda k: 2 * k), config=st.sampled_from(CONFIGS))
def test_every_edge_weighs_the_float_tier_between_club_mates_and_tidiness(seed, n, config):
    rng = random.Random(seed)
    ids = [e.id for e in random_field(rng, n)]
    entrants = [Entrant(i, rng.randrange(3), points=2 * rng.randrange(3)) for i in ids]
    history = random_history(rng, ids, 2)
    floated = {i for i in ids if rng.random() < 0.4}
    history = History(
        history.boards, history.byes, tuple(PastFloat(2, i, FloatDirection.UP) for i in floated)
    )
    sg = swiss_graph(entrants, history, config, complete=True)
    u = sg.units
    assert u.floats == (4 * n * n * (n // 2) + 1 if floated else 0)  # one more than all tidiness
    if floated and config.club_avoidance is ClubAvoidance.PREFER:
        assert u.club == u.floats * (n + 1)  # all repeat floats (two a board) weigh less than a club-mate
    order = sg.entrants
    group_start: dict[int, int] = {}
    for p, e in enumerate(order):
        group_start.setdefault(e.points, p)
    size = {pts: sum(1 for e in order if e.points == pts) for pts in group_start}
    for i, j, w in sg.graph.weighted_edge_list():
        a, b = order[i], order[j]
        met = history.times_met(a.id, b.id)
        same = a.club_id is not None and a.club_id == b.club_id
        if a.points == b.points:
            d = abs(i - j)
            tidy = (2 * d - size[a.points]) ** 2 if config.group_pairing is GroupPairing.FOLD else d * d
            again = 0
        else:
            tidy = (i - j) ** 2
            again = (a.id in floated) + (b.id in floated)
        cost = (
            u.rematch * met * met
            + u.club * same
            + u.score * (a.points - b.points) ** 2
            + u.floats * again
            + tidy
        )
        assert w == u.base - cost


@FAST
@given(seed=st.integers(0, 10**6), n=st.integers(2, 5).map(lambda k: 2 * k), config=st.sampled_from(CONFIGS))
def test_the_float_rule_changes_no_higher_tier_by_brute_force(seed, n, config):
    rng = random.Random(seed)
    ids = [e.id for e in random_field(rng, n)]
    rounds = rng.randrange(1, 4)
    history = random_history(rng, ids, rounds)
    floats = tuple(PastFloat(rounds, i, FloatDirection.DOWN) for i in ids if rng.random() < 0.5)
    history = History(history.boards, history.byes, floats)
    ranked = sorted(
        (Entrant(i, rng.randrange(3), points=rng.randrange(2 * rounds + 1)) for i in ids),
        key=lambda e: -e.points,
    )
    draft = pair_swiss(ranked, history, round_number=rounds + 1, config=config)
    best = min(key for key, _, _ in _all_drafts(ranked, history, config))
    assert key_of(draft, ranked, history, config) == best
    assert draft.cost.repeat_floats == best[-1]


def _float_event(seed: int, n: int, rounds: int, rule: bool) -> tuple[int, list[str]]:
    """A Swiss of ``n`` pairs; with ``rule`` the floats are recorded. Returns how many times an
    entrant floated in two consecutive rounds, and what went wrong (higher tiers changed by the rule,
    or a repeat float the rule left)."""
    rng = random.Random(seed)
    event = Event(random_field(rng, n, 40), rounds, rng)
    consecutive, problems = 0, []
    last: set[int] = set()
    for r in range(1, rounds + 1):
        ranked = event.ranked()
        history = event.history if rule else History(event.history.boards, event.history.byes)
        draft = pair_swiss(ranked, history, round_number=r)
        now = {f.entrant for f in round_floats(draft, ranked)}
        consecutive += len(now & last)
        last = now
        if rule:
            without = pair_swiss(ranked, History(history.boards, history.byes), round_number=r)
            higher = ("rematches", "bye_rank", "same_club", "score_spread")
            if [getattr(draft.cost, k) for k in higher] != [getattr(without.cost, k) for k in higher]:
                problems.append(f"round {r}: {draft.cost} against {without.cost} without the rule")
            if draft.cost.repeat_floats:
                problems.append(f"round {r}: {draft.cost.repeat_floats} repeat floats")
        event.play(draft, ranked)
    return consecutive, problems


@pytest.mark.parametrize("seed", [3, 5])
def test_four_hundred_pairs_float_in_consecutive_rounds_only_when_nothing_as_good_avoids_it(seed):
    # The figure: 400 pairs over 9 rounds floated in consecutive rounds 9 times (seed 3; 8 for seed 5)
    # without the rule. With it, never, and no higher tier moves in any round.
    before, _ = _float_event(seed, 400, 9, rule=False)
    after, problems = _float_event(seed, 400, 9, rule=True)
    assert before > 0
    assert after == 0 and problems == []


def test_the_float_tier_gives_way_before_a_field_is_refused(monkeypatch):
    history = History(floats=(PastFloat(3, 3, FloatDirection.DOWN),))
    with_rule = swiss_graph(SIX, history).units
    without = swiss_graph(SIX, History()).units
    assert with_rule.base.bit_length() > without.base.bit_length()
    monkeypatch.setattr(swiss_module, "MAX_WEIGHT_BITS", without.base.bit_length())
    draft = pair_swiss(SIX, history, round_number=4)
    assert draft.notes[-1] == "float rule left out: with it the weights would overflow"
    assert boards_of(draft) == [{1, 2}, {3, 4}, {5, 6}]
    monkeypatch.setattr(swiss_module, "MAX_WEIGHT_BITS", without.base.bit_length() - 1)
    with pytest.raises(ValueError, match="overflow exact weights"):
        pair_swiss(SIX, history, round_number=4)


def test_a_history_without_floats_pairs_as_before():
    # Backward compatible: History(boards, byes) and .extended(boards, byes) as before; no float
    # unit, so every weight is what docs/pairing.md's older formula gives.
    history = History((PastBoard(1, 1, 4),), (PastBye(1, 5),))
    assert history.floats == () and history.extended([PastBoard(2, 1, 2)]).floats == ()
    assert swiss_graph(SIX, history).units.floats == 0
    assert pair_swiss(SIX, history, round_number=2).cost.repeat_floats == 0
