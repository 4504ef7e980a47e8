"""Closed books, asked from below.

Whether a gaming day's books are closed is the books' answer (`accounting`, which sits above
the custody apps), but the layers below must respect it: the cage records a day's deposit
only once its books are closed, and a count, a bank count or an IOU of a closed day is never
changed (corrections are adjusting entries in the books). So the lower layers ask here and
the books register the answer when their app loads (`accounting.apps`): imports keep pointing
down.

A day's books are closed when they were closed for that day (a BooksClose) or when the
quarterly summary of its quarter is filed (which closes every date in the quarter, including
dates without a gaming day).
"""

from collections.abc import Callable, Collection
from datetime import date

from .hooks import (
    BOOKS_CLOSED,
    BOOKS_CLOSERS,
    BOOKS_DAY,
    CLOSED_DATES,
    CLOSED_DAYS,
    CLOSED_ON,
    COLLECTING_DAYS,
    EXPECTED_DEPOSIT,
)

# (site_id, gaming_date) -> why the books of that date are closed ("the books of 2026-08-14
# are closed", "the quarterly summary of 2026Q3 is filed"), or None while they are open.
ClosedReason = Callable[[int, date], str | None]
# (site_id, gaming_dates) -> those of the dates whose books are closed, asked once for a page's dates.
ClosedDates = Callable[[int, Collection[date]], set[date]]
# (site_ids, start, end) -> the (site_id, date) in the range whose own books were closed.
ClosedDays = Callable[[Collection[int], date, date], set[tuple[int, date]]]
# (site_id, date) -> is the date a day of the site's books?
BooksDay = Callable[[int, date], bool]


# What every refusal says to do instead.
INSTEAD = (
    "Date a new record on a gaming day whose books are open; a correction of the closed figures is an "
    "adjustment approved by a gaming manager (daily summary page, or POST /api/v1/adjustments/), entered on "
    "a later gaming day and counted there."
)


def register_books_closed(reason: ClosedReason) -> None:
    """The books register `reason(site_id, gaming_date) -> str | None` once, when their app is ready."""
    BOOKS_CLOSED.register(reason)


def closed_reason(site_id: int, gaming_date: date) -> str | None:
    """Why the books of the site's gaming date are closed, or None. Until the books register an
    answer, asking raises: no day's books are taken for open (`core.hooks`)."""
    return BOOKS_CLOSED(site_id, gaming_date)


def books_closed(site_id: int, gaming_date: date) -> bool:
    """Are the books of the site's gaming day closed?"""
    return closed_reason(site_id, gaming_date) is not None


def register_closed_dates(closed: ClosedDates) -> None:
    """The books register `closed(site_id, gaming_dates) -> set of dates` once, when their app is ready."""
    CLOSED_DATES.register(closed)


def closed_dates(site_id: int, gaming_dates: Collection[date]) -> set[date]:
    """Those of the site's `gaming_dates` whose books are closed (`books_closed` of each, asked at
    once: a page listing several dates asks a fixed number of queries, not two per date)."""
    return CLOSED_DATES(site_id, gaming_dates)


def register_closed_on(closed: Callable[[], object]) -> None:
    """The books register `closed() -> condition` once, when their app is ready."""
    CLOSED_ON.register(closed)


def closed_on():
    """A condition, true where the books of the outer row's `site_id` and `gaming_date` are closed
    (as `closed_reason` says of each: its own books, or its quarter's summary filed), for a lower
    layer to filter its own rows by in one query of a size independent of how many rows it reads
    (the cage's ideal bank: the latest of the bank's days from a date whose books are closed)."""
    return CLOSED_ON()


def register_closed_days(closed: ClosedDays) -> None:
    """The books register `closed(site_ids, start, end) -> {(site_id, date)}` once, when their app is ready."""
    CLOSED_DAYS.register(closed)


def closed_days(site_ids: Collection[int], start: date, end: date) -> set[tuple[int, date]]:
    """The (site_id, date) in [start, end] whose own books were closed with no gaming day opened on
    them (a fees or session day, an adjustment's or a tournament's day): the closed days of the
    books a deposit may be recorded for (the cage's deposit service). Not all take one: a day whose
    only records are adjusting entries, or voided fees, sessions or tournament fees, collected nothing
    (`collecting_days`). A quarter filed closes
    its dates without making them days of the books: not listed. Few rows where every day of play
    opens a gaming day."""
    return CLOSED_DAYS(site_ids, start, end)


def register_collecting_days(collecting: ClosedDays) -> None:
    """The books register `collecting(site_ids, start, end) -> {(site_id, date)}` once, when their app is ready."""
    COLLECTING_DAYS.register(collecting)


def collecting_days(site_ids: Collection[int], start: date, end: date) -> set[tuple[int, date]]:
    """Those of `closed_days` that took cash: table fees or sessions recorded and not voided, or
    tournament play. Beside the gaming days, the days that take a bank deposit (the cage's deposits
    page, the late-deposit check, the obligations calendar). A day whose only records are adjusting
    entries, or whose fees, sessions or tournament fees were all voided, collected nothing: its books
    close, yet it has nothing to deposit (a cash correction on a day never bank-counted stays out of
    the quarter's cash profit). A fixed number of queries."""
    return COLLECTING_DAYS(site_ids, start, end)


def register_books_day(is_day: BooksDay) -> None:
    """The books register `is_day(site_id, date) -> bool` once, when their app is ready."""
    BOOKS_DAY.register(is_day)


def is_books_day(site_id: int, day: date) -> bool:
    """Is anything of the site's books recorded on `day` (a gaming day opened, an adjustment,
    tournament play, a fees or session pack's records)? A date with nothing has no books to close."""
    return BOOKS_DAY(site_id, day)


def register_expected_deposit(expected: Callable[[], object]) -> None:
    """The books register `expected() -> expression` once, when their app is ready."""
    EXPECTED_DEPOSIT.register(expected)


def expected_deposit():
    """An expression of the deposit the closed books of the outer row's `site_id` and
    `gaming_date` expect, in cents (the day's cash profit as closed; null where its own books were
    not closed), for the cage to annotate its deposits with, in their own query."""
    return EXPECTED_DEPOSIT()


# The figures closed books protect: where the site's pack states that a quarter's summaries
# reconcile to its return (ND 99-01.3-08-16(1)(g)), the refusal names that rule.
SUMMARIES_RECONCILE = "core.summaries_reconcile"


def closed_books_control(site) -> str:
    """What a refusal to change closed or filed figures cites: the house control, with the rule the
    closed figures serve where the site's pack states it ("House control (closed books, ND
    99-01.3-08-16(1)(g))"). `site`: the Site, or a site id."""
    from .citations import jurisdiction_of, stated

    protects = stated(SUMMARIES_RECONCILE, jurisdiction_of(site))
    return f"House control (closed books, {protects})" if protects else "House control (closed books)"


def closed_books_refusal(site, gaming_date: date, what: str) -> str | None:
    """The message refusing a write that would change `what` of a closed day, or None while the
    day's books are open (no citation is looked up then). `what` is a noun, singular or plural
    ("a slip", "the IOUs"): "{what} of {date} cannot be changed" is right for either. Keeping
    closed books closed is a house control at every site, whatever its pack: no text we hold
    states it, and a WA or NY gaming manager and their auditor expect filed figures to stay as
    filed. Where the site's pack states
    the rule the closed figures serve (North Dakota's 08-16(1)(g)), the refusal names it. `site`:
    the Site (its pack is read from it), or a site id (`core.citations.jurisdiction_of`)."""
    why = closed_reason(getattr(site, "pk", site), gaming_date)
    if why is None:
        return None
    control = closed_books_control(site)
    return f"{control}: {why}, so {what} of {gaming_date} cannot be changed. {INSTEAD}"


def register_books_closers(closers: Callable[[], frozenset[str]]) -> None:
    """The books register `closers() -> roles` once, when their app is ready."""
    BOOKS_CLOSERS.register(closers)


def books_closers() -> frozenset[str]:
    """The roles that may close a gaming day's books (House control, accounting.rules.BOOKS_CLOSERS),
    for a lower layer's page to name who takes that step."""
    return BOOKS_CLOSERS()
