"""The Washington demo's Double Down Madness table, built by approvals.demo (idempotent)."""

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest

from approvals.demo import DDM_TABLE, SITE, extend_demo
from approvals.models import GameApproval, InternalControls, TableGame
from approvals.queries import controls_in_effect, current_link, site_today
from cardroom.models import Site, Table
from cardroom.pack_demo import NIGHTS_AGO

pytestmark = pytest.mark.django_db


def test_the_demo_offers_double_down_madness_at_spokane_table_2_and_runs_twice():
    extend_demo({})
    extend_demo({})
    site = Site.objects.get(name=SITE)
    assert site.jurisdiction == "WA-HB"
    table = Table.objects.get(site=site, number=DDM_TABLE)
    link = current_link(table.pk)
    assert link.approval.submission_number == "3172" and link.side_bet_pay_table.side_bet == "Push 22"
    assert (table.decks, table.dealer_hits_soft_17, table.split_pairs, table.surrender) == (6, True, "none", "none")
    assert GameApproval.objects.count() == 1 and TableGame.objects.count() == 1
    # Dated from before the demo's first night of play at Spokane, not from the load.
    first_night = site_today(site) - timedelta(days=max(NIGHTS_AGO["spokane"]))
    local = link.linked_at.astimezone(ZoneInfo(site.time_zone))
    assert (local.date(), local.hour) == (first_night, 12)  # noon, before that night's play
    # House-banked blackjack: version 1 in effect, version 2 (late surrender) from next month.
    assert InternalControls.objects.filter(site=site, game_approval=None).count() == 2
    assert controls_in_effect(site, None).version == 1
    assert controls_in_effect(site, link.approval).version == 1
    # The controls come first: table 1 (standard blackjack) is within them and WAC 230-15-140's $300.
    first = Table.objects.get(site=site, number=1)
    assert first.max_wager_cents == 30000 and first.full_clean() is None


def test_the_demo_records_new_yorks_licence_before_kingstons_table(db):
    from approvals.demo import NY_SITE
    from approvals.models import Licence
    from cardroom.demo import load_demo
    from cardroom.pack_demo import extend_demo as pack_demo

    demo = pack_demo(load_demo())
    extend_demo(demo)
    extend_demo(demo)
    kingston = Site.objects.get(name=NY_SITE)
    licence = Licence.objects.get(organization=kingston.organization)
    table = Table.objects.get(site=kingston, number=1)
    assert (licence.tie_option, table.tie_option, table.blackjack_payout) == (1, 1, "3:2")
    table.full_clean()
