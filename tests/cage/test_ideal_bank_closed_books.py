"""An ideal bank dated into closed books is refused (House control (closed books)): the check asks
the same queries, of the same size, whether the bank has 3 closed days from the date or 30, and
names the latest of them whose books are closed."""

import re
from datetime import date, timedelta

from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounting import services as books
from cage import services
from cage.models import IdealBank
from cardroom.models import Role

from .conftest import make_gaming_day
from .test_bank_counts import CASH, CHIPS

FROM = date(2026, 8, 1)  # the ideal bank's date, before every bank day below
FIRST = date(2026, 8, 3)


def bank_day(cast, site, day: date, *, close: bool) -> None:
    """A day of the bank: the floor's gaming day, its starting and ending counts, its books closed."""
    make_gaming_day(site, day, cast[Role.SHIFT_MANAGER], books=False)
    for kind in ("start", "end"):
        services.record_bank_count(
            acting_user=cast[Role.CASHIER].user, site=site, gaming_date=day, kind=kind, cash=CASH, chips=CHIPS
        )
    if close:
        books.close_books(acting_user=cast[Role.GAMING_MANAGER].user, site=site, gaming_date=day)


def refused(cast, site) -> tuple[str, list[str]]:
    """The refusal of an ideal bank from FROM, and the SQL it asked."""
    with CaptureQueriesContext(connection) as queries:
        try:
            services.set_ideal_bank(
                acting_user=cast[Role.GAMING_MANAGER].user, site=site, amount_cents=900_000, effective_on=FROM
            )
        except ValidationError as error:
            [message] = error.message_dict["effective_on"]
        else:
            raise AssertionError("an ideal bank dated into closed books was set")
    return message, [query["sql"] for query in queries.captured_queries]


def statements(sql: list[str]) -> list[str]:
    """The statements asked, the dates in them masked (the latest closed day is another date) and
    the savepoints' numbered names left out."""
    return [re.sub(r"'\d{4}-\d\d-\d\d'", "'DATE'", text) for text in sql if "SAVEPOINT" not in text]


def expected(last: date) -> str:
    return (
        f"House control (closed books, ND 99-01.3-08-16(1)(g)): the books of {last} are closed, so an ideal bank "
        f"in force from {FROM} would change the bank of a closed day. Give a date after {last}."
    )


def test_an_ideal_bank_before_3_or_30_closed_bank_days_asks_the_same_queries_and_names_the_latest(site, chips, cast):
    """The closed days are asked in the bank counts' own query (core.closing.closed_on), not as a
    list of every bank day from the date: the statements are as many and the same with 30 closed
    days as with 3. A later bank day whose books are open is not the one named."""
    for n in range(3):
        bank_day(cast, site, FIRST + timedelta(days=n), close=True)
    open_day = FIRST + timedelta(days=40)
    bank_day(cast, site, open_day, close=False)
    refused(cast, site)  # the site's pack and citations read once, as any first refusal does
    message, few = refused(cast, site)
    assert message == expected(FIRST + timedelta(days=2))

    for n in range(3, 30):
        bank_day(cast, site, FIRST + timedelta(days=n), close=True)
    message, many = refused(cast, site)
    assert message == expected(FIRST + timedelta(days=29))
    assert len(many) == len(few) and statements(many) == statements(few)
    assert not IdealBank.objects.filter(site=site).exists()

    after = services.set_ideal_bank(
        acting_user=cast[Role.GAMING_MANAGER].user,
        site=site,
        amount_cents=900_000,
        effective_on=FIRST + timedelta(days=30),
    )
    assert after.effective_on < open_day  # an open bank day takes it
