"""The citations of this pack's law beyond its table rules (rule key -> citation). A rule key
not here is cited "House control" at this pack's sites, or not applied where it is another
jurisdiction's obligation (`packs.base.Rule`)."""

CITATIONS: dict[str, str] = {}
