"""This pack's citations for the product's counts area (rule key -> citation). A key not stated by
any area of the pack is cited "House control" at its sites, or not applied where it is another
jurisdiction's obligation (`packs.base.Rule`)."""

from .tables import cite

CITATIONS: dict[str, str] = {
    # (1): "Fees to play Washington blackjack shall only be assessed on a time basis and collected
    # using the direct collection method": the house's revenue is its fees, so it keeps no drop box.
    "counts.fees_only": cite(1),
}
