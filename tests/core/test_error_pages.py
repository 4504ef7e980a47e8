"""The error pages look like the app. 400, 500 and the CSRF refusal render with no request
context and no database (these tests have no database: a query would fail them); 403 and 404
keep the menu for a logged-in user."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import SuspiciousOperation
from django.http import Http404
from django.test import Client, RequestFactory
from django.views import defaults
from django.views.csrf import csrf_failure

from cardroom.models import Role


def anonymous_request(path: str = "/"):
    request = RequestFactory().get(path)
    request.user = AnonymousUser()
    return request


def looks_like_the_app(page: str) -> bool:
    return "· Card-room back office</title>" in page and "cardroom/app" in page and 'class="navbar-brand"' in page


@pytest.mark.parametrize(
    "render,status,marker",
    [
        (lambda r: defaults.server_error(r), 500, 'id="error-500"'),
        (lambda r: defaults.bad_request(r, SuspiciousOperation("bad")), 400, 'id="error-400"'),
        (lambda r: defaults.page_not_found(r, Http404("nothing")), 404, 'id="error-404"'),
        (lambda r: csrf_failure(r, reason="CSRF cookie not set."), 403, 'id="error-403-csrf"'),
    ],
)
def test_error_pages_render_without_the_database(render, status, marker):
    response = render(anonymous_request())
    assert response.status_code == status
    page = response.content.decode()
    assert marker in page and looks_like_the_app(page)


def test_an_unknown_address_shows_the_404_page_with_the_menu(client, manager):
    client.force_login(manager.user)
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    page = response.content.decode()
    assert 'id="error-404"' in page and 'id="whoami"' in page and looks_like_the_app(page)


def test_a_refusal_shows_the_403_page_with_its_reason(client, cast):
    client.force_login(cast[Role.DEALER].user)
    response = client.get("/setup/tables/new/")
    assert response.status_code == 403
    page = response.content.decode()
    assert (
        'id="error-403"' in page
        and "House control: only a gaming manager may change the setup." in page
        and looks_like_the_app(page)
    )


def test_a_form_without_its_csrf_token_shows_the_apps_refusal(db):
    response = Client(enforce_csrf_checks=True).post("/login/", {"username": "gm", "password": "x"})
    assert response.status_code == 403
    assert 'id="error-403-csrf"' in response.content.decode()


def test_the_admins_version_not_found_is_the_plain_404_page_whatever_its_reason(client, manager, stranger_site):
    """A version written as no number and another organization's are one plain not found: the 404
    page shows no exception's words (cardroom.admin's "No such version"), so nothing of another
    organization's rows is said and there is no rule to cite."""
    from tests.factories import TableFactory

    theirs = TableFactory(site=stranger_site, number=9)
    client.force_login(manager.user)
    answers = [
        client.get(f"/admin/cardroom/table/{theirs.pk}/history/x/"),
        client.get(f"/admin/cardroom/table/{theirs.pk}/history/{theirs.history.get().history_id}/"),
    ]
    pages = [answer.content.decode() for answer in answers]
    assert [answer.status_code for answer in answers] == [404, 404]
    said = [page.split('id="error-404"')[1].split("</div>")[0] for page in pages]
    assert said[0] == said[1] == "><strong>Not found</strong> among the pages and sites you may see."
    assert not any("No such version" in page for page in pages)
