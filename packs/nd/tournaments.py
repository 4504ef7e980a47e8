"""North Dakota's law for twenty-one tournaments (08-15, 08-16(1)(e),(f)): rule key -> citation."""

CITATIONS: dict[str, str] = {}
