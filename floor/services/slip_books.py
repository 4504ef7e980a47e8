"""Registering books of pre-printed slips (ND 99-01.3-08-05(2))."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from cardroom.access import require_role
from cardroom.models import Site
from core import acts
from core.audit import record_site_event as _audit
from core.rules import HOUSE_CONTROL

from .. import rules
from ..models import Slip, SlipBook, SlipKind
from .steps import refuse_house_chips_at_fees_site


def register_slip_book(*, acting_user, site: Site, kind: str, first_number: int, last_number: int) -> SlipBook:
    """Register a book of pre-printed, consecutively numbered two-part slips (ND 99-01.3-08-05(2)).
    Books of one series at a site never overlap, and the site's electronic series must not
    have been used for that kind. None at a site whose house has no chips at its tables: it
    records no slips (rules.FEES_ONLY)."""
    employee = acts.acting_employee(
        require_role(acting_user, site, *rules.SLIP_BOOK_REGISTRARS, action="register a slip book", rule=HOUSE_CONTROL)
    )
    refuse_house_chips_at_fees_site(site, "kind", "slip book")
    if kind not in SlipKind.values:
        raise ValidationError(
            {"kind": f"{rules.SLIP_NUMBERING.at(site)}: a slip book holds fill slips or credit slips."}
        )
    if first_number < 1 or first_number > last_number:
        raise ValidationError(
            {"first_number": f"{rules.SLIP_NUMBERING.at(site)}: give a range of printed numbers, first to last."}
        )
    with transaction.atomic():
        Site.objects.select_for_update().get(pk=site.pk)
        _check_book_fits(site, kind, first_number, last_number)
        book = SlipBook.objects.create(
            site=site,
            kind=kind,
            first_number=first_number,
            last_number=last_number,
            registered_at=timezone.now(),
            registered_by=employee,
        )
        _audit(acting_user, "slip_book.registered", book, site=site)
    return book


def _check_book_fits(site: Site, kind: str, first: int, last: int) -> None:
    books = SlipBook.objects.filter(site=site, kind=kind)
    if books.filter(first_number__lte=last, last_number__gte=first).exists():
        raise ValidationError(
            {"first_number": f"{rules.SLIP_NUMBERING.at(site)}: the range overlaps a registered book."}
        )
    electronic = Slip.objects.filter(site=site, kind=kind, slip_book__isnull=True)
    if electronic.exists():
        highest = electronic.aggregate(Max("number"))["number__max"]
        raise ValidationError(
            {
                "kind": f"{rules.SLIP_NUMBERING.at(site)}: {site} already numbers this series electronically (up to {highest})."
            }
        )
