"""North Dakota's law for the flag rules and their thresholds: rule key -> citation.

Each key names a compliance check (`compliance.rules`, `compliance.providers`): the check runs
only at a site whose pack states its key (`Rule.applies`), and its alerts cite the key here."""

CITATIONS: dict[str, str] = {
    # 08-01(3): prizes over gross proceeds (attorney general, dealer percent-of-hold for 12 weeks)
    "compliance.prizes_over_gp": "ND 99-01.3-08-01(3)",
    # 08-04(9): low hold at a surveillance site, and the video review program it starts
    "compliance.low_hold": "ND 99-01.3-08-04(9)",
    # 08-04 (opening paragraph): the activity that requires a system; its deadline; special events
    "compliance.surveillance_required": "ND 99-01.3-08-04",
    "compliance.surveillance_operational": "ND 99-01.3-08-04",
    "compliance.special_event_exemption": "ND 99-01.3-08-04",
    # 08-04(5)(b): recordings cover a table's play
    "compliance.recording_covers_play": "ND 99-01.3-08-04(5)(b)",
    # 08-04(7): an outage past its deadline; the daily review log (and its record, 08-16(1)(d))
    "compliance.outage_operating": "ND 99-01.3-08-04(7)",
    "compliance.review_log": "ND 99-01.3-08-04(7)",
    "compliance.review_log_record": "ND 99-01.3-08-16(1)(d)",
    # 08-04(11): a sample recording after an equipment change
    "compliance.video_sample": "ND 99-01.3-08-04(11)",
    # 08-03(2): when the chip colour specification applies; 08-03(3): the specification
    "compliance.chip_colours": "ND 99-01.3-08-03(2)",
    "compliance.chip_colour_spec": "ND 99-01.3-08-03(3)",
    # 08-05: fill and credit slips
    "compliance.slip_numbering": "ND 99-01.3-08-05(2)",
    "compliance.slip_verified": "ND 99-01.3-08-05(5)",
    "compliance.slip_received": "ND 99-01.3-08-05(6)",
    # 08-14: drop boxes removed, counted, differences resolved
    "compliance.count_removed": "ND 99-01.3-08-14(1)",
    "compliance.count_counted": "ND 99-01.3-08-14",
    "compliance.count_resolved": "ND 99-01.3-08-14(4)",
    # 03-10(1): the bank deposit by the third banking day
    "compliance.deposit_deadline": "ND 99-01.3-03-10(1)",
    # 08-06(2): chips redeemable for thirty days after twenty-one is discontinued at a site
    "compliance.discontinued_redemption": "ND 99-01.3-08-06(2)",
    # 08-06(3): a dealer redeems tips before leaving a site
    "compliance.tips_before_leaving": "ND 99-01.3-08-06(3)",
}
