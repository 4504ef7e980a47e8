"""North Dakota's law for the books: daily and quarterly figures, percent-of-hold, the gaming tax and the quarterly return: rule key -> citation."""

CITATIONS: dict[str, str] = {}
