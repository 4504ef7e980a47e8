"""ND 99-01.3-08-05(2) "used in sequential order" across gaming days entered at different times:
a past gaming day entered from paper (a day sheet) after the later days were entered live is
judged by when its slips were used, not by when they were typed in. Everything through the
services and the API, the check through the nightly task."""

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine

from cardroom.models import Role
from compliance import tasks
from compliance.models import Alert
from floor import services as floor
from floor.models import DealerShift, Slip
from tests.factories import TableFactory
from tests.floor.conftest import TRAY, today

FILL = [{"denomination": 2500, "quantity": 20}]


@pytest.fixture
def table(site, chips):
    return TableFactory(site=site, number=1, min_wager_cents=100, max_wager_cents=2500)


def local(site, gaming_date, hh_mm: str, next_day=False) -> datetime:
    hour, minute = map(int, hh_mm.split(":"))
    moment = datetime.combine(gaming_date + timedelta(days=1 if next_day else 0), time(hour, minute))
    return moment.replace(tzinfo=ZoneInfo(site.time_zone))


def enter_live(site, cast, table, gaming_date, numbers):
    """The gaming day `gaming_date` entered as it happened (no times given: each act at its own
    moment on the floor's clock), its fills with the printed `numbers` in that order (None: the
    site's electronic series numbers them)."""
    sm, ca, pb, dealer = (cast[r] for r in (Role.SHIFT_MANAGER, Role.CASHIER, Role.PIT_BOSS, Role.DEALER))
    with time_machine.travel(local(site, gaming_date, "18:00"), tick=False) as clock:
        day = floor.open_gaming_day(acting_user=sm.user, site=site, gaming_date=gaming_date)
        clock.shift(timedelta(minutes=5))
        floor.record_table_inventory(acting_user=sm.user, table=table, kind="opener", chips=TRAY)
        clock.shift(timedelta(minutes=5))
        floor.start_dealer_shift(acting_user=sm.user, table=table, dealer=dealer)
        for number in numbers:
            clock.shift(timedelta(minutes=30))
            slip = floor.prepare_fill(acting_user=ca.user, table=table, chips=FILL, number=number)
            clock.shift(timedelta(minutes=1))
            floor.verify_slip(acting_user=pb.user, slip=slip)
            clock.shift(timedelta(minutes=1))
            floor.receive_slip(acting_user=dealer.user, slip=slip)
        clock.shift(timedelta(hours=1))
        shift = DealerShift.objects.filter(table=table).latest("started_at")
        floor.end_dealer_shift(acting_user=sm.user, shift=shift)
        floor.record_table_inventory(acting_user=sm.user, table=table, kind="closer", chips=TRAY)
        clock.shift(timedelta(minutes=5))
        floor.close_gaming_day(acting_user=sm.user, gaming_day=day)
    return day


def paper_sheet(site, cast, gaming_date, numbers) -> dict:
    """The day sheet of `gaming_date` from its paper: its fills with `numbers` (None: the site's
    electronic series numbers them), used in that order, an hour apart from 19:00."""
    i = {role: cast[role].initials for role in (Role.SHIFT_MANAGER, Role.CASHIER, Role.PIT_BOSS, Role.DEALER)}
    at = lambda hh_mm, next_day=False: local(site, gaming_date, hh_mm, next_day).isoformat()  # noqa: E731
    slips = []
    for index, number in enumerate(numbers):
        hour = 19 + index
        slips.append(
            {
                "kind": "fill",
                **({"number": number} if number else {}),
                "table": 1,
                "chips": FILL,
                "prepared_at": at(f"{hour}:00"),
                "prepared_by": i[Role.CASHIER],
                "verified_at": at(f"{hour}:01"),
                "verified_by": i[Role.PIT_BOSS],
                "received_at": at(f"{hour}:02"),
                "received_by": i[Role.DEALER],
            }
        )
    return {
        "gaming_date": gaming_date.isoformat(),
        "open": {"opened_at": at("18:00"), "opened_by": i[Role.SHIFT_MANAGER]},
        "openers": [{"table": 1, "counted_at": at("18:05"), "counted_by": i[Role.SHIFT_MANAGER], "chips": TRAY}],
        "dealer_shifts": [
            {
                "table": 1,
                "dealer": i[Role.DEALER],
                "started_at": at("18:10"),
                "started_by": i[Role.SHIFT_MANAGER],
                "ended_at": at("23:55"),
            }
        ],
        "slips": slips,
        "closers": [{"table": 1, "counted_at": at("23:56"), "counted_by": i[Role.SHIFT_MANAGER], "chips": TRAY}],
        "close": {"closed_at": at("23:59"), "closed_by": i[Role.SHIFT_MANAGER]},
    }


def enter_paper(site, cast, client_for, gaming_date, numbers):
    post_sheet(site, cast, client_for, paper_sheet(site, cast, gaming_date, numbers))


def post_sheet(site, cast, client_for, sheet):
    """The day sheet entered by the gaming manager through the API (accounting.api_day_sheets)."""
    response = client_for(cast[Role.GAMING_MANAGER]).post(f"/api/v1/sites/{site.pk}/day-sheets/", sheet, format="json")
    assert response.status_code == 201, response.json()


def out_of_order(last_day) -> list[str]:
    """The slips the nightly check (compliance.tasks.run_daily_checks) flags used out of order."""
    tasks.run_daily_checks(str(last_day))
    alerts = Alert.objects.filter(rule="slip_out_of_order").order_by("pk")
    assert {a.citation for a in alerts} <= {"ND 99-01.3-08-05(2)"}
    return [a.subject for a in alerts]


@pytest.fixture
def days(site):
    """Three gaming days gone, oldest first."""
    last = today(site) - timedelta(days=2)
    return last - timedelta(days=2), last - timedelta(days=1), last


def test_a_past_day_entered_from_paper_after_the_next_day_flags_none_of_the_electronic_numbers(
    site, cast, table, client_for, days
):
    """The site's electronic series numbers each slip as it is entered: the next day's slips,
    entered live, drew 1-4; the day before, entered later from paper, draws 5-8 then. Every
    number was used in sequential order (ND 99-01.3-08-05(2)); judged by the paper's times,
    1-4 read as used after 8."""
    _, paper_day, next_day = days
    enter_live(site, cast, table, next_day, [None] * 4)
    enter_paper(site, cast, client_for, paper_day, [None] * 4)
    drawn = Slip.objects.filter(gaming_day__gaming_date=paper_day).values_list("number", flat=True)
    assert sorted(drawn) == [5, 6, 7, 8]
    assert out_of_order(next_day) == []
    # the slip register (floor.queries.slip_register) reads the series the same way
    api = client_for(cast[Role.AUDITOR])
    register = api.get(f"/api/v1/sites/{site.pk}/slip-register/?start={paper_day}&end={next_day}").json()
    fills = next(series for series in register["series"] if series["kind"] == "fill")
    assert (fills["missing"], fills["out_of_order"]) == ([], [])


def test_the_same_from_a_checkpoint_of_an_earlier_night(site, cast, table, client_for, days):
    """The nightly check read up to the first night's slips; the next day's and the paper day's
    numbers are all newer than its checkpoint (compliance.slip_series, a read from a checkpoint)."""
    first_day, paper_day, next_day = days
    enter_live(site, cast, table, first_day, [None] * 2)
    assert out_of_order(first_day) == []
    enter_live(site, cast, table, next_day, [None] * 4)
    enter_paper(site, cast, client_for, paper_day, [None] * 4)
    assert out_of_order(next_day) == []


def test_a_slip_entered_with_an_earlier_time_than_the_last_live_one_is_not_out_of_order(site, cast, table, days):
    """On one day: fill 1 entered live at 20:00; at 21:00 the cashier enters a fill prepared at
    19:30 from its paper, and the electronic series gives it 2, used after 1."""
    sm, ca = cast[Role.SHIFT_MANAGER], cast[Role.CASHIER]
    day = days[-1]
    with time_machine.travel(local(site, day, "18:00"), tick=False) as clock:
        gaming_day = floor.open_gaming_day(acting_user=sm.user, site=site, gaming_date=day)
        floor.record_table_inventory(acting_user=sm.user, table=table, kind="opener", chips=TRAY)
        floor.start_dealer_shift(acting_user=sm.user, table=table, dealer=cast[Role.DEALER])
        clock.move_to(local(site, day, "20:00"))
        live = floor.prepare_fill(acting_user=ca.user, table=table, chips=FILL)
        clock.move_to(local(site, day, "21:00"))
        late = floor.prepare_fill(acting_user=ca.user, table=table, chips=FILL, at=local(site, day, "19:30"))
    assert (live.number, late.number) == (1, 2)
    assert gaming_day.slips.count() == 2
    assert out_of_order(day) == []


# Printed numbers (a registered book) are judged by the times on their paper, whenever typed in.


@pytest.fixture
def book(site, manager):
    return floor.register_slip_book(acting_user=manager.user, site=site, kind="fill", first_number=1, last_number=200)


def test_a_past_day_of_lower_printed_numbers_entered_from_paper_after_the_next_day_is_in_order(
    site, cast, table, client_for, days, book
):
    _, paper_day, next_day = days
    enter_live(site, cast, table, next_day, [101, 102, 103, 104])
    assert out_of_order(next_day) == []
    enter_paper(site, cast, client_for, paper_day, [97, 98, 99, 100])
    assert out_of_order(next_day) == []


def test_a_printed_number_used_after_a_higher_one_is_flagged_live_or_from_paper(
    site, cast, table, client_for, days, book
):
    """ND 99-01.3-08-05(2): 102 used after 103 on the live day, and 98 after 99 on the paper of
    a day typed in later in number order."""
    _, paper_day, next_day = days
    enter_live(site, cast, table, next_day, [101, 103, 102, 104])
    assert out_of_order(next_day) == ["fill:102"]
    sheet = paper_sheet(site, cast, paper_day, [97, 99, 98, 100])  # its paper: 98 at 21:00, after 99 at 20:00
    sheet["slips"].sort(key=lambda slip: slip["number"])  # typed in number order
    post_sheet(site, cast, client_for, sheet)
    assert out_of_order(next_day) == ["fill:102", "fill:98"]
