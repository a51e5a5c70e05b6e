"""The OpenAPI 3.1 document's shared parts: the error shape, error examples, and the hand record.

``error_responses(409, 412, ...)`` documents an operation's particular refusals in the one error shape;
``postprocess_schema`` (a drf-spectacular post-processing hook) adds the refusals every operation can
answer (400/401/403/404/413/415/429), and copies ``api/schemas/hand-format-v1.schema.json``
(docs/hand-format.md's JSON Schema) into ``components/schemas`` as ``HandFormat*`` components, so request
bodies ``$ref`` the hand record itself; every object or enum inside it becomes a component of its own,
named from its path in the schema (``HandFormatHandTallyFormJackObject``: letters and digits, no position),
so no client generator has to invent a name (issue 18; docs/api.md, "Generate a client").
``AutoSchema`` marks rate-limited operations for the 429.

A tournament's settings are documented from the registry (``tournaments.formats``) each time the document
is generated, never from a copy: ``RegistryFieldExtension`` maps every ``RegistryField`` of the
serializers to components (``MatchFormat``, ``TeamFormat``, ``TieBreakOrder`` with ``TieBreakName``,
``ByePolicy`` with ``ByePreset``, ``ByePolicyRules``, ``AwardFigure``, ``AwardSource``, the enums
``EntrantType``, ``PairingSystem``, ``TimeCalled`` and the ``ClubAvoidance`` level), so a tie-break registered at run time is in the enum
of the next document.
"""

from __future__ import annotations

import copy
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from drf_spectacular import openapi
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.plumbing import ResolvedComponent
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, inline_serializer
from rest_framework import serializers

from tournaments import formats
from tournaments.formats.awards import FIGURES, MAX_FIXED, SOURCE_LABELS
from tournaments.formats.match import MAX_BOARDS, MAX_GAMES, MAX_TEAM_TARGET

HAND_SCHEMA_FILE = Path(__file__).resolve().parent / "schemas" / "hand-format-v1.schema.json"
HAND_PREFIX = "HandFormat"
#: The component a request's ``hand`` field refers to.
HAND_REF = {"$ref": f"#/components/schemas/{HAND_PREFIX}Hand"}
RULES_REF = {"$ref": f"#/components/schemas/{HAND_PREFIX}Rules"}

ErrorSerializer = inline_serializer(
    name="Error",
    fields={
        "error": inline_serializer(
            name="ErrorDetail",
            fields={
                "code": serializers.CharField(help_text="One stable code per check, e.g. `low_above_high`."),
                "message": serializers.CharField(help_text="A sentence a scorer or organiser understands."),
                "fields": serializers.DictField(
                    child=serializers.CharField(),
                    required=False,
                    help_text="Validation errors: path (`hand.low.card`, `seating.0`) -> message.",
                ),
                "current": serializers.DictField(
                    required=False, help_text="The current state (409 and 412): what the write should have named."
                ),
            },
        )
    },
)

_ERROR_EXAMPLES: dict[int, tuple[str, dict[str, Any]]] = {
    400: (
        "Engine refusal",
        {
            "code": "low_above_high",
            "message": "2H cannot be Low: it is above the High card 9H",
            "fields": {"hand.low.card": "2H cannot be Low: it is above the High card 9H"},
        },
    ),
    401: ("Not paired or revoked", {"code": "device_not_paired", "message": "This tablet is not paired, or its pairing was revoked; pair it again."}),
    403: ("Another table's board", {"code": "not_your_board", "message": "This tablet scores table 3, not this board."}),
    404: ("Not found", {"code": "not_found", "message": "Not found."}),
    409: (
        "Hand number taken",
        {
            "code": "hand_number_taken",
            "message": "Hand 7 of game 2 is already recorded.",
            "current": {"board": 41, "game": 2, "next_hand": 8, "score": [9, 6]},
        },
    ),
    412: ("Stale version", {"code": "stale_version", "message": "Hand 4 is at version 2, not 1.", "current": {"hand": 88, "version": 2}}),
    413: ("Too large", {"code": "payload_too_large", "message": "The request body is too large."}),
    415: ("Not JSON", {"code": "unsupported_media_type", "message": 'Unsupported media type "text/plain" in request.'}),
    422: ("Key reused", {"code": "idempotency_key_reused", "message": "This Idempotency-Key was used for another request."}),
    428: ("No If-Match", {"code": "precondition_required", "message": "Send If-Match with the hand's version."}),
    429: ("Rate limited", {"code": "throttled", "message": "Request was throttled. Expected available in 12 seconds."}),
}


def error_responses(*statuses: int) -> dict[int, OpenApiResponse]:
    """Documented refusals, each in the one error shape with an example."""
    responses: dict[int, OpenApiResponse] = {}
    for status_code in statuses:
        summary, error = _ERROR_EXAMPLES.get(status_code, ("Refused", {"code": "refused", "message": "Refused."}))
        responses[status_code] = OpenApiResponse(
            response=ErrorSerializer,
            description=summary,
            examples=[OpenApiExample(summary, value={"error": error}, status_codes=[str(status_code)], response_only=True)],
        )
    return responses


IDEMPOTENCY_KEY = OpenApiParameter(
    name="Idempotency-Key",
    type=OpenApiTypes.STR,
    location=OpenApiParameter.HEADER,
    required=True,
    description=(
        "Unique per device and write (a UUID). The same key with the same body returns the stored answer; "
        "with another body, 422. Missing: 400."
    ),
)

IF_MATCH = OpenApiParameter(
    name="If-Match",
    type=OpenApiTypes.STR,
    location=OpenApiParameter.HEADER,
    required=False,
    description="The hand's version as last read (its ETag, e.g. `\"1\"`). Missing: 428; stale: 412.",
)


class AutoSchema(openapi.AutoSchema):
    """drf-spectacular's AutoSchema, marking rate-limited operations so they document 429."""

    def get_extensions(self) -> dict[str, Any]:
        extensions = dict(super().get_extensions())
        if getattr(self.view, "throttle_classes", None):
            extensions["x-throttled"] = True
        return extensions


# ---- a tournament's settings, from the registry at generation time ----------------------------------------


def _listing(items: Any) -> str:
    return "\n".join(f"* `{value}`: {text}" for value, text in items)


def registry_components() -> dict[str, dict[str, Any]]:
    """Every settings component, built from the registry now (a tie-break registered since is in it)."""
    ref = {name: {"$ref": f"#/components/schemas/{name}"} for name in (
        "ByePreset", "ByePolicyRules", "AwardFigure", "AwardSource", "TieBreakName", "MatchKind", "TeamKind",
        "ByeResult", "AwardSourceKind", "AwardRounding")}
    kinds = formats.CHOSEN_MATCH_KINDS
    return {
        "MatchFormat": {
            "type": "object",
            "description": "What each board plays.\n\n" + _listing((k.value, k.label) for k in kinds),
            "properties": {"kind": ref["MatchKind"], "n": {"type": "integer", "minimum": 1, "maximum": MAX_GAMES}},
            "required": ["kind", "n"], "additionalProperties": False,
        },
        "MatchKind": {"type": "string", "enum": [k.value for k in kinds],
                      "description": _listing((k.value, k.label) for k in kinds)},
        "TeamFormat": {
            "type": "object",
            "description": "A club-team match: `boards` K, decided by `kind` with `n`.\n\n"
                           + _listing((k.value, k.label) for k in formats.TeamKind),
            "properties": {"boards": {"type": "integer", "minimum": 1, "maximum": MAX_BOARDS},
                           "kind": ref["TeamKind"],
                           "n": {"type": "integer", "minimum": 1, "maximum": MAX_TEAM_TARGET}},
            "required": ["boards", "kind", "n"], "additionalProperties": False,
        },
        "TeamKind": {"type": "string", "enum": [k.value for k in formats.TeamKind],
                     "description": _listing((k.value, k.label) for k in formats.TeamKind)},
        "TieBreakName": {
            "type": "string", "enum": list(formats.TIE_BREAKS.names()),
            "description": _listing((t.name, f"{t.label}: {t.explanation}") for t in formats.TIE_BREAKS),
        },
        "TieBreakOrder": {
            "type": "array", "items": ref["TieBreakName"], "minItems": 1, "uniqueItems": True,
            "description": "Tie-breaks, best first: any of them, in any order, each once.",
        },
        "ByePreset": {
            "type": "string", "enum": list(formats.BYE_PRESETS),
            "description": _listing((p.name, p.explanation) for p in formats.BYE_PRESETS.values()),
        },
        "AwardSource": {
            "type": "object",
            "description": "Where one awarded figure comes from (`value` for `fixed`, `rounding` for "
                           "`own_average`).\n\n" + _listing(
                               (k.value, text) for k, (_, text) in SOURCE_LABELS.items()),
            "properties": {"source": ref["AwardSourceKind"],
                           "value": {"type": "integer", "minimum": 0, "maximum": MAX_FIXED},
                           "rounding": ref["AwardRounding"]},
            "required": ["source"], "additionalProperties": False,
        },
        "AwardSourceKind": {"type": "string", "enum": [k.value for k in formats.SourceKind]},
        "AwardRounding": {"type": "string", "enum": ["exact", "floor"],
                          "description": "An own average as it is (`exact`) or rounded down (`floor`)."},
        "AwardFigure": {
            "type": "object", "description": "What the entrant is credited (`for`) and charged (`against`).",
            "properties": {"for": ref["AwardSource"], "against": ref["AwardSource"]},
            "additionalProperties": False,
        },
        "ByePolicyRules": {
            "type": "object",
            "description": "What a bye counts as, and each figure's source; a figure left out takes the "
                           "round's average, `preset` starts from a preset.",
            "properties": {"preset": ref["ByePreset"], "result": ref["ByeResult"],
                           **{figure: ref["AwardFigure"] for figure in FIGURES}},
            "additionalProperties": False,
        },
        "ByeResult": {"type": "string", "enum": [r.value for r in formats.Result],
                      "description": _listing((r.value, f"a bye counts as {r.label}") for r in formats.Result)},
        "ByePolicy": {
            "oneOf": [ref["ByePreset"], ref["ByePolicyRules"]],
            "description": "A preset's name, or the policy spelled out (stored spelled out).",
        },
        "EntrantType": {"type": "string", "enum": [e.value for e in formats.EntrantType],
                        "description": _listing((e.value, e.explanation) for e in formats.EntrantType)},
        "PairingSystem": {"type": "string", "enum": [e.value for e in formats.PairingSystem],
                          "description": _listing((e.value, e.explanation) for e in formats.PairingSystem)},
        "ClubAvoidance": {
            "type": "integer", "minimum": 0, "maximum": max(c.level for c in formats.ClubAvoidance),
            "description": "How hard a Swiss draw keeps two pairs of one club apart.\n\n"
                           + _listing((c.level, c.label) for c in formats.ClubAvoidance),
        },
        "TimeCalled": {"type": "string", "enum": [e.value for e in formats.TimeCalled],
                       "description": _listing((e.value, e.explanation) for e in formats.TimeCalled)},
    }


#: The component each registry field's value is, with the components it refers to.
_FIELD_COMPONENTS = {
    "match_format": ("MatchFormat", "MatchKind"),
    "team_format": ("TeamFormat", "TeamKind"),
    "tiebreaks": ("TieBreakOrder", "TieBreakName"),
    "bye_policy": ("ByePolicy", "ByePreset", "ByePolicyRules", "ByeResult", "AwardFigure", "AwardSource",
                   "AwardSourceKind", "AwardRounding"),
    "entrant_type": ("EntrantType",),
    "pairing_system": ("PairingSystem",),
    "time_called": ("TimeCalled",),
    "club_avoidance": ("ClubAvoidance",),
}
#: Answers always carry the stored (canonical) form: a bye policy spelled out.
_RESPONSE_COMPONENT = {"bye_policy": "ByePolicyRules"}


class RegistryFieldExtension(OpenApiSerializerFieldExtension):
    """A ``RegistryField`` (api/serializers/events.py) as its registry component, built now."""

    target_class = "api.serializers.events.RegistryField"
    match_subclasses = True

    def map_serializer_field(self, auto_schema: Any, direction: Any) -> Any:
        setting = self.target.registry_setting
        built = registry_components()
        for name in _FIELD_COMPONENTS[setting]:
            auto_schema.registry.register_on_missing(
                ResolvedComponent(name=name, type=ResolvedComponent.SCHEMA, schema=built[name], object=name))
        name = _RESPONSE_COMPONENT.get(setting, _FIELD_COMPONENTS[setting][0]) if direction == "response" \
            else _FIELD_COMPONENTS[setting][0]
        return {"$ref": f"#/components/schemas/{name}"}


# ---- the hand record as components -------------------------------------------------------------------


_WORD_BREAK = re.compile(r"[^A-Za-z0-9]+")
#: The keywords whose schemas a client generator turns into classes of their own when they are inline.
_VARIANTS = ("oneOf", "anyOf", "allOf")


def _camel(text: str) -> str:
    """``tally form`` -> ``TallyForm``, ``kick_points`` -> ``KickPoints``: letters and digits only."""
    return "".join(word[:1].upper() + word[1:] for word in _WORD_BREAK.split(text) if word)


def _component_name(def_path: list[str]) -> str:
    return HAND_PREFIX + "".join(_camel(part) for part in def_path)


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _rewrite_refs(node: Any) -> Any:
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and value.startswith("#/$defs/"):
                out[key] = _ref(_component_name(value[len("#/$defs/") :].split("/")))["$ref"]
            else:
                out[key] = _rewrite_refs(value)
        return out
    if isinstance(node, list):
        return [_rewrite_refs(item) for item in node]
    return node


def _is_named_shape(node: Any) -> bool:
    """An inline object or enum: what a client generator would make a class of, under a name of its own
    making (``HandFormatHand_tally form``, ``HandFormatRules_type_1``). Such a schema becomes a component."""
    return isinstance(node, dict) and "$ref" not in node and (
        "properties" in node or node.get("type") == "object" or "enum" in node)


def _holds_named_shape(node: Any) -> bool:
    """``node`` is, or has below it where ``_lift`` looks, an inline object or enum."""
    if _is_named_shape(node):
        return True
    if not isinstance(node, dict):
        return False
    below = [*node.get("properties", {}).values()] if isinstance(node.get("properties"), dict) else []
    below += [node[key] for key in ("items", "additionalProperties") if isinstance(node.get(key), dict)]
    below += [sub for key in _VARIANTS if isinstance(node.get(key), list) for sub in node[key]]
    return any(_holds_named_shape(sub) for sub in below)


def _kind(node: dict[str, Any]) -> str | None:
    kind = node.get("type")
    if isinstance(kind, str):
        return kind
    for keyword, implied in (("properties", "object"), ("enum", "enum"), ("const", "const")):
        if keyword in node:
            return implied
    return None


def _variant_name(owner: str, variants: list[Any], index: int, pointer: str) -> str:
    """A ``oneOf`` variant's name: its owner's and its ``title`` (``HandFormatHandTallyForm``), or, untitled,
    its type when no other variant has that type (``HandFormatRulesObject``). Never its position: a
    variant added in front would rename the others."""
    variant = variants[index]
    title = variant.get("title")
    if isinstance(title, str) and _camel(title):
        return owner + _camel(title)
    kind = _kind(variant)
    if kind is not None and [_kind(v) for v in variants if isinstance(v, dict)].count(kind) == 1:
        return owner + _camel(kind)
    raise ValueError(f"{HAND_SCHEMA_FILE.name} {pointer}: give this variant a title; it names the component")


def _lift(node: Any, name: str, pointer: str, components: dict[str, Any], where: dict[str, str]) -> Any:
    """``node`` with its ``$defs`` references rewritten and every inline object or enum below it moved
    into ``components`` under a name made of the path to it: the owner's name, then the property
    (``Jack``), ``Item`` for an array's items, ``Value`` for ``additionalProperties``, a variant's title or
    type (see ``_variant_name``). Names follow the schema's structure, so they stay put as it grows."""
    if not isinstance(node, dict):
        return _rewrite_refs(node)

    def child(sub: Any, sub_name: str, sub_pointer: str) -> Any:
        converted = _lift(sub, sub_name, sub_pointer, components, where)
        if not _is_named_shape(sub):
            return converted
        _register(sub_name, converted, sub_pointer, components, where)
        return _ref(sub_name)

    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "properties" and isinstance(value, dict):
            out[key] = {prop: child(sub, name + _camel(prop), f"{pointer}/properties/{prop}")
                        for prop, sub in value.items()}
        elif key in ("items", "additionalProperties") and isinstance(value, dict):
            out[key] = child(value, name + ("Item" if key == "items" else "Value"), f"{pointer}/{key}")
        elif key in _VARIANTS and isinstance(value, list):
            out[key] = [
                child(sub, _variant_name(name, value, index, f"{pointer}/{key}/{index}"), f"{pointer}/{key}/{index}")
                if _holds_named_shape(sub) else _rewrite_refs(sub)
                for index, sub in enumerate(value)
            ]
        else:  # $ref, enum values, propertyNames, not, ...: references rewritten (no class is made of them)
            out[key] = _rewrite_refs({key: value})[key]
    return out


def _register(name: str, schema: Any, pointer: str, components: dict[str, Any], where: dict[str, str]) -> None:
    """Add a component, refusing a name that another one has, even in another case (``where`` is keyed by
    the lower-cased name: a generator's CamelCase or snake_case of the two would be one class)."""
    if name.lower() in where:
        raise ValueError(f"{HAND_SCHEMA_FILE.name}: {where[name.lower()]} and {pointer or '/'} would both be {name}")
    components[name] = schema
    where[name.lower()] = pointer


@cache
def hand_format_components() -> dict[str, Any]:
    """The components of ``api/schemas/hand-format-v1.schema.json`` (``components_from_json_schema``)."""
    return components_from_json_schema(json.loads(HAND_SCHEMA_FILE.read_text(encoding="utf-8")))


def components_from_json_schema(document: dict[str, Any]) -> dict[str, Any]:
    """Every ``$defs`` entry of the hand-format schema as a component (``deal_start``'s members apart,
    since ``deal_start`` itself is a folder, not a schema), plus ``HandFormatGameDocument`` for the whole,
    and every inline object or enum in them as a component of its own, named by its path (``_lift``):
    ``HandFormatHandTallyForm`` (the tally hand), ``HandFormatHandTallyFormJackObject`` (its jack),
    ``HandFormatRulesObject`` (rules spelled out). Every name is ``HandFormat`` and CamelCase words:
    letters and digits only, so no generator renames it, and two that would meet are refused here."""
    components: dict[str, Any] = {}
    where: dict[str, str] = {}
    for name, schema in document["$defs"].items():
        if name == "deal_start":
            for member, sub in schema.items():
                path = f"/$defs/{name}/{member}"
                converted = _lift(sub, _component_name([name, member]), path, components, where)
                _register(_component_name([name, member]), converted, path, components, where)
        else:
            converted = _lift(schema, _component_name([name]), f"/$defs/{name}", components, where)
            _register(_component_name([name]), converted, f"/$defs/{name}", components, where)
    whole = {k: v for k, v in document.items() if k not in ("$defs", "$schema", "$id")}
    name = f"{HAND_PREFIX}GameDocument"
    _register(name, _lift(whole, name, "", components, where), "", components, where)
    for name, schema in components.items():
        if isinstance(schema, dict):
            schema.setdefault("description", "docs/hand-format.md v1 (api/schemas/hand-format-v1.schema.json, "
                                             f"at {where[name.lower()] or '/'})")
    return dict(sorted(components.items()))


def _error_response(status_code: int) -> dict[str, Any]:
    summary, error = _ERROR_EXAMPLES.get(status_code, ("Refused", {"code": "refused", "message": "Refused."}))
    return {
        "description": summary,
        "content": {
            "application/json": {
                "schema": {"$ref": "#/components/schemas/Error"},
                "examples": {summary.replace(" ", ""): {"value": {"error": error}, "summary": summary}},
            }
        },
    }


ERROR_COMPONENTS = {
    "Error": {
        "type": "object",
        "description": "The one error shape of every 4xx (docs/decisions.md, errors).",
        "properties": {"error": {"$ref": "#/components/schemas/ErrorDetail"}},
        "required": ["error"],
    },
    "ErrorDetail": {
        "type": "object",
        "properties": {
            "code": {"type": "string", "description": "One stable code per check, e.g. `low_above_high`."},
            "message": {"type": "string", "description": "A sentence a scorer or organiser understands."},
            "fields": {
                "type": "object",
                "additionalProperties": {"type": "string"},
                "description": "Validation errors: path (`hand.low.card`, `seating.0`) -> message.",
            },
            "current": {
                "type": "object",
                "additionalProperties": True,
                "description": "The current state (409 and 412): what the write should have named.",
            },
        },
        "required": ["code", "message"],
    },
}


def _generic_errors(path: str, method: str, operation: dict[str, Any]) -> list[int]:
    codes = [400]
    if operation.get("security") != [{}] or method != "get":
        codes += [401, 403]
    if "{" in path:
        codes.append(404)
    if "requestBody" in operation:
        codes += [413, 415]
    if operation.get("x-throttled"):
        codes.append(429)
    return codes


def _any_or_null_is_any(node: Any) -> Any:
    """drf-spectacular writes a nullable free-form field as ``oneOf: [{}, {"type": "null"}]``, which null
    cannot satisfy under ``oneOf`` (it matches both): such a ``oneOf`` is just "any value". Repeated
    variants (a null twice) are dropped for the same reason."""
    if isinstance(node, dict):
        one_of = node.get("oneOf")
        if isinstance(one_of, list) and {} in one_of:
            node = {k: v for k, v in node.items() if k != "oneOf"}
        elif isinstance(one_of, list):  # a null variant added twice (ours and the nullable field's)
            unique: list[Any] = []
            for variant in one_of:
                if variant not in unique:
                    unique.append(variant)
            node = {**node, "oneOf": unique}
        return {k: _any_or_null_is_any(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_any_or_null_is_any(item) for item in node]
    return node


def postprocess_schema(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """drf-spectacular post-processing hook: the hand record's components, the error components, and
    the refusals every operation can answer (400/401/403/404/413/415/429) in the one error shape."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    for name, schema in {**hand_format_components(), **ERROR_COMPONENTS}.items():
        schemas[name] = copy.deepcopy(schema)
    for path, item in result.get("paths", {}).items():
        for method, operation in item.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            for status_code in _generic_errors(path, method, operation):
                operation["responses"].setdefault(str(status_code), _error_response(status_code))
            operation.pop("x-throttled", None)
    return _any_or_null_is_any(result)
