"""The demo's players cash at the window the chips they won: each demo night's redemptions are its
prizes (what its tables paid out), so the redemption log explains the cash the bank's counts paid
out (an auditor read "No redemptions recorded" beside a bank that paid $992.00 out). Once, however
often the demo runs; none at a fees room, whose chips are not the house's."""

from collections import defaultdict

import pytest
from django.utils import timezone

from accounting.published import table_days
from cage.demo import extend_demo
from cage.models import ChipRedemption
from cardroom.models import Site
from floor.demo import built_dates
from floor.rules import house_chips

pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("cage-demo-redemptions")]


def test_each_demo_nights_redemptions_are_its_prizes_once(a_week_of_the_demo):
    before = ChipRedemption.objects.count()
    extend_demo(a_week_of_the_demo)  # again: nothing more
    assert ChipRedemption.objects.count() == before
    expected = defaultdict(int)
    for site in Site.objects.all():
        nights = built_dates(site)
        for row in table_days([site.pk], min(nights, default=None) or timezone.localdate(), timezone.localdate()):
            if row.gaming_date in nights and house_chips(site):
                expected[(site.pk, row.gaming_date)] += row.custody.prizes_cents
    redeemed = defaultdict(int)
    for redemption in ChipRedemption.objects.all():
        redeemed[(redemption.site_id, redemption.gaming_date)] += redemption.total_cents
    assert redeemed and redeemed == {key: cents for key, cents in expected.items() if cents > 0}
