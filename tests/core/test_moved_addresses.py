"""Each app's pages under its own prefix and namespace (issue 34): the floor's under /floor/
(`floor:`), the figures and the dashboard under /dashboard/ (`dashboard:`), the day sheet
under /accounting/ (`accounting:`). Every old address answers a permanent redirect to its
new one, keeping the query string; the old URL names are gone."""

import pytest
from django.urls import NoReverseMatch, resolve, reverse
from django.views.generic import RedirectView

from floor import urls as floor_urls

# Every old address beside its new one (ids and words as the routes take them).
MOVED = [
    ("/accounting/floor/", "/floor/"),
    ("/accounting/floor/open-day/", "/floor/open-day/"),
    ("/accounting/floor/close-day/", "/floor/close-day/"),
    ("/accounting/floor/close-day/carry/", "/floor/close-day/carry/"),
    ("/accounting/tables/7/dealer/", "/floor/tables/7/dealer/"),
    ("/accounting/tables/7/opener/", "/floor/tables/7/opener/"),
    ("/accounting/dealer-shifts/7/end/", "/floor/dealer-shifts/7/end/"),
    ("/accounting/slips/new/fill/", "/floor/slips/new/fill/"),
    ("/accounting/slips/7/", "/floor/slips/7/"),
    ("/accounting/slips/7/pdf/", "/floor/slips/7/pdf/"),
    ("/accounting/slips/7/verify/", "/floor/slips/7/verify/"),
    ("/accounting/queues/", "/floor/queues/"),
    ("/accounting/queues/live/", "/floor/queues/live/"),
    ("/accounting/pit/", "/floor/pit/"),
    ("/accounting/sites/7/pit/", "/floor/sites/7/pit/"),
    ("/accounting/sites/7/pit/live/", "/floor/sites/7/pit/live/"),
    ("/accounting/register/", "/floor/register/"),
    ("/accounting/slip-books/", "/floor/slip-books/"),
    ("/figures/daily/", "/dashboard/daily/"),
    ("/figures/daily/books/day/", "/dashboard/daily/books/day/"),
    ("/figures/quarter/", "/dashboard/quarter/"),
    ("/figures/quarter/file/", "/dashboard/quarter/file/"),
    ("/figures/quarter/other-games/", "/dashboard/quarter/other-games/"),
    ("/figures/dealers/", "/dashboard/dealers/"),
    ("/figures/dealers/7/", "/dashboard/dealers/7/"),
    ("/figures/dashboard/", "/dashboard/"),
    ("/figures/dashboard/data.json", "/dashboard/data.json"),
    ("/day-sheets/", "/accounting/day-sheets/"),
    ("/day-sheets/template.csv", "/accounting/day-sheets/template.csv"),
]
APP_OF_OLD = {"/accounting/": "floor", "/figures/": "dashboard", "/day-sheets/": "accounting"}


@pytest.mark.parametrize(("old", "new"), MOVED)
def test_an_old_address_redirects_permanently_to_its_new_one(client, old, new):
    response = client.get(old)
    assert (response.status_code, response["Location"]) == (301, new)


def test_the_query_string_goes_along(client):
    response = client.get("/figures/daily/?date=2026-08-14&site=3")
    assert (response.status_code, response["Location"]) == (301, "/dashboard/daily/?date=2026-08-14&site=3")


def test_every_old_floor_address_is_listed():
    """A floor page added later needs no redirect; every page of before issue 34 has one."""
    before = len(floor_urls.urlpatterns) - len(floor_urls.ADDED)
    assert len(floor_urls.MOVED) == before == sum(o.startswith("/accounting/") for o, _ in MOVED)


@pytest.mark.parametrize(("old", "new"), MOVED)
def test_the_new_address_is_the_apps_own_page(old, new):
    match = resolve(new)
    app = next(app for prefix, app in APP_OF_OLD.items() if old.startswith(prefix))
    assert (match.namespace, new.startswith(f"/{app}/")) == (app, True)
    assert not issubclass(getattr(match.func, "view_class", type), RedirectView)


@pytest.mark.parametrize(
    ("name", "kwargs", "address"),
    [
        ("floor:floor", {}, "/floor/"),
        ("floor:slip", {"pk": 7}, "/floor/slips/7/"),
        ("floor:pit", {"site_id": 7}, "/floor/sites/7/pit/"),
        ("dashboard:overview", {}, "/dashboard/"),
        ("dashboard:daily", {}, "/dashboard/daily/"),
        ("accounting:day_sheet", {}, "/accounting/day-sheets/"),
    ],
)
def test_each_page_is_named_in_its_apps_namespace(name, kwargs, address):
    assert reverse(name, kwargs=kwargs) == address


@pytest.mark.parametrize("old_name", ["accounting_floor", "accounting_slip", "floor_pit", "accounting_day_sheet"])
def test_the_old_names_are_gone(old_name):
    with pytest.raises(NoReverseMatch):
        reverse(old_name)
