"""Safe retries (house control): a POST retried with the same Idempotency-Key and body gets
the original answer and writes nothing; the same key with another body is a 409."""

import hashlib
import json
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from cardroom.models import Role
from core import limits
from core.models import IdempotentRequest
from core.tokens import issue_token
from floor import services
from floor.models import Slip
from tests.conftest import TERMINAL_PIN
from tests.floor.conftest import FILL, TRAY


def token_client(employee) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {issue_token(employee.user)[1]}")
    return client


def post_fill(client, table, key=None, chips=FILL, **extra):
    headers = {"Idempotency-Key": key} if key is not None else {}
    body = {"table": table.pk, "chips": chips, **extra}
    return client.post("/api/v1/fill-slips/", body, format="json", headers=headers)


def test_a_retried_slip_is_one_slip_with_the_original_answer(cast, open_table):
    client = token_client(cast[Role.CASHIER])
    first = post_fill(client, open_table, key="slip-1")
    again = post_fill(client, open_table, key="slip-1")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first
    assert Slip.objects.count() == 1


def test_without_a_key_two_posts_are_two_slips(cast, open_table):
    client = token_client(cast[Role.CASHIER])
    assert post_fill(client, open_table).status_code == 201
    assert post_fill(client, open_table).status_code == 201
    assert Slip.objects.count() == 2


def test_the_same_key_with_another_body_is_a_409_and_writes_nothing(cast, open_table):
    client = token_client(cast[Role.CASHIER])
    assert post_fill(client, open_table, key="slip-1").status_code == 201
    other = post_fill(client, open_table, key="slip-1", chips=[{"denomination": 500, "quantity": 1}])
    assert other.status_code == 409
    assert other.json()["detail"].startswith("House control: ")
    assert Slip.objects.count() == 1


def test_the_same_key_on_another_endpoint_is_a_409(cast, open_table):
    client = token_client(cast[Role.CASHIER])
    assert post_fill(client, open_table, key="k").status_code == 201
    response = client.post(
        "/api/v1/credit-slips/",
        {"table": open_table.pk, "chips": FILL},
        format="json",
        headers={"Idempotency-Key": "k"},
    )
    assert response.status_code == 409
    assert Slip.objects.count() == 1


def test_the_same_body_in_another_key_order_is_the_same_request(cast, open_table):
    client = token_client(cast[Role.CASHIER])
    body = f'{{"table": {open_table.pk}, "chips": [{{"denomination": 2500, "quantity": 20}}]}}'
    reordered = f'{{"chips": [{{"quantity": 20, "denomination": 2500}}], "table": {open_table.pk}}}'
    headers = {"Idempotency-Key": "k"}
    first = client.post("/api/v1/fill-slips/", body, content_type="application/json", headers=headers)
    again = client.post("/api/v1/fill-slips/", reordered, content_type="application/json", headers=headers)
    assert first.status_code == again.status_code == 201
    assert Slip.objects.count() == 1


def test_a_refused_request_keeps_no_answer_so_its_retry_runs(cast, table, chips, gaming_day, shift_manager):
    client = token_client(cast[Role.CASHIER])
    refused = post_fill(client, table, key="k")  # the table has no opener yet
    assert refused.status_code == 400
    assert not IdempotentRequest.objects.exists()
    services.record_table_inventory(acting_user=shift_manager.user, table=table, kind="opener", chips=TRAY)
    assert post_fill(client, table, key="k").status_code == 201
    assert Slip.objects.count() == 1


def test_keys_are_per_user(cast, open_table):
    assert post_fill(token_client(cast[Role.CASHIER]), open_table, key="k").status_code == 201
    # ND 99-01.3-08-05(3)(c): a pit boss's fill names the cashier whose initials it carries.
    response = post_fill(token_client(cast[Role.PIT_BOSS]), open_table, key="k", cashier=cast[Role.CASHIER].pk)
    assert response.status_code == 201, response.json()
    assert "Idempotent-Replayed" not in response
    assert Slip.objects.count() == 2


def test_a_key_expires(cast, open_table, time_machine):
    client = token_client(cast[Role.CASHIER])
    time_machine.move_to(timezone.now())
    assert post_fill(client, open_table, key="k").status_code == 201
    first_at = timezone.now()
    time_machine.shift(timedelta(hours=limits.IDEMPOTENCY_KEY_HOURS, seconds=1))
    client = token_client(cast[Role.CASHIER])  # the first token may have expired meanwhile
    # The open gaming day is now over: its slip gives the time on its paper (core.moments).
    again = post_fill(client, open_table, key="k", prepared_at=first_at.isoformat())
    assert again.status_code == 201
    assert "Idempotent-Replayed" not in again
    assert Slip.objects.count() == 2


def test_a_key_just_before_expiry_still_replays(cast, open_table, time_machine):
    client = token_client(cast[Role.CASHIER])
    time_machine.move_to(timezone.now())
    assert post_fill(client, open_table, key="k").status_code == 201
    time_machine.shift(timedelta(hours=limits.IDEMPOTENCY_KEY_HOURS, seconds=-1))
    client = token_client(cast[Role.CASHIER])  # the first token may have expired meanwhile
    assert post_fill(client, open_table, key="k")["Idempotent-Replayed"] == "true"
    assert Slip.objects.count() == 1


@pytest.mark.parametrize("key", ["", "x" * (limits.MAX_IDEMPOTENCY_KEY_LENGTH + 1), "caf\u00e9"])
def test_a_key_that_is_empty_too_long_or_not_ascii_is_a_400(cast, open_table, key):
    response = post_fill(token_client(cast[Role.CASHIER]), open_table, key=key)
    assert response.status_code == 400
    assert "Idempotency-Key" in response.json()["detail"]
    assert not Slip.objects.exists()


def test_the_longest_key_is_accepted(cast, open_table):
    key = "x" * limits.MAX_IDEMPOTENCY_KEY_LENGTH
    client = token_client(cast[Role.CASHIER])
    assert post_fill(client, open_table, key=key).status_code == 201
    assert post_fill(client, open_table, key=key)["Idempotent-Replayed"] == "true"


def test_a_session_login_retries_safely_too(cast, open_table):
    client = APIClient()
    client.force_login(cast[Role.CASHIER].user)
    assert post_fill(client, open_table, key="k").status_code == 201
    assert post_fill(client, open_table, key="k").status_code == 201
    assert Slip.objects.count() == 1


@pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent writers need PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_two_concurrent_retries_make_one_slip(cast, open_table):
    from django.db import connections

    clients = [token_client(cast[Role.CASHIER]) for _ in range(2)]
    barrier = threading.Barrier(2)
    answers = []

    def send(client):
        try:
            barrier.wait()
            answers.append(post_fill(client, open_table, key="wifi-drop"))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send, args=(c,)) for c in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [a.status_code for a in answers] == [201, 201]
    assert answers[0].json()["id"] == answers[1].json()["id"]
    assert Slip.objects.count() == 1


def _bare_digest(path: str, body: dict) -> str:
    """What anyone holding the table could compute from a request's other fields, PIN by PIN (a
    million six-digit PINs take a second): the method, path and canonical body, unkeyed."""
    digest = hashlib.sha256()
    for part in (b"POST", path.encode(), json.dumps(body, sort_keys=True, separators=(",", ":")).encode()):
        digest.update(len(part).to_bytes(8, "big") + part)
    return digest.hexdigest()


def test_a_signing_pin_sent_from_a_terminal_cannot_be_guessed_back_from_the_kept_request(
    station, with_pins, open_table
):
    """The pit terminal sends each slip step with an Idempotency-Key and the signer's PIN in the
    body; the kept fingerprint is keyed with the server's secret (as the pages' form tokens are),
    so the PIN, stored nowhere readable, is not recoverable from it. A retry still replays."""
    cashier = with_pins[Role.CASHIER]
    api_client = APIClient()
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {issue_token(station.user)[1]}")
    body = {"table": open_table.pk, "chips": FILL, "signer_badge": cashier.initials, "signer_pin": TERMINAL_PIN}
    headers = {"Idempotency-Key": "terminal-step-1"}
    first = api_client.post("/api/v1/fill-slips/", body, format="json", headers=headers)
    again = api_client.post("/api/v1/fill-slips/", body, format="json", headers=headers)
    assert first.status_code == again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    kept = IdempotentRequest.objects.get(key="terminal-step-1")
    assert kept.fingerprint != _bare_digest("/api/v1/fill-slips/", body)
    assert Slip.objects.count() == 1
