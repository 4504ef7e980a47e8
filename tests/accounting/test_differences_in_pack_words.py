"""A figure that differs from the closed books or the filed quarter is named in the words of the
site's pack: North Dakota's gross proceeds, prizes and AGP; the trade's drop, paid out and win at
a Washington or New York site, whose law names none of them (`packs.RevenueWords`). The
statement is what the daily and quarterly reports, the pages and the API print."""

import pytest

from accounting.books import differences

THEN = {
    "tables": [{"table_number": 1, "drop_cents": 70_000, "gross_proceeds_cents": 70_000, "prizes_cents": 20_000}],
    "total": {"agp_cents": 50_000},
}
NOW = {
    "tables": [{"table_number": 1, "drop_cents": 75_000, "gross_proceeds_cents": 75_000, "prizes_cents": 20_000}],
    "total": {"agp_cents": 55_000},
}
EXPECTED = {
    "ND": (
        "tables table 1 drop: $700.00 closed, $750.00 now",
        "tables table 1 gross proceeds: $700.00 closed, $750.00 now",
        "total AGP: $500.00 closed, $550.00 now",
    ),
    # the gross proceeds are the drop there: one line
    "WA-HB": ("tables table 1 drop: $700.00 closed, $750.00 now", "total win: $500.00 closed, $550.00 now"),
    "WA-BJ": ("tables table 1 drop: $700.00 closed, $750.00 now", "total win: $500.00 closed, $550.00 now"),
    "NY": ("tables table 1 drop: $700.00 closed, $750.00 now", "total win: $500.00 closed, $550.00 now"),
}


@pytest.mark.parametrize("code", list(EXPECTED))
def test_a_figure_differing_from_the_closed_books_is_named_in_the_sites_packs_words(site, code):
    site.jurisdiction = code
    site.save()
    assert differences(THEN, NOW, "closed", site_id=site.pk) == EXPECTED[code]


@pytest.mark.parametrize("code", ["WA-HB", "NY"])
def test_the_paid_out_figure_differing_is_named_paid_out_not_prizes(site, code):
    site.jurisdiction = code
    site.save()
    then, now = {"twenty_one": {"prizes_cents": 20_000}}, {"twenty_one": {"prizes_cents": 25_000}}
    word = {"WA-HB": "blackjack", "NY": "Black Jack"}[code]
    assert differences(then, now, "filed", site_id=site.pk) == (f"{word} paid out: $200.00 filed, $250.00 now",)
