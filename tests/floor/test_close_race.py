"""Closed books stay closed when a record and the day's close meet (rules.GAMING_DAY_STATE,
floor.services.steps.held_open), on whichever database the suite runs (SQLite by default,
PostgreSQL with DATABASE_URL): a card check (ND 99-01.3-08-07), a duty sign-in or a fill slip
(ND 99-01.3-08-05) that read the day as open while another terminal closed it is refused, never
entered in the closed day."""

from dataclasses import dataclass
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from cardroom.models import Role
from core.audit_verify import verify_chain
from core.models import AuditEvent
from floor import queries, services
from floor.models import CardCheck, DutyPeriod, GamingDayClose, Slip
from tests.floor.conftest import FILL, TRAY
from tests.race_support import OtherTerminal


def _close_meanwhile(monkeypatch, day, manager, reader: str, before_close) -> OtherTerminal:
    """After the service reads the open day (`queries.<reader>`), another terminal closes it
    (first doing `before_close(user)`: a table's closer, without which the day does not close);
    on PostgreSQL the close commits before the service goes on, on SQLite it waits for the
    service's transaction (its writers queue: IMMEDIATE)."""

    def close(user):
        before_close(user)
        return services.close_gaming_day(acting_user=user, gaming_day=day)

    read, other = getattr(queries, reader), OtherTerminal(close, manager.user_id)

    def read_then_close(*args, **kwargs):
        found = read(*args, **kwargs)
        assert getattr(found, "day", found) == day
        other.run_meanwhile()
        return found

    monkeypatch.setattr(queries, reader, read_then_close)
    return other


def _entered_before_the_close(action: str) -> bool:
    events = list(AuditEvent.objects.filter(action__in=(action, "gaming_day.closed")).order_by("pk"))
    return [e.action for e in events] == [action, "gaming_day.closed"]


@dataclass(frozen=True)
class Record:
    """A record entered in the open day: how (`enter(cast, table)`), the query it reads the day
    by, what the other terminal does before it closes, its row, its audit action, and the field
    and words of its refusal. A slip needs its table open, and is itself an open item of the day:
    entered first (SQLite), the close that follows is refused until it is verified and received."""

    enter: Any
    reader: str
    before_close: Any
    model: type
    action: str
    field: str
    words: str
    table_opened: bool = False


def _nothing(table):
    return lambda user: None


def _table_closed(table):
    return lambda user: services.record_table_inventory(acting_user=user, table=table, kind="closer", chips=TRAY)


RECORDS = {
    "card check": Record(
        lambda cast, table: services.record_card_check(
            acting_user=cast[Role.SHIFT_MANAGER].user, table=table, kind="shoe_inspected"
        ),
        "open_gaming_day",
        _nothing,
        CardCheck,
        "card_check.shoe_inspected",
        "table",
        "ND 99-01.3-08-07(2): no gaming day is open",
    ),
    "duty sign-in": Record(
        lambda cast, table: services.start_duty(acting_user=cast[Role.PIT_BOSS].user, site=table.site),
        "open_gaming_day",
        _nothing,
        DutyPeriod,
        "duty.started",
        "site",
        "no gaming day is open",
    ),
    "fill slip": Record(
        lambda cast, table: services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=table, chips=FILL),
        "slip_context",
        _table_closed,
        Slip,
        "fill_slip.prepared",
        "table",
        "no gaming day is open",
        table_opened=True,
    ),
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("kind", RECORDS)
def test_a_record_meeting_the_close_is_refused_or_entered_before_it(
    kind, site, table, chips, cast, shift_manager, gaming_day, monkeypatch
):
    record = RECORDS[kind]
    if record.table_opened:
        services.record_table_inventory(acting_user=shift_manager.user, table=table, kind="opener", chips=TRAY)
    other = _close_meanwhile(monkeypatch, gaming_day, shift_manager, record.reader, record.before_close(table))
    try:
        entered = record.enter(cast, table)
    except ValidationError as exc:
        entered = exc
    closed = [other.result()]

    if connection.vendor == "postgresql":
        assert isinstance(closed[0], GamingDayClose), closed
        assert isinstance(entered, ValidationError)
        assert record.words in entered.message_dict[record.field][0]
        assert not record.model.objects.exists()
    elif record.table_opened:  # the slip first, then the close refused: the slip is still open
        assert isinstance(entered, record.model)
        assert "is not verified and not received" in str(closed[0])
        assert not GamingDayClose.objects.exists()
    else:
        assert isinstance(closed[0], GamingDayClose), closed
        assert isinstance(entered, record.model) and _entered_before_the_close(record.action)
    assert verify_chain().ok
