"""Every page reached with a query string whose parameters hold a NUL (text no database keeps,
core.limits.UNKEEPABLE) answers without a server error, on SQLite and on PostgreSQL, which refuses
a NUL in any statement: each page addressed with no id, as a gaming manager at a site and as a
state supervisor, every parameter a page reads (the dates, quarters, months, filters, pages and
formats of the figures, compliance, counts, fees, floor and registry pages) sent at once. The API
refuses such text before any view reads it (core.parsers.KeptTextMiddleware,
tests/api/test_text_no_database_keeps.py); a page reads its parameters itself, and a page that
passed one on to a query unread would answer 500 on PostgreSQL."""

import pytest

from tests.conformance.walk import build_path, gets, params, routes
from tests.page_support import at_site
from tests.registry.test_registry_supervisor_pages import world  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db

# Every name a page reads from its query string (request.GET, the forms bound to it, the audit
# log's filters and pages), each given a NUL.
READ = (
    "action correct date end format from game identifier licensee month newer offset older page person "
    "quarter site start state table"
).split()
NUL_QUERY = {name: "2026\x00" for name in READ}


def pages() -> list[str]:
    """The page addresses with no id (tests.conformance.walk's routes; the API's, the admin's and
    signing out left out)."""
    found = {build_path(route, {}) for route, pattern in routes() if not params(route) and gets(pattern)}
    return sorted(p for p in found if not p.startswith(("/api/", "/registry/api/", "/admin/", "/logout", "/^")))


def test_the_pages_addressed_with_no_id_are_found():
    found = pages()
    assert {"/", "/compliance/calendar/", "/dashboard/daily/", "/registry/filings/"} <= set(found) and len(found) > 60


def test_no_page_answers_a_nul_in_its_query_with_a_server_error(client, manager, site, world):  # noqa: F811
    at_site(client, manager, site)
    answers = {}
    for who, browser in (("gaming manager", client), ("state supervisor", world["supervisor"])):
        browser.raise_request_exception = False
        for path in pages():
            answers[who, path] = browser.get(path, NUL_QUERY).status_code
    assert not {where: status for where, status in answers.items() if status >= 500}
    assert client.get("/dashboard/daily/", {"date": "2026\x00"}).status_code == 400  # said inline, as any bad date
