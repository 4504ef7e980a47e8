"""A date of a filed quarter on which nothing was recorded takes an adjusting entry too. Filing
closes every date of the quarter (core.closing), so a fee found later for such a date can be
entered only as an adjustment; it had none to take, since an adjustment points to the closed
books of the day it corrects and a date with nothing of the books never had them closed. The
entry now closes that date's books (its figures nothing, as they stood at the filing) in the
same act and amends the filing. Driven through the API and the daily page, at a Washington
blackjack site (its fees) and read back on the quarter's books check."""

from datetime import date, timedelta

import pytest

from accounting import books as checks
from accounting import services as books
from accounting import summaries
from accounting.models import Adjustment, BooksClose, FilingAmendment
from cardroom.models import Role
from core.audit import AuditEvent
from core.periods import Quarter
from floor.calculations import site_today
from tests.fees.test_books import DAY, _close, _count, fee_day  # noqa: F401
from tests.fees.test_frozen_revenue import fee_day_to_close  # noqa: F401

Q3 = Quarter(2026, 3)
QUIET = date(2026, 8, 21)  # a date of Q3 with nothing recorded on it


@pytest.fixture
def filed(cast, site, fee_day_to_close):  # noqa: F811
    _close(cast, site)
    return books.file_quarter(acting_user=cast[Role.GAMING_MANAGER].user, site=site, quarter=Q3)


def _entry(**fields) -> dict:
    return {"field": "fees", "amount_cents": 800, "reason": "A fee envelope found in the safe.", **fields}


def _post_by_date(api, site, entered_on: date, **fields):
    """An adjusting entry of QUIET named by its site and date, entered on `entered_on`, through the API."""
    entry = _entry(site=site.pk, corrected_date=str(QUIET), recorded_on=str(entered_on), **fields)
    return api.post("/api/v1/adjustments/", entry, format="json")


def _books_check(site, filing):
    summary = summaries.quarter_summary(site, Q3)
    return summary, checks.quarter_books(summary, filing, site.time_zone)


def test_the_api_corrects_a_quiet_date_of_a_filed_quarter_and_amends_the_filing(filed, cast, site, client_for):
    api = client_for(cast[Role.GAMING_MANAGER])
    entered_on = site_today(site) - timedelta(days=1)
    response = _post_by_date(api, site, entered_on)
    assert response.status_code == 201, response.content
    assert response.json()["corrected_date"] == str(QUIET)
    adjustment = Adjustment.objects.get(pk=response.json()["id"])
    closed = adjustment.books_close
    assert (closed.site_id, closed.gaming_date) == (site.pk, QUIET)
    assert closed.figures["books_closed"] is True
    (amendment,) = FilingAmendment.objects.filter(filing=filed)
    assert (amendment.adjustment_id, amendment.figure, amendment.delta_cents) == (
        adjustment.pk,
        "fees_collected_cents",
        800,
    )
    summary, state = _books_check(site, filed)
    # The filed figures stand: the quiet date's books add nothing to the quarter's days.
    assert state.check.state == "equal", state.check.differences
    rows = {label: (f, since, now) for label, f, since, now in checks.filed_beside_now(summary, state)}
    assert rows["Table fees collected"] == (1_600, 800, 2_400)
    (close,) = AuditEvent.objects.filter(action="books.closed", object_id=str(closed.pk))
    assert "nothing was recorded on it when the quarterly summary of 2026Q3 was filed" in close.after["closed_because"]
    assert AuditEvent.objects.filter(action="books.adjusted").count() == 1
    # Once its books are closed, the date's id is given as any closed day's, and a second entry uses it.
    books_of = api.get(f"/api/v1/sites/{site.pk}/daily-summary/?date={QUIET}").json()["books"]
    assert books_of["books_close"] == closed.pk
    again = _post_by_date(api, site, entered_on, amount_cents=-100)
    assert again.status_code == 201, again.content
    assert BooksClose.objects.filter(site=site, gaming_date=QUIET).count() == 1
    # The quarter's page lists both among the filing's amendments, each naming the date it corrects.
    from django.test import Client

    page = Client()
    page.force_login(cast[Role.GAMING_MANAGER].user)
    html = page.get(f"/dashboard/quarter/?site={site.pk}&quarter={Q3}").content.decode()
    listed = html[html.index('id="amendments"') : html.index("</ul>", html.index('id="amendments"'))]
    assert listed.count(f"counted on gaming day {entered_on}") == 2, listed
    assert str(QUIET) in listed


def test_a_refused_entry_to_a_quiet_filed_date_closes_nothing(filed, cast, site, client_for):
    api = client_for(cast[Role.GAMING_MANAGER])
    entered_on = site_today(site) - timedelta(days=1)
    response = _post_by_date(api, site, entered_on, reason=" ")
    assert response.status_code == 400
    assert "reason" in response.json()
    assert not BooksClose.objects.filter(gaming_date=QUIET).exists()
    assert AuditEvent.objects.filter(action="books.closed").count() == 1  # the played day's own close only


def test_a_quiet_date_of_a_quarter_not_filed_is_refused_with_its_rule(cast, site, client_for):
    api = client_for(cast[Role.GAMING_MANAGER])
    entered_on = site_today(site) - timedelta(days=1)
    response = _post_by_date(api, site, entered_on)
    assert response.status_code == 400
    message = response.json()["corrected_date"][0]
    assert message.startswith("House control (closed books): the books of 2026-08-21 at "), message
    assert "enter the record on its day" in message
    assert not BooksClose.objects.exists()


def test_an_entry_names_the_books_it_corrects(cast, site, client_for):
    api = client_for(cast[Role.GAMING_MANAGER])
    response = api.post("/api/v1/adjustments/", _entry(recorded_on=str(site_today(site))), format="json")
    assert response.status_code == 400
    assert response.json()["books_close"][0].startswith("House control (closed books): give the closed books corrected")


def test_another_organizations_site_is_not_found(filed, cast, site, client_for):
    from tests.factories import OrganizationFactory, SiteFactory

    other = SiteFactory(organization=OrganizationFactory(), name="Elsewhere")
    api = client_for(cast[Role.GAMING_MANAGER])
    response = api.post(
        "/api/v1/adjustments/",
        _entry(site=other.pk, corrected_date=str(QUIET), recorded_on=str(site_today(site))),
        format="json",
    )
    assert response.status_code == 400
    assert "site" in response.json()
    assert not BooksClose.objects.filter(gaming_date=QUIET).exists()


def test_the_daily_page_of_a_quiet_filed_date_offers_the_entry(filed, cast, site, client):
    manager = cast[Role.GAMING_MANAGER]
    client.force_login(manager.user)
    page = client.get(f"/dashboard/daily/?site={site.pk}&date={QUIET}").content.decode()
    assert 'id="filed-quiet-day"' in page
    assert "the quarterly summary of 2026Q3 is filed" in page
    assert 'id="adjust-form"' in page
    entered_on = site_today(site) - timedelta(days=1)
    response = client.post(
        f"/dashboard/daily/books/adjust/?site={site.pk}",
        {
            "date": str(QUIET),
            "field": "fees",
            "amount": "8.00",
            "reason": "Envelope found",
            "recorded_on": str(entered_on),
        },
    )
    assert response.status_code == 302
    (adjustment,) = Adjustment.objects.all()
    assert adjustment.books_close.gaming_date == QUIET and adjustment.amount_cents == 800
    page = client.get(f"/dashboard/daily/?site={site.pk}&date={QUIET}").content.decode()
    assert 'id="adjustments-to-this-day"' in page and "Envelope found" in page
    # The shift manager, who records no adjustment, is offered none.
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    assert 'id="adjust-form"' not in client.get(f"/dashboard/daily/?site={site.pk}&date={QUIET}").content.decode()
