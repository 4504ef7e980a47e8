"""Tips a dealer holds, asked from below.

Where the site's pack states it (rules.TIPS_BEFORE_LEAVING; in North Dakota 99-01.3-08-06(3)), a
dealer redeems their tips before leaving a site. The floor records the
dealer leaving (the end of their shift), but tips are declared and redeemed at the cage, an
app above the floor. So the floor asks here and the cage registers its answer when its app
loads (`cage.apps`): imports keep pointing down. Where the pack does not state the rule, a
leaving dealer's tips are neither checked nor flagged: it is one state's obligation, not a house
control every house keeps (`tips_checked_at`).
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from cardroom.models import Employee, Site
from core.hooks import TIP_STATUS, TIPS_FLAG

from .rules import TIPS_BEFORE_LEAVING


class TipStatus(Protocol):
    declared: bool  # the dealer declared the tips they hold since the shift began
    unredeemed_cents: int  # declared tips not yet redeemed at the cashier


TipStatusLookup = Callable[[Employee, Site, datetime], TipStatus]


def register_tip_status(lookup: TipStatusLookup) -> None:
    """The cage registers `lookup(dealer, site, since) -> TipStatus` once, when its app is ready."""
    TIP_STATUS.register(lookup)


def tip_status(dealer: Employee, site: Site, since: datetime) -> TipStatus:
    """What the dealer declared and still holds since `since` (the cage's answer). Until the cage
    registers it, asking raises: no dealer is recorded leaving unjudged (`core.hooks`)."""
    return TIP_STATUS(dealer, site, since)


# --- Checked when a dealer's last shift of the day ends -----------------------------------------


def tips_checked_at(site: Site) -> bool:
    """Does the site's law oblige a dealer to redeem their tips before leaving the site? Only
    there is a leaving dealer refused or flagged (rules.TIPS_BEFORE_LEAVING.applies)."""
    return TIPS_BEFORE_LEAVING.applies(site)


@dataclass(frozen=True)
class TipsAtLeaving:
    """A dealer whose last shift of a gaming day ended (at a table's closer or the day's close)
    while the tips they hold are undeclared or unredeemed, at a site whose pack states the rule
    (rules.TIPS_BEFORE_LEAVING)."""

    dealer: Employee
    site: Site
    gaming_date: object  # datetime.date
    since: datetime  # the start of their first shift of the day
    declared: bool
    unredeemed_cents: int
    checked_at: str  # "closer" or "day close"


TipsFlag = Callable[[TipsAtLeaving], None]


def register_tips_flag(flag: TipsFlag) -> None:
    """Compliance registers `flag(finding)` once, when its app is ready: it opens the alert."""
    TIPS_FLAG.register(flag)


def check_tips_at_last_shift(dealer: Employee, site: Site, gaming_date, since: datetime, checked_at: str) -> bool:
    """Check the tips of a dealer whose last shift of the day ended; flag them (every
    registered flag) when undeclared or unredeemed. Returns whether they were in order; at a
    site whose pack does not state the rule there is nothing to check (True)."""
    if not tips_checked_at(site):
        return True
    status = tip_status(dealer, site, since)
    if status.declared and not status.unredeemed_cents:
        return True
    found = TipsAtLeaving(dealer, site, gaming_date, since, status.declared, status.unredeemed_cents, checked_at)
    for flag in TIPS_FLAG.answers():
        flag(found)
    return False
