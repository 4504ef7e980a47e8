"""A blank count of a drop box (no denomination line at all) is not a count (ND 99-01.3-08-14(4),
the count rule of the site's pack): saved, it took the member's one count of the box at $0.00, to
be undone only by a recount. Refused on `currency` through the page (inline) and the API (400),
writing nothing; a box found empty is counted deliberately, with 0 entered against a denomination."""

import pytest
import time_machine

from core.models import AuditEvent
from counts import services
from counts.models import CountEntry

from .conftest import COUNT_TIME, cash

pytestmark = pytest.mark.usefixtures("removed")

WORDS = "ND 99-01.3-08-14(4): enter the quantity of each denomination found (a blank count is not recorded)"


@pytest.fixture(autouse=True)
def _count_night():
    with time_machine.travel(COUNT_TIME, tick=False):
        yield


def _url(session, box, mode="count"):
    return f"/counts/sessions/{session.pk}/boxes/{box.pk}/{mode}/"


def test_a_blank_grid_is_refused_inline_and_the_member_can_still_count(client, counters, session, boxes):
    client.force_login(counters[0].user)
    page = client.get(_url(session, boxes[0])).content.decode()
    assert "A box found empty: enter 0 against any denomination" in page
    before = AuditEvent.objects.count()
    refused = client.post(_url(session, boxes[0]), {"fill_numbers": "", "credit_numbers": ""})
    assert refused.status_code == 400
    text = refused.content.decode()
    assert 'id="error-currency"' in text and WORDS in text
    assert "recorded: once both" not in text
    assert not CountEntry.objects.exists() and AuditEvent.objects.count() == before
    counted = client.post(_url(session, boxes[0]), {"q_bill_2000": "5"})  # the count is not taken
    assert counted.status_code == 302
    assert CountEntry.objects.get().entered_by == counters[0]


def test_an_empty_box_is_counted_with_an_explicit_zero(client, counters, session, boxes):
    client.force_login(counters[0].user)
    counted = client.post(_url(session, boxes[0]), {"q_bill_10000": "0"}, follow=True)
    assert counted.status_code == 200
    assert "Your count of drop box 1 recorded" in counted.content.decode()
    assert CountEntry.objects.get().entered_by == counters[0]


def test_the_api_refuses_a_blank_count_and_a_blank_recount(client_for, counters, session, boxes):
    url = f"/api/v1/count-sessions/{session.pk}/counts/"
    refused = client_for(counters[0]).post(url, {"box": boxes[0].pk, "currency": []}, format="json")
    assert refused.status_code == 400, refused.content
    assert refused.json()["currency"][0].startswith(WORDS)
    assert not CountEntry.objects.exists()
    for member, figures in zip(counters, (cash(b20=5), cash(b20=4)), strict=True):
        services.record_blind_count(acting_user=member.user, session=session, drop_box=boxes[0], currency=figures)
    recount = {"box": boxes[0].pk, "currency": [], "note": "recounted"}
    refused = client_for(counters[1]).post(f"/api/v1/count-sessions/{session.pk}/resolve/", recount, format="json")
    assert refused.status_code == 400, refused.content
    assert refused.json()["currency"][0].startswith(WORDS)
    assert CountEntry.objects.count() == 2
