"""The posted house rules (WSGC Blackjack Game Rules, rule 7: the game rules posted) print the play
the internal controls document, the immaterial modifications too (the rules' Irregularities, last
paragraph): one card to each split ace, no doubling after a split, a double less than the original
bet, even money. A table at the rules' own play prints none of them. Through the API: the controls
recorded, the table set, the report requested and its PDF read back."""

import pytest

from tests.pack_setup import record_controls
from tests.reports.test_reports import auditor_api, pdf_text, request  # noqa: F401  (fixture)

TABLE = {"number": 3, "game": "21", "min_wager_cents": 500, "max_wager_cents": 30000, "payout_rounding": "down",
         "split_pairs": "identical", "surrender": "none"}  # fmt: skip
MODIFIED = {"split_aces_one_card": True, "double_after_split": False, "double_down": "up_to",
            "even_money_offered": True}  # fmt: skip
CLAUSES = (
    "split aces receive one card each",
    "not after a split",
    "the double may be less than the original wager, up to it",
    "even money offered on a blackjack against the dealer's ace",
)


def handout(auditor_api, site) -> str:  # noqa: F811
    created = request(auditor_api, kind="house_rules_wa_hb", site=site.pk, end="2026-11-20")
    assert created.status_code == 201, created.json()
    return " ".join(pdf_text(auditor_api.get(f"/api/v1/reports/{created.json()['id']}/download/").content).split())


@pytest.mark.parametrize("modified", [True, False], ids=["modified", "rules-play"])
def test_the_house_rules_print_each_documented_modification(client_for, manager, site, auditor_api, modified):  # noqa: F811
    record_controls(manager, site)
    body = {**TABLE, **(MODIFIED if modified else {})}
    created = client_for(manager).post("/api/v1/tables/", {"site": site.pk, **body}, format="json")
    assert created.status_code == 201, created.json()
    text = handout(auditor_api, site)
    assert "Splitting: Identical cards only; pairs may be split again" in text
    assert "Insurance: half the wager, paid 2 to 1" in text
    for clause in CLAUSES:
        assert (clause in text) is modified, clause


def test_a_table_splitting_no_pair_prints_nothing_of_split_hands(client_for, manager, site, auditor_api):  # noqa: F811
    """Resplitting, split aces and doubling after a split do not arise where no pair is split: the
    handout says "No splitting" and nothing of them, whatever the table's moot settings."""
    record_controls(manager, site)
    body = {**TABLE, "split_pairs": "none", "resplit_allowed": True, "split_aces_one_card": True,
            "double_after_split": False}  # fmt: skip
    created = client_for(manager).post("/api/v1/tables/", {"site": site.pk, **body}, format="json")
    assert created.status_code == 201, created.json()
    text = handout(auditor_api, site)
    assert "Splitting: No splitting. " in text
    for clause in ("pairs may be split again", "split aces receive one card each", "not after a split"):
        assert clause not in text, clause
    assert "No single wager, a double down included, above the State's limit of $300.00." in text
