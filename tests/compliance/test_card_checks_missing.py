"""ND 99-01.3-08-07(1), (2): a twenty-one table in play on a closed gaming day (its opener counted)
with no approval of its decks, or no inspection of its dealing shoe, recorded that day opens an alert
citing the section, one a day naming the tables; running the scan again opens nothing more. Nothing
of it at a Washington or New York site. The day is recorded through the services, as the floor
would (a check written straight to the table could pass where the service's rows do not)."""

from datetime import UTC, datetime, time, timedelta

import pytest

from cardroom.models import Role
from compliance import tasks
from compliance.models import Alert
from floor import services as floor
from tests.compliance.test_no_nd_rule_at_other_packs import TABLES, record_what_the_table_follows
from tests.factories import TableFactory, card_checks_kept_from
from tests.floor.conftest import TRAY, today

RULES = {"decks_not_approved", "shoe_not_inspected"}


@pytest.fixture(autouse=True)
def _kept_long_before():
    """The product kept card checks long before these nights (as on a database made with it)."""
    card_checks_kept_from(datetime(2000, 1, 1, tzinfo=UTC))


def a_night(site, cast, *, checked: dict[int, set[str]], code: str = "ND", close: bool = True):
    """Tables 1 and 2 opened, dealt and closed today at `site`, with the card checks of `checked`
    (table number -> kinds) recorded by the shift manager and the dealer; returns the gaming day."""
    manager, dealer = cast[Role.SHIFT_MANAGER], cast[Role.DEALER]
    tables = [TableFactory(site=site, number=n, min_wager_cents=100, **TABLES[code]) for n in (1, 2)]
    day = floor.open_gaming_day(acting_user=manager.user, site=site, gaming_date=today(site))
    for table in tables:
        floor.record_table_inventory(acting_user=manager.user, table=table, kind="opener", chips=TRAY)
        kinds = checked.get(table.number, set())
        if "shoe_inspected" in kinds:
            floor.record_card_check(acting_user=manager.user, table=table, kind="shoe_inspected")
        if "decks_approved" in kinds:
            floor.record_card_check(acting_user=dealer.user, table=table, kind="decks_approved")
    for table in tables:
        floor.record_table_inventory(acting_user=manager.user, table=table, kind="closer", chips=TRAY)
    if close:
        floor.close_gaming_day(acting_user=manager.user, gaming_day=day)
    return day


def scan(day) -> list[Alert]:
    tasks.run_daily_checks(str(day.gaming_date))
    return list(Alert.objects.filter(site=day.site, rule__in=RULES).order_by("rule"))


def test_a_closed_day_without_a_tables_checks_opens_one_alert_each_citing_the_section_and_again_none(
    site, cast, chips, day_under_way
):
    day = a_night(site, cast, checked={1: {"shoe_inspected", "decks_approved"}, 2: {"decks_approved"}})
    alerts = scan(day)
    assert [(a.rule, a.citation, a.title, a.figures, a.period_key) for a in alerts] == [
        (
            "shoe_not_inspected",
            "ND 99-01.3-08-07(2)",
            "Dealing shoe not inspected",
            {"tables": [2]},
            str(day.gaming_date),
        )
    ]
    assert alerts[0].action_required == (
        "ND 99-01.3-08-07(2): a dealer or shift manager inspects each dealing shoe before each day's activity; no "
        f"inspection of the shoe of table 2 was recorded on {day.gaming_date}. Find out why, and record each "
        "inspection as it is made."
    )
    assert scan(day) == alerts  # the scan again: the same alert, none more
    assert Alert.objects.filter(site=site, rule__in=RULES).count() == 1


def test_no_check_at_all_opens_both_naming_every_table(site, cast, chips, day_under_way):
    day = a_night(site, cast, checked={})
    alerts = scan(day)
    assert [(a.rule, a.citation, a.figures) for a in alerts] == [
        ("decks_not_approved", "ND 99-01.3-08-07(1)", {"tables": [1, 2]}),
        ("shoe_not_inspected", "ND 99-01.3-08-07(2)", {"tables": [1, 2]}),
    ]
    assert "tables 1, 2" in alerts[0].action_required
    scan(day)
    assert Alert.objects.filter(site=site, rule__in=RULES).count() == 2


def test_every_check_recorded_opens_nothing(site, cast, chips, day_under_way):
    both = {"shoe_inspected", "decks_approved"}
    assert scan(a_night(site, cast, checked={1: both, 2: both})) == []


def test_a_day_still_open_is_not_judged(site, cast, chips, day_under_way):
    assert scan(a_night(site, cast, checked={}, close=False)) == []


@pytest.mark.parametrize("code", ["WA-HB", "NY"])
def test_no_such_alert_at_a_site_whose_pack_does_not_state_it(site, cast, chips, day_under_way, code):
    site.jurisdiction = code
    site.save()
    record_what_the_table_follows(site, cast[Role.GAMING_MANAGER], code)
    day = a_night(site, cast, checked={}, code=code)
    assert day.close is not None
    assert scan(day) == []


def test_a_night_before_the_product_kept_card_checks_is_not_judged_and_the_next_is(site, cast, chips, day_under_way):
    """A house that ran the product before this record existed had nowhere to record its checks:
    the nights up to the day the database began keeping them (the migration's record, in UTC) are
    not flagged; the nights after it are."""
    day = a_night(site, cast, checked={})
    card_checks_kept_from(datetime.combine(day.gaming_date, time(12), tzinfo=UTC))  # upgraded that day
    assert scan(day) == []
    card_checks_kept_from(datetime.combine(day.gaming_date, time(12), tzinfo=UTC) - timedelta(days=1))
    assert [a.rule for a in scan(day)] == ["decks_not_approved", "shoe_not_inspected"]
