"""This pack's citations for the product's accounting area (rule key -> citation). A key not stated by
any area of the pack is cited "House control" at its sites, or not applied where it is another
jurisdiction's obligation (`packs.base.Rule`)."""

from .tables import RULE

CITATIONS: dict[str, str] = {
    # 9 NYCRR 4620.5 defines the game; the session record (receipts, prizes, net) is the product's
    # assumption of how a licensed games-of-chance session is kept.
    "accounting.session_game": RULE,
}
