"""North Dakota's law for drop boxes and the two-person count (08-14): rule key -> citation."""

CITATIONS: dict[str, str] = {}
