"""A report of a period ending on the day it is requested says the period is in progress, unless
the books of that last day had closed before the request (the walk's Kingston daily report of a day
whose books closed at 14:45, requested the same evening, read "The period is in progress")."""

from datetime import UTC, datetime

import pytest
import time_machine

from accounting import services as accounting
from reports.services import generate_report
from tests.reports.test_pack_words import DAY, House, pdf_text

IN_PROGRESS = "The period is in progress"


def pdf_of(api, created: dict) -> str:
    if created["status"] == "queued":  # generated here, as the worker would
        generate_report(created["id"])
    return " ".join(pdf_text(api.get(f"/api/v1/reports/{created['id']}/download/").content).split())


@pytest.mark.parametrize("jurisdiction", ["ND", "WA-HB"])
def test_a_day_whose_books_closed_before_the_request_is_not_in_progress(db, client_for, jurisdiction):
    house = House(jurisdiction)
    # Eleven hours behind UTC: the day's records (18:00-06:00 UTC) fall within DAY's evening there.
    house.site.time_zone = "Pacific/Pago_Pago"
    house.site.save(update_fields=["time_zone"])
    house.play()
    api = client_for(house.auditor)
    payload = {"kind": "daily", "site": house.site.pk, "start": str(DAY), "end": str(DAY)}
    with time_machine.travel(datetime(2026, 8, 15, 6, 20, tzinfo=UTC), tick=False):  # DAY 19:20 there
        before = api.post("/api/v1/reports/", payload, format="json").json()
        accounting.close_books(acting_user=house.manager.user, site=house.site, gaming_date=DAY)
    with time_machine.travel(datetime(2026, 8, 15, 7, 0, tzinfo=UTC), tick=False):  # DAY 20:00 there
        after = api.post("/api/v1/reports/", payload, format="json").json()
    assert IN_PROGRESS in pdf_of(api, before)
    assert IN_PROGRESS not in pdf_of(api, after)
