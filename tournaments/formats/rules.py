"""The bounds of every rule option a tournament may store: what a table can play (issue 11, item 1).

The engine (``scoring``) accepts every rule set the rules allow, up to 2**53 - 1 for a whole number
(docs/rules.md section 9); a tournament announces a game people sit down and play, so the registry keeps
each option to a documented range and refuses the rest with ``FormatError("out_of_range", ...,
"rules.<option>")`` (docs/decisions.md, "Registry": the bounds live here, not in ``scoring/``). Rule sets
already stored out of range keep them (their results stay recomputable); what is drawn from them is
bounded by what was played (``web/charts.py``).

Why each range (the same table is in docs/rules.md, "Bounds"):

* ``players`` 2 to 4: the engine's own choices (a pairs event takes 4, checked by the services).
* ``target`` 7 to 31: 7 is the shortest game any source plays (Seven Up), 11 the English game, 14 every
  T&T game; 31 is more than twice that, about fifteen hands a game, so a board of first to 2 games still
  fits in a round. Beyond it, a "game" is an evening.
* Points (``kick_points`` of each rank, ``gift_points``, ``jack_points``, ``hang_jack_points``,
  ``game_points``, ``revoke_points``, ``misdeal_points``) 0 to 5: the sources give 1 to 3 (a kicked jack
  and hang jack 3 in Trinidad, Game 2 on T&T tournament sheets); 0 switches a point off, and 5 leaves room
  for a house rule while staying below the shortest target, so no single award wins a game from love.
* ``run_cards`` 1 to 6: every source runs three more cards; a run never deals more than the first deal's
  six (with four players and six, the pack allows one run).
* ``discard_to`` none, or 1 to 12: the English game and Seven Up lay away to 6; 12 is the most cards a
  four-player hand can hold with runs of 1 to 6 cards (6 and two runs of 3, or one of 6), and a hand must
  keep a card to play.
* The true/false options and the options with named choices (``follow``, ``undertrump``, ``low``,
  ``game_tie``, ``renege``) have no range beyond the engine's own check of their values.

Every preset is within these bounds (pinned by ``tests/hardening/test_item01_bounded_rules.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from .errors import FormatError


class OptionKind(StrEnum):
    """How an option's value is written (docs/rules.md section 9)."""

    WHOLE = "whole"  # a whole number
    WHOLE_OR_NONE = "whole_or_null"  # a whole number, or null
    POINTS_BY_RANK = "points_by_rank"  # {"J": 3, ...}: each value a whole number
    BOOLEAN = "boolean"
    CHOICE = "choice"  # one of the engine's words


@dataclass(frozen=True)
class RuleBound:
    """One rule option: its kind, the least and most a tournament may store (whole numbers), and why."""

    name: str
    label: str
    kind: OptionKind
    low: int | None = None
    high: int | None = None
    explanation: str = ""

    def problem(self, value: object, path: str) -> FormatError | None:
        """Why ``value`` is out of this option's range (``path`` names it), or None."""
        if self.low is None or self.high is None:
            return None
        if self.kind is OptionKind.POINTS_BY_RANK:
            if not isinstance(value, Mapping):
                return FormatError("out_of_range", f"{self.label}: ranks mapped to points, like {{\"J\": 3}}.", path)
            for rank, points in value.items():
                if not self._within(points):
                    return FormatError("out_of_range", self._range_text(), f"{path}.{rank}")
            return None
        if self.kind is OptionKind.WHOLE_OR_NONE and value is None:
            return None
        return None if self._within(value) else FormatError("out_of_range", self._range_text(), path)

    def _within(self, value: object) -> bool:
        assert self.low is not None and self.high is not None
        return isinstance(value, int) and not isinstance(value, bool) and self.low <= value <= self.high

    def _range_text(self) -> str:
        none = " (or null)" if self.kind is OptionKind.WHOLE_OR_NONE else ""
        return f"{self.label} is a whole number from {self.low} to {self.high}{none} in a tournament."

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "label": self.label, "kind": self.kind.value, "min": self.low, "max": self.high,
                "nullable": self.kind is OptionKind.WHOLE_OR_NONE, "explanation": self.explanation}


#: The most points a single award may be worth (below the least target: no one award wins from love).
MAX_POINTS: Final = 5
TARGET_MIN: Final = 7
TARGET_MAX: Final = 31
MAX_RUN_CARDS: Final = 6
MAX_DISCARD_TO: Final = 12

_POINTS_WHY = (f"0 to {MAX_POINTS}: the sources give 1 to 3; 0 switches it off, and {MAX_POINTS} stays below "
               f"the shortest target ({TARGET_MIN}).")


def _points(name: str, label: str, what: str) -> RuleBound:
    return RuleBound(name, label, OptionKind.WHOLE, 0, MAX_POINTS, f"{what} {_POINTS_WHY}")


def _flag(name: str, label: str, what: str) -> RuleBound:
    return RuleBound(name, label, OptionKind.BOOLEAN, explanation=f"{what} True or false.")


def _choice(name: str, label: str, what: str) -> RuleBound:
    return RuleBound(name, label, OptionKind.CHOICE, explanation=f"{what} One of the rules' words (docs/rules.md).")


#: Every rule option of docs/rules.md section 9, in its order, with its bounds.
RULE_BOUNDS: Final[Mapping[str, RuleBound]] = {b.name: b for b in (
    RuleBound("players", "The number of players", OptionKind.WHOLE, 2, 4,
              "2, 3 or 4 players, as the engine allows (a pairs event takes 4)."),
    RuleBound("target", "The target", OptionKind.WHOLE, TARGET_MIN, TARGET_MAX,
              f"Points that win a game, {TARGET_MIN} to {TARGET_MAX}: 7 in Seven Up, 11 in the English game, "
              f"14 in every T&T game; {TARGET_MAX} is over twice that, about fifteen hands a game."),
    RuleBound("kick_points", "A kicked card's points", OptionKind.POINTS_BY_RANK, 0, MAX_POINTS,
              f"Points of a kicked card, by rank (A 1, 6 2, J 3 in Trinidad). {_POINTS_WHY}"),
    _flag("every_kick_scores", "Every kick scores", "False: only the kick that fixes trump scores (Seven Up)."),
    _points("gift_points", "A gift's points", "Points of a gift (give one)."),
    _flag("gift_can_win", "A gift may win", "May a gift end the game."),
    RuleBound("run_cards", "Cards per run", OptionKind.WHOLE, 1, MAX_RUN_CARDS,
              f"Cards to each player per run, 1 to {MAX_RUN_CARDS}: every source runs 3; a run never deals more "
              f"than the first deal's 6."),
    _choice("follow", "Following suit", "follow_or_trump or trump_only."),
    _choice("undertrump", "Undertrumping", "allowed or forbidden."),
    _choice("low", "Who scores Low", "dealt or captured (Lancashire)."),
    _points("jack_points", "The jack's points", "The jack won by its holder's side."),
    _points("hang_jack_points", "Hang jack's points", "The jack captured by the opponents (3 in Trinidad)."),
    _points("game_points", "Game's points", "Points for Game (2 on T&T tournament sheets)."),
    _choice("game_tie", "Game on a tie", "none or non_dealer."),
    _choice("renege", "Reneges", "two_tier, one_point or lose_game."),
    _points("revoke_points", "A renege's points", "Points of a renege that does not lose the game."),
    _flag("revoke_bars_game", "A renege bars Game", "The offender cannot score Game."),
    _points("misdeal_points", "A misdeal's points", "Points to each opponent of the dealer."),
    _flag("misdeal_passes_deal", "A misdeal passes the deal", "After a misdeal the deal passes on."),
    RuleBound("discard_to", "The hand after discards", OptionKind.WHOLE_OR_NONE, 1, MAX_DISCARD_TO,
              f"Hand size after runs: null keeps every card; 6 in the English game and Seven Up; at most "
              f"{MAX_DISCARD_TO}, the most a four-player hand holds."),
)}


def rule_bound_errors(spec: object, path: str = "rules") -> list[FormatError]:
    """Every option of ``spec`` out of its range, each with its path (``rules.target``,
    ``rules.kick_points.J``); empty when all are within.

    ``spec`` is a rule set as stored or resolved: an object of options (its ``preset`` and any option the
    engine does not know are the engine's to check), or a preset name (every preset is within bounds).
    """
    if not isinstance(spec, Mapping):
        return []
    problems = []
    for name, value in spec.items():
        bound = RULE_BOUNDS.get(name) if isinstance(name, str) else None
        if bound is not None and (problem := bound.problem(value, f"{path}.{name}")) is not None:
            problems.append(problem)
    return problems


def check_rule_bounds(spec: object, path: str = "rules") -> None:
    """Raise the first ``FormatError("out_of_range", ..., "rules.<option>")`` of ``spec``, if any."""
    problems = rule_bound_errors(spec, path)
    if problems:
        raise problems[0]
