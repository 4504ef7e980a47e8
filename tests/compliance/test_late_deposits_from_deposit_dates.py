"""ND 99-01.3-03-10(1) with the deposit date alone of each gaming day that may be late
(cage.queries.deposits_maybe_late): the
findings are those of the pass that built every bank day's figures (cage.queries.bank_days)."""

from datetime import UTC, date, datetime, timedelta

import pytest

from cage.models import BankDeposit
from cage.queries import bank_days
from cardroom.models import Role
from compliance import providers, rules
from compliance.thresholds import ThresholdBook
from floor.models import GamingDay
from tests.compliance.test_providers import make_day

START, END = date(2026, 11, 1), date(2026, 11, 30)
TODAY = datetime(2026, 12, 2, 12, tzinfo=UTC)
DEPOSITED = {  # gaming date: deposited on (None: not recorded); Veterans Day 11 Nov, Thanksgiving 26 Nov
    date(2026, 11, 2): date(2026, 11, 5),  # the third banking day: in time
    date(2026, 11, 3): date(2026, 11, 9),  # a Tuesday's deposit on the fourth banking day (a Monday): late
    date(2026, 11, 6): date(2026, 11, 12),  # a Friday's: Monday, Tuesday, Thursday: in time
    date(2026, 11, 9): date(2026, 11, 16),  # a Monday's on the fourth banking day, across the holiday: late
    date(2026, 11, 10): None,  # never deposited, due the 16th: late
    date(2026, 11, 25): None,  # due 1 December (Thanksgiving): late on the 2nd
    date(2026, 11, 30): None,  # due 3 December: not yet late
}


def _bank_days_pass(sites, start, end, book):
    """The judgement as it was made from every bank day's figures."""
    site_ids = [s.pk for s in sites]
    active = set(GamingDay.objects.filter(site_id__in=site_ids, gaming_date__range=(start, end))
                 .values_list("site_id", "gaming_date"))  # fmt: skip
    found = []
    for (site_id, day), bank in bank_days(site_ids, start, end).items():
        if (site_id, day) in active:
            deposited = bank.deposit.deposited_on if bank.deposit else None
            if finding := rules.late_deposit(site_id, day, deposited, today=TODAY.date(), book=book):
                found.append(finding)
    return found


def _deposit(day, deposited_on, employee):
    BankDeposit.objects.create(site=day.site, gaming_day=day, gaming_date=day.gaming_date, amount_cents=100_000,
                               deposited_on=deposited_on, due_on=deposited_on, recorded_at=TODAY,
                               recorded_by=employee, initials="AB")  # fmt: skip


@pytest.mark.parametrize("deposited_in_time_elsewhere", [False, True])
def test_late_deposits_are_those_judged_from_the_bank_days(site, other_site, cast, time_machine,
                                                           deposited_in_time_elsewhere):  # fmt: skip
    time_machine.move_to(TODAY, tick=False)
    manager = cast[Role.SHIFT_MANAGER]
    for gaming_date, deposited_on in DEPOSITED.items():
        day = make_day(site, gaming_date, manager)
        if deposited_on:
            _deposit(day, deposited_on, manager)
        if deposited_in_time_elsewhere:  # the same dates at another site, each deposited the next day
            _deposit(make_day(other_site, gaming_date, manager), gaming_date + timedelta(days=1), manager)
    make_day(site, date(2026, 12, 1), manager)  # after the range
    sites, book = [site, other_site], ThresholdBook(END)
    found = list(providers.late_deposits(sites, START, END, book))
    assert [(f.site_id, f.period_key, f.figures["deposited_on"]) for f in found] == [
        (site.pk, "2026-11-03", "2026-11-09"), (site.pk, "2026-11-09", "2026-11-16"), (site.pk, "2026-11-10", None),
        (site.pk, "2026-11-25", None),
    ]  # fmt: skip
    assert found == _bank_days_pass(sites, START, END, book)
