"""The count tablet at 390 px (issue 33): every count page fits without sideways scrolling, the
comparison table included; /counts/ proposes the day whose boxes wait to be counted and leads
with the count under way; badges offer only the team, and signing only once the counts agree."""

import os
import re

import pytest

from cardroom import pins
from cardroom.models import Role
from tests.browser_support import PHONE, login, settle

from .conftest import GAMING_DATE

SCREENSHOTS = os.environ.get("SCREENSHOT_DIR")
PINS = ("482913", "630571")


def shot(page, name):
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, f"{name}.png"), full_page=True)


def fits(page) -> None:
    settle(page)
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"], page.url


def badges(page, prefix="id"):
    return [b for b in page.locator(f"#{prefix}_signer_badge option").all_inner_texts() if "·" in b]


def count_box(page, box, member, pin, quantities):
    if not re.search(rf"/boxes/{box.pk}/count/$", page.url):  # else opened by the last count (the next owed)
        page.click(f"#box-{box.pk} .count-link")
    page.wait_for_url(re.compile(rf"/counts/sessions/\d+/boxes/{box.pk}/count/$"))  # not the session's page still
    fits(page)
    offered = [b.split(" · ")[0] for b in badges(page)]  # the members still to count it: never the floor's
    assert member.initials in offered and set(offered) <= {m.initials for m in member.team}
    for key, value in quantities.items():
        page.fill(f"#q_{key}", value)
    page.select_option("#id_signer_badge", member.initials)
    page.fill("#id_signer_pin", pin)
    with page.expect_navigation():  # the next count's address may be this one's
        page.click("#submit-count")
    page.wait_for_url(re.compile(r"/counts/sessions/\d+/(boxes/\d+/count/)?$"))
    fits(page)


@pytest.mark.browser
def test_the_count_tablet_fits_a_390_px_screen_from_opening_to_signing(
    browser_page, live_server, manager, counters, removed, boxes, site, cast
):
    page = browser_page
    page.set_viewport_size(PHONE)
    for member, pin in zip(counters, PINS, strict=True):
        pins.set_pin(acting_user=member.user, employee=member, pin=pin)
        member.team = counters
    # Someone of the floor with a PIN is never offered on the count's forms.
    pins.set_pin(acting_user=cast[Role.SHIFT_MANAGER].user, employee=cast[Role.SHIFT_MANAGER], pin="715302")
    pins.create_station(
        acting_user=manager.user, site=site, username="count-tablet", password="Ochre-Lantern-Drift-58", name="Count"
    )
    login(page, live_server, "count-tablet", "Ochre-Lantern-Drift-58")
    page.goto(f"{live_server.url}/counts/")
    fits(page)
    assert page.input_value("#id_gaming_date") == str(GAMING_DATE)  # the day whose boxes wait
    assert sorted(b.split(" · ")[0] for b in badges(page)) == sorted(m.initials for m in counters)
    page.select_option("#id_partner", str(counters[1].pk))
    page.select_option("#id_signer_badge", counters[0].initials)
    page.fill("#id_signer_pin", PINS[0])
    page.click("#open-session button[type=submit]")
    page.wait_for_selector(f"#box-{boxes[0].pk}")
    fits(page)

    # Box 1 counted differently by the two members: no signing offered, the comparison fits whole.
    count_box(page, boxes[0], counters[0], PINS[0], {"bill_10000": "4", "bill_2000": "12"})
    count_box(page, boxes[0], counters[1], PINS[1], {"bill_10000": "4", "bill_2000": "11"})
    assert page.get_attribute(f"#box-{boxes[0].pk}", "data-status") == "difference"
    agreed = page.locator(f"#box-{boxes[0].pk} .count-compare th", has_text="Agreed").bounding_box()
    card = page.locator(f"#box-{boxes[0].pk} .card-body").bounding_box()
    assert agreed["x"] + agreed["width"] <= card["x"] + card["width"]  # Agreed shows whole, nothing scrolls
    assert page.locator("#sign-form").count() == 0
    assert "Signing is offered once the counts agree" in page.inner_text("#signing-problems")
    shot(page, "tablet-390-difference")

    # Resolved by recount, box 2 counted alike: now signing is offered, to the two members only.
    page.click(f"#box-{boxes[0].pk} .resolve-link")
    page.wait_for_url(re.compile(rf"/counts/sessions/\d+/boxes/{boxes[0].pk}/resolve/"))  # its address is read next
    fits(page)
    page.goto(page.url.split("?")[0] + f"?from={counters[0].pk}")
    page.fill("#q_bill_2000", "12")
    page.fill("#note", "Recounted together: 12 twenties.")
    page.select_option("#id_signer_badge", counters[0].initials)
    page.fill("#id_signer_pin", PINS[0])
    page.click("#submit-count")
    page.wait_for_url(re.compile(r"/counts/sessions/\d+/$"))
    for member, pin in zip(counters, PINS, strict=True):
        count_box(page, boxes[1], member, pin, {"bill_500": "20"})
    assert sorted(b.split(" · ")[0] for b in badges(page, "sign")) == sorted(m.initials for m in counters)
    for member, pin in zip(counters, PINS, strict=True):
        page.select_option("#sign_signer_badge", member.initials)
        page.fill("#sign_signer_pin", pin)
        page.click("#sign-button")
        page.wait_for_selector(f"#signatures >> text={member.initials}")
    page.wait_for_selector("#locked")
    fits(page)
    shot(page, "tablet-390-signed")

    page.goto(f"{live_server.url}/counts/")
    fits(page)
    assert page.locator("#open-sessions").count() == 0  # nothing under way once signed
    for path in ("/counts/boxes/", "/counts/boxes/remove-all/"):
        page.goto(f"{live_server.url}{path}")
        fits(page)
