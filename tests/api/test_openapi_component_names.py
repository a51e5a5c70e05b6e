"""Component names of the OpenAPI document that every client generator takes as they are (issue 18).

openapi-python-client once dropped the tally hand's jack and the spelled-out rules: it had to invent names
for inline schemas (``HandFormatHand_tally form``, two ``HandFormatRules_type_1...``). Now every object or
enum of the hand format is a component named from the JSON Schema's structure (api/schema.py, ``_lift``),
and here every name is letters and digits, unique however a generator folds case or underscores (a
title counts too: openapi-python-client names a class after a component's ``title``), every ``$ref``
resolves, and the components still say exactly what api/schemas/hand-format-v1.schema.json says.
``make client-check`` (scripts/client_check.sh) runs the generator itself against a live server.
"""

from __future__ import annotations

import copy
import json
import re
from collections import defaultdict
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

from api.schema import HAND_SCHEMA_FILE, components_from_json_schema

pytestmark = pytest.mark.django_db

#: A name that needs no escaping or renaming in any generator's language: a letter, then letters and digits.
NAME = re.compile(r"^[A-Za-z][A-Za-z0-9]*$")
DEFAULT_DESCRIPTION = "docs/hand-format.md v1 (api/schemas/hand-format-v1.schema.json"


@cache
def document() -> dict[str, Any]:
    from drf_spectacular.generators import SchemaGenerator

    return json.loads(json.dumps(SchemaGenerator().get_schema(request=None, public=True)))


def schemas() -> dict[str, Any]:
    return document()["components"]["schemas"]


def folded(text: str) -> str:
    """What two names must not share: generators CamelCase, snake_case or lower-case them."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


def refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value
            else:
                yield from refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from refs(item)


def resolve(pointer: str) -> Any:
    assert pointer.startswith("#/"), f"{pointer}: not a reference inside the document"
    node: Any = document()
    for part in pointer[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        assert isinstance(node, dict) and part in node, f"{pointer} does not resolve"
        node = node[part]
    return node


def reachable(start: Any) -> set[str]:
    """The components reached from ``start`` through ``$ref``s, transitively."""
    seen: set[str] = set()
    todo = list(refs(start))
    while todo:
        name = todo.pop().rsplit("/", 1)[1]
        if name not in seen:
            seen.add(name)
            todo.extend(refs(schemas()[name]))
    return seen


def owner_of(properties: set[str]) -> list[str]:
    return [name for name, schema in schemas().items() if properties <= set(schema.get("properties", {}))]


def test_every_component_name_is_letters_and_digits() -> None:
    bad = [name for name in schemas() if not NAME.match(name)]
    assert not bad, f"component names a generator would rename or refuse: {bad}"


def test_no_two_names_meet_however_a_generator_folds_them() -> None:
    # a component's class is named after its name, or (openapi-python-client) after its title
    by_fold: dict[str, set[str]] = defaultdict(set)
    for name, schema in schemas().items():
        by_fold[folded(name)].add(name)
        title = schema.get("title")
        if isinstance(title, str):
            assert folded(title), f"{name}: a title with no letter or digit"
            by_fold[folded(title)].add(name)
    clashes = {fold: sorted(names) for fold, names in by_fold.items() if len(names) > 1}
    assert not clashes, f"names (or titles) one class name apart: {clashes}"


def test_every_ref_resolves() -> None:
    found = list(refs(document()))
    assert len(found) > 100  # guards against a walk that finds nothing
    for pointer in set(found):
        resolve(pointer)


def test_the_hand_format_leaves_no_class_for_a_generator_to_name() -> None:
    """An inline object or enum would be named by the generator (``..._type_1``); every one is a component."""

    def inline_shapes(node: Any, path: str, top: bool) -> Iterator[str]:
        if isinstance(node, dict):
            if not top and "$ref" not in node and ("properties" in node or node.get("type") == "object" or "enum" in node):
                yield path
            for key, value in node.items():
                if key not in ("propertyNames", "not"):  # no generator makes a class of these
                    yield from inline_shapes(value, f"{path}/{key}", False)
        elif isinstance(node, list):
            for index, item in enumerate(node):
                yield from inline_shapes(item, f"{path}/{index}", False)

    found = [path for name, schema in schemas().items() if name.startswith("HandFormat")
             for path in inline_shapes(schema, name, True)]
    assert not found, f"inline objects or enums in the hand format's components: {found}"


def test_the_jack_outcome_and_the_rules_object_are_named_components() -> None:
    # the names are part of the API: a generated client's classes are called so (a rename breaks clients)
    assert owner_of({"held_by", "won_by"}) == ["HandFormatHandTallyFormJackObject"]
    assert owner_of({"kick_points", "every_kick_scores"}) == ["HandFormatRulesObject"]
    assert schemas()["HandFormatHandTallyForm"]["properties"]["jack"] == {
        "oneOf": [{"type": "null"}, {"$ref": "#/components/schemas/HandFormatHandTallyFormJackObject"}]}
    assert "HandFormatRulesObjectKickPoints" in reachable(schemas()["HandFormatRulesObject"])
    # reachable from the hand schema, and from the operations that take a hand and a tournament's rules
    assert "HandFormatHandTallyFormJackObject" in reachable(schemas()["HandFormatHand"])
    assert {"HandFormatHandTallyFormJackObject", "HandFormatRulesObject"} <= reachable(
        schemas()["HandFormatGameDocument"])
    submit = document()["paths"]["/api/v1/tablet/boards/{board_id}/hands/"]["post"]
    assert "HandFormatHandTallyFormJackObject" in reachable(submit["requestBody"])
    assert "HandFormatRulesObject" in reachable(document()["paths"]["/api/v1/tournaments/"]["post"]["requestBody"])


def _expand(node: Any, lookup: Any) -> Any:
    """``node`` with every ``$ref`` replaced by what it names (the hand format has no recursion)."""
    if isinstance(node, dict):
        if "$ref" in node:
            target = _expand(lookup(node["$ref"]), lookup)
            rest = {k: _expand(v, lookup) for k, v in node.items() if k != "$ref"}
            return {**target, **rest}
        return {k: _expand(v, lookup) for k, v in node.items()}
    if isinstance(node, list):
        return [_expand(item, lookup) for item in node]
    return node


def _component(pointer: str) -> Any:
    schema = copy.deepcopy(schemas()[pointer.rsplit("/", 1)[1]])
    if str(schema.get("description", "")).startswith(DEFAULT_DESCRIPTION):
        del schema["description"]  # the pointer back to the file, added to every component
    return schema


def test_the_components_say_what_the_json_schema_says() -> None:
    shared = json.loads(HAND_SCHEMA_FILE.read_text(encoding="utf-8"))

    def in_file(pointer: str) -> Any:
        node: Any = shared
        for part in pointer[2:].split("/"):
            node = node[part]
        return node

    whole = {k: v for k, v in shared.items() if k not in ("$defs", "$schema", "$id")}
    assert _expand(_component("#/HandFormatGameDocument"), _component) == _expand(whole, in_file)
    assert _expand(_component("#/HandFormatHand"), _component) == _expand(shared["$defs"]["hand"], in_file)


def test_names_follow_the_structure_not_positions() -> None:
    """A hand form added in front, and a property added, rename nothing that was there."""
    shared = json.loads(HAND_SCHEMA_FILE.read_text(encoding="utf-8"))
    before = set(components_from_json_schema(shared))
    grown = copy.deepcopy(shared)
    grown["$defs"]["hand"]["oneOf"].insert(0, {"title": "claim form", "type": "object", "properties": {
        "dealer": {"$ref": "#/$defs/seat"}, "claim": {"enum": ["all", "rest"]}}})
    grown["$defs"]["rules"]["oneOf"][1]["properties"]["lead"] = {"enum": ["left", "right"]}
    after = set(components_from_json_schema(grown))
    assert before <= after
    assert after - before == {"HandFormatHandClaimForm", "HandFormatHandClaimFormClaim", "HandFormatRulesObjectLead"}


def test_a_variant_only_its_position_could_name_is_refused() -> None:
    shared = json.loads(HAND_SCHEMA_FILE.read_text(encoding="utf-8"))
    shared["$defs"]["sidecard"]["oneOf"].append({"type": "object", "properties": {"seat": {"type": "integer"}}})
    with pytest.raises(ValueError, match="give this variant a title"):
        components_from_json_schema(shared)


def test_two_paths_to_one_name_are_refused() -> None:
    shared = json.loads(HAND_SCHEMA_FILE.read_text(encoding="utf-8"))
    shared["$defs"]["hand_tally_form"] = {"type": "object", "properties": {}}
    with pytest.raises(ValueError, match="would both be HandFormatHandTallyForm"):
        components_from_json_schema(shared)
