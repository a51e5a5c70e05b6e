"""The play form of docs/hand-format.md: a card-by-card record read into the same ``Hand`` as the tally form.

``read_play_hand(raw, rules, path)`` checks the record (every card parses, no card twice in the deal,
the right number of seats, cards, runs, discards and tricks, every card played by the seat whose turn it
is and who still holds it) and derives what a scorer would tally: trump, High, Low, the Jack, each
side's card points and every illegal card as its own ``Penalty``, in the order played. An illegal card
is scored, never rejected. ``to_tally(raw, rules)`` writes the equivalent tally-form record, which
scores exactly the same events.

The header (``dealer``, ``abandoned``, ``kicks``, ``beg``) is read by ``tally.read_header``, shared
with the tally form. Scoring a document of played hands is dominated by this module, so its loop works
on card numbers (``Card.index``: suit ``index // 13``, and within a suit a lower index is a higher rank)
and flat lists, and builds error paths and messages only when it refuses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from .cards import CARD_TEXT, DECK, Card, Rank, Suit
from .errors import InvalidHand, describe, join_path, short_key
from .legal import renege_of
from .model import Award, Hand, Penalty, PenaltyKind, award, jack_outcome, penalty
from .rules import FIRST_DEAL, RuleSet
from .tally import PLAY_FIELDS, read_header

#: Card text (every accepted spelling) to card number (``Card.index``, 0..51).
_INDEX: Final[dict[str, int]] = {text: card.index for text, card in CARD_TEXT.items()}
#: Card number to suit number (the order of ``Suit``) and to card points.
_SUIT: Final[tuple[int, ...]] = tuple(i // 13 for i in range(52))
_POINTS: Final[tuple[int, ...]] = tuple(card.points for card in DECK)
_SUIT_NUMBER: Final[dict[Suit, int]] = {suit: i for i, suit in enumerate(Suit)}


#: ``_ORDER[players][leader]``: the seats in play order in a trick led by ``leader``.
_ORDER: Final = {n: [[(leader + i) % n for i in range(n)] for leader in range(n)] for n in (2, 3, 4)}
_JACK_OFFSET: Final = 3  # A K Q J: the jack is the fourth card of its suit
_NOT_DEALT: Final = -3
_KICKED: Final = -2
_PLAYED: Final = -1
_LAID_AWAY: Final = -4
_NONE: Final[list[Any]] = []  # an absent runs or discards: none (never mutated)
_MISSING: Final = object()
_WORDS: Final = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                 "twelve")

assert all(DECK[i].suit is list(Suit)[_SUIT[i]] for i in range(52))
assert all(DECK[_SUIT_NUMBER[s] * 13 + _JACK_OFFSET] is Card(Rank.JACK, s) for s in Suit)


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
                              f"{describe(key)} is not a field of a card-by-card hand record")
    header = read_header(raw, rules, path, score=score, dealer=dealer)
    if header.ends_game:
        _check_shape(raw, path)
        return Hand(header.dealer, False, header.abandoned, header.kicks, header.beg, trump=header.trump)
    trump_suit = header.trump
    assert trump_suit is not None and header.beg is not None  # read_header: a deal played out fixed trump
    trump = _SUIT_NUMBER[trump_suit]
    n = rules.players
    kicks = header.kicks
    runs_expected = len(kicks) - 1 if header.beg == "run" else 0
    card_number = _INDEX.__getitem__

    # ---- the cards dealt: deal, then each run ----------------------------------------------------
    dealt = [_NOT_DEALT] * 52  # card number -> seat it was dealt to (or kicked / not dealt)
    for card in kicks:
        dealt[card.index] = _KICKED
    deal = _field_list(raw, "deal", path)
    if len(deal) != n:
        raise InvalidHand("wrong_seat_count", join_path(path, "deal"),
                          f"The deal must list the cards of each of the {n} seats, not {len(deal)}")
    for seat in range(n):
        _deal_to(seat, deal[seat], FIRST_DEAL, dealt, path, f"deal[{seat}]")
    runs = raw.get("runs", _NONE)
    if type(runs) is not list:
        raise InvalidHand("wrong_type", join_path(path, "runs"),
                          f"runs must be a list (for each run, the cards of each seat), not {describe(runs)}")
    if len(runs) != runs_expected:
        if header.beg == "run":
            why = (f"{len(kicks)} kicks mean {_count(runs_expected, 'run')}, so runs must have "
                   f"{runs_expected} entries, not {len(runs)}")
        else:
            why = f"The beggar's word was {header.beg}, so the pack was not run and there are no runs"
        raise InvalidHand("wrong_run_count", join_path(path, "runs"), why)
    run_cards = rules.run_cards
    for r, run in enumerate(runs):
        if type(run) is not list:
            raise InvalidHand("wrong_type", f"{path}.runs[{r}]",
                              f"Each run must list the cards of each seat, not {describe(run)}")
        if len(run) != n:
            raise InvalidHand("wrong_seat_count", f"{path}.runs[{r}]",
                              f"Each run must list the cards of each of the {n} seats, not {len(run)}")
        for seat in range(n):
            _deal_to(seat, run[seat], run_cards, dealt, path, f"runs[{r}][{seat}]")

    # ---- discards: laid away, out of play ---------------------------------------------------------
    holder = dealt.copy()  # card number -> seat holding it now, or _LAID_AWAY, or _PLAYED
    held = FIRST_DEAL + runs_expected * run_cards
    lay_away = _lay_away(rules, held, runs_expected)
    discards = raw.get("discards", _NONE)
    if type(discards) is not list:
        raise InvalidHand("wrong_type", join_path(path, "discards"),
                          f"discards must list the cards each seat laid away, not {describe(discards)}")
    if lay_away == 0:
        if any(d != [] for d in discards):
            raise InvalidHand("unexpected_discards", join_path(path, "discards"),
                              _why_no_discards(rules, held, runs_expected))
    else:
        if len(discards) != n:
            what = "is missing" if not discards else f"lists {len(discards)} seats"
            raise InvalidHand("wrong_discard_count", join_path(path, "discards"),
                              f"After the run each of the {n} seats lays away {_count(lay_away, 'card')} "
                              f"to keep {rules.discard_to}: discards {what}")
        for seat in range(n):
            cards = discards[seat]
            where = f"{path}.discards[{seat}]"
            if type(cards) is not list:
                raise InvalidHand("wrong_type", where,
                                  f"Each seat's discards must be a list of cards, not {describe(cards)}")
            if len(cards) != lay_away:
                raise InvalidHand("wrong_discard_count", where,
                                  f"Seat {seat} holds {held} cards and keeps {rules.discard_to}, so lays away "
                                  f"{_count(lay_away, 'card')}, not {len(cards)}")
            for i, text in enumerate(cards):
                try:
                    idx = card_number(text)
                except (KeyError, TypeError):
                    raise _not_a_card(text, f"{where}[{i}]") from None
                if holder[idx] != seat:
                    raise InvalidHand("discard_not_held", f"{where}[{i}]",
                                      f"Seat {seat} cannot lay away {DECK[idx]}: " + _whose(idx, seat, dealt, holder))
                holder[idx] = _LAID_AWAY

    # ---- in play: High, Low and the Jack are fixed by the cards dealt and kept --------------------
    base = trump * 13
    high_idx = low_idx = -1  # the highest and lowest trumps in play (a lower number is a higher rank)
    for i in range(base, base + 13):
        if holder[i] >= 0:
            high_idx = i
            break
    if high_idx >= 0:
        for i in range(base + 12, high_idx - 1, -1):
            if holder[i] >= 0:
                low_idx = i
                break
    jack_idx = base + _JACK_OFFSET
    jack_seat = holder[jack_idx]

    # ---- the play ----------------------------------------------------------------------------------
    tricks = _field_list(raw, "tricks", path)
    per_seat = held - lay_away
    if len(tricks) != per_seat:
        raise InvalidHand("wrong_trick_count", join_path(path, "tricks"),
                          f"Each seat plays {_count(per_seat, 'card')}, so there are {per_seat} tricks, "
                          f"not {len(tricks)}")
    side_of = [rules.side_of(s) for s in range(n)]
    lift = [0] * rules.sides
    points_of = _POINTS
    suit_of = _SUIT
    follow_suit = rules.follow == "follow_or_trump"
    no_undertrump = rules.undertrump == "forbidden"
    penalties: list[Penalty] = []
    leader = rules.beggar(header.dealer)
    jack_won = low_won = -1
    order = _ORDER[n]
    for t in range(per_seat):
        trick = tricks[t]
        if type(trick) is not list or len(trick) != n:
            raise InvalidHand("wrong_trick_size", f"{path}.tricks[{t}]",
                              f"Each trick has one card from each of the {n} seats, in play order")
        try:
            numbers = list(map(card_number, trick))
        except (KeyError, TypeError):
            raise _first_bad_card(trick, f"{path}.tricks[{t}]") from None
        seats = order[leader]
        winner = leader
        top = numbers[0]
        lead = top_suit = suit_of[top]
        points = 0
        for idx, seat in zip(numbers, seats, strict=True):
            if holder[idx] != seat:
                i = seats.index(seat)
                raise _not_held(idx, seat, i, t, dealt, holder, f"{path}.tricks[{t}][{i}]")
            suit = suit_of[idx]
            if suit != lead:
                # off the suit led: legal unless the seat held a card it had to play
                if suit == trump:
                    suspect = no_undertrump
                elif lead == trump:
                    suspect = seat in holder[trump * 13:trump * 13 + 13]
                else:
                    suspect = follow_suit and seat in holder[lead * 13:lead * 13 + 13]
                if suspect:
                    offence = _offence(rules, trump_suit, holder, seat, numbers, numbers.index(idx))
                    if offence is not None:
                        penalties.append(penalty(offence, side_of[seat]))
                if suit == trump and (top_suit != trump or idx < top):
                    top, top_suit, winner = idx, trump, seat
            elif idx < top and top_suit == lead:  # a lower card number is a higher rank
                top, winner = idx, seat
            holder[idx] = -1  # _PLAYED
            points += points_of[idx]
        won_by = side_of[winner]
        lift[won_by] += points
        if jack_idx in numbers:
            jack_won = won_by
        if low_idx in numbers:
            low_won = won_by
        leader = winner

    if high_idx < 0:
        high = low = None
    else:
        high = award(side_of[dealt[high_idx]], DECK[high_idx])
        low = award(low_won if rules.low == "captured" else side_of[dealt[low_idx]], DECK[low_idx])
    jack = jack_outcome(side_of[jack_seat], jack_won) if jack_seat >= 0 else None
    return Hand(header.dealer, False, header.abandoned, kicks, header.beg, high, low, jack, tuple(lift),
                tuple(penalties), True, trump_suit)


def to_tally(raw: Mapping[str, Any], rules: RuleSet | str | Mapping[str, Any], path: str = "hand") -> dict[str, Any]:
    """The tally-form record (canonical cards) that scores exactly what a play-form record scores."""
    ruleset = rules if isinstance(rules, RuleSet) else RuleSet.from_spec(rules)
    return hand_to_tally(read_play_hand(raw, ruleset, path))


def hand_to_tally(hand: Hand) -> dict[str, Any]:
    """A ``Hand`` as a JSON-ready tally-form record (or misdeal record)."""
    out: dict[str, Any] = {"dealer": hand.dealer}
    if hand.misdeal:
        out["misdeal"] = True
        return out
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
def _lay_away(rules: RuleSet, held: int, runs: int) -> int:
    """Cards each seat lays away: only after a run where ``discard_to`` is set, down to that many."""
    keep = rules.discard_to
    if keep is None or not runs or held <= keep:
        return 0
    return held - keep


def _why_no_discards(rules: RuleSet, held: int, runs: int) -> str:
    if rules.discard_to is None:
        return "These rules keep every card: there are no discards"
    if not runs:
        return "Cards are laid away only after the pack was run"
    return f"Each seat holds {held} cards, no more than {rules.discard_to}: nothing is laid away"


def _offence(
    rules: RuleSet, trump: Suit, holder: list[int], seat: int, trick: list[int], i: int
) -> PenaltyKind | None:
    """The offence of the ``i``-th card of ``trick`` (card numbers), played by ``seat`` (the slow
    path, for a card off the suit led while the seat held a card it had to play)."""
    holding = [DECK[j] for j in range(52) if holder[j] == seat]
    return renege_of(rules, trump, holding, [DECK[j] for j in trick[:i]], DECK[trick[i]])


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
    value = raw.get(key, _MISSING)
    if value is _MISSING:
        raise InvalidHand("missing_field", join_path(path, key), f"A card-by-card record needs {key}")
    if type(value) is not list:
        raise InvalidHand("wrong_type", join_path(path, key), f"{key} must be a list, not {describe(value)}")
    return value


def _not_a_card(text: object, where: str) -> InvalidHand:
    return InvalidHand("bad_card", where,
                       f"{describe(text)} is not a card: write the rank then the suit, like 10H or AS")


def _first_bad_card(cards: list[Any], where: str) -> InvalidHand:
    """The error for the first of ``cards`` that does not parse."""
    i = next(i for i, text in enumerate(cards) if type(text) is not str or text not in _INDEX)
    return _not_a_card(cards[i], f"{where}[{i}]")


def _deal_to(seat: int, cards: object, size: int, dealt: list[int], path: str, field: str) -> None:
    """Mark ``cards`` (``size`` card texts at ``path.field``) as dealt to ``seat`` in ``dealt``."""
    if type(cards) is not list:
        raise InvalidHand("wrong_type", f"{path}.{field}", f"Seat {seat}'s cards must be a list, not {describe(cards)}")
    if len(cards) != size:
        rule = (f"Each seat is dealt {FIRST_DEAL} cards at first" if field.startswith("deal")
                else f"Each run gives every seat {_count(size, 'card')}")
        raise InvalidHand("wrong_card_count", f"{path}.{field}", f"{rule}: seat {seat} has {len(cards)}")
    try:
        numbers = list(map(_INDEX.__getitem__, cards))
    except (KeyError, TypeError):
        raise _first_bad_card(cards, f"{path}.{field}") from None
    for i, idx in enumerate(numbers):
        if dealt[idx] != _NOT_DEALT:
            raise _duplicate(idx, seat, dealt, f"{path}.{field}[{i}]")
        dealt[idx] = seat


def _duplicate(idx: int, seat: int, dealt: list[int], where: str) -> InvalidHand:
    first = dealt[idx]
    if first == _KICKED:
        was = "it is a kick of this deal, out of play"
    elif first == seat:
        was = f"it was dealt to seat {seat} already"
    else:
        was = f"it was dealt to seat {first} already"
    return InvalidHand("duplicate_card", where, f"{DECK[idx]} appears twice in the deal: {was}")


def _whose(idx: int, seat: int, dealt: list[int], holder: list[int]) -> str:
    owner = dealt[idx]
    if owner == _NOT_DEALT:
        return "it was not dealt"
    if owner == _KICKED:
        return "it is a kick, out of play"
    if owner != seat:
        return f"it was dealt to seat {owner}"
    if holder[idx] == _LAID_AWAY:
        return "it was laid away"
    return "it was played already"


def _not_held(idx: int, seat: int, i: int, t: int, dealt: list[int], holder: list[int], where: str) -> InvalidHand:
    """The error for card ``idx``, played ``i``-th in trick ``t`` by ``seat``, which does not hold it."""
    card = DECK[idx]
    owner = holder[idx]
    if i == 0 and owner >= 0:
        who = "the beggar" if t == 0 else f"the winner of trick {t}"
        return InvalidHand("wrong_leader", where,
                           f"Seat {seat}, {who}, leads trick {t + 1}, but {card} is seat {owner}'s card")
    if owner == _PLAYED and dealt[idx] == seat:
        return InvalidHand("card_already_played", where,
                           f"Seat {seat} cannot play {card} in trick {t + 1}: it was played in an earlier trick")
    return InvalidHand("card_not_held", where,
                       f"Seat {seat} cannot play {card} in trick {t + 1}: " + _whose(idx, seat, dealt, holder))


def _check_shape(raw: Mapping[str, Any], path: str) -> None:
    """The cards of a deal that ended the game are not scored, only checked for shape."""
    for key in ("deal", "runs", "discards", "tricks"):
        if key in raw:
            _check_nested(raw[key], 3 if key == "runs" else 2, join_path(path, key))


def _check_nested(value: object, levels: int, where: str) -> None:
    if levels == 0:
        if type(value) is not str or value not in _INDEX:
            raise _not_a_card(value, where)
        return
    if type(value) is not list:
        raise InvalidHand("wrong_type", where, f"Expected a list here, not {describe(value)}")
    for i, item in enumerate(value):
        _check_nested(item, levels - 1, f"{where}[{i}]")
