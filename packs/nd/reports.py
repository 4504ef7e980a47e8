"""North Dakota's law for the reports and their forms: rule key -> citation."""

CITATIONS: dict[str, str] = {}
