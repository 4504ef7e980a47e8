"""No North Dakota rule runs at a Washington or New York site (issue 17): the whole compliance
scan (quarter rules and day rules) with data that trips ND rules opens nothing there, the ND
surveillance $2 cap does not bind, the ND tournament register refuses the site, the ND
handout's kind is not offered, and each compliance provider declares its jurisdictions."""

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import ValidationError

from cardroom.models import Role
from cardroom.periods import Quarter
from cardroom.wager_caps import check_max_wager
from compliance.engine import run_all
from compliance.models import Alert
from surveillance import queries as surveillance_queries
from surveillance.services.outages import report_outage
from tests.accounting.scenario import Scenario
from tests.factories import TableFactory
from tests.tournaments.conftest import announce

Q3 = Quarter(2026, 3)
# Each pack's own legal table (packs/), so that the data trips only ND rules.
TABLES = {
    "WA-HB": {"max_wager_cents": 5000, "payout_rounding": "down", "decks": 2, "dealt_from": "hand"},
    "WA-BJ": {"max_wager_cents": 2500, "banker": "player", "min_bank_cents": 30000, "decks": 1},
    "NY": {"max_wager_cents": 500, "decks": 1, "tie_option": 2, "blackjack_payout": "2:1", "double_on": "ten_eleven"},
}


def nd_tripping_quarter(site, people, options):
    """Fills far over the drop (prizes over gross proceeds: the ND attorney general alert), a
    table dealt by hand from two decks (not ND's four, six or eight from a shoe)."""
    table = TableFactory(site=site, number=1, min_wager_cents=100, **options)
    table.full_clean()  # the site's own pack accepts it
    scenario = Scenario(site, people)
    for offset, day in enumerate((date(2026, 8, 1), date(2026, 8, 2))):
        scenario.tray(table, day, "opener", 100_000)
        scenario.tray(table, day, "closer", 100_000)
        scenario.slip(table, day, "fill", 80_000, number=offset + 1)
        scenario.drop(table, day, 50_000)
    return table


@pytest.mark.parametrize("code", ["WA-HB", "WA-BJ", "NY"])
def test_the_whole_compliance_scan_opens_no_nd_alert_at_another_packs_site(site, people, code):
    site.jurisdiction = code
    site.save()
    nd_tripping_quarter(site, people, TABLES[code])
    result = run_all(site_ids=[site.pk], quarter=Q3)
    assert result.opened == [] and result.already_open == 0
    assert not Alert.objects.filter(site=site).exists()


def test_the_same_data_at_a_north_dakota_site_does_open_the_alert(site, people):
    nd_tripping_quarter(site, people, {"max_wager_cents": 2500})
    assert "prizes_over_gp" in {a.rule for a in run_all(site_ids=[site.pk], quarter=Q3).opened}


@pytest.mark.parametrize("code", ["WA-HB", "WA-BJ", "NY"])
def test_an_unrepaired_outage_caps_no_wager_at_another_packs_site(site, cast, code):
    site.jurisdiction = code
    site.save()
    table = TableFactory(site=site, number=1, **TABLES[code])
    began = datetime.now(ZoneInfo(site.time_zone)) - timedelta(days=10)
    report_outage(acting_user=cast[Role.SHIFT_MANAGER].user, table=table, kind="camera", began_at=began,
                  description="Camera dark")
    assert surveillance_queries.wager_cap(table) == (None, "")
    check_max_wager(table, 50000)  # the registered check refuses nothing either
    site.jurisdiction = "ND"  # the same outage at an ND site: ND 99-01.3-08-04(7)'s $2 cap
    site.save()
    table.site.refresh_from_db()
    cap, reason = surveillance_queries.wager_cap(table)
    assert cap == 200 and "ND 99-01.3-08-04(7)" in reason


@pytest.mark.parametrize("code", ["WA-HB", "WA-BJ", "NY"])
def test_a_tournament_is_an_nd_pack_feature(site, cast, code):
    site.jurisdiction = code
    site.save()
    with pytest.raises(ValidationError) as refusal:
        announce(cast[Role.SHIFT_MANAGER], site)
    message = refusal.value.message_dict["site"][0]
    assert message.startswith("House control: tournaments are a North Dakota pack feature (ND 99-01.3-08-15)")
