"""Rule sets: the five presets of docs/rules.md section 9 and every option, as one immutable object.

``RuleSet.from_spec("trinidad")`` or ``RuleSet.from_spec({"preset": "trinidad", "game_points": 2})``;
without ``preset`` the options apply over ``trinidad``. An unknown preset, option or value raises
``InvalidHand`` with the path of the field at fault.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from typing import Any, Final, Literal

from .cards import RANK_SYMBOLS, Rank
from .errors import InvalidHand, describe, join_path, short_key

Follow = Literal["follow_or_trump", "trump_only"]
Undertrump = Literal["allowed", "forbidden"]
LowRule = Literal["dealt", "captured"]
GameTie = Literal["none", "non_dealer"]
Renege = Literal["two_tier", "one_point", "lose_game"]

PACK_SIZE: Final = 52
FIRST_DEAL: Final = 6


@dataclasses.dataclass(frozen=True, slots=True)
class RuleSet:
    """Every rule option of docs/rules.md section 9, fully resolved. Build it with ``from_spec``."""

    preset: str = "trinidad"
    players: int = 4
    target: int = 14
    kick_points: tuple[tuple[Rank, int], ...] = ((Rank.ACE, 1), (Rank.SIX, 2), (Rank.JACK, 3))
    every_kick_scores: bool = True
    gift_points: int = 1
    gift_can_win: bool = True
    run_cards: int = 3
    follow: Follow = "follow_or_trump"
    undertrump: Undertrump = "allowed"
    low: LowRule = "dealt"
    jack_points: int = 1
    hang_jack_points: int = 3
    game_points: int = 1
    game_tie: GameTie = "none"
    renege: Renege = "two_tier"
    revoke_points: int = 1
    revoke_bars_game: bool = True
    misdeal_points: int = 1
    misdeal_passes_deal: bool = False
    discard_to: int | None = None

    # ---- derived facts, computed once (not options: not in ``to_dict``, not compared) ------------
    #: Number of sides: 2 with four players (partners opposite), otherwise one per player.
    sides: int = dataclasses.field(init=False, repr=False, compare=False)
    #: R: the most runs the pack allows, floor((52 - 6n - 1) / (n * run_cards + 1)).
    max_runs: int = dataclasses.field(init=False, repr=False, compare=False)
    #: Points a kicked card of each rank scores for the dealer's side (ranks worth nothing are absent).
    kick_value: dict[Rank, int] = dataclasses.field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # one form per rule set, so that equal rules compare equal: highest rank first, no zeroes
        kick_points = tuple(sorted(((r, p) for r, p in self.kick_points if p), key=lambda rp: -rp[0]))
        object.__setattr__(self, "kick_points", kick_points)
        object.__setattr__(self, "sides", 2 if self.players == 4 else self.players)
        object.__setattr__(self, "max_runs", (PACK_SIZE - FIRST_DEAL * self.players - 1)
                           // (self.players * self.run_cards + 1))
        object.__setattr__(self, "kick_value", dict(self.kick_points))

    def side_of(self, seat: int) -> int:
        """The side a seat plays for."""
        return seat % 2 if self.players == 4 else seat

    def beggar(self, dealer: int) -> int:
        """The beggar, who also leads the first trick: the seat on the dealer's right."""
        return (dealer + 1) % self.players

    # ---- text form ----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Every option, fully resolved, as JSON-ready data (a valid spec for ``from_spec``)."""
        out: dict[str, Any] = {}
        for field in dataclasses.fields(self):
            if not field.init:
                continue
            value = getattr(self, field.name)
            if field.name == "kick_points":
                value = {rank.symbol: points for rank, points in value}
            out[field.name] = value
        return out

    @classmethod
    def from_spec(cls, spec: object, path: str = "rules") -> RuleSet:
        """Build a rule set from a preset name or an object of options over a preset."""
        if isinstance(spec, str):
            return _preset(spec, path)
        if isinstance(spec, RuleSet):
            return spec
        if not isinstance(spec, Mapping):
            raise InvalidHand("rules_type", path, "The rules must be a preset name or an object of options")
        # the usual spec, scalar options only: its items (with their types, so that true is not 1)
        # are the cache key as they stand
        quick = tuple([(k, v, v.__class__) for k, v in spec.items()])
        try:
            found = _QUICK.get((quick, path))
        except TypeError:  # a nested value (kick_points): the frozen form below
            found = None
        else:
            if found is None:
                found = _QUICK[(quick, path)] = _from_spec_mapping(spec, path)
                if len(_QUICK) > 256:
                    _QUICK.clear()
        return found if found is not None else _from_spec_mapping(spec, path)


_QUICK: Final[dict[tuple[tuple[tuple[Any, Any, type], ...], str], RuleSet]] = {}


def _from_spec_mapping(spec: Mapping[Any, Any], path: str) -> RuleSet:
    try:
        key = tuple(sorted((k, _freeze(v)) for k, v in spec.items()))
    except (TypeError, RecursionError):  # unhashable or absurdly nested: no cache, same checks
        key = None
    if key is not None:
        return _from_options(key, path)
    return _build(dict(spec), path)


def _freeze(value: object) -> object:
    if isinstance(value, Mapping):
        return ("__map__", tuple(sorted((k, _freeze(v)) for k, v in value.items())))
    if isinstance(value, list):
        return ("__list__", tuple(_freeze(v) for v in value))
    hash(value)
    return (type(value).__name__, value)


def _thaw(value: object) -> object:
    tag: str
    inner: Any
    tag, inner = value  # type: ignore[misc]
    if tag == "__map__":
        return {k: _thaw(v) for k, v in inner}
    if tag == "__list__":
        return [_thaw(v) for v in inner]
    return inner


@functools.lru_cache(maxsize=256)
def _from_options(key: tuple[tuple[str, object], ...], path: str) -> RuleSet:
    return _build({k: _thaw(v) for k, v in key}, path)


_BASE: Final = RuleSet()
PRESETS: Final[dict[str, RuleSet]] = {
    "trinidad": _BASE,
    "trinidad-tournament": dataclasses.replace(_BASE, preset="trinidad-tournament", game_points=2,
                                               misdeal_passes_deal=True),
    "tobago": dataclasses.replace(
        _BASE, preset="tobago", kick_points=((Rank.ACE, 1), (Rank.TWO, 2), (Rank.JACK, 3))
    ),
    "english": dataclasses.replace(
        _BASE, preset="english", target=11, kick_points=((Rank.JACK, 1),), gift_can_win=False,
        hang_jack_points=1, renege="one_point", discard_to=6,
    ),
    "seven-up": dataclasses.replace(
        _BASE, preset="seven-up", players=2, target=7, kick_points=((Rank.JACK, 1),), every_kick_scores=False,
        gift_can_win=False, hang_jack_points=1, game_tie="non_dealer", renege="one_point", discard_to=6,
    ),
}

_CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "follow": ("follow_or_trump", "trump_only"),
    "undertrump": ("allowed", "forbidden"),
    "low": ("dealt", "captured"),
    "game_tie": ("none", "non_dealer"),
    "renege": ("two_tier", "one_point", "lose_game"),
}
_BOOLS: Final = ("every_kick_scores", "gift_can_win", "revoke_bars_game", "misdeal_passes_deal")
_COUNTS: Final[dict[str, int]] = {  # whole-number options and their least value
    "target": 1, "gift_points": 0, "run_cards": 1, "jack_points": 0, "hang_jack_points": 0,
    "game_points": 0, "revoke_points": 0, "misdeal_points": 0,
}
_OPTIONS: Final = frozenset(f.name for f in dataclasses.fields(RuleSet) if f.init) - {"preset"}
#: The largest whole number an option takes: 2**53 - 1, the largest integer every JSON reader keeps
#: exact (RFC 8259 section 6, I-JSON). Far above any real game, and it keeps every score the engine
#: writes a number any reader (and Python's own int-to-text limit) can handle.
MAX_WHOLE: Final = 2**53 - 1


def _preset(name: str, path: str) -> RuleSet:
    try:
        return PRESETS[name]
    except KeyError:
        known = ", ".join(PRESETS)
        raise InvalidHand("unknown_preset", path, f"{describe(name)} is not a rule preset (known: {known})") from None


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _build(options: dict[str, Any], path: str) -> RuleSet:
    base = _BASE
    if "preset" in options:
        name = options["preset"]
        if not isinstance(name, str):
            raise InvalidHand("unknown_preset", join_path(path, "preset"),
                              f"The preset must be a preset name, not {describe(name)}")
        base = _preset(name, join_path(path, "preset"))
    changes: dict[str, Any] = {}
    for name, value in options.items():
        if name == "preset":
            continue
        where = join_path(path, short_key(name))
        if name not in _OPTIONS:
            raise InvalidHand("unknown_option", where, f"{describe(name)} is not a rule option")
        changes[name] = _option_value(name, value, where)
    rules = dataclasses.replace(base, **changes)
    _check_whole(rules, path)
    return rules


def _option_value(name: str, value: object, where: str) -> object:
    if name == "players":
        if not _is_int(value) or value not in (2, 3, 4):
            raise InvalidHand("bad_option_value", where, "players must be 2, 3 or 4")
        return value
    if name in _COUNTS:
        least = _COUNTS[name]
        if not _is_int(value) or not least <= value <= MAX_WHOLE:  # type: ignore[operator]
            raise InvalidHand("bad_option_value", where,
                              f"{name} must be a whole number of at least {least} (and at most {MAX_WHOLE})")
        return value
    if name in _BOOLS:
        if not isinstance(value, bool):
            raise InvalidHand("bad_option_value", where, f"{name} must be true or false")
        return value
    if name in _CHOICES:
        if value not in _CHOICES[name]:
            raise InvalidHand("bad_option_value", where, f"{name} must be one of: {', '.join(_CHOICES[name])}")
        return value
    if name == "discard_to":
        if value is None:
            return None
        if not _is_int(value) or not 1 <= value <= MAX_WHOLE:  # type: ignore[operator]
            raise InvalidHand("bad_option_value", where, "discard_to must be null or a whole number of at least 1")
        return value
    if name == "kick_points":
        if not isinstance(value, Mapping):
            raise InvalidHand("bad_option_value", where, 'kick_points must map ranks to points, like {"J": 3}')
        pairs: list[tuple[Rank, int]] = []
        for rank_text, points in value.items():
            if rank_text not in RANK_SYMBOLS:
                raise InvalidHand("bad_option_value", join_path(where, short_key(rank_text)),
                                  f"{describe(rank_text)} is not a rank (A K Q J 10 9 8 7 6 5 4 3 2)")
            if not _is_int(points) or not 0 <= points <= MAX_WHOLE:
                raise InvalidHand("bad_option_value", join_path(where, short_key(rank_text)),
                                  f"kick points must be a whole number of at least 0 (and at most {MAX_WHOLE})")
            if points:
                pairs.append((Rank.parse(rank_text), points))
        pairs.sort(key=lambda p: -p[0])
        return tuple(pairs)
    raise AssertionError(name)  # pragma: no cover


def _check_whole(rules: RuleSet, path: str) -> None:
    # R = 0 (run_cards the pack cannot supply even once) is a rule set like any other: a run cannot be
    # recorded, and a deal begged on and not given is abandoned with its one kick (docs/hand-format.md's R+1)
    if rules.players == 3 and (rules.renege != "one_point" or rules.undertrump != "allowed"):
        raise InvalidHand("three_players_lost_game", path,
                          "A 3-player rule set must use renege one_point and allow undertrumping: "
                          "a lost-game penalty needs two sides")
