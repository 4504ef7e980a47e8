"""Tips a dealer holds, asked from below.

ND 99-01.3-08-06(3): a dealer redeems their tips before leaving a site. The floor records the
dealer leaving (the end of their shift), but tips are declared and redeemed at the cage, an
app above the floor. So the floor asks here and the cage registers its answer when its app
loads (`cage.apps`): imports keep pointing down.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from cardroom.models import Employee, Site


class TipStatus(Protocol):
    declared: bool  # the dealer declared the tips they hold since the shift began
    unredeemed_cents: int  # declared tips not yet redeemed at the cashier


@dataclass(frozen=True)
class NothingDeclared:
    declared: bool = False
    unredeemed_cents: int = 0


TipStatusLookup = Callable[[Employee, Site, datetime], TipStatus]

_lookup: TipStatusLookup | None = None


def register_tip_status(lookup: TipStatusLookup) -> None:
    """The cage registers `lookup(dealer, site, since) -> TipStatus` once, when its app is ready."""
    global _lookup
    _lookup = lookup


def tip_status(dealer: Employee, site: Site, since: datetime) -> TipStatus:
    """What the dealer declared and still holds since `since`. Until the cage registers an
    answer nothing is known to be declared, so a dealer may not be recorded leaving the site."""
    return NothingDeclared() if _lookup is None else _lookup(dealer, site, since)
