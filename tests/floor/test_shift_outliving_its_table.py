"""A dealer shift does not outlive its table, its gaming day or its books (house controls,
floor.rules.TRAY_COUNT and DEALER_SHIFTS; closed books: core.closing).

The audit's walk: an opener at 07:00, a dealer seated at 08:00, a closer entered with a paper time
of 07:30. The closer was accepted and ended no shift; the day and its books closed with the shift
running, and ending it afterwards, with no time, wrote the closed day's dealer-shift record. Now the
closer is refused at `counted_at`, a day does not close with a shift running, and a shift of closed
books is not ended."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError

from accounting import services as books
from cage import services as cage
from cardroom.models import Role
from floor import services
from floor.models import DealerShift, GamingDayClose, TableInventory

from .conftest import TRAY, in_day, today

CLOSED_BOOKS = "House control (closed books"


@pytest.fixture
def yesterday(site, shift_manager):
    """Yesterday's gaming day, entered from its paper (opened at its first half hour)."""
    gaming_date = today(site) - timedelta(days=1)
    return services.open_gaming_day(
        acting_user=shift_manager.user, site=site, gaming_date=gaming_date, at=in_day(site, gaming_date, 0.5)
    )


@pytest.fixture
def seated(yesterday, table, chips, cast, shift_manager, site):
    """Table 1 opened at the day's first hour ("07:00") and its dealer seated at its second ("08:00")."""
    when = yesterday.gaming_date
    services.record_table_inventory(
        acting_user=shift_manager.user, table=table, kind="opener", chips=TRAY, at=in_day(site, when, 1)
    )
    return services.start_dealer_shift(
        acting_user=shift_manager.user, table=table, dealer=cast[Role.DEALER], started_at=in_day(site, when, 2)
    )


def closer(shift_manager, table, site, day, hours):
    return services.record_table_inventory(
        acting_user=shift_manager.user, table=table, kind="closer", chips=TRAY, at=in_day(site, day.gaming_date, hours)
    )


# --- The closer (house control, rules.TRAY_COUNT) ---------------------------------------------------


def test_a_closer_dated_before_the_running_shift_began_is_refused_and_the_shift_runs_on(
    seated, yesterday, table, site, shift_manager
):
    with pytest.raises(ValidationError) as refused:
        closer(shift_manager, table, site, yesterday, 1.5)  # "07:30"
    message = refused.value.message_dict["counted_at"][0]
    assert message.startswith("House control: the closer ends the table's dealer shift and its play for the day; ")
    assert f"before the shift of {seated.dealer} at {table} began" in message
    assert "which it would leave running. Date the closer at or after that start." in message
    assert not TableInventory.objects.filter(kind="closer").exists()
    seated.refresh_from_db()
    assert seated.ended_at is None


def test_the_api_refuses_that_closer_at_counted_at_and_takes_one_after_the_shift_began(
    seated, yesterday, table, site, shift_manager, client_for
):
    payload = {"table": table.pk, "kind": "closer", "chips": TRAY}
    early = in_day(site, yesterday.gaming_date, 1.5).isoformat()
    response = client_for(shift_manager).post(
        "/api/v1/table-inventories/", {**payload, "counted_at": early}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["counted_at"][0].startswith("House control: the closer ends the table's dealer shift")
    later = in_day(site, yesterday.gaming_date, 3)
    response = client_for(shift_manager).post(
        "/api/v1/table-inventories/", {**payload, "counted_at": later.isoformat()}, format="json"
    )
    assert response.status_code == 201
    seated.refresh_from_db()
    assert seated.ended_at == later  # the closer ended the shift


def test_a_closer_dated_before_a_shift_already_ended_began_is_refused_too(
    seated, yesterday, table, site, shift_manager
):
    ended_at = in_day(site, yesterday.gaming_date, 4)
    services.end_dealer_shift(acting_user=shift_manager.user, shift=seated, ended_at=ended_at)
    with pytest.raises(ValidationError) as refused:
        closer(shift_manager, table, site, yesterday, 1.5)
    message = refused.value.message_dict["counted_at"][0]
    assert message.startswith("House control: the closer ends the table's dealer shift")
    assert "so the table would be dealt after it" in message
    closer(shift_manager, table, site, yesterday, 5)  # after the shift: taken
    assert TableInventory.objects.filter(kind="closer").count() == 1


# --- A shift left running by a closer accepted before the fix ---------------------------------------


def left_running(shift):
    """What the defect left (a closer entered before 2026-12-07 dated before the shift began): the
    shift's end unset, a state the services no longer produce, so written here as it was left."""
    DealerShift.objects.filter(pk=shift.pk).update(ended_at=None, ended_by=None)


def test_a_gaming_day_does_not_close_with_a_dealer_shift_running_until_it_is_ended(
    seated, yesterday, table, site, shift_manager
):
    closer(shift_manager, table, site, yesterday, 3)
    left_running(seated)
    with pytest.raises(ValidationError) as refused:
        services.close_gaming_day(acting_user=shift_manager.user, gaming_day=yesterday)
    message = refused.value.message_dict["gaming_day"][0]
    assert message.startswith(
        f"House control: a table's closer ends its dealer's shift, yet the gaming day {yesterday.gaming_date} has "
        f"1 dealer shift still running ({seated.dealer} at table 1 since "
    )
    assert f"(shift {seated.pk})); end each" in message and "before the day closes." in message
    assert not GamingDayClose.objects.exists()
    services.end_dealer_shift(
        acting_user=shift_manager.user, shift=seated, ended_at=in_day(site, yesterday.gaming_date, 3)
    )
    services.close_gaming_day(acting_user=shift_manager.user, gaming_day=yesterday)
    assert GamingDayClose.objects.filter(gaming_day=yesterday).exists()


# --- Closed books (House control (closed books), core.closing) --------------------------------------


@pytest.fixture
def closed_books(seated, yesterday, table, site, shift_manager, cast, manager):
    """The table closed at "10:00" (ending the shift), the day closed, its bank counted and its
    books closed."""
    closer(shift_manager, table, site, yesterday, 3)
    services.close_gaming_day(acting_user=shift_manager.user, gaming_day=yesterday)
    for kind in ("start", "end"):
        cage.record_bank_count(
            acting_user=cast[Role.CASHIER].user, site=site, gaming_date=yesterday.gaming_date, kind=kind,
            cash={100: 1_000}, chips={},
        )  # fmt: skip
    return books.close_books(acting_user=manager.user, site=site, gaming_date=yesterday.gaming_date)


def test_a_dealer_shift_of_closed_books_is_not_ended_again_the_books_say_why(closed_books, seated, shift_manager):
    seated.refresh_from_db()
    ended = seated.ended_at
    with pytest.raises(ValidationError) as refused:
        services.end_dealer_shift(acting_user=shift_manager.user, shift=seated)
    message = refused.value.message_dict["ended_at"][0]
    assert message.startswith(f"{CLOSED_BOOKS}") and "so a dealer shift of" in message and "adjustment" in message
    seated.refresh_from_db()
    assert seated.ended_at == ended


def test_a_shift_left_running_on_closed_books_is_not_ended_with_no_time(
    closed_books, seated, yesterday, shift_manager, client_for
):
    left_running(seated)
    with pytest.raises(ValidationError) as refused:
        services.end_dealer_shift(acting_user=shift_manager.user, shift=seated)
    message = refused.value.message_dict["ended_at"][0]
    assert message.startswith(CLOSED_BOOKS)
    assert f"so a dealer shift of {yesterday.gaming_date} cannot be changed" in message and "adjustment" in message
    response = client_for(shift_manager).post(f"/api/v1/dealer-shifts/{seated.pk}/end/", {}, format="json")
    assert response.status_code == 400
    assert response.json()["ended_at"][0] == message  # the API's words are the service's
    seated.refresh_from_db()
    assert seated.ended_at is None and seated.ended_by is None
