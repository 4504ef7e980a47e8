"""Every browser form that records something carries its one-time token (core.form_tokens), so
that the same form sent twice (a double click, a reload of the POST, a retry on a slow line)
writes once and the second copy is told "Already recorded".

(a) Every `<form method="post">` of every template draws `{% form_token %}`, but for the few in
`WITHOUT_TOKEN`, each saying why; a template that draws one loads the tag library itself.

(b) A form of each app, drawn on its real page as someone allowed to send it, is sent twice
with its token and the same fields: one record is written, and the second answer is the
first's address with "Already recorded". The data behind the pages is made through the
services.
"""

import re
from datetime import date
from html.parser import HTMLParser
from pathlib import Path

import time_machine
from django.conf import settings

from accounting.models import Adjustment, BooksClose
from cage.models import BankDeposit
from cardroom.models import Employee, Role, Station
from core.form_tokens import ALREADY_RECORDED, FIELD
from counts import services as counts
from counts.models import CountSignature
from floor import services as floor
from floor.models import GamingDay, SlipStep
from tests.accounting.books_days import closed_day, count_bank, on
from tests.counts.conftest import COUNT_TIME, GAMING_DATE, cash, remove_box
from tests.factories import TableFactory, make_person
from tests.floor.conftest import FILL, TRAY, today
from tests.page_support import page

TEMPLATES = Path(settings.BASE_DIR) / "templates"

# The POST forms that carry no token, by template and the form's id (or its action when it has
# none): each writes no record, or must run again when sent again.
WITHOUT_TOKEN = {
    # Signing in writes no record of the books; a second copy signs in again (django-axes counts
    # a wrong password whatever the token).
    ("registration/login.html", "-"): "signing in writes no record",
    # Signing out ends the session: a second copy finds it ended and is sent to the login page.
    ("base.html", "{% fixed_url 'logout' %}"): "signing out writes no record",
    # The site switcher changes the session's current site, nothing of the books; sent again it
    # chooses the same site.
    ("base.html", "site-switcher"): "choosing the current site writes only the session",
    # The calendar's button to a review program at another site switches to it: the same.
    (
        "compliance/_obligation_link.html",
        "{% url 'switch_site' %}",
    ): "choosing the current site writes only the session",
    # "Show my count" shows a member their own figures on the count tablet (counts.views.my_counts:
    # nothing is written but a wrong PIN's count) and answers with the page, not a redirect.
    ("counts/session.html", "mine-form"): "shows a member's own count, writes nothing",
    # The first step of removing a day's boxes only reviews what was ticked and answers with the
    # confirmation, whose own form (confirm-form) carries the token that the removal is sent with.
    ("counts/remove_all.html", "remove-all-form"): "the review step writes nothing; confirm-form is tokened",
}

FORM = re.compile(r"<form\b([^>]*)>(.*?)</form>", re.S | re.I)
POST = re.compile(r"""\bmethod\s*=\s*["']?post\b""", re.I)


def _post_forms():
    """(template, the form's id or action or "-", its body) of every POST form under templates/."""
    for path in sorted(TEMPLATES.rglob("*.html")):
        text = path.read_text()
        for match in FORM.finditer(text):
            attributes, body = match.group(1), match.group(2)
            if not POST.search(attributes):
                continue
            named = re.search(r'\bid="([^"]+)"', attributes) or re.search(r'\baction="([^"]+)"', attributes)
            yield str(path.relative_to(TEMPLATES)), named.group(1) if named else "-", body


def test_every_post_form_that_records_something_draws_its_one_time_token():
    forms = list(_post_forms())
    assert len(forms) > 60  # the walk found the templates' forms
    missing = [
        f"{template} ({name})"
        for template, name, body in forms
        if "{% form_token %}" not in body and (template, name) not in WITHOUT_TOKEN
    ]
    assert not missing, "POST forms without {% form_token %} (add it, or say in WITHOUT_TOKEN why not): " + ", ".join(
        missing
    )


def test_the_forms_left_without_a_token_are_still_there_and_still_without_one():
    """A stale entry of WITHOUT_TOKEN (the form gone, renamed or tokened since) is struck out."""
    untokened = {(template, name) for template, name, body in _post_forms() if "{% form_token %}" not in body}
    assert set(WITHOUT_TOKEN) <= untokened, set(WITHOUT_TOKEN) - untokened


def test_a_template_that_draws_a_token_loads_the_tag_itself():
    """`{% load %}` does not pass from base.html to a page, nor to an included template."""
    lacking = [
        str(path.relative_to(TEMPLATES))
        for path in sorted(TEMPLATES.rglob("*.html"))
        if "{% form_token %}" in (text := path.read_text())
        and not any("cardroom" in loaded.split() for loaded in re.findall(r"{%\s*load\s+([^%]*)%}", text))
    ]
    assert not lacking


# --- The same form sent twice, on its page --------------------------------------------------------


class _Forms(HTMLParser):
    """The forms of a page as a browser would send them: each form's attributes and the values
    of its fields (hidden and filled-in inputs, ticked boxes, chosen options, text areas)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms: list[dict] = []
        self._form = self._select = self._textarea = None

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "form":
            self._form = {"attributes": attributes, "fields": {}}
            self.forms.append(self._form)
        elif self._form is None or (tag != "option" and not attributes.get("name")):
            return
        elif tag == "input":
            kind = attributes.get("type", "text")
            if kind in ("submit", "button", "file", "image", "reset"):
                return
            if kind in ("checkbox", "radio") and "checked" not in attributes:
                return
            self._add(attributes["name"], attributes.get("value", "on" if kind in ("checkbox", "radio") else ""))
        elif tag == "select":
            self._select = {"name": attributes["name"], "first": None, "chosen": None}
        elif tag == "option" and self._select is not None:
            value = attributes.get("value", "")
            self._select["first"] = value if self._select["first"] is None else self._select["first"]
            if "selected" in attributes:
                self._select["chosen"] = value
        elif tag == "textarea":
            self._textarea = [attributes["name"], ""]

    def handle_data(self, data):
        if self._textarea is not None:
            self._textarea[1] += data

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "select" and self._select is not None:
            chosen = self._select["chosen"] if self._select["chosen"] is not None else self._select["first"]
            if chosen is not None:
                self._add(self._select["name"], chosen)
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            self._add(*self._textarea)
            self._textarea = None

    def _add(self, name, value):
        self._form["fields"].setdefault(name, []).append(value)


def drawn(html: str, *, form_id: str = "", action: str = "") -> tuple[str, dict]:
    """The form `form_id` (or the one sent to `action`) of a page: where it is sent, its fields."""
    parser = _Forms()
    parser.feed(html)
    for form in parser.forms:
        attributes = form["attributes"]
        if (form_id and attributes.get("id") == form_id) or (action and attributes.get("action", "") == action):
            return attributes.get("action", ""), form["fields"]
    raise AssertionError(f"no form {form_id or action} on the page")


def sent_twice(client, address: str, typed: dict | None = None, **which) -> tuple:
    """Draw the page at `address`, fill in its form (`typed`) and send it twice with its one
    token. Checks that the first is recorded (it redirects) and that the second is sent where the
    first went, told "Already recorded". Returns (the first answer's page, the second's)."""
    where, fields = drawn(page(client.get(address)), **which)
    assert re.fullmatch(r"[0-9a-f-]{36}", fields[FIELD][0]), "the form draws its one-time token"
    data = {**fields, **(typed or {})}
    where = where or address
    first = client.post(where, data, follow=True)
    assert first.redirect_chain, f"the first copy is recorded and redirected: {first.status_code}"
    assert ALREADY_RECORDED not in page(first)
    again = client.post(where, data, follow=True)
    assert again.status_code == 200 and again.redirect_chain[0] == first.redirect_chain[0]
    assert ALREADY_RECORDED in page(again)
    return page(first), page(again)


DAY = date(2026, 8, 14)


def test_closing_a_days_books_sent_twice_closes_them_once(client, cast, site):
    with on(site, DAY):
        opened = floor.open_gaming_day(acting_user=cast[Role.SHIFT_MANAGER].user, site=site, gaming_date=DAY)
        count_bank(cast, site, DAY)
        floor.close_gaming_day(acting_user=cast[Role.SHIFT_MANAGER].user, gaming_day=opened)
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    first, _ = sent_twice(client, f"/dashboard/daily/?site={site.pk}&date={DAY}", form_id="close-books")
    assert f"The books of {DAY} are closed." in first
    assert BooksClose.objects.filter(site=site, gaming_date=DAY).count() == 1


def test_a_refused_close_is_not_kept_the_same_form_sent_once_the_cause_is_cured_closes_the_books(client, cast, site):
    """The books' forms answer a refusal on the daily page (a redirect with its message): the
    token is given back (core.form_tokens.refused), so the same form sent again once the bank is
    counted closes the books, where it was told "Already recorded" and nothing was recorded."""
    with on(site, DAY):
        opened = floor.open_gaming_day(acting_user=cast[Role.SHIFT_MANAGER].user, site=site, gaming_date=DAY)
        floor.close_gaming_day(acting_user=cast[Role.SHIFT_MANAGER].user, gaming_day=opened)
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    where, fields = drawn(page(client.get(f"/dashboard/daily/?site={site.pk}&date={DAY}")), form_id="close-books")
    refused = client.post(where, fields, follow=True)
    assert ALREADY_RECORDED not in page(refused) and not BooksClose.objects.exists()
    with on(site, DAY):
        count_bank(cast, site, DAY)
    closed = client.post(where, fields, follow=True)
    assert ALREADY_RECORDED not in page(closed) and f"The books of {DAY} are closed." in page(closed)
    assert BooksClose.objects.filter(site=site, gaming_date=DAY).count() == 1


def test_an_adjusting_entry_sent_twice_is_recorded_once(client, cast, site):
    closed_day(cast, site, DAY)
    TableFactory(site=site, number=1)
    client.force_login(cast[Role.GAMING_MANAGER].user)
    typed = {"field": "drop", "table_number": "1", "amount": "-20.00", "recorded_on": "2026-08-20",
             "reason": "Recount of box 1 found a $20 bill counted twice"}  # fmt: skip
    first, _ = sent_twice(client, f"/dashboard/daily/?site={site.pk}&date={DAY}", typed, form_id="adjust-form")
    assert "The adjusting entry is recorded." in first
    assert Adjustment.objects.count() == 1


def test_a_slips_verify_button_pressed_twice_verifies_it_once(day_under_way, client, cast, site, table, chips):
    manager = cast[Role.SHIFT_MANAGER]
    floor.open_gaming_day(acting_user=manager.user, site=site, gaming_date=today(site))
    floor.record_table_inventory(acting_user=manager.user, table=table, kind="opener", chips=TRAY)
    fill = floor.prepare_fill(acting_user=cast[Role.CASHIER].user, table=table, chips=FILL)
    client.force_login(manager.user)
    sent_twice(client, f"/floor/slips/{fill.pk}/", action=f"/floor/slips/{fill.pk}/verify/")
    assert SlipStep.objects.filter(slip=fill, kind="verify").count() == 1


def test_a_bank_deposit_sent_twice_is_recorded_once(client, cast, site):
    day = date(2026, 11, 2)
    closed_day(cast, site, day)
    gaming_day = GamingDay.objects.get(site=site, gaming_date=day)
    client.force_login(cast[Role.CASHIER].user)
    typed = {"amount_cents": "0.00", "deposited_on": "2026-11-04", "reference": "slip 9"}
    first, _ = sent_twice(client, "/cage/deposits/", typed, action=f"/cage/deposits/day/{gaming_day.pk}/")
    assert "Deposit of $0.00 for 2026-11-02 recorded" in first
    assert BankDeposit.objects.filter(site=site, gaming_date=day).count() == 1


def test_a_count_initialled_twice_from_the_session_page_is_signed_once(client, cast, org, site):
    members = (
        make_person(org, Role.COUNT_TEAM, site, employment_type="independent"),
        make_person(org, Role.COUNT_TEAM, site, employment_type="gaming"),
    )
    with time_machine.travel(COUNT_TIME, tick=False):
        table = TableFactory(site=site, number=1)
        box = counts.register_drop_box(acting_user=cast[Role.GAMING_MANAGER].user, table=table)
        remove_box(cast[Role.SHIFT_MANAGER], box, members[0])
        session = counts.open_count_session(
            acting_user=members[0].user, site=site, gaming_date=GAMING_DATE, members=members, at=COUNT_TIME
        )
        for member in members:
            counts.record_blind_count(acting_user=member.user, session=session, drop_box=box, currency=cash(b5=9))
        client.force_login(members[0].user)
        first, _ = sent_twice(client, f"/counts/sessions/{session.pk}/", form_id="sign-form")
    assert f"Count of {GAMING_DATE} initialled (1 of 2)" in first
    assert CountSignature.objects.filter(session=session).count() == 1


def test_a_new_employee_saved_twice_from_the_setup_page_is_made_once(client, cast, site):
    client.force_login(cast[Role.GAMING_MANAGER].user)
    typed = {"username": "newdealer", "password": "a-long-pass-phrase-2026", "first_name": "Nell",
             "last_name": "Dean", "initials": "ND", "role": Role.DEALER, "site": site.pk, "active": "on"}  # fmt: skip
    sent_twice(client, "/setup/employees/new/", typed, form_id="setup-form")
    assert Employee.objects.filter(user__username="newdealer").count() == 1


def test_a_station_created_twice_from_the_administration_page_is_made_once(client, cast, site):
    """The form beside a page's list (cardroom/_side_form.html, also the slip books')."""
    client.force_login(cast[Role.GAMING_MANAGER].user)
    typed = {"name": "Pit 2 terminal", "username": "pit-terminal-2", "password": "Ochre-Lantern-Drift-58"}
    first, _ = sent_twice(client, "/administration/stations/", typed, form_id="station-form")
    assert "The station Pit 2 terminal can sign in as pit-terminal-2." in first
    assert Station.objects.filter(user__username="pit-terminal-2").count() == 1
