"""Closing the books and recording an adjusting entry from the daily page, through the services."""

from datetime import date

import pytest

from accounting.models import Adjustment, BooksClose
from cardroom.models import Role
from tests.accounting.scenario import Scenario
from tests.factories import TableFactory

DAY = date(2026, 8, 14)


@pytest.fixture
def complete_day(site, people):
    scenario = Scenario(site, people)
    table = TableFactory(site=site, number=1)
    scenario.tray(table, DAY, "opener", 100_000)
    scenario.tray(table, DAY, "closer", 90_000)
    scenario.drop(table, DAY, 50_000)
    scenario.bank(DAY, "start", 500_000, 300_000)
    scenario.bank(DAY, "end", 500_000, 300_000)
    return scenario


def post(client, site, what, **data):
    return client.post(f"/dashboard/daily/books/{what}/?site={site.pk}", {"date": DAY.isoformat(), **data}, follow=True)


def test_a_shift_manager_closes_the_books_from_the_daily_page(client, cast, site, complete_day):
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    page = client.get(f"/dashboard/daily/?site={site.pk}&date={DAY}").content.decode()
    assert 'id="close-books"' in page
    response = post(client, site, "close")
    assert 'id="books-closed"' in response.content.decode()
    assert BooksClose.objects.filter(site=site, gaming_date=DAY).exists()


def test_closing_a_day_without_its_bank_count_is_refused_with_the_rule(client, cast, site, people):
    scenario = Scenario(site, people)
    table = TableFactory(site=site, number=1)
    scenario.tray(table, DAY, "opener", 100_000)
    scenario.tray(table, DAY, "closer", 90_000)
    scenario.drop(table, DAY, 50_000)
    client.force_login(cast[Role.GAMING_MANAGER].user)
    response = post(client, site, "close")
    assert "ND 99-01.3-08-16(1)(a)" in response.content.decode()
    assert not BooksClose.objects.exists()


def test_the_auditor_may_not_close_the_books(client, cast, site, complete_day):
    client.force_login(cast[Role.AUDITOR].user)
    assert 'id="close-books"' not in client.get(f"/dashboard/daily/?site={site.pk}&date={DAY}").content.decode()
    response = post(client, site, "close")
    assert response.status_code == 403
    assert not BooksClose.objects.exists()


def test_a_gaming_manager_records_an_adjusting_entry_shown_on_both_days(client, cast, site, complete_day):
    client.force_login(cast[Role.GAMING_MANAGER].user)
    post(client, site, "close")
    response = post(
        client,
        site,
        "adjust",
        field="drop",
        table_number="1",
        amount="-20.00",
        recorded_on="2026-08-20",
        reason="Recount of box 1 found a $20 bill counted twice",
    )
    assert 'id="adjustments-to-this-day"' in response.content.decode()
    adjustment = Adjustment.objects.get()
    assert (adjustment.amount_cents, adjustment.table.number) == (-2_000, 1)
    later = client.get(f"/dashboard/daily/?site={site.pk}&date=2026-08-20").content.decode()
    assert 'id="adjustments-recorded"' in later and "-$20.00" in later


def test_a_bad_adjustment_changes_nothing_and_says_why(client, cast, site, complete_day):
    client.force_login(cast[Role.GAMING_MANAGER].user)
    post(client, site, "close")
    response = post(
        client, site, "adjust", field="drop", table_number="1", amount="12.345", recorded_on="2026-08-20", reason="x"
    )
    assert "amount" in response.content.decode()
    assert not Adjustment.objects.exists()


@pytest.mark.parametrize("amount", ["99999999999999999999", "1e9", "-10000000.01"])
def test_an_adjustment_past_the_largest_amount_is_refused_on_the_page_and_in_the_api(
    client, client_for, cast, site, complete_day, amount
):
    """The page's amount had no bound: twenty nines were a 500 (past SQLite's integer), $1e9 was
    written into the books; the service holds every amount to the house's largest, as other amounts."""
    client.force_login(cast[Role.GAMING_MANAGER].user)
    post(client, site, "close")
    response = post(client, site, "adjust", field="drop", table_number="1", amount=amount,
                    recorded_on="2026-08-20", reason="Recount")  # fmt: skip
    assert response.status_code == 200
    assert "The correction must be at most 1,000,000,000 cents ($10,000,000.00; house control)." in (
        response.content.decode()
    )
    closed = BooksClose.objects.get()
    api = client_for(cast[Role.GAMING_MANAGER]).post(
        "/api/v1/adjustments/",
        {"books_close": closed.pk, "table": closed.site.tables.get().pk, "field": "drop",
         "amount_cents": 1_000_000_001, "reason": "Recount", "recorded_on": "2026-08-20"},
        format="json",
    )  # fmt: skip
    assert api.status_code == 400 and "amount_cents" in api.json()
    long = post(client, site, "adjust", field="drop", table_number="1", amount="-20.00",
                recorded_on="2026-08-20", reason="x" * 2001)  # fmt: skip
    assert "The reason is at most 2,000 characters (house control)." in long.content.decode()
    assert not Adjustment.objects.exists()


def test_the_daily_total_is_the_sum_of_its_rows_with_each_adjustment_a_row(client, cast, site, complete_day):
    import re

    client.force_login(cast[Role.GAMING_MANAGER].user)
    post(client, site, "close")
    post(client, site, "adjust", field="drop", table_number="1", amount="-20.00",
         recorded_on="2026-08-20", reason="Recount of box 1 found a $20 bill counted twice")  # fmt: skip
    page = client.get(f"/dashboard/daily/?site={site.pk}&date=2026-08-20").content.decode()
    rows = re.findall(r'<tr[^>]*data-(?:table|adjustment)="[^"]*"[^>]*>(.*?)</tr>', page, re.S)
    total = re.search(r'<tr[^>]*id="total">(.*?)</tr>', page, re.S).group(1)

    def drop(row: str) -> str:
        return re.findall(r'<td class="text-end[^"]*">([^<]*)</td>', row)[0]

    assert [drop(row) for row in rows] == ["-$20.00"] and drop(total) == "-$20.00"
    assert "corrects 2026-08-14" in rows[0] and "counted twice" in rows[0]


@pytest.mark.parametrize("number", ["x", "-1", "99999999999999999999", "9"])
def test_an_adjustment_naming_no_table_of_the_site_is_refused_citing_the_rule_not_a_500(
    client, cast, site, complete_day, number
):
    client.force_login(cast[Role.GAMING_MANAGER].user)
    post(client, site, "close")
    response = post(client, site, "adjust", field="drop", table_number=number, amount="-20.00",
                    recorded_on="2026-08-20", reason="Recount")  # fmt: skip
    assert response.status_code == 200  # back on the daily page, the refusal above it
    assert f"House control (closed books): no table {number if number.isdigit() else repr(number)} at {site}" in (
        response.content.decode().replace("&#x27;", "'")
    )
    assert not Adjustment.objects.exists()


def test_a_refused_adjustment_comes_back_filled_in_with_the_refused_field_marked(client, cast, site, complete_day):
    client.force_login(cast[Role.GAMING_MANAGER].user)
    post(client, site, "close")
    typed = {"field": "drop", "table_number": "7", "amount": "-20.00", "recorded_on": "2026-08-20",
             "reason": "Recount of box 1 found a $20 bill counted twice"}  # fmt: skip
    page = post(client, site, "adjust", **typed).content.decode()
    form = page[page.index('id="adjust-form"') : page.index("</form>", page.index('id="adjust-form"'))]
    assert 'value="Recount of box 1 found a $20 bill counted twice"' in form.replace("&#x27;", "'")
    assert 'value="-20.00"' in form and 'value="2026-08-20"' in form and '<option value="drop" selected>' in form
    assert 'is-invalid" name="table_number"' in form and f"no table 7 at {site}" in form
    assert 'is-invalid" name="amount"' not in form and not Adjustment.objects.exists()
    again = client.get(f"/dashboard/daily/?site={site.pk}&date={DAY}").content.decode()  # read once
    assert "Recount of box 1" not in again[again.index('id="adjust-form"') :]
