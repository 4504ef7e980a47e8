"""ND 99-01.3-08-09(1): "The organization may establish a minimum wager at not more than three
dollars on one active table. If there is more than one active table at a site, the organization
may set a higher minimum wager on additional tables." Ending play at the low table (its closer, or
its dealer relieved with no one seated after) while a table with a higher minimum stays active is
flagged at North Dakota sites, citing the subsection; never at a Washington or New York site.
Driven through the floor's services (gaming day, openers, dealers seated and relieved, closers)
and the compliance day checks."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from cardroom.models import Role
from compliance.engine import DAY_PROVIDERS, run_day_checks, runs_at
from compliance.models import Alert
from floor import services
from floor.calculations import business_date
from floor.models import DealerShift
from tests.factories import TableFactory, make_person
from tests.floor.conftest import TRAY

START = datetime(2026, 11, 20, 19, 0, tzinfo=ZoneInfo("America/Chicago"))


class Floor:
    """A night at `site`: tables opened with chips and dealt, closed as the test says."""

    def __init__(self, site, cast, org, time_machine, minimums):
        self.site, self.clock = site, time_machine
        self.manager = cast[Role.SHIFT_MANAGER].user
        time_machine.move_to(START, tick=False)
        self.day = business_date(START, site.time_zone, site.business_day_start_hour)
        services.open_gaming_day(acting_user=self.manager, site=site, gaming_date=self.day)
        self.tables = {}
        for number, minimum in minimums.items():
            table = TableFactory(site=site, number=number, min_wager_cents=minimum, max_wager_cents=max(minimum, 500))
            services.record_table_inventory(acting_user=self.manager, table=table, kind="opener", chips=TRAY)
            self.tables[number] = table
        for number in sorted(minimums, key=minimums.get):  # the low table is dealt first (08-09(1))
            dealer = make_person(org, Role.DEALER, site)
            services.start_dealer_shift(acting_user=self.manager, table=self.tables[number], dealer=dealer)

    def close(self, number, after_minutes):
        self.clock.move_to(START + timedelta(minutes=after_minutes), tick=False)
        services.record_table_inventory(acting_user=self.manager, table=self.tables[number], kind="closer",
                                        chips=TRAY)  # fmt: skip

    def relieve(self, number, after_minutes, *, seat_another=False):
        """The table's dealer relieved: with another dealer seated at that moment (a handover), or
        with no one seated after."""
        self.clock.move_to(START + timedelta(minutes=after_minutes), tick=False)
        table = self.tables[number]
        if seat_another:
            dealer = make_person(table.site.organization, Role.DEALER, table.site)
            services.start_dealer_shift(acting_user=self.manager, table=table, dealer=dealer)
        else:
            shift = DealerShift.objects.get(table=table, ended_at__isnull=True)
            services.end_dealer_shift(acting_user=self.manager, shift=shift)

    def check(self):
        run_day_checks(site_ids=[self.site.pk], start=self.day, end=self.day)
        return list(Alert.objects.filter(site=self.site, rule="low_table_closed"))


@pytest.fixture
def night(site, cast, org, chips, time_machine):
    return lambda minimums: Floor(site, cast, org, time_machine, minimums)


def test_closing_the_low_table_while_a_higher_one_plays_is_flagged_citing_the_subsection(night):
    floor = night({1: 100, 2: 500})
    floor.close(1, after_minutes=90)
    [alert] = floor.check()
    assert alert.citation == "ND 99-01.3-08-09(1)"
    assert alert.action_required.startswith("ND 99-01.3-08-09(1): table 1 (minimum $1.00) closed at 20:30 on ")
    assert "while table 2 (minimum $5.00) stayed active" in alert.action_required
    assert "not more than three dollars on one active table" in alert.action_required
    assert alert.figures["tables"] == [2] and alert.figures["ceiling_cents"] == 300
    floor.close(2, after_minutes=120)
    assert len(floor.check()) == 1  # judged again: the same alert, not a second


def test_relieving_the_low_tables_dealer_with_no_one_after_while_a_higher_one_plays_is_flagged(night, client):
    """The live warning's case (floor.active_tables.low_table_left with closed False) is judged
    at night too: the low table was no longer active (no dealer) while table 2 played on."""
    floor = night({1: 100, 2: 500})
    floor.relieve(1, after_minutes=45)
    [alert] = floor.check()
    assert alert.citation == "ND 99-01.3-08-09(1)"
    assert alert.title == "Higher-minimum table active after the low table lost its dealer"
    assert alert.action_required.startswith(
        "ND 99-01.3-08-09(1): table 1 (minimum $1.00) was left without a dealer at 19:45 on "
    )
    assert "while table 2 (minimum $5.00) stayed active" in alert.action_required
    assert "Close the higher table or seat a dealer at one at $3.00 or less" in alert.action_required
    assert datetime.fromisoformat(alert.figures["relieved_at"]) == START + timedelta(minutes=45)
    assert alert.figures["tables"] == [2] and alert.figures["table"] == 1
    client.force_login(floor.manager)
    page = client.get(reverse("compliance:alert", args=[alert.pk])).content.decode()
    assert "Low table left without a dealer at" in page and "2026-11-20 19:45 CST" in page  # the site's time
    floor.close(1, after_minutes=60)  # closed while table 2 still plays: the same breach, not a second alert
    floor.close(2, after_minutes=61)
    assert floor.check() == [alert]  # judged again: the same alert, not a second


def test_a_handover_at_the_low_table_and_a_relief_at_the_higher_one_are_not_flagged(night):
    floor = night({1: 100, 2: 500})
    floor.relieve(1, after_minutes=30, seat_another=True)  # the low table dealt on without a gap
    floor.relieve(2, after_minutes=40)  # the higher table left without a dealer: no higher one plays
    floor.relieve(1, after_minutes=50)  # then the low one: nothing above the ceiling is active
    assert floor.check() == []


def test_a_relief_beside_another_low_table_is_not_flagged_until_that_one_leaves_too(night):
    floor = night({1: 100, 2: 500, 3: 300})
    floor.relieve(1, after_minutes=30)
    assert floor.check() == []  # table 3 ($3) still dealt
    floor.relieve(3, after_minutes=40)
    [alert] = floor.check()
    assert alert.figures["table"] == 3 and "table 3 (minimum $3.00) was left without a dealer at 19:40" in (
        alert.action_required
    )


def test_closing_the_higher_table_first_is_not_flagged(night):
    floor = night({1: 100, 2: 500})
    floor.close(2, after_minutes=60)
    floor.close(1, after_minutes=90)
    assert floor.check() == []


def test_another_low_table_still_active_keeps_the_higher_one_in_order(night):
    floor = night({1: 100, 2: 500, 3: 300})  # table 3 at the $3 ceiling: also a low table
    floor.close(1, after_minutes=90)
    assert floor.check() == []
    floor.close(3, after_minutes=100)
    [alert] = floor.check()
    assert alert.figures["table"] == 3 and "table 3 (minimum $3.00) closed at 20:40" in alert.action_required


@pytest.mark.parametrize("code", ["WA-HB", "NY"])
def test_no_such_alert_opens_at_a_washington_or_new_york_site(site, night, code):
    site.jurisdiction = code
    site.save()
    floor = night({1: 100, 2: 500})
    floor.close(1, after_minutes=90)
    assert floor.check() == []
    assert not Alert.objects.filter(citation__contains="99-01.3").exists()


@pytest.mark.parametrize("code,judged", [("ND", True), ("WA-HB", False), ("WA-BJ", False), ("NY", False)])
def test_the_rule_runs_only_where_the_pack_states_it(code, judged):
    [provider] = [p for p in DAY_PROVIDERS if p.__name__ == "low_table_closed"]
    assert runs_at(provider, code) == judged


def raise_the_minimum_the_next_day(floor, client_for, cast, number, cents):
    """The gaming manager changes a table's minimum after the day, through the API."""
    floor.clock.move_to(START + timedelta(days=1), tick=False)
    api = client_for(cast[Role.GAMING_MANAGER])
    response = api.patch(f"/api/v1/tables/{floor.tables[number].pk}/", {"min_wager_cents": cents}, format="json")
    assert response.status_code == 200, response.json()


def test_the_verdict_follows_the_low_tables_minimum_on_the_day_not_its_minimum_now(night, client_for, cast):
    """Table 1 was the $1 table that night; raised to $5 the next day, the night's scan still
    sees the low table closing while table 2 ($5) played on."""
    floor = night({1: 100, 2: 500})
    floor.close(1, after_minutes=90)
    floor.close(2, after_minutes=120)
    raise_the_minimum_the_next_day(floor, client_for, cast, 1, 500)
    [alert] = floor.check()
    assert "table 1 (minimum $1.00) closed at 20:30" in alert.action_required
    assert "table 2 (minimum $5.00) stayed active" in alert.action_required


def test_a_minimum_raised_after_the_day_does_not_flag_the_day(night, client_for, cast):
    """Table 3 was a $3 table that night (a second low table: no higher minimum played on after
    table 1 closed); raised to $5 the next day, the night stays in order."""
    floor = night({1: 100, 3: 300})
    floor.close(1, after_minutes=90)
    floor.close(3, after_minutes=100)
    raise_the_minimum_the_next_day(floor, client_for, cast, 3, 500)
    assert floor.check() == []


def test_the_days_play_is_read_in_three_queries_whatever_the_number_of_tables(night, django_assert_num_queries):
    from floor.queries import twenty_one_play

    floor = night({1: 100, 2: 500, 3: 300, 4: 1000})
    for number in (1, 2, 3, 4):
        floor.close(number, after_minutes=60 + number)
    with django_assert_num_queries(3):
        [tables] = twenty_one_play([floor.site.pk], floor.day, floor.day).values()
    assert [(t.number, t.min_wager_cents) for t in tables] == [(1, 100), (2, 500), (3, 300), (4, 1000)]
