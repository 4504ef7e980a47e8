"""The surveillance rules as the compliance jobs apply them (compliance.providers is the one
implementation): overdue samples and days missing their review log."""

from datetime import date

import time_machine

from compliance import providers
from compliance.thresholds import ThresholdBook, ensure_seeded
from surveillance import services

from .conftest import add_shift, local


def _findings(provider, site, start, end):
    ensure_seeded()
    return list(provider([site], start, end, ThresholdBook(end)))


def test_a_sample_not_sent_within_14_days_is_overdue(shift_manager, site, table):
    change = services.record_site_change(
        acting_user=shift_manager.user, site=site, table=table, kind="table_moved", changed_on=date(2026, 3, 1)
    )
    with time_machine.travel(local(2026, 3, 15, 12)):
        assert _findings(providers.late_samples, site, date(2026, 3, 1), date(2026, 3, 15)) == []
    with time_machine.travel(local(2026, 3, 16, 12)):
        overdue = _findings(providers.late_samples, site, date(2026, 3, 1), date(2026, 3, 16))
    assert [f.subject for f in overdue] == [f"change:{change.pk}"]
    services.submit_sample(acting_user=shift_manager.user, change=change, submitted_on=date(2026, 3, 15))
    with time_machine.travel(local(2026, 3, 20, 12)):
        assert _findings(providers.late_samples, site, date(2026, 3, 1), date(2026, 3, 20)) == []


def test_a_day_of_activity_without_a_review_log_is_missing_at_a_surveillance_site(
    manager, shift_manager, site, table, dealer
):
    services.set_surveillance_status(manager.user, site, True, date(2026, 1, 1), date(2026, 1, 15), "Required")
    add_shift(table, dealer, local(2026, 2, 3, 19), local(2026, 2, 4, 1))  # runs past midnight: gaming date Feb 3
    add_shift(table, dealer, local(2026, 2, 4, 19), local(2026, 2, 4, 23))
    services.add_review_log_entry(
        acting_user=shift_manager.user,
        table=table,
        gaming_date=date(2026, 2, 3),
        camera_recording=True,
        unobstructed_view=True,
        clear_picture=True,
        field_of_view=True,
    )
    missing = _findings(providers.review_log_gaps, site, date(2026, 2, 1), date(2026, 2, 7))
    assert [(f.period_key, f.figures["tables"]) for f in missing] == [("2026-02-04", [table.number])]


def test_a_site_not_requiring_surveillance_misses_no_review_log(site, table, dealer):
    add_shift(table, dealer, local(2026, 2, 3, 19), local(2026, 2, 4, 1))
    assert _findings(providers.review_log_gaps, site, date(2026, 2, 1), date(2026, 2, 7)) == []
