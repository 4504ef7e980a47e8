"""A site that changes pack is cited by its new pack at once, in every process (issue 32).

Under gunicorn each worker is its own process: a site's pack changed through one worker (or
straight in the database) must not be read from another worker's memory. Here the site's row is
updated directly (no signal reaches this process, as none reaches another worker) after the
citations have been asked at the site, and the next refusal and retention notice use the new
pack."""

from datetime import date

import pytest

from cardroom.models import Site
from cardroom.retention import retention_notice
from floor.models import GamingDay

from .conftest import DAY

IOU = {"gaming_date": DAY.isoformat(), "source": "bank", "destination": "reserve", "amount_cents": 1000}


def another_worker_sets_the_pack(site, code):
    """The site's pack changed elsewhere: an UPDATE, no save() and no signal in this process."""
    assert Site.objects.filter(pk=site.pk).update(jurisdiction=code) == 1


def test_a_closed_books_refusal_follows_the_sites_new_pack(site, client_for, cashier, chips, closed_day):
    api = client_for(cashier)
    first = api.post("/api/v1/cage/ious/", {"site": site.pk, **IOU}, format="json")
    assert first.status_code == 400
    assert first.json()["gaming_date"][0].startswith("House control (closed books, ND 99-01.3-08-16(1)(g)): ")

    another_worker_sets_the_pack(site, "NY")
    second = api.post("/api/v1/cage/ious/", {"site": site.pk, **IOU}, format="json")
    assert second.status_code == 400
    text = second.json()["gaming_date"][0]
    assert text.startswith("House control (closed books): ") and "99-01.3" not in text


@pytest.mark.parametrize("code", ["WA-HB", "NY"])
def test_a_retention_notice_follows_the_sites_new_pack(site, cashier, closed_day, code):
    day = GamingDay.objects.get(pk=closed_day.pk)  # its site not loaded: read from the database
    assert retention_notice(day) == f"Retain until {date(2029, 12, 31)} (ND 99-01.3-08-16)"

    another_worker_sets_the_pack(site, code)
    assert retention_notice(GamingDay.objects.get(pk=closed_day.pk)).endswith("(House control)")
    # The same row object read before the change asks the database too (no per-process memory).
    assert retention_notice(day).endswith("(House control)")


def test_within_one_request_a_site_is_read_once(site, closed_day, django_assert_num_queries):
    """Inside a request (or a Celery task) the site's pack is read once per site id, so a page
    listing many records costs no query per row for their citations."""
    from core import citations

    days = list(GamingDay.objects.filter(pk=closed_day.pk))
    with citations.request_scope():
        with django_assert_num_queries(1):
            for _ in range(5):
                assert citations.jurisdiction_of(days[0]) == "ND"
    with django_assert_num_queries(2):  # outside a scope: read each time
        citations.jurisdiction_of(days[0])
        citations.jurisdiction_of(days[0])
