"""North Dakota's law for table chip custody: gaming days, openers/closers, dealer shifts, fill and
credit slips (08-05): rule key -> citation.

The keys are named in `floor.rules`; the words are exactly those the floor has always cited at a
North Dakota site."""

CITATIONS: dict[str, str] = {
    # "Business day": a gaming day may run past midnight.
    "floor.business_day": "ND 99-01.3-02-01",
    # Only the organization's chip values.
    "floor.chip_values": "ND 99-01.3-08-03(1)",
    # Fill and credit slips: the section as a whole (the printed form) and each subsection.
    "floor.slip_form": "ND 99-01.3-08-05",
    "floor.slip_movement": "ND 99-01.3-08-05(1)",  # fill = bank -> table, credit = table -> bank
    # A slip "to temporarily transfer a chip tray to or from a table and jar bar": a purpose of its own.
    "floor.slip_jar_bar": "ND 99-01.3-08-05(1)",
    "floor.slip_numbering": "ND 99-01.3-08-05(2)",  # separate forms, consecutive numbers, used in order, VOID
    "floor.slip_content": "ND 99-01.3-08-05(3)",  # preparers; quantity and value by denomination
    "floor.slip_game_reference": "ND 99-01.3-08-05(3)(a)",  # "reference to twenty-one (21) or paddlewheels (PW)"
    "floor.slip_initials": "ND 99-01.3-08-05(3)(c)",  # fill: the cashier's; credit: the dealer's or wheel operator's
    "floor.slip_initials_short": "08-05(3)(c)",  # the same, as the slip's own line labels print it
    "floor.slip_deposit": "ND 99-01.3-08-05(4)",  # who keeps the fill original, who deposits the credit's
    "floor.slip_verification": "ND 99-01.3-08-05(5)",  # a shift manager or authorized employee not dealing
    "floor.slip_receipt": "ND 99-01.3-08-05(6)",  # the dealer initials the fill copy, the cashier the credit's
    # A dealer shall redeem tips before leaving a site: an obligation of this chapter only.
    "floor.tips_before_leaving": "ND 99-01.3-08-06(3)",
    # An opened table with no dealer stationed at it: the chip tray removed or locked (08-03(4)), the
    # cards and the shoe removed or securely covered (08-07(1), (2)).
    "floor.unstaffed_table": "ND 99-01.3-08-03(4), 08-07(1), (2)",
    # A dealer approves all decks when the cards are brought to a table, and again each time they
    # are brought back (08-07(1)); a dealer or shift manager inspects each dealing shoe before each
    # day's activity (08-07(2)): the floor records each check (floor.models.CardCheck).
    "floor.decks_approved": "ND 99-01.3-08-07(1)",
    "floor.shoe_inspected": "ND 99-01.3-08-07(2)",
    # The site's daily summary, which a closed gaming day's slips enter.
    "floor.daily_summary": "ND 99-01.3-08-16(1)(g)",
}
