"""The OpenAPI 3.1 document: valid, three auth schemes, the error shape, the hand record as components,
and an example for every request body and every response body of every operation."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest
from django.test import Client
from drf_spectacular.validation import validate_schema

from api.schema import HAND_SCHEMA_FILE

pytestmark = pytest.mark.django_db


@cache
def document() -> dict[str, Any]:
    """The document as /api/schema/ serves it (generated here, so the tests can be parametrized by it)."""
    from drf_spectacular.generators import SchemaGenerator

    return json.loads(json.dumps(SchemaGenerator().get_schema(request=None, public=True)))


def test_the_endpoint_serves_the_document() -> None:
    response = Client().get("/api/schema/?format=json")
    assert response.status_code == 200
    assert json.loads(response.content)["paths"].keys() == document()["paths"].keys()


def operations() -> list[tuple[str, str, dict[str, Any]]]:
    return [(method, path, op) for path, item in document()["paths"].items() for method, op in item.items()]


def test_the_document_is_valid_openapi_3_1() -> None:
    schema = document()
    assert schema["openapi"] == "3.1.0"
    validate_schema(schema)


def test_auth_schemes_and_error_shape() -> None:
    components = document()["components"]
    assert set(components["securitySchemes"]) == {"deviceToken", "organiserToken", "cookieAuth"}
    assert components["schemas"]["Error"]["required"] == ["error"]
    assert set(components["schemas"]["ErrorDetail"]["properties"]) == {"code", "message", "fields", "current"}


def test_the_hand_record_is_the_hand_format_schema() -> None:
    schemas = document()["components"]["schemas"]
    shared = json.loads(HAND_SCHEMA_FILE.read_text())
    assert {"HandFormatHand", "HandFormatCard", "HandFormatRules", "HandFormatGameDocument"} <= set(schemas)
    # each form of a hand is a component of its own (named from its title), keeping the title
    variants = [schemas[v["$ref"].rsplit("/", 1)[1]] for v in schemas["HandFormatHand"]["oneOf"]]
    assert [v["title"] for v in variants] == [v["title"] for v in shared["$defs"]["hand"]["oneOf"]]
    submit = document()["paths"]["/api/v1/tablet/boards/{board_id}/hands/"]["post"]
    ref = submit["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    body = schemas[ref.rsplit("/", 1)[1]]
    assert body["properties"]["hand"] == {"$ref": "#/components/schemas/HandFormatHand"}
    assert "#/$defs/" not in json.dumps(document())


@pytest.mark.parametrize("method,path,op", operations(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_operation_has_examples(method: str, path: str, op: dict[str, Any]) -> None:
    for media_type, content in op.get("requestBody", {}).get("content", {}).items():
        assert content.get("examples"), f"{method} {path} request {media_type}"
    for status, response in op["responses"].items():
        for media_type, content in response.get("content", {}).items():
            assert content.get("examples"), f"{method} {path} {status} {media_type}"
    assert any(code.startswith("4") for code in op["responses"]), "refusals documented"


def test_interactive_docs() -> None:
    response = Client().get("/api/docs/")
    assert response.status_code == 200
    assert b"swagger" in response.content.lower()
