"""North Dakota's law for the cash and chip bank, IOUs (99-01.3-03-06), redemptions, deposits (03-10), the chip inventory log: rule key -> citation."""

CITATIONS: dict[str, str] = {}
