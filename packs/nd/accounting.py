"""North Dakota's law for the books: daily and quarterly figures, percent-of-hold, the gaming tax and the quarterly return: rule key -> citation;
and the gaming tax's brackets (`TAX_BRACKETS`), effective-dated data."""

from datetime import date
from decimal import Decimal

from ..base import RevenueWords, TaxBracket

GAMING_TAX = "N.D.C.C. 53-06.1-12"

# North Dakota's names of a table's figures, as its text speaks of them: "percent-of-hold is
# computed as adjusted gross proceeds divided by gross proceeds" (ND 99-01.3-08-01(3)); the daily
# summary of "gross proceeds, prizes, adjusted gross proceeds" (08-16(1)(g)). Their definitions are
# in 99-01.3-02-01, which we do not hold (docs/domain.md section 3).
WORDS = RevenueWords(
    gross="gross proceeds",
    gross_short="GP",
    paid="prizes",
    net="adjusted gross proceeds",
    net_short="AGP",
    hold_name="percent-of-hold",
)

CITATIONS: dict[str, str] = {
    "accounting.daily_summary": "ND 99-01.3-08-16(1)(g)",
    "accounting.quarterly_summary": "ND 99-01.3-08-16(1)(g)",
    "accounting.drop_count": "ND 99-01.3-08-14(4)",
    "accounting.bank_records": "ND 99-01.3-08-16(1)(a)",
    "accounting.gaming_tax": GAMING_TAX,
    "accounting.low_hold": "ND 99-01.3-08-04(9)",
    "accounting.deposit": "ND 99-01.3-03-10",
    "accounting.combined_bank": "ND 99-01.3-08-16(4)",
    "accounting.dealer_hold": "ND 99-01.3-08-04(8)",
    "accounting.tournament_play": "ND 99-01.3-08-15; 08-16(1)(e)-(g)",
    "accounting.slip_initials": "ND 99-01.3-08-05(3)(c)",
}

# N.D.C.C. 53-06.1-12, in force since 2021-07-01: 1% of the organization's quarterly AGP up to
# $50,000; above that $500 + 12% of the excess. Effective-dated: a later schedule is added with
# a later date and takes over from it (`accounting.figures.brackets_in_force`).
TAX_BRACKETS: tuple[TaxBracket, ...] = (
    TaxBracket(date(2021, 7, 1), 0, Decimal("0.01"), 0, GAMING_TAX),
    TaxBracket(date(2021, 7, 1), 5_000_000, Decimal("0.12"), 50_000, GAMING_TAX),
)
