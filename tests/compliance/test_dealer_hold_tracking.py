"""ND 99-01.3-08-04(8): at a site that requires video surveillance, "An organization shall track a
dealer's and wheel operator's percent-of-hold performance." A dealer shift has a percent-of-hold of
its own only where the drop box is exchanged at each dealer change; a surveillance site whose boxes
are exchanged once a gaming day is flagged, once a quarter, until its count settings change (through
the counts service)."""

from datetime import date

import pytest
from django.utils import timezone

from compliance.engine import DAY_PROVIDERS, run_day_checks, runs_at
from counts.models import BoxExchange
from counts.services import update_count_settings
from surveillance.models import SurveillanceStatus


def required_since(site, since):
    return SurveillanceStatus.objects.create(
        site=site, required=True, since=since, reason="required", recorded_at=timezone.now()
    )


def untracked(site, day):
    return [
        a for a in run_day_checks(site_ids=[site.pk], start=day, end=day).opened if a.rule == "dealer_hold_untracked"
    ]


def test_a_surveillance_site_exchanging_boxes_once_a_day_is_flagged_once_a_quarter(site, manager):
    required_since(site, date(2026, 10, 1))
    assert untracked(site, date(2026, 9, 30)) == []  # not required yet
    [alert] = untracked(site, date(2026, 10, 5))
    assert alert.citation == "ND 99-01.3-08-04(8)" and alert.period_key == "2026Q4"
    assert alert.action_required == (
        "ND 99-01.3-08-04(8): the site requires video surveillance, and an organization shall track a dealer's and "
        "wheel operator's percent-of-hold performance; its drop boxes are exchanged once per gaming day, so no "
        "dealer shift has a drop, and a percent-of-hold, of its own. Set the count settings to exchange the drop "
        "box at each dealer change (house control, to track percent-of-hold (ND 99-01.3-08-04(8)))."
    )
    assert untracked(site, date(2026, 10, 6)) == []  # the quarter's alert stands: not a second
    update_count_settings(acting_user=manager.user, site=site, box_exchange=BoxExchange.DEALER_SHIFT)
    assert untracked(site, date(2027, 1, 5)) == []  # tracked from then on


def test_a_site_without_surveillance_is_not_held_to_it(site):
    assert untracked(site, date(2026, 10, 5)) == []


@pytest.mark.parametrize("code,judged", [("ND", True), ("WA-HB", False), ("WA-BJ", False), ("NY", False)])
def test_the_rule_runs_only_where_the_pack_states_it(code, judged):
    [provider] = [p for p in DAY_PROVIDERS if p.__name__ == "dealer_hold_tracking"]
    assert runs_at(provider, code) == judged
