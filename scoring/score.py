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
from .model import SHARED_EVENTS, Beg, Event, EventKind, Hand, HandResult, event
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


#: One would-be event: kind, side, points (``None``: up to the target, a lost game), card, offender.
Step = tuple[EventKind, int, "int | None", "Card | None", "int | None"]


def evaluate(rules: RuleSet, hand: Hand, score: Sequence[int], path: str = "hand") -> HandResult:
    """Score ``hand`` starting from ``score`` (one whole number per side, each below the target).

    ``path`` locates the hand in its document for the two refusals that need the score: a gift that
    would win where ``gift_can_win`` is false, and a record that stops before the counted fields
    although the game did not end during the deal.
    """
    target = rules.target
    points_now = list(score)
    events: list[Event] = []
    winner: int | None = None
    shared = SHARED_EVENTS
    for step in scoring_steps(rules, hand):
        kind, side, step_points, card, offender = step
        if step_points is None:  # a lost game: the opponent's score is raised to the target
            points = target - points_now[side]
            step = (kind, side, points, card, offender)
        elif step_points <= 0:  # an event of no points is no event
            continue
        else:
            points = step_points
        total = points_now[side] + points
        if kind == "gift" and total >= target and not rules.gift_can_win:
            raise InvalidHand("gift_would_win", join_path(path, "beg"),
                              f"Giving one would take side {side} to {total}, out of {target}: under these "
                              "rules a gift may not win the game, so the dealer must run the pack")
        found = shared.get(step)  # the step is its event's key: the shared Event, or a new one
        events.append(found if found is not None else event(kind, side, points, card, offender))
        points_now[side] = total
        if total >= target:  # the game is won: nothing after this event is scored
            winner = side
            break
    dealer = hand.dealer
    if hand.misdeal:
        next_dealer = (dealer + 1) % rules.players if rules.misdeal_passes_deal else dealer
    else:
        next_dealer = (dealer + 1) % rules.players
        if winner is None and not hand.counted:
            raise InvalidHand("missing_field", join_path(path, "high"),
                              "The hand was played (no kick or gift won the game), so high, low, jack and game "
                              "are required")
    return HandResult(hand.trump, tuple(events), tuple(points_now), winner, next_dealer)


def scoring_steps(rules: RuleSet, hand: Hand) -> list[Step]:
    """Everything the hand would score, in the order of RULES.md section 6, before the target cuts
    it short: each kick, the gift, the penalties in the order they happened, then High, Low, Jack or
    hang jack, Game. Steps of no points may be listed; ``evaluate`` skips them."""
    (dealer, misdeal, abandoned, dealt_kicks, beg, high, low, jack, game, penalties, counted, _) = hand
    dealer_side = dealer % 2 if rules.players == 4 else dealer  # rules.side_of(dealer)
    sides = rules.sides
    if misdeal:
        points = rules.misdeal_points
        return [("misdeal", side, points, None, None) for side in range(sides) if side != dealer_side]
    steps: list[Step] = []

    # 1. each kick, as it is turned
    value = rules.kick_value
    kicks: Sequence[Card] = dealt_kicks
    if abandoned or not rules.every_kick_scores:
        kicks = scoring_kicks(rules, abandoned, dealt_kicks, beg)
    for card in kicks:
        kick_points = value.get(card.rank)
        if kick_points is not None:
            steps.append(("kick", dealer_side, kick_points, card, None))
    # 2. the gift
    if beg == "give":
        points = rules.gift_points
        for side in range(sides):
            if side != dealer_side:
                steps.append(("gift", side, points, None, None))
    if not counted:
        return steps

    # 3. penalties, in the order they happened
    barred: set[int] | None = None
    if penalties:
        barred = set()
        renege = rules.renege
        for offence in penalties:
            kind = offence.kind
            offender = offence.side
            if kind == "undertrump" or renege == "lose_game" or (kind == "trump_revoke" and renege == "two_tier"):
                lost: int | None = None  # the offending side loses the game: the opponents are credited with it
            else:
                lost = rules.revoke_points
                if rules.revoke_bars_game:
                    barred.add(offender)
            for side in range(sides):
                if side != offender:
                    steps.append((kind, side, lost, None, offender))

    # 4. after the last trick: High, Low, Jack (or hang jack), Game
    if high is not None:
        steps.append(("high", high.side, 1, high.card, None))
    if low is not None:
        steps.append(("low", low.side, 1, low.card, None))
    if jack is not None:
        won_by = jack.won_by
        if jack.held_by == won_by:
            steps.append(("jack", won_by, rules.jack_points, None, None))
        else:
            steps.append(("hang_jack", won_by, rules.hang_jack_points, None, None))
    if game is not None:
        scorer = game_winner(rules, game, dealer_side, barred)
        if scorer is not None:
            steps.append(("game", scorer, rules.game_points, None, None))
    return steps


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
