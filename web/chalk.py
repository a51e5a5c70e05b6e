"""A hand as a line of a Trinidad chalk sheet, read from its stored record and the engine's events.

The events say who scored what (the engine's word); the record adds what only the table knows, such as
the card points each side counted for Game. Both entry forms work: a card-by-card record has no
counts, so its Game cell shows only who took it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .cards import card_label

SIDES = ("A", "B")
BEG_WORDS = {"stand": "stood", "give": "gave one", "run": "ran the pack"}
PENALTY_WORDS = {
    "revoke": "renege",
    "trump_revoke": "renege (top-five trump)",
    "undertrump": "undertrump",
    "misdeal": "misdeal",
}


def capfirst(text: str) -> str:
    """The first letter in capitals, the rest as written (``str.capitalize`` would lower "by A" to "by a")."""
    return text[:1].upper() + text[1:]


def side_letter(side: object) -> str:
    return SIDES[side] if isinstance(side, int) and 0 <= side < len(SIDES) else "?"


@dataclasses.dataclass
class Cell:
    """One scoring column of a chalk line: what happened, to which side, for how many chalks."""

    text: str = "—"
    side: int | None = None
    points: int = 0

    @property
    def letter(self) -> str:
        return side_letter(self.side) if self.side is not None else ""


@dataclasses.dataclass
class Kick:
    card: str
    side: int | None
    points: int


@dataclasses.dataclass
class ChalkLine:
    number: int
    dealer: int
    dealer_name: str
    kicks: list[Kick]
    beg: str
    gift: Cell | None
    misdeal: Cell | None
    penalties: list[Cell]
    high: Cell
    low: Cell
    jack: Cell
    game: Cell
    game_counts: tuple[int, int] | None
    points: tuple[int, int]
    score: tuple[int, int]
    winner: int | None
    version: int = 1

    @property
    def ended_early(self) -> bool:
        """The game ended during the deal (a kick or the gift reached the target)."""
        return self.winner is not None and self.high.side is None and self.game.side is None


def _events_of(events: Iterable[Mapping[str, Any]], kind: str) -> list[Mapping[str, Any]]:
    return [e for e in events if e.get("kind") == kind]


def _pair(value: object) -> tuple[int, int]:
    if isinstance(value, list | tuple) and len(value) >= 2:
        try:
            return int(value[0]), int(value[1])
        except (TypeError, ValueError):
            pass
    return 0, 0


def chalk_line(
    *,
    number: int,
    dealer: int,
    record: Mapping[str, Any],
    events: Sequence[Mapping[str, Any]],
    score_after: object,
    winner: int | None,
    seat_names: Mapping[int, str] | None = None,
    version: int = 1,
) -> ChalkLine:
    """Build one chalk line. ``seat_names`` maps a seat to the player sitting there, when recorded."""
    seat_names = seat_names or {}
    record = record if isinstance(record, Mapping) else {}
    kick_events = _events_of(events, "kick")
    dealer_side = dealer % 2

    # Every kick turned (abandoned deals first), each with the chalks it scored.
    turned: list[str] = []
    for deal in record.get("abandoned") or []:
        turned.extend(str(c) for c in deal or [])
    turned.extend(str(c) for c in record.get("kicks") or [])
    scored = list(kick_events)
    kicks: list[Kick] = []
    for card in turned:
        match = next((e for e in scored if str(e.get("card", "")).upper() == card.upper()), None)
        if match is not None:
            scored.remove(match)
            kicks.append(Kick(card_label(card), match.get("side"), int(match.get("points", 0))))
        else:
            kicks.append(Kick(card_label(card), None, 0))
    for e in scored:  # an event whose card the record does not list (should not happen)
        kicks.append(Kick(card_label(e.get("card")), e.get("side"), int(e.get("points", 0))))

    beg_word = record.get("beg")
    beg = BEG_WORDS.get(str(beg_word), "") if beg_word else ""
    runs = max(0, len(record.get("kicks") or []) - 1)
    if beg_word == "run" and runs > 1:
        beg = f"ran the pack ×{runs}"

    gift_events = _events_of(events, "gift")
    gift = Cell("gift", gift_events[0].get("side"), sum(int(e.get("points", 0)) for e in gift_events)) if gift_events else None
    misdeal_events = _events_of(events, "misdeal")
    misdeal = None
    if record.get("misdeal") or misdeal_events:
        misdeal = Cell(
            "misdeal",
            misdeal_events[0].get("side") if misdeal_events else None,
            sum(int(e.get("points", 0)) for e in misdeal_events),
        )

    penalties = [
        Cell(
            f"{PENALTY_WORDS.get(str(e.get('kind')), str(e.get('kind')))} by {side_letter(e.get('offender'))}",
            e.get("side"),
            int(e.get("points", 0)),
        )
        for e in events
        if e.get("kind") in ("revoke", "trump_revoke", "undertrump")
    ]

    def award(kind: str) -> Cell:
        found = _events_of(events, kind)
        given = record.get(kind) if isinstance(record.get(kind), Mapping) else None
        card = (found[0].get("card") if found else None) or (given or {}).get("card")
        if found:
            return Cell(card_label(card) if card else "", found[0].get("side"), int(found[0].get("points", 0)))
        if given is not None:  # recorded but not scored: the game ended before it counted
            return Cell(card_label(card) if card else "", None, 0)
        return Cell()

    high, low = award("high"), award("low")

    jack_events = _events_of(events, "jack")
    hang_events = _events_of(events, "hang_jack")
    if hang_events:
        jack = Cell("hang jack", hang_events[0].get("side"), int(hang_events[0].get("points", 0)))
    elif jack_events:
        jack = Cell("jack", jack_events[0].get("side"), int(jack_events[0].get("points", 0)))
    elif isinstance(record.get("jack"), Mapping):
        held, won = record["jack"].get("held_by"), record["jack"].get("won_by")
        jack = Cell("hang jack" if held != won else "jack")
    elif "jack" in record:
        jack = Cell("not in play")
    else:
        jack = Cell()

    game_events = _events_of(events, "game")
    counts_raw = record.get("game")
    counts = _pair(counts_raw) if isinstance(counts_raw, list | tuple) else None
    if game_events:
        game = Cell("game", game_events[0].get("side"), int(game_events[0].get("points", 0)))
    elif counts is not None and counts[0] == counts[1]:
        game = Cell("tie")
    else:
        game = Cell()

    points = [0, 0]
    for e in events:
        side = e.get("side")
        if isinstance(side, int) and 0 <= side < 2:
            points[side] += int(e.get("points", 0))

    return ChalkLine(
        number=number,
        dealer=dealer,
        dealer_name=seat_names.get(dealer, "") or f"seat {dealer + 1} ({side_letter(dealer_side)})",
        kicks=kicks,
        beg=beg,
        gift=gift,
        misdeal=misdeal,
        penalties=penalties,
        high=high,
        low=low,
        jack=jack,
        game=game,
        game_counts=counts,
        points=(points[0], points[1]),
        score=_pair(score_after),
        winner=winner,
        version=version,
    )


def reading(line: ChalkLine) -> str:
    """The engine's reading in one sentence, as the tablet shows it: ``Kick 6♦ +2 to A; High A; …``."""
    parts: list[str] = []
    for k in line.kicks:
        parts.append(f"Kick {k.card} +{k.points} to {side_letter(k.side)}" if k.points else f"Kick {k.card}")
    if line.misdeal:
        parts.append(f"Misdeal +{line.misdeal.points} to {line.misdeal.letter}")
    if line.beg:
        parts.append(capfirst(line.beg))
    if line.gift:
        parts.append(f"Gift +{line.gift.points} to {line.gift.letter}")
    parts.extend(f"{capfirst(p.text)} +{p.points} to {p.letter}" for p in line.penalties)
    if line.high.side is not None:
        parts.append(f"High {line.high.letter}")
    if line.low.side is not None:
        parts.append(f"Low {line.low.letter}")
    if line.jack.side is not None:
        parts.append(f"{capfirst(line.jack.text)} {line.jack.letter} +{line.jack.points}")
    if line.game.side is not None:
        counts = f": {line.game_counts[0]}-{line.game_counts[1]}" if line.game_counts else ""
        parts.append(f"Game {line.game.letter}{counts}")
    elif line.game.text == "tie" and line.game_counts:
        parts.append(f"Game tied {line.game_counts[0]}-{line.game_counts[1]}")
    return "; ".join(parts)
