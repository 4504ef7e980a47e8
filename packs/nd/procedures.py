"""North Dakota's law for the written procedures an organization adopts (`approvals.WrittenProcedure`):
rule key -> citation."""

CITATIONS: dict[str, str] = {
    # 08-08(1): "For a site with a video surveillance system, an organization shall standardize its
    # dealers' procedures for shuffling and cutting cards and may use one or more standard shuffling
    # methods." 08-08(2): a dealer may reshuffle when no activity has occurred at the table for a
    # period of time set by the organization (the procedure's idle period).
    "procedures.shuffle_and_cut": "ND 99-01.3-08-08(1)",
    "procedures.reshuffle_idle": "ND 99-01.3-08-08(2)",
    # 08-06(2): "An organization shall adopt a procedure on redeeming a player's chips that ensures
    # that redeemed chips are separated, by value, and counted accurately."
    "procedures.chip_redemption": "ND 99-01.3-08-06(2)",
    # 08-12: "These procedures must be applied for dealing mistakes, unless an organization has an
    # alternative written policy" (optional: recorded where the organization has one).
    "procedures.dealing_mistakes": "ND 99-01.3-08-12",
}
