"""Bad input is bounded and answered 400 naming the field (core.limits, house controls):
each case below was a server error before (OverflowError, DataError, RecursionError,
FieldError or ValueError)."""

import json

import pytest
from django.core.exceptions import ValidationError

from cardroom.models import Employee, Role, Site
from core import limits
from counts.models import CountSession
from counts.services import parse_currency
from floor.models import Slip
from surveillance.models import ReviewLogEntry
from tests.api.demo import load_short_demo

pytestmark = pytest.mark.django_db

HUGE = 10**20


@pytest.fixture
def demo_api(client_for):
    load_short_demo(weeks=1)
    return client_for(Employee.objects.get(user__username="gm"))


def refused(response, field: str) -> str:
    assert response.status_code == 400, (response.status_code, response.content[:300])
    body = response.json()
    assert field in body, body
    return json.dumps(body[field])


def test_amounts_and_quantities_beyond_the_maxima_are_refused_naming_the_field(demo_api):
    site = Site.objects.get(name="Bismarck Elks Lodge")
    day = str(limits.FIRST_DATE.replace(year=2026))
    iou = {"site": site.pk, "gaming_date": day, "source": "bank", "destination": "reserve", "amount_cents": HUGE}
    assert "10,000,000" in refused(demo_api.post("/api/v1/cage/ious/", iou, format="json"), "amount_cents")
    bank = {"site": site.pk, "amount_cents": limits.MAX_AMOUNT_CENTS + 1, "effective_on": day}
    refused(demo_api.post("/api/v1/cage/ideal-banks/", bank, format="json"), "amount_cents")

    session = CountSession.objects.filter(site=site).order_by("pk").first()
    box = session.agreements.first().drop.drop_box_id
    currency = [{"denomination_cents": 100, "quantity": HUGE}]
    adjustment = {"box": box, "reason": "Recounted.", "currency": currency}
    answer = demo_api.post(f"/api/v1/count-sessions/{session.pk}/adjustments/", adjustment, format="json")
    assert answer.status_code == 400  # the demo's books are closed: refused before the figures are read
    with pytest.raises(ValidationError, match="house control"):
        parse_currency(currency)  # the figures' parser, for count and adjustment alike

    chips = [{"value_cents": 100, "quantity": HUGE}]
    redemption = {"site": site.pk, "gaming_date": day, "chips": chips}
    refused(demo_api.post("/api/v1/cage/chip-redemptions/", redemption, format="json"), "chips")


@pytest.mark.parametrize("quarter", ["9999Q4", "1999Q4", "2101Q1"])
def test_quarters_outside_the_books_range_are_refused_naming_the_quarter(client_for, manager, site, quarter):
    demo_api = client_for(manager)
    assert "house control" in refused(
        demo_api.get(f"/api/v1/sites/{site.pk}/quarter-summary/", {"quarter": quarter}), "quarter"
    )
    refused(demo_api.get(f"/api/v1/organizations/{site.organization_id}/tax/", {"quarter": quarter}), "quarter")
    refused(demo_api.post("/api/v1/compliance-runs/", {"site": site.pk, "quarter": quarter}, format="json"), "quarter")
    report = {"kind": "quarterly", "site": site.pk, "quarter": quarter}
    refused(demo_api.post("/api/v1/reports/", report, format="json"), "quarter")


@pytest.mark.parametrize("day", ["9999-12-31", "1999-12-31", "0001-01-01"])
def test_dates_outside_the_books_range_are_refused_naming_the_field(client_for, cast, site, day):
    demo_api = client_for(cast[Role.GAMING_MANAGER])
    dealer = cast[Role.DEALER]
    refused(demo_api.get(f"/api/v1/sites/{site.pk}/daily-summary/", {"date": day}), "date")
    refused(demo_api.get(f"/api/v1/employees/{dealer.pk}/percent-of-hold/", {"start": "2026-01-01", "end": day}), "end")
    refused(demo_api.get(f"/api/v1/sites/{site.pk}/slip-register/", {"start": day, "end": "2026-01-01"}), "start")
    refused(demo_api.get("/api/v1/adjustments/", {"corrected_date": day}), "corrected_date")
    refused(demo_api.get("/api/v1/fill-slips/", {"gaming_date": day}), "gaming_date")
    refused(demo_api.post("/api/v1/gaming-days/", {"site": site.pk, "gaming_date": day}, format="json"), "gaming_date")
    report = {"kind": "slip_register", "site": site.pk, "start": day, "end": "2026-01-01"}
    refused(demo_api.post("/api/v1/reports/", report, format="json"), "start")


def test_text_beyond_its_maximum_length_is_refused_naming_the_field(demo_api):
    too_long = "x" * (limits.MAX_TEXT_LENGTH + 1)
    slip = Slip.objects.filter(kind="fill").order_by("pk").first()
    answer = demo_api.post(f"/api/v1/fill-slips/{slip.pk}/void/", {"reason": too_long}, format="json")
    assert str(limits.MAX_TEXT_LENGTH) in refused(answer, "reason")
    entry = ReviewLogEntry.objects.order_by("pk").first()
    correction = {
        "table": entry.table_id,
        "gaming_date": str(entry.gaming_date),
        "camera_recording": True,
        "unobstructed_view": True,
        "clear_picture": True,
        "notes": too_long,
        "corrects": entry.pk,
    }
    refused(demo_api.post("/api/v1/surveillance/review-log/", correction, format="json"), "notes")


def test_json_nested_too_deep_is_a_400_and_a_body_too_large_a_413(client_for, manager, site):
    api = client_for(manager)
    deep = "[" * 10_000 + "]" * 10_000
    answer = api.post("/api/v1/tables/", deep, content_type="application/json")
    assert answer.status_code == 400 and str(limits.MAX_JSON_DEPTH) in answer.json()["detail"]
    just_too_deep = json.dumps(
        {"site": site.pk, "notes": json.loads("[" * limits.MAX_JSON_DEPTH + "]" * limits.MAX_JSON_DEPTH)}
    )
    assert api.post("/api/v1/tables/", just_too_deep, content_type="application/json").status_code == 400
    shallow = {"site": site.pk, "number": 4, "game": "21", "min_wager_cents": 100, "max_wager_cents": 2500}
    assert api.post("/api/v1/tables/", shallow, format="json").status_code == 201

    big = json.dumps({"site": site.pk, "padding": "x" * limits.MAX_BODY_BYTES})
    answer = api.post("/api/v1/tables/", big, content_type="application/json")
    assert answer.status_code == 413 and "bytes" in answer.json()["detail"]
    form = api.post("/api/v1/tables/", {"padding": "x" * limits.MAX_BODY_BYTES})
    assert form.status_code == 413


def test_an_unknown_api_url_answers_json(client_for, manager):
    answer = client_for(manager).post("/api/v1/tables/1.5/", {}, format="json")
    assert answer.status_code == 404 and answer.json() == {"detail": "Not found."}


def test_the_browser_forms_share_the_bounds():
    from django import forms

    from core.forms import BookDateField, CentsField

    assert CentsField().clean("10000000.00") == limits.MAX_AMOUNT_CENTS
    for value in ("10000000.01", "-10000000.01", "1" * 25):
        with pytest.raises(forms.ValidationError, match="house control"):
            CentsField().clean(value)
    assert str(BookDateField().clean("2100-12-31")) == "2100-12-31"
    with pytest.raises(forms.ValidationError, match="2000-01-01 and 2100-12-31"):
        BookDateField().clean("9999-12-31")
