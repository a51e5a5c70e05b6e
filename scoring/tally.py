"""Reading a hand record's tally form (docs/hand-format.md) into a checked ``model.Hand``.

``read_header`` reads and checks what both forms share (``dealer``, ``misdeal``, ``abandoned``,
``kicks``, ``beg``); ``read_tally`` adds the counted fields of the tally form (``high``, ``low``,
``jack``, ``game``, ``penalties``) and every consistency check of docs/hand-format.md. Every refusal is an
``InvalidHand`` with a stable code, the JSON path of the first fault and a sentence.

Checks run in a fixed order, so "the first fault" is well defined: unknown field names, then the
header fields in the order above, then the shape of each counted field in the order above, then the
cross-checks between them (in the order of docs/hand-format.md's list).

This is the engine's hot path: the happy path builds no strings (paths are spelt out only when a
check fails) and takes shared value objects from ``model``'s look-ups.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, Final, NoReturn

from .cards import CARD_TEXT, PACK_POINTS, Card, Rank, Suit
from .errors import InvalidHand, describe, join_path, short_key
from .model import Award, Beg, Hand, JackOutcome, Penalty, PenaltyKind, award, jack_outcome, penalty
from .rules import RuleSet
from .score import scoring_kicks

_MISSING: Final = object()

#: Fields both forms share.
HEADER_FIELDS: Final = frozenset({"dealer", "abandoned", "kicks", "beg"})
#: Fields of the tally form.
TALLY_FIELDS: Final = HEADER_FIELDS | {"high", "low", "jack", "game", "penalties"}
#: Fields only the play form has: a hand with any of them is a card-by-card record.
PLAY_ONLY_FIELDS: Final = frozenset({"deal", "runs", "discards", "tricks"})
#: Fields of the play form.
PLAY_FIELDS: Final = HEADER_FIELDS | PLAY_ONLY_FIELDS

_BEGS: Final[dict[str, Beg]] = {"stand": "stand", "give": "give", "run": "run"}
_PENALTY_KINDS: Final[dict[str, PenaltyKind]] = {
    "revoke": "revoke", "trump_revoke": "trump_revoke", "undertrump": "undertrump"
}
_COUNTED: Final = ("high", "low", "jack", "game")
#: Each spelling of a card to the one-kick tuple ``(card,)``: the usual deal's kicks in one look-up.
_ONE_KICK: Final[dict[str, tuple[Card, ...]]] = {text: (card,) for text, card in CARD_TEXT.items()}
_TRUMP_JACK: Final[dict[Suit, Card]] = {suit: Card(Rank.JACK, suit) for suit in Suit}
_JACK_RANK: Final = Rank.JACK
_CARD_HINT: Final = "is not a card: write the rank then the suit, like 10H or AS"
#: High and Low as written (side, card text) to their shared ``Award``: parsing is one look-up.
_AWARD_BY_TEXT: Final[dict[tuple[int, object], Award]] = {}
#: ``_JACKS[held_by][won_by]``: the shared ``JackOutcome`` for sides 0 to 3.
_JACKS: Final = tuple(tuple(jack_outcome(held_by, won_by) for won_by in range(4)) for held_by in range(4))
#: Builds a ``Hand`` from its twelve fields without the named tuple's keyword handling.
_new_hand: Final = tuple.__new__


@dataclasses.dataclass(frozen=True, slots=True)
class Header:
    """What both forms of a hand record share, checked.

    ``trump`` is the suit the deal fixed, or ``None`` when the record stops before trump was fixed
    (the game was won by a kick before the beggar's choice) or for a misdeal. ``ends_game`` is true
    when the game is won during the deal (a kick or the gift reaches the target): the rest of the
    record is then only checked for shape, never cross-checked nor scored. It can only be true when
    ``read_header`` was given the score before the hand.
    """

    dealer: int
    misdeal: bool = False
    abandoned: tuple[tuple[Card, ...], ...] = ()
    kicks: tuple[Card, ...] = ()
    beg: Beg | None = None
    trump: Suit | None = None
    ends_game: bool = False


_HeaderFields = tuple[int, bool, tuple[tuple[Card, ...], ...], tuple[Card, ...], "Beg | None", "Suit | None", bool]


def read_header(
    raw: Mapping[str, Any],
    rules: RuleSet,
    path: str,
    *,
    score: Sequence[int] | None = None,
    dealer: int | None = None,
) -> Header:
    """Read and check ``dealer``, ``misdeal``, ``abandoned``, ``kicks`` and ``beg`` of a hand record.

    Checks: the dealer is a seat (and, when ``dealer`` is given, the seat expected to deal:
    ``wrong_dealer``); a misdeal record is ``{"dealer", "misdeal": true}`` and nothing else; every
    card parses; no card is kicked twice in one deal; each abandoned deal is R+1 distinct kicks of one
    suit (R = ``rules.max_runs``); ``beg`` is one of the three words (required under
    ``every_kick_scores: false``); the kicks fit ``beg`` and the pack (stand and give: one kick; run:
    two to R+1 kicks, all but the last of the first kick's suit, the last of another suit); a gift
    that would win where ``gift_can_win`` is false.

    Unknown field names are the caller's check (each form has its own fields).

    ``score`` is the score before the hand (already checked: one whole number per side, below the
    target). With it, the reader knows whether the game ends during the deal: the winning kick must
    then be the last one listed, whatever its suit, and ``beg`` may be left out (if given, it must
    fit the kicks listed: more than one kick means ``run``); ``ends_game`` is set and the caller must
    only check the rest for shape. Without ``score`` the deal is checked as a deal that did not end
    the game (every check above applies, ``ends_game`` is false, and a winning gift is not detected).
    """
    if type(raw) is not dict and not isinstance(raw, Mapping):
        raise InvalidHand("wrong_type", path, f"A hand must be an object, not {describe(raw)}")
    return Header(*_header_fields(raw, rules, path, score, dealer))


def _header_fields(
    raw: Mapping[str, Any], rules: RuleSet, path: str, score: Sequence[int] | None, dealer: int | None
) -> _HeaderFields:
    """``read_header``'s work, as a plain tuple of ``Header``'s fields (the tally form's fast path)."""
    seat = raw.get("dealer", _MISSING)
    if type(seat) is not int:
        if seat is _MISSING:
            raise InvalidHand("missing_field", join_path(path, "dealer"), "The dealer's seat is missing")
        raise InvalidHand("wrong_type", join_path(path, "dealer"),
                          f"The dealer must be a seat number, not {describe(seat)}")
    players = rules.players
    if not 0 <= seat < players:
        raise InvalidHand("bad_seat", join_path(path, "dealer"),
                          f"Seat {describe(seat)} does not exist: with {players} players the seats are 0 to {players - 1}")
    if dealer is not None and seat != dealer:
        raise InvalidHand("wrong_dealer", join_path(path, "dealer"),
                          f"Seat {dealer} deals this hand, not seat {seat}")
    if "misdeal" in raw:
        if raw["misdeal"] is not True:
            raise InvalidHand("bad_misdeal", join_path(path, "misdeal"), "misdeal is either true or left out")
        for key in raw:
            if key != "dealer" and key != "misdeal":
                raise InvalidHand("misdeal_extra_field", join_path(path, short_key(key)),
                                  'A misdeal record is only {"dealer", "misdeal": true}: '
                                  "nothing of a misdealt hand is scored")
        return (seat, True, (), (), None, None, False)

    # ---- abandoned deals ------------------------------------------------------------------------
    abandoned: tuple[tuple[Card, ...], ...] = ()
    raw_abandoned = raw.get("abandoned", _MISSING)
    if raw_abandoned is not _MISSING:
        abandoned = _read_abandoned(raw_abandoned, rules.max_runs, join_path(path, "abandoned"))

    # ---- kicks ----------------------------------------------------------------------------------
    raw_kicks = raw.get("kicks", _MISSING)
    if type(raw_kicks) is not list:
        if raw_kicks is _MISSING:
            raise InvalidHand("missing_field", join_path(path, "kicks"), "The kicks are missing")
        raise InvalidHand("wrong_type", join_path(path, "kicks"),
                          f"kicks must be a list of cards, not {describe(raw_kicks)}")
    if len(raw_kicks) == 1:  # the usual deal: one kick
        text = raw_kicks[0]
        try:
            one = _ONE_KICK.get(text)  # keys are card texts: anything else is None
        except TypeError:  # unhashable
            one = None
        if one is None:
            raise InvalidHand("bad_card", f"{join_path(path, 'kicks')}[0]", f"{describe(text)} {_CARD_HINT}")
        kicks: tuple[Card, ...] = one
    elif not raw_kicks:
        raise InvalidHand("no_kicks", join_path(path, "kicks"), "Every deal turns at least one kick")
    else:
        kicks = _read_kicks(raw_kicks, join_path(path, "kicks"))

    # ---- beg ------------------------------------------------------------------------------------
    beg: Beg | None = None
    raw_beg = raw.get("beg", _MISSING)
    if raw_beg is not _MISSING:
        try:
            beg = _BEGS.get(raw_beg)  # keys are the three words: anything else is None
        except TypeError:  # unhashable
            beg = None
        if beg is None:
            raise InvalidHand("bad_beg", join_path(path, "beg"),
                              f"beg must be stand, give or run, not {describe(raw_beg)}")
    elif not rules.every_kick_scores:
        raise InvalidHand("missing_beg", join_path(path, "beg"),
                          "beg is required under these rules: a kick scores only once it is known to fix trump")

    # ---- does a kick win the game? ----------------------------------------------------------------
    won_at = -1  # index into scoring_kicks(...) of the kick that wins the game, if one does
    if score is None:
        pass
    elif len(kicks) == 1 and not abandoned and rules.every_kick_scores:  # the usual deal
        points = rules.kick_value.get(kicks[0].rank)
        if points is not None and score[seat % 2 if players == 4 else seat] + points >= rules.target:
            won_at = 0
    else:
        value = rules.kick_value
        need = rules.target - score[seat % 2 if players == 4 else seat]  # the dealer's side
        for i, card in enumerate(scoring_kicks(rules, abandoned, kicks, beg)):
            points = value.get(card.rank)
            if points is not None:
                need -= points
                if need <= 0:
                    won_at = i
                    break
    if won_at >= 0 and rules.every_kick_scores:
        return _deal_won_by_kick(rules, path, seat, abandoned, kicks, beg, won_at)

    # ---- the deal was played out: the kicks fit beg and the pack ----------------------------------
    if beg is None:
        raise InvalidHand("missing_beg", join_path(path, "beg"),
                          "beg is missing: the hand was played, so the beggar stood or begged (stand, give or run)")
    if beg == "run" or len(kicks) != 1:
        _check_kicks_fit_beg(rules, path, kicks, beg)
    ends_game = won_at >= 0  # only the kick that fixed trump scored, and it won
    if not ends_game and beg == "give" and score is not None:
        ends_game = _gift_wins(rules, path, seat, score)
    return (seat, False, abandoned, kicks, beg, kicks[-1].suit, ends_game)


def _read_abandoned(value: Any, runs: int, where: str) -> tuple[tuple[Card, ...], ...]:
    if type(value) is not list:
        raise InvalidHand("wrong_type", where,
                          f"abandoned must be a list of deals, each a list of kicks, not {describe(value)}")
    deals = []
    for d, raw_deal in enumerate(value):
        at = f"{where}[{d}]"
        if type(raw_deal) is not list:
            raise InvalidHand("wrong_type", at, f"An abandoned deal must be a list of kicks, not {describe(raw_deal)}")
        deal = _read_kicks(raw_deal, at)
        for i, card in enumerate(deal):
            if card.suit is not deal[0].suit:
                raise InvalidHand("abandoned_suit", f"{at}[{i}]",
                                  f"{card} has another suit than {deal[0]}: a deal is abandoned only when "
                                  "every kick has the first kick's suit")
        if len(deal) != runs + 1:
            raise InvalidHand("abandoned_length", at,
                              f"An abandoned deal has exactly {runs + 1} kicks (the first and one per run; "
                              f"the pack allows {runs} runs), not {len(deal)}")
        deals.append(deal)
    return tuple(deals)


def _read_kicks(raw: list[Any], where: str) -> tuple[Card, ...]:
    """Parse the kicks of one deal; no card twice."""
    cards: list[Card] = []
    for i, text in enumerate(raw):
        card = CARD_TEXT.get(text) if type(text) is str else None
        if card is None:
            raise InvalidHand("bad_card", f"{where}[{i}]", f"{describe(text)} {_CARD_HINT}")
        if card in cards:
            raise InvalidHand("kicked_twice", f"{where}[{i}]",
                              f"{card} is kicked twice in one deal: each card can be turned only once")
        cards.append(card)
    return tuple(cards)


def _deal_won_by_kick(
    rules: RuleSet,
    path: str,
    seat: int,
    abandoned: tuple[tuple[Card, ...], ...],
    kicks: tuple[Card, ...],
    beg: Beg | None,
    won_at: int,
) -> _HeaderFields:
    """Check a deal whose kick ``won_at`` (counted over abandoned deals then kicks) won the game."""
    for d, deal in enumerate(abandoned):
        if won_at < len(deal):
            raise InvalidHand(
                "kick_after_win", f"{join_path(path, 'abandoned')}[{d}][{won_at}]",
                f"{deal[won_at]} won the game as it was turned: the record ends there, so it is the last kick "
                "listed, in kicks, even though the deal would later have been abandoned")
        won_at -= len(deal)
    k = won_at
    if k < len(kicks) - 1:
        raise InvalidHand("kick_after_win", f"{join_path(path, 'kicks')}[{k + 1}]",
                          f"{kicks[k]} won the game as it was turned: no kick can follow it")
    first = kicks[0].suit
    for i in range(1, k):
        if kicks[i].suit is not first:
            raise InvalidHand("run_kick_suit", f"{join_path(path, 'kicks')}[{i}]",
                              f"{kicks[i]} has another suit than the first kick {kicks[0]}, so it fixed trump "
                              "and ended the run: no kick can follow it")
    runs = rules.max_runs
    if k > runs:
        raise InvalidHand("too_many_kicks", f"{join_path(path, 'kicks')}[{runs + 1}]",
                          f"The pack allows at most {runs} runs ({runs + 1} kicks in one deal); "
                          "a deal that runs out goes under abandoned")
    if k >= 1 and beg is not None and beg != "run":  # beg may be left out; if given it must fit
        raise InvalidHand("kicks_for_beg", join_path(path, "beg"),
                          f"beg is {beg}, but {len(kicks)} kicks mean the dealer ran the pack")
    trump = kicks[k].suit if k >= 1 and kicks[k].suit is not first else None
    return (seat, False, abandoned, kicks, beg, trump, True)


def _check_kicks_fit_beg(rules: RuleSet, path: str, kicks: tuple[Card, ...], beg: Beg) -> None:
    """The kicks of a deal that was played out (no kick won the game) fit ``beg`` and the pack."""
    n = len(kicks)
    if beg != "run":
        if n != 1:
            raise InvalidHand("kicks_for_beg", f"{join_path(path, 'kicks')}[1]",
                              f"After {beg} only one card is kicked; more kicks mean the dealer ran the pack (beg: run)")
        return
    if n < 2:
        raise InvalidHand("kicks_for_beg", join_path(path, "kicks"),
                          "Running the pack turns a new kick: list the first kick and every kick of the run")
    first = kicks[0].suit
    for i in range(1, n - 1):
        if kicks[i].suit is not first:
            raise InvalidHand("run_kick_suit", f"{join_path(path, 'kicks')}[{i}]",
                              f"{kicks[i]} has another suit than the first kick {kicks[0]}, so it fixed trump "
                              "and ended the run: no kick can follow it")
    if kicks[-1].suit is first:
        raise InvalidHand("run_last_same_suit", f"{join_path(path, 'kicks')}[{n - 1}]",
                          f"The run goes on while the kick has the first kick's suit ({first}): the last kick "
                          f"{kicks[-1]} must have another suit, which is trump (a deal where the pack runs out "
                          "goes under abandoned)")
    runs = rules.max_runs
    if n > runs + 1:
        raise InvalidHand("too_many_kicks", f"{join_path(path, 'kicks')}[{runs + 1}]",
                          f"The pack allows at most {runs} runs ({runs + 1} kicks in one deal); "
                          "a deal that runs out goes under abandoned")


def _gift_wins(rules: RuleSet, path: str, seat: int, score: Sequence[int]) -> bool:
    """Whether the gift wins the game; refused where ``gift_can_win`` is false."""
    points = rules.gift_points
    if points <= 0:
        return False
    target = rules.target
    dealer_side = rules.side_of(seat)
    for side in range(rules.sides):
        if side != dealer_side and score[side] + points >= target:
            if not rules.gift_can_win:
                raise InvalidHand("gift_would_win", join_path(path, "beg"),
                                  f"Giving one would take side {side} to {score[side] + points}, out of "
                                  f"{target}: under these rules a gift may not win the game, so the dealer "
                                  "must run the pack")
            return True
    return False


# ---- the tally form ------------------------------------------------------------------------------------
def read_tally(
    raw: Mapping[str, Any],
    rules: RuleSet,
    path: str,
    score: Sequence[int] | None = None,
    dealer: int | None = None,
) -> Hand:
    """Read and check a tally-form hand record (or a misdeal record) into a ``Hand``.

    ``score`` and ``dealer`` are as for ``read_header``: with the score, a record the game ended
    during the deal may stop after the winning kick or gift; what follows is checked for shape only.
    """
    if type(raw) is not dict and not isinstance(raw, Mapping):
        raise InvalidHand("wrong_type", path, f"A hand must be an object, not {describe(raw)}")
    if not TALLY_FIELDS.issuperset(raw) and "misdeal" not in raw:
        for key in raw:
            if key not in TALLY_FIELDS:
                raise InvalidHand("unknown_field", join_path(path, short_key(key)),
                                  f"{describe(key)} is not a field of a hand record")
    return read_known_tally(raw, rules, path, score, dealer)


def read_known_tally(
    raw: Mapping[str, Any], rules: RuleSet, path: str, score: Sequence[int] | None, dealer: int | None
) -> Hand:
    """``read_tally`` for a record whose field names are already known to be the tally form's (or a
    misdeal's): what a game document's reader calls after its own check."""
    seat, misdeal, abandoned, kicks, beg, trump, ends_game = _header_fields(raw, rules, path, score, dealer)
    if misdeal:
        return Hand(seat, misdeal=True)

    # ---- the shape of each counted field, in order ------------------------------------------------
    raw_high = raw.get("high", _MISSING)
    raw_low = raw.get("low", _MISSING)
    raw_jack = raw.get("jack", _MISSING)
    raw_game = raw.get("game", _MISSING)
    if not ends_game and (raw_high is _MISSING or raw_low is _MISSING or raw_jack is _MISSING or raw_game is _MISSING):
        for name in _COUNTED:
            if name not in raw:
                raise InvalidHand("missing_field", join_path(path, name),
                                  f"{name} is missing: once the hand is played, high, low, jack and game are "
                                  "required (null is a value: high and low are null when no trump was dealt)")
    if ends_game:  # the game was won during the deal: the rest is neither cross-checked nor scored
        _check_counted_shape(raw, path)
        return Hand(seat, False, abandoned, kicks, beg, trump=trump)
    sides = rules.sides
    # Each field has a quick path for the usual well-formed value; anything else takes the careful
    # reader, which accepts the same values and refuses the rest with the right error.
    high = low = None
    try:
        if type(raw_high) is dict and len(raw_high) == 2 and type(side := raw_high.get("side")) is int:
            high = _AWARD_BY_TEXT.get((side, raw_high.get("card")))
        if type(raw_low) is dict and len(raw_low) == 2 and type(side := raw_low.get("side")) is int:
            low = _AWARD_BY_TEXT.get((side, raw_low.get("card")))
    except TypeError:  # an unhashable card: the careful reader says what is wrong
        pass
    if high is None or high.side >= sides:
        high = None if raw_high is None or raw_high is _MISSING else _read_award(raw_high, path, "high", sides)
    if low is None or low.side >= sides:
        low = None if raw_low is None or raw_low is _MISSING else _read_award(raw_low, path, "low", sides)
    jack = None
    if type(raw_jack) is dict and len(raw_jack) == 2:
        held_by = raw_jack.get("held_by")
        won_by = raw_jack.get("won_by")
        if type(held_by) is int and type(won_by) is int and 0 <= held_by < sides and 0 <= won_by < sides:
            jack = _JACKS[held_by][won_by]
    if jack is None and raw_jack is not None and raw_jack is not _MISSING:
        jack = _read_jack(raw_jack, path, sides)
    game: tuple[int, ...] | None = None
    if type(raw_game) is list and len(raw_game) == 2 == sides:
        first, second = raw_game
        if type(first) is int and type(second) is int and first >= 0 and second >= 0:
            game = (first, second)
    if game is None and raw_game is not _MISSING:
        game = _read_game(raw_game, path, sides)
    raw_penalties = raw.get("penalties", _MISSING)
    penalties = () if raw_penalties is _MISSING else _read_penalties(raw_penalties, path, sides)
    assert trump is not None and game is not None  # a deal played out fixed trump; game was required
    _cross_check(rules, path, kicks, trump, high, low, jack, game, penalties)
    hand = _new_hand(Hand, (seat, False, abandoned, kicks, beg, high, low, jack, game, penalties, True, trump))
    return hand


#: The JSON Schema's sides (0 to 3) and lengths of ``game`` (2 to 4): all that is checked of the
#: counted fields of a record whose game was won during the deal.
_SCHEMA_SIDES: Final = 4
_SCHEMA_GAME_LENGTHS: Final = range(2, 5)


def _check_counted_shape(raw: Mapping[str, Any], path: str) -> None:
    """The counted fields of a deal that ended the game, if present: well-formed (the JSON Schema),
    never cross-checked: a side is 0 to 3 whatever the number of players, ``game`` 2 to 4 numbers."""
    for name in ("high", "low"):
        value = raw.get(name)
        if value is not None:
            _read_award(value, path, name, _SCHEMA_SIDES)
    value = raw.get("jack")
    if value is not None:
        _read_jack(value, path, _SCHEMA_SIDES)
    value = raw.get("game", _MISSING)
    if value is not _MISSING:
        if type(value) is not list or len(value) not in _SCHEMA_GAME_LENGTHS:
            raise InvalidHand("bad_game", join_path(path, "game"),
                              f"game must list the card points in the lift of each side, not {describe(value)}"
                              + (f" of {len(value)}" if type(value) is list else ""))
        _read_game(value, path, len(value))
    value = raw.get("penalties", _MISSING)
    if value is not _MISSING:
        _read_penalties(value, path, _SCHEMA_SIDES)


def _read_award(value: Any, path: str, name: str, sides: int) -> Award | None:
    """High or Low: ``null`` or ``{"side", "card"?}``."""
    if value is None:
        return None
    if type(value) is not dict and not isinstance(value, Mapping):
        raise InvalidHand("wrong_type", join_path(path, name),
                          f"{name} must be null or an object with the side that scores it and the card, "
                          f"not {describe(value)}")
    side = value.get("side")
    text = value.get("card", _MISSING)
    if type(side) is int and 0 <= side < sides and len(value) == (1 if text is _MISSING else 2):
        if type(text) is str:
            found = _AWARD_BY_TEXT.get((side, text))
            if found is not None:
                return found
            card = CARD_TEXT.get(text)
            if card is not None:
                found = _AWARD_BY_TEXT[(side, text)] = award(side, card)
                return found
        elif text is _MISSING:
            return award(side, None)
        raise InvalidHand("bad_card", f"{join_path(path, name)}.card", f"{describe(text)} {_CARD_HINT}")
    where = join_path(path, name)
    for key in value:
        if key != "side" and key != "card":
            raise InvalidHand("unknown_field", f"{where}.{short_key(key)}",
                              f"{describe(key)} is not a field of {name} (side, card)")
    _bad_side(value.get("side", _MISSING), f"{where}.side", sides)
    raise AssertionError("unreachable")  # pragma: no cover


def _bad_side(side: Any, where: str, sides: int) -> NoReturn:
    """Raise the right error for a side that is missing, not a number, or out of range."""
    name = where.rsplit(".", 1)[-1]
    if side is _MISSING:
        raise InvalidHand("missing_field", where, f"{name} is missing")
    if type(side) is not int:
        raise InvalidHand("wrong_type", where, f"{name} must be a side number, not {describe(side)}")
    raise InvalidHand("bad_side", where, f"Side {describe(side)} does not exist: the sides are 0 to {sides - 1}")


def _read_jack(value: Any, path: str, sides: int) -> JackOutcome:
    """The jack of trumps: ``{"held_by", "won_by"}`` (``null`` is handled by the caller)."""
    if type(value) is not dict and not isinstance(value, Mapping):
        raise InvalidHand("wrong_type", join_path(path, "jack"),
                          f"jack must be null or an object with held_by and won_by, not {describe(value)}")
    held_by = value.get("held_by", _MISSING)
    won_by = value.get("won_by", _MISSING)
    if len(value) != (held_by is not _MISSING) + (won_by is not _MISSING):
        for key in value:
            if key != "held_by" and key != "won_by":
                raise InvalidHand("unknown_field", f"{join_path(path, 'jack')}.{short_key(key)}",
                                  f"{describe(key)} is not a field of jack (held_by, won_by)")
    if type(held_by) is not int or not 0 <= held_by < sides:
        _bad_side(held_by, f"{join_path(path, 'jack')}.held_by", sides)
    if type(won_by) is not int or not 0 <= won_by < sides:
        _bad_side(won_by, f"{join_path(path, 'jack')}.won_by", sides)
    return jack_outcome(held_by, won_by)


def _read_game(value: Any, path: str, sides: int) -> tuple[int, ...]:
    """Game: the card points in each side's lift."""
    if type(value) is not list or len(value) != sides:
        of = f" of {len(value)}" if type(value) is list else ""
        raise InvalidHand("bad_game", join_path(path, "game"),
                          f"game must list the card points in the lift of each of the {sides} sides, "
                          f"not {describe(value)}{of}")
    for i, points in enumerate(value):
        if type(points) is not int or points < 0:
            raise InvalidHand("bad_game", f"{join_path(path, 'game')}[{i}]",
                              f"Card points are a whole number of at least 0, not {describe(points)}")
    return tuple(value)


def _read_penalties(value: Any, path: str, sides: int) -> tuple[Penalty, ...]:
    """The penalties, in the order they happened: ``[{"kind", "side"}, ...]``."""
    where = join_path(path, "penalties")
    if type(value) is not list:
        raise InvalidHand("wrong_type", where, f"penalties must be a list, not {describe(value)}")
    penalties = []
    for i, item in enumerate(value):
        at = f"{where}[{i}]"
        if type(item) is not dict and not isinstance(item, Mapping):
            raise InvalidHand("wrong_type", at, f"A penalty must be an object with kind and side, not {describe(item)}")
        for key in item:
            if key != "kind" and key != "side":
                raise InvalidHand("unknown_field", join_path(at, short_key(key)),
                                  f"{describe(key)} is not a field of a penalty (kind, side)")
        if "kind" not in item:
            raise InvalidHand("missing_field", join_path(at, "kind"), "The penalty's kind is missing")
        text = item["kind"]
        kind = _PENALTY_KINDS.get(text) if type(text) is str else None
        if kind is None:
            raise InvalidHand("unknown_penalty", join_path(at, "kind"),
                              f"{describe(text)} is not a penalty: revoke, trump_revoke or undertrump")
        side = item.get("side", _MISSING)
        if type(side) is not int or not 0 <= side < sides:
            _bad_side(side, join_path(at, "side"), sides)
        penalties.append(penalty(kind, side))
    return tuple(penalties)


def _cross_check(
    rules: RuleSet,
    path: str,
    kicks: tuple[Card, ...],
    trump: Suit,
    high: Award | None,
    low: Award | None,
    jack: JackOutcome | None,
    game: tuple[int, ...],
    penalties: tuple[Penalty, ...],
) -> None:
    """The consistency checks of docs/hand-format.md between the counted fields of a played hand."""
    low_dealt = rules.low == "dealt"

    # High and Low: both or neither; trumps in play; Low not above High; one card, one side
    if high is None or low is None:
        if high is not low:
            missing, given = ("high", "low") if high is None else ("low", "high")
            raise InvalidHand("high_without_low", join_path(path, missing),
                              f"{missing} is null but {given} is given: both are null when no trump was dealt, "
                              "otherwise both are given")
        high_card = low_card = None
    else:
        high_card = high.card
        low_card = low.card
        if high_card is not None and (high_card.suit is not trump or high_card in kicks):
            _not_in_play(high_card, "High", trump, kicks, path, "high")
        if low_card is not None:
            if low_card.suit is not trump or low_card in kicks:
                _not_in_play(low_card, "Low", trump, kicks, path, "low")
            if high_card is not None:
                if low_card.rank > high_card.rank:
                    raise InvalidHand("low_above_high", f"{join_path(path, 'low')}.card",
                                      f"{low_card} cannot be Low: it is above the High card {high_card}")
                if low_card is high_card and low_dealt and high.side != low.side:
                    raise InvalidHand("high_low_sides_differ", f"{join_path(path, 'low')}.side",
                                      f"{high_card} is both High and Low, the only trump in play, so one side was "
                                      f"dealt it and scores both: not side {high.side} for High and side "
                                      f"{low.side} for Low")

    # The jack of trumps
    trump_jack = _TRUMP_JACK[trump]
    if jack is not None:
        if high is None:
            raise InvalidHand("jack_without_trump", join_path(path, "jack"),
                              "High and Low are null, so no trump was dealt: jack must be null too")
        if kicks[-1] is trump_jack:
            raise InvalidHand("jack_kicked", join_path(path, "jack"),
                              f"{trump_jack} was kicked, so it is out of play: jack must be null")
    if high_card is trump_jack:
        assert high is not None
        _check_jack_named(jack, high.side, "High", trump_jack, path)
    if low_card is trump_jack and low_dealt:  # docs/hand-format.md: "for Low, only where low is dealt"
        assert low is not None
        _check_jack_named(jack, low.side, "Low", trump_jack, path)
    if jack is not None:
        if high_card is not None and high_card.rank < _JACK_RANK:
            raise InvalidHand("high_below_jack", f"{join_path(path, 'high')}.card",
                              f"{high_card} cannot be High: the jack of trumps {trump_jack} was in play and "
                              "ranks above it")
        if low_card is not None and low_card.rank > _JACK_RANK:
            raise InvalidHand("low_above_jack", f"{join_path(path, 'low')}.card",
                              f"{low_card} cannot be Low: the jack of trumps {trump_jack} was in play and "
                              "ranks below it")

    # Game: the card points of the lift
    if len(kicks) == 1:
        in_play = PACK_POINTS - kicks[0].points
    else:
        in_play = PACK_POINTS - sum([card.points for card in kicks])
    total = sum(game)
    if total > in_play:
        raise InvalidHand("game_points_too_many", join_path(path, "game"),
                          f"The lifts hold {describe(total)} card points, but the cards in play hold at most {in_play} "
                          f"(80 in the pack, less this deal's kicks)")
    if jack is not None and game[jack.won_by] == 0:
        raise InvalidHand("jack_winner_no_points", f"{join_path(path, 'game')}[{jack.won_by}]",
                          f"Side {jack.won_by} won the jack of trumps, worth 1 card point, so its lift cannot "
                          "hold 0 card points")

    # Penalties: an undertrump only where undertrumping is forbidden
    if penalties and rules.undertrump == "allowed":
        for i, offence in enumerate(penalties):
            if offence.kind == "undertrump":
                raise InvalidHand("undertrump_allowed", f"{join_path(path, 'penalties')}[{i}].kind",
                                  "Undertrumping is allowed under these rules, so it is no penalty")


def _not_in_play(card: Card, title: str, trump: Suit, kicks: tuple[Card, ...], path: str, name: str) -> NoReturn:
    """Refuse a High or Low card that was kicked or is not a trump."""
    if card in kicks:
        raise InvalidHand("card_was_kicked", f"{join_path(path, name)}.card",
                          f"{card} was kicked: a kicked card is out of play, never High or Low")
    raise InvalidHand("not_trump", f"{join_path(path, name)}.card",
                      f"{card} cannot be {title}: trump is {trump.name.lower()} ({trump})")


def _check_jack_named(jack: JackOutcome | None, side: int, title: str, trump_jack: Card, path: str) -> None:
    """High (or, where Low goes to the side dealt it, Low) is the jack of trumps: ``jack`` must say so,
    dealt to the same side."""
    if jack is None:
        raise InvalidHand("jack_missing", join_path(path, "jack"),
                          f"{title} is the jack of trumps {trump_jack}, so the jack was in play: jack cannot be null")
    if jack.held_by != side:
        raise InvalidHand("jack_holder_mismatch", f"{join_path(path, 'jack')}.held_by",
                          f"{title} is the jack {trump_jack}, dealt to side {side}: jack.held_by cannot be "
                          f"side {jack.held_by}")
