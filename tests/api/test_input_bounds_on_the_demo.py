"""Bad input to the demo's records is bounded and answered 400 naming the field (core.limits,
house controls), as in test_input_bounds.py: a week of the demo, built once for the module
(`a_week_of_the_demo`, tests/conftest.py)."""

import json

import pytest
from django.core.exceptions import ValidationError

from cardroom.models import Employee, Site
from core import limits
from counts.models import CountSession
from counts.services import parse_currency
from floor.models import Slip
from surveillance.models import ReviewLogEntry

# One process builds the demo for both tests (pytest.ini: --dist loadgroup).
pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("input-bounds-on-the-demo")]

HUGE = 10**20


@pytest.fixture
def demo_api(a_week_of_the_demo, client_for):
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
        parse_currency(currency, site)  # the figures' parser, for count and adjustment alike

    chips = [{"value_cents": 100, "quantity": HUGE}]
    redemption = {"site": site.pk, "gaming_date": day, "chips": chips}
    refused(demo_api.post("/api/v1/cage/chip-redemptions/", redemption, format="json"), "chips")


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
        "field_of_view": True,
        "notes": too_long,
        "corrects": entry.pk,
    }
    refused(demo_api.post("/api/v1/surveillance/review-log/", correction, format="json"), "notes")
