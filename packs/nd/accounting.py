"""North Dakota's law for the books: daily and quarterly figures, percent-of-hold, the gaming tax and the quarterly return: rule key -> citation."""

CITATIONS: dict[str, str] = {
    "accounting.daily_summary": "ND 99-01.3-08-16(1)(g)",
    "accounting.quarterly_summary": "ND 99-01.3-08-16(1)(g)",
    "accounting.drop_count": "ND 99-01.3-08-14(4)",
    "accounting.bank_records": "ND 99-01.3-08-16(1)(a)",
    "accounting.gaming_tax": "N.D.C.C. 53-06.1-12",
    "accounting.low_hold": "ND 99-01.3-08-04(9)",
    "accounting.deposit": "ND 99-01.3-03-10",
    "accounting.combined_bank": "ND 99-01.3-08-16(4)",
    "accounting.dealer_hold": "ND 99-01.3-08-04(8)",
    "accounting.tournament_play": "ND 99-01.3-08-15; 08-16(1)(e)-(g)",
    "accounting.slip_initials": "ND 99-01.3-08-05(3)(c)",
}
