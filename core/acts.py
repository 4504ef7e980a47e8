"""An act: who does it, when it happened, whether closed books refuse it, and its audit record.

Every service that records something asks the same four questions; they are answered here,
once, so the apps do not keep copies that drift (issue 34: the cage refused any future time,
the floor allowed `CLOCK_TOLERANCE`, fees hard-coded five minutes).

- `acting_employee(access)`: the employee behind an access (`cardroom.access.Access`), refused
  with `cardroom.access.NOT_AN_EMPLOYEE` for a login that has none (`Access.require_employee`);
  `acting_employee_of(user)` reads the access first (the `access` hook).
- `moment(at, field, site=..., rule=...)`: now, or a time written on paper. One clock tolerance
  (`CLOCK_TOLERANCE`, `core.moments`): a recorded time may lag the real one but not run ahead of
  it by more. With the site, the paper-first rules apply (`core.moments.occurred_at`: the
  site's local time, business hours of the gaming day, closed books).
- `refuse_closed_books(site, gaming_date, what, field)`: a 400 naming the field when the day's
  books are closed (`core.closing`); `hold_books_open(...)` the same inside the act's
  transaction, with the books' close kept out until it ends (`key_share`).
- `hold(row)`: the row locked to the end of the act's transaction and read again, so the same act
  sent twice at once (two terminals) is read and written one at a time: the second finds the
  first and is refused in its rule's words.
- `record(acting_user, action, obj, site, after=...)`: the audit event of the act at the site
  (`core.audit.record_site_event`).
"""

from datetime import date, datetime

from django.core.exceptions import ValidationError
from django.db import connection
from django.utils import timezone

from . import closing, moments
from .audit import record_site_event
from .moments import CLOCK_TOLERANCE
from .rules import HOUSE_CONTROL
from .scoping import access_for

__all__ = [
    "CLOCK_TOLERANCE",
    "acting_employee",
    "acting_employee_of",
    "hold",
    "hold_books_open",
    "key_share",
    "moment",
    "record",
    "refuse_closed_books",
]


def acting_employee(access):
    """The employee acting with `access`; PermissionDenied (NOT_AN_EMPLOYEE) for a login with none."""
    return access.require_employee()


def acting_employee_of(user):
    """The employee `user` acts as (their access read through the `access` hook)."""
    return acting_employee(access_for(user))


def moment(
    at: datetime | None,
    field: str = "at",
    *,
    site=None,
    rule: str | None = None,
    future: str | None = None,
    **checks,
) -> datetime:
    """The time of an act: now, or an earlier time written on paper; never more than
    `CLOCK_TOLERANCE` ahead of now.

    With `site`, a naive time is the site's local time and the paper-first rules apply
    (`core.moments.occurred_at` with `checks`: `gaming_date`, `not_before`, `books_date`...).
    Without it, the time must carry its zone. `rule` heads the refusals (the caller's citation;
    House control without one); `future` replaces the refusal of a time in the future (a caller's
    own words)."""
    if site is not None:
        cited = {"rule": rule} if rule is not None else {}
        return moments.occurred_at(site, at, field=field, **cited, **checks)
    now = timezone.now()
    if at is None:
        return now
    cited = rule or HOUSE_CONTROL  # no pack's text says how a time without its site is written
    if timezone.is_naive(at):
        raise ValidationError({field: f"{cited}: give the time with its time zone."})
    if at > now + CLOCK_TOLERANCE:
        raise ValidationError({field: future or f"{cited}: a record cannot be dated in the future."})
    return at


def refuse_closed_books(site, gaming_date: date, what: str, field: str = "gaming_date") -> None:
    """Refuse (a 400 on `field`) an act that would change `what` of a gaming day whose books are
    closed (`core.closing`). Call under the site's row lock where the books' close takes it."""
    refusal = closing.closed_books_refusal(site, gaming_date, what)  # the Site: its pack read from it
    if refusal is not None:
        raise ValidationError({field: refusal})


def hold_books_open(site, gaming_date: date, what: str, field: str = "gaming_date") -> None:
    """`refuse_closed_books`, read inside the act's transaction with the books' close kept out
    until it ends: a check made before the transaction is passed by a close that commits before
    the act's write, whose row would then change closed figures. The close (and a quarter's
    filing) takes the site's row lock (accounting.services), which waits for this key-share lock
    of it, as this waits for a close in progress (`key_share`); SQLite's transactions begin
    IMMEDIATE, one writer at a time, so there the reading inside the transaction is enough."""
    key_share(site)
    refuse_closed_books(site, gaming_date, what, field)


def key_share(row) -> None:
    """A key-share lock of `row` (a saved model instance) to the end of the transaction, on
    PostgreSQL: a `select_for_update()` of that row waits for it and it waits for one, while
    other key-share locks and the rows inserted referring to it wait for nothing. Nothing on
    SQLite, whose writers queue (config.settings: IMMEDIATE transactions)."""
    if connection.vendor == "postgresql":
        meta = row._meta
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT 1 FROM {meta.db_table} WHERE {meta.pk.column} = %s FOR KEY SHARE", [row.pk])


def hold(row):
    """`row` (a saved model instance) locked to the end of the transaction and read again, as it
    stands: an act that must not be done twice re-reads its check after this, and the same act
    sent from another terminal waits here for the first to commit, then finds it.

    FOR NO KEY UPDATE on PostgreSQL, not FOR UPDATE: it keeps out the same act and the books'
    close (which lock the row FOR UPDATE), but not the key-share locks that rows entered beside
    it take at their commit to check their foreign keys to it (nor `key_share`); a FOR UPDATE held
    while waiting for the audit chain would deadlock with such a check. On SQLite the row is only
    read again: its writers queue (config.settings: IMMEDIATE transactions)."""
    return row._meta.default_manager.select_for_update(no_key=True).get(pk=row.pk)


def record(acting_user, action: str, obj, site, *, before=None, after=None):
    """The act's audit event at `site` (and its organization); `after` defaults to the row as saved."""
    return record_site_event(acting_user, action, obj, site, before=before, after=after)
