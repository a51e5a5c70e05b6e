"""Reading a hand record's tally form (HAND_FORMAT.md) into a checked ``model.Hand``.

``read_header`` reads and checks what both forms share (``dealer``, ``misdeal``, ``abandoned``,
``kicks``, ``beg``); ``read_tally`` adds the counted fields of the tally form (``high``, ``low``,
``jack``, ``game``, ``penalties``) and every consistency check of HAND_FORMAT.md. Every refusal is an
``InvalidHand`` with a stable code, the JSON path of the first fault and a sentence.

Checks run in a fixed order, so "the first fault" is well defined: unknown field names, then the
header fields in the order above, then the shape of each counted field in the order above, then the
cross-checks between them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, Final

from .cards import CARD_TEXT, PACK_POINTS, Card, Rank, Suit
from .errors import InvalidHand, describe, join_path, short_key
from .model import Award, Beg, Hand, JackOutcome, Penalty, PenaltyKind
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
_SIDECARD_FIELDS: Final = frozenset({"side", "card"})
_JACK_FIELDS: Final = frozenset({"held_by", "won_by"})
_PENALTY_FIELDS: Final = frozenset({"kind", "side"})
_COUNTED: Final = ("high", "low", "jack", "game")


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
    suit (R = ``rules.max_runs``); ``beg`` is one of the three words; the kicks fit ``beg`` and the
    pack (stand and give: one kick; run: two to R+1 kicks, all but the last of the first kick's suit,
    the last of another suit); a gift that would win where ``gift_can_win`` is false.

    Unknown field names are the caller's check (each form has its own fields).

    ``score`` is the score before the hand (already checked: one whole number per side, below the
    target). With it, the reader knows whether the game ends during the deal: the winning kick must
    then be the last one listed, whatever its suit, and ``beg`` may be left out if it came after the
    winning kick; ``ends_game`` is set and the caller must only check the rest for shape. Without
    ``score`` the deal is checked as a deal that did not end the game (every check above applies,
    ``ends_game`` is false, and a winning gift is not detected).
    """
    if not isinstance(raw, Mapping):
        raise InvalidHand("wrong_type", path, f"A hand must be an object, not {describe(raw)}")
    seat = raw.get("dealer", _MISSING)
    if type(seat) is not int:
        if seat is _MISSING:
            raise InvalidHand("missing_field", join_path(path, "dealer"), "The dealer's seat is missing")
        raise InvalidHand("wrong_type", join_path(path, "dealer"),
                          f"The dealer must be a seat number, not {describe(seat)}")
    players = rules.players
    if not 0 <= seat < players:
        raise InvalidHand("bad_seat", join_path(path, "dealer"),
                          f"Seat {seat} does not exist: with {players} players the seats are 0 to {players - 1}")
    if dealer is not None and seat != dealer:
        raise InvalidHand("wrong_dealer", join_path(path, "dealer"),
                          f"Seat {dealer} deals this hand, not seat {seat}")
    if "misdeal" in raw:
        if raw["misdeal"] is not True:
            raise InvalidHand("bad_misdeal", join_path(path, "misdeal"),
                              "misdeal is either true or left out")
        for key in raw:
            if key != "dealer" and key != "misdeal":
                raise InvalidHand("misdeal_extra_field", join_path(path, short_key(key)),
                                  'A misdeal record is only {"dealer", "misdeal": true}: '
                                  "nothing of a misdealt hand is scored")
        return Header(seat, True)

    # ---- abandoned deals ------------------------------------------------------------------------
    abandoned: tuple[tuple[Card, ...], ...] = ()
    runs = rules.max_runs
    raw_abandoned = raw.get("abandoned", _MISSING)
    if raw_abandoned is not _MISSING:
        if type(raw_abandoned) is not list:
            raise InvalidHand("wrong_type", join_path(path, "abandoned"),
                              f"abandoned must be a list of deals, each a list of kicks, not {describe(raw_abandoned)}")
        deals = []
        for d, raw_deal in enumerate(raw_abandoned):
            where = f"{join_path(path, 'abandoned')}[{d}]"
            if type(raw_deal) is not list:
                raise InvalidHand("wrong_type", where,
                                  f"An abandoned deal must be a list of kicks, not {describe(raw_deal)}")
            deal = _read_cards(raw_deal, where, "kick")
            first = deal[0].suit if deal else None
            for i, card in enumerate(deal):
                if card.suit is not first:
                    raise InvalidHand("abandoned_suit", f"{where}[{i}]",
                                      f"{card} has another suit than {deal[0]}: a deal is abandoned only when "
                                      "every kick has the first kick's suit")
            if len(deal) != runs + 1:
                raise InvalidHand("abandoned_length", where,
                                  f"An abandoned deal has exactly {runs + 1} kicks (the first and one per run; "
                                  f"the pack allows {runs} runs), not {len(deal)}")
            deals.append(deal)
        abandoned = tuple(deals)

    # ---- kicks ----------------------------------------------------------------------------------
    raw_kicks = raw.get("kicks", _MISSING)
    if type(raw_kicks) is not list:
        if raw_kicks is _MISSING:
            raise InvalidHand("missing_field", join_path(path, "kicks"), "The kicks are missing")
        raise InvalidHand("wrong_type", join_path(path, "kicks"),
                          f"kicks must be a list of cards, not {describe(raw_kicks)}")
    if not raw_kicks:
        raise InvalidHand("no_kicks", join_path(path, "kicks"), "Every deal turns at least one kick")
    kicks = _read_cards(raw_kicks, join_path(path, "kicks"), "kick")

    # ---- beg ------------------------------------------------------------------------------------
    beg: Beg | None = None
    raw_beg = raw.get("beg", _MISSING)
    if raw_beg is not _MISSING:
        found = _BEGS.get(raw_beg) if type(raw_beg) is str else None
        if found is None:
            raise InvalidHand("bad_beg", join_path(path, "beg"),
                              f"beg must be stand, give or run, not {describe(raw_beg)}")
        beg = found
    elif not rules.every_kick_scores:
        raise InvalidHand("missing_beg", join_path(path, "beg"),
                          "beg is required under these rules: a kick scores only once it is known to fix trump")

    # ---- where does the game end? ----------------------------------------------------------------
    dealer_side = rules.side_of(seat)
    won_at = -1  # index into scoring_kicks(...) of the kick that wins the game, if one does
    if score is not None:
        need = rules.target - score[dealer_side]
        value = rules.kick_value
        total = 0
        for i, card in enumerate(scoring_kicks(rules, abandoned, kicks, beg)):
            total += value.get(card.rank, 0)
            if total >= need:
                won_at = i
                break

    if won_at >= 0 and rules.every_kick_scores:
        return _deal_won_by_kick(rules, path, seat, abandoned, kicks, beg, won_at)

    _check_kicks_fit_beg(rules, path, kicks, beg)
    assert beg is not None
    ends_game = won_at >= 0  # only the kick that fixed trump scored, and it won
    if not ends_game and beg == "give" and score is not None:
        ends_game = _gift_wins(rules, path, dealer_side, score)
    return Header(seat, False, abandoned, kicks, beg, kicks[-1].suit, ends_game)


def _read_cards(raw: list[Any], where: str, what: str) -> tuple[Card, ...]:
    """Parse a list of card texts; no card twice."""
    cards = []
    seen = set()
    for i, text in enumerate(raw):
        card = CARD_TEXT.get(text) if type(text) is str else None
        if card is None:
            raise InvalidHand("bad_card", f"{where}[{i}]",
                              f"{describe(text)} is not a card: write the rank then the suit, like 10H or AS")
        if card in seen:
            raise InvalidHand("kicked_twice", f"{where}[{i}]",
                              f"{card} is {what}ed twice in one deal: each card can be turned only once")
        seen.add(card)
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
) -> Header:
    """Check a deal whose kick ``won_at`` (counted over abandoned deals then kicks) won the game."""
    n_abandoned = sum(len(deal) for deal in abandoned)
    if won_at < n_abandoned:
        for d, deal in enumerate(abandoned):
            if won_at < len(deal):
                raise InvalidHand(
                    "kick_after_win", f"{join_path(path, 'abandoned')}[{d}][{won_at}]",
                    f"{deal[won_at]} wins the game as it is turned: the record ends there, so it is the last "
                    "kick listed, in kicks, even though the deal would later have been abandoned")
            won_at -= len(deal)
    k = won_at - n_abandoned
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
    if k >= 1:
        if beg is None:
            raise InvalidHand("missing_beg", join_path(path, "beg"),
                              "beg is missing: with more than one kick the beggar begged and the dealer ran the pack")
        if beg != "run":
            raise InvalidHand("kicks_for_beg", join_path(path, "beg"),
                              f"beg is {beg}, but {len(kicks)} kicks mean the dealer ran the pack")
    trump = kicks[k].suit if k >= 1 and kicks[k].suit is not first else None
    return Header(seat, False, abandoned, kicks, beg, trump, True)


def _check_kicks_fit_beg(rules: RuleSet, path: str, kicks: tuple[Card, ...], beg: Beg | None) -> None:
    """The kicks of a deal that was played out (no kick won the game) fit ``beg`` and the pack."""
    if beg is None:
        raise InvalidHand("missing_beg", join_path(path, "beg"),
                          "beg is missing: the hand was played, so the beggar stood or begged (stand, give or run)")
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


def _gift_wins(rules: RuleSet, path: str, dealer_side: int, score: Sequence[int]) -> bool:
    """Whether the gift wins the game; refused where ``gift_can_win`` is false."""
    points = rules.gift_points
    if points <= 0:
        return False
    target = rules.target
    for side in range(rules.sides):
        if side != dealer_side and score[side] + points >= target:
            if not rules.gift_can_win:
                raise InvalidHand("gift_would_win", join_path(path, "beg"),
                                  f"Giving one would take side {side} to {score[side] + points}, out of "
                                  f"{target}: under these rules a gift may not win the game, so the dealer "
                                  "must run the pack")
            return True
    return False


def read_tally(
    raw: Mapping[str, Any],
    rules: RuleSet,
    path: str,
    *,
    score: Sequence[int] | None = None,
    dealer: int | None = None,
) -> Hand:
    """Read and check a tally-form hand record (or a misdeal record) into a ``Hand``.

    ``score`` and ``dealer`` are as for ``read_header``: with the score, a record the game ended
    during the deal may stop after the winning kick or gift; what follows is checked for shape only.
    """
    if not isinstance(raw, Mapping):
        raise InvalidHand("wrong_type", path, f"A hand must be an object, not {describe(raw)}")
    if "misdeal" not in raw:
        for key in raw:
            if key not in TALLY_FIELDS:
                raise InvalidHand("unknown_field", join_path(path, short_key(key)),
                                  f"{describe(key)} is not a field of a hand record")
    header = read_header(raw, rules, path, score=score, dealer=dealer)
    if header.misdeal:
        return Hand(header.dealer, misdeal=True)

    # ---- the shape of each counted field, in order ------------------------------------------------
    ends_game = header.ends_game
    if not ends_game:
        for name in _COUNTED:
            if name not in raw:
                raise InvalidHand("missing_field", join_path(path, name),
                                  f"{name} is missing: once the hand is played, high, low, jack and game are "
                                  "required (null is a value: high and low are null when no trump was dealt)")
    sides = rules.sides
    high = _read_award(raw, "high", path, sides)
    low = _read_award(raw, "low", path, sides)
    jack = _read_jack(raw, path, sides)
    game = _read_game(raw, path, sides)
    penalties = _read_penalties(raw, path, sides)
    if ends_game:  # the game was won during the deal: the rest is neither cross-checked nor scored
        return Hand(header.dealer, False, header.abandoned, header.kicks, header.beg, trump=header.trump)
    hand = Hand(header.dealer, False, header.abandoned, header.kicks, header.beg, high, low, jack, game,
                penalties, True, header.trump)
    _cross_check(rules, hand, path)
    return hand


def _read_award(raw: Mapping[str, Any], name: str, path: str, sides: int) -> Award | None:
    value = raw.get(name)
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise InvalidHand("wrong_type", join_path(path, name),
                          f"{name} must be null or an object with the side that scores it and the card, "
                          f"not {describe(value)}")
    for key in value:
        if key != "side" and key != "card":
            raise InvalidHand("unknown_field", join_path(join_path(path, name), short_key(key)),
                              f"{describe(key)} is not a field of {name} (side, card)")
    side = _read_side(value, "side", join_path(path, name), sides)
    card = None
    if "card" in value:
        text = value["card"]
        card = CARD_TEXT.get(text) if type(text) is str else None
        if card is None:
            raise InvalidHand("bad_card", join_path(join_path(path, name), "card"),
                              f"{describe(text)} is not a card: write the rank then the suit, like 10H or AS")
    return Award(side, card)


def _read_side(value: Mapping[str, Any], key: str, where: str, sides: int) -> int:
    side = value.get(key, _MISSING)
    if type(side) is not int:
        if side is _MISSING:
            raise InvalidHand("missing_field", join_path(where, key), f"{key} is missing")
        raise InvalidHand("wrong_type", join_path(where, key), f"{key} must be a side number, not {describe(side)}")
    if not 0 <= side < sides:
        raise InvalidHand("bad_side", join_path(where, key),
                          f"Side {side} does not exist: the sides are 0 to {sides - 1}")
    return side


def _read_jack(raw: Mapping[str, Any], path: str, sides: int) -> JackOutcome | None:
    value = raw.get("jack")
    if value is None:
        return None
    where = join_path(path, "jack")
    if not isinstance(value, Mapping):
        raise InvalidHand("wrong_type", where,
                          f"jack must be null or an object with held_by and won_by, not {describe(value)}")
    for key in value:
        if key != "held_by" and key != "won_by":
            raise InvalidHand("unknown_field", join_path(where, short_key(key)),
                              f"{describe(key)} is not a field of jack (held_by, won_by)")
    return JackOutcome(_read_side(value, "held_by", where, sides), _read_side(value, "won_by", where, sides))


def _read_game(raw: Mapping[str, Any], path: str, sides: int) -> tuple[int, ...] | None:
    value = raw.get("game", _MISSING)
    if value is _MISSING:
        return None
    where = join_path(path, "game")
    if type(value) is not list or len(value) != sides:
        raise InvalidHand("bad_game", where,
                          f"game must list the card points of each of the {sides} sides' lift, "
                          f"not {describe(value)}" + (f" of {len(value)}" if type(value) is list else ""))
    for i, points in enumerate(value):
        if type(points) is not int or points < 0:
            raise InvalidHand("bad_game", f"{where}[{i}]",
                              f"Card points are a whole number of at least 0, not {describe(points)}")
    return tuple(value)


def _read_penalties(raw: Mapping[str, Any], path: str, sides: int) -> tuple[Penalty, ...]:
    value = raw.get("penalties", _MISSING)
    if value is _MISSING:
        return ()
    where = join_path(path, "penalties")
    if type(value) is not list:
        raise InvalidHand("wrong_type", where, f"penalties must be a list, not {describe(value)}")
    penalties = []
    for i, item in enumerate(value):
        at = f"{where}[{i}]"
        if not isinstance(item, Mapping):
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
        penalties.append(Penalty(kind, _read_side(item, "side", at, sides)))
    return tuple(penalties)


def _cross_check(rules: RuleSet, hand: Hand, path: str) -> None:
    """The consistency checks of HAND_FORMAT.md between the counted fields of a played hand."""
    high, low, jack, game = hand.high, hand.low, hand.jack, hand.game
    trump = hand.trump
    kicks = hand.kicks
    assert trump is not None and game is not None
    low_dealt = rules.low == "dealt"

    # High and Low: both or neither; trumps in play; Low not above High; one card, one side
    if (high is None) is not (low is None):
        missing, given = ("high", "low") if high is None else ("low", "high")
        raise InvalidHand("high_without_low", join_path(path, missing),
                          f"{missing} is null but {given} is given: both are null when no trump was dealt, "
                          "otherwise both are given")
    high_card = high.card if high is not None else None
    low_card = low.card if low is not None else None
    for name, card in (("high", high_card), ("low", low_card)):
        if card is None:
            continue
        if card in kicks:
            raise InvalidHand("card_was_kicked", f"{join_path(path, name)}.card",
                              f"{card} was kicked: a kicked card is out of play, never High or Low")
        if card.suit is not trump:
            raise InvalidHand("not_trump", f"{join_path(path, name)}.card",
                              f"{card} cannot be {name.capitalize()}: trump is {trump.name.lower()} ({trump})")
    if high_card is not None and low_card is not None:
        if low_card.rank > high_card.rank:
            raise InvalidHand("low_above_high", f"{join_path(path, 'low')}.card",
                              f"{low_card} cannot be Low: it is above the High card {high_card}")
        if low_dealt and low_card is high_card and high is not None and low is not None and high.side != low.side:
            raise InvalidHand("high_low_sides_differ", f"{join_path(path, 'low')}.side",
                              f"{high_card} is both High and Low, the only trump in play, so one side was dealt "
                              f"it and scores both: not side {high.side} for High and side {low.side} for Low")

    # The jack of trumps
    trump_jack = Card(Rank.JACK, trump)
    if jack is not None:
        if high is None:
            raise InvalidHand("jack_without_trump", join_path(path, "jack"),
                              "High and Low are null, so no trump was dealt: jack must be null too")
        if trump_jack in kicks:
            raise InvalidHand("jack_kicked", join_path(path, "jack"),
                              f"{trump_jack} was kicked, so it is out of play: jack must be null")
    for name, award in (("high", high), ("low", low)):
        if award is None or award.card is not trump_jack:
            continue
        if jack is None:
            raise InvalidHand("jack_missing", join_path(path, "jack"),
                              f"{name.capitalize()} is the jack of trumps {trump_jack}, so the jack was dealt: "
                              "jack cannot be null")
        if name == "high" or low_dealt:
            if jack.held_by != award.side:
                raise InvalidHand("jack_holder_mismatch", f"{join_path(path, 'jack')}.held_by",
                                  f"{name.capitalize()} is the jack {trump_jack}, dealt to side {award.side}: "
                                  f"jack.held_by cannot be side {jack.held_by}")
        elif jack.won_by != award.side:
            raise InvalidHand("low_jack_capturer", f"{join_path(path, 'jack')}.won_by",
                              f"Low is the jack {trump_jack}, captured by side {award.side} (Low goes to the side "
                              f"that captures it under these rules): jack.won_by cannot be side {jack.won_by}")
    if jack is not None:
        if high_card is not None and high_card.rank < Rank.JACK:
            raise InvalidHand("high_below_jack", f"{join_path(path, 'high')}.card",
                              f"{high_card} cannot be High: the jack of trumps {trump_jack} was in play and "
                              "ranks above it")
        if low_card is not None and low_card.rank > Rank.JACK:
            raise InvalidHand("low_above_jack", f"{join_path(path, 'low')}.card",
                              f"{low_card} cannot be Low: the jack of trumps {trump_jack} was in play and "
                              "ranks below it")

    # Game: the card points of the lift
    in_play = PACK_POINTS - sum(card.points for card in kicks)
    total = sum(game)
    if total > in_play:
        raise InvalidHand("game_points_too_many", join_path(path, "game"),
                          f"The lifts hold {total} card points, but the cards in play hold at most {in_play} "
                          f"(80 in the pack, less this deal's kicks)")
    if jack is not None and game[jack.won_by] == 0:
        raise InvalidHand("jack_winner_no_points", f"{join_path(path, 'game')}[{jack.won_by}]",
                          f"Side {jack.won_by} won the jack of trumps, worth 1 card point, so its lift cannot "
                          "hold 0 card points")
    if not low_dealt and low is not None and low_card is not None and game[low.side] < low_card.points:
        raise InvalidHand("low_winner_no_points", f"{join_path(path, 'game')}[{low.side}]",
                          f"Side {low.side} captured Low, {low_card}, worth {low_card.points} card points, so "
                          f"its lift cannot hold only {game[low.side]}")

    # Penalties
    for i, penalty in enumerate(hand.penalties):
        where = f"{join_path(path, 'penalties')}[{i}].kind"
        kind = penalty.kind
        if kind == "undertrump" and rules.undertrump == "allowed":
            raise InvalidHand("undertrump_allowed", where,
                              "Undertrumping is allowed under these rules, so it is no penalty")
        if kind != "revoke" and high is None:
            raise InvalidHand("penalty_without_trump", where,
                              f"No trump was dealt (High and Low are null), so there can be no {kind}")
        if kind == "trump_revoke" and high_card is not None and high_card.rank < Rank.TEN:
            raise InvalidHand("trump_revoke_without_top_trump", where,
                              f"A trump_revoke withholds one of the top five trumps (A K Q J 10), but the "
                              f"highest trump in play was {high_card}: this renege is a revoke")
