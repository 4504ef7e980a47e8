"""The OpenAPI fuzzer: schemathesis sends every operation of /api/schema/ generated input, valid
and invalid, as the gaming manager, to the live test server holding a week of the demo.
No answer may be a server error, and every answer must be one the schema documents (status
code and body).

Bounded for CI: 6 examples per write (POST, PUT, PATCH, DELETE: bodies of many fields, where a
rule can fail) and 4 per read (a path id, a few filters and the page), each drawn from valid or
invalid input, derandomized (the same requests on every run), no example database: about 1,100
requests over the 224 operations. They were 12 for every operation (2,688 requests): the file
took 62-79 s of CPU alone, 35-40 s now; the requests (answered by the server in this process)
and their generation are nearly all of it, so the time follows the number. The final asserts
still hold: over 40 reads answered with data and writes went through.
`FUZZ_EXAMPLES=200 pytest tests/api/test_fuzz.py` explores further by hand (reads get two thirds
of the number)."""

import os
import time

import pytest
import requests
import schemathesis
from django.core.servers.basehttp import WSGIRequestHandler
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.api.demo import load_short_demo

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "6"))
READ_EXAMPLES = max(1, EXAMPLES * 2 // 3)
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
# Deleting runs late, so that the manager's own membership outlives the rest of the run, and
# logging out (which revokes the run's token) last.
ORDER = {"GET": 0, "POST": 1, "PUT": 2, "PATCH": 2, "DELETE": 3}


def _order(operation) -> tuple:
    return ("/logout" in operation.path, ORDER[operation.method.upper()], operation.label)


def _fuzz_operation(operation, base_url, session, answered: set) -> list[str]:
    failures: list[str] = []

    @settings(
        max_examples=READ_EXAMPLES if operation.method.upper() == "GET" else EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
        report_multiple_bugs=False,
    )
    @given(
        case=operation.as_strategy(generation_mode=schemathesis.GenerationMode.POSITIVE)
        | operation.as_strategy(generation_mode=schemathesis.GenerationMode.NEGATIVE)
    )
    def run(case):
        response = case.call(base_url=base_url, session=session)
        if response.status_code < 300:
            answered.add(operation.label)
        try:
            case.validate_response(response, checks=CHECKS)
        except BaseExceptionGroup as group:  # collect every operation's failures before asserting
            failures.append(_summary(group, response))

    run()
    return failures


def _summary(group: BaseExceptionGroup, response) -> str:
    """One line per failing request: what failed, the answer, and the curl that reproduces it."""
    titles = ", ".join(sorted({getattr(f, "title", type(f).__name__) for f in group.exceptions}))
    curl = next((line.strip() for line in str(group).splitlines() if line.strip().startswith("curl ")), "")
    return f"{titles} [{response.status_code}] {curl} -> {response.text[:300]!r}"


@pytest.mark.fuzz
@pytest.mark.django_db(transaction=True)
def test_no_operation_answers_a_server_error_or_an_undocumented_response(live_server, monkeypatch, settings):
    # The test server answers in two writes; without TCP_NODELAY each request waits out the
    # client's delayed ACK (40 ms), which would be most of the run.
    monkeypatch.setattr(WSGIRequestHandler, "disable_nagle_algorithm", True)
    # The rate limits (429, documented) would stop the writes after a few hundred requests.
    unlimited = dict.fromkeys(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "1000000/minute")
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": unlimited}
    load_short_demo(weeks=1)
    session = requests.Session()
    token = session.post(
        f"{live_server.url}/api/v1/auth/token/", data={"username": "gm", "password": "demo-cardroom-2026"}
    ).json()["token"]
    session.headers["Authorization"] = f"Token {token}"
    schema = schemathesis.openapi.from_url(f"{live_server.url}/api/schema/?format=json", headers=dict(session.headers))
    operations = sorted((result.ok() for result in schema.get_all_operations()), key=_order)
    assert len(operations) > 100

    failures, answered = [], set()
    for operation in operations:
        started = time.monotonic()
        failures += _fuzz_operation(operation, live_server.url, session, answered)
        if os.environ.get("FUZZ_TIMING"):
            print(f"{time.monotonic() - started:6.2f} s {operation.label}")
    assert not failures, f"{len(failures)} failures:\n" + "\n".join(failures)
    # The generated input reached the endpoints, not only their validation: the lists and many
    # reads answered with data, and writes went through (random ids rarely name a real row).
    assert len({label for label in answered if label.startswith("GET")}) >= 40
    assert {label for label in answered if label.startswith("POST")}


# Each of the registry's operations (its own schema, /registry/api/v1/schema/) by the party it is
# meant for, in the order the parties run: the licensee (its credential) files and reads its own,
# the agency's staff read (a state auditor's token), and a state supervisor registers licensees and
# issues and revokes credentials, last, so that a revoked credential ends nobody's run. The reads
# both parties make are fuzzed as each.
REGISTRY_PARTIES = {
    "licensee": {
        "filings_list", "filings_create", "filing_retrieve", "filing_pdf_retrieve",
        "anchors_list", "anchors_create", "alerts_list", "alerts_create",
    },
    "auditor": {
        "filings_list", "filing_retrieve", "filing_pdf_retrieve", "anchors_list", "alerts_list",
        "dealers_list", "licensees_list", "credentials_list",
    },
    "supervisor": {"licensees_create", "credentials_create", "credentials_revoke"},
}  # fmt: skip
# Generated input cannot be answered with data here (each answers a 4xx): a filing package is
# received only when its figures hash to the SHA-256 it states (core.filing_package.problems), which
# no generated package does; a filing and its PDF are named in the path by a receipt number
# ("WA-HB-2026-000001") and a PDF's SHA-256, which generated text names only by chance.
REGISTRY_UNANSWERED = {"filings_create", "filing_retrieve", "filing_pdf_retrieve"}


def _registry_world():
    """Washington's house-banked agency (its pack names a state-issued dealer identifier, so the
    dealer view is offered and a generated identifier reaches its query), its licensee Evergreen
    holding a credential, a filing with its PDF, a chain head and an alert, so that every list
    answers rows; a state auditor and a state supervisor of the agency. Registered, issued and
    received through the registry's services. Returns each party's Authorization header."""
    import base64
    import hashlib
    from datetime import date

    from django.contrib.auth import get_user_model
    from knox.models import AuthToken

    from registry import services
    from registry.models import Agency, Regulator, RegulatorRole
    from tests.registry.test_registry_api import package

    evergreen, _ = services.register_licensee(
        acting_user=None, agency_name="Washington State Gambling Commission", jurisdiction="WA-HB",
        contact="", name="Evergreen", licence_number="WSGC-1", expected_from=date(2026, 1, 1),
    )  # fmt: skip
    issued = services.issue_credential(acting_user=None, licensee=evergreen)
    pdf = b"%PDF-1.4 the quarterly report"
    sha = hashlib.sha256(pdf).hexdigest()
    filed = {
        **package(jurisdiction="WA-HB", licence="WSGC-1", name="Evergreen"),
        "reports": [{"kind": "quarterly", "pdf_sha256": sha}],
    }
    services.receive_filing(
        credential=issued.credential, idempotency_key="q3", package=filed,
        pdfs=[{"pdf_sha256": sha, "content_base64": base64.b64encode(pdf).decode()}],
    )  # fmt: skip
    services.receive_anchors(
        credential=issued.credential,
        anchors=[{"chain": "org-1", "seq": 12, "hash": "a" * 64, "head_at": "2026-10-05T15:00:00+00:00"}],
    )
    services.receive_alerts(
        credential=issued.credential,
        alerts=[
            {
                "id": 1, "site": {"id": 7, "name": "Spokane"}, "rule": "floor.fill_limit", "citation": "House control",
                "title": "A fill over the limit", "period_key": "2026-10-05", "opened_at": "2026-10-05T15:00:00+00:00",
                "resolved_at": None,
            }
        ],
    )  # fmt: skip
    agency, headers = Agency.objects.get(), {"licensee": f"Licensee {issued.secret}"}
    for party, role in (("auditor", RegulatorRole.STATE_AUDITOR), ("supervisor", RegulatorRole.STATE_SUPERVISOR)):
        user = get_user_model().objects.create_user(f"state-{party}", password="x")
        Regulator.objects.create(user=user, agency=agency, role=role)
        headers[party] = f"Token {AuthToken.objects.create(user)[1]}"
    return headers


@pytest.mark.fuzz
# Sequences reset: the licensee and its credential are id 1 on PostgreSQL too (not the ids earlier
# tests used), where the generated ids reach them, so the reads by id answer with data on both databases.
@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_every_registry_operation_answers_no_server_error_nor_an_undocumented_response(
    live_server, monkeypatch, settings
):
    """The state registry's API has its own schema (/registry/api/v1/schema/), left out of the
    organization's above: every one of its operations is fuzzed here as the party it is meant for
    (`REGISTRY_PARTIES`), a licensee with its credential, the agency's staff with a token."""
    monkeypatch.setattr(WSGIRequestHandler, "disable_nagle_algorithm", True)
    unlimited = dict.fromkeys(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "1000000/minute")
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": unlimited}
    headers = _registry_world()
    schema = schemathesis.openapi.from_url(
        f"{live_server.url}/registry/api/v1/schema/?format=json", headers={"Authorization": headers["auditor"]}
    )
    operations = {op.definition.raw["operationId"]: op for op in (r.ok() for r in schema.get_all_operations())}
    # Every operation the schema lists is fuzzed: one added later without a party here fails.
    assert set(operations) == set().union(*REGISTRY_PARTIES.values())
    failures, answered = [], set()
    for party, operation_ids in REGISTRY_PARTIES.items():
        session = requests.Session()
        session.headers["Authorization"] = headers[party]
        for operation_id in sorted(operation_ids, key=lambda o: _order(operations[o])):
            reached: set = set()
            failures += _fuzz_operation(operations[operation_id], live_server.url, session, reached)
            answered |= {(party, operation_id)} if reached else set()
    assert not failures, f"{len(failures)} failures:\n" + "\n".join(failures)
    # The generated input reached the services and queries: every operation answered with data
    # or went through at least once, but those generated input cannot reach (REGISTRY_UNANSWERED).
    expected = {(party, o) for party, ids in REGISTRY_PARTIES.items() for o in ids - REGISTRY_UNANSWERED}
    assert answered == expected
