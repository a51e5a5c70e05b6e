"""A seeded game simulator: deals and plays whole games of All Fours under any rule set.

``simulate_game("trinidad", seed=7)`` shuffles, deals, kicks, begs, gives or runs the pack (same-suit
re-runs, a pack run out and redealt), lays away cards where ``discard_to`` is set, and plays every trick
with random legal cards, until the engine says a side has reached the target. Every hand comes out in
both forms of docs/hand-format.md (``play_hands`` card by card, ``tally_hands`` as counted), JSON-ready, and
``document(form)`` is a game document for ``scoring.score_game``. The same seed gives the same game.

``renege_rate`` makes a player now and then play an illegal card (each one is a penalty);
``misdeal_rate`` now and then records a misdeal instead of a hand. The demo, the tests, the benchmarks
and the load harness all build their games here.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from .cards import DECK, Card
from .game import check_score
from .legal import legal_cards, renege_of, trick_winner
from .model import Hand, HandResult, Penalty
from .play import hand_to_tally, read_play_hand
from .rules import FIRST_DEAL, RuleSet
from .score import evaluate

RulesSpec = str | Mapping[str, Any] | RuleSet


@dataclasses.dataclass(frozen=True, slots=True)
class SimulatedHand:
    """One simulated hand in both forms, how many illegal cards were played, and what it scored."""

    play: dict[str, Any]
    tally: dict[str, Any]
    #: Every illegal card played, as the penalty it is, in the order played.
    reneges: tuple[Penalty, ...]
    result: HandResult

    @property
    def illegal_cards(self) -> int:
        """How many illegal cards were played."""
        return len(self.reneges)

    @property
    def score(self) -> tuple[int, ...]:
        """The score after the hand."""
        return self.result.score

    @property
    def winner(self) -> int | None:
        """The side that reached the target in this hand, or ``None``."""
        return self.result.winner

    @property
    def next_dealer(self) -> int:
        """The seat that deals next."""
        return self.result.next_dealer


@dataclasses.dataclass(frozen=True, slots=True)
class SimulatedGame:
    """A whole simulated game: the rules as given, the score before it, and every hand in both forms."""

    rules_spec: str | dict[str, Any]
    rules: RuleSet
    start_score: tuple[int, ...]
    first_dealer: int
    hands: tuple[SimulatedHand, ...]

    @property
    def play_hands(self) -> list[dict[str, Any]]:
        """The hands card by card (a misdeal, or a hand the kick or gift ended, has no cards)."""
        return [h.play for h in self.hands]

    @property
    def tally_hands(self) -> list[dict[str, Any]]:
        """The same hands as a scorer tallies them."""
        return [h.tally for h in self.hands]

    @property
    def score(self) -> tuple[int, ...]:
        """The final score, as the engine counted it."""
        return self.hands[-1].score

    @property
    def winner(self) -> int | None:
        """The side that won the game (``None`` only if the game was cut short by ``max_hands``)."""
        return self.hands[-1].winner

    def document(self, form: Literal["tally", "play"] = "tally") -> dict[str, Any]:
        """A game document for ``scoring.score_game``, with the hands in the given form."""
        hands = self.tally_hands if form == "tally" else self.play_hands
        spec = self.rules_spec if isinstance(self.rules_spec, str) else dict(self.rules_spec)
        return {"rules": spec, "score": list(self.start_score), "hands": [dict(h) for h in hands]}


def simulate_game(
    rules: RulesSpec = "trinidad",
    *,
    seed: int,
    score: Sequence[int] | None = None,
    first_dealer: int = 0,
    renege_rate: float = 0.0,
    misdeal_rate: float = 0.0,
    max_hands: int = 1000,
) -> SimulatedGame:
    """Deal and play one whole game from ``score`` (default all zeros) until a side wins.

    ``rules`` is a preset name, an options object (kept as given in ``rules_spec``) or a ``RuleSet``.
    A score the rules refuse raises ``InvalidHand``; ``max_hands`` only guards rule sets where nobody
    can ever score.
    """
    ruleset = _ruleset(rules)
    spec: str | dict[str, Any] = (
        rules.to_dict() if isinstance(rules, RuleSet) else rules if isinstance(rules, str) else dict(rules)
    )
    start = check_score(ruleset, list(score), "score") if score is not None else (0,) * ruleset.sides
    if not 0 <= first_dealer < ruleset.players:
        raise ValueError(f"first_dealer must be a seat from 0 to {ruleset.players - 1}")
    rng = random.Random(seed)
    hands: list[SimulatedHand] = []
    current, dealer = start, first_dealer
    while len(hands) < max_hands:
        hand = simulate_hand(ruleset, dealer, rng, current, renege_rate=renege_rate, misdeal_rate=misdeal_rate)
        hands.append(hand)
        if hand.winner is not None:
            break
        current, dealer = hand.score, hand.next_dealer
    return SimulatedGame(spec, ruleset, start, first_dealer, tuple(hands))


def simulate_hand(
    rules: RulesSpec,
    dealer: int,
    rng: random.Random,
    score: Sequence[int],
    *,
    renege_rate: float = 0.0,
    misdeal_rate: float = 0.0,
) -> SimulatedHand:
    """Deal and play one hand by ``dealer`` at ``score``, drawing every choice from ``rng``.

    The engine scores it; the record stops where the game does: if a kick or the gift wins, the hand
    has no cards (and, where every kick scores, no kick after the winning one).
    """
    ruleset = _ruleset(rules)
    if misdeal_rate and rng.random() < misdeal_rate:
        record: dict[str, Any] = {"dealer": dealer, "misdeal": True}
        result = evaluate(ruleset, Hand(dealer, misdeal=True), score)
        return SimulatedHand(record, dict(record), (), result)
    play, reneges = _deal_and_play(ruleset, dealer, rng, score, renege_rate)
    hand = read_play_hand(play, ruleset, "hand")
    result = evaluate(ruleset, hand, score)
    if result.winner is not None and result.events[-1].kind in ("kick", "gift"):
        record = _cut_at_winner(ruleset, play, result)
        return SimulatedHand(record, dict(record), (), result)
    return SimulatedHand(play, hand_to_tally(hand), reneges, result)


# ---- dealing and playing ---------------------------------------------------------------------------
def _deal_and_play(
    rules: RuleSet, dealer: int, rng: random.Random, score: Sequence[int], renege_rate: float
) -> tuple[dict[str, Any], tuple[Penalty, ...]]:
    n = rules.players
    beggar = rules.beggar(dealer)
    abandoned: list[list[Card]] = []
    while True:  # one deal; a deal whose pack runs out is thrown in and dealt again
        pack = list(DECK)
        rng.shuffle(pack)
        deal = [pack[s * FIRST_DEAL:(s + 1) * FIRST_DEAL] for s in range(n)]
        used = n * FIRST_DEAL
        kicks = [pack[used]]
        used += 1
        runs: list[list[list[Card]]] = []
        if rng.random() < _stand_chance(deal[beggar], kicks[0]):
            beg = "stand"
            break
        gift_wins = any(score[side] + rules.gift_points >= rules.target
                        for side in range(rules.sides) if side != rules.side_of(dealer))
        if (rules.gift_can_win or not gift_wins) and rng.random() < 0.5:
            beg = "give"
            break
        beg = "run"
        first = kicks[0].suit
        while len(runs) < rules.max_runs:
            run = [pack[used + s * rules.run_cards:used + (s + 1) * rules.run_cards] for s in range(n)]
            used += n * rules.run_cards
            runs.append(run)
            kicks.append(pack[used])
            used += 1
            if kicks[-1].suit is not first:
                break
        if kicks[-1].suit is not first:
            break
        abandoned.append(kicks)  # the pack ran out: same dealer deals again
    trump = kicks[-1].suit
    hands = [list(deal[s]) + [c for run in runs for c in run[s]] for s in range(n)]

    discards: list[list[Card]] = []
    if runs and rules.discard_to is not None and len(hands[0]) > rules.discard_to:
        lay_away = len(hands[0]) - rules.discard_to
        for s in range(n):
            out = rng.sample(hands[s], lay_away)
            discards.append(out)
            hands[s] = [c for c in hands[s] if c not in out]

    tricks: list[list[Card]] = []
    reneges: list[Penalty] = []
    leader = beggar
    for _ in range(len(hands[0])):
        trick: list[Card] = []
        for i in range(n):
            seat = (leader + i) % n
            holding = hands[seat]
            legal = legal_cards(rules, trump, holding, trick)
            card = rng.choice(legal)
            if renege_rate and len(legal) < len(holding) and rng.random() < renege_rate:
                card = rng.choice([c for c in holding if c not in legal])
                kind = renege_of(rules, trump, holding, trick, card)
                assert kind is not None
                reneges.append(Penalty(kind, rules.side_of(seat)))
            holding.remove(card)
            trick.append(card)
        tricks.append(trick)
        leader = (leader + trick_winner(trump, trick)) % n

    record: dict[str, Any] = {"dealer": dealer}
    if abandoned:
        record["abandoned"] = [_texts(k) for k in abandoned]
    record["kicks"] = _texts(kicks)
    record["beg"] = beg
    record["deal"] = [_texts(d) for d in deal]
    if runs:
        record["runs"] = [[_texts(cards) for cards in run] for run in runs]
    if discards:
        record["discards"] = [_texts(d) for d in discards]
    record["tricks"] = [_texts(t) for t in tricks]
    return record, tuple(reneges)


def _stand_chance(holding: Sequence[Card], kick: Card) -> float:
    """The beggar stands more often with more trumps in hand."""
    trumps = sum(1 for c in holding if c.suit is kick.suit)
    return min(0.9, 0.25 + 0.2 * trumps)


def _texts(cards: Sequence[Card]) -> list[str]:
    return [c.text for c in cards]


def _cut_at_winner(rules: RuleSet, play: dict[str, Any], result: HandResult) -> dict[str, Any]:
    """The record of a hand whose kick or gift won the game: it ends at the winning event."""
    record: dict[str, Any] = {"dealer": play["dealer"]}
    if result.events[-1].kind == "gift" or not rules.every_kick_scores:
        # the gift, or the one kick that fixed trump (the last): the deal stands as dealt, no play
        if "abandoned" in play:
            record["abandoned"] = play["abandoned"]
        record["kicks"] = play["kicks"]
        record["beg"] = play["beg"]
        return record
    # every kick scores: the winning kick is the last one listed, even in a deal later abandoned
    wanted = sum(1 for e in result.events if e.kind == "kick")
    value = rules.kick_value
    deals: list[list[str]] = [*play.get("abandoned", []), play["kicks"]]
    seen = 0
    for d, kicks in enumerate(deals):
        for k, text in enumerate(kicks):
            if value.get(Card.parse(text).rank, 0) > 0:
                seen += 1
                if seen == wanted:
                    if d:
                        record["abandoned"] = deals[:d]
                    record["kicks"] = kicks[:k + 1]
                    if k:  # the beggar begged and the dealer ran before this kick
                        record["beg"] = "run"
                    return record
    raise AssertionError("the winning kick is one of the kicks")  # pragma: no cover


def _ruleset(rules: RulesSpec) -> RuleSet:
    return rules if isinstance(rules, RuleSet) else RuleSet.from_spec(rules)
