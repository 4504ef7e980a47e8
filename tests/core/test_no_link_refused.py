"""Every link a page shows opens for the one who sees it: each kind of user, at a site of each pack,
follows the links of the pages they reach from the home page (a week of the demo), and none answers
a refusal (403), a page not found (404) or a server error. A page that offers what the reader may
not open is a dead end at 2 a.m.; the compliance calendar linked a shift manager to the quarter's
figures, a 403 (compliance.obligations.PAGE_RULES), found by walking the demo as each role."""

import html
import re
from collections import deque
from urllib.parse import urljoin, urlparse

import pytest
from django.test import Client

from cardroom.models import Employee, Site
from tests.api.demo import load_short_demo
from tests.page_support import at_site

pytestmark = [pytest.mark.django_db, pytest.mark.unshared]  # the demo's own organizations

PAGES_EACH = 120  # pages followed a reader and site, breadth first from the home page
SKIPPED = ("/logout", "/admin/", "/static/", "/media/", "/api/", ".pdf", ".csv", ".xlsx", "format=", "/download")
READERS = [  # (login, site name): every role, at a site of each pack
    ("gm", "Bismarck Elks Lodge"),
    ("auditor", "Mandan Eagles Aerie"),
    ("shift", "Bismarck Elks Lodge"),
    ("pitboss", "Bismarck Elks Lodge"),
    ("cashier", "Medora Summer Hall"),
    ("dealer", "Bismarck Elks Lodge"),
    ("wheel", "Bismarck Elks Lodge"),
    ("count1", "Bismarck Elks Lodge"),
    ("wagm", "Spokane Card Room"),
    ("washift", "Tacoma Blackjack Room"),
    ("nygm", "Kingston Fire Hall"),
]


def _links(path: str, body: str) -> list[str]:
    found = []
    for href in re.findall(r'href="([^"#]+)"', body):
        target = urlparse(urljoin(f"http://testserver{path}", html.unescape(href)))
        if target.netloc == "testserver" and not any(s in target.path + "?" + target.query for s in SKIPPED):
            found.append(target.path + (f"?{target.query}" if target.query else ""))
    return found


def test_no_page_links_a_reader_to_a_page_they_cannot_open():
    from cardroom.pack_demo import extend_demo as packs

    packs(load_short_demo(weeks=1))  # Washington's and New York's houses beside North Dakota's
    dead, walked = [], 0
    for login, site_name in READERS:
        client = at_site(Client(), Employee.objects.get(user__username=login), Site.objects.get(name=site_name))
        seen, queue, mine = {"/"}, deque([("(start)", "/")]), 0
        while queue and mine < PAGES_EACH:
            source, path = queue.popleft()
            answer = client.get(path, follow=True)
            walked, mine = walked + 1, mine + 1
            if answer.status_code != 200:
                dead.append((login, site_name, source, path, answer.status_code))
                continue
            if "text/html" not in answer.get("Content-Type", ""):
                continue
            for link in _links(path, answer.content.decode()):
                if link not in seen:
                    seen.add(link)
                    queue.append((path, link))
    assert not dead, "\n".join(f"{u} at {s}: {src} links {p}, answered {c}" for u, s, src, p, c in dead)
    assert walked >= len(READERS) * 25  # the walk reached beyond the menus
