"""A count session's boxes are read once for all of them (`counts.queries.read_boxes`), never a
query a box: its page (to a manager, a member, a count tablet), its API answer, its count sheet,
and a member's count initialled on the tablet (which reads the session for the next box to count)
run as many queries with five boxes agreed as with two (the walk of every page at four times a
count's boxes: tests/core/test_no_n_plus_one.py)."""

import pytest
import time_machine
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from counts import services
from tests.factories import TableFactory

from .conftest import COUNT_TIME, PINS, cash, remove_box

FIGURES = cash(b100=2, b20=5)


@pytest.fixture(autouse=True)
def _count_night():
    with time_machine.travel(COUNT_TIME, tick=False):
        yield


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def queries_of(send) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = send()
    assert response.status_code in (200, 302), response.content.decode()[-1500:]
    return len(captured)


def agree(session, counters, box) -> None:
    for member in counters:
        services.record_blind_count(acting_user=member.user, session=session, drop_box=box, currency=FIGURES)


def new_box(site, manager, shift_manager, counters, number: int):
    box = services.register_drop_box(acting_user=manager.user, table=TableFactory(site=site, number=number))
    remove_box(shift_manager, box, counters[0])
    return box


def test_a_sessions_pages_and_its_tablet_count_read_as_many_queries_for_more_boxes(
    site, manager, shift_manager, counters, with_pins, session, boxes, tablet, client_for
):
    clients = {
        "manager": logged_in(manager.user),
        "member": logged_in(counters[0].user),
        "tablet": logged_in(tablet.user),
    }
    api = client_for(manager)
    page, sheet = f"/counts/sessions/{session.pk}/", f"/counts/sessions/{session.pk}/sheet.pdf"
    for box in boxes:
        agree(session, counters, box)

    def measured(fresh) -> dict[str, int]:
        """Each read of the session, with `fresh` removed and not counted; then a member's count of
        it on the tablet, and the other's through the API (it is agreed)."""
        reads = {name: queries_of(lambda c=c: c.get(page)) for name, c in clients.items()}
        reads["api"] = queries_of(lambda: api.get(f"/api/v1/count-sessions/{session.pk}/"))
        reads["sheet"] = queries_of(lambda: clients["manager"].get(sheet))
        count = {f"q_{line['form']}_{line['denomination_cents']}": str(line["quantity"]) for line in FIGURES}
        signed = {"signer_badge": counters[0].initials, "signer_pin": PINS[0]}
        url = f"{page}boxes/{fresh.pk}/count/"
        reads["tablet count"] = queries_of(lambda: clients["tablet"].post(url, {**count, **signed}))
        services.record_blind_count(acting_user=counters[1].user, session=session, drop_box=fresh, currency=FIGURES)
        return reads

    two = measured(new_box(site, manager, shift_manager, counters, 3))
    for number in (4, 5):
        agree(session, counters, new_box(site, manager, shift_manager, counters, number))
    five = measured(new_box(site, manager, shift_manager, counters, 6))
    assert session.agreements.count() == 6
    assert five == two
