"""A day's figures changed, told from below.

The books (`accounting`, above the custody apps) keep per-site, per-day figure snapshots
(`accounting.day_figures`). Most writes that change a day's custody are row saves the books
watch themselves (Django signals); a write that bypasses `save()` (a conditional
`QuerySet.update()`, such as ending a dealer shift) tells the books here, in its own
transaction, so the snapshot of that site-day is marked stale. The books register the answer
when their app loads: imports keep pointing down."""

from collections.abc import Callable
from datetime import date

from .hooks import DAY_CHANGED

DayChanged = Callable[[int, date], None]



def register_day_changed(changed: DayChanged) -> None:
    """The books register `changed(site_id, gaming_date)` once, when their app is ready."""
    DAY_CHANGED.register(changed)


def day_changed(site_id: int, gaming_date: date) -> None:
    """The custody of the site's gaming date changed (call inside the write's transaction)."""
    DAY_CHANGED(site_id, gaming_date)
