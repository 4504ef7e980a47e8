"""Each pack's house-rules handout from its own rule text (reports/kinds/house_rules.py): NY's
tie option, WA-HB's payout and rounding posting, WA-BJ's player dealer/banker and fee notice,
each with its citations, and none of North Dakota's text or felony notice."""

import pytest

from tests.factories import TableFactory
from tests.reports.test_reports import auditor_api, pdf_text, request  # noqa: F401  (fixture)

CASES = {
    "NY": (dict(max_wager_cents=500, decks=4, tie_option=2, blackjack_payout="2:1", double_on="ten_eleven"), [
        "Option two: \"push\" on natural 21 only", "9 NYCRR 4620.5(h)", "paid 2 to 1", "9 NYCRR 4620.5(h)(2)",
        "maximum bet is $5", "9 NYCRR 4620.5(f)(2)", "stays on all 17s", "9 NYCRR 4620.5(i)(3)",
    ]),
    "WA-HB": (dict(max_wager_cents=50000, blackjack_payout="6:5", payout_rounding="down"), [
        "Blackjack pays 6 to 5; a payout is rounded down to the table's lowest chip",
        "WSGC Blackjack Game Rules (rev. April 2018) rule 7", "documented in the internal controls",
    ]),
    "WA-BJ": (dict(max_wager_cents=2500, banker="player", min_bank_cents=30000), [
        "both the dealer and the banker", "WAC 230-40-125(2) (1999 proposed amendment)",
        "Minimum bank $300.00", "WAC 230-40-125(3) (1999 proposed amendment)",
        "assessed on a time basis only", "WAC 230-40-125(1) (1999 proposed amendment)",
        "collects 1.5 times the bet", "WAC 230-40-125(5) (1999 proposed amendment)",
    ]),
}


@pytest.mark.parametrize("code", ["NY", "WA-HB", "WA-BJ"])
def test_each_pack_prints_its_own_rules_with_their_citations(auditor_api, site, code):  # noqa: F811
    site.jurisdiction = code
    site.save()
    options, expected = CASES[code]
    TableFactory(site=site, number=1, min_wager_cents=100, **options).full_clean()
    kind = f"house_rules_{code.lower().replace('-', '_')}"
    created = request(auditor_api, kind=kind, site=site.pk, end="2026-11-20")
    assert created.status_code == 201, created.json()
    text = " ".join(pdf_text(auditor_api.get(f"/api/v1/reports/{created.json()['id']}/download/").content).split())
    for phrase in expected:
        assert phrase in text, phrase
    assert "class C felony" not in text and "ND 99-01.3-08-13" not in text
    assert "Retain until 2029-12-31 (House control)" in text and "99-01.3" not in text
    kinds = {k["kind"]: k for k in auditor_api.get("/api/v1/reports/kinds/").json()}
    assert kinds[kind]["jurisdictions"] == [code]


def test_another_packs_handout_is_refused_at_a_north_dakota_site(auditor_api, site):  # noqa: F811
    refused = request(auditor_api, kind="house_rules_ny", site=site.pk, end="2026-11-20")
    assert refused.status_code == 400 and "NY only" in refused.json()["kind"][0]
