"""Cage figures of a gaming day, for accounting's daily summary (ND 99-01.3-08-16(1)(a), (g))."""

from datetime import date

from django.db import connection
from django.test.utils import CaptureQueriesContext

from cage import queries, services
from tests.factories import make_person

from .conftest import DAY, close_books_directly, make_gaming_day

NEXT = date(2026, 11, 3)


def _day_of_activity(site, cashier, dealer, manager):
    services.set_ideal_bank(acting_user=manager.user, site=site, amount_cents=500000, effective_on=date(2026, 1, 1))
    services.record_bank_count(
        acting_user=cashier.user, site=site, gaming_date=DAY, kind="start", cash={10000: 30}, chips={500: 400}
    )
    services.record_bank_count(
        acting_user=cashier.user, site=site, gaming_date=DAY, kind="end", cash={10000: 25}, chips={500: 500}
    )
    lent = services.lend_iou(
        acting_user=cashier.user, site=site, gaming_date=DAY, source="bank", destination="pull_tabs", amount_cents=40000
    )
    services.lend_iou(
        acting_user=cashier.user, site=site, gaming_date=DAY, source="reserve", destination="bank", amount_cents=10000
    )
    services.repay_iou(acting_user=cashier.user, iou=lent, amount_cents=15000, gaming_date=NEXT)
    services.redeem_chips(acting_user=cashier.user, site=site, gaming_date=DAY, chips={2500: 2})
    declaration = services.declare_tips(acting_user=dealer.user, site=site, gaming_date=DAY, chips={100: 20})
    services.redeem_tips(acting_user=cashier.user, declaration=declaration, dealer=dealer)


def test_a_bank_day_carries_counts_ious_redemptions_tips_and_the_deposit(
    site, chips, cashier, dealer, manager, day_in_play
):
    _day_of_activity(site, cashier, dealer, manager)
    close_books_directly(site, DAY, manager)
    services.record_deposit(
        acting_user=cashier.user, gaming_day=day_in_play, amount_cents=90000, deposited_on=date(2026, 11, 6)
    )
    day = queries.bank_day(site, DAY)
    assert (day.starting_cash_cents, day.ending_cash_cents) == (300000, 250000)
    assert (day.starting_chips_cents, day.ending_chips_cents) == (200000, 250000)
    assert day.ious_net_start_cents == 0
    assert day.ious_net_cents == 40000 - 10000
    assert day.chip_redemptions_cents == 5000
    assert day.tips_redeemed_cents == 2000
    assert day.ideal_cents == 500000
    assert day.deposit_due == date(2026, 11, 5)
    assert day.deposit.amount_cents == 90000 and day.deposit.late and not day.deposit.verified


def test_a_partial_repayment_reduces_the_next_days_ious(site, chips, cashier, dealer, manager, day_in_play):
    _day_of_activity(site, cashier, dealer, manager)
    following = queries.bank_day(site, NEXT)
    assert following.ious_net_start_cents == 30000
    assert following.ious_net_cents == 30000 - 15000
    assert following.starting_cash_cents is None and following.deposit is None


def test_a_corrected_count_replaces_the_original_in_the_bank_day(site, chips, cashier):
    first = services.record_bank_count(
        acting_user=cashier.user, site=site, gaming_date=DAY, kind="start", cash={100: 1}, chips={}
    )
    services.record_bank_count(
        acting_user=cashier.user,
        site=site,
        gaming_date=DAY,
        kind="start",
        cash={100: 2},
        chips={},
        corrects=first,
        reason="typo",
    )
    assert queries.bank_day(site, DAY).starting_cash_cents == 200


def test_bank_days_takes_a_fixed_number_of_queries_for_any_number_of_sites_and_days(
    org, site, other_site, chips, cashier, dealer, manager, shift_manager
):
    _day_of_activity(site, cashier, dealer, manager)
    other_cashier = make_person(org, "cashier", other_site)
    for gaming_date in (DAY, NEXT):
        make_gaming_day(other_site, gaming_date, shift_manager, books=False)
        services.record_bank_count(
            acting_user=other_cashier.user,
            site=other_site,
            gaming_date=gaming_date,
            kind="start",
            cash={100: 5},
            chips={},
        )
    with CaptureQueriesContext(connection) as small:
        queries.bank_days([site.pk], DAY, DAY)
    with CaptureQueriesContext(connection) as large:
        result = queries.bank_days([site.pk, other_site.pk], DAY, NEXT)
    assert len(large) == len(small) <= 9
    assert {(other_site.pk, DAY), (other_site.pk, NEXT), (site.pk, DAY), (site.pk, NEXT)} <= set(result)
    assert result[(other_site.pk, NEXT)].starting_cash_cents == 500


def test_days_without_a_gaming_day_or_record_are_left_out(site, chips):
    assert queries.bank_days([site.pk], DAY, NEXT) == {}
