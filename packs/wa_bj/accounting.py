"""This pack's citations for the product's accounting area (rule key -> citation). A key not stated by
any area of the pack is cited "House control" at its sites, or not applied where it is another
jurisdiction's obligation (`packs.base.Rule`)."""

CITATIONS: dict[str, str] = {}
