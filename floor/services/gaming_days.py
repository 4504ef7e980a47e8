"""Opening and closing a site's gaming day (ND 99-01.3-02-01 "business day")."""

from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import transaction

from cardroom import closing
from cardroom.access import require_role
from cardroom.audit import record_site_event as _audit
from cardroom.models import Site
from cardroom.rules import HOUSE_CONTROL

from .. import queries, rules
from ..calculations import business_date
from ..models import DealerShift, GamingDay, GamingDayClose
from ..tips import check_tips_at_last_shift
from .steps import _acting_employee, _moment


def open_gaming_day(*, acting_user, site: Site, gaming_date, at: datetime | None = None) -> GamingDay:
    """Open a business day at a site (ND 99-01.3-02-01). One day is open at a time; a day
    cannot be opened before it has begun."""
    employee = _acting_employee(
        require_role(acting_user, site, *rules.FLOOR_SUPERVISORS, action="open a gaming day", rule=HOUSE_CONTROL)
    )
    at = _moment(at, "opened_at", site=site, gaming_date=gaming_date, what="the activity")
    if not site.active:
        raise ValidationError({"site": f"{rules.GAMING_DAY_STATE}: {site} is inactive; no gaming day opens there."})
    if gaming_date > business_date(at, site.time_zone, site.business_day_start_hour):
        raise ValidationError({"gaming_date": f"{rules.GAMING_DAY_STATE}: the gaming day {gaming_date} has not begun yet."})
    with transaction.atomic():
        Site.objects.select_for_update().get(pk=site.pk)
        if GamingDay.objects.filter(site=site, gaming_date=gaming_date).exists():
            raise ValidationError(
                {"gaming_date": f"{rules.GAMING_DAY_STATE}: the gaming day {gaming_date} was already opened at {site}."}
            )
        refusal = closing.closed_books_refusal(site.pk, gaming_date, "the activity")  # a filed quarter
        if refusal is not None:
            raise ValidationError({"gaming_date": refusal})
        still_open = queries.open_gaming_day(site)
        if still_open is not None:
            raise ValidationError(
                {"gaming_date": f"{rules.GAMING_DAY_STATE}: close the gaming day {still_open.gaming_date} first."}
            )
        day = GamingDay.objects.create(site=site, gaming_date=gaming_date, opened_at=at, opened_by=employee)
        _audit(acting_user, "gaming_day.opened", day, site=site)
    return day


def close_gaming_day(*, acting_user, gaming_day: GamingDay, at: datetime | None = None) -> GamingDayClose:
    """Close a gaming day once every table opened in it has its closer and no dealer is on shift."""
    site = gaming_day.site
    employee = _acting_employee(
        require_role(acting_user, site, *rules.FLOOR_SUPERVISORS, action="close a gaming day", rule=HOUSE_CONTROL)
    )
    at = _moment(
        at,
        "closed_at",
        site=site,
        gaming_date=gaming_day.gaming_date,
        after_day_end=True,
        not_before=gaming_day.opened_at,
        what="the close",
    )
    with transaction.atomic():
        GamingDay.objects.select_for_update().filter(pk=gaming_day.pk).first()  # not while a slip is voided
        if GamingDayClose.objects.filter(gaming_day=gaming_day).exists():
            raise ValidationError(
                {"gaming_day": f"{rules.GAMING_DAY_STATE}: the gaming day {gaming_day.gaming_date} is already closed."}
            )
        unclosed = queries.tables_open(gaming_day)
        if unclosed:
            numbers = ", ".join(str(t.number) for t in unclosed)
            raise ValidationError({"gaming_day": f"{rules.TRAY_COUNT}: record the closer of table(s) {numbers} first."})
        close = GamingDayClose.objects.create(gaming_day=gaming_day, closed_at=at, closed_by=employee)
        _audit(acting_user, "gaming_day.closed", close, site=site)
        _check_tips_of_the_day(gaming_day)
    return close


def _check_tips_of_the_day(gaming_day: GamingDay) -> None:
    """ND 99-01.3-08-06(3): at the day's close every dealer's last shift has ended; the tips of
    each dealer of the day are checked and flagged if undeclared or unredeemed (floor.tips)."""
    first_starts: dict = {}
    for shift in DealerShift.objects.filter(gaming_day=gaming_day).select_related("dealer").order_by("started_at"):
        first_starts.setdefault(shift.dealer, shift.started_at)
    for dealer, since in first_starts.items():
        check_tips_at_last_shift(dealer, gaming_day.site, gaming_day.gaming_date, since, "day close")
