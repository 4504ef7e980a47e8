"""This pack's citations for the product's compliance area (rule key -> citation). A key not stated by
any area of the pack is cited "House control" at its sites, or not applied where it is another
jurisdiction's obligation (`packs.base.Rule`)."""

from .tables import CITATIONS as TABLE_CITATIONS

CITATIONS: dict[str, str] = {
    # (h): "The license shall reflect one of the following options": every table under the licence
    # follows it, judged each night once a new licence is in force
    "compliance.tables_in_line": TABLE_CITATIONS["licence"],
}
