"""North Dakota's rules judge North Dakota's sites only: the same losing quarter opens the
attorney general alert at an ND site and nothing at a Washington or New York site; a rule
registered for another jurisdiction sees only that jurisdiction's sites."""

from datetime import date

import pytest

from cardroom.periods import Quarter
from compliance import engine
from compliance.engine import ND_ONLY, run_quarter_rules
from tests.accounting.scenario import Scenario
from tests.factories import TableFactory

Q3 = Quarter(2026, 3)


def losing_quarter(site, people):
    table = TableFactory(site=site, number=1, min_wager_cents=100, max_wager_cents=500)
    scenario = Scenario(site, people)
    day = date(2026, 8, 1)
    scenario.tray(table, day, "opener", 100_000)
    scenario.tray(table, day, "closer", 100_000)
    scenario.slip(table, day, "fill", 80_000, number=1)
    scenario.drop(table, day, 50_000)


def test_every_registered_rule_declares_north_dakota():
    engine._load_providers()
    for provider in engine.QUARTER_PROVIDERS + engine.DAY_PROVIDERS:
        assert engine.jurisdictions_of(provider) == ND_ONLY, provider.__name__


def test_a_losing_quarter_at_a_north_dakota_site_opens_the_alert(site, people):
    losing_quarter(site, people)
    assert "prizes_over_gp" in {a.rule for a in run_quarter_rules(site_ids=[site.pk], quarter=Q3).opened}


@pytest.mark.parametrize("jurisdiction", ["WA-HB", "WA-BJ", "NY"])
def test_no_north_dakota_rule_judges_another_states_site(site, people, jurisdiction):
    site.jurisdiction = jurisdiction
    site.save()
    losing_quarter(site, people)
    assert run_quarter_rules(site_ids=[site.pk], quarter=Q3).opened == []
    assert engine.run_day_checks(site_ids=[site.pk], start=Q3.start, end=Q3.end).opened == []


def test_a_rule_for_another_jurisdiction_sees_only_its_sites(site, other_site, monkeypatch):
    other_site.jurisdiction = "WA-HB"
    other_site.save()
    seen = []
    engine._load_providers()  # the ND rules are registered once; then set them aside
    monkeypatch.setattr(engine, "QUARTER_PROVIDERS", [])

    @engine.quarter_provider(jurisdictions={"WA-HB"})
    def washington_rule(sites, quarter, book):
        seen.extend(s.pk for s in sites)
        return []

    run_quarter_rules(site_ids=[site.pk, other_site.pk], quarter=Q3)
    assert seen == [other_site.pk]
