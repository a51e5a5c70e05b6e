"""Issue 13, the Swiss that steers, through the services: small events (6 and 7 pairs) whose best draft
traps them (found by a seeded search with the pure ``swiss_lookahead`` over results played as the
services record them), the proposal ``round_pair`` stores on ``Round.proposal`` and
``round_draft_adopt_proposal`` seats; and the float rule fed from the latest round's boards and the
standings that round was paired from.

Each event is played through ``round_start`` and the tablets' hands: every board is won 2-0 by two
hang-jack hands a game, so the standings (and the order inside a score group) are those the search used.
Entrants are named 1..n by seed in the specs below.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tests.tournaments.factories import make_user
from tests.tournaments.field_helpers import (
    as_sets,
    boards_of,
    byes_of,
    draft_of,
    fresh,
    history_before,
    pairs_of,
    play_and_close,
    ranked_from,
    stored_history,
    winners,
)
from tests.tournaments.test_pairing_service import pairs_event
from tournaments.models import AuditEvent, BoardPair, Round, Tournament
from tournaments.pairing import (
    Entrant,
    FloatDirection,
    History,
    LookAheadStatus,
    Outlook,
    PastBoard,
    PastFloat,
    SwissConfig,
    draft_figures,
    pair_swiss,
    rematch_outlook,
    round_floats,
    swiss_lookahead,
)
from tournaments.services import Conflict, NotAllowed, round_publish, round_start
from tournaments.services.field import entry_withdraw
from tournaments.services.pairing import round_draft_adopt_proposal

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class Trap:
    """An event of ``n`` pairs over ``rounds`` rounds: the winners of each round before ``trap``, and the
    best draft and the proposal of round ``trap`` (boards as seed numbers; the bye if any)."""

    n: int
    rounds: int
    won: tuple[frozenset[int], ...]
    best: frozenset[frozenset[int]]
    proposal: frozenset[frozenset[int]]
    bye: int | None = None

    @property
    def trap(self) -> int:
        return len(self.won) + 1


def _boards(*pairs: tuple[int, int]) -> frozenset[frozenset[int]]:
    return frozenset(frozenset(p) for p in pairs)


TRAPS = {
    # Six pairs, five rounds: round 3's best draft completes two blocks of three that have met, and what is
    # left to meet is two triangles (the classic trap). Seed 37 of the search.
    "six": Trap(6, 5, (frozenset({1, 2, 6}), frozenset({1, 2, 5})),
                best=_boards((1, 2), (5, 6), (3, 4)), proposal=_boards((5, 1), (6, 2), (3, 4))),
    # Seven pairs, six rounds (a bye each round): round 5's best draft leaves no rematch-free last round.
    # Seed 89 of the search; the proposal costs nothing in score spread, floats or club-mates.
    "seven": Trap(7, 6, (frozenset({1, 5, 3}), frozenset({1, 7, 4}), frozenset({7, 5, 6}), frozenset({7, 1, 2})),
                  best=_boards((7, 4), (1, 2), (5, 6)), proposal=_boards((7, 6), (1, 2), (4, 5)), bye=3),
}


@dataclass
class Played:
    tournament: Tournament
    ids: dict[int, int]  # seed number -> entry id
    organiser: object
    round: Round
    spec: Trap

    def entries(self, numbers: frozenset[frozenset[int]]) -> set[frozenset[int]]:
        return {frozenset(self.ids[x] for x in pair) for pair in numbers}

    @property
    def remaining(self) -> int:
        return self.spec.rounds - self.round.number


def swiss_event(n: int, rounds: int):
    tournament, entries, organiser = pairs_event(n)
    Tournament.objects.filter(pk=tournament.pk).update(rounds_planned=rounds)
    return fresh(tournament), {i + 1: e.pk for i, e in enumerate(entries)}, organiser


def play_to_the_trap(name: str) -> Played:
    spec = TRAPS[name]
    tournament, ids, organiser = swiss_event(spec.n, spec.rounds)
    for won in spec.won:
        round_ = round_start(tournament=tournament, user=organiser)
        assert fresh(round_).proposal is None, "the event is not trapped before the round the search found"
        play_and_close(round_, organiser, winners({ids[x] for x in won}))
    trap = round_start(tournament=tournament, user=organiser)
    return Played(tournament, ids, organiser, fresh(trap), spec)


def look_again(played: Played):
    """The pure look-ahead on exactly what the service read for the trap round."""
    round_ = played.round
    return swiss_lookahead(ranked_from(round_), history_before(played.tournament, round_.number), round_.number,
                           played.remaining, SwissConfig())


def no_rematch_anywhere(tournament: Tournament, upto: int) -> bool:
    history = stored_history(tournament, upto)
    return all(history.times_met(b.side0, b.side1) == 1 for b in history.boards)


# ---- the proposal ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["six", "seven"])
def test_a_trapping_round_stores_a_proposal_that_adopted_keeps_the_event_rematch_free(name):
    played = play_to_the_trap(name)
    check_the_proposal(played)
    check_adopting_and_finishing(played)


def check_the_proposal(played: Played) -> None:
    round_, spec = played.round, played.spec
    assert round_.status == Round.Status.DRAFTED and round_.number == spec.trap
    # The seated draft is the best one (the pure core's, on the same field), and it traps the event.
    look = look_again(played)
    assert look.status is LookAheadStatus.PROPOSED
    assert pairs_of(round_) == {frozenset(b.entrants) for b in look.best.boards} == played.entries(spec.best)
    if spec.bye is not None:
        assert byes_of(round_) == [played.ids[spec.bye]] == [look.best.bye.entrant]
    ids = [e.id for e in ranked_from(round_)]
    history = history_before(played.tournament, round_.number)
    after_best = history.extended(*draft_of(round_).as_past())
    assert rematch_outlook(ids, after_best, played.remaining).status is Outlook.IMPOSSIBLE
    assert round_.feasibility == Outlook.IMPOSSIBLE.value
    # What is stored for the console: the proposal, its message, what it costs and its outlook.
    proposal = round_.proposal
    assert proposal["status"] == "proposed" and proposal["message"] == look.message
    assert proposal["message"].startswith("The best draft leaves no rematch-free finish for the ")
    assert "; this one keeps one " in proposal["message"]
    assert as_sets(proposal["boards"]) == played.entries(spec.proposal)
    assert all(isinstance(text, str) and text for _, _, text in proposal["boards"])
    assert (proposal["bye"] or [None])[0] == (played.ids[spec.bye] if spec.bye else None)
    extra = look.extra
    assert proposal["extra"] == {"rematches": 0, "score_difference": extra.score_difference,
                                 "floaters": extra.floaters, "same_club": 0, "repeat_floats": extra.repeat_floats}
    assert proposal["outlook"][0] in (Outlook.POSSIBLE.value, Outlook.GUARANTEED.value)
    for a, b, _ in proposal["boards"]:
        assert history.times_met(a, b) == 0, "the proposal is rematch-free"


def check_adopting_and_finishing(played: Played) -> None:
    round_, spec, organiser = fresh(played.round), played.spec, played.organiser
    proposal = round_.proposal
    adopted = round_draft_adopt_proposal(round=round_, user=organiser)
    round_ = fresh(adopted)
    assert round_.status == Round.Status.DRAFTED and round_.proposal is None
    assert pairs_of(round_) == played.entries(spec.proposal)
    assert byes_of(round_) == ([played.ids[spec.bye]] if spec.bye else [])
    tables = [b.table for b in boards_of(round_) if b.table is not None]
    assert tables == list(range(1, len(tables) + 1))
    assert BoardPair.objects.filter(round=round_).count() == spec.n
    change = round_.changes[-1]
    assert change["kind"] == "adopt_proposal" and change["extra"] == proposal["extra"]
    assert AuditEvent.objects.filter(action="round.adopt_proposal", object_id=str(round_.pk)).exists()
    assert [round_.feasibility, round_.feasibility_note] == proposal["outlook"]
    # A rematch-free finish exists after the seated round.
    ids = [e.id for e in ranked_from(round_)]
    after = history_before(played.tournament, round_.number).extended(*draft_of(round_).as_past())
    assert rematch_outlook(ids, after, played.remaining).status in (Outlook.POSSIBLE, Outlook.GUARANTEED)
    with pytest.raises(Conflict) as exc:
        round_draft_adopt_proposal(round=round_, user=organiser)
    assert exc.value.code == "no_proposal"
    # Play on to the end, adopting any proposal made: nobody meets twice.
    for number in range(round_.number, spec.rounds):
        play_and_close(round_, organiser, lambda b: 0 if b.pair_a_id < b.pair_b_id else 1)
        round_ = round_start(tournament=played.tournament, user=organiser)
        if (round_.proposal or {}).get("boards"):
            round_ = round_draft_adopt_proposal(round=round_, user=organiser)
        assert round_.number == number + 1
    assert no_rematch_anywhere(played.tournament, spec.rounds)


def fresh_round(round_):
    return type(round_).objects.get(pk=round_.pk)


def test_a_proposal_is_dropped_when_the_field_changes():
    """A withdrawal re-pairs the draft; the proposal was drafted for the field before it, so it goes."""
    played = play_to_the_trap("six")
    round_ = played.round
    entry_withdraw(entry=played.ids[6], user=played.organiser)
    assert fresh_round(round_).proposal is None
    with pytest.raises(Conflict) as exc:
        round_draft_adopt_proposal(round=round_, user=played.organiser)
    assert exc.value.code == "no_proposal"
    assert played.ids[6] not in {x for pair in pairs_of(round_) for x in pair}


def test_adopting_is_refused_without_a_proposal_after_publishing_and_to_outsiders():
    tournament, ids, organiser = swiss_event(6, 5)
    round_ = round_start(tournament=tournament, user=organiser)
    assert round_.proposal is None and round_.feasibility in ("possible", "guaranteed")
    with pytest.raises(Conflict) as exc:
        round_draft_adopt_proposal(round=round_, user=organiser)
    assert exc.value.code == "no_proposal" and "no proposed draft" in exc.value.message
    with pytest.raises(NotAllowed):
        round_draft_adopt_proposal(round=round_, user=make_user())
    round_publish(round=round_, user=organiser)
    with pytest.raises(Conflict) as exc:
        round_draft_adopt_proposal(round=round_, user=organiser)
    assert exc.value.code == "round_not_draft"


def test_when_no_draft_keeps_a_finish_the_round_carries_a_message_and_nothing_to_adopt():
    # Six pairs cannot play six rounds without a rematch: the organiser is told so from round 1.
    tournament, ids, organiser = swiss_event(6, 6)
    round_ = round_start(tournament=tournament, user=organiser)
    assert round_.proposal["status"] == "no_finish" and "a rematch will be needed" in round_.proposal["message"]
    assert "boards" not in round_.proposal
    with pytest.raises(Conflict) as exc:
        round_draft_adopt_proposal(round=round_, user=organiser)
    assert exc.value.code == "no_proposal"


# ---- the float rule --------------------------------------------------------------------------------------
def test_a_pair_that_floated_down_last_round_is_not_floated_again_when_an_equal_draft_exists():
    """Six pairs over six rounds (seed 0 of the search). Round 2 is paired from 3, 4, 5 on 2 points and 1,
    2, 6 on none: 5 floats down to meet 1, who floats up. After round 2 the field is 3 (4 points), then 4,
    1, 5, 2 (2 points) and 6: one pair of the middle group must float down to 6 and one up to 3. Without the
    float rule pair 5 would float down again (5 v 6) and 1 up again (3 v 1); with it 5 stays in its group
    at no cost in rematches, byes, club-mates or score spread."""
    tournament, ids, organiser = swiss_event(6, 6)
    first = round_start(tournament=tournament, user=organiser)
    play_and_close(first, organiser, winners({ids[4], ids[5], ids[3]}))
    second = round_start(tournament=tournament, user=organiser)
    assert pairs_of(second) == {frozenset((ids[a], ids[b])) for a, b in [(4, 3), (5, 1), (6, 2)]}
    play_and_close(second, organiser, winners({ids[3], ids[1], ids[2]}))
    third = round_start(tournament=tournament, user=organiser)

    # The history carries round 2's floats, from its boards and the standings it was paired from.
    history = history_before(tournament, 3)
    assert history.floats == (PastFloat(2, ids[5], FloatDirection.DOWN), PastFloat(2, ids[1], FloatDirection.UP))
    then = [Entrant(row["entry_id"], points=row["match_points"]) for row in fresh(second).paired_from.rows]
    stored = [PastBoard(2, b.pair_a_id, b.pair_b_id) for b in boards_of(second)]
    assert history.floats == round_floats(stored, then)
    assert history_before(tournament, 2).floats == (), "round 1 floated nobody"

    ranked = ranked_from(third)
    assert [(e.id, e.points) for e in ranked] == [(ids[3], 4), (ids[4], 2), (ids[1], 2), (ids[5], 2), (ids[2], 2),
                                                  (ids[6], 0)]
    seated = draft_of(third)
    assert pairs_of(third) == {frozenset((ids[a], ids[b])) for a, b in [(3, 2), (4, 5), (1, 6)]}
    floated_now = {f.entrant for f in round_floats(seated, ranked)}
    assert ids[5] not in floated_now and ids[2] in floated_now
    # Without the rule the same field floats 5 again; the rule costs nothing on any higher tier.
    plain = pair_swiss(ranked, History(history.boards, history.byes), round_number=3)
    assert ids[5] in {f.entrant for f in round_floats(plain, ranked)}
    assert {frozenset(b.entrants) for b in plain.boards} == {frozenset((ids[a], ids[b])) for a, b in [(3, 1), (4, 2), (5, 6)]}
    mine, theirs = draft_figures(seated, ranked, history), draft_figures(plain, ranked, history)
    assert (mine.rematches, mine.score_difference, mine.same_club) == (theirs.rematches, theirs.score_difference, theirs.same_club)
    assert (mine.repeat_floats, theirs.repeat_floats) == (1, 2)
    # The one repeat float left (pair 1, up then down) is explained on its board.
    board = next(b for b in boards_of(third) if ids[1] in (b.pair_a_id, b.pair_b_id))
    assert "floated last round too" in board.explanation
