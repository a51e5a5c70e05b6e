"""The registry: the one typed source of what an event can be (pure Python, no Django).

Entrant types and pairing systems (``events``), board and team match formats (``match``), tie-breaks
(``tiebreaks``), awarded figures for byes (``awards``) and the bounds of every rule option an event may
store (``rules``). Each is a value type with ``from_dict``/``to_dict`` (or a ``StrEnum`` whose value is
what is stored), a label and a sentence for players; refusals are ``FormatError(code, message, path)``.
Services, API serializers (choices and OpenAPI enums), console forms, public labels and model defaults
all read from here; docs/README.md says which file to touch to add one.
"""

from .awards import (
    BYE_PRESETS,
    DEFAULT_BYE_POLICY,
    DEFAULT_FORFEIT_POLICY,
    FORFEIT_PRESETS,
    AwardPolicy,
    Result,
    Source,
    SourceKind,
    describe_forfeit,
    forfeit_policy,
)
from .errors import FormatError
from .events import (
    DEFAULT_CLUB_AVOIDANCE,
    DEFAULT_ENTRANT_TYPE,
    DEFAULT_PAIRING_SYSTEM,
    DEFAULT_TIME_CALLED,
    ClubAvoidance,
    EntrantType,
    PairingSystem,
    TimeCalled,
)
from .match import (
    CHOSEN_MATCH_KINDS,
    DEFAULT_MATCH_FORMAT,
    DEFAULT_TEAM_FORMAT,
    MatchFormat,
    MatchKind,
    MatchOutcome,
    TeamDecision,
    TeamFormat,
    TeamKind,
    forfeit_games,
    match_outcome,
    race_target,
    team_match_decision,
)
from .rules import RULE_BOUNDS, OptionKind, RuleBound, check_rule_bounds, rule_bound_errors
from .tiebreaks import DEFAULT_TIE_BREAKS, GAME_SCORE_TIE_BREAKS, LEAGUE_TIE_BREAKS, TIE_BREAKS, TieBreak

__all__ = [
    "BYE_PRESETS", "CHOSEN_MATCH_KINDS", "DEFAULT_BYE_POLICY", "DEFAULT_FORFEIT_POLICY", "FORFEIT_PRESETS", "DEFAULT_CLUB_AVOIDANCE", "DEFAULT_ENTRANT_TYPE",
    "DEFAULT_MATCH_FORMAT", "DEFAULT_PAIRING_SYSTEM", "DEFAULT_TEAM_FORMAT", "DEFAULT_TIE_BREAKS",
    "DEFAULT_TIME_CALLED", "GAME_SCORE_TIE_BREAKS", "LEAGUE_TIE_BREAKS", "RULE_BOUNDS", "TIE_BREAKS", "AwardPolicy", "ClubAvoidance", "EntrantType", "FormatError",
    "MatchFormat", "MatchKind", "MatchOutcome", "OptionKind", "PairingSystem", "Result", "RuleBound", "Source",
    "SourceKind", "TeamDecision", "TeamFormat", "TeamKind", "TieBreak", "TimeCalled", "check_rule_bounds",
    "describe_forfeit", "forfeit_games", "forfeit_policy", "match_outcome", "race_target", "rule_bound_errors", "team_match_decision",
]
