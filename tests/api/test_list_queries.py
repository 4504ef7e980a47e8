"""Every list endpoint is paged and answers in a bounded number of queries: the same number
for one week of the demo as for three, and for a page of one row as for a full page (no query
per row)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from cardroom.models import Employee
from core import limits
from tests.api.demo import load_short_demo
from tests.factories import TableFactory

pytestmark = pytest.mark.django_db


def list_paths(client) -> list[str]:
    """Every GET without a path parameter that takes `?limit=`: the schema's paged lists."""
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    paths = []
    for path, operations in schema["paths"].items():
        names = {p["name"] for p in operations.get("get", {}).get("parameters", [])}
        if "get" in operations and "{" not in path and "limit" in names:
            paths.append(path)
    return sorted(paths)


def measure(client, path, limit=limits.MAX_PAGE_SIZE) -> tuple[int, int]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path, {"limit": limit})
    assert response.status_code == 200, (path, response.content[:300])
    page = response.json()
    assert set(page) == {"count", "next", "previous", "results"}, path
    return len(captured), len(page["results"])


@pytest.mark.unshared  # the demo refuses an organization of its name it did not make: the module's shared one (NotTheDemos)
def test_every_list_answers_in_the_same_number_of_queries_for_a_small_and_a_large_data_set(
    django_assert_max_num_queries,
):
    load_short_demo(weeks=1)
    client = APIClient()
    client.force_authenticate(Employee.objects.get(user__username="gm").user)
    paths = list_paths(client)
    assert len(paths) >= 40
    small = {path: measure(client, path) for path in paths}

    load_short_demo(weeks=3)
    grew, per_row_checked = 0, 0
    for path in paths:
        queries, rows = small[path]
        with django_assert_max_num_queries(queries, info=path):
            large_rows = measure(client, path)[1]
        grew += large_rows > rows
        if large_rows > 1:  # one row costs as many queries as a full page
            per_row_checked += 1
            assert measure(client, path, limit=1)[0] == measure(client, path)[0], path
    assert grew >= 10 and per_row_checked >= 25
    the_count_sessions_list_shows_each_box_as_a_session_does(client)


def test_a_page_holds_the_default_number_of_rows_and_at_most_the_maximum(client_for, manager, site):
    for number in range(1, limits.DEFAULT_PAGE_SIZE + 6):
        TableFactory(site=site, number=number)
    api = client_for(manager)
    page = api.get("/api/v1/tables/").json()
    assert page["count"] == limits.DEFAULT_PAGE_SIZE + 5 and len(page["results"]) == limits.DEFAULT_PAGE_SIZE
    assert page["next"]
    assert len(api.get("/api/v1/tables/", {"limit": limits.MAX_PAGE_SIZE}).json()["results"]) == page["count"]
    for limit in (0, limits.MAX_PAGE_SIZE + 1, "99999999999999999999", "x"):
        refused = api.get("/api/v1/tables/", {"limit": limit})
        assert refused.status_code == 400 and "limit" in refused.json(), limit
    refused = api.get("/api/v1/tables/", {"offset": limits.MAX_OFFSET + 1})
    assert refused.status_code == 400 and "offset" in refused.json()


def the_count_sessions_list_shows_each_box_as_a_session_does(api):
    """(Part of the test above, on its data: the list reads every box's state in batch.)"""
    page = api.get("/api/v1/count-sessions/", {"limit": limits.MAX_PAGE_SIZE}).json()
    assert page["count"] >= 10
    boxes = [box for session in page["results"] for box in session["boxes"]]
    assert boxes and {box["status"] for box in boxes} <= {"awaiting", "counting", "difference", "agreed"}
    one = page["results"][0]
    detail = api.get(f"/api/v1/count-sessions/{one['id']}/").json()
    summary_keys = set(one["boxes"][0])
    assert [{k: b[k] for k in summary_keys} for b in detail["boxes"]] == one["boxes"]
