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


REGISTRY_OPERATIONS = {"licensees_create", "credentials_list"}


@pytest.mark.fuzz
# Sequences reset: the licensee is id 1 on PostgreSQL too (not the ids earlier tests used), where the
# generated ids reach it, so the read below answers with data on both databases.
@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_the_registrys_supervisor_operations_answer_no_server_error_nor_an_undocumented_response(
    live_server, monkeypatch, settings
):
    """The state registry's API has its own schema (/registry/api/v1/schema/), left out of the
    organization's above: its operations that take a supervisor's input (registering a licensee,
    reading a licensee's credentials) are fuzzed here as the agency's supervisor, with a token."""
    from datetime import date

    from django.contrib.auth import get_user_model
    from knox.models import AuthToken

    from registry import services
    from registry.models import Agency, Regulator, RegulatorRole

    monkeypatch.setattr(WSGIRequestHandler, "disable_nagle_algorithm", True)
    unlimited = dict.fromkeys(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "1000000/minute")
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": unlimited}
    elks, _ = services.register_licensee(
        acting_user=None, agency_name="North Dakota Attorney General - Gaming Division", jurisdiction="ND",
        contact="", name="Elks", licence_number="G-1", expected_from=date(2026, 1, 1),
    )  # fmt: skip
    services.issue_credential(acting_user=None, licensee=elks)
    user = get_user_model().objects.create_user("state-boss", password="x")
    Regulator.objects.create(user=user, agency=Agency.objects.get(), role=RegulatorRole.STATE_SUPERVISOR)
    session = requests.Session()
    session.headers["Authorization"] = f"Token {AuthToken.objects.create(user)[1]}"
    schema = schemathesis.openapi.from_url(
        f"{live_server.url}/registry/api/v1/schema/?format=json", headers=dict(session.headers)
    )
    operations = [
        op
        for op in (result.ok() for result in schema.get_all_operations())
        if op.definition.raw.get("operationId") in REGISTRY_OPERATIONS
    ]
    assert len(operations) == len(REGISTRY_OPERATIONS)
    failures, answered = [], set()
    for operation in operations:
        failures += _fuzz_operation(operation, live_server.url, session, answered)
    assert not failures, f"{len(failures)} failures:\n" + "\n".join(failures)
    # The generated input reached the service: a registration went through, and so did a read.
    assert answered == {"POST /registry/api/v1/licensees/", "GET /registry/api/v1/licensees/{id}/credentials/"}
