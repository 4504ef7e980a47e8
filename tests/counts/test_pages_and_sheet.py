"""The count pages (same messages as the API, blind until both count) and the count sheet PDF."""

import io
import re

import pytest
import time_machine
from pypdf import PdfReader

from cardroom.models import Role
from counts import services

from .conftest import COUNT_TIME, cash

pytestmark = pytest.mark.usefixtures("removed")


@pytest.fixture(autouse=True)
def _count_night():
    with time_machine.travel(COUNT_TIME, tick=False):
        yield


def grid(**quantities):
    """Browser grid fields: grid(bill_2000="5", coin_25="4")."""
    return {f"q_{key}": value for key, value in quantities.items()}


def test_the_count_menu_is_for_counters_managers_and_auditors(client, cast):
    for role in (Role.COUNT_TEAM, Role.AUDITOR, Role.DEALER):
        client.force_login(cast[role].user)
        page = client.get("/").content.decode()
        assert ("/counts/" in page) == (role != Role.DEALER)
    assert client.get("/counts/").status_code == 403


def test_a_member_counts_in_the_grid_and_the_other_sees_nothing_until_counting(client, counters, session, boxes):
    client.force_login(counters[0].user)
    url = f"/counts/sessions/{session.pk}/boxes/{boxes[0].pk}/count/"
    page = client.get(url).content.decode()
    assert 'id="q_bill_10000"' in page and 'id="running-total"' in page
    response = client.post(url, {**grid(bill_10000="7", coin_25="3"), "fill_numbers": "101, 102"})
    assert response.status_code == 302
    client.force_login(counters[1].user)
    page = client.get(f"/counts/sessions/{session.pk}/").content.decode()
    assert "$700.75" not in page and "1 of 2 counts in" in page
    client.post(url, grid(bill_10000="7", coin_25="3"))
    page = client.get(f"/counts/sessions/{session.pk}/").content.decode()
    assert "$700.75" in page  # both counts in: the other's figures show (and the forms differ)
    assert "different forms" in page


@pytest.mark.parametrize("value,text", [("-1", "zero or more"), ("2.5", "whole number"), ("x", "whole number")])
def test_a_bad_quantity_shows_the_apis_message_inline(client, client_for, counters, session, boxes, value, text):
    client.force_login(counters[0].user)
    response = client.post(f"/counts/sessions/{session.pk}/boxes/{boxes[0].pk}/count/", grid(bill_2000=value))
    assert response.status_code == 400
    page = response.content.decode()
    assert 'id="error-currency"' in page and text in page
    assert "ND 99-01.3-08-14(4): the quantity of $20 bills must be a whole number, zero or more" in page
    api = client_for(counters[1]).post(
        f"/api/v1/count-sessions/{session.pk}/counts/",
        {"box": boxes[0].pk, "currency": [{"denomination_cents": 2000, "quantity": value}]},
        format="json",
    )
    assert api.json()["currency"][0] in page.replace("&#x27;", "'")


def test_signing_with_a_difference_is_refused_inline(client, counters, session, boxes):
    services.record_blind_count(acting_user=counters[0].user, session=session, drop_box=boxes[0], currency=cash(b20=5))
    services.record_blind_count(acting_user=counters[1].user, session=session, drop_box=boxes[0], currency=cash(b20=4))
    client.force_login(counters[0].user)
    response = client.post(f"/counts/sessions/{session.pk}/sign/")
    assert response.status_code == 400
    assert "ND 99-01.3-08-14(4)" in response.content.decode() and 'id="error-box"' in response.content.decode()


def test_a_shift_manager_records_a_removal_in_the_browser(client, shift_manager, manager, tables, counters, site):
    box = services.register_drop_box(acting_user=manager.user, table=tables[0], label="B")
    client.force_login(shift_manager.user)
    refused = client.post(
        "/counts/boxes/",
        {
            "action": "remove",
            "box": box.pk,
            "gaming_date": "2026-11-13",
            "storage_place": "Safe",
            "key_holder": counters[0].pk,
        },
    )
    assert refused.status_code == 400 and "escorted by another employee" in refused.content.decode()
    done = client.post(
        "/counts/boxes/",
        {
            "action": "remove",
            "box": box.pk,
            "gaming_date": "2026-11-13",
            "storage_place": "Safe",
            "key_holder": counters[0].pk,
            "sole_employee_on_duty": "on",
        },
    )
    assert done.status_code == 302


def _signed_session(counters, session, boxes):
    services.record_blind_count(
        acting_user=counters[0].user,
        session=session,
        drop_box=boxes[0],
        currency=cash(b100=2, b20=6, c25=2),
        forms=[{"kind": "fill", "number": 7}],
    )
    services.record_blind_count(
        acting_user=counters[1].user,
        session=session,
        drop_box=boxes[0],
        currency=cash(b100=2, b20=5, c25=2),
        forms=[{"kind": "fill", "number": 7}],
    )
    services.resolve_difference(
        acting_user=counters[1].user,
        session=session,
        drop_box=boxes[0],
        currency=cash(b100=2, b20=6, c25=2),
        forms=[{"kind": "fill", "number": 7}],
        note="A $20 was folded in a $100.",
    )
    for member in counters:
        services.record_blind_count(acting_user=member.user, session=session, drop_box=boxes[1], currency=cash(b5=9))
    for member in counters:
        services.sign_count(acting_user=member.user, session=session)


def test_the_count_sheet_shows_each_count_the_resolution_the_drop_forms_and_both_initials(
    client, cast, counters, session, boxes
):
    _signed_session(counters, session, boxes)
    client.force_login(cast[Role.AUDITOR].user)
    response = client.get(f"/counts/sessions/{session.pk}/sheet.pdf")
    assert response["Content-Type"] == "application/pdf"
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    for expected in (
        "Drop box count sheet",
        "ND 99-01.3-08-14(4)",
        "Gaming day 2026-11-13",
        "$320.50",
        "$300.50",
        "$45.00",
        "$365.50",  # member totals, agreed drops, total
        "A $20 was folded in a $100.",
        "fill #7",
        "Page 1 of 1",
        counters[0].initials,
        counters[1].initials,
    ):
        assert expected in text, expected
    # Both initials dated in the site's time zone, the zone named (America/Chicago: CST in November).
    signed = [
        line
        for line in text.splitlines()
        if line.startswith((f"{counters[0].initials} (", f"{counters[1].initials} ("))
    ]
    assert len(signed) >= 2 and all(re.search(r"\d{4}-\d\d-\d\d \d{1,2}:\d\d [ap]\.m\. CST$", s) for s in signed)
    assert "UTC" not in text
    assert "Licence No." in text and "Prepared by" in text and "Reviewed by" in text


def test_the_session_page_shows_the_agreed_drop_after_signing(client, counters, session, boxes):
    _signed_session(counters, session, boxes)
    client.force_login(counters[0].user)
    page = client.get(f"/counts/sessions/{session.pk}/").content.decode()
    assert 'id="locked"' in page and "$320.50" in page and "Count this box" not in page
