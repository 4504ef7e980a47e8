"""Games separated (each beside its own low-hold threshold, ND 99-01.3-08-04(9)), cash profit not
known without a bank count, the quarter's reconciling lines, and the ND gaming tax on the North
Dakota sites' AGP recorded here with the other games' AGP (N.D.C.C. 53-06.1-12)."""

from datetime import date
from decimal import Decimal

import pytest

from accounting import figures, services, summaries
from accounting.games import HoldThreshold, threshold_on
from accounting.models import OtherGamesAgp
from cardroom.models import Role
from compliance.thresholds import ensure_seeded
from core.models import AuditEvent
from core.periods import Quarter
from packs import get_pack
from surveillance.services import set_surveillance_status
from tests.accounting.scenario import Scenario
from tests.factories import SiteFactory, TableFactory

ND_BRACKETS = get_pack("ND").tax_brackets  # N.D.C.C. 53-06.1-12, the ND pack's effective-dated data

DAY = date(2026, 8, 14)
Q3 = Quarter(2026, 3)
BRACKETS = figures.brackets_in_force(ND_BRACKETS, DAY)


@pytest.fixture(autouse=True)
def _thresholds(db):
    ensure_seeded()


def _table_day(scenario, table, *, drop, fills, number):
    scenario.tray(table, DAY, "opener", 100_000)
    scenario.tray(table, DAY, "closer", 100_000)
    if fills:
        scenario.slip(table, DAY, "fill", fills, number=number)
    scenario.drop(table, DAY, drop)


def _games(api, site) -> dict:
    body = api.get(f"/api/v1/sites/{site.pk}/quarter-summary/?quarter=2026Q3").json()
    return {line["game"]: line for line in body["games"]}, body


# Twenty-one: below 10% starts the review; exactly 10% does not. Paddlewheel: 15%.
@pytest.mark.parametrize(
    "game,fills,hold,below",
    [
        ("21", 90_000, "0.100000", False),  # AGP 10,000 on GP 100,000: exactly 10%
        ("21", 90_001, "0.099990", True),  # one cent less
        ("21", 89_999, "0.100010", False),
        ("PW", 85_000, "0.150000", False),  # exactly 15%
        ("PW", 85_001, "0.149990", True),
        ("PW", 89_999, "0.100010", True),  # above twenty-one's threshold, still below paddlewheel's
    ],
)
def test_each_game_is_judged_against_its_own_threshold_at_the_boundary(
    client_for, cast, site, people, game, fills, hold, below
):
    scenario = Scenario(site, people)
    _table_day(scenario, TableFactory(site=site, number=1, game=game), drop=100_000, fills=fills, number=1)
    lines, body = _games(client_for(cast[Role.GAMING_MANAGER]), site)
    line = lines[game]
    assert (line["hold_ratio"], line["below_threshold"]) == (hold, below)
    assert line["low_hold_threshold"] == ("0.100000" if game == "21" else "0.150000")
    assert line["threshold_citation"] == "ND 99-01.3-08-04(9)"
    other = lines["PW" if game == "21" else "21"]
    assert other["gross_proceeds_cents"] == 0 and other["below_threshold"] is None  # no hold without GP
    assert lines["total"]["low_hold_threshold"] is None and lines["total"]["below_threshold"] is None


def test_the_quarter_says_whether_a_game_below_its_threshold_starts_the_review_at_the_site(
    client_for, cast, site, people
):
    """ND 99-01.3-08-04(9) is "for a site that requires video surveillance": beside its games'
    `below_threshold` the quarter says, in the page's and the report's words, whether "below"
    starts the review at the site, as of the quarter's end."""
    _table_day(Scenario(site, people), TableFactory(site=site, number=1), drop=100_000, fills=95_000, number=1)
    manager = cast[Role.GAMING_MANAGER]
    lines, body = _games(client_for(manager), site)
    assert lines["21"]["below_threshold"] is True
    assert body["low_hold_review"] == (
        f"{site.name} does not require video surveillance (judged at the quarter's end, 2026-09-30): a game below its threshold starts no "
        "review there."
    )
    set_surveillance_status(manager.user, site, True, date(2026, 9, 30), date(2026, 9, 30), "quarter's activity")
    _lines, body = _games(client_for(manager), site)
    assert body["low_hold_review"] == (
        f"{site.name} requires video surveillance (judged at the quarter's end, 2026-09-30): a game below its threshold starts the review."
    )


def test_a_threshold_row_judges_from_its_own_effective_date():
    """ND 99-01.3-08-04(9) as effective-dated data: a row in force from 1 January 2027 judges
    that day's books, and the earlier row the day before."""
    schedule = {
        "21": (
            HoldThreshold(Decimal("0.12"), "ND 99-01.3-08-04(9)", date(2027, 1, 1)),
            HoldThreshold(Decimal("0.10"), "ND 99-01.3-08-04(9)", date(2021, 7, 1)),
        )
    }
    assert threshold_on(schedule, "21", date(2026, 12, 31)).ratio == Decimal("0.10")
    assert threshold_on(schedule, "21", date(2027, 1, 1)).ratio == Decimal("0.12")
    assert threshold_on(schedule, "21", date(2021, 6, 30)) is None
    assert threshold_on(schedule, "PW", date(2027, 1, 1)) is None


def test_twenty_one_never_includes_paddlewheel(client_for, cast, site, people):
    scenario = Scenario(site, people)
    _table_day(scenario, TableFactory(site=site, number=1), drop=100_000, fills=0, number=1)
    _table_day(scenario, TableFactory(site=site, number=2, game="PW"), drop=40_000, fills=30_000, number=2)
    lines, body = _games(client_for(cast[Role.GAMING_MANAGER]), site)
    assert (lines["21"]["gross_proceeds_cents"], lines["21"]["agp_cents"]) == (100_000, 100_000)
    assert (lines["PW"]["gross_proceeds_cents"], lines["PW"]["agp_cents"]) == (40_000, 10_000)
    assert (lines["total"]["gross_proceeds_cents"], lines["total"]["agp_cents"]) == (140_000, 110_000)
    assert body["twenty_one"]["agp_cents"] == 100_000


def test_cash_profit_is_not_known_without_a_bank_count(client_for, cast, site, people):
    scenario = Scenario(site, people)
    _table_day(scenario, TableFactory(site=site, number=1), drop=100_000, fills=0, number=1)
    _lines, body = _games(client_for(cast[Role.GAMING_MANAGER]), site)
    assert body["cash_profit_cents"] is None and body["long_short_cents"] is None  # never 0
    assert body["days_without_bank_count"] == 1
    q = summaries.quarter_summary(site, Q3)
    assert q.cash_profit_cents is None
    tax = summaries.organization_tax(site.organization, Q3)
    assert tax.sites[0][4] is None


def test_the_quarters_long_short_is_explained_by_its_reconciling_lines(site, people):
    scenario = Scenario(site, people)
    table = TableFactory(site=site, number=1)
    _table_day(scenario, table, drop=100_000, fills=0, number=1)
    scenario.bank(DAY, "start", 500_000, 300_000)
    scenario.bank(DAY, "end", 590_000, 300_000)  # $100 short in cash, chips unchanged
    q = summaries.quarter_summary(site, Q3)
    day = q.days[0].cash
    assert q.cash_profit_cents == 190_000 and q.long_short_cents == 90_000 == day.long_short_cents
    assert q.chips_outside_change_cents == day.chips_outside_change_cents
    assert q.unexplained_cents == day.unexplained_cents
    assert q.long_short_cents == (
        q.chips_outside_change_cents + q.unexplained_cents + q.long_short_without_chip_count_cents
    )


# --- The ND gaming tax ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "here,other,expected",
    [
        (6_000_000, None, 170_000),  # nothing else recorded: the brackets on the AGP here
        (3_000_000, 0, 30_000),
        # Total $60,000: tax $500 + 12% of $10,000 = $1,700; here half of it.
        (3_000_000, 3_000_000, 85_000),
        # Total $50,000 exactly: 1% = $500; here 40% of it.
        (2_000_000, 3_000_000, 20_000),
        # Total $50,000.01: $500 + 12% of 1 cent = 50,000 cents (rounded); here 2,000,000/5,000,001 of it.
        (2_000_000, 3_000_001, 20_000),
        (0, 3_000_000, 0),
        (-100_000, 3_000_000, 0),  # no tax on a loss here
        (3_000_000, -1_000_000, 20_000),  # the other games lost: total $20,000, 1% = $200, capped at the total's tax
    ],
)
def test_the_tax_here_is_its_share_of_the_bracket_tax_on_the_organizations_total(here, other, expected):
    assert figures.gaming_tax_on_recorded(here, other, BRACKETS) == expected


def _play_at(site, people, drop):
    scenario = Scenario(site, people)
    table = TableFactory(site=site, number=1)
    scenario.tray(table, DAY, "opener", 0)
    scenario.tray(table, DAY, "closer", 0)
    scenario.drop(table, DAY, drop)


def test_only_north_dakota_sites_are_in_the_nd_tax(client_for, cast, org, site, people):
    _play_at(site, people, 4_000_000)
    _play_at(SiteFactory(organization=org, name="Spokane Hall", jurisdiction="WA-HB"), people, 9_000_000)
    _play_at(SiteFactory(organization=org, name="Albany Hall", jurisdiction="NY"), people, 7_000_000)
    tax = client_for(cast[Role.AUDITOR]).get(f"/api/v1/organizations/{org.pk}/tax/?quarter=2026Q3").json()
    assert [s["site"] for s in tax["sites"]] == [site.name]
    assert (tax["agp_cents"], tax["tax_cents"]) == (4_000_000, 40_000)
    assert sorted(tax["other_jurisdiction_sites"]) == ["Albany Hall", "Spokane Hall"]
    assert tax["tax_label"].startswith("ND gaming tax on the AGP recorded here")


def test_the_brackets_are_the_nd_packs_effective_dated_data_read_through_the_pack(
    monkeypatch, client_for, cast, org, site, people
):
    """The tax's brackets live in the ND pack (packs/nd/accounting.py), each with its citation;
    the books read them through the site's pack, so a later schedule added to the pack applies
    from its own date."""
    from dataclasses import replace

    from packs import TaxBracket, all_packs, registry

    nd = get_pack("ND")
    assert {b.citation for b in nd.tax_brackets} == {"N.D.C.C. 53-06.1-12"} == {nd.cite("accounting.gaming_tax")}
    assert [b.lower_cents for b in figures.brackets_in_force(nd.tax_brackets, DAY)] == [0, 5_000_000]
    assert all(not p.tax_brackets for p in all_packs() if p.code != "ND")
    later = TaxBracket(date(2026, 7, 1), 0, Decimal("0.02"), 0, "N.D.C.C. 53-06.1-12 (a later schedule)")
    monkeypatch.setitem(registry.PACKS, "ND", replace(nd, tax_brackets=(*nd.tax_brackets, later)))
    _play_at(site, people, 4_000_000)
    tax = client_for(cast[Role.AUDITOR]).get(f"/api/v1/organizations/{org.pk}/tax/?quarter=2026Q3").json()
    assert (tax["agp_cents"], tax["tax_cents"]) == (4_000_000, 80_000)  # 2%, not the 1% of 2021
    assert [(b["rate"], b["citation"]) for b in tax["brackets"]] == [("0.02", later.citation)]
    earlier = client_for(cast[Role.AUDITOR]).get(f"/api/v1/organizations/{org.pk}/tax/?quarter=2026Q2").json()
    assert [b["from_cents"] for b in earlier["brackets"]] == [0, 5_000_000]


def test_a_gaming_manager_records_the_other_games_agp_and_the_bracket_applies_to_the_total(
    client_for, cast, org, site, people
):
    _play_at(site, people, 3_000_000)
    manager = client_for(cast[Role.GAMING_MANAGER])
    url = f"/api/v1/organizations/{org.pk}/other-games-agp/"
    first = manager.post(url, {"quarter": "2026Q3", "agp_cents": 2_000_000, "note": "Pull tabs, GT-1"}, format="json")
    assert first.status_code == 201, first.json()
    tax = manager.get(f"/api/v1/organizations/{org.pk}/tax/?quarter=2026Q3").json()
    assert (tax["other_games_agp_cents"], tax["organization_agp_cents"]) == (2_000_000, 5_000_000)
    assert (tax["organization_tax_cents"], tax["tax_cents"]) == (50_000, 30_000)
    # A second value without naming the first is refused; a correction names it and stands.
    again = manager.post(url, {"quarter": "2026Q3", "agp_cents": 1, "note": "x"}, format="json")
    assert again.status_code == 400 and "corrects" in again.json()
    fixed = manager.post(
        url,
        {"quarter": "2026Q3", "agp_cents": 3_000_000, "note": "Bingo was left out", "corrects": first.json()["id"]},
        format="json",
    )
    assert fixed.status_code == 201 and fixed.json()["corrects"] == first.json()["id"]
    tax = manager.get(f"/api/v1/organizations/{org.pk}/tax/?quarter=2026Q3").json()
    assert (tax["organization_tax_cents"], tax["tax_cents"]) == (170_000, 85_000)
    history = manager.get(url + "?quarter=2026Q3").json()
    assert [h["agp_cents"] for h in history] == [2_000_000, 3_000_000]
    assert OtherGamesAgp.objects.count() == 2  # the first is kept: append-only
    actions = set(AuditEvent.objects.values_list("action", flat=True))
    assert {"other_games_agp.recorded", "other_games_agp.corrected"} <= actions


def test_who_records_and_reads_the_other_games_agp(client_for, cast, org, stranger_site):
    url = f"/api/v1/organizations/{org.pk}/other-games-agp/"
    body = {"quarter": "2026Q3", "agp_cents": 100, "note": "Raffle"}
    for role in (Role.AUDITOR, Role.SHIFT_MANAGER):
        assert client_for(cast[role]).post(url, body, format="json").status_code == 403
    assert client_for(cast[Role.AUDITOR]).get(url + "?quarter=2026Q3").status_code == 200
    assert client_for(cast[Role.SHIFT_MANAGER]).get(url + "?quarter=2026Q3").status_code == 403
    stranger = f"/api/v1/organizations/{stranger_site.organization_id}/other-games-agp/"
    assert client_for(cast[Role.GAMING_MANAGER]).post(stranger, body, format="json").status_code == 404
    bad = client_for(cast[Role.GAMING_MANAGER]).post(url, {**body, "note": " "}, format="json")
    assert bad.status_code == 400 and "N.D.C.C. 53-06.1-12" in str(bad.json()["note"])
    assert OtherGamesAgp.objects.count() == 0


def test_the_service_refuses_a_correction_of_nothing(org, cast):
    from django.core.exceptions import ValidationError

    manager = cast[Role.GAMING_MANAGER]
    row = services.record_other_games_agp(
        acting_user=manager.user, organization=org, quarter=Q3, agp_cents=5, note="Bingo"
    )
    with pytest.raises(ValidationError):
        services.record_other_games_agp(
            acting_user=manager.user, organization=org, quarter=Quarter(2026, 4), agp_cents=5, note="x", corrects=row
        )
    assert Decimal(row.agp_cents) == 5


def test_an_organization_without_a_taxed_site_is_refused_the_other_games_figure_in_no_packs_words(org, cast):
    """Where no site's pack levies a tax on all the organization's games (every site in
    Washington), the service refuses as a house control and names neither North Dakota's AGP nor
    its gaming tax."""
    from django.core.exceptions import ValidationError

    from tests.conformance.words import ND_WORDS, law_words_in

    org.sites.update(jurisdiction="WA-HB")
    with pytest.raises(ValidationError) as refusal:
        services.record_other_games_agp(
            acting_user=cast[Role.GAMING_MANAGER].user, organization=org, quarter=Q3, agp_cents=5, note="Bingo"
        )
    message = refusal.value.message_dict["quarter"][0]
    assert message.startswith("House control: ") and "taxes all its games" in message
    assert not law_words_in(message, ND_WORDS), message
    assert not OtherGamesAgp.objects.exists()


@pytest.mark.parametrize("code", ["WA-HB", "WA-BJ", "NY"])
def test_an_organization_with_no_taxing_pack_is_answered_naming_house_control_and_another_organization_plainly(
    client_for, cast, org, site, stranger_site, code
):
    """No pack but North Dakota's states a gaming tax: its own organization reads why there are no tax
    figures (House control, no other pack's law), another organization's a plain not found."""
    site.jurisdiction = code
    site.save()
    auditor = client_for(cast[Role.AUDITOR])
    for path in ("tax", "other-games-agp"):
        response = auditor.get(f"/api/v1/organizations/{org.pk}/{path}/", {"quarter": "2026Q3"})
        assert response.status_code == 404, response.content
        assert response.json()["detail"] == (
            "House control: no gaming tax here: no site of the organization is in a pack that states one."
        )
        stranger = auditor.get(f"/api/v1/organizations/{stranger_site.organization_id}/{path}/", {"quarter": "2026Q3"})
        assert stranger.status_code == 404 and "gaming tax" not in stranger.content.decode()
