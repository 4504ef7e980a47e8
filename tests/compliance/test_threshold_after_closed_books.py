"""A threshold of the rules is shared, effective-dated data: a change of regulation is a new row
with a later `effective_from`, so a past period is judged by its own rule. A row dated inside a
filed quarter judged it by another: the filed quarter's figures page, API and report printed another
low-hold threshold beside its game, and another verdict, with no amendment (the superuser's admin
took any date). Now a date inside a quarter filed at a site whose pack reads the threshold is
refused at the field, citing the house control, and nothing is written; a date after it is added
as before."""

from datetime import UTC, date, datetime

import pytest
import time_machine
from django.core.exceptions import ValidationError

from compliance.models import Threshold
from compliance.thresholds import ensure_seeded
from core.models import AuditEvent
from tests.accounting.test_filing_amendments import filed, quarter_played, table  # noqa: F401
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

CODE = "low_hold.ratio_21"  # ND 99-01.3-08-04(9): the quarter's twenty-one hold beside it


@pytest.fixture(autouse=True)
def _after_the_quarter():
    with time_machine.travel(datetime(2026, 11, 20, 18, tzinfo=UTC), tick=True):
        yield


def twenty_one_line(api, site) -> dict:
    body = api.get(f"/api/v1/sites/{site.pk}/quarter-summary/?quarter=2026Q3").json()
    return next(g for g in body["games"] if g["game"] == "21")


def new_row(client, effective_from: str):
    data = {
        "code": CODE,
        "value": "0.990000",  # above the quarter's hold: its verdict would turn to "below"
        "unit": "ratio",
        "citation": "ND 99-01.3-08-04(9)",
        "summary": "Amended.",
        "effective_from": effective_from,
    }
    return client.post("/admin/compliance/threshold/add/", data)


@pytest.mark.usefixtures("filed")
def test_a_threshold_dated_inside_a_filed_quarter_is_refused_at_its_date(site, manager, client, client_for):
    ensure_seeded()
    api = client_for(manager)
    before = twenty_one_line(api, site)
    client.force_login(UserFactory(is_staff=True, is_superuser=True))

    refused = new_row(client, "2026-08-01")

    assert refused.status_code == 400
    message = " ".join(refused.context["adminform"].form.errors["effective_from"])
    assert message.startswith("House control: quarters are filed at a site of North Dakota through 2026-09-30;")
    assert "through 2026-09-30" in message and "Give a date from 2026-10-01 on." in message
    assert not Threshold.objects.filter(code=CODE, effective_from=date(2026, 8, 1)).exists()
    assert not AuditEvent.objects.filter(action="threshold.added").exists()
    assert twenty_one_line(api, site) == before  # the filed quarter's threshold and verdict stand

    assert new_row(client, "2026-10-01").status_code == 302  # after the last quarter filed
    assert Threshold.objects.filter(code=CODE, effective_from=date(2026, 10, 1)).exists()
    assert twenty_one_line(api, site) == before


def row(effective_from: date) -> Threshold:
    return Threshold(
        code=CODE,
        value="0.990000",
        unit="ratio",
        citation="ND 99-01.3-08-04(9)",
        summary="Amended.",
        effective_from=effective_from,
    )


REFUSAL = (
    "House control: quarters are filed at a site of North Dakota through 2026-09-30; a threshold in force from "
    "2026-08-01 would judge a filed quarter by another rule than it was filed under. Give a date from 2026-10-01 on."
)


@pytest.mark.usefixtures("filed")
def test_a_threshold_written_through_the_orm_inside_a_filed_quarter_is_refused_as_the_admin_refuses_it(
    site, manager, client_for
):
    """Not the admin only: a shell's or a script's `create`, a `bulk_create` or an `update` moving a
    row into the filed quarter are refused with the admin's message at `effective_from`; nothing is
    written (no row, no history)."""
    ensure_seeded()
    api = client_for(manager)
    before = twenty_one_line(api, site)
    rows, history = Threshold.objects.count(), Threshold.history.count()

    with pytest.raises(ValidationError) as created:
        Threshold.objects.create(**{f: getattr(row(date(2026, 8, 1)), f) for f in FIELDS})
    assert created.value.message_dict == {"effective_from": [REFUSAL]}
    with pytest.raises(ValidationError) as bulk:
        Threshold.objects.bulk_create([row(date(2026, 8, 1))])
    assert bulk.value.message_dict == {"effective_from": [REFUSAL]}
    later = row(date(2026, 10, 1))
    later.save()  # after the last quarter filed: written as before
    with pytest.raises(ValidationError) as moved:
        Threshold.objects.filter(pk=later.pk).update(effective_from=date(2026, 8, 1))
    assert moved.value.message_dict == {"effective_from": [REFUSAL]}
    later.effective_from = date(2026, 8, 1)
    with pytest.raises(ValidationError):
        later.save()

    assert (Threshold.objects.count(), Threshold.history.count()) == (rows + 1, history + 1)
    assert Threshold.objects.get(pk=later.pk).effective_from == date(2026, 10, 1)
    assert not Threshold.objects.filter(code=CODE, effective_from=date(2026, 8, 1)).exists()
    assert twenty_one_line(api, site) == before


FIELDS = ("code", "value", "unit", "citation", "summary", "effective_from")
