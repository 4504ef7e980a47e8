"""The deposits page says whether each day's books are closed (the books' answer, core.closing),
not whether its gaming day closed on the floor, and offers the Record form only where the books
are closed and nothing is deposited: a deposit waits for the books (ND 99-01.3-03-10). Before, a
day closed on the floor but not in the books read "closed" with the form offered, and recording
then failed telling to close the gaming day, already closed."""

import pytest

from cage.models import BankDeposit
from cardroom.models import Role
from tests.page_support import at_site, page

from .conftest import DAY, close_books_directly

REFUSAL = (
    f"House control: the books of {DAY} at {{site}} are not closed; "
    "close the day's books (daily page) before recording its deposit."
)


def _row(html: str, day) -> str:
    start = html.index(f'id="day-{day.pk}"')
    return html[start : html.index("</tr>", start)]


@pytest.fixture
def cashier_at(client, cast, site):
    return at_site(client, cast[Role.CASHIER], site)


def test_a_day_closed_on_the_floor_reads_books_not_closed_and_offers_no_deposit_form(cashier_at, day_in_play):
    row = _row(page(cashier_at.get("/cage/deposits/")), day_in_play)
    assert '<td class="books">not closed</td>' in row
    assert "deposit-form" not in row
    assert "close the day's books (daily page) first" in row


def test_once_the_books_are_closed_the_day_reads_closed_and_offers_the_form(cashier_at, day_in_play, site, cast):
    close_books_directly(site, DAY, cast[Role.SHIFT_MANAGER])
    row = _row(page(cashier_at.get("/cage/deposits/")), day_in_play)
    assert '<td class="books">closed</td>' in row and "deposit-form" in row
    posted = {"amount_cents": "12.34", "deposited_on": "2026-11-04", "reference": ""}
    assert cashier_at.post(f"/cage/deposits/day/{day_in_play.pk}/", posted).status_code == 302
    row = _row(page(cashier_at.get("/cage/deposits/")), day_in_play)
    assert "deposit-form" not in row and "$12.34" in row


def test_recording_the_deposit_of_a_day_whose_books_are_open_says_to_close_the_books(cashier_at, day_in_play, site):
    posted = {"amount_cents": "12.34", "deposited_on": "2026-11-04", "reference": ""}
    response = cashier_at.post(f"/cage/deposits/day/{day_in_play.pk}/", posted)
    assert response.status_code == 400
    assert REFUSAL.format(site=site) in page(response)
    assert not BankDeposit.objects.exists()


def test_the_books_of_many_days_are_read_in_a_fixed_number_of_queries(
    cashier_at, site, cast, day_in_play, django_assert_max_num_queries
):
    from .conftest import make_gaming_day

    with django_assert_max_num_queries(40) as one_day:
        cashier_at.get("/cage/deposits/")
    for n in range(3, 23):
        make_gaming_day(site, DAY.replace(day=n), cast[Role.SHIFT_MANAGER], books=n % 2 == 0)
    with django_assert_max_num_queries(len(one_day.captured_queries)):
        html = page(cashier_at.get("/cage/deposits/"))
    assert html.count('<td class="books">closed</td>') == 10 and html.count('<td class="books">not closed</td>') == 11
