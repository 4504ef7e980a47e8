"""Each pack's house-rules handout from its own rule text (reports/kinds/house_rules.py): NY's
tie option, WA-HB's payout and rounding posting, WA-BJ's player dealer/banker and fee notice,
each with its citations, and none of North Dakota's text or felony notice."""

from datetime import date

import pytest

from approvals.services import record_licence
from cardroom.models import Role
from tests.factories import TableFactory
from tests.pack_setup import record_controls
from tests.reports.test_reports import auditor_api, pdf_text, request  # noqa: F401  (fixture)

CASES = {
    "NY": (
        dict(
            max_wager_cents=500,
            decks=4,
            tie_option=2,
            blackjack_payout="2:1",
            double_on="ten_eleven",
            double_after_split=False,
        ),
        [
            'Option two: "push" on natural 21 only',
            "9 NYCRR 4620.5(h)",
            "paid 2 to 1",
            "9 NYCRR 4620.5(h)(2)",
            "maximum bet is $5",
            "9 NYCRR 4620.5(f)(2)",
            "stays on all 17s",
            "9 NYCRR 4620.5(i)(3)",
        ],
    ),
    "WA-HB": (
        dict(max_wager_cents=30000, blackjack_payout="6:5", payout_rounding="down"),
        [
            "Blackjack pays 6 to 5; a payout is rounded down to the table's lowest chip",
            "No single wager, a double down included, above the State's limit of $300.00",
            "WAC 230-15-140",
            "WSGC Blackjack Game Rules (rev. April 2018), rule 7",
            "documented in the internal controls",
        ],
    ),
    "WA-BJ": (
        dict(
            max_wager_cents=2500,
            banker="player",
            min_bank_cents=30000,
            split_pairs="identical",
            double_on="ten_eleven",
            double_after_split=False,
        ),  # fmt: skip
        [
            "A pair may be split (identical cards only); additional splits allowed (house rule).",
            "WAC 230-40-125(17) (1999 proposed amendment)",
            "Doubling down (house rule): First two cards totalling 10 or 11, not after a split; one more card only.",
            "WAC 230-40-125(14) (1999 proposed amendment)",
            "both the dealer and the banker",
            "WAC 230-40-125(2) (1999 proposed amendment)",
            "Minimum bank $300.00",
            "WAC 230-40-125(3) (1999 proposed amendment)",
            "assessed on a time basis only",
            "WAC 230-40-125(1) (1999 proposed amendment)",
            "collects 1.5 times the bet",
            "WAC 230-40-125(5) (1999 proposed amendment)",
        ],
    ),
}


@pytest.mark.parametrize("code", ["NY", "WA-HB", "WA-BJ"])
def test_each_pack_prints_its_own_rules_with_their_citations(auditor_api, site, cast, code):  # noqa: F811
    site.jurisdiction = code
    site.save()
    manager = cast[Role.GAMING_MANAGER]
    if code == "WA-HB":
        record_controls(manager, site)  # the WSGC rules: the internal controls come first
    if code == "NY":  # 9 NYCRR 4620.5(h): the licence reflects the tie option the table follows
        record_licence(
            acting_user=manager.user,
            organization=site.organization,
            licence_number="NY-GC-1",
            tie_option=2,
            effective_on=date(2024, 1, 1),
        )
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
    message = refused.json()["kind"][0]
    assert refused.status_code == 400 and message.startswith(
        'House control: the report "Black Jack rules" is not offered at'
    )
    assert "NYCRR" not in message  # another pack's rule is not cited at a North Dakota site


def test_the_north_dakota_handout_is_the_tables_own_record(auditor_api, site):  # noqa: F811
    """ND 99-01.3-08-13: each line generated from the table's options, citing its subsection,
    so the handout and the table cannot disagree."""
    options = dict(
        min_wager_cents=300,
        max_wager_cents=2000,
        decks=8,
        dealer_hits_soft_17=True,
        max_players=6,
        betting_spaces=6,
        insurance_allowed=False,
        double_down="up_to",
        tip_double_down="equal",
        dealing_method="no_hole_card",
    )
    # ND 99-01.3-08-09(2)(d): no doubling-down on tip bets where tip betting is not permitted.
    TableFactory(
        site=site, number=1, tip_betting_allowed=False, **{**options, "tip_double_down": "not_permitted"}
    ).full_clean()
    # ND 99-01.3-08-09(2)(a): the organization's limit of a tip bet, below the table's maximum wager.
    TableFactory(site=site, number=2, tip_bet_max_cents=500, **options).full_clean()
    created = request(auditor_api, kind="house_rules", site=site.pk, end="2026-11-20")
    assert created.status_code == 201, created.json()
    text = " ".join(pdf_text(auditor_api.get(f"/api/v1/reports/{created.json()['id']}/download/").content).split())
    for phrase in [
        "Minimum wager $3.00; maximum wager $20.00. (ND 99-01.3-08-13(1)(a), ND 99-01.3-08-09(1))",
        "Method of dealing: No-Hole-Card. (ND 99-01.3-08-13(1)(b), ND 99-01.3-08-10(1))",
        "8 decks, dealt from a dealing shoe. (ND 99-01.3-08-02(3))",
        "Up to 6 players; 6 betting spaces. (ND 99-01.3-08-01(2), ND 99-01.3-08-02(1))",
        "Dealer must hit soft 17. Blackjack pays 3 to 2. (ND 99-01.3-08-02(1))",
        "No payoff on tie counts. (ND 99-01.3-08-13(2)(g), ND 99-01.3-08-11(12))",
        "Splitting on any pair and two 10-count value cards, limited to a maximum of four hands per betting space; "
        "split aces draw only one card each. (ND 99-01.3-08-13(2)(h), ND 99-01.3-08-09(2)(c))",
        "or the first two cards of any split hand, except on split aces. (ND 99-01.3-08-13(2)(i), "
        "ND 99-01.3-08-09(2)(d))",
        "Double-down wager up to the original wager. (ND 99-01.3-08-13(2)(j))",
        "Insurance not permitted. (ND 99-01.3-08-13(2)(k))",
        "Tip betting not permitted. (ND 99-01.3-08-13(2)(l))",
        "Tip betting permitted: a tip bet from $0.50 to $5.00. (ND 99-01.3-08-13(2)(l), ND 99-01.3-08-09(2)(a))",
        "Doubling-down on tip bets permitted - must equal the original tip bet. (ND 99-01.3-08-13(2)(m))",
        "Doubling-down on tip bets not permitted. (ND 99-01.3-08-13(2)(m))",
        "class C felony",
    ]:
        assert phrase in text, phrase
    assert "must stand on 17" not in text and "Insurance permitted" not in text
    assert not [word for word in ("WAC", "WSGC", "NYCRR") if word in text]
