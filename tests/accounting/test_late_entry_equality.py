"""A day entered late from paper gives the same figures as the same day entered live.

The same gaming day (opener, three dealer shifts with relief counts, fills and credits with
their steps, the closer, the close) is recorded twice, at two sites: once live (the clock at
each moment, no times given) and once the next morning from the paper (every `*_at` given).
The daily summary and each dealer shift's hold and slip attribution must be identical; only
the entry marks differ (entered_late)."""

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from accounting import dealer_hold
from accounting.summaries import daily_summary
from cardroom.models import Role
from floor import services
from floor.models import DealerShift, Slip, SlipStep, TableInventory
from tests.accounting.scenario import Scenario
from tests.factories import SiteFactory, TableFactory, make_chips, make_person

CHICAGO = ZoneInfo("America/Chicago")
DAY = date(2026, 7, 10)


def rack(green, red, white):
    lines = ((2500, green), (500, red), (100, white))
    return [{"denomination": value, "quantity": quantity} for value, quantity in lines if quantity]


def moment(hour, minute=0):
    return datetime(2026, 7, 10, hour, minute, tzinfo=CHICAGO)


def crew(org, site):
    people = {role: make_person(org, role, site) for role in (Role.SHIFT_MANAGER, Role.CASHIER, Role.PIT_BOSS)}
    people["dealer_a"] = make_person(org, Role.DEALER, site)
    people["dealer_b"] = make_person(org, Role.DEALER, site)
    people["count1"] = make_person(org, Role.COUNT_TEAM, site, employment_type="independent")
    people["count2"] = make_person(org, Role.COUNT_TEAM, site)
    return people


def play_the_day(site, table, people, when):
    """The day's paper, in order. `when(moment)` returns the `at` to pass: None when live
    (the clock has been moved to the moment), the moment itself when entered late."""
    sm, cashier, pit = people[Role.SHIFT_MANAGER].user, people[Role.CASHIER].user, people[Role.PIT_BOSS].user
    shifts = []

    def slip(prepare, preparer, verifier, receiver, chips, hour, minute):
        made = prepare(acting_user=preparer, table=table, chips=chips, at=when(moment(hour, minute)))
        services.verify_slip(acting_user=verifier, slip=made, at=when(moment(hour, minute + 5)))
        services.receive_slip(acting_user=receiver, slip=made, at=when(moment(hour, minute + 10)))

    services.open_gaming_day(acting_user=sm, site=site, gaming_date=DAY, at=when(moment(8)))
    services.record_table_inventory(
        acting_user=sm, table=table, kind="opener", chips=rack(40, 160, 200), at=when(moment(9))
    )
    dealer_a, dealer_b = people["dealer_a"], people["dealer_b"]
    shifts.append(services.start_dealer_shift(acting_user=sm, table=table, dealer=dealer_a, started_at=when(moment(9))))
    slip(services.prepare_fill, cashier, pit, dealer_a.user, rack(20, 20, 0), 12, 15)
    shifts.append(
        services.start_dealer_shift(
            acting_user=sm, table=table, dealer=dealer_b, started_at=when(moment(14)), chips=rack(50, 150, 180)
        )
    )
    slip(services.prepare_credit, pit, sm, cashier, rack(10, 0, 0), 16, 30)
    # Relief of the dealer by themselves: one call ends the running shift and starts the next.
    shifts.append(
        services.start_dealer_shift(
            acting_user=sm, table=table, dealer=dealer_b, started_at=when(moment(18)), chips=rack(38, 150, 170)
        )
    )
    slip(services.prepare_fill, cashier, pit, dealer_b.user, rack(4, 0, 0), 20, 0)
    services.record_table_inventory(
        acting_user=sm, table=table, kind="closer", chips=rack(35, 140, 160), at=when(moment(23))
    )
    return shifts


def live(time_machine):
    def when(at):
        time_machine.move_to(at, tick=False)
        return None

    return when


def written(at):
    return at


@pytest.fixture
def sites(org):
    make_chips(org)
    return SiteFactory(organization=org, name="Live Lodge"), SiteFactory(organization=org, name="Paper Lodge")


def figures(site, table, shifts, people, drops):
    scenario = Scenario(site, {"shift": people[Role.SHIFT_MANAGER], **people})
    scenario.days[DAY] = shifts[0].gaming_day
    for shift_obj, cents in zip(shifts, drops, strict=True):
        scenario.drop(table, DAY, cents, dealer_shift_id=shift_obj.pk)
    summary = daily_summary(site, DAY)
    names = {people["dealer_a"].pk: "A", people["dealer_b"].pk: "B"}
    per_shift = [
        (names[f.dealer_id], f.table_number, f.started_at, f.ended_at, f.custody, f.not_separable_because)
        for f in dealer_hold.shift_figures([site.pk], DAY, DAY)
    ]
    per_dealer = sorted(
        (names[d.dealer_id], d.total, d.separable_shifts) for d in dealer_hold.dealer_summaries([site.pk], DAY, DAY)
    )
    tables = [(t.table_number, t.game, t.custody, t.complete) for t in summary.tables]
    return (tables, summary.total, summary.twenty_one, summary.paddlewheel), per_shift, per_dealer


def test_a_day_entered_late_has_the_figures_of_the_day_entered_live(org, sites, time_machine):
    live_site, paper_site = sites
    live_people, paper_people = crew(org, live_site), crew(org, paper_site)
    live_table, paper_table = TableFactory(site=live_site, number=1), TableFactory(site=paper_site, number=1)

    live_shifts = play_the_day(live_site, live_table, live_people, live(time_machine))
    time_machine.move_to(moment(23, 30), tick=False)
    services.close_gaming_day(acting_user=live_people[Role.SHIFT_MANAGER].user, gaming_day=live_shifts[0].gaming_day)

    time_machine.move_to(moment(10) + timedelta(days=1), tick=False)  # the next morning, from the paper
    paper_shifts = play_the_day(paper_site, paper_table, paper_people, written)
    services.close_gaming_day(
        acting_user=paper_people[Role.SHIFT_MANAGER].user, gaming_day=paper_shifts[0].gaming_day, at=moment(23, 30)
    )

    drops = [90_000, 60_000, 45_000]
    live_figures = figures(live_site, live_table, live_shifts, live_people, drops)
    paper_figures = figures(paper_site, paper_table, paper_shifts, paper_people, drops)
    assert live_figures == paper_figures
    summary, per_shift, _ = paper_figures
    assert summary[1].agp_cents != 0 and all(row[4] is not None for row in per_shift)  # the figures are real
    # Fills and credits went to the shift running when each slip was prepared.
    assert [(row[0], row[2].astimezone(CHICAGO).hour) for row in per_shift] == [("A", 9), ("B", 14), ("B", 18)]
    assert [row[4].fills_cents for row in per_shift] == [60_000, 0, 10_000]
    assert [row[4].credits_cents for row in per_shift] == [0, 25_000, 0]

    # Both times are kept; only the paper entries are marked late.
    for model, lookup in (
        (TableInventory, "table__site"),
        (DealerShift, "table__site"),
        (Slip, "site"),
        (SlipStep, "slip__site"),
    ):
        assert not model.objects.filter(**{lookup: live_site, "entered_late": True}).exists(), model
        paper = model.objects.filter(**{lookup: paper_site})
        assert paper.exists() and not paper.filter(entered_late=False).exists(), model
