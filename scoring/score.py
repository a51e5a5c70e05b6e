"""Scoring one read hand: the events of docs/rules.md section 6, in order, stopping at the target.

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
from .model import SHARED_EVENTS, Beg, Event, EventKind, Hand, HandResult, event
from .rules import RuleSet

_NO_CARDS: Final[tuple[Card, ...]] = ()
_new_result: Final = tuple.__new__  # builds a HandResult without the named tuple's keyword handling


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


def evaluate(rules: RuleSet, hand: Hand, score: Sequence[int], path: str = "hand") -> HandResult:
    """Score ``hand`` starting from ``score`` (one whole number per side, each below the target).

    Events are scored one by one in the order of docs/rules.md section 6 (each kick as turned, the gift,
    the penalties in the order they happened, then High, Low, Jack or hang jack, Game); the first that
    takes a side to the target wins the game and ends the hand. ``path`` locates the hand in its
    document for the two refusals that need the score: a gift that would win where ``gift_can_win``
    is false, and a record that stops before the counted fields although the game did not end
    during the deal.
    """
    (dealer, misdeal, abandoned, kicks, beg, high, low, jack, game, penalties, counted, trump) = hand
    players = rules.players
    dealer_side = dealer % 2 if players == 4 else dealer  # rules.side_of(dealer)
    target = rules.target
    points = list(score)
    events: list[Event] = []
    next_dealer = (dealer + 1) % players
    finish = _new_result

    if misdeal:
        if not rules.misdeal_passes_deal:
            next_dealer = dealer
        for side in range(rules.sides):
            if side != dealer_side and _add(events, points, target, "misdeal", side, rules.misdeal_points):
                return finish(HandResult, (None, tuple(events), tuple(points), side, next_dealer))
        return finish(HandResult, (None, tuple(events), tuple(points), None, next_dealer))

    # 1. each kick, as it is turned
    value = rules.kick_value
    for card in kicks if rules.every_kick_scores and not abandoned else scoring_kicks(rules, abandoned, kicks, beg):
        kick_points = value.get(card.rank)
        if kick_points and _add(events, points, target, "kick", dealer_side, kick_points, card):
            return finish(HandResult, (trump, tuple(events), tuple(points), dealer_side, next_dealer))
    # 2. the gift, when given
    if beg == "give":
        gift = rules.gift_points
        for side in range(rules.sides):
            if side == dealer_side:
                continue
            if not rules.gift_can_win and gift > 0 and points[side] + gift >= target:
                raise InvalidHand("gift_would_win", join_path(path, "beg"),
                                  f"Giving one would take side {side} to {points[side] + gift}, out of {target}: "
                                  "under these rules a gift may not win the game, so the dealer must run the pack")
            if _add(events, points, target, "gift", side, gift):
                return finish(HandResult, (trump, tuple(events), tuple(points), side, next_dealer))
    if not counted:
        raise InvalidHand("missing_field", join_path(path, "high"),
                          "The hand was played (no kick or gift won the game), so high, low, jack and game "
                          "are required")

    # 3. penalties, in the order they happened
    barred: set[int] | None = None
    if penalties:
        barred = set()
        renege = rules.renege
        for offence in penalties:
            kind = offence.kind
            offender = offence.side
            lost = kind == "undertrump" or renege == "lose_game" or (kind == "trump_revoke" and renege == "two_tier")
            if not lost and rules.revoke_bars_game:
                barred.add(offender)
            for side in range(rules.sides):
                if side == offender:
                    continue
                # a lost game credits the opponents with it: their score is raised to the target
                penalty_points = target - points[side] if lost else rules.revoke_points
                if _add(events, points, target, kind, side, penalty_points, None, offender):
                    return finish(HandResult, (trump, tuple(events), tuple(points), side, next_dealer))

    # 4. after the last trick: High, Low, Jack (or hang jack), Game; each 1 point to one side (but
    #    the jack's and Game's points are options), written out for speed: this is every hand's path
    shared = SHARED_EVENTS
    if high is not None:
        side = high.side
        found = shared.get(("high", side, 1, high.card, None))
        events.append(found if found is not None else event("high", side, 1, high.card))
        total = points[side] = points[side] + 1
        if total >= target:
            return finish(HandResult, (trump, tuple(events), tuple(points), side, next_dealer))
    if low is not None:
        side = low.side
        found = shared.get(("low", side, 1, low.card, None))
        events.append(found if found is not None else event("low", side, 1, low.card))
        total = points[side] = points[side] + 1
        if total >= target:
            return finish(HandResult, (trump, tuple(events), tuple(points), side, next_dealer))
    if jack is not None:
        side = jack.won_by
        jack_kind: EventKind
        if jack.held_by == side:
            jack_kind, jack_points = "jack", rules.jack_points
        else:
            jack_kind, jack_points = "hang_jack", rules.hang_jack_points
        if jack_points > 0:
            found = shared.get((jack_kind, side, jack_points, None, None))
            events.append(found if found is not None else event(jack_kind, side, jack_points))
            total = points[side] = points[side] + jack_points
            if total >= target:
                return finish(HandResult, (trump, tuple(events), tuple(points), side, next_dealer))
    if game is not None:
        side_or_none: int | None
        if len(game) == 2 and game[0] != game[1] and not barred:  # the usual hand: two sides, no tie
            side_or_none = 0 if game[0] > game[1] else 1
        else:
            side_or_none = game_winner(rules, game, dealer_side, barred)
        game_points = rules.game_points
        if side_or_none is not None and game_points > 0:
            side = side_or_none
            found = shared.get(("game", side, game_points, None, None))
            events.append(found if found is not None else event("game", side, game_points))
            total = points[side] = points[side] + game_points
            if total >= target:
                return finish(HandResult, (trump, tuple(events), tuple(points), side, next_dealer))
    return finish(HandResult, (trump, tuple(events), tuple(points), None, next_dealer))


def _add(events: list[Event], points: list[int], target: int, kind: EventKind, side: int, scored: int,
         card: Card | None = None, offender: int | None = None) -> bool:
    """Score one event (none if it is worth nothing); true when it takes its side to the target."""
    if scored <= 0:
        return False
    found = SHARED_EVENTS.get((kind, side, scored, card, offender))
    events.append(found if found is not None else event(kind, side, scored, card, offender))
    total = points[side] = points[side] + scored
    return total >= target


def game_winner(
    rules: RuleSet, game: Sequence[int], dealer_side: int, barred: set[int] | frozenset[int] | None = None
) -> int | None:
    """The side that scores Game: most card points; a tie scores nobody, or under ``game_tie:
    non_dealer`` the one tied side that is not the dealer's; a side barred by its revoke never scores
    it, and if it has the most card points nobody does."""
    if len(game) == 2:
        first, second = game
        if first != second:
            winner = 0 if first > second else 1
        elif rules.game_tie == "non_dealer":
            winner = 1 - dealer_side
        else:
            return None
    else:
        best = max(game)
        leaders = [side for side, points in enumerate(game) if points == best]
        if len(leaders) > 1:
            if rules.game_tie != "non_dealer":
                return None
            leaders = [side for side in leaders if side != dealer_side]
            if len(leaders) != 1:
                return None
        winner = leaders[0]
    return None if barred and winner in barred else winner
