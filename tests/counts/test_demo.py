"""The counts demo counts every finished demo gaming day, once."""

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine

from cardroom.demo import load_demo
from core.audit_verify import verify_chain
from counts.demo import UNISSUED_FORM, extend_demo
from counts.models import CountAgreement, CountSession
from counts.queries import agreed_drop_cents, box_count, is_signed
from floor import services as accounting
from floor.demo import mark_built
from floor.models import DealerShift, GamingDay

DAYS = [date(2026, 11, 10), date(2026, 11, 11)]
TRAY = [{"denomination": 2500, "quantity": 40}, {"denomination": 500, "quantity": 100}]


@pytest.fixture
def demo(db):
    demo = load_demo()
    site, people = demo["sites"]["busy"], demo["people"]
    tables = list(site.tables.filter(game="21").order_by("number")[:2])
    first_day = DAYS[0]
    with time_machine.travel(datetime(2026, 11, 10, 20, tzinfo=ZoneInfo(site.time_zone)), tick=False):
        mark_built(accounting.open_gaming_day(acting_user=people["shift"].user, site=site, gaming_date=first_day))
        for table, dealer in zip(tables, ("dealer", "dealer2"), strict=True):
            accounting.record_table_inventory(acting_user=people["shift"].user, table=table, kind="opener", chips=TRAY)
            accounting.start_dealer_shift(acting_user=people["shift"].user, table=table, dealer=people[dealer])
            accounting.prepare_fill(acting_user=people["cashier"].user, table=table, chips=TRAY[:1])
    # The second day only needs to show tables in play: a gaming day and dealer shifts.
    evening = datetime(2026, 11, 11, 20, tzinfo=ZoneInfo(site.time_zone))
    second = GamingDay.objects.create(site=site, gaming_date=DAYS[1], opened_at=evening, opened_by=people["shift"])
    mark_built(second)  # both days as the floor's demo marks the days it builds: the only days the demo counts
    for table in tables:
        DealerShift.objects.create(
            table=table,
            dealer=people["dealer"],
            gaming_day=second,
            started_at=evening,
            ended_at=evening + timedelta(hours=3),
            started_by=people["shift"],
        )
    return demo


def test_every_finished_gaming_day_is_counted_and_signed_once(demo):
    site = demo["sites"]["busy"]
    extend_demo(demo)
    sessions = list(CountSession.objects.filter(site=site).order_by("gaming_date"))
    assert [s.gaming_date for s in sessions] == DAYS
    assert all(is_signed(s) for s in sessions)
    table = site.tables.get(number=1)
    assert all(agreed_drop_cents(table, day) > 0 for day in DAYS)
    agreements = CountAgreement.objects.count()
    extend_demo(demo)
    assert CountAgreement.objects.count() == agreements and CountSession.objects.count() == 2
    assert verify_chain().ok  # every record the demo wrote is covered by its event


def test_the_first_busy_box_holds_an_unissued_form_explained_before_the_books_close(demo):
    from counts.queries import unexplained_forms

    extend_demo(demo)
    session = CountSession.objects.get(site=demo["sites"]["busy"], gaming_date=DAYS[0])
    drop = session.entries.order_by("pk").first().drop
    rec = box_count(session, drop, None).reconciliation
    assert rec["unexpected"] == [(UNISSUED_FORM["kind"], UNISSUED_FORM["number"])]
    assert rec["missing"] == []
    explanation = rec["exceptions"][0]["explanation"]
    assert explanation is not None and explanation.explained_by.user.username.startswith("shift")
    assert unexplained_forms(session.site, DAYS[0]) == []  # its books may close


def test_the_north_dakota_demo_exchanges_a_box_at_each_dealer_change_so_most_dealers_have_a_percent_of_hold(db):
    """Each ND demo night's box follows its dealer (ND 99-01.3-08-04(8)): the dealer hold report
    reads a percent-of-hold and a z-score for most dealers, not n/a for everyone."""
    from accounting.dealer_hold import NO_BOX_EXCHANGE, dealer_summaries, shift_figures
    from counts.models import Drop
    from counts.queries import box_exchange
    from floor.demo import build_demo_custody, demo_days, people_at

    demo = load_demo()
    site = demo["sites"]["busy"]
    days = [d for d in demo_days("busy", site, date.today()) if d.weekday() in (4, 5)][-3:]
    assert build_demo_custody(site, days=days, people=people_at(site)) == len(days)
    extend_demo(demo)

    assert box_exchange(site) == "dealer_shift"
    shifts = DealerShift.objects.filter(table__site=site)
    assert Drop.objects.filter(site=site, dealer_shift_id__in=shifts.values("pk")).count() == shifts.count()
    summaries = dealer_summaries([site.pk], days[0], days[-1])
    every_shift = [s for s in shift_figures([site.pk], days[0], days[-1]) if s.game == "21"]
    assert every_shift and all(s.not_separable_because != NO_BOX_EXCHANGE for s in every_shift)
    assert sum(s.custody is not None for s in every_shift) >= 0.8 * len(every_shift)
    with_hold = [s for s in summaries if s.hold_ratio is not None]
    assert len(with_hold) * 2 > len(summaries) and sum(s.separable_shifts for s in with_hold) > 0
    assert any(s.z_score is not None for s in with_hold)
    # Each box's drop follows its own shift's payout at a plausible hold (domain.md section 8).
    assert all(-1 < s.hold_ratio < 1 for s in with_hold)
