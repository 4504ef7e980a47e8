"""Every role x every counts endpoint x the user's own site / another site of the organization.

Own site: the role may act (2xx) or is refused (403); reads are open to the count team,
shift managers, gaming managers and auditors. Another site: site roles do not see it (404,
or 400 naming the unknown site/box); org-wide roles see it but only act as their role allows.
"""

import pytest
import time_machine

from cardroom import pins
from cardroom.models import Membership, Role, Station
from core.models import AuditEvent
from counts import services
from counts.models import CountAgreement
from tests.conftest import ALL_ROLES
from tests.factories import TableFactory, make_person
from tests.shared_world import built_once

from .conftest import AFTER_CLOSE, COUNT_TIME, GAMING_DATE, cash

READERS = {Role.COUNT_TEAM, Role.SHIFT_MANAGER, Role.GAMING_MANAGER, Role.AUDITOR}
ORG_WIDE = {Role.GAMING_MANAGER, Role.AUDITOR}


@pytest.fixture(autouse=True)
def _count_night():
    with time_machine.travel(COUNT_TIME, tick=False):
        yield


def _world(site, manager, shift_manager, first, second, table_number):
    box = services.register_drop_box(acting_user=manager.user, table=TableFactory(site=site, number=table_number))
    services.remove_drop_box(
        acting_user=shift_manager.user,
        drop_box=box,
        gaming_date=GAMING_DATE,
        removed_at=AFTER_CLOSE,
        storage_place="safe",
        key_holder=first,
        sole_employee_on_duty=True,
    )
    session = services.open_count_session(
        acting_user=first.user, site=site, gaming_date=GAMING_DATE, members=[first, second]
    )
    return {"box": box, "session": session, "site": site}


@built_once
def worlds(org, site, other_site, cast):
    """A removed box and an open session at the user's site and at another site of the org.
    The cast's count team member is the first member at the own site. Built once for the
    module (tests/shared_world.py), on the count night as the tests run."""
    with time_machine.travel(COUNT_TIME, tick=False):
        return _worlds(org, site, other_site, cast)


def _worlds(org, site, other_site, cast):
    own_second = make_person(org, Role.COUNT_TEAM, site, employment_type="independent")
    cast[Role.COUNT_TEAM].employment_type = "gaming"
    cast[Role.COUNT_TEAM].save()
    own = _world(site, cast[Role.GAMING_MANAGER], cast[Role.SHIFT_MANAGER], cast[Role.COUNT_TEAM], own_second, 1)
    far_team = [make_person(org, Role.COUNT_TEAM, other_site, employment_type=t) for t in ("independent", "gaming")]
    far_shift = make_person(org, Role.SHIFT_MANAGER, other_site)
    other = _world(other_site, cast[Role.GAMING_MANAGER], far_shift, *far_team, 1)
    return {"own": own, "other": other}


def _may(role, where, allowed_roles):
    return role in allowed_roles and (where == "own" or role in ORG_WIDE)


def _visible(role, where):
    return role in READERS and (where == "own" or role in ORG_WIDE)


@pytest.mark.parametrize("role", ALL_ROLES)
@pytest.mark.parametrize("where", ["own", "other"])
def test_reading_a_session(client_for, cast, worlds, role, where):
    response = client_for(cast[role]).get(f"/api/v1/count-sessions/{worlds[where]['session'].pk}/")
    assert response.status_code == (200 if _visible(role, where) else 404)


@pytest.mark.parametrize("role", ALL_ROLES)
@pytest.mark.parametrize("where", ["own", "other"])
def test_registering_a_drop_box(client_for, cast, worlds, role, where):
    table = TableFactory(site=worlds[where]["site"], number=5)
    response = client_for(cast[role]).post("/api/v1/drop-boxes/", {"table": table.pk}, format="json")
    sees_site = where == "own" or role in ORG_WIDE
    expected = 201 if _may(role, where, {Role.GAMING_MANAGER}) else (403 if sees_site else 400)
    assert response.status_code == expected, response.content


@pytest.mark.parametrize("role", ALL_ROLES)
@pytest.mark.parametrize("where", ["own", "other"])
def test_recording_a_removal(client_for, cast, worlds, manager, role, where):
    table = TableFactory(site=worlds[where]["site"], number=6)
    box = services.register_drop_box(acting_user=manager.user, table=table)
    key_holder = worlds[where]["session"].first_member
    payload = {
        "gaming_date": str(GAMING_DATE),
        "storage_place": "safe",
        "key_holder": key_holder.pk,
        "sole_employee_on_duty": True,
    }
    response = client_for(cast[role]).post(f"/api/v1/drop-boxes/{box.pk}/removals/", payload, format="json")
    sees_site = where == "own" or role in ORG_WIDE
    expected = 201 if _may(role, where, {Role.SHIFT_MANAGER}) else (403 if sees_site else 404)
    assert response.status_code == expected, response.content


@pytest.mark.parametrize("role", ALL_ROLES)
@pytest.mark.parametrize("where", ["own", "other"])
def test_opening_a_session(client_for, cast, worlds, org, role, where):
    site = worlds[where]["site"]
    partner = make_person(org, Role.COUNT_TEAM, site, employment_type="independent")
    me = cast[role]
    payload = {"site": site.pk, "gaming_date": "2026-11-12", "members": [me.pk, partner.pk]}
    response = client_for(me).post("/api/v1/count-sessions/", payload, format="json")
    sees_site = where == "own" or role in ORG_WIDE
    expected = 201 if _may(role, where, {Role.COUNT_TEAM}) else (403 if sees_site else 400)
    assert response.status_code == expected, response.content


@pytest.mark.parametrize("role", ALL_ROLES)
@pytest.mark.parametrize("where", ["own", "other"])
@pytest.mark.parametrize("endpoint", ["counts", "resolve", "sign"])
def test_counting_resolving_and_signing(client_for, cast, worlds, role, where, endpoint):
    world = worlds[where]
    # Each endpoint's own fields (strict input: a field an endpoint does not read is a 400).
    payload = {
        "counts": {"box": world["box"].pk, "currency": cash(b20=5)},
        "resolve": {"box": world["box"].pk, "currency": cash(b20=5), "note": "recounted"},
        "sign": {},
    }[endpoint]
    response = client_for(cast[role]).post(
        f"/api/v1/count-sessions/{world['session'].pk}/{endpoint}/", payload, format="json"
    )
    if not _visible(role, where):
        assert response.status_code == 404
    elif role != Role.COUNT_TEAM:
        assert response.status_code == 403
    elif endpoint == "counts":
        assert response.status_code == 201
    else:  # resolve before both counts, sign before anything counted: the member is heard, the rule refuses
        assert response.status_code == 400


def _count_and_sign(world) -> None:
    """Both members count the world's box alike and sign: a signed count, as an adjustment needs."""
    session = world["session"]
    for member in (session.first_member, session.second_member):
        services.record_blind_count(
            acting_user=member.user, session=session, drop_box=world["box"], currency=cash(b20=5)
        )
    for member in (session.first_member, session.second_member):
        services.sign_count(acting_user=member.user, session=session)


@pytest.mark.parametrize("role", ALL_ROLES)
def test_adjusting_a_signed_count(client_for, cast, worlds, role):
    world = worlds["own"]
    session = world["session"]
    _count_and_sign(world)
    payload = {"box": world["box"].pk, "currency": cash(b20=6), "reason": "A $20 was found in the box lid."}
    response = client_for(cast[role]).post(f"/api/v1/count-sessions/{session.pk}/adjustments/", payload, format="json")
    expected = 201 if role == Role.GAMING_MANAGER else (403 if role in READERS else 404)
    assert response.status_code == expected


@pytest.mark.parametrize("kind", Station.Kind.values)
def test_no_station_takes_a_count_adjustment_even_with_the_gaming_managers_pin(api_client, cast, worlds, kind):
    """A count adjustment is a gaming manager's approval, on no station's page (the count tablet
    presents the team's counting, resolving, explaining and signing): every kind refuses it naming
    the house control, with the manager's own badge and PIN, and nothing is written."""
    world = worlds["own"]
    session = world["session"]
    _count_and_sign(world)
    manager = cast[Role.GAMING_MANAGER]
    pins.set_pin(acting_user=manager.user, employee=manager, pin="482913")
    station = pins.create_station(
        acting_user=manager.user, site=world["site"], username=f"st-{kind}", password="Ochre-Lantern-Drift-58",
        name="Count room", kind=kind,
    )  # fmt: skip
    api_client.force_authenticate(station.user)
    payload = {"box": world["box"].pk, "currency": cash(b20=6), "reason": "A $20 was found in the box lid."}
    agreements, events = CountAgreement.objects.count(), AuditEvent.objects.count()
    response = api_client.post(
        f"/api/v1/count-sessions/{session.pk}/adjustments/",
        {**payload, "signer_badge": manager.initials, "signer_pin": "482913"},
        format="json",
    )
    assert response.status_code == 403, (kind, response.content[:300])
    detail = response.json()["detail"]
    assert detail == (
        f"House control: Count room is a {station.get_kind_display().lower()}: no station presents a count "
        "adjustment, a person's work at their own login. Sign in as yourself."
    )
    assert (CountAgreement.objects.count(), AuditEvent.objects.count()) == (agreements, events)


@pytest.mark.parametrize("role", ALL_ROLES)
def test_session_lists_hold_only_visible_sites(client_for, cast, worlds, role):
    ids = {row["id"] for row in client_for(cast[role]).get("/api/v1/count-sessions/").json()["results"]}
    expected = set()
    if role in READERS:
        expected.add(worlds["own"]["session"].pk)
    if role in ORG_WIDE:
        expected.add(worlds["other"]["session"].pk)
    assert ids == expected


def test_a_member_of_a_stranger_organization_sees_nothing(client_for, worlds, stranger_site):
    stranger = make_person(stranger_site.organization, Role.COUNT_TEAM, stranger_site)
    assert client_for(stranger).get(f"/api/v1/count-sessions/{worlds['own']['session'].pk}/").status_code == 404
    assert Membership.objects.filter(employee=stranger).count() == 1
