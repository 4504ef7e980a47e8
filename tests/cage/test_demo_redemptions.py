"""The demo's players cash at the window the chips the tables paid them: each demo night has its
redemptions, so the redemption log explains the cash the bank's counts paid out (an auditor read
"No redemptions recorded" beside a bank that paid $992.00 out), but they are the chips players
hold, not the night's prizes turned into the largest chips (an auditor read 104 $100 chips
redeemed at a site whose tables were never sent one, the house owning 100). Once, however often
the demo runs; none at a fees room, whose chips are not the house's."""

from collections import defaultdict

import pytest
from django.db.models import Q

from cage.demo import extend_demo
from cage.models import ChipRedemption, ChipRedemptionLine, TipDeclarationLine
from cage.queries import chip_book
from cardroom.models import Site
from floor.demo import built_dates
from floor.models import SlipLine, SlipStep, TableInventoryLine
from floor.rules import house_chips

pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("cage-demo-redemptions")]


def _issued(site) -> dict[int, object]:
    """{chip value: the first gaming date the site's tables held it}: in a tray count or a fill."""
    first: dict = {}
    counted = TableInventoryLine.objects.filter(inventory__gaming_day__site=site).values_list(
        "value_cents", "inventory__gaming_day__gaming_date"
    )
    filled = SlipLine.objects.filter(slip__site=site, slip__kind="fill").values_list(
        "value_cents", "slip__gaming_day__gaming_date"
    )
    for value, day in [*counted, *filled]:
        first[value] = min(day, first.get(value, day))
    return first


def _paid_to_players(site) -> dict:
    """{gaming date: {chip value: quantity}}: what the site's trays paid players each day
    (openers + fills - credits - closers, the slips not voided)."""
    paid = defaultdict(lambda: defaultdict(int))
    trays = TableInventoryLine.objects.filter(
        inventory__gaming_day__site=site, inventory__kind__in=("opener", "closer")
    )
    for day, kind, value, quantity in trays.values_list(
        "inventory__gaming_day__gaming_date", "inventory__kind", "value_cents", "quantity"
    ):
        paid[day][value] += quantity if kind == "opener" else -quantity
    slips = SlipLine.objects.filter(slip__site=site).exclude(slip__steps__kind=SlipStep.Kind.VOID)
    for day, kind, value, quantity in slips.values_list(
        "slip__gaming_day__gaming_date", "slip__kind", "value_cents", "quantity"
    ):
        paid[day][value] += quantity if kind == "fill" else -quantity
    return paid


def test_every_demo_redemption_is_of_chips_issued_to_the_sites_tables_and_owned(a_week_of_the_demo):
    """Each redeemed value went to the site's tables (a tray count or a fill) on or before the
    night, and no redemption holds more of a value than the house owns."""
    redemptions = list(ChipRedemption.objects.select_related("site__organization").prefetch_related("lines"))
    assert redemptions
    issued = {site.pk: _issued(site) for site in Site.objects.all()}
    for redemption in redemptions:
        owned = chip_book(redemption.site.organization, redemption.gaming_date)
        for line in redemption.lines.all():
            first = issued[redemption.site_id].get(line.value_cents)
            assert first is not None and first <= redemption.gaming_date, (redemption.site.name, line.value_cents)
            assert line.quantity <= owned.get(line.value_cents, 0), (redemption.site.name, line.value_cents)


def test_players_redeem_only_chips_the_tables_paid_them_not_the_nights_prizes(a_week_of_the_demo):
    """Night after night, the chips redeemed and tipped of each value are never more than the
    site's trays paid players by then; a night's redemptions are not its prizes (players keep a
    chip or two for another night, and cash out what they kept before), and they are several
    cash-outs, each inside the gaming day, before it closes."""
    nights_not_their_prizes = 0
    for site in Site.objects.all():
        paid, nights = _paid_to_players(site), built_dates(site)
        returned = defaultdict(lambda: defaultdict(int))
        for day, value, quantity in ChipRedemptionLine.objects.filter(redemption__site=site).values_list(
            "redemption__gaming_date", "value_cents", "quantity"
        ):
            returned[day][value] += quantity
        tipped = TipDeclarationLine.objects.filter(Q(declaration__site=site), Q(declaration__redemption__isnull=False))
        for day, value, quantity in tipped.values_list("declaration__gaming_date", "value_cents", "quantity"):
            returned[day][value] += quantity
        held = defaultdict(int)
        for day in sorted(set(paid) | set(returned)):
            for value, quantity in paid.get(day, {}).items():
                held[value] += quantity
            for value, quantity in returned.get(day, {}).items():
                held[value] -= quantity
                assert held[value] >= 0, (site.name, day, value, held[value])
        for day in nights:
            redeemed = ChipRedemption.objects.filter(site=site, gaming_date=day)
            prizes = sum(value * quantity for value, quantity in paid.get(day, {}).items())
            if not house_chips(site) or not prizes:
                assert not redeemed.exists(), (site.name, day)
                continue
            assert redeemed.exists(), (site.name, day)
            nights_not_their_prizes += sum(r.total_cents for r in redeemed) != prizes
            close = site.gaming_days.get(gaming_date=day).close.closed_at
            assert all(r.redeemed_at < close for r in redeemed), (site.name, day)
    assert nights_not_their_prizes > 0
    assert ChipRedemption.objects.values("site", "gaming_date").distinct().count() < ChipRedemption.objects.count()


def test_the_demo_redeems_each_night_once(a_week_of_the_demo):
    before = ChipRedemption.objects.count()
    extend_demo(a_week_of_the_demo)  # again: nothing more
    assert ChipRedemption.objects.count() == before
