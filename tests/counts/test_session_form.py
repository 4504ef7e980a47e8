"""The count session form (/counts/): a refused form answers 400 with its message inline, a
partner who may not count named with the count team rule (ND 99-01.3-08-14(2)); each step of
the count (opening it, a box counted, initialling) confirms what it recorded and what comes
next, as the floor's pages do."""

import pytest

from cardroom.models import Role
from counts import services
from counts.models import CountSession
from tests.factories import make_person
from tests.page_support import page

from .conftest import GAMING_DATE, cash
from .test_pages_and_sheet import grid

pytestmark = pytest.mark.django_db


def test_a_form_without_a_partner_is_refused_with_400_citing_the_count_team_rule(client, counters):
    client.force_login(counters[0].user)
    refused = client.post("/counts/", {"gaming_date": GAMING_DATE.isoformat()})
    assert refused.status_code == 400
    assert "ND 99-01.3-08-14(2): a count team is two persons; choose the second member." in page(refused)
    assert not CountSession.objects.exists()


def test_a_partner_who_may_not_count_is_refused_with_400_naming_the_rule(client, org, site, counters):
    cashier = make_person(org, Role.CASHIER, site)
    client.force_login(counters[0].user)
    refused = client.post("/counts/", {"gaming_date": GAMING_DATE.isoformat(), "partner": cashier.pk})
    assert refused.status_code == 400
    text = page(refused)
    assert "ND 99-01.3-08-14(2): the second member is another active count team member" in text
    assert "Select a valid choice" not in text
    assert not CountSession.objects.exists()


def test_opening_the_count_confirms_it_and_says_what_comes_next(client, counters, removed):
    client.force_login(counters[0].user)
    opened = client.post("/counts/", {"gaming_date": GAMING_DATE.isoformat(), "partner": counters[1].pk}, follow=True)
    assert opened.status_code == 200 and CountSession.objects.count() == 1
    assert f"Count of {GAMING_DATE} opened for {counters[0]} and {counters[1]}: each counts every box" in page(opened)


def test_a_box_counted_and_the_count_initialled_are_confirmed(client, counters, session, boxes):
    client.force_login(counters[0].user)
    counted = client.post(f"/counts/sessions/{session.pk}/boxes/{boxes[0].pk}/count/", grid(bill_2000="5"), follow=True)
    assert counted.status_code == 200
    assert f"Your count of drop box {boxes[0].number} recorded: once both members have counted it" in page(counted)
    services.record_blind_count(acting_user=counters[1].user, session=session, drop_box=boxes[0], currency=cash(b20=5))
    for box in boxes[1:]:
        for member in counters:
            services.record_blind_count(acting_user=member.user, session=session, drop_box=box, currency=cash(b20=1))
    signed = client.post(f"/counts/sessions/{session.pk}/sign/", follow=True)
    assert signed.status_code == 200
    assert f"Count of {GAMING_DATE} initialled (1 of 2): now the second member initials it." in page(signed)
