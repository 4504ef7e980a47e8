"""The count on one tablet in Chromium at 1024x768: the tablet stays signed in as a station;
two count team members open the count, each count each box and sign, every step initialled
with their own badge and PIN; the figures stay blind until both are in; the count agrees."""

import os
import re

import pytest
from playwright.sync_api import expect

from cardroom import pins
from cardroom.models import Employee, Role
from core.models import AuditEvent
from counts.models import CountAgreement, CountSignature
from tests.browser_support import login

from .conftest import GAMING_DATE

SCREENSHOTS = os.environ.get("SCREENSHOT_DIR")
TABLET = {"width": 1024, "height": 768}
PINS = ("482913", "630571")


def shot(page, name):
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, f"{name}.png"))


def in_viewport(page, selector) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= TABLET["height"]


def initial(page, member, pin, prefix="id"):
    page.select_option(f"#{prefix}_signer_badge", member.initials)
    page.fill(f"#{prefix}_signer_pin", pin)


def count_box(page, box, member, pin, quantities):
    """A member's count of `box`: its form opened from the session unless the last count opened it
    already (the next count owed, counts.views._next_to_count); then the next count's form, or the
    session once every count is in or the box differs."""
    if not re.search(rf"/boxes/{box.pk}/count/$", page.url):
        page.click(f"#box-{box.pk} .count-link")
    page.wait_for_url(re.compile(rf"/counts/sessions/\d+/boxes/{box.pk}/count/$"))
    # The total is above the fold before anything is typed, and stays in view down the grid.
    assert in_viewport(page, "#running-total")
    for key, value in quantities.items():
        page.fill(f"#q_{key}", value)
    page.focus("#q_coin_1")
    assert in_viewport(page, "#running-total")
    initial(page, member, pin)
    with page.expect_navigation():  # the next count's address may be this one's
        page.click("#submit-count")
    page.wait_for_url(re.compile(r"/counts/sessions/\d+/(boxes/\d+/count/)?$"))


def _tablet_with_pins(page, manager, counters, site):
    """The page at a tablet's size, each counter with their PIN, and the site's count tablet made."""
    page.set_viewport_size(TABLET)
    for member, pin in zip(counters, PINS, strict=True):
        pins.set_pin(acting_user=member.user, employee=member, pin=pin)
    pins.create_station(
        acting_user=manager.user, site=site, username="count-tablet", password="Ochre-Lantern-Drift-58", name="Count"
    )
    return page


@pytest.mark.browser
def test_two_members_count_and_sign_on_one_tablet_with_their_own_pins(
    browser_page, live_server, manager, counters, removed, boxes, site
):
    page = _tablet_with_pins(browser_page, manager, counters, site)
    login(page, live_server, "count-tablet", "Ochre-Lantern-Drift-58")

    # The first member opens the count with the second, initialling it with their PIN.
    page.goto(f"{live_server.url}/counts/")
    page.fill("#id_gaming_date", str(GAMING_DATE))
    page.select_option("#id_partner", str(counters[1].pk))
    initial(page, counters[0], PINS[0])
    page.click("#open-session button[type=submit]")
    page.wait_for_selector(f"#box-{boxes[0].pk}")

    # Box 1: the first member counts; the tablet then shows no figure of it.
    first_box = {"bill_10000": "4", "bill_2000": "12", "coin_25": "3"}
    page.click(f"#box-{boxes[0].pk} .count-link")
    for key, value in first_box.items():
        page.fill(f"#q_{key}", value)
    # The figures may be typed before the page has loaded: the total follows them (count_box.js).
    expect(page.locator("#running-total")).to_have_text("$640.75", use_inner_text=True)
    assert in_viewport(page, "#running-total")
    shot(page, "tablet-count-entry")
    page.go_back()
    count_box(page, boxes[0], counters[0], PINS[0], first_box)
    # The same box's form opens at once for the other member, blank: the first count stays hidden.
    assert re.search(rf"/boxes/{boxes[0].pk}/count/$", page.url)
    assert "$640.75" not in page.inner_text("main") and page.input_value("#q_bill_10000") == ""
    assert page.input_value("#id_signer_badge") == counters[1].initials  # the member left to count it

    # A wrong PIN initials nothing.
    page.fill("#q_bill_10000", "4")
    initial(page, counters[1], "000001")
    page.click("#submit-count")
    expect(page.locator("#count-errors")).to_contain_text("that badge and PIN do not match", use_inner_text=True)
    page.click("#count-form a.btn-link")  # back to the session
    # The session shown before the next step: the page still at the box's address while the link
    # loads, count_box would take it for the box's form and type into a page being left.
    page.wait_for_url(re.compile(r"/counts/sessions/\d+/$"))

    # The second member counts the same figures: the box agrees.
    count_box(page, boxes[0], counters[1], PINS[1], first_box)
    assert re.search(rf"/boxes/{boxes[1].pk}/count/$", page.url)  # box 1 agreed: the next box's form
    for member, pin in zip(counters, PINS, strict=True):
        count_box(page, boxes[1], member, pin, {"bill_500": "20"})
    page.wait_for_url(re.compile(r"/counts/sessions/\d+/$"))  # every count in: the session, to sign
    for box in boxes:
        assert page.get_attribute(f"#box-{box.pk}", "data-status") == "agreed"

    # Each member initials and dates the count with their PIN; the second locks it.
    for member, pin in zip(counters, PINS, strict=True):
        initial(page, member, pin, prefix="sign")
        page.click("#sign-button")
        page.wait_for_selector(f"#signatures >> text={member.initials}")
    page.wait_for_selector("#locked")
    assert "$640.75" in page.inner_text(f"#box-{boxes[0].pk} .agreed-drop")
    shot(page, "tablet-count-signed")

    assert sorted(CountAgreement.objects.values_list("total_cents", flat=True)) == [10000, 64075]
    assert [s.member for s in CountSignature.objects.order_by("pk")] == list(counters)
    steps = AuditEvent.objects.filter(action__in=["count_session.opened", "count.member_counted", "count.signed"])
    assert steps.count() == 1 + 4 + 2
    assert {e.actor_id for e in steps} == {m.user_id for m in counters}
    assert {e.after["station"] for e in steps} == {"count-tablet"}


@pytest.mark.browser
def test_a_count_of_two_boxes_takes_12_taps_besides_pins_and_figures(
    browser_page, live_server, manager, counters, removed, boxes, site
):
    """Open, four blind counts and two signatures on one tablet, counted tap by tap: the second
    member is chosen with the first's badge (a team of two), and each count's form opens after the
    last (the next count owed), not from the session's list (16 taps before); every count is still
    its member's, initialled with their own badge and PIN."""
    from tests.browser_support import Counted

    page = _tablet_with_pins(browser_page, manager, counters, site)
    # The site's count team is these two (the demo's, count1 and count2): any other member of the
    # cast has left (arranged here; the count's steps below go through the pages).
    Employee.objects.filter(memberships__site=site, memberships__role=Role.COUNT_TEAM).exclude(
        pk__in=[m.pk for m in counters]
    ).update(active=False)
    login(page, live_server, "count-tablet", "Ochre-Lantern-Drift-58")
    person, figures = Counted(page), 0

    def badge(prefix, member, pin):
        if page.input_value(f"#{prefix}_signer_badge") != member.initials:
            page.select_option(f"#{prefix}_signer_badge", member.initials)
            person.clicks += 1
        page.fill(f"#{prefix}_signer_pin", pin)  # the PIN's digits, not counted

    page.goto(f"{live_server.url}/counts/")
    assert page.input_value("#id_gaming_date") == str(GAMING_DATE)
    badge("id", counters[0], PINS[0])
    # The team is two: the badge picked, the other member is the second (open_session.js).
    assert page.input_value("#id_partner") == str(counters[1].pk)
    person.click("#open-session button[type=submit]")
    page.wait_for_selector(f"#box-{boxes[0].pk}")
    for box in boxes:
        for member, pin in zip(counters, PINS, strict=True):
            if not re.search(rf"/boxes/{box.pk}/count/$", page.url):
                person.click(f"#box-{box.pk} .count-link")
            page.wait_for_url(re.compile(rf"/boxes/{box.pk}/count/$"))
            page.fill("#q_bill_2000", "5")
            figures += 1
            badge("id", member, pin)
            with page.expect_navigation():
                person.click("#submit-count")
    page.wait_for_url(re.compile(r"/counts/sessions/\d+/$"))
    for member, pin in zip(counters, PINS, strict=True):
        badge("sign", member, pin)
        person.click("#sign-button")
        page.wait_for_selector(f"#signatures >> text={member.initials}")
    page.wait_for_selector("#locked")
    assert (person.clicks, figures) == (12, 4)
    assert [s.member for s in CountSignature.objects.order_by("pk")] == list(counters)
    counted = AuditEvent.objects.filter(action="count.member_counted")
    assert sorted(e.actor_id for e in counted) == sorted([m.user_id for m in counters] * 2)
