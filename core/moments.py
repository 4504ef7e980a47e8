"""Paper-first and late entry: when a record happened, and when it was entered.

Every record that happens at a moment (a tray count, a slip and each step on it, a dealer
shift, a removal, a count, a gaming day's open and close, a bank count, a redemption, an IOU,
a surveillance log entry) accepts the moment it happened (`*_at`), written with an offset or
as the site's local time (`Site.time_zone`), because the paper form is often entered later.
The one place that reads and checks such a moment is `occurred_at`:

- a naive time is the site's local time;
- not in the future (beyond `CLOCK_TOLERANCE` of clock skew);
- inside the business hours of its gaming day (the pack's "business day", North Dakota's 99-01.3-02-01: from the
  site's start hour to the next day's), when the record belongs to a given gaming day; with no
  time given the record happened now, which must then lie there too: a day already over is
  entered with the time on its paper;
- never inside closed books: a correction of a closed day is an adjustment
  (core.closing, a house control).

Each such record keeps both times: the moment it happened and `entered_at` (when it was
typed in). Past the site's threshold (`Site.late_entry_minutes`, a house control: the text
does not state one) the record is marked `entered_late`, and the reports list it so.
"""

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone

from . import closing, limits
from .citations import cite
from .rules import HOUSE_CONTROL

# The gaming day's business hours: the site's pack's definition (ND 99-01.3-02-01 "business day"),
# else the product's own (house control): cited through `core.citations`.
BUSINESS_DAY = "core.business_day"
# A recorded time may lag the real one (paper entered later) but not run ahead of it.
CLOCK_TOLERANCE = timedelta(minutes=5)
LATE_ENTRY = f"{HOUSE_CONTROL} (late entry)"


def site_zone(site) -> ZoneInfo:
    return ZoneInfo(site.time_zone)


def local(site, at: datetime) -> datetime:
    """`at` as an aware moment: a naive time is the site's local time."""
    if timezone.is_naive(at):
        return at.replace(tzinfo=site_zone(site))
    return at


def gaming_date_of(site, at: datetime) -> date:
    """The gaming date a moment belongs to (local time minus the business-day start hour)."""
    return (local(site, at).astimezone(site_zone(site)) - timedelta(hours=site.business_day_start_hour)).date()


def gaming_day_bounds(site, gaming_date: date) -> tuple[datetime, datetime]:
    """[start, end) of the site's gaming date: its start hour, local, to the next day's."""
    zone = site_zone(site)
    start = datetime.combine(gaming_date, time(site.business_day_start_hour), tzinfo=zone)
    end = datetime.combine(gaming_date + timedelta(days=1), time(site.business_day_start_hour), tzinfo=zone)
    return start, end


def local_date(site, moment: datetime) -> date:
    """The calendar date of `moment` at the site (its local time), as its pages date a filing or
    an event (not its gaming date: `gaming_date_of`)."""
    return moment.astimezone(site_zone(site)).date()


def shown(site, moment: datetime) -> str:
    """A moment as a refusal shows it: the site's local time with its zone's abbreviation."""
    return moment.astimezone(site_zone(site)).strftime("%Y-%m-%d %H:%M %Z")


def occurred_at(
    site,
    at: datetime | None,
    *,
    field: str = "at",
    rule: str = LATE_ENTRY,
    gaming_date: date | None = None,
    after_day_end: bool = False,
    not_before: datetime | None = None,
    books_date: date | None = None,
    books: bool = True,
    what: str = "a record",
    now: datetime | None = None,
) -> datetime:
    """The moment a record happened: now when `at` is None, else `at` read and checked.

    `gaming_date`: the gaming day the record belongs to; the moment must lie in its business
    hours (`after_day_end`: a closing signature may come after the day's last hour).
    `not_before`: an earlier moment the record cannot precede (the shift's start...).
    Closed books are refused for `books_date`, else `gaming_date`, else the moment's gaming date
    (a count of a day happens after it: its books are the day's, `books_date`); `books=False`
    for records outside the books (surveillance logs).

    Now (`at` None) is checked against `gaming_date` only: outside that day's business hours
    (before its start, or at or after its end unless `after_day_end`) it is refused, naming the
    field: a record of a day already over gives the time on the paper, never now (unless that day's
    books are closed: no time would do, and the service says so). Its closed books are not checked
    here: every service that writes a day's record also refuses them itself, under the site's row
    lock (`core.acts.refuse_closed_books`), which is what holds when no moment is given."""
    now = now or timezone.now()
    if at is None:
        _refuse_now_outside_the_day(site, now, field=field, rule=rule, gaming_date=gaming_date,
                                    after_day_end=after_day_end, books=books)  # fmt: skip
        return now
    if not isinstance(at, datetime):
        raise ValidationError({field: f"{rule}: give a date and time, for example 2026-07-10T19:00:00-05:00."})
    at = local(site, at)
    if not limits.date_in_range(at):  # the books' range, before any rule of a day in it is asked
        raise ValidationError({field: limits.date_message(f"The time ({shown(site, at)})")})
    if at > now + CLOCK_TOLERANCE:
        raise ValidationError(
            {field: f"{rule}: a record cannot be dated in the future ({shown(site, at)} is after now)."}
        )
    day = books_date or gaming_date or gaming_date_of(site, at)
    if gaming_date is not None:
        start, end = gaming_day_bounds(site, gaming_date)
        if at < start or (at >= end and not after_day_end):
            raise ValidationError(
                {
                    field: f"{cite(BUSINESS_DAY, site.jurisdiction)}: {shown(site, at)} is outside the business hours of the gaming day "
                    f"{gaming_date} ({shown(site, start)} to {shown(site, end)}); date the record in its own "
                    "gaming day."
                }
            )
    if not_before is not None and at < not_before:
        raise ValidationError(
            {field: f"{rule}: {shown(site, at)} is before {shown(site, not_before)}, when this began."}
        )
    refusal = closing.closed_books_refusal(site, day, what) if books else None
    if refusal is not None:
        raise ValidationError({field: refusal})
    return at


def _refuse_now_outside_the_day(site, now: datetime, *, field: str, rule: str, gaming_date: date | None,
                                after_day_end: bool, books: bool) -> None:  # fmt: skip
    """No time given: the record happened now, which must lie in its gaming day's business hours
    (or after its last hour, `after_day_end`). A day already over (or not begun) is entered from
    paper: its record gives the time written there, never now, a moment outside that day. A day
    whose books are closed takes no record at any time: that refusal is the service's own (under
    the site's row lock, `core.acts.refuse_closed_books`), not a request for the paper's time."""
    if gaming_date is None:
        return
    start, end = gaming_day_bounds(site, gaming_date)
    if start <= now and (now < end or after_day_end):
        return
    if books and closing.closed_books_refusal(site, gaming_date, "a record") is not None:
        return
    state = "is over" if now >= end else "has not begun"
    raise ValidationError(
        {
            field: f"{rule}: no time was given and now ({shown(site, now)}) is outside the business hours of the "
            f"gaming day {gaming_date} ({shown(site, start)} to {shown(site, end)}, "
            f"{cite(BUSINESS_DAY, site.jurisdiction)}); the gaming day {gaming_date} {state}; give the time on the "
            "paper, within its business hours."
        }
    )


def refuse_day_not_begun(site, gaming_date: date, *, field: str = "gaming_date", rule: str, why: str = "") -> None:
    """Refuse (a 400 on `field`, citing `rule`) a gaming day after the site's current one (the
    gaming date of now): nothing is recorded for a day not begun. `why`, in the rule's words, says
    why the record follows its day."""
    current = gaming_date_of(site, timezone.now())
    if gaming_date > current:
        reason = f"; {why}" if why else ""
        raise ValidationError(
            {
                field: f"{rule}: the gaming day {gaming_date} has not begun yet at {site} "
                f"(its current gaming day is {current}){reason}."
            }
        )


def refuse_before(site, at: datetime, earlier: datetime | None, *, field: str, rule: str, why: str, what: str) -> None:
    """Refuse (a 400 on `field`, citing `rule`) a moment `at` before `earlier`, the moment of `what`
    it follows: a correction is not dated before what it corrects, a void before what it voids.
    `why` says, in the rule's words, why the one follows the other."""
    if earlier is not None and at < earlier:
        raise ValidationError({field: f"{rule}: {why}; {shown(site, at)} is before {what} ({shown(site, earlier)})."})


def is_late(site, occurred: datetime | None, entered: datetime | None) -> bool:
    """Entered more than the site's threshold after it happened (house control, LATE_ENTRY)."""
    if occurred is None or entered is None:
        return False
    return entered - occurred > timedelta(minutes=site.late_entry_minutes)


class EnteredRecord(models.Model):
    """A record that happened at a moment (`occurred_field`) and was entered at `entered_at`.

    When the row is first saved, `entered_at` is now and `entered_late` says whether that is past
    the site's threshold. `entry_site` is the attribute path from the record to its Site."""

    occurred_field: str = ""
    entry_site: str = "site"
    # The record's gaming date, where its moment may fall after the day's last hour
    # (`occurred_at(..., after_day_end=True)`: a bank count, an IOU, tips declared at a shift's
    # end): entered more than the threshold after that hour, it is late whatever moment it gives.
    # Without it an IOU of a day a month gone, lent "now", read as entered on time.
    day_field: str = ""
    # Set on a record the system writes for another at that one's entry (a drop box's placement,
    # implied by its removal, dated at the day's start): it is late only as that entry is, judged by
    # that entry's moment, not by the moment inferred for it.
    implied_by_moment: datetime | None = None

    entered_at = models.DateTimeField(
        null=True,
        blank=True,
        editable=False,
        help_text="When the record was entered (the occurrence time is its *_at).",
    )
    entered_late = models.BooleanField(
        default=False, editable=False, help_text="Entered past the site's late entry threshold."
    )

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if self._state.adding:
            self.stamp_entry()
        super().save(*args, **kwargs)

    def _entry_site(self):
        obj = self
        for name in self.entry_site.split("."):
            obj = getattr(obj, name)
        return obj

    def stamp_entry(self, now: datetime | None = None) -> None:
        if self.entered_at is None:
            self.entered_at = now or timezone.now()
        occurred = self.implied_by_moment or getattr(self, self.occurred_field, None)
        site = self._entry_site()
        day = getattr(self, self.day_field) if self.day_field else None
        if occurred is not None and day is not None:
            occurred = min(occurred, gaming_day_bounds(site, day)[1])
        self.entered_late = is_late(site, occurred, self.entered_at)


def backfill_entered_at(model, occurred_field: str, schema_editor, append_only: bool = True) -> None:
    """A migration step: rows entered before `entered_at` existed were entered live, at their
    occurrence time. `model` is the migration's historical model. Append-only tables lift their
    triggers for this one statement only."""
    from .appendonly import drop_trigger_sql, trigger_sql

    table = model._meta.db_table
    vendor = schema_editor.connection.vendor
    if append_only:
        for sql in drop_trigger_sql(vendor, table):
            schema_editor.execute(sql)
    schema_editor.execute(
        f"UPDATE {table} SET entered_at = {occurred_field} WHERE entered_at IS NULL"  # noqa: S608 - names from code
    )
    if append_only:
        for sql in trigger_sql(vendor, table):
            schema_editor.execute(sql)
