"""North Dakota's law for table chip custody: gaming days, openers/closers, dealer shifts, fill and credit slips (08-05): rule key -> citation."""

CITATIONS: dict[str, str] = {}
