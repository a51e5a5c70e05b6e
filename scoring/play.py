"""The play form of HAND_FORMAT.md: a card-by-card record read into the same ``Hand`` as the tally form.

``read_play_hand(raw, rules, path)`` checks the record (every card parses, no card twice in the deal,
the right number of seats, cards, runs, discards and tricks, every card played by the seat that holds
it in turn) and derives what a scorer would tally: trump, High, Low, the Jack, each side's card points
and every illegal card as its own ``Penalty``, in the order played. An illegal card is scored, never
rejected. ``to_tally(raw, rules)`` writes the equivalent tally-form record, which scores exactly the same
events.

The header (``dealer``, ``abandoned``, ``kicks``, ``beg``) is read by ``tally.read_header``, shared
with the tally form.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from .cards import CARD_TEXT, Card, Rank, Suit
from .errors import InvalidHand, describe, join_path, short_key
from .legal import renege_of
from .model import Award, Hand, JackOutcome, Penalty
from .rules import FIRST_DEAL, RuleSet
from .tally import PLAY_FIELDS, PLAY_ONLY_FIELDS, read_header

_WORDS: Final = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                 "twelve")


def is_play_form(raw: Mapping[str, Any]) -> bool:
    """Whether a hand record is in the play form (it has any of ``deal``, ``runs``, ``discards``,
    ``tricks``)."""
    return any(key in raw for key in PLAY_ONLY_FIELDS)


def read_play_hand(
    raw: Mapping[str, Any],
    rules: RuleSet,
    path: str,
    *,
    score: Sequence[int] | None = None,
    dealer: int | None = None,
) -> Hand:
    """Read and check a play-form hand record; derive its counted facts. Raise ``InvalidHand``.

    ``score`` (the score before the hand) and ``dealer`` (the seat expected to deal) go to
    ``tally.read_header``. When the header says the game ends during the deal (a kick or the gift
    reaches the target), the cards are only checked for shape and the hand is not counted.
    """
    if not isinstance(raw, Mapping):
        raise InvalidHand("wrong_type", path, f"A hand must be an object, not {describe(raw)}")
    for key in raw:
        if key not in PLAY_FIELDS:
            raise InvalidHand("unknown_field", join_path(path, short_key(key)),
                              f"{short_key(key)!r} is not a field of a card-by-card hand record")
    header = read_header(raw, rules, path, score=score, dealer=dealer)
    if header.ends_game:
        _check_shape(raw, path)
        return Hand(dealer=header.dealer, abandoned=header.abandoned, kicks=header.kicks, beg=header.beg,
                    trump=header.trump)
    trump = header.trump
    assert trump is not None and header.beg is not None  # read_header: a deal played out fixed trump
    n = rules.players
    kicks = header.kicks
    runs_expected = len(kicks) - 1 if header.beg == "run" else 0

    # ---- the cards dealt: deal, then each run ---------------------------------------------------
    seat_of: dict[Card, int] = {}  # every card dealt, to the seat it was dealt to
    for k in kicks:
        seat_of[k] = -1
    hands: list[list[Card]] = [[] for _ in range(n)]
    deal = _field_list(raw, "deal", path)
    if len(deal) != n:
        raise InvalidHand("wrong_seat_count", f"{path}.deal",
                          f"The deal must list the cards of each of the {n} seats, not {len(deal)}")
    for seat, cards in enumerate(deal):
        where = f"{path}.deal[{seat}]"
        _add_cards(cards, FIRST_DEAL, hands[seat], seat, seat_of, where,
                   f"Each seat is dealt {FIRST_DEAL} cards at first")
    runs = raw.get("runs")
    if runs is None:
        runs = []
    if not isinstance(runs, list):
        raise InvalidHand("wrong_type", f"{path}.runs",
                          f"runs must be a list (for each run, the cards of each seat), not {describe(runs)}")
    if len(runs) != runs_expected:
        if header.beg == "run":
            why = (f"{len(kicks)} kicks mean {_count(runs_expected, 'run')}, so runs must have "
                   f"{runs_expected} entries, not {len(runs)}")
        else:
            why = f"The beggar's word was {header.beg!r}, so the pack was not run and there are no runs"
        raise InvalidHand("wrong_run_count", f"{path}.runs", why)
    run_cards = rules.run_cards
    for r, run in enumerate(runs):
        where = f"{path}.runs[{r}]"
        if not isinstance(run, list):
            raise InvalidHand("wrong_type", where, f"Each run must list the cards of each seat, not {describe(run)}")
        if len(run) != n:
            raise InvalidHand("wrong_seat_count", where,
                              f"Each run must list the cards of each of the {n} seats, not {len(run)}")
        for seat, cards in enumerate(run):
            _add_cards(cards, run_cards, hands[seat], seat, seat_of, f"{where}[{seat}]",
                       f"Each run gives every seat {_count(run_cards, 'card')}")

    # ---- discards --------------------------------------------------------------------------------
    held = FIRST_DEAL + runs_expected * run_cards
    discard_to = rules.discard_to
    lay_away = held - discard_to if discard_to is not None and runs_expected and held > discard_to else 0
    discards = raw.get("discards")
    if discards is None:
        discards = []
    if not isinstance(discards, list):
        raise InvalidHand("wrong_type", f"{path}.discards",
                          f"discards must list the cards each seat laid away, not {describe(discards)}")
    if lay_away == 0:
        if any(d != [] for d in discards):
            if discard_to is None:
                why = "These rules keep every card: there are no discards"
            elif not runs_expected:
                why = "Cards are laid away only after the pack was run"
            else:
                why = f"Each seat holds {held} cards, no more than {discard_to}: nothing is laid away"
            raise InvalidHand("unexpected_discards", f"{path}.discards", why)
        kept = hands
    else:
        if len(discards) != n:
            what = "is missing" if not discards else f"lists {len(discards)} seats"
            raise InvalidHand("wrong_discard_count", f"{path}.discards",
                              f"After the run each of the {n} seats lays away {_count(lay_away, 'card')} "
                              f"to keep {discard_to}: discards {what}")
        kept = []
        for seat, cards in enumerate(discards):
            where = f"{path}.discards[{seat}]"
            if not isinstance(cards, list):
                raise InvalidHand("wrong_type", where, f"Each seat's discards must be a list of cards, not {describe(cards)}")
            if len(cards) != lay_away:
                raise InvalidHand("wrong_discard_count", where,
                                  f"Seat {seat} holds {held} cards and keeps {discard_to}, so lays away "
                                  f"{_count(lay_away, 'card')}, not {len(cards)}")
            keep = set(hands[seat])
            for i, text in enumerate(cards):
                card = _card(text, f"{where}[{i}]")
                if card not in keep:
                    raise InvalidHand("discard_not_held", f"{where}[{i}]",
                                      f"Seat {seat} cannot lay away {card.text}: " + _whose(card, seat_of, seat))
                keep.discard(card)
            kept.append([c for c in hands[seat] if c in keep])

    # ---- what is in play: High, Low and the Jack are fixed by the cards dealt --------------------
    jack_card = Card(Rank.JACK, trump)
    high: Card | None = None
    low: Card | None = None
    high_seat = low_seat = jack_seat = -1
    for seat in range(n):
        for card in kept[seat]:
            if card.suit is trump:
                if high is None or card.rank > high.rank:
                    high, high_seat = card, seat
                if low is None or card.rank < low.rank:
                    low, low_seat = card, seat
                if card is jack_card:
                    jack_seat = seat

    # ---- the play ----------------------------------------------------------------------------------
    tricks = _field_list(raw, "tricks", path)
    if len(tricks) != len(kept[0]):
        raise InvalidHand("wrong_trick_count", f"{path}.tricks",
                          f"Each seat plays {_count(len(kept[0]), 'card')}, so there are {len(kept[0])} "
                          f"tricks, not {len(tricks)}")
    side_of = [rules.side_of(s) for s in range(n)]
    sides = rules.sides
    lift = [0] * sides
    remaining = [set(cards) for cards in kept]
    suits_left = [_suit_counts(cards) for cards in kept]
    follow_suit = rules.follow == "follow_or_trump"
    no_undertrump = rules.undertrump == "forbidden"
    penalties: list[Penalty] = []
    leader = rules.beggar(header.dealer)
    jack_won = low_won = -1
    card_text = CARD_TEXT
    for t, trick in enumerate(tricks):
        if not isinstance(trick, list) or len(trick) != n:
            raise InvalidHand("wrong_trick_size", f"{path}.tricks[{t}]",
                              f"Each trick has one card from each of the {n} seats, in play order")
        played: list[Card] = []
        lead_suit = trump  # set by the first card
        winner = leader
        top: Card | None = None
        points = 0
        for i, text in enumerate(trick):
            seat = (leader + i) % n
            try:
                card = card_text[text]
            except (KeyError, TypeError):
                raise _not_a_card(text, f"{path}.tricks[{t}][{i}]") from None
            hand = remaining[seat]
            if card not in hand:
                raise _not_held(card, seat, i, t, leader, seat_of, remaining, kept, f"{path}.tricks[{t}][{i}]")
            suit = card.suit
            if top is None:
                lead_suit = suit
                top = card
            else:
                if suit is not lead_suit:
                    if suit is trump:
                        suspect = no_undertrump
                    elif lead_suit is trump:
                        suspect = suits_left[seat][trump] > 0
                    else:
                        suspect = follow_suit and suits_left[seat][lead_suit] > 0
                    if suspect:
                        kind = renege_of(rules, trump, list(hand), played, card)
                        if kind is not None:
                            penalties.append(Penalty(kind, side_of[seat]))
                if suit is top.suit:
                    if card.rank > top.rank:
                        top, winner = card, seat
                elif suit is trump:
                    top, winner = card, seat
            hand.remove(card)
            suits_left[seat][suit] -= 1
            played.append(card)
            points += card.points
        won_by = side_of[winner]
        lift[won_by] += points
        if jack_seat >= 0 and jack_won < 0 and jack_card in played:
            jack_won = won_by
        if low is not None and low_won < 0 and low in played:
            low_won = won_by
        leader = winner

    if high is None or low is None:
        high_award = low_award = None
    else:
        high_award = Award(side_of[high_seat], high)
        low_side = low_won if rules.low == "captured" else side_of[low_seat]
        low_award = Award(low_side, low)
    jack = JackOutcome(side_of[jack_seat], jack_won) if jack_seat >= 0 else None
    return Hand(
        dealer=header.dealer,
        abandoned=header.abandoned,
        kicks=kicks,
        beg=header.beg,
        high=high_award,
        low=low_award,
        jack=jack,
        game=tuple(lift),
        penalties=tuple(penalties),
        counted=True,
        trump=trump,
    )


def to_tally(raw: Mapping[str, Any], rules: RuleSet | str | Mapping[str, Any], path: str = "hand") -> dict[str, Any]:
    """The tally-form record (canonical cards) that scores exactly what a play-form record scores."""
    ruleset = rules if isinstance(rules, RuleSet) else RuleSet.from_spec(rules)
    return hand_to_tally(read_play_hand(raw, ruleset, path))


def hand_to_tally(hand: Hand) -> dict[str, Any]:
    """A counted ``Hand`` as a JSON-ready tally-form record."""
    out: dict[str, Any] = {"dealer": hand.dealer}
    if hand.abandoned:
        out["abandoned"] = [[c.text for c in deal] for deal in hand.abandoned]
    out["kicks"] = [c.text for c in hand.kicks]
    if hand.beg is not None:
        out["beg"] = hand.beg
    if not hand.counted:
        return out
    out["high"] = _award(hand.high)
    out["low"] = _award(hand.low)
    out["jack"] = None if hand.jack is None else {"held_by": hand.jack.held_by, "won_by": hand.jack.won_by}
    out["game"] = list(hand.game or ())
    if hand.penalties:
        out["penalties"] = [{"kind": p.kind, "side": p.side} for p in hand.penalties]
    return out


# ---- helpers -----------------------------------------------------------------------------------------
def _award(award: Award | None) -> dict[str, Any] | None:
    if award is None:
        return None
    out: dict[str, Any] = {"side": award.side}
    if award.card is not None:
        out["card"] = award.card.text
    return out


def _count(k: int, noun: str) -> str:
    word = _WORDS[k] if 0 <= k < len(_WORDS) else str(k)
    return f"{word} {noun}" if k == 1 else f"{word} {noun}s"


def _field_list(raw: Mapping[str, Any], key: str, path: str) -> list[Any]:
    value = raw.get(key)
    if value is None:
        raise InvalidHand("missing_field", join_path(path, key), f"A card-by-card record needs {key}")
    if not isinstance(value, list):
        raise InvalidHand("wrong_type", join_path(path, key), f"{key} must be a list, not {describe(value)}")
    return value


def _not_a_card(text: object, where: str) -> InvalidHand:
    return InvalidHand("bad_card", where,
                       f"{describe(text)} is not a card: write the rank then the suit, like 10H or AS")


def _card(text: object, where: str) -> Card:
    try:
        return CARD_TEXT[text]  # type: ignore[index]
    except (KeyError, TypeError):
        raise _not_a_card(text, where) from None


def _add_cards(cards: object, size: int, into: list[Card], seat: int, seat_of: dict[Card, int], where: str,
               rule: str) -> None:
    if not isinstance(cards, list):
        raise InvalidHand("wrong_type", where, f"Seat {seat}'s cards must be a list, not {describe(cards)}")
    if len(cards) != size:
        raise InvalidHand("wrong_card_count", where, f"{rule}: seat {seat} has {len(cards)}")
    for i, text in enumerate(cards):
        try:
            card = CARD_TEXT[text]
        except (KeyError, TypeError):
            raise _not_a_card(text, f"{where}[{i}]") from None
        if card in seat_of:
            first = seat_of[card]
            was = "is a kick of this deal" if first < 0 else f"was dealt to seat {first} already"
            raise InvalidHand("duplicate_card", f"{where}[{i}]", f"{card.text} appears twice: it {was}")
        seat_of[card] = seat
        into.append(card)


def _whose(card: Card, seat_of: dict[Card, int], seat: int) -> str:
    owner = seat_of.get(card)
    if owner is None:
        return "it was not dealt"
    if owner < 0:
        return "it is a kick, out of play"
    if owner == seat:
        return "it was laid away already"
    return f"it was dealt to seat {owner}"


def _suit_counts(cards: list[Card]) -> dict[Suit, int]:
    counts = dict.fromkeys(Suit, 0)
    for card in cards:
        counts[card.suit] += 1
    return counts


def _not_held(card: Card, seat: int, i: int, t: int, leader: int, seat_of: dict[Card, int],
              remaining: list[set[Card]], kept: list[list[Card]], where: str) -> InvalidHand:
    owner = seat_of.get(card)
    if i == 0 and owner is not None and owner >= 0 and owner != seat and card in remaining[owner]:
        who = "the beggar" if t == 0 else f"the winner of trick {t}"
        return InvalidHand("wrong_leader", where,
                           f"Seat {seat}, {who}, leads trick {t + 1}, but {card.text} is seat {owner}'s card")
    if owner == seat and card in kept[seat]:
        return InvalidHand("card_already_played", where, f"Seat {seat} played {card.text} in an earlier trick")
    if owner == seat:
        return InvalidHand("card_not_held", where, f"Seat {seat} cannot play {card.text}: it was laid away")
    return InvalidHand("card_not_held", where, f"Seat {seat} cannot play {card.text}: " + _whose(card, seat_of, seat))


def _check_shape(raw: Mapping[str, Any], path: str) -> None:
    """The cards of a deal that ended the game are not scored, only checked for shape."""
    depth = {"deal": 2, "runs": 3, "discards": 2, "tricks": 2}
    for key, levels in depth.items():
        if key in raw:
            _check_nested(raw[key], levels, join_path(path, key))


def _check_nested(value: object, levels: int, where: str) -> None:
    if levels == 0:
        _card(value, where)
        return
    if not isinstance(value, list):
        raise InvalidHand("wrong_type", where, f"Expected a list here, not {describe(value)}")
    for i, item in enumerate(value):
        _check_nested(item, levels - 1, f"{where}[{i}]")
