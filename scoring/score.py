"""Scoring one read hand: the events of RULES.md section 6, in order, stopping at the target.

``evaluate(rules, hand, score)`` takes a ``model.Hand`` (from either form) and the score before it and
returns a ``HandResult``. Points accrue strictly in this order: each kick as it is turned (kicks of
abandoned deals first), the gift, the penalties in the order they happened, then High, Low, Jack or
hang jack, Game. The moment a side reaches the target it wins and nothing after is scored. Events of
no points are not emitted.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .cards import Card
from .errors import InvalidHand, join_path
from .model import Beg, Event, EventKind, Hand, HandResult
from .rules import RuleSet

_NO_CARDS: Final[tuple[Card, ...]] = ()


def scoring_kicks(
    rules: RuleSet, abandoned: Sequence[Sequence[Card]], kicks: Sequence[Card], beg: Beg | None
) -> Sequence[Card]:
    """The kicks that score, in the order they were turned (each scores ``rules.kick_value``).

    Usually every kick: those of abandoned deals, then those of the deal played. Under
    ``every_kick_scores: false`` only the kick that fixes trump: the first kick when the beggar stands
    or the dealer gives, otherwise the last kick of the run; none while ``beg`` is unknown.
    """
    if rules.every_kick_scores:
        if not abandoned:
            return kicks
        return [card for deal in abandoned for card in deal] + list(kicks)
    if beg is None or not kicks:
        return _NO_CARDS
    return kicks[:1] if beg != "run" else kicks[-1:]


class _Tally:
    """The running score of one hand: adds events, stops at the target."""

    __slots__ = ("score", "events", "target", "winner")

    def __init__(self, score: Sequence[int], target: int) -> None:
        self.score = list(score)
        self.events: list[Event] = []
        self.target = target
        self.winner: int | None = None

    def add(self, kind: EventKind, side: int, points: int, card: Card | None = None,
            offender: int | None = None) -> bool:
        """Score one event; true when it wins the game (and so nothing more may be scored)."""
        if points <= 0:
            return False
        self.events.append(Event(kind, side, points, card, offender))
        total = self.score[side] + points
        self.score[side] = total
        if total >= self.target:
            self.winner = side
            return True
        return False


def evaluate(rules: RuleSet, hand: Hand, score: Sequence[int], path: str = "hand") -> HandResult:
    """Score ``hand`` starting from ``score`` (one whole number per side, each below the target).

    ``path`` locates the hand in its document for the two refusals that need the score: a gift that
    would win where ``gift_can_win`` is false, and a record that stops before the counted fields
    although the game did not end during the deal.
    """
    tally = _Tally(score, rules.target)
    result = _score_into(rules, hand, tally, path)
    return HandResult(hand.trump, tuple(tally.events), tuple(tally.score), tally.winner, result)


def _score_into(rules: RuleSet, hand: Hand, tally: _Tally, path: str) -> int:
    """Add the hand's events to ``tally``; return the seat that deals next."""
    players = rules.players
    dealer = hand.dealer
    dealer_side = rules.side_of(dealer)
    sides = rules.sides
    add = tally.add
    next_dealer = (dealer + 1) % players

    if hand.misdeal:
        if not rules.misdeal_passes_deal:
            next_dealer = dealer
        points = rules.misdeal_points
        for side in range(sides):
            if side != dealer_side and add("misdeal", side, points):
                break
        return next_dealer

    # 1. each kick, as it is turned
    value = rules.kick_value
    for card in scoring_kicks(rules, hand.abandoned, hand.kicks, hand.beg):
        if add("kick", dealer_side, value.get(card.rank, 0), card):
            return next_dealer

    # 2. the gift
    if hand.beg == "give":
        points = rules.gift_points
        for side in range(sides):
            if side == dealer_side:
                continue
            if not rules.gift_can_win and points > 0 and tally.score[side] + points >= tally.target:
                raise InvalidHand("gift_would_win", join_path(path, "beg"),
                                  f"Giving one would take side {side} to {tally.score[side] + points}, out of "
                                  f"{tally.target}: under these rules a gift may not win the game, so the "
                                  "dealer must run the pack")
            if add("gift", side, points):
                return next_dealer

    if not hand.counted:
        raise InvalidHand("missing_field", join_path(path, "high"),
                          "The hand was played (no kick or gift won the game), so high, low, jack and game "
                          "are required")

    # 3. penalties, in the order they happened
    barred: set[int] = set()
    renege = rules.renege
    for penalty in hand.penalties:
        kind = penalty.kind
        offender = penalty.side
        if kind == "undertrump" or renege == "lose_game" or (kind == "trump_revoke" and renege == "two_tier"):
            # the offending side loses the game: each opponent's score is raised to the target
            for side in range(sides):
                if side != offender and add(kind, side, tally.target - tally.score[side], None, offender):
                    return next_dealer
        else:
            points = rules.revoke_points
            for side in range(sides):
                if side != offender and add(kind, side, points, None, offender):
                    return next_dealer
            if rules.revoke_bars_game:
                barred.add(offender)

    # 4. after the last trick: High, Low, Jack (or hang jack), Game
    high = hand.high
    if high is not None and add("high", high.side, 1, high.card):
        return next_dealer
    low = hand.low
    if low is not None and add("low", low.side, 1, low.card):
        return next_dealer
    jack = hand.jack
    if jack is not None:
        won_by = jack.won_by
        if jack.held_by == won_by:
            if add("jack", won_by, rules.jack_points):
                return next_dealer
        elif add("hang_jack", won_by, rules.hang_jack_points):
            return next_dealer
    game = hand.game
    if game is not None:
        scorer = game_winner(rules, game, dealer_side, barred)
        if scorer is not None:
            add("game", scorer, rules.game_points)
    return next_dealer


def game_winner(rules: RuleSet, game: Sequence[int], dealer_side: int, barred: set[int] | frozenset[int]) -> int | None:
    """The side that scores Game: most card points; a tie scores nobody, or under ``game_tie:
    non_dealer`` the one tied side that is not the dealer's; a side barred by its revoke never scores
    it, and if it has the most card points nobody does."""
    best = max(game)
    leaders = [side for side, points in enumerate(game) if points == best]
    if len(leaders) > 1:
        if rules.game_tie != "non_dealer":
            return None
        leaders = [side for side in leaders if side != dealer_side]
        if len(leaders) != 1:
            return None
    winner = leaders[0]
    return None if winner in barred else winner
