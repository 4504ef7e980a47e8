"""North Dakota's law for the flag rules and their thresholds: rule key -> citation."""

CITATIONS: dict[str, str] = {}
