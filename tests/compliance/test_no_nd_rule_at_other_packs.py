"""No North Dakota rule runs at a Washington or New York site (issues 17 and 32).

A day of activity is driven through the services, as the floor, the cage and the count team
would record it (tray counts, a fill slip where the pack keeps a drop, a drop box, the bank
count, a dealer leaving with tips undeclared), leaving behind what trips North Dakota's checks:
a slip neither verified nor received, a box neither removed nor counted, no deposit, undeclared
tips. Then the whole scheduled compliance scan runs (the Celery task functions, called
directly). At an ND site the same day opens ND alerts; at a WA-HB, WA-BJ or NY site no alert
cites North Dakota's law and no ND-only rule opens. Rows written straight to the database
missed an alert the services open (`tips_before_leaving`, opened at a tray count's closer)."""

from datetime import timedelta

import pytest
import time_machine
from django.core.exceptions import ValidationError
from django.utils import timezone

from cage import services as cage
from cardroom.models import Role
from compliance import tasks
from compliance.models import Alert
from core.periods import Quarter
from counts import services as counts
from floor import services as floor
from floor.rules import house_dealers
from packs import RevenueModel, pack_for
from tests import pack_setup
from tests.conformance.words import ND_WORDS, OTHER_WORDS, law_words_in
from tests.factories import TableFactory
from tests.floor.conftest import FILL, TRAY, today

# The alerts North Dakota's checks open (compliance.rules): none may open at another pack's site.
# (A late deposit is not among them: its deadline is a house control at every site, opened there
# citing "House control", never ND's text.)
ND_ONLY_RULES = {
    "prizes_over_gp",
    "dealer_hold_missing",
    "low_hold_21",
    "low_hold_PW",
    "surveillance_required",
    "outage_operating",
    "review_log_missing",
    "slip_missing",
    "slip_out_of_order",
    "slip_unverified",
    "slip_unreceived",
    "count_unresolved",
    "count_not_removed",
    "count_not_counted",
    "sample_late",
    "sample_resubmission_owed",
    "chip_redemption_procedure_missing",
    "shuffle_procedure_missing",
    "chip_marking_missing",
    "surveillance_not_operational",
    "special_event_over_limit",
    "recording_gap",
    "discontinued_redemption",
    "chip_colours",
    "tips_before_leaving",
    "review_week_short",
    "decks_not_approved",
    "shoe_not_inspected",
}
# Each pack's own legal table (packs/), so that the day trips only ND rules.
TABLES = {
    "ND": {"max_wager_cents": 2500},
    "WA-HB": {"max_wager_cents": 5000, "payout_rounding": "down", "decks": 2, "dealt_from": "hand"},
    "WA-BJ": {"max_wager_cents": 2500, "banker": "player", "min_bank_cents": 30000, "decks": 1},
    "NY": {
        "max_wager_cents": 500,
        "decks": 1,
        "tie_option": 2,
        "blackjack_payout": "2:1",
        "double_on": "ten_eleven",
        "double_after_split": False,
    },
}


def record_what_the_table_follows(site, manager, code):
    """WA-HB: the internal controls come first (WSGC rules); NY: the licence's tie option (4620.5(h))."""
    if code == "WA-HB":
        pack_setup.record_controls(manager, site)
    if code == "NY":
        pack_setup.record_licence(manager, site, tie_option=TABLES[code]["tie_option"])


def a_day_through_the_services(site, cast, code):
    """Today's activity at `site`, recorded by the services; returns the gaming date."""
    manager, cashier = cast[Role.SHIFT_MANAGER], cast[Role.CASHIER]
    record_what_the_table_follows(site, cast[Role.GAMING_MANAGER], code)
    table = TableFactory(site=site, number=1, min_wager_cents=100, **TABLES[code])
    table.full_clean()  # the site's own pack accepts it
    day = floor.open_gaming_day(acting_user=manager.user, site=site, gaming_date=today(site))
    # Tray counts and slips only where the pack keeps a drop (a fees-only pack refuses them).
    keeps_trays = pack_for(site).revenue_model != RevenueModel.FEES
    if keeps_trays:
        floor.record_table_inventory(acting_user=manager.user, table=table, kind="opener", chips=TRAY)
    # A dealer seated where the house seats one (at WA-BJ a player deals and banks the game).
    seated = house_dealers(site)
    shift = (
        floor.start_dealer_shift(acting_user=manager.user, table=table, dealer=cast[Role.DEALER]) if seated else None
    )
    if keeps_trays:
        # Neither verified nor received: ND 99-01.3-08-05(5), (6).
        floor.prepare_fill(acting_user=cashier.user, table=table, chips=FILL)
    if keeps_trays:  # a fees-only pack keeps no drop box either
        box = counts.register_drop_box(acting_user=cast[Role.GAMING_MANAGER].user, table=table)
        counts.place_drop_box(acting_user=manager.user, drop_box=box, gaming_date=day.gaming_date)  # never removed
    cage.record_bank_count(
        acting_user=cashier.user,
        site=site,
        gaming_date=day.gaming_date,
        kind="start",
        cash=[{"denomination": 2000, "quantity": 50}],
        chips=[],
    )
    if keeps_trays:
        # The closer ends the dealer's last shift of the day with their tips undeclared.
        floor.record_table_inventory(acting_user=manager.user, table=table, kind="closer", chips=TRAY)
    elif seated:
        floor.end_dealer_shift(acting_user=manager.user, shift=shift)
    try:  # the day's close checks the tips again (refused while a slip is open: then left open)
        floor.close_gaming_day(acting_user=manager.user, gaming_day=day)
    except ValidationError:
        pass
    return day.gaming_date


def scan_a_week_later(gaming_date):
    """The nightly day checks and the quarter checks, a week after the day (its slips, boxes and
    deposit are late by then), as the schedule runs them."""
    with time_machine.travel(timezone.now() + timedelta(days=8), tick=False):
        tasks.run_daily_checks(str(gaming_date + timedelta(days=6)))
        tasks.run_quarter_checks(str(Quarter.containing(gaming_date)))


@pytest.mark.parametrize("code", ["WA-HB", "WA-BJ", "NY"])
def test_a_day_through_the_services_opens_no_nd_alert_at_another_packs_site(site, cast, chips, day_under_way, code):
    site.jurisdiction = code
    site.save()
    scan_a_week_later(a_day_through_the_services(site, cast, code))
    alerts = list(Alert.objects.filter(site=site))
    for alert in alerts:
        text = " ".join((alert.citation, alert.title, alert.action_required))
        assert not law_words_in(text, ND_WORDS), f"{alert.rule}: {text}"
    assert not {a.rule for a in alerts} & ND_ONLY_RULES
    assert all(a.citation == "House control" for a in alerts if a.rule == "deposit_late")


def test_the_same_day_at_a_north_dakota_site_opens_the_nd_alerts(site, cast, chips, day_under_way):
    """The control: the day does trip North Dakota's checks, each alert citing ND and nothing of
    Washington's or New York's law."""
    scan_a_week_later(a_day_through_the_services(site, cast, "ND"))
    alerts = list(Alert.objects.filter(site=site))
    opened = {a.rule for a in alerts}
    assert {"tips_before_leaving", "slip_unverified", "slip_unreceived", "count_not_removed"} <= opened
    for alert in alerts:
        assert alert.citation.startswith("ND 99-01.3"), alert.rule
        assert not law_words_in(alert.action_required, OTHER_WORDS), alert.rule
