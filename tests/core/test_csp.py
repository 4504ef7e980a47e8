"""The Content-Security-Policy: every response carries it, and the pages satisfy it (no inline
script, event handler or style; only the app's own static files). The browser walk at the end
sees no violation on the dashboard once its chart is drawn, the API docs or the admin. The menu's
pages are walked in the browser, for every role, by tests/core/test_browser_small_screens.py (every
page each user reaches on the demo's data, each failing on a violation: tests/browser_support.watch);
they were walked here too, once more, for 12 s of a run."""

import base64
import hashlib
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
import simple_history
from django.conf import settings

from cardroom.models import Role
from cardroom.navigation import MENU
from config.csp import policy_header
from tests.browser_support import login
from tests.conftest import ALL_ROLES

ROOT = Path(__file__).resolve().parents[2]
POLICY = policy_header(settings.CONTENT_SECURITY_POLICY)


class InlineCode(HTMLParser):
    """Collects what the policy refuses in a page: inline <script> or <style>, `on*=` handlers,
    `style=` attributes and `javascript:` links."""

    def __init__(self):
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script" and "src" not in attrs and attrs.get("type") != "application/json":
            self.found.append(f"inline <script> at line {self.getpos()[0]}")
        if tag == "style":
            self.found.append(f"<style> at line {self.getpos()[0]}")
        for name, value in attrs.items():
            if name.startswith("on") or name == "style" or (value or "").strip().lower().startswith("javascript:"):
                self.found.append(f'<{tag} {name}="{value}"> at line {self.getpos()[0]}')


def inline_code(html: str) -> list[str]:
    parser = InlineCode()
    parser.feed(html)
    return parser.found


def menu_pages() -> list[tuple[str, str]]:
    """(role, url) for every page of the menu, each visited by the first role that has it."""
    pages: dict[str, str] = {}
    for role in ALL_ROLES:
        for item in MENU:
            if role in item.roles:
                pages.setdefault(item.url, role)
    return [(role, url) for url, role in pages.items()]


def test_the_policy_allows_only_the_sites_own_files():
    assert POLICY.startswith("default-src 'self'; script-src 'self'; style-src 'self' ")
    for directive in ("object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'"):
        assert directive in POLICY
    assert "'unsafe-inline'" not in POLICY and "'unsafe-eval'" not in POLICY and "*" not in POLICY


def test_the_one_style_hash_is_simple_historys_border_attribute():
    """The policy's only inline allowance is for an attribute simple_history's admin page has;
    when a release drops it, drop the hash."""
    digest = base64.b64encode(hashlib.sha256(b"border-top: 0").digest()).decode()
    assert settings.CONTENT_SECURITY_POLICY["style-src"] == ["'self'", "'unsafe-hashes'", f"'sha256-{digest}'"]
    template = Path(simple_history.__file__).parent / "templates/simple_history/object_history_list.html"
    assert 'style="border-top: 0"' in template.read_text()


def test_no_template_of_ours_holds_inline_code():
    offenders = {}
    for template in sorted((ROOT / "templates").rglob("*.html")):
        # Template tags and comments stand in for nothing the policy cares about.
        found = inline_code(re.sub(r"{%.*?%}|{#.*?#}", "", template.read_text(), flags=re.S))
        if found:
            offenders[str(template.relative_to(ROOT))] = found
    assert offenders == {}


@pytest.mark.parametrize("role,url", menu_pages())
def test_every_page_of_the_menu_carries_the_policy_and_satisfies_it(client, cast, table, chips, role, url):
    client.force_login(cast[role].user)
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Security-Policy"] == POLICY
    assert inline_code(response.content.decode()) == []


@pytest.mark.parametrize(
    "url,status",
    [
        ("/login/", 200),
        ("/no-such-page/", 404),
        ("/admin/login/", 200),
        ("/api/docs/", 200),
        ("/api/docs/?script=", 200),
    ],
)
def test_pages_outside_the_menu_carry_the_policy(client, db, url, status):
    response = client.get(url)
    assert response.status_code == status
    assert response["Content-Security-Policy"] == POLICY
    if response["Content-Type"].startswith("text/html"):
        assert inline_code(response.content.decode()) == []


def test_the_api_and_the_admin_answer_with_the_policy_too(client, manager, table):
    client.force_login(manager.user)
    for url in ("/api/v1/tables/", "/admin/", "/admin/cardroom/table/", f"/admin/cardroom/table/{table.pk}/change/"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert response["Content-Security-Policy"] == POLICY


def test_the_api_answers_json_even_to_a_browser(client, manager):
    """The browsable API's pages carry inline styles: the API speaks JSON only."""
    client.force_login(manager.user)
    response = client.get("/api/v1/tables/", HTTP_ACCEPT="text/html,application/xhtml+xml,*/*;q=0.8")
    assert response["Content-Type"] == "application/json"


@pytest.mark.browser
def test_a_walk_over_the_pages_outside_the_menu_sees_no_policy_violation(browser_page, live_server, cast, table, chips):
    page = browser_page
    login(page, live_server, cast[Role.GAMING_MANAGER].user.username)
    page.goto(f"{live_server.url}/dashboard/")
    page.wait_for_selector("#chart-dealers[data-ready=true]")  # overview.js drew with Chart.js
    page.goto(f"{live_server.url}/api/docs/")
    page.wait_for_selector(".opblock-tag")  # Swagger UI drew the schema
    for url in (
        "/admin/",
        "/admin/cardroom/table/",
        f"/admin/cardroom/table/{table.pk}/change/",
        f"/admin/cardroom/table/{table.pk}/history/",
        "/admin/cardroom/membership/add/",  # employees are added on the setup page, with their login
    ):
        assert page.goto(f"{live_server.url}{url}").status == 200, url
    assert page.problems.csp_violations == []
    assert page.problems.console_errors == []
