"""The registry as one catalogue of choices, with labels and sentences: what the API's formats endpoint,
the console's forms and any client app offer an organiser. Read afresh on every call, so a tie-break
registered at run time is listed."""

from __future__ import annotations

from typing import Any

from . import awards, events, match, rules, tiebreaks
from .awards import SOURCE_LABELS
from .match import MAX_GAMES, MAX_TEAM_TARGET


def _example(fmt: match.MatchFormat | match.TeamFormat) -> str:
    return f"For example, {fmt.label[:1].lower()}{fmt.label[1:]}: {fmt.explanation}"


def _enum_choices(enum: Any) -> list[dict[str, Any]]:
    return [{"name": m.value, "label": m.label, "explanation": m.explanation} for m in enum]


def catalogue() -> dict[str, Any]:
    """The registry's choices now (a tie-break registered at run time is listed)."""
    return {
        "tie_breaks": [t.to_dict() for t in tiebreaks.TIE_BREAKS],
        "match_kinds": [{"name": k.value, "label": k.label, "explanation": _example(match.MatchFormat(k, 2)),
                         "max_n": MAX_GAMES} for k in match.CHOSEN_MATCH_KINDS],
        "team_kinds": [{"name": k.value, "label": k.label,
                        "explanation": _example(match.TeamFormat(12, k, 17 if k is match.TeamKind.FIRST_TO_TOTAL
                                                                   else 1)),
                        "max_n": MAX_GAMES if k is match.TeamKind.GAMES else MAX_TEAM_TARGET}
                       for k in match.TeamKind],
        "bye_presets": [{"name": p.name, "label": p.label, "explanation": p.explanation, "policy": p.policy.to_dict()}
                        for p in awards.BYE_PRESETS.values()],
        "bye_results": [{"name": r.value, "label": r.label, "explanation": f"A bye counts as {r.label}."}
                        for r in awards.Result],
        "bye_sources": [{"name": k.value, "label": label, "explanation": text}
                        for k, (label, text) in SOURCE_LABELS.items()],
        "forfeit_presets": [{"name": p.name, "label": p.label, "explanation": p.explanation,
                             "policy": p.policy.to_dict()} for p in awards.FORFEIT_PRESETS.values()],
        "entrant_types": _enum_choices(events.EntrantType),
        "pairing_systems": _enum_choices(events.PairingSystem),
        "time_called": _enum_choices(events.TimeCalled),
        "club_avoidance": [{"name": c.value, "level": c.level, "label": c.label,
                            "explanation": c.explanation} for c in events.ClubAvoidance],
        "rule_options": [bound.to_dict() for bound in rules.RULE_BOUNDS.values()],
        "defaults": {
            "entrant_type": events.DEFAULT_ENTRANT_TYPE.value,
            "pairing_system": events.DEFAULT_PAIRING_SYSTEM.value,
            "match_format": match.DEFAULT_MATCH_FORMAT.to_dict(),
            "tiebreaks": list(tiebreaks.DEFAULT_TIE_BREAKS),
            "bye_policy": awards.DEFAULT_BYE_POLICY.preset,
            "forfeit_policy": awards.DEFAULT_FORFEIT_POLICY.preset_in(awards.FORFEIT_PRESETS),
            "club_avoidance": events.DEFAULT_CLUB_AVOIDANCE.level,
            "time_called": events.DEFAULT_TIME_CALLED.value,
        },
    }
