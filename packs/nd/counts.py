"""North Dakota's law for drop boxes and the two-person count (08-14): rule key -> citation."""

CITATIONS: dict[str, str] = {
    # 08-14(2): the four teams that may open a drop box, their independence (no supervisor and
    # subordinate, no family or household member unless one is an independent contractor).
    "counts.count_team": "ND 99-01.3-08-14(2)",
    # 08-14(1): the shift manager removes the box, escorted, to a safe storage place by the end of
    # the gaming day; a box is counted before it is used again.
    "counts.removal": "ND 99-01.3-08-14(1)",
    # 08-14(3): the key to the box's contents is controlled by a count team member.
    "counts.keys": "ND 99-01.3-08-14(3)",
    # 08-14(4): each member counts independently, differences are resolved, both initial and date.
    "counts.count": "ND 99-01.3-08-14(4)",
    # 08-02(2): a drop box has the number of its table.
    "counts.box_number": "ND 99-01.3-08-02(2)",
}
