"""This pack's citations for the product's compliance area (rule key -> citation). A key not stated by
any area of the pack is cited "House control" at its sites, or not applied where it is another
jurisdiction's obligation (`packs.base.Rule`)."""

from .approvals import CITATIONS as APPROVAL_CITATIONS
from .tables import CITATIONS as TABLE_CITATIONS

CITATIONS: dict[str, str] = {
    # The WSGC rules' options chosen by the card room, documented in its internal controls: every
    # table follows the version in force, judged each night once a new version takes effect
    "compliance.tables_in_line": TABLE_CITATIONS["internal_controls"],
    # The internal controls in force say how the card room addresses irregularities (misdeals,
    # cards exposed, an incorrect number of cards): flagged each night while they do not
    "compliance.irregularities_documented": APPROVAL_CITATIONS["approvals.irregularities"],
}
