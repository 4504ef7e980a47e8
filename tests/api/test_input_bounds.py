"""Bad input is bounded and answered 400 naming the field (core.limits, house controls):
each case below was a server error before (OverflowError, DataError, RecursionError,
FieldError or ValueError). The cases that need the demo's records are in
test_input_bounds_on_the_demo.py."""

import json

import pytest

from cardroom.models import Role
from core import limits

pytestmark = pytest.mark.django_db

HUGE = 10**20


def refused(response, field: str) -> str:
    assert response.status_code == 400, (response.status_code, response.content[:300])
    body = response.json()
    assert field in body, body
    return json.dumps(body[field])


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


def test_an_impossible_date_is_said_to_be_no_date_wherever_a_date_is_read(client_for, cast, site):
    demo_api = client_for(cast[Role.GAMING_MANAGER])
    dealer = cast[Role.DEALER]
    day = "2026-02-30"
    answers = {
        "date": demo_api.get(f"/api/v1/sites/{site.pk}/daily-summary/", {"date": day}),
        "end": demo_api.get(f"/api/v1/employees/{dealer.pk}/percent-of-hold/", {"start": "2026-01-01", "end": day}),
        "start": demo_api.get(f"/api/v1/sites/{site.pk}/slip-register/", {"start": day, "end": "2026-03-01"}),
        "corrected_date": demo_api.get("/api/v1/adjustments/", {"corrected_date": day}),
        "gaming_date": demo_api.get("/api/v1/fill-slips/", {"gaming_date": day}),
    }
    for field, response in answers.items():
        assert refused(response, field) == json.dumps([no_such_day(field)]), field
    answers = {
        "gaming_date": demo_api.post("/api/v1/gaming-days/", {"site": site.pk, "gaming_date": day}, format="json"),
    }
    for field, response in answers.items():
        assert refused(response, field) == json.dumps([no_such_day(field)]), field


def no_such_day(field: str) -> str:
    """The one wording of a date that is no day, wherever it is read (core.limits)."""
    return f"House control: {field} names no day of the calendar (2026-02-30 is not a date)."


def test_a_missing_date_or_quarter_reads_as_an_empty_one(client_for, manager, site):
    """A parameter left out and one left empty are quoted alike ("got nothing"), never "None" or "''"."""
    demo_api = client_for(manager)
    for path, field in (
        (f"/api/v1/sites/{site.pk}/daily-summary/", "date"),
        (f"/api/v1/sites/{site.pk}/quarter-summary/", "quarter"),
    ):
        left_out, empty = refused(demo_api.get(path), field), refused(demo_api.get(path, {field: ""}), field)
        assert left_out == empty and "(got nothing)" in left_out, (left_out, empty)


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
