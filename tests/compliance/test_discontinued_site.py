"""ND 99-01.3-08-06(2): "If an organization discontinues twenty-one ... at a site, it shall
redeem its chips, at its business office or active site, for thirty days thereafter." The
day is recorded on the site (audited) and the alert says until when, day 30 included."""

from datetime import date

import pytest

from compliance import rules
from compliance.engine import run_day_checks
from core.models import AuditEvent

STOPPED = date(2026, 10, 1)


def test_the_window_runs_through_day_30_and_not_day_31(book):
    assert rules.redemption_window_end(STOPPED, book) == date(2026, 10, 31)
    assert rules.chips_redeemable_after_discontinuance(STOPPED, date(2026, 10, 31), book)  # day 30
    assert not rules.chips_redeemable_after_discontinuance(STOPPED, date(2026, 11, 1), book)  # day 31
    assert rules.chips_redeemable_after_discontinuance(STOPPED, STOPPED, book)


def test_recording_the_day_through_the_api_is_audited(client_for, manager, site):
    response = client_for(manager).patch(
        f"/api/v1/sites/{site.pk}/", {"twenty_one_discontinued_on": "2026-10-01"}, format="json"
    )
    assert response.status_code == 200 and response.json()["twenty_one_discontinued_on"] == "2026-10-01"
    event = AuditEvent.objects.filter(action="site.updated", object_id=str(site.pk)).latest("seq")
    assert event.after["twenty_one_discontinued_on"] == "2026-10-01"


def discontinued(site, *, active=True):
    site.twenty_one_discontinued_on = STOPPED
    site.active = active
    site.save()


@pytest.mark.parametrize("start, fires", [(date(2026, 10, 31), True), (date(2026, 11, 1), False)])
def test_the_alert_is_raised_by_a_run_inside_the_window_only(site, start, fires):
    discontinued(site)
    opened = [
        a
        for a in run_day_checks(site_ids=[site.pk], start=start, end=start).opened
        if a.rule == "discontinued_redemption"
    ]
    assert bool(opened) is fires
    if fires:
        [alert] = opened
        assert alert.citation == "ND 99-01.3-08-06(2)" and alert.due_date == date(2026, 10, 31)
        assert (
            "through 2026-10-31" in alert.action_required
            and "business office or an active site" in alert.action_required
        )


def test_a_run_over_every_site_still_sees_a_closed_site_whose_twenty_one_stopped(site):
    discontinued(site, active=False)
    opened = run_day_checks(site_ids=None, start=STOPPED, end=STOPPED).opened
    assert [a.site_id for a in opened if a.rule == "discontinued_redemption"] == [site.pk]
    assert run_day_checks(site_ids=None, start=STOPPED, end=STOPPED).opened == []  # once


def test_a_washington_site_is_not_judged_by_the_north_dakota_rule(site):
    site.jurisdiction = "WA-HB"
    discontinued(site)
    assert run_day_checks(site_ids=[site.pk], start=STOPPED, end=STOPPED).opened == []


def test_a_day_outside_the_books_range_is_refused_naming_the_field(client_for, manager, site):
    response = client_for(manager).patch(
        f"/api/v1/sites/{site.pk}/", {"twenty_one_discontinued_on": "9999-12-31"}, format="json"
    )
    assert response.status_code == 400 and "twenty_one_discontinued_on" in response.json()
