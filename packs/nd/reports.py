"""North Dakota's law for the reports and their forms: rule key -> citation."""

CITATIONS: dict[str, str] = {
    # The SFN forms the reports follow (printed only at North Dakota sites).
    "reports.form_daily": "SFN 50079",
    "reports.form_daily_continuation": "SFN 9924",
    "reports.form_quarterly": "SFN 50901",
    "reports.form_dealer_shifts": "SFN 18862",
    "reports.form_dealer_hold": "SFN 18863",
    "reports.form_chip_inventory": "SFN 17930",
    # Each report kind's rule.
    "reports.alerts": "ND 99-01.3-08 (flag rules)",
    "reports.chip_inventory": "ND 99-01.3-03-09(6), 08-16(2); SFN 17930",
    "reports.count_sheets": "ND 99-01.3-08-14(4)",
    "reports.daily": "ND 99-01.3-08-16(1)(g); SFN 50079",
    "reports.dealer_hold": "ND 99-01.3-08-01(3), 08-04(8); SFN 18863",
    "reports.dealer_shifts": "ND 99-01.3-08-04(8); SFN 18862",
    "reports.quarterly": "ND 99-01.3-08-16(1)(g), 08-04(9); SFN 50901; N.D.C.C. 53-06.1-12",
    "reports.slip_register": "ND 99-01.3-08-05(2)",
    "reports.surveillance_log": "ND 99-01.3-08-04(7),(9); 08-16(1)(d),(h)",
    "reports.tournament_record": "ND 99-01.3-08-16(1)(e),(f)",
    "reports.surveillance_daily_log": "ND 99-01.3-08-04(7)",
    "reports.video_review_programs": "ND 99-01.3-08-04(9)",
    "reports.retention": "ND 99-01.3-08-16",
    "reports.tournament_rules": "ND 99-01.3-08-15",
    "reports.tournament_register": "ND 99-01.3-08-15(1)",
    "reports.tournament_fees": "ND 99-01.3-08-16(1)(e)",
    "reports.tournament_prizes": "ND 99-01.3-08-16(1)(f)",
    "reports.wheel_operators": "ND 99-01.3-08-04(8)",
}
