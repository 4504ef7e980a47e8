"""North Dakota's law for video surveillance, outages, review programs (08-04): rule key -> citation."""

CITATIONS: dict[str, str] = {}
