"""North Dakota's law for organizations, sites, tables, chips, employees, retention: rule key -> citation."""

CITATIONS: dict[str, str] = {}
