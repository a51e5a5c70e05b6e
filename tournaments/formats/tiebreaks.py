"""Tie-breaks: the one list of criteria a standings table can be ordered by, in any order.

Each entry has its stored name, a label and a short column heading, which way is better, and one
sentence for players (shown under "how ties are broken" on the public standings). The ranking core
computes each one (``tournaments/ranking/keys.py``); a test keeps that list and this one equal.
``DEFAULT_TIE_BREAKS`` is the one default of the product (docs/decisions.md, issue 10).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .errors import FormatError


@dataclass(frozen=True, slots=True)
class TieBreak:
    """One criterion: ``name`` as stored, ``label``, ``short`` heading, ``explanation`` for players and
    ``column``, what its figure is called as a standings column ("boards won").

    ``higher_is_better`` is False for the figures where fewer is better (bullseyes lost, chalks and hang
    jacks against).
    """

    name: str
    label: str
    short: str
    explanation: str
    column: str
    higher_is_better: bool = True

    def to_dict(self) -> dict[str, object]:
        """The entry as JSON: what the API's and the console's choices show."""
        return {"name": self.name, "label": self.label, "short": self.short, "column": self.column,
                "explanation": self.explanation, "higher_is_better": self.higher_is_better}


class TieBreakRegistry:
    """The tie-breaks by name, in the order they are offered."""

    def __init__(self) -> None:
        self._by_name: dict[str, TieBreak] = {}

    def register(self, tie_break: TieBreak) -> TieBreak:
        """Add ``tie_break`` (its name must be new); returns it."""
        if tie_break.name in self._by_name:
            raise ValueError(f"tie-break {tie_break.name!r} is registered twice")
        self._by_name[tie_break.name] = tie_break
        return tie_break

    def unregister(self, name: str) -> None:
        """Remove a tie-break (tests register a fake one and take it away again)."""
        del self._by_name[name]

    def get(self, name: str) -> TieBreak:
        """The entry called ``name``; ``FormatError`` ``unknown_tie_break`` otherwise."""
        try:
            return self._by_name[name]
        except KeyError:
            raise FormatError("unknown_tie_break", f"{name!r} is not a tie-break. Known: {', '.join(self.names())}.") from None

    def names(self) -> tuple[str, ...]:
        """Every name, in the offered order."""
        return tuple(self._by_name)

    def __iter__(self) -> Iterator[TieBreak]:
        return iter(tuple(self._by_name.values()))

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def parse(self, value: object, path: str = "tiebreaks") -> tuple[str, ...]:
        """A stored or submitted list of names as a tuple; ``FormatError`` with the item's path otherwise.

        Any subset in any order; each name at most once; at least one.
        """
        if not isinstance(value, list | tuple):
            raise FormatError("not_a_list", "A list of tie-break names, best first.", path)
        if not value:
            raise FormatError("no_tie_breaks", "Choose at least one tie-break.", path)
        seen: list[str] = []
        for i, name in enumerate(value):
            where = f"{path}[{i}]"
            if not isinstance(name, str):
                raise FormatError("unknown_tie_break", "A tie-break name.", where)
            try:
                self.get(name)
            except FormatError as exc:
                raise FormatError(exc.code, exc.message, where) from None
            if name in seen:
                raise FormatError("repeated_tie_break", f"{self.get(name).label} is listed twice.", where)
            seen.append(name)
        return tuple(seen)


TIE_BREAKS = TieBreakRegistry()
_r = TIE_BREAKS.register
_r(TieBreak("match_points", "Match points", "MP",
            "Points for each board: 2 for a win, 1 for a draw, 0 for a loss.", "match points"))
_r(TieBreak("wins", "Wins", "W", "Boards (or team matches) won; a bye counts as its policy says.", "boards won"))
_r(TieBreak("bullseyes_won", "Bullseyes won", "Bulls", "Games won, over all boards.", "bullseyes (games) won"))
_r(TieBreak("bullseyes_lost", "Bullseyes lost", "Bulls ag.", "Games lost, over all boards: fewer is better.", "bullseyes (games) lost",
            higher_is_better=False))
_r(TieBreak("bullseye_difference", "Bullseye difference", "Bulls ±", "Games won minus games lost.", "bullseye difference"))
_r(TieBreak("chalk_difference", "Chalk difference", "Chalk ±",
            "Points scored in games minus points conceded (each game's final score as chalked).", "chalk difference"))
_r(TieBreak("chalks_for", "Chalks for", "Chalks", "Points scored in games (each game's final score).", "chalks for"))
_r(TieBreak("chalks_against", "Chalks against", "Ch. ag.", "Points conceded in games: fewer is better.", "chalks against",
            higher_is_better=False))
_r(TieBreak("hang_jacks_for", "Hang jacks for", "HJ", "Times the pair hanged the opponents' jack.", "hang jacks for"))
_r(TieBreak("hang_jacks_against", "Hang jacks against", "HJ ag.",
            "Times the pair's own jack was hanged: fewer is better.", "hang jacks against", higher_is_better=False))
_r(TieBreak("head_to_head", "Head to head", "H2H",
            "Match points the tied entrants took from each other; used only when every two of them have met.", "head to head"))
_r(TieBreak("buchholz", "Buchholz", "Buch.",
            "The match points of every opponent met: a harder draw ranks higher.", "Buchholz (opponents' match points)"))
del _r

#: The one default order (docs/decisions.md: the list that ran before the registry).
DEFAULT_TIE_BREAKS: tuple[str, ...] = (
    "match_points", "wins", "bullseyes_won", "chalk_difference", "hang_jacks_for", "buchholz",
)

#: A league's order (issue 15: standings by bullseyes won and lost, wins, hang jacks for and against); a season
#: of a league starts from it.
LEAGUE_TIE_BREAKS: tuple[str, ...] = (
    "bullseyes_won", "bullseyes_lost", "wins", "hang_jacks_for", "hang_jacks_against",
)

#: The tie-breaks fed by each game's final score: results known by their match totals only cannot feed them.
GAME_SCORE_TIE_BREAKS: frozenset[str] = frozenset({"chalk_difference", "chalks_for", "chalks_against"})
