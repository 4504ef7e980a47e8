"""A day of the books with no gaming day opened on it (a tournament, an adjustment, fees or
sessions recorded on it), as the daily report shows it: its heading says no gaming day was
opened, with its books' state, at every pack, as the daily page does."""

# ruff: noqa: F811  (pytest fixtures imported from test_kind_daily are redefined as arguments)

import pytest

from cardroom.models import Role
from floor import services as floor
from tests.page_support import at_site, page
from tests.reports.test_kind_daily import auditor_api, download, pdf_text, run_report  # noqa: F401
from tests.tournaments.conftest import announce
from tournaments import services as tournaments
from tournaments.models import FeeKind

pytestmark = pytest.mark.django_db


def a_tournament_played(cast, site):
    """A tournament today, an entry fee collected: a day of the books with no gaming day opened."""
    tournament = announce(cast[Role.SHIFT_MANAGER], site)
    tournaments.collect_fee(
        acting_user=cast[Role.CASHIER].user, tournament=tournament, kind=FeeKind.ENTRY, player_name="Ann Lee"
    )
    return tournament.gaming_date


def heading(api, site, day) -> str:
    text = pdf_text(download(api, run_report(api, kind="daily", site=site.pk, start=str(day), end=str(day))))
    return next(line for line in text.splitlines() if line.startswith(f"Gaming date {day}"))


def test_a_tournament_day_without_a_gaming_day_is_headed_no_gaming_day_opened(auditor_api, cast, site):
    day = a_tournament_played(cast, site)
    assert heading(auditor_api, site, day) == f"Gaming date {day} (no gaming day opened; books NOT CLOSED)"


def test_a_gaming_day_opened_and_not_closed_is_still_headed_not_closed(auditor_api, cast, site):
    day = a_tournament_played(cast, site)
    floor.open_gaming_day(acting_user=cast[Role.SHIFT_MANAGER].user, site=site, gaming_date=day)
    assert heading(auditor_api, site, day) == f"Gaming date {day} (gaming day NOT CLOSED)"


def test_the_daily_page_and_the_report_say_the_same_of_the_day(auditor_api, client, cast, site):
    day = a_tournament_played(cast, site)
    shown = page(at_site(client, cast[Role.AUDITOR], site).get(f"/dashboard/daily/?date={day}"))
    assert "No gaming day was opened on this date" in shown
    assert "no gaming day opened" in heading(auditor_api, site, day)
