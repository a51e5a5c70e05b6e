"""Awarded figures: what an entrant is credited and charged for a round it did not play (a bye).

A policy says what the bye counts as (a win, a draw or a loss) and, for each figure apart (bullseyes,
chalks, hang jacks; "for" and "against"), where its value comes from (docs/decisions.md, "Awarded
figures"):

* ``round_average``: the round's average per entrant over its decided boards, capped so a bye never gives
  more than a real win (each "for" figure at most the average winner's, each "against" at least it);
* ``fixed``: a number the organiser sets;
* ``race_target``: the event's race target (first to N games, or a team race's N), read from the event's
  setting, never copied;
* ``own_average``: the entrant's own average per played match, ``exact`` or rounded down (``floor``);
* ``zero``: nothing.

The default is DECISIONS' bye: a win with the round's averages. A league's own rule ("the race target
for, the team's own average against") is one more preset, ``league``; any other mix is a policy too,
without a code change.

The same type values forfeits (``FORFEIT_PRESETS``, ``forfeit_policy``; docs/decisions.md, "Where a result
comes from"): a forfeit is always a win for the side present, its bullseyes are the match format's N-0 (set
on the board), and the policy says what chalks and hang jacks the winner is credited and charged for a
board forfeited before any game was confirmed. The default credits the round's average chalks, capped at
a real win, and no hang jacks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .errors import FormatError, whole

FIGURES = ("bullseyes", "chalks", "hang_jacks")
SIDES = ("for", "against")
MAX_FIXED = 999


class Result(StrEnum):
    """What the awarded round counts as in match points and the win/draw/loss record."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"

    @property
    def label(self) -> str:
        return {"win": "a win", "draw": "a draw", "loss": "a loss"}[self.value]


class SourceKind(StrEnum):
    """Where one awarded figure comes from."""

    ROUND_AVERAGE = "round_average"
    FIXED = "fixed"
    RACE_TARGET = "race_target"
    OWN_AVERAGE = "own_average"
    ZERO = "zero"


SOURCE_LABELS: dict[SourceKind, tuple[str, str]] = {
    SourceKind.ROUND_AVERAGE: ("the round's average",
                               "the round's average per entrant over its decided boards, never more than a win gives"),
    SourceKind.FIXED: ("a fixed number", "a number the organiser sets"),
    SourceKind.RACE_TARGET: ("the race target", "the number of games that wins a match (first to N)"),
    SourceKind.OWN_AVERAGE: ("the entrant's own average", "the entrant's own average per match it played"),
    SourceKind.ZERO: ("nothing", "nothing"),
}


@dataclass(frozen=True, slots=True)
class Source:
    """One figure's source: ``kind``, the ``value`` of a fixed number, ``floor`` for an own average
    rounded down."""

    kind: SourceKind = SourceKind.ROUND_AVERAGE
    value: int = 0
    floor: bool = False

    @classmethod
    def from_dict(cls, data: object, path: str = "") -> Source:
        """``{"source": "fixed", "value": 17}``, ``{"source": "own_average", "rounding": "floor"}``..."""
        if isinstance(data, str):
            data = {"source": data}
        if not isinstance(data, dict):
            raise FormatError("bad_source", 'A source such as {"source": "round_average"}.', path)
        extra = set(data) - {"source", "value", "rounding"}
        if extra:
            raise FormatError("unknown_field", f"Unknown field {sorted(extra)[0]!r}.", path)
        try:
            kind = SourceKind(str(data.get("source")))
        except ValueError:
            known = ", ".join(k.value for k in SourceKind)
            raise FormatError("bad_source", f"One of {known}.", _join(path, "source")) from None
        value = 0
        if kind is SourceKind.FIXED:
            value = whole(data.get("value"), 0, MAX_FIXED, _join(path, "value"), "A fixed figure")
        elif "value" in data:
            raise FormatError("unknown_field", "Only a fixed source takes a value.", _join(path, "value"))
        floor = False
        if "rounding" in data:
            if kind is not SourceKind.OWN_AVERAGE:
                raise FormatError("unknown_field", "Only an own average is rounded.", _join(path, "rounding"))
            if data["rounding"] not in ("exact", "floor"):
                raise FormatError("bad_rounding", "exact or floor.", _join(path, "rounding"))
            floor = data["rounding"] == "floor"
        return cls(kind, value, floor)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"source": self.kind.value}
        if self.kind is SourceKind.FIXED:
            out["value"] = self.value
        if self.kind is SourceKind.OWN_AVERAGE:
            out["rounding"] = "floor" if self.floor else "exact"
        return out

    @property
    def label(self) -> str:
        if self.kind is SourceKind.FIXED:
            return str(self.value)
        base = SOURCE_LABELS[self.kind][0]
        return f"{base} (rounded down)" if self.kind is SourceKind.OWN_AVERAGE and self.floor else base


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


_AVG = Source()


@dataclass(frozen=True, slots=True)
class AwardPolicy:
    """A round awarded without play: ``result`` and a ``Source`` per (figure, side)."""

    result: Result = Result.WIN
    sources: dict[tuple[str, str], Source] = field(
        default_factory=lambda: {(f, s): _AVG for f in FIGURES for s in SIDES}
    )

    def source(self, figure: str, side: str) -> Source:
        """The source of ``figure`` (bullseyes, chalks, hang_jacks) ``for`` or ``against``."""
        return self.sources[figure, side]

    @property
    def uses_race_target(self) -> bool:
        return any(s.kind is SourceKind.RACE_TARGET for s in self.sources.values())

    @classmethod
    def from_dict(cls, data: object, path: str = "bye_policy",
                  presets: dict[str, Preset] | None = None) -> AwardPolicy:
        """The canonical form, a preset name (``"league"``), or an older shape.

        Canonical: ``{"result": "win", "bullseyes": {"for": {...}, "against": {...}}, "chalks": ...,
        "hang_jacks": ...}``; a figure left out takes the round's average. Older shapes still read:
        ``{"result": "win", "score": "average"}`` (the round's averages) and ``"score": "none"`` (zero).
        """
        named = BYE_PRESETS if presets is None else presets
        if isinstance(data, str):
            if data not in named:
                raise FormatError("unknown_preset", f"One of {', '.join(named)}.", path)
            return named[data].policy
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise FormatError("bad_policy", "A bye policy: a preset name or an object.", path)
        extra = set(data) - {"result", "score", "preset", *FIGURES}
        if extra:
            raise FormatError("unknown_field", f"Unknown field {sorted(extra)[0]!r}.", _join(path, sorted(extra)[0]))
        base = cls()
        if "preset" in data:
            base = cls.from_dict(data["preset"], _join(path, "preset"), presets)
        try:
            result = Result(data.get("result", base.result.value))
        except ValueError:
            raise FormatError("bad_result", "win, draw or loss.", _join(path, "result")) from None
        sources = dict(base.sources)
        if "score" in data:  # the shape stored before the registry
            score = data["score"]
            if score not in ("average", "none", None, False):
                raise FormatError("bad_source", "average or none.", _join(path, "score"))
            legacy = _AVG if score == "average" else Source(SourceKind.ZERO)
            sources = {key: legacy for key in sources}
        for figure in FIGURES:
            if figure not in data:
                continue
            sides = data[figure]
            where = _join(path, figure)
            if not isinstance(sides, dict) or not set(sides) <= set(SIDES):
                raise FormatError("bad_policy", 'An object {"for": source, "against": source}.', where)
            for side in SIDES:
                if side in sides:
                    sources[figure, side] = Source.from_dict(sides[side], f"{where}.{side}")
        return cls(result, sources)

    def to_dict(self) -> dict[str, Any]:
        """The canonical stored form (every figure spelled out)."""
        out: dict[str, Any] = {"result": self.result.value}
        for figure in FIGURES:
            out[figure] = {side: self.sources[figure, side].to_dict() for side in SIDES}
        return out

    @property
    def preset(self) -> str | None:
        """The name of the bye preset this policy equals, if any."""
        return self.preset_in(BYE_PRESETS)

    def preset_in(self, presets: dict[str, Preset]) -> str | None:
        """The name of the preset of ``presets`` this policy equals, if any."""
        for name, preset in presets.items():
            if preset.policy == self:
                return name
        return None

    def describe(self) -> str:
        """One sentence for players: what a bye gives."""
        if self.preset:
            return BYE_PRESETS[self.preset].explanation
        parts = []
        for figure in FIGURES:
            f, a = self.sources[figure, "for"], self.sources[figure, "against"]
            name = figure.replace("_", " ")
            parts.append(f"{name} {f.label} for and {a.label} against")
        return f"A bye counts as {self.result.label}: " + "; ".join(parts) + "."


@dataclass(frozen=True, slots=True)
class Preset:
    """A named policy with its label and a sentence for players."""

    name: str
    label: str
    explanation: str
    policy: AwardPolicy


def _uniform(result: Result, source: Source) -> AwardPolicy:
    return AwardPolicy(result, {(f, s): source for f in FIGURES for s in SIDES})


_LEAGUE = dict(_uniform(Result.WIN, Source(SourceKind.ZERO)).sources)
_LEAGUE["bullseyes", "for"] = Source(SourceKind.RACE_TARGET)
_LEAGUE["bullseyes", "against"] = Source(SourceKind.OWN_AVERAGE)

BYE_PRESETS: dict[str, Preset] = {
    p.name: p for p in (
        Preset("round_average", "A win with the round's average",
               "A bye counts as a win with the round's average bullseyes, chalks and hang jacks, "
               "never more than a real win gives.", AwardPolicy()),
        Preset("bare_win", "A win, no figures", "A bye counts as a win and adds no bullseyes, chalks or hang jacks.",
               _uniform(Result.WIN, Source(SourceKind.ZERO))),
        Preset("league", "League: the race target for, own average against",
               "A bye counts as a win with the race target in bullseyes for and the team's own average "
               "bullseyes against.", AwardPolicy(Result.WIN, _LEAGUE)),
        Preset("draw", "A draw with the round's average",
               "A bye counts as a draw with the round's average bullseyes, chalks and hang jacks.",
               _uniform(Result.DRAW, _AVG)),
        Preset("nothing", "Nothing", "A bye counts as a loss and adds nothing.",
               _uniform(Result.LOSS, Source(SourceKind.ZERO))),
    )
}

DEFAULT_BYE_POLICY = BYE_PRESETS["round_average"].policy


# ---- forfeits -------------------------------------------------------------------------------------------
_FORFEIT_DEFAULT = dict(_uniform(Result.WIN, Source(SourceKind.ZERO)).sources)
_FORFEIT_DEFAULT["chalks", "for"] = _AVG

FORFEIT_PRESETS: dict[str, Preset] = {
    p.name: p for p in (
        Preset("round_average", "A win with the round's average chalks",
               "A forfeit is a win for the pair present, by the match's games to nil, with the round's average "
               "chalks (never more than a real win gives) and no hang jacks.",
               AwardPolicy(Result.WIN, _FORFEIT_DEFAULT)),
        Preset("bare_win", "A win by the games, no chalks",
               "A forfeit is a win for the pair present, by the match's games to nil, with no chalks or hang jacks.",
               _uniform(Result.WIN, Source(SourceKind.ZERO))),
    )
}

DEFAULT_FORFEIT_POLICY = FORFEIT_PRESETS["round_average"].policy


def forfeit_policy(data: object, path: str = "forfeit_policy") -> AwardPolicy:
    """A forfeit policy: a preset name of ``FORFEIT_PRESETS`` or an object as ``AwardPolicy.from_dict`` reads
    it (a figure left out takes the default's source). A forfeit is a win for the side present and its
    bullseyes come from the match format: ``result`` other than win and bullseye sources are refused."""
    if data is None:
        return DEFAULT_FORFEIT_POLICY
    if isinstance(data, dict):
        if data.get("result", "win") != "win":
            raise FormatError("bad_result", "A forfeit is always a win for the side present.", _join(path, "result"))
        zero = {"for": {"source": "zero"}, "against": {"source": "zero"}}
        if "bullseyes" in data and data["bullseyes"] != zero:  # the canonical form spells out the zero
            raise FormatError("unknown_field", "A forfeit's bullseyes are the match format's games to nil.",
                              _join(path, "bullseyes"))
        if "score" in data:
            raise FormatError("unknown_field", "Unknown field 'score'.", _join(path, "score"))
        data = {"preset": "round_average", **data} if "preset" not in data else data
    policy = AwardPolicy.from_dict(data, path, FORFEIT_PRESETS)
    sources = dict(policy.sources)
    sources["bullseyes", "for"] = sources["bullseyes", "against"] = Source(SourceKind.ZERO)
    return AwardPolicy(Result.WIN, sources)


def describe_forfeit(policy: AwardPolicy) -> str:
    """One sentence for players: what a forfeit gives."""
    name = policy.preset_in(FORFEIT_PRESETS)
    if name:
        return FORFEIT_PRESETS[name].explanation
    parts = []
    for figure in FIGURES[1:]:
        f, a = policy.sources[figure, "for"], policy.sources[figure, "against"]
        parts.append(f"{figure.replace('_', ' ')} {f.label} for and {a.label} against")
    return "A forfeit is a win for the pair present, by the match's games to nil: " + "; ".join(parts) + "."
