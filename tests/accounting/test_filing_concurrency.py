"""Two sites of an organization filing the same quarter at once, after a third filed it: each
later filing amends the earlier returns by what it changes of the AGP recorded at the sites, so
the returns' amendments add up to the two sites' AGP once, on whichever database the suite runs
(SQLite by default, PostgreSQL with DATABASE_URL): an organization's filings are written one at
a time (accounting.services.file_quarter locks the organization)."""

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from accounting import services
from accounting.amendments import sites_agp_as_it_stands
from accounting.models import FilingAmendment, QuarterFiling
from cardroom.models import Role
from tests.accounting.scenario import Scenario
from tests.accounting.test_quarter_filing import DAY, Q3, play
from tests.factories import SiteFactory, TableFactory


def played_and_closed(site, people, manager, drop):
    play(Scenario(site, people), TableFactory(site=site, number=1), DAY, drop=drop)
    services.close_books(acting_user=manager.user, site=site, gaming_date=DAY)


@pytest.mark.django_db(transaction=True)
def test_two_sites_filing_at_once_amend_the_earlier_return_by_their_agp_once(site, org, people, cast):
    manager = cast[Role.GAMING_MANAGER]
    played_and_closed(site, people, manager, 100_000)
    first = services.file_quarter(acting_user=manager.user, site=site, quarter=Q3)
    later = [SiteFactory(organization=org, name=name) for name in ("Moose Lodge", "Legion Post")]
    for where, drop in zip(later, (300_000, 500_000), strict=True):
        played_and_closed(where, people, manager, drop)
    errors, barrier = [], threading.Barrier(2)

    def work(site_id):
        try:
            user = get_user_model().objects.get(pk=manager.user_id)
            where = type(site).objects.get(pk=site_id)
            barrier.wait()
            services.file_quarter(acting_user=user, site=where, quarter=Q3)
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=work, args=(s.pk,)) for s in later]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    if connection.vendor == "postgresql":
        assert errors == []  # the organization's lock serialises them: neither fails
    filings = list(QuarterFiling.objects.filter(quarter="2026Q3").order_by("filed_at", "pk"))
    assert len(filings) == 3 - len(errors)  # on SQLite a filing may meet the other's write lock: refused whole
    last = filings[-1].figures["tax"]["agp_cents"]
    assert {sites_agp_as_it_stands(f) for f in filings} == {last}  # every return stands on the same AGP
    from_later = FilingAmendment.objects.filter(filing=first)
    assert sum(a.delta_cents for a in from_later) == last - first.figures["tax"]["agp_cents"]
