"""Closed books, asked from below.

Whether a gaming day's books are closed is the books' answer (`accounting`, which sits above
the custody apps), but the layers below must respect it: the cage records a day's deposit
only once its books are closed, and a count or a slip of a closed day is never changed
(corrections are adjusting entries in the books). So the lower layers ask here and the books
register the answer when their app loads (`accounting.apps`): imports keep pointing down.
"""

from collections.abc import Callable
from datetime import date

BooksClosedCheck = Callable[[int, date], bool]

_check: BooksClosedCheck | None = None


def register_books_closed(check: BooksClosedCheck) -> None:
    """The books register `check(site_id, gaming_date) -> bool` once, when their app is ready."""
    global _check
    _check = check


def books_closed(site_id: int, gaming_date: date) -> bool:
    """Are the books of the site's gaming day closed? False until the books register an answer."""
    return _check is not None and _check(site_id, gaming_date)
