"""ND 99-01.3-08-16: records are kept three years from the end of the quarter of the activity
(dealer percent-of-hold and video review records one year, 08-16(1)(h)); the date is shown on
the records, and nothing inside it can be deleted, whatever the path."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.db import IntegrityError, transaction

from cardroom.models import Role
from cardroom.retention import DEALER_HOLD_AND_VIDEO_REVIEW, retain_until, retention_dates, retention_end
from core.appendonly import ImmutableRecordError
from floor.models import DealerShift, Slip
from reports.models import ReportRun
from surveillance.models import SurveillanceStatus

CHICAGO = ZoneInfo("America/Chicago")


@pytest.mark.parametrize(
    "activity, three_years, one_year",
    [
        (date(2026, 8, 1), date(2029, 9, 30), date(2027, 9, 30)),
        (date(2026, 9, 30), date(2029, 9, 30), date(2027, 9, 30)),  # the quarter's last day
        (date(2026, 10, 1), date(2029, 12, 31), date(2027, 12, 31)),  # the next quarter's first
        (date(2027, 2, 28), date(2030, 3, 31), date(2028, 3, 31)),
    ],
)
def test_retention_runs_from_the_end_of_the_quarter(activity, three_years, one_year):
    assert retention_end(activity) == three_years
    assert retention_end(activity, DEALER_HOLD_AND_VIDEO_REVIEW) == one_year


def test_records_show_their_retention_date(client_for, cast, fill, dealer_shift):
    gaming_date = fill.gaming_day.gaming_date
    expected = str(retention_end(gaming_date))
    api = client_for(cast[Role.SHIFT_MANAGER])
    assert api.get(f"/api/v1/fill-slips/{fill.pk}/").json()["retain_until"] == expected
    assert api.get(f"/api/v1/dealer-shifts/{dealer_shift.pk}/").json()["retain_until"] == expected


def test_a_lists_retention_date_from_the_date_and_jurisdiction_it_reads_is_the_records_own(dealer_shift):
    day = dealer_shift.gaming_day
    assert retention_dates(DealerShift)(day.gaming_date, day.site.jurisdiction) == retain_until(dealer_shift)
    assert retention_dates(DealerShift)(None, day.site.jurisdiction) is None
    with pytest.raises(TypeError, match="use retain_until"):
        retention_dates(ReportRun)  # its rule is a function of the report


@pytest.mark.parametrize("surveillance, dealer_hold_until", [(True, date(2027, 9, 30)), (False, date(2029, 9, 30))])
def test_the_dealer_hold_report_keeps_one_year_at_a_surveillance_site(org, site, cast, surveillance, dealer_hold_until):
    if surveillance:
        SurveillanceStatus.objects.create(
            site=site,
            required=True,
            since=date(2026, 1, 1),
            reason="GP over $10,000",
            recorded_by=cast[Role.GAMING_MANAGER].user,
            recorded_at=datetime(2026, 1, 1, tzinfo=CHICAGO),
        )
    kinds = {"house_rules": date(2029, 9, 30), "dealer_hold": dealer_hold_until}
    for kind, expected in kinds.items():
        run = ReportRun(kind=kind, organization=org, site=site, start=date(2026, 8, 1), end=date(2026, 8, 1))
        assert retain_until(run) == expected


def at(day, time_machine):
    time_machine.move_to(datetime(day.year, day.month, day.day, 12, tzinfo=CHICAGO))


def test_a_dealer_shift_cannot_be_deleted_through_its_last_day_of_retention(dealer_shift, time_machine):
    until = retain_until(dealer_shift)
    at(until, time_machine)  # the retention date itself: still inside
    with pytest.raises(ImmutableRecordError, match=r"ND 99-01.3-08-16: dealer shift .* until " + str(until)):
        with transaction.atomic():
            dealer_shift.delete()
    with pytest.raises(ImmutableRecordError), transaction.atomic():
        DealerShift.objects.filter(pk=dealer_shift.pk).delete()
    assert DealerShift.objects.filter(pk=dealer_shift.pk).exists()


def test_the_day_after_retention_a_dealer_shift_may_be_disposed_of(dealer_shift, time_machine):
    at(date.fromordinal(retain_until(dealer_shift).toordinal() + 1), time_machine)
    DealerShift.objects.filter(pk=dealer_shift.pk).delete()
    assert not DealerShift.objects.filter(pk=dealer_shift.pk).exists()


def test_a_report_run_cannot_be_deleted_inside_retention(org, site, manager):
    run = ReportRun.objects.create(
        kind="house_rules",
        organization=org,
        site=site,
        start=date(2026, 11, 20),
        end=date(2026, 11, 20),
        period_label="2026-11-20",
        requested_by=manager.user,
        requested_at=datetime(2026, 11, 20, tzinfo=CHICAGO),
    )
    with pytest.raises(ImmutableRecordError, match=r"ND 99-01.3-08-16"), transaction.atomic():
        ReportRun.objects.filter(pk=run.pk).delete()
    assert ReportRun.objects.filter(pk=run.pk).exists()


def test_an_append_only_slip_is_never_deleted(fill):
    with pytest.raises(IntegrityError), transaction.atomic():  # its lines are protected, then the guard
        Slip.objects.filter(pk=fill.pk).delete()
    assert Slip.objects.filter(pk=fill.pk).exists()


def test_no_api_route_deletes_a_record(client_for, cast, fill, dealer_shift):
    api = client_for(cast[Role.GAMING_MANAGER])
    for url in (f"/api/v1/fill-slips/{fill.pk}/", f"/api/v1/dealer-shifts/{dealer_shift.pk}/"):
        assert api.delete(url).status_code == 405
    assert Slip.objects.filter(pk=fill.pk).exists() and DealerShift.objects.filter(pk=dealer_shift.pk).exists()


def test_the_slip_page_shows_its_retention_date(client, cast, fill):
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    page = client.get(f"/floor/slips/{fill.pk}/").content.decode()
    assert (
        f'<span id="retention">Retain until {retention_end(fill.gaming_day.gaming_date)} (ND 99-01.3-08-16)</span>'
        in page
    )
