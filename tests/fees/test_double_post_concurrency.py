"""A fee form sent several times at once (a double click on a slow line) with its one token
writes one fee, on whichever database the suite runs (core.form_tokens: the token is claimed
in the POST's own transaction under a unique constraint, so a second copy waits for the first
and is told "Already recorded")."""

import threading

import pytest
from django.db import connection
from django.test import Client

from cardroom.models import Role
from fees.models import FeeCollection
from tests.page_support import form_token, page

COPIES = 4
FEE = {"basis": "per_player", "period_minutes": "30", "rate_cents": "2", "count": "4", "amount_cents": ""}


@pytest.mark.django_db(transaction=True)
def test_copies_of_one_fee_form_sent_at_once_write_one_fee(cast, bj_table):
    boss = cast[Role.PIT_BOSS].user
    first = Client()
    first.force_login(boss)
    data = {**FEE, "table": bj_table.pk, "form_token": form_token(page(first.get("/fees/")), "fee-form")}
    answers, errors, barrier = [], [], threading.Barrier(COPIES)

    def send():
        try:
            client = Client()
            client.force_login(boss)
            barrier.wait()
            answers.append(client.post("/fees/", data).status_code)
        except Exception as exc:  # noqa: BLE001 - reported below (SQLite's lock timeout refuses a copy)
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(COPIES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert FeeCollection.objects.count() == 1, (connection.vendor, answers, errors)
    assert all(status == 302 for status in answers)
    if connection.vendor == "postgresql":
        assert errors == [] and len(answers) == COPIES
