"""A station (a shared terminal: no employee, no role) reads by itself only what its site's pit
needs (cardroom.access.STATION_READS, house control): every other read of the API, count
figures, cage money, figures and reports among them, is a 403 naming the rule."""

import pytest

from cardroom.access import STATION_READS
from cardroom.models import Role
from floor import services as floor_services
from tests.api.test_list_queries import list_paths
from tests.floor.conftest import FILL

PIT_LISTS = {
    "/api/v1/sites/",
    "/api/v1/tables/",
    "/api/v1/chip-denominations/",
    "/api/v1/gaming-days/",
    "/api/v1/dealer-shifts/",
    "/api/v1/slip-books/",
    "/api/v1/fill-slips/",
    "/api/v1/credit-slips/",
    "/api/v1/card-checks/",  # the tables' card checks the pit shows (where the site's pack states them)
}


@pytest.fixture
def fill(open_table, cast):
    return floor_services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=open_table, chips=FILL)


def schema_gets(api) -> list[str]:
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    return sorted(path for path, operations in schema["paths"].items() if "get" in operations)


def test_a_station_lists_only_the_pits_records_and_is_refused_every_other_list(client_for, manager, station, fill):
    api = client_for(manager)
    paths = list_paths(api)
    assert PIT_LISTS < set(paths) and len(paths) >= 40
    api.force_authenticate(station.user)
    for path in paths:
        response = api.get(path)
        if path in PIT_LISTS:
            assert response.status_code == 200, (path, response.content[:200])
        else:
            assert response.status_code == 403, (path, response.status_code)
            assert response.json()["detail"] == STATION_READS.refusal(), path
    slips = api.get("/api/v1/fill-slips/").json()["results"]
    assert [slip["id"] for slip in slips] == [fill.pk]


def test_a_station_reads_one_pit_record_and_its_sites_queue_but_no_figures_of_the_site(
    client_for, manager, station, site, org, fill
):
    api = client_for(manager)
    gets = schema_gets(api)
    api.force_authenticate(station.user)
    assert api.get(f"/api/v1/fill-slips/{fill.pk}/").status_code == 200
    assert api.get(f"/api/v1/tables/{fill.table_id}/").status_code == 200
    assert api.get(f"/api/v1/sites/{site.pk}/custody-queues/").status_code == 200
    assert api.get("/api/v1/me/").status_code == 200
    refused = [
        path.replace("{id}", str(org.pk if path.startswith("/api/v1/organizations/") else site.pk)).replace(
            "{site_pk}", str(site.pk)
        )
        for path in gets
        if path.startswith(("/api/v1/sites/{", "/api/v1/organizations/{"))
        and not path.endswith(("/custody-queues/", "/slip-register/"))
    ]
    refused.remove(f"/api/v1/sites/{site.pk}/")
    assert len(refused) >= 6  # the daily and quarter figures, the filing, the tax, the other games' AGP...
    for path in refused:
        response = api.get(
            path, {"quarter": "2026Q3", "start": "2026-07-01", "end": "2026-07-02", "date": "2026-07-01"}
        )
        assert response.status_code == 403, (path, response.status_code)
        assert response.json()["detail"] == STATION_READS.refusal(), path


def test_a_persons_token_still_reads_what_their_role_may(client_for, manager, station):
    assert client_for(manager).get("/api/v1/count-sessions/").status_code == 200
