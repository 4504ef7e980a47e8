"""A count on one tablet: a station login at the site shows the count; each member initials
their own steps (open, count, recount, sign) with their badge and PIN, checked against their
own roles and the count-team rule (ND 99-01.3-08-14) and audited as theirs, the station noted.
Each member's figures stay hidden on the tablet until both counts are in."""

import re

import pytest
import time_machine

from cardroom import pins
from cardroom.access import STATION_READS
from cardroom.models import Role, SigningPin
from core.models import AuditEvent
from core.pins import PIN_FAILURE_LIMIT
from counts import services
from counts.models import CountEntry, CountSession, CountSignature
from tests.factories import SiteFactory, make_person

from .conftest import COUNT_TIME, GAMING_DATE, PINS, cash

BOX_FIGURES = cash(b100=2, b20=5)  # $300.00


@pytest.fixture(autouse=True)
def _count_night():
    with time_machine.travel(COUNT_TIME, tick=False):
        yield


def signed(member, pin=None):
    return {"signer_badge": member.initials, "signer_pin": pin or PINS[0]}


def signed_as(counters, index, pin=None):
    return {"signer_badge": counters[index].initials, "signer_pin": pin or PINS[index]}


def api_url(session, action=""):
    return f"/api/v1/count-sessions/{session.pk}/{action + '/' if action else ''}"


def grid(figures):
    """API currency lines as the count page's grid inputs."""
    return {f"q_{line['form']}_{line['denomination_cents']}": str(line["quantity"]) for line in figures}


# --- What the tablet sees -------------------------------------------------------------------------


def test_a_tablet_sees_the_counts_of_its_own_site_only(client, api_client, tablet, session, org):
    other_site = SiteFactory(organization=org)
    first, second = (make_person(org, Role.COUNT_TEAM, other_site) for _ in range(2))
    other = CountSession.objects.create(
        site=other_site,
        gaming_date=GAMING_DATE,
        first_member=first,
        second_member=second,
        opened_by=first,
        opened_at=COUNT_TIME,
    )
    client.force_login(tablet.user)
    assert client.get("/counts/").status_code == 200
    assert client.get(f"/counts/sessions/{session.pk}/").status_code == 200
    assert client.get(f"/counts/sessions/{other.pk}/").status_code == 404
    # Through the API the tablet's token alone reads no count (cardroom.access.STATION_READS):
    # its own site's and another's are refused alike.
    api_client.force_authenticate(tablet.user)
    for url in ("/api/v1/count-sessions/", api_url(session), api_url(other)):
        response = api_client.get(url)
        assert response.status_code == 403 and response.json()["detail"] == STATION_READS.refusal()


def test_the_tablet_shows_no_members_figures_until_both_are_in_and_a_members_own_after_their_pin(
    client, tablet, with_pins, session, boxes
):
    services.record_blind_count(acting_user=with_pins[0].user, session=session, drop_box=boxes[0], currency=BOX_FIGURES)
    client.force_login(tablet.user)
    page = client.get(f"/counts/sessions/{session.pk}/").content.decode()
    assert "$300.00" not in page
    assert "hidden on this tablet until both counts are in" in page
    # The other member's PIN does not show the first member's figures.
    other = client.post(f"/counts/sessions/{session.pk}/mine/", signed_as(with_pins, 1)).content.decode()
    assert "$300.00" not in other
    mine = client.post(f"/counts/sessions/{session.pk}/mine/", signed_as(with_pins, 0)).content.decode()
    assert f"{with_pins[0].initials}'s count: $300.00" in mine
    wrong = client.post(f"/counts/sessions/{session.pk}/mine/", signed_as(with_pins, 0, "000001"))
    assert wrong.status_code == 403 and "$300.00" not in wrong.content.decode()
    assert SigningPin.objects.get(employee=with_pins[0]).failed_attempts == 1


# --- Each step initialled with a PIN, in the browser ----------------------------------------------


def test_two_members_count_and_sign_on_one_tablet_each_recorded_as_themselves(
    client, tablet, with_pins, session, boxes
):
    client.force_login(tablet.user)
    for index in (0, 1):
        for box in boxes:
            response = client.post(
                f"/counts/sessions/{session.pk}/boxes/{box.pk}/count/",
                {**grid(BOX_FIGURES), **signed_as(with_pins, index)},
            )
            assert response.status_code == 302, response.content.decode()[-1500:]
    for index in (0, 1):
        assert client.post(f"/counts/sessions/{session.pk}/sign/", signed_as(with_pins, index)).status_code == 302
    assert set(CountEntry.objects.values_list("entered_by", flat=True)) == {m.pk for m in with_pins}
    assert [s.member for s in CountSignature.objects.order_by("pk")] == list(with_pins)
    for event in AuditEvent.objects.filter(action__in=["count.member_counted", "count.signed"]):
        assert event.actor_id in {m.user_id for m in with_pins}
        assert event.after["station"] == "count-tablet-1"


def test_a_member_opens_the_count_on_the_tablet_with_their_pin(client, tablet, with_pins, site, removed):
    client.force_login(tablet.user)
    response = client.post(
        "/counts/",
        {"gaming_date": str(GAMING_DATE), "partner": with_pins[1].pk, **signed_as(with_pins, 0)},
    )
    assert response.status_code == 302, response.content.decode()[-1500:]
    session = CountSession.objects.get()
    assert session.opened_by == with_pins[0]
    assert AuditEvent.objects.get(action="count_session.opened").after["station"] == "count-tablet-1"


def test_one_person_is_not_a_count_team_on_a_tablet(client, tablet, with_pins, removed):
    client.force_login(tablet.user)
    response = client.post(
        "/counts/", {"gaming_date": str(GAMING_DATE), "partner": with_pins[0].pk, **signed_as(with_pins, 0)}
    )
    assert response.status_code == 400
    assert "ND 99-01.3-08-14(2): a count team is exactly two persons." in response.content.decode()
    assert not CountSession.objects.exists()


def test_on_a_tablet_a_wrong_pin_counts_nothing_and_the_page_says_so(client, tablet, with_pins, session, boxes):
    client.force_login(tablet.user)
    response = client.post(
        f"/counts/sessions/{session.pk}/boxes/{boxes[0].pk}/count/",
        {**grid(BOX_FIGURES), **signed_as(with_pins, 0, "000001")},
    )
    assert response.status_code == 403
    assert "that badge and PIN do not match" in response.content.decode()
    assert not CountEntry.objects.exists()


def test_on_a_tablet_a_step_with_no_pin_is_refused(client, tablet, session, boxes):
    client.force_login(tablet.user)
    response = client.post(f"/counts/sessions/{session.pk}/boxes/{boxes[0].pk}/count/", grid(BOX_FIGURES))
    assert response.status_code == 403
    assert "a station signs nothing itself" in response.content.decode()
    assert not CountEntry.objects.exists()


def test_on_a_tablet_a_pin_holder_outside_the_count_team_is_refused_with_the_rule(client, tablet, cast, session, boxes):
    dealer = cast[Role.DEALER]
    pins.set_pin(acting_user=dealer.user, employee=dealer, pin="771204")
    client.force_login(tablet.user)
    response = client.post(
        f"/counts/sessions/{session.pk}/sign/", {"signer_badge": dealer.initials, "signer_pin": "771204"}
    )
    assert response.status_code == 403
    assert "ND 99-01.3-08-14(4): only a count team member may sign the count." in response.content.decode()
    assert not CountSignature.objects.exists()


# --- The same through the API ---------------------------------------------------------------------


def test_through_the_api_a_tablet_counts_with_a_members_pin_and_the_answer_shows_only_their_figures(
    api_client, tablet, with_pins, session, boxes
):
    api_client.force_authenticate(tablet.user)
    response = api_client.post(
        api_url(session, "counts"),
        {"box": boxes[0].pk, "currency": BOX_FIGURES, **signed_as(with_pins, 0)},
        format="json",
    )
    assert response.status_code == 201, response.json()
    box = next(b for b in response.json()["boxes"] if b["box"] == boxes[0].pk)
    assert [c["member"] for c in box["counts"]] == [with_pins[0].pk]
    entry = CountEntry.objects.get()
    assert entry.entered_by == with_pins[0]
    event = AuditEvent.objects.get(action="count.member_counted")
    assert event.actor_id == with_pins[0].user_id and event.after["station"] == "count-tablet-1"
    # The station alone reads no count figures back (cardroom.access.STATION_READS).
    assert api_client.get(api_url(session)).status_code == 403


@pytest.mark.parametrize(
    "signer,status,text",
    [
        ("wrong_pin", 403, "that badge and PIN do not match"),
        ("no_pin", 403, "a station signs nothing itself"),
        ("dealer", 403, "ND 99-01.3-08-14(4): only a count team member may count."),
        ("outsider", 400, "ND 99-01.3-08-14(2): only the two members of this session's count team may count."),
    ],
)
def test_through_the_api_a_count_is_refused_to_the_wrong_pin_or_person(
    api_client, tablet, with_pins, session, boxes, cast, org, site, signer, status, text
):
    fields = {
        "wrong_pin": signed_as(with_pins, 0, "000001"),
        "no_pin": {},
    }.get(signer)
    if fields is None:
        person = cast[Role.DEALER] if signer == "dealer" else make_person(org, Role.COUNT_TEAM, site)
        pins.set_pin(acting_user=person.user, employee=person, pin="771204")
        fields = {"signer_badge": person.initials, "signer_pin": "771204"}
    api_client.force_authenticate(tablet.user)
    response = api_client.post(
        api_url(session, "counts"), {"box": boxes[0].pk, "currency": BOX_FIGURES, **fields}, format="json"
    )
    assert response.status_code == status
    assert text in str(response.json())
    assert not CountEntry.objects.exists()


def test_through_the_api_a_locked_pin_signs_nothing_even_when_right(api_client, tablet, with_pins, session, boxes):
    api_client.force_authenticate(tablet.user)
    for member in with_pins:
        for box in boxes:
            services.record_blind_count(acting_user=member.user, session=session, drop_box=box, currency=BOX_FIGURES)
    for _ in range(PIN_FAILURE_LIMIT):
        api_client.post(api_url(session, "sign"), signed_as(with_pins, 0, "000001"), format="json")
    response = api_client.post(api_url(session, "sign"), signed_as(with_pins, 0), format="json")
    assert response.status_code == 403
    assert f"locked after {PIN_FAILURE_LIMIT} wrong entries" in str(response.json())
    assert not CountSignature.objects.exists()
    assert AuditEvent.objects.filter(action="signing_pin.locked_out").count() == 1
    # The other member's PIN still works: the lock is one person's.
    assert api_client.post(api_url(session, "sign"), signed_as(with_pins, 1), format="json").status_code == 201
    assert CountSignature.objects.get().member == with_pins[1]


def test_a_members_own_login_still_counts_without_a_pin(client_for, counters, session, boxes):
    response = client_for(counters[0]).post(
        api_url(session, "counts"), {"box": boxes[0].pk, "currency": BOX_FIGURES}, format="json"
    )
    assert response.status_code == 201
    assert "station" not in AuditEvent.objects.get(action="count.member_counted").after


def test_the_tablets_home_page_leads_to_the_count(client, tablet):
    client.force_login(tablet.user)
    page = client.get("/", follow=True).content.decode()  # a station's home is its site's pit (issue 33)
    assert 'href="/counts/"' in page and 'id="station-counts"' in page and "not linked to an employee" not in page


def badge_choices(page: str, select_id: str) -> tuple[list[str], list[str]]:
    """The badges a tablet's selector offers, and those preselected."""
    select = re.search(rf'<select[^>]*id="{select_id}"[^>]*>(.*?)</select>', page, re.S).group(1)
    options = re.findall(r'<option value="([^"]*)"([^>]*)>', select)
    return [v for v, _ in options if v], [v for v, attrs in options if v and "selected" in attrs]


def test_on_a_tablet_the_one_member_still_to_count_a_box_or_to_initial_is_preselected(
    client, tablet, with_pins, session, boxes
):
    """The count's steps go member by member: once one has counted a box (or initialled the count)
    the tablet offers, preselected, only the other, so each second step is the PIN and Enter."""
    first, second = (m.initials for m in with_pins)
    client.force_login(tablet.user)
    count_url = f"/counts/sessions/{session.pk}/boxes/{boxes[0].pk}/count/"
    assert badge_choices(client.get(count_url).content.decode(), "id_signer_badge") == ([first, second], [])
    assert client.post(count_url, {**grid(BOX_FIGURES), **signed_as(with_pins, 0)}).status_code == 302
    assert badge_choices(client.get(count_url).content.decode(), "id_signer_badge") == ([second], [second])
    for index, box in ((1, boxes[0]), (0, boxes[1]), (1, boxes[1])):
        services.record_blind_count(
            acting_user=with_pins[index].user, session=session, drop_box=box, currency=BOX_FIGURES
        )
    session_url = f"/counts/sessions/{session.pk}/"
    assert badge_choices(client.get(session_url).content.decode(), "sign_signer_badge") == ([first, second], [])
    assert client.post(f"{session_url}sign/", signed_as(with_pins, 1)).status_code == 302
    assert badge_choices(client.get(session_url).content.decode(), "sign_signer_badge") == ([first], [first])
    # Seeing one's own count stays open to either member.
    assert badge_choices(client.get(session_url).content.decode(), "mine_signer_badge")[0] == [first, second]
