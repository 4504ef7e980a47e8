"""ND 99-01.3-08-05(2) "used in sequential order" and 08-05(5) "if ... on duty" as flags, and
ND 99-01.3-08-06(3) tips checked when a dealer's last shift of the day ends."""

from datetime import date, timedelta

import pytest

from cage import services as cage
from cardroom.models import Role
from compliance.models import Alert
from floor import rules as floor_rules
from floor import services
from floor.models import SlipStep
from tests.floor.conftest import TRAY

from .test_providers import make_day, make_slip, run


def _slip_at(day, table, number, employee, hours):
    from floor.models import Slip

    slip = Slip.objects.create(
        site=day.site, kind="fill", number=number, table=table, gaming_day=day, game="21",
        table_number=table.number, prepared_at=day.opened_at + timedelta(hours=hours),
        prepared_by=employee, total_cents=10_000,
    )  # fmt: skip
    for offset, step in enumerate(("verify", "receive")):
        SlipStep.objects.create(
            slip=slip, kind=step, employee=employee, initials=employee.initials,
            at=day.opened_at + timedelta(hours=hours, minutes=offset + 1),
        )  # fmt: skip
    return slip


@pytest.fixture
def day(site, cast):
    return make_day(site, date(2026, 11, 10), cast[Role.SHIFT_MANAGER])


def test_a_paper_slip_used_after_a_higher_number_is_flagged_out_of_order(day, table, cast):
    boss = cast[Role.PIT_BOSS]
    for hours, number in ((1, 101), (2, 103), (3, 102), (4, 104)):
        _slip_at(day, table, number, boss, hours)
    flagged = [(a.rule, a.subject, a.citation) for a in run(day.site).opened]
    assert flagged == [("slip_out_of_order", "fill:102", "ND 99-01.3-08-05(2)")]
    alert = Alert.objects.get(rule="slip_out_of_order")
    assert alert.action_required.startswith("ND 99-01.3-08-05(2): fill slip 102 was used after a higher number")
    assert run(day.site).opened == []  # once


def test_slips_used_in_order_are_not_flagged(day, table, cast):
    for hours, number in ((1, 101), (2, 102), (3, 103)):
        _slip_at(day, table, number, cast[Role.PIT_BOSS], hours)
    assert run(day.site).opened == []


def test_an_out_of_order_slip_outside_the_period_is_not_flagged(day, table, cast):
    for hours, number in ((1, 2), (2, 1)):
        _slip_at(day, table, number, cast[Role.PIT_BOSS], hours)
    assert run(day.site, start=date(2026, 11, 11), end=date(2026, 11, 20)).opened == []


def test_a_slip_received_unverified_because_nobody_was_on_duty_is_not_flagged_unverified(day, table, cast):
    slip = make_slip(day, table, 1, cast[Role.PIT_BOSS], steps=())
    SlipStep.objects.create(
        slip=slip, kind="receive", employee=cast[Role.DEALER], initials=cast[Role.DEALER].initials,
        at=day.opened_at + timedelta(hours=2), reason=floor_rules.unverified_note(day.site),
    )  # fmt: skip
    assert run(day.site).opened == []


def test_a_slip_received_unverified_without_the_note_is_still_flagged(day, table, cast):
    make_slip(day, table, 1, cast[Role.PIT_BOSS], steps=("receive",))
    assert [a.rule for a in run(day.site).opened] == ["slip_unverified"]


# --- ND 99-01.3-08-06(3): tips when the last shift of the day ends --------------------------------


@pytest.fixture
def floor_day(site, table, chips, cast):
    from tests.floor.conftest import today

    manager = cast[Role.SHIFT_MANAGER]
    day = services.open_gaming_day(acting_user=manager.user, site=site, gaming_date=today(site))
    services.record_table_inventory(acting_user=manager.user, table=table, kind="opener", chips=TRAY)
    services.start_dealer_shift(acting_user=manager.user, table=table, dealer=cast[Role.DEALER])
    return day


def _tips_alerts():
    return list(Alert.objects.filter(rule="tips_before_leaving"))


def test_the_closer_ending_a_dealers_last_shift_flags_undeclared_tips(floor_day, table, cast):
    services.record_table_inventory(acting_user=cast[Role.SHIFT_MANAGER].user, table=table, kind="closer", chips=TRAY)
    (alert,) = _tips_alerts()
    dealer = cast[Role.DEALER]
    assert (alert.citation, alert.subject) == ("ND 99-01.3-08-06(3)", f"dealer:{dealer.pk}")
    assert f"{dealer} had not declared the tips they hold" in alert.action_required
    assert "(closer)" in alert.action_required
    # Closing the day checks again: the same dealer and day is one alert.
    services.close_gaming_day(acting_user=cast[Role.SHIFT_MANAGER].user, gaming_day=floor_day)
    assert len(_tips_alerts()) == 1


def test_declared_but_unredeemed_tips_are_flagged_with_the_amount(floor_day, table, cast, site):
    cage.declare_tips(
        acting_user=cast[Role.DEALER].user, site=site, gaming_date=floor_day.gaming_date,
        chips=[{"denomination": 100, "quantity": 7}],
    )  # fmt: skip
    services.record_table_inventory(acting_user=cast[Role.SHIFT_MANAGER].user, table=table, kind="closer", chips=TRAY)
    (alert,) = _tips_alerts()
    assert "still held $7.00 of unredeemed tips" in alert.action_required


def test_declared_and_redeemed_tips_raise_nothing_at_the_closer_or_the_day_close(floor_day, table, cast, site):
    dealer = cast[Role.DEALER]
    declaration = cage.declare_tips(
        acting_user=dealer.user, site=site, gaming_date=floor_day.gaming_date,
        chips=[{"denomination": 100, "quantity": 7}],
    )  # fmt: skip
    cage.redeem_tips(acting_user=cast[Role.CASHIER].user, declaration=declaration, dealer=dealer)
    services.record_table_inventory(acting_user=cast[Role.SHIFT_MANAGER].user, table=table, kind="closer", chips=TRAY)
    services.close_gaming_day(acting_user=cast[Role.SHIFT_MANAGER].user, gaming_day=floor_day)
    assert _tips_alerts() == []


def test_a_closer_is_not_the_last_shift_while_the_dealer_deals_at_another_table(floor_day, table, cast, site):
    from tests.factories import TableFactory

    manager = cast[Role.SHIFT_MANAGER]
    second = TableFactory(site=site, number=2)
    services.record_table_inventory(acting_user=manager.user, table=second, kind="opener", chips=TRAY)
    # The dealer moves: rotated off table 1 (another dealer), seated at table 2.
    from tests.factories import make_person

    relief = make_person(site.organization, Role.DEALER, site)
    services.start_dealer_shift(acting_user=manager.user, table=table, dealer=relief)
    services.start_dealer_shift(acting_user=manager.user, table=second, dealer=cast[Role.DEALER])
    services.record_table_inventory(acting_user=manager.user, table=table, kind="closer", chips=TRAY)
    # relief's last shift ended at table 1's closer: flagged; the dealer still deals at table 2.
    assert [a.subject for a in _tips_alerts()] == [f"dealer:{relief.pk}"]
    services.record_table_inventory(acting_user=manager.user, table=second, kind="closer", chips=TRAY)
    assert {a.subject for a in _tips_alerts()} == {f"dealer:{relief.pk}", f"dealer:{cast[Role.DEALER].pk}"}


def test_the_day_close_checks_a_dealer_whose_shift_ended_by_rotation(floor_day, table, cast):
    manager = cast[Role.SHIFT_MANAGER]
    shift = floor_day.dealer_shifts.get()
    services.end_dealer_shift(acting_user=manager.user, shift=shift)
    assert _tips_alerts() == []  # the end of a shift is not leaving the site
    services.record_table_inventory(acting_user=manager.user, table=table, kind="closer", chips=TRAY)
    assert _tips_alerts() == []  # the closer ended no shift of theirs
    services.close_gaming_day(acting_user=manager.user, gaming_day=floor_day)
    (alert,) = _tips_alerts()
    assert "(day close)" in alert.action_required
