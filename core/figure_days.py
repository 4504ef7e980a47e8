"""A day's figures changed, told from below.

The books (`accounting`, above the custody apps) keep per-site, per-day figure snapshots
(`accounting.day_figures`). Most writes that change a day's custody are row saves the books
watch themselves (Django signals); a write that bypasses `save()` (a conditional
`QuerySet.update()`, such as ending a dealer shift) tells the books here, in its own
transaction, so the snapshot of that site-day is marked stale. A service that sends several
statements in one message (a slip's insert on PostgreSQL) asks for the marking as a statement
to send with them (`day_changed_sql`), and the row's save then finds the day marked. The books
register the answers when their app loads: imports keep pointing down."""

from collections.abc import Callable
from datetime import date

from .hooks import DAY_CHANGED, DAY_CHANGED_SQL

DayChanged = Callable[[int, date], None]
DayChangedSql = Callable[[int, date], tuple[str, list] | None]


def register_day_changed(changed: DayChanged, statement: DayChangedSql) -> None:
    """The books register `changed(site_id, gaming_date)` and `statement(site_id,
    gaming_date)` (as `day_changed_sql` answers) once, when their app is ready."""
    DAY_CHANGED.register(changed)
    DAY_CHANGED_SQL.register(statement)


def day_changed(site_id: int, gaming_date: date) -> None:
    """The custody of the site's gaming date changed (call inside the write's transaction)."""
    DAY_CHANGED(site_id, gaming_date)


def day_changed_sql(site_id: int, gaming_date: date) -> tuple[str, list] | None:
    """`day_changed` as a statement (and its parameters) for a service to send in its own
    message, with the day then taken as marked in the transaction (so the row's save does not
    mark it again); None when there is nothing to send (a database where a message holds one
    statement, or the day already marked in the transaction)."""
    return DAY_CHANGED_SQL(site_id, gaming_date)
