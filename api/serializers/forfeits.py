"""A tournament's settings of issue 13: the forfeit policy (``ForfeitPolicyField``), the grace time before a
no-show is forfeited and whether a late entry may take a bye.

The forfeit policy is passed to the service as sent and checked there by the registry
(``formats.forfeit_policy`` in ``tournament_update``); its OpenAPI schema is built from the registry each time
the document is generated (``ForfeitPolicyFieldExtension``, next to ``api.schema.RegistryFieldExtension``),
never from a copy.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.plumbing import ResolvedComponent
from rest_framework import serializers

from tournaments import formats
from tournaments.formats.awards import FIGURES
from tournaments.services.events import MAX_GRACE_MINUTES


class ForfeitPolicyField(serializers.JSONField):
    """A tournament's forfeit policy: a preset's name (``FORFEIT_PRESETS``) or the policy spelled out; passed
    to the service as sent (the registry checks it), answered as stored (spelled out)."""


def forfeit_components() -> dict[str, dict[str, Any]]:
    """The forfeit policy's components, from the registry now."""
    ref = {name: {"$ref": f"#/components/schemas/{name}"} for name in ("ForfeitPreset", "ForfeitPolicyRules",
                                                                       "ForfeitResult", "AwardFigure")}
    presets = formats.FORFEIT_PRESETS
    return {
        "ForfeitPreset": {
            "type": "string", "enum": list(presets),
            "description": "\n".join(f"- `{p.name}`: {p.explanation}" for p in presets.values()),
        },
        "ForfeitResult": {"type": "string", "enum": [formats.Result.WIN.value],
                          "description": "A forfeit is always a win for the pair present."},
        "ForfeitPolicyRules": {
            "type": "object",
            "description": "What a forfeit credits and charges, figure by figure; a figure left out takes the "
                           "default's source, `preset` starts from a preset. The bullseyes are always the match "
                           "format's games to nil.",
            "properties": {"preset": ref["ForfeitPreset"], "result": ref["ForfeitResult"],
                           **{figure: ref["AwardFigure"] for figure in FIGURES}},
            "additionalProperties": False,
        },
        "ForfeitPolicy": {
            "oneOf": [ref["ForfeitPreset"], ref["ForfeitPolicyRules"]],
            "description": "A preset's name, or the policy spelled out (stored spelled out). Changes between "
                           "rounds only.",
        },
    }


class ForfeitPolicyFieldExtension(OpenApiSerializerFieldExtension):
    """``ForfeitPolicyField`` as its registry components, built when the document is generated."""

    target_class = "api.serializers.forfeits.ForfeitPolicyField"

    def map_serializer_field(self, auto_schema: Any, direction: Any) -> Any:
        from api.schema import registry_components

        built = {**registry_components(), **forfeit_components()}
        for name in ("ForfeitPolicy", "ForfeitPreset", "ForfeitPolicyRules", "ForfeitResult", "AwardFigure",
                     "AwardSource", "AwardSourceKind", "AwardRounding"):
            auto_schema.registry.register_on_missing(
                ResolvedComponent(name=name, type=ResolvedComponent.SCHEMA, schema=built[name], object=name))
        name = "ForfeitPolicyRules" if direction == "response" else "ForfeitPolicy"
        return {"$ref": f"#/components/schemas/{name}"}


#: The tournament settings of issue 13, declared on ``TournamentSerializer``.
def forfeit_policy_field() -> ForfeitPolicyField:
    return ForfeitPolicyField(required=False, help_text="What a forfeit gives the pair present: a preset of "
                              "`GET /tournaments/formats/` (`forfeit_presets`) or the policy spelled out.")


def grace_minutes_field() -> serializers.IntegerField:
    return serializers.IntegerField(
        min_value=0, max_value=MAX_GRACE_MINUTES, required=False,
        help_text="Minutes after a round is published before a pair that has not come may be forfeited.")


def late_entry_bye_field() -> serializers.BooleanField:
    return serializers.BooleanField(required=False, help_text="Whether a late entry may take the bye of its "
                                    "first round (false: the bye goes to another pair).")
