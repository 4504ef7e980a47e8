"""bench_pages measures the two data sizes in turns (issue 37): the small size is kept as a copy of
the database before the data grows (`benchmarks.pages.TwoSizes`), and each request of an address
goes to the size it is counted for. Measured one size after the other, a change of the machine's
speed between the two halves showed as growth on pages that read no more rows. On SQLite, the
database bench_pages reads; on PostgreSQL, where a copy needs the database alone, the walk takes
the sizes one after the other, and these tests hold it to that."""

from pathlib import Path

import pytest
from django.db import DEFAULT_DB_ALIAS, connections

from benchmarks import pages
from cardroom.models import Site
from tests.factories import SiteFactory

pytestmark = pytest.mark.django_db(transaction=True)

SITES = "/api/v1/sites/"


def measured_one_after_the_other() -> bool:
    """PostgreSQL: no copy, the sizes one after the other (`TwoSizes.available` says so)."""
    return connections[DEFAULT_DB_ALIAS].vendor != "sqlite" and pages.TwoSizes.available() is False


def test_each_request_reads_the_size_it_is_counted_for_and_the_copy_goes(org, site, manager, client):
    if measured_one_after_the_other():
        return
    client.force_login(manager.user)
    small = {SITES: pages.measure(client, SITES)[0]}
    sizes = pages.TwoSizes().keep_small()
    original = sizes.large
    copy = sizes.small.settings_dict["NAME"]
    try:
        for n in range(3):
            SiteFactory(organization=org, name=f"Grown {n}")
        large = {SITES: pages.measure(client, SITES)[0]}
        assert (small[SITES].rows, large[SITES].rows) == (1, 4)

        sizes.use("small")
        assert Site.objects.filter(organization=org).count() == 1
        assert pages.measure(client, SITES)[0].rows == 1
        sizes.use("large")
        assert Site.objects.filter(organization=org).count() == 4

        # Two more requests an address at each size, in turns: each size's least time of three.
        before = pages.measure(client, SITES)[0].rows
        sizes.in_turns(client, [SITES], {"small": small, "large": large}, 2)
        assert before == 4
        assert len(small[SITES].seconds) == len(large[SITES].seconds) == 3
    finally:
        sizes.close()
    assert connections[DEFAULT_DB_ALIAS] is original
    assert Site.objects.filter(organization=org).count() == 4  # the grown database, the walk's own
    assert not Path(copy).exists()


def test_a_page_that_answers_otherwise_at_the_small_size_stops_the_walk(org, site, manager, client):
    """A size that lost its data (a copy made at the wrong moment) would measure error pages:
    an address whose status differs from its first reading stops the walk instead."""
    if measured_one_after_the_other():
        return
    client.force_login(manager.user)
    detail = f"/api/v1/sites/{site.pk}/"
    sizes = pages.TwoSizes().keep_small()
    try:
        grown = SiteFactory(organization=org, name="Grown")
        address = f"/api/v1/sites/{grown.pk}/"
        measures = {"small": {address: pages.measure(client, address)[0]}, "large": {}}
        measures["large"][address] = pages.measure(client, address)[0]
        assert measures["large"][address].status == 200
        sizes.use("large")
        assert pages.measure(client, detail)[0].status == 200
        with pytest.raises(RuntimeError, match="404 at the small size"):
            sizes.in_turns(client, [address], measures, 1)
    finally:
        sizes.close()
