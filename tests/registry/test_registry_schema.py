"""The registry API's own OpenAPI schema (/registry/api/v1/schema/): valid OpenAPI 3, listing
every registry endpoint with the licensee's credential as a security scheme, and none of the
organization's; the organization's schema (/api/schema/) lists none of the registry's."""

import pytest
from drf_spectacular.drainage import GENERATOR_STATS
from drf_spectacular.validation import validate_schema

SCHEMA = "/registry/api/v1/schema/"
ENDPOINTS = {
    "/registry/api/v1/filings/": {"get", "post"},
    "/registry/api/v1/filings/{receipt_number}/": {"get"},
    "/registry/api/v1/filings/{receipt_number}/pdfs/{pdf_sha256}/": {"get"},
    "/registry/api/v1/anchors/": {"get", "post"},
    "/registry/api/v1/alerts/": {"get", "post"},
    "/registry/api/v1/dealers/": {"get"},
    "/registry/api/v1/licensees/": {"get", "post"},
    "/registry/api/v1/licensees/{id}/credentials/": {"get", "post"},
    "/registry/api/v1/credentials/{id}/revoke/": {"post"},
}


@pytest.fixture
def schema(client, db):
    GENERATOR_STATS.reset()
    response = client.get(SCHEMA, HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    return response.json()


def test_the_registry_schema_validates_and_lists_its_endpoints(schema):
    validate_schema(schema)  # raises on anything that is not OpenAPI 3
    assert schema["info"]["title"] == "State registry API"
    listed = {path: set(methods) - {"parameters"} for path, methods in schema["paths"].items()}
    assert listed == ENDPOINTS
    assert schema["components"]["securitySchemes"]["licenseeCredential"]["name"] == "Authorization"
    assert not GENERATOR_STATS._warn_cache and not GENERATOR_STATS._error_cache  # every view documented


def test_the_registry_schema_documents_bodies_and_errors(schema):
    post = schema["paths"]["/registry/api/v1/filings/"]["post"]
    assert {"201", "400", "401", "403", "409"} <= set(post["responses"])
    body = post["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    assert set(schema["components"]["schemas"][body]["properties"]) == {"package", "pdfs"}
    pdf = schema["paths"]["/registry/api/v1/filings/{receipt_number}/pdfs/{pdf_sha256}/"]["get"]
    assert "application/pdf" in pdf["responses"]["200"]["content"] and "404" in pdf["responses"]


def test_the_organizations_schema_leaves_the_registry_out(client, manager):
    client.force_login(manager.user)
    paths = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()["paths"]
    assert "/api/v1/tables/" in paths and not [p for p in paths if p.startswith("/registry/")]


def test_the_registry_schema_speaks_no_packs_words_but_the_packages_keys(schema):
    """One schema serves every agency: the dealer view's hold, offered only where a pack names a
    state-issued identifier (Washington's), was described in North Dakota's words (AGP, gross proceeds)."""
    import json
    import re

    text = json.dumps(schema)
    assert not re.search(r"\bAGP\b|[Gg]ross proceeds|North Dakota|\bSFN\b|99-01", text)


def test_no_operation_lists_a_parameter_twice(schema):
    """Registering listed its Idempotency-Key twice (its own, and the one every POST gets,
    core.api_schema): OpenAPI names a parameter once by its name and place."""
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            named = [(p["name"], p["in"]) for p in operation.get("parameters", [])]
            assert len(named) == len(set(named)), f"{method} {path}: {named}"


def test_the_registry_schema_states_the_rules_its_bodies_are_read_by(schema):
    """A registration is read strictly (an unknown field a 400); a head's chain is named as the
    registry reads it (core.filing_package.CHAIN), so a client, or the fuzzer, can send one."""
    from core import filing_package

    components = schema["components"]["schemas"]
    assert components["LicenseeInRequest"]["additionalProperties"] is False
    assert components["LicenseeInRequest"]["properties"]["licence_number"]["maxLength"] == 60
    assert components["AnchorInRequest"]["properties"]["chain"]["pattern"] == filing_package.CHAIN.pattern
    assert "additionalProperties" not in components["AnchorsInRequest"]  # a licensee's heads keep what else they say


def test_the_idempotency_key_is_stated_only_on_the_posts_that_honour_it(schema):
    """A filing (the registry's receipt for the key) and a registration (core.idempotency) honour an
    Idempotency-Key: the schema states the header, its 409 and the replayed answer there only. An
    anchor or an alert sent twice is held once by what it is, and issuing or revoking a credential
    takes no key: stating one there promised a replay and a 409 those operations never answer."""
    keyed, unkeyed = set(), set()
    for methods in schema["paths"].values():
        post = methods.get("post")
        if post is None:
            continue
        names = {p["name"] for p in post.get("parameters", [])}
        (keyed if "Idempotency-Key" in names else unkeyed).add(post["operationId"])
        assert ("409" in post["responses"]) == ("Idempotency-Key" in names), post["operationId"]
    assert keyed == {"filings_create", "licensees_create"}
    assert unkeyed == {"anchors_create", "alerts_create", "credentials_create", "credentials_revoke"}
