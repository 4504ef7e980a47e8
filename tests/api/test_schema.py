"""The OpenAPI schema documents the answers each operation really gives: a described body for
every success, and the error answers (400, 401, 403, 404, 413) where they can happen."""

import json
from functools import cache

import pytest
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer


@cache
def _schema() -> dict:
    """The schema /api/schema/ serves, generated once for the module (it takes seconds)."""
    return json.loads(OpenApiJsonRenderer().render(SchemaGenerator().get_schema(request=None, public=True)))


@pytest.fixture
def schema():
    return _schema()


def _resolve(schema, node):
    while "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    return node


def operations(schema):
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            yield path, method, operation


def test_every_success_documents_its_body(schema):
    vague = []
    for path, method, operation in operations(schema):
        for code, response in operation["responses"].items():
            if not code.startswith("2") or code == "204":
                continue
            content = response.get("content", {})
            body = _resolve(schema, content.get("application/json", {}).get("schema", {}))
            described = body.get("properties") or body.get("items") or set(content) - {"application/json"}
            if not described:
                vague.append(f"{method.upper()} {path} {code}")
    assert not vague


@pytest.mark.parametrize(
    "path,method,fields",
    [
        ("/api/v1/sites/{id}/daily-summary/", "get", {"tables", "total", "cash", "books_closed"}),
        ("/api/v1/sites/{id}/quarter-summary/", "get", {"days", "total", "long_short_cents"}),
        ("/api/v1/employees/{id}/percent-of-hold/", "get", {"shifts", "total", "z_score"}),
        ("/api/v1/organizations/{id}/tax/", "get", {"agp_cents", "tax_cents", "brackets"}),
        ("/api/v1/count-sessions/{id}/", "get", {"members", "signatures", "boxes"}),
        ("/api/v1/drop-boxes/{id}/placements/", "post", {"drop", "placed_at"}),
        ("/api/v1/sites/{site_pk}/slip-register/", "get", {"site", "series"}),
        ("/api/v1/sites/{site_pk}/custody-queues/", "get", {"awaiting_verification", "tables_without_opener"}),
    ],
)
def test_the_figures_and_counts_document_their_real_fields(schema, path, method, fields):
    responses = schema["paths"][path][method]["responses"]
    success = next(r for code, r in responses.items() if code.startswith("2"))
    body = _resolve(schema, success["content"]["application/json"]["schema"])
    assert fields <= set(body["properties"])


def test_every_operation_documents_its_errors(schema):
    missing = []
    for path, method, operation in operations(schema):
        codes = set(operation["responses"])
        expected = {"401", "403"}
        if "{" in path:
            expected.add("404")
        if operation.get("parameters") or "requestBody" in operation:
            expected.add("400")
        if "requestBody" in operation:
            expected.add("413")
        if not expected <= codes:
            missing.append(f"{method.upper()} {path}: {sorted(expected - codes)}")
        for code in expected:
            assert "application/json" in operation["responses"][code]["content"], (path, method, code)
    assert not missing


def test_rate_limited_operations_document_429(schema):
    assert "429" in schema["paths"]["/api/v1/tables/"]["post"]["responses"]
    assert "429" in schema["paths"]["/api/v1/auth/token/"]["post"]["responses"]
    assert "429" not in schema["paths"]["/api/v1/tables/"]["get"]["responses"]


def test_the_schema_cites_no_packs_rule_as_if_it_held_everywhere(schema):
    """The schema is one for every pack: a description cites no section of one pack's texts (ND's
    chapter, Washington's WAC, New York's NYCRR) as if it held at every site. The packs themselves
    are named where they are chosen (the jurisdiction choices list each pack with its texts)."""
    import re

    cited = re.compile(r"99-01\.3-\d|WAC 230-|NYCRR")
    found = []

    def walk(node, where):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "description" and isinstance(value, str) and cited.search(value):
                    lines = [line for line in value.splitlines() if cited.search(line)]
                    if not all(line.lstrip().startswith("* `") for line in lines):  # a choice's label
                        found.append((where, value))
                walk(value, f"{where}/{key}")
        elif isinstance(node, list):
            for n, value in enumerate(node):
                walk(value, f"{where}/{n}")

    walk(schema, "")
    assert found == []
