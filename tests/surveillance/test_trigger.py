"""Surveillance follows from its trigger (ND 99-01.3-08-04, opening paragraph): the status the
rule records, the 45-day deadline, per-table coverage from the equipment register, the $2
limit after the deadline, special-event tables past their exemption, and premises taken over
from another organization."""

from datetime import date, timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from cardroom import wager_caps
from cardroom.models import Role
from core.models import AuditEvent
from surveillance import queries, services
from surveillance.models import PremisesSuccession, SurveillanceStatus
from tests.factories import TableFactory

from .conftest import add_shift, local

DUE = date(2026, 5, 15)  # 45 days from the end of the first quarter


@pytest.fixture
def required(site):
    return services.require_surveillance_by_rule(
        site=site, since=date(2026, 4, 1), operational_due_on=DUE, reason="ND 99-01.3-08-04: Q4+Q1 averaged $12,000"
    )


def install(manager, site, kind, table=None, on=date(2026, 5, 1)):
    return services.install_equipment(
        acting_user=manager.user, site=site, table=table, kind=kind, make_model="Axis", installed_on=on
    )


def cap_refusal(table, at, cents=2500):
    try:
        wager_caps.check_max_wager(table, cents, at)
    except ValidationError as refusal:
        return refusal.message_dict["max_wager_cents"][0]
    return None


def test_the_rule_records_the_status_with_its_deadline_as_the_system(required, site):
    assert (required.required, required.trigger, required.recorded_by) == (True, "quarter_rule", None)
    assert required.operational_due_on == DUE
    assert queries.operational_deadline(site, date(2026, 4, 1)) == DUE
    event = AuditEvent.objects.get(action="surveillance.status.required_by_rule")
    assert event.actor_label == "system"


def test_the_rule_running_again_records_nothing_more(required, site):
    again = services.require_surveillance_by_rule(site=site, since=date(2026, 4, 1), operational_due_on=DUE, reason="x")
    assert again is None and SurveillanceStatus.objects.filter(site=site).count() == 1


@pytest.mark.parametrize(
    ("day", "capped"), [(DUE - timedelta(days=1), False), (DUE, False), (DUE + timedelta(days=1), True)]
)
def test_without_a_system_wagers_are_limited_to_two_dollars_from_day_46(required, table, day, capped):
    message = cap_refusal(table, local(day.year, day.month, day.day, 20))
    if capped:
        assert message.startswith("ND 99-01.3-08-04: table 1 has no operational video surveillance system")
        assert "by 2026-05-15" in message and "$2.00" in message
    else:
        assert message is None


def test_two_dollars_is_still_allowed_after_the_deadline(required, table):
    assert cap_refusal(table, local(2026, 5, 16, 20), cents=200) is None
    assert cap_refusal(table, local(2026, 5, 16, 20), cents=201) is not None


def test_the_gaming_day_decides_the_deadline_not_the_calendar_day(required, table):
    """05:59 on May 16 is still the gaming day of May 15 (the day starts at 06:00)."""
    assert cap_refusal(table, local(2026, 5, 16, 5, 59)) is None
    assert cap_refusal(table, local(2026, 5, 16, 6, 0)) is not None


def test_a_camera_on_the_table_and_a_recording_unit_make_the_table_operational(required, manager, site, table):
    install(manager, site, "camera", table)
    assert cap_refusal(table, local(2026, 5, 16, 20)) is not None  # no recording unit yet
    install(manager, site, "recording_unit")
    assert cap_refusal(table, local(2026, 5, 16, 20)) is None


def test_coverage_is_checked_for_each_table_regularly_located(required, manager, site, table):
    second = TableFactory(site=site, number=2)
    install(manager, site, "camera", table)
    install(manager, site, "recording_unit")
    assert cap_refusal(table, local(2026, 5, 16, 20)) is None
    assert cap_refusal(second, local(2026, 5, 16, 20)).startswith("ND 99-01.3-08-04: table 2 has no")
    assert [t.number for t in queries.tables_without_system([site], date(2026, 5, 16))[site.pk]] == [2]


def test_equipment_removed_before_the_day_does_not_count(required, manager, site, table):
    camera = install(manager, site, "camera", table)
    install(manager, site, "recording_unit")
    camera.removed_on = date(2026, 5, 16)
    camera.save()
    assert cap_refusal(table, local(2026, 5, 15, 20)) is None
    assert cap_refusal(table, local(2026, 5, 16, 20)) is not None


def test_a_status_set_by_hand_has_no_deadline_to_enforce(manager, site, table):
    services.set_surveillance_status(manager.user, site, True, date(2026, 1, 1), None, "By hand")
    assert queries.operational_deadline(site, date(2026, 6, 1)) is None
    assert cap_refusal(table, local(2026, 6, 1, 20)) is None


@pytest.mark.parametrize(("days_used", "capped"), [(14, False), (15, True)])
def test_a_special_event_table_needs_a_system_at_an_event_of_fifteen_consecutive_days(
    required, manager, site, dealer, days_used, capped
):
    """ND 99-01.3-08-04: the event's own days decide (fourteen or fewer consecutive days)."""
    temporary = TableFactory(site=site, number=9, location="special_event")
    first = date(2026, 6, 1)
    services.record_special_event(
        acting_user=manager.user,
        site=site,
        name="County fair",
        first_day=first,
        last_day=first + timedelta(days=days_used - 1),
    )
    for n in range(days_used - 1):
        day = first + timedelta(days=n)
        add_shift(temporary, dealer, local(day.year, day.month, day.day, 19), local(day.year, day.month, day.day, 22))
    last = first + timedelta(days=days_used - 1)
    message = cap_refusal(temporary, local(last.year, last.month, last.day, 19))
    assert (message is not None) == capped
    assert queries.table_requires_surveillance(temporary, last) == capped


# --- Premises taken over from another organization -----------------------------------------


@pytest.fixture
def predecessor(stranger_site, db):
    return stranger_site


def require_by_hand(site, since=date(2026, 1, 1)):
    from django.utils import timezone

    return SurveillanceStatus.objects.create(
        site=site, required=True, since=since, reason="required", recorded_at=timezone.now()
    )


def test_acquired_premises_requiring_a_system_give_the_new_site_45_days_from_its_first_gaming_day(
    manager, site, table, dealer, predecessor
):
    require_by_hand(predecessor)
    services.record_premises_succession(
        acting_user=manager.user, site=site, predecessor=predecessor, acquired_on=date(2026, 6, 1)
    )
    status = queries.current_status(site, date(2026, 6, 1))
    assert (status.required, status.trigger) == (True, "acquired_site")
    assert status.reason.startswith("ND 99-01.3-08-04: newly acquired premises")
    assert queries.operational_deadline(site, date(2026, 6, 5)) is None  # no twenty-one conducted yet
    add_shift(table, dealer, local(2026, 6, 10, 19), local(2026, 6, 10, 23))
    assert queries.operational_deadline(site, date(2026, 6, 10)) == date(2026, 7, 25)
    assert cap_refusal(table, local(2026, 7, 25, 20)) is None
    assert cap_refusal(table, local(2026, 7, 26, 20)).startswith("ND 99-01.3-08-04: table 1")


def test_premises_not_requiring_a_system_do_not_make_the_new_site_require_one(manager, site, predecessor):
    succession = services.record_premises_succession(
        acting_user=manager.user, site=site, predecessor=predecessor, acquired_on=date(2026, 6, 1)
    )
    assert succession.predecessor == predecessor
    assert not queries.surveillance_required(site, date(2026, 6, 1))
    assert queries.premises_chain(site) == [site.pk, predecessor.pk]


def test_a_site_cannot_succeed_itself_or_twice(manager, site, other_site, predecessor):
    with pytest.raises(ValidationError, match="cannot succeed itself"):
        services.record_premises_succession(
            acting_user=manager.user, site=site, predecessor=site, acquired_on=date(2026, 6, 1)
        )
    services.record_premises_succession(
        acting_user=manager.user, site=site, predecessor=predecessor, acquired_on=date(2026, 6, 1)
    )
    with pytest.raises(ValidationError, match="already recorded"):
        services.record_premises_succession(
            acting_user=manager.user, site=site, predecessor=other_site, acquired_on=date(2026, 6, 1)
        )
    assert PremisesSuccession.objects.count() == 1


def test_a_succession_in_a_circle_is_refused(manager, site, other_site):
    services.record_premises_succession(
        acting_user=manager.user, site=other_site, predecessor=site, acquired_on=date(2026, 6, 1)
    )
    with pytest.raises(ValidationError, match="already succeeds this one"):
        services.record_premises_succession(
            acting_user=manager.user, site=site, predecessor=other_site, acquired_on=date(2026, 7, 1)
        )


def test_only_a_gaming_manager_records_a_succession(cast, site, predecessor):
    with pytest.raises(PermissionDenied):
        services.record_premises_succession(
            acting_user=cast[Role.SHIFT_MANAGER].user, site=site, predecessor=predecessor, acquired_on=date(2026, 6, 1)
        )


@pytest.mark.parametrize(("days_past_due", "refused"), [(0, False), (1, True)])
def test_the_floor_cannot_open_a_table_above_two_dollars_after_the_deadline(
    site, table, chips, cast, days_past_due, refused
):
    """Through the floor's service: opening the table on day 45 is allowed, on day 46 refused."""
    from floor import services as floor
    from tests.floor.conftest import TRAY, today

    shift_manager = cast[Role.SHIFT_MANAGER]
    gaming_date = today(site)
    services.require_surveillance_by_rule(
        site=site,
        since=gaming_date - timedelta(days=60),
        operational_due_on=gaming_date - timedelta(days=days_past_due),
        reason="ND 99-01.3-08-04: level reached",
    )
    floor.open_gaming_day(acting_user=shift_manager.user, site=site, gaming_date=gaming_date)
    if refused:
        with pytest.raises(ValidationError) as error:
            floor.record_table_inventory(acting_user=shift_manager.user, table=table, kind="opener", chips=TRAY)
        assert error.value.message_dict["max_wager_cents"][0].startswith("ND 99-01.3-08-04: table 1 has no")
    else:
        assert floor.record_table_inventory(acting_user=shift_manager.user, table=table, kind="opener", chips=TRAY).pk


def test_the_command_records_a_succession_and_reports_a_refusal(manager, site, predecessor):
    from io import StringIO

    from django.core.management import CommandError, call_command

    require_by_hand(predecessor)
    out = StringIO()
    args = ["--site", str(site.pk), "--predecessor", str(predecessor.pk), "--acquired-on", "2026-06-01"]
    call_command("record_premises_succession", *args, "--user", manager.user.username, stdout=out)
    assert f"{site} succeeds {predecessor}" in out.getvalue()
    assert queries.current_status(site, date(2026, 6, 1)).trigger == "acquired_site"
    with pytest.raises(CommandError, match="already recorded"):
        call_command("record_premises_succession", *args, "--user", manager.user.username)


def test_a_gaming_manager_cannot_switch_off_what_the_rule_recorded(required, manager, site):
    with pytest.raises(ValidationError) as refusal:
        services.set_surveillance_status(manager.user, site, False, date(2026, 6, 1), None, "We do not want it")
    message = refusal.value.message_dict["required"][0]
    assert message.startswith("ND 99-01.3-08-04: the site's level of twenty-one activity requires")
    assert SurveillanceStatus.objects.filter(site=site).count() == 1


def test_a_status_set_by_hand_can_still_be_changed_by_hand(manager, site):
    services.set_surveillance_status(manager.user, site, True, date(2026, 1, 1), None, "By hand")
    services.set_surveillance_status(manager.user, site, False, date(2026, 6, 1), None, "Corrected")
    assert not queries.surveillance_required(site, date(2026, 6, 1))
