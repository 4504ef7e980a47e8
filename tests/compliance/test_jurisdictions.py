"""Each compliance check declares the rules it flags (`packs.Rule` keys) and judges only the sites
whose pack states one of them: the same losing quarter opens the attorney general alert at an ND
site (ND states the rule) and nothing at a Washington or New York site; a check whose rule only
another pack states sees only that pack's sites. No check names a jurisdiction."""

from datetime import date

import pytest

from compliance import engine
from compliance.engine import run_quarter_rules
from core.periods import Quarter
from packs import Rule, get_pack
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


# The checks of the other packs' own law: the tables follow the licence (9 NYCRR 4620.5(h)) or the
# internal controls (the WSGC rules) in force; the internal controls say how irregularities are
# addressed (the WSGC rules).
OTHER_PACKS_OWN = {"tables_in_line": {"NY", "WA-HB"}, "irregularities_documented": {"WA-HB"}}


def test_every_registered_check_declares_rules_and_north_dakota_states_each_but_the_other_packs_own():
    nd = get_pack("ND")
    for provider in engine.QUARTER_PROVIDERS + engine.DAY_PROVIDERS:
        rules = engine.rules_of(provider)
        assert rules and all(isinstance(r, Rule) and r.key.startswith("compliance.") for r in rules), provider.__name__
        own = OTHER_PACKS_OWN.get(provider.__name__)
        assert all(nd.cites(r.key) for r in rules) == (own is None), provider.__name__
        assert own is None or all(get_pack(code).cites(r.key) for code in own for r in rules), provider.__name__


@pytest.mark.parametrize("code", ["WA-HB", "WA-BJ", "NY"])
def test_the_other_packs_state_none_of_north_dakotas_flag_rules(code):
    """The WSGC rules, WAC 230-40-125 and 9 NYCRR 4620.5 set none of North Dakota's flags: their
    packs state none of these keys, so none of these checks runs at their sites; the house
    controls the product keeps everywhere (the bank deposit's deadline, the chip float where the
    house holds chips) run there citing "House control"; their own checks run at their sites
    only, citing their own law."""
    pack = get_pack(code)
    for provider in engine.QUARTER_PROVIDERS + engine.DAY_PROVIDERS:
        if provider.__name__ in OTHER_PACKS_OWN:
            judged = code in OTHER_PACKS_OWN[provider.__name__]
            assert engine.runs_at(provider, pack) == judged, provider.__name__
            assert not judged or {r.at(pack) for r in engine.rules_of(provider)} <= set(pack.citations.values())
            continue
        assert not any(rule.applies(pack) for rule in engine.rules_of(provider)), provider.__name__
        if provider.__name__ == "chip_float" and code == "WA-BJ":
            assert not engine.runs_at(provider, pack)  # a fees-only site holds no house chips
        elif getattr(provider, "house_control", False):
            assert engine.runs_at(provider, pack) and {r.at(pack) for r in engine.rules_of(provider)} == {
                "House control"
            }
        else:
            assert not engine.runs_at(provider, pack), provider.__name__
    assert [p.__name__ for p in engine.DAY_PROVIDERS if getattr(p, "house_control", False)] == [
        "late_deposits",
        "chip_float",
    ]


def test_a_check_must_declare_its_rule():
    with pytest.raises(TypeError):
        engine._register([], lambda sites, quarter, book: [], ())
    with pytest.raises(TypeError):
        engine._register([], lambda sites, quarter, book: [], {"ND"})


def test_a_losing_quarter_at_a_north_dakota_site_opens_the_alert(site, people):
    losing_quarter(site, people)
    assert "prizes_over_gp" in {a.rule for a in run_quarter_rules(site_ids=[site.pk], quarter=Q3).opened}


@pytest.mark.parametrize("jurisdiction", ["WA-HB", "WA-BJ", "NY"])
def test_no_north_dakota_rule_judges_another_states_site(site, people, jurisdiction):
    site.jurisdiction = jurisdiction
    site.save()
    losing_quarter(site, people)
    assert run_quarter_rules(site_ids=[site.pk], quarter=Q3).opened == []
    # The deposit's deadline is kept at every site: a house control there, citing no ND text.
    opened = engine.run_day_checks(site_ids=[site.pk], start=Q3.start, end=Q3.end).opened
    assert {(a.rule, a.citation) for a in opened} <= {("deposit_late", "House control")}
    assert not any("ND " in a.action_required for a in opened)


def test_a_check_of_a_rule_another_pack_states_sees_only_that_packs_sites(site, other_site, monkeypatch):
    """A rule key stated by the WA-HB pack alone (patched into its citations here): the check
    flagging it is handed the WA-HB site and never the ND one."""
    other_site.jurisdiction = "WA-HB"
    other_site.save()

    def cites(pack, key):
        return key in pack.citations or (pack.code == "WA-HB" and key == "compliance.test_only")

    monkeypatch.setattr(type(get_pack("WA-HB")), "cites", cites)
    seen = []
    monkeypatch.setattr(engine, "QUARTER_PROVIDERS", [])

    @engine.quarter_provider(rule=Rule("compliance.test_only"))
    def washington_rule(sites, quarter, book):
        seen.extend(s.pk for s in sites)
        return []

    run_quarter_rules(site_ids=[site.pk, other_site.pk], quarter=Q3)
    assert seen == [other_site.pk]
