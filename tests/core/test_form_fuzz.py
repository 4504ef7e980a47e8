"""No 500 from a browser form, whatever is posted (the API has its own: tests/api/test_fuzz.py).
Every POST form found on every page of the demo's world, as the gaming manager, a shift manager,
a cashier, a counter and an auditor of North Dakota and the gaming managers and shift managers of
the Washington and New York sites, is posted blank, with every field empty, with a word in every
field and with -1 in every field: each answer is a page, a redirect or a 4xx, never a 5xx (the
site switcher's, the reports page's and the adjusting entry's ids answered 500 before
`core.limits.record_id`)."""

import re
from html import unescape

import pytest
from django.test import Client

from benchmarks.pages import discover, load_nights
from cardroom.models import Employee, Site

pytestmark = pytest.mark.django_db

FORM = re.compile(r"<form([^>]*)>(.*?)</form>", re.S | re.I)
ACTION = re.compile(r'action="([^"]*)"', re.I)
FIELD = re.compile(r'<(?:input|select|textarea)[^>]*name="([^"]+)"', re.I)
HIDDEN = re.compile(r'<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"', re.I)
PEOPLE = [
    ("gm", "busy"), ("shift", "busy"), ("cashier", "busy"), ("count1", "busy"), ("auditor", "busy"),
    ("wagm", "Spokane Card Room"), ("washift", "Tacoma Blackjack Room"), ("nygm", "Kingston Fire Hall"),
    ("nyshift", "Kingston Fire Hall"),
]  # fmt: skip


def world() -> dict:
    from approvals.demo import extend_demo as approvals
    from cardroom.pack_demo import extend_demo as packs

    demo = load_nights(1)
    packs(demo)
    approvals(demo)
    return demo


def forms_of(html: str, path: str):
    """(action, field names, hidden values) of each POST form of a page, but signing out."""
    for attrs, body in FORM.findall(html):
        if 'method="post"' not in attrs.lower():
            continue
        found = ACTION.search(attrs)
        action = unescape(found.group(1)) if found and found.group(1) else path
        if "logout" not in action:
            hidden = {k: v for k, v in HIDDEN.findall(body) if k != "csrfmiddlewaretoken"}
            yield action, set(FIELD.findall(body)) - {"csrfmiddlewaretoken"}, hidden


def payloads(fields: set, hidden: dict) -> list[dict]:
    typed = [n for n in fields if n not in hidden]
    return [{}, {**hidden, **dict.fromkeys(typed, "")}, {**hidden, **dict.fromkeys(typed, "x")},
            {**hidden, **dict.fromkeys(typed, "-1")}]  # fmt: skip


def test_no_form_of_any_page_answers_a_5xx_to_blank_or_wrong_input():
    demo = world()
    failures, posted = [], 0
    for username, where in PEOPLE:
        site = demo["sites"][where] if where in demo["sites"] else Site.objects.get(name=where)
        client = Client(raise_request_exception=False)
        client.force_login(Employee.objects.get(user__username=username).user)
        session = client.session
        session["current_site_id"] = site.pk
        session.save()
        for path in discover(client, pages_only=True):
            page = client.get(path)
            if page.status_code != 200 or "text/html" not in page.get("Content-Type", ""):
                continue
            for action, fields, hidden in forms_of(page.content.decode(), path):
                for data in payloads(fields, hidden):
                    posted += 1
                    answer = client.post(action, data)
                    if answer.status_code >= 500:
                        failures.append((username, path, action, sorted(data.items())[:6], answer.status_code))
    assert posted > 300, posted  # the walk reached the forms
    assert failures == [], failures[:10]
