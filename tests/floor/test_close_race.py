"""Closed books stay closed when a record and the day's close meet (rules.GAMING_DAY_STATE,
floor.services.steps.held_open), on whichever database the suite runs (SQLite by default,
PostgreSQL with DATABASE_URL): a card check (ND 99-01.3-08-07) or a duty sign-in that read the
day as open while another terminal closed it is refused, never entered in the closed day."""

import threading

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import connection

from cardroom.models import Role
from core.audit_verify import verify_chain
from core.models import AuditEvent
from floor import queries, services
from floor.models import CardCheck, DutyPeriod, GamingDayClose


def _close_meanwhile(monkeypatch, day, manager):
    """After the service reads the open day, another terminal closes it; on PostgreSQL the close
    commits before the service goes on, on SQLite it waits for the service's transaction (its
    writers queue: IMMEDIATE)."""
    read, closed = queries.open_gaming_day, []

    def close():
        try:
            user = get_user_model().objects.get(pk=manager.user_id)  # its own Access cache
            closed.append(services.close_gaming_day(acting_user=user, gaming_day=day))
        except Exception as exc:  # noqa: BLE001 - asserted by the tests
            closed.append(exc)
        finally:
            connection.close()

    other_terminal = threading.Thread(target=close)

    def read_then_close(site):
        found = read(site)
        assert found == day
        other_terminal.start()
        if connection.vendor == "postgresql":
            other_terminal.join()
        return found

    monkeypatch.setattr(queries, "open_gaming_day", read_then_close)
    return other_terminal, closed


def _entered_before_the_close(action: str) -> bool:
    events = list(AuditEvent.objects.filter(action__in=(action, "gaming_day.closed")).order_by("pk"))
    return [e.action for e in events] == [action, "gaming_day.closed"]


@pytest.mark.django_db(transaction=True)
def test_a_card_check_meeting_the_close_is_refused_or_entered_before_it(
    site, table, cast, shift_manager, gaming_day, monkeypatch
):
    other_terminal, closed = _close_meanwhile(monkeypatch, gaming_day, shift_manager)
    try:
        check = services.record_card_check(acting_user=shift_manager.user, table=table, kind="shoe_inspected")
    except ValidationError as exc:
        check = exc
    other_terminal.join()

    assert isinstance(closed[0], GamingDayClose)
    if connection.vendor == "postgresql":
        assert isinstance(check, ValidationError)
        assert "ND 99-01.3-08-07(2): no gaming day is open" in check.message_dict["table"][0]
        assert not CardCheck.objects.exists()
    else:
        assert isinstance(check, CardCheck) and _entered_before_the_close("card_check.shoe_inspected")
    assert verify_chain().ok


@pytest.mark.django_db(transaction=True)
def test_a_duty_sign_in_meeting_the_close_is_refused_or_entered_before_it(
    site, cast, shift_manager, gaming_day, monkeypatch
):
    boss = cast[Role.PIT_BOSS]
    other_terminal, closed = _close_meanwhile(monkeypatch, gaming_day, shift_manager)
    try:
        period = services.start_duty(acting_user=boss.user, site=site)
    except ValidationError as exc:
        period = exc
    other_terminal.join()

    assert isinstance(closed[0], GamingDayClose)
    if connection.vendor == "postgresql":
        assert isinstance(period, ValidationError)
        assert "no gaming day is open" in period.message_dict["site"][0]
        assert not DutyPeriod.objects.exists()
    else:
        assert isinstance(period, DutyPeriod) and _entered_before_the_close("duty.started")
    assert verify_chain().ok
