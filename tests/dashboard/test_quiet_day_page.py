"""The daily page of a date with nothing of the books and no cash at the cage says so once: the
walk found Bismarck's 2026-12-06 reading "Cash profit not known", "The bank was not counted ...: no
cash profit", "Books not closed: these figures may still change" and "Bank deposit recorded —
not yet deposited" beside "its books have nothing to close" and "no deposit due"."""

from datetime import date, timedelta

from cardroom.models import Role
from tests.accounting.books_days import count_bank, on
from tests.page_support import at_site, page

QUIET = date(2026, 11, 29)


def daily_page(client, cast, site, day) -> str:
    with on(site, day + timedelta(days=1), hour=site.business_day_start_hour + 1):
        return page(at_site(client, cast[Role.GAMING_MANAGER], site).get(f"/dashboard/daily/?date={day}"))


def test_a_quiet_day_says_once_that_nothing_is_recorded(cast, site, client):
    shown = daily_page(client, cast, site, QUIET)
    assert 'id="quiet-day"' in shown and "no deposit due: nothing of the books is recorded on this day" in shown
    assert 'id="nothing-to-close"' in shown
    for contradiction in ("not known", "may still change", "not yet deposited", 'id="no-bank-count"'):
        assert contradiction not in shown, contradiction


def test_a_quiet_day_whose_bank_was_counted_does_not_say_it_was_not(cast, site, client):
    """The page of a date with nothing of the books reads no bank count; it said "The bank was not
    counted at the start and end of this day" of a day whose bank was."""
    with on(site, QUIET):
        count_bank(cast, site, QUIET, 100_000, 100_000)
    shown = daily_page(client, cast, site, QUIET)
    assert 'id="quiet-day"' in shown and "not counted" not in shown
