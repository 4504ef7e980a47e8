"""What a higher app says of seating a dealer, asked from below.

A dealer shift is the floor's record that an employee conducted games at a site on a gaming day;
the count (an app above the floor) judges its two-person teams on those records (ND 99-01.3-08-14(2):
two gaming employees count "provided that one of the gaming employees did not conduct games at the
same site on the day of the gaming activity and day of the count"). A team is judged when its count
opens; a shift recorded afterwards, dealt later on the count day or entered later from paper, is
asked here, so that no order of entry leaves a count by a team the rule does not allow. The counts
app registers its answer when it loads (`counts.apps`): imports keep pointing down.
"""

from collections.abc import Callable
from datetime import date

from django.core.exceptions import ValidationError

from cardroom.models import Employee, Site
from core.hooks import DEALER_SEATED

SeatingCheck = Callable[[Employee, Site, date], str | None]


def register_seating_check(check: SeatingCheck) -> None:
    """An app registers `check(dealer, site, gaming_date) -> refusal or None` once, when it loads."""
    DEALER_SEATED.register(check)


def refuse_seating(dealer: Employee, site: Site, gaming_date: date) -> None:
    """Raise the first refusal a registered check gives for seating `dealer` on `gaming_date`."""
    for check in DEALER_SEATED.answers():
        if refusal := check(dealer, site, gaming_date):
            raise ValidationError({"dealer": refusal})
