"""The count through the API: blind entry, agreement, recount, signing, locking, adjustments."""

import pytest
import time_machine

from cardroom.models import EmployeeRelation, Role
from core.models import AuditEvent
from counts.models import CountAgreement, CountEntry, CountSession, CountSignature
from counts.queries import agreed_drop_cents, agreed_drops
from tests.factories import make_person

from .conftest import COUNT_TIME, GAMING_DATE, cash

pytestmark = pytest.mark.usefixtures("removed")

BOX_1 = cash(b100=3, b20=10, b5=4, b1=7, c25=4)  # $300 + $200 + $20 + $7 + $1 = $528.00
BOX_1_CENTS = 52800


@pytest.fixture(autouse=True)
def _count_night():
    with time_machine.travel(COUNT_TIME, tick=False):
        yield


def url(session, action=""):
    return f"/api/v1/count-sessions/{session.pk}/{action + '/' if action else ''}"


def count(client_for, member, session, box, currency, forms=()):
    return client_for(member).post(
        url(session, "counts"), {"box": box.pk, "currency": currency, "forms": list(forms)}, format="json"
    )


def box_view(client_for, viewer, session, box):
    data = client_for(viewer).get(url(session)).json()
    return next(b for b in data["boxes"] if b["box"] == box.pk)


def test_a_member_opens_a_session_for_a_checked_team(client_for, counters, site):
    response = client_for(counters[0]).post(
        "/api/v1/count-sessions/",
        {"site": site.pk, "gaming_date": str(GAMING_DATE), "members": [c.pk for c in counters]},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert [m["id"] for m in response.json()["members"]] == [c.pk for c in counters]
    assert AuditEvent.objects.filter(action="count_session.opened").count() == 1


@pytest.mark.parametrize(
    "problem,text",
    [
        ("supervisor", "supervisor and subordinate"),
        ("relation", "related (sibling)"),
        ("reverse_relation", "related (spouse)"),
        ("auditor", "audits twenty-one"),
        ("gaming_with_non_gaming", "is not one the rule lists"),
        ("gaming_role_recorded_non_gaming", "holds a gaming role (dealer)"),
    ],
)
def test_a_team_failing_the_independence_rule_is_refused_naming_it(client_for, counters, site, manager, problem, text):
    first, second = counters
    if problem == "supervisor":
        second.supervisor = first
        second.save()
    elif problem == "relation":
        EmployeeRelation.objects.create(employee=first, relative=second, kind="sibling")
    elif problem == "reverse_relation":
        EmployeeRelation.objects.create(employee=second, relative=first, kind="spouse")
    elif problem == "auditor":
        # Named the auditor while off the count team, then holding the role from a row written
        # before the grant was refused (no service gives it now: test_twenty_one_auditor): the
        # count still refuses them.
        from cardroom import services as cardroom_services
        from cardroom.models import Membership
        from counts import services

        membership = second.memberships.get(role=Role.COUNT_TEAM)
        cardroom_services.remove_membership(acting_user=manager.user, membership=membership)
        services.update_count_settings(acting_user=manager.user, site=site, twenty_one_auditor=second)
        Membership.objects.create(employee=second, role=Role.COUNT_TEAM, site=site)
    elif problem == "gaming_with_non_gaming":
        first.employment_type = "non_gaming"
        first.save()
    elif problem == "gaming_role_recorded_non_gaming":
        from cardroom.models import Membership

        first.employment_type = second.employment_type = "non_gaming"
        first.save()
        second.save()
        Membership.objects.create(employee=second, site=site, role=Role.DEALER)
    before = (CountSession.objects.count(), AuditEvent.objects.count())
    response = client_for(first).post(
        "/api/v1/count-sessions/",
        {"site": site.pk, "gaming_date": str(GAMING_DATE), "members": [first.pk, second.pk]},
        format="json",
    )
    assert response.status_code == 400
    message = " ".join(response.json()["members"])
    # The auditor bar is a house control: 08-14(2) does not say it.
    assert ("House control" if problem == "auditor" else "ND 99-01.3-08-14(2)") in message and text in message
    assert (CountSession.objects.count(), AuditEvent.objects.count()) == before


@pytest.mark.parametrize(
    "members,text",
    [
        ("one", "exactly two persons"),
        ("not_me", "one of its two members"),
        ("dealer", "not an active count team member"),
    ],
)
def test_a_session_needs_two_count_team_members_including_the_opener(
    client_for, counters, cast, site, org, members, text
):
    other = make_person(org, Role.COUNT_TEAM, site, employment_type="non_gaming")
    ids = {
        "one": [counters[0].pk],
        "not_me": [counters[1].pk, other.pk],
        "dealer": [counters[0].pk, cast[Role.DEALER].pk],
    }[members]
    response = client_for(counters[0]).post(
        "/api/v1/count-sessions/", {"site": site.pk, "gaming_date": str(GAMING_DATE), "members": ids}, format="json"
    )
    assert response.status_code == 400
    assert text in " ".join(response.json()["members"])


def test_neither_member_sees_the_others_figures_until_both_have_counted(client_for, counters, session, boxes):
    first, second = counters
    box = boxes[0]
    assert count(client_for, first, session, box, BOX_1).status_code == 201
    as_second = box_view(client_for, second, session, box)
    assert as_second["counts"] == [] and as_second["agreed_drop_cents"] is None
    assert as_second["differences"] == [] and as_second["agreed_currency"] == []
    assert as_second["counted_by"] == [first.pk] and as_second["status"] == "counting"
    as_first = box_view(client_for, first, session, box)
    assert [c["member"] for c in as_first["counts"]] == [first.pk]
    assert as_first["agreed_drop_cents"] is None
    assert count(client_for, second, session, box, BOX_1).status_code == 201
    both = box_view(client_for, second, session, box)
    assert [c["member"] for c in both["counts"]] == [first.pk, second.pk]
    assert both["agreed_drop_cents"] == BOX_1_CENTS and both["status"] == "agreed"


def test_the_auditor_does_not_see_a_half_finished_count_either(client_for, cast, counters, session, boxes):
    count(client_for, counters[0], session, boxes[0], BOX_1)
    view = box_view(client_for, cast[Role.AUDITOR], session, boxes[0])
    assert view["counts"] == [] and view["agreed_drop_cents"] is None


def test_a_difference_is_resolved_by_recount_with_a_note_then_signed_and_locked(client_for, counters, session, boxes):
    first, second = counters
    count(client_for, first, session, boxes[0], BOX_1)
    count(client_for, second, session, boxes[0], cash(b100=3, b20=9, b5=4, b1=7, c25=4))
    view = box_view(client_for, first, session, boxes[0])
    assert view["status"] == "difference"
    assert view["differences"] == [
        {"denomination_cents": 2000, "form": "bill", "first_quantity": 10, "second_quantity": 9}
    ]
    assert view["agreed_drop_cents"] is None
    for member in counters:
        count(client_for, member, session, boxes[1], cash(b50=2))

    refused = client_for(first).post(url(session, "sign"), {}, format="json")
    assert refused.status_code == 400
    assert "ND 99-01.3-08-14(4)" in refused.json()["box"][0] and "differ" in refused.json()["box"][0]

    no_note = client_for(second).post(
        url(session, "resolve"), {"box": boxes[0].pk, "currency": BOX_1, "note": " "}, format="json"
    )
    assert no_note.status_code == 400 and "note" in no_note.json()
    resolved = client_for(second).post(
        url(session, "resolve"),
        {"box": boxes[0].pk, "currency": BOX_1, "note": "Recounted $20s together: ten."},
        format="json",
    )
    assert resolved.status_code == 201, resolved.json()
    assert box_view(client_for, first, session, boxes[0])["agreement"]["source"] == "recount"

    assert client_for(first).post(url(session, "sign"), {}, format="json").status_code == 201
    late = count(client_for, first, session, boxes[1], cash(b50=3))
    assert late.status_code == 400 and "signed" in late.json()["session"][0]
    again = client_for(first).post(url(session, "sign"), {}, format="json")
    assert again.status_code == 400 and again.json()["member"][0] == (
        "ND 99-01.3-08-14(4): each member signs the count once; you have already signed it."
    )
    final = client_for(second).post(url(session, "sign"), {}, format="json")
    assert final.status_code == 201
    data = final.json()
    assert data["signed"] and [s["initials"] for s in data["signatures"]] == [first.initials, second.initials]
    assert agreed_drop_cents(boxes[0].table, GAMING_DATE) == BOX_1_CENTS
    assert agreed_drop_cents(boxes[1].table, GAMING_DATE) == 10000
    assert [row.amount_cents for row in agreed_drops(session.site, GAMING_DATE, GAMING_DATE)] == [BOX_1_CENTS, 10000]


def test_the_agreed_drop_counts_for_gross_proceeds_only_once_signed(client_for, counters, session, boxes):
    for member in counters:
        count(client_for, member, session, boxes[0], BOX_1)
    assert agreed_drop_cents(boxes[0].table, GAMING_DATE) is None
    assert agreed_drop_cents(boxes[0].table, GAMING_DATE, signed_only=False) == BOX_1_CENTS


BAD_COUNTS = [
    (cash(b20=-1), "currency", "zero or more"),
    ([{"denomination_cents": 2000, "quantity": 1.5}], "currency", "whole number"),
    ([{"denomination_cents": 2000, "quantity": "2.5"}], "currency", "whole number"),
    ([{"denomination_cents": 2500, "quantity": 1}], "currency", "not a US bill or coin"),
    ([{"denomination_cents": 300, "quantity": 1}], "currency", "not a US bill or coin"),
    (
        [{"denomination_cents": 2000, "quantity": 1}, {"denomination_cents": 2000, "quantity": 2}],
        "currency",
        "listed twice",
    ),
    ("lots", "currency", "as a list"),
]


@pytest.mark.parametrize("currency,field,text", BAD_COUNTS)
def test_bad_figures_are_refused_naming_the_field_and_change_nothing(
    client_for, counters, session, boxes, currency, field, text
):
    before = (CountEntry.objects.count(), AuditEvent.objects.count())
    response = count(client_for, counters[0], session, boxes[0], currency)
    assert response.status_code == 400
    assert text in " ".join(response.json()[field])
    assert (CountEntry.objects.count(), AuditEvent.objects.count()) == before


@pytest.mark.parametrize(
    "forms,text",
    [
        ([{"kind": "marker", "number": 1}], "fill slip copy or a credit slip original"),
        ([{"kind": "fill", "number": 0}], "whole number from 1"),
        ([{"kind": "fill", "number": 4}, {"kind": "fill", "number": 4}], "listed twice"),
    ],
)
def test_bad_forms_found_are_refused(client_for, counters, session, boxes, forms, text):
    response = count(client_for, counters[0], session, boxes[0], BOX_1, forms)
    assert response.status_code == 400 and text in " ".join(response.json()["forms"])


def test_a_member_counts_a_box_only_once(client_for, counters, session, boxes):
    count(client_for, counters[0], session, boxes[0], BOX_1)
    response = count(client_for, counters[0], session, boxes[0], BOX_1)
    assert response.status_code == 400 and "already counted" in response.json()["member"][0]
    assert CountEntry.objects.count() == 1


def test_a_third_count_team_member_cannot_count(client_for, session, boxes, org, site):
    third = make_person(org, Role.COUNT_TEAM, site, employment_type="non_gaming")
    response = count(client_for, third, session, boxes[0], BOX_1)
    assert response.status_code == 400
    assert "ND 99-01.3-08-14(2)" in response.json()["member"][0]
    assert not CountEntry.objects.exists()


def test_a_box_never_removed_cannot_be_counted(client_for, counters, session, manager, shift_manager, tables):
    from counts import services

    box = services.register_drop_box(acting_user=manager.user, table=tables[0], label="B")
    services.place_drop_box(acting_user=shift_manager.user, drop_box=box, gaming_date=GAMING_DATE)
    response = count(client_for, counters[0], session, box, BOX_1)
    assert response.status_code == 400
    assert "ND 99-01.3-08-14(1)" in response.json()["box"][0] and "not been removed" in response.json()["box"][0]


@pytest.mark.parametrize("member_there", [False, True])
def test_a_box_of_another_site_cannot_be_counted(client_for, counters, session, manager, other_site, member_there):
    from cardroom.access import forget_access
    from cardroom.models import Membership
    from counts import services
    from tests.factories import TableFactory

    box = services.register_drop_box(acting_user=manager.user, table=TableFactory(site=other_site, number=1))
    if member_there:
        Membership.objects.create(employee=counters[0], site=other_site, role=Role.COUNT_TEAM)
        forget_access(counters[0].user)
    response = count(client_for, counters[0], session, box, BOX_1)
    assert response.status_code == 400
    if member_there:
        assert "another site" in response.json()["box"][0]
    else:
        assert "does not exist" in response.json()["box"][0]


def test_signing_needs_every_removed_box_counted(client_for, counters, session, boxes):
    for member in counters:
        count(client_for, member, session, boxes[0], BOX_1)
    response = client_for(counters[0]).post(url(session, "sign"), {}, format="json")
    assert response.status_code == 400
    assert "has not been counted" in " ".join(response.json()["box"])
    assert not CountSignature.objects.exists()


def test_a_signed_count_is_corrected_only_by_a_gaming_managers_adjusting_entry(
    client_for, counters, session, boxes, manager, cast
):
    for box in boxes:
        for member in counters:
            count(client_for, member, session, box, BOX_1)
    for member in counters:
        client_for(member).post(url(session, "sign"), {}, format="json")
    payload = {
        "box": boxes[0].pk,
        "currency": cash(b100=3, b20=10, b5=4, b1=8, c25=4),
        "reason": "A $1 bill stuck in the box lid.",
    }
    assert (
        client_for(cast[Role.SHIFT_MANAGER]).post(url(session, "adjustments"), payload, format="json").status_code
        == 403
    )
    assert (
        client_for(manager).post(url(session, "adjustments"), {**payload, "reason": ""}, format="json").status_code
        == 400
    )
    response = client_for(manager).post(url(session, "adjustments"), payload, format="json")
    assert response.status_code == 201, response.json()
    view = next(b for b in response.json()["boxes"] if b["box"] == boxes[0].pk)
    assert view["agreed_drop_cents"] == BOX_1_CENTS + 100
    assert view["agreement"]["original_cents"] == BOX_1_CENTS and view["agreement"]["approved_by"] == manager.pk
    assert agreed_drop_cents(boxes[0].table, GAMING_DATE) == BOX_1_CENTS + 100
    assert CountAgreement.objects.count() == 3  # the originals stay


def test_the_database_refuses_to_change_an_agreed_count(client_for, counters, session, boxes):
    from django.db import IntegrityError, transaction

    for member in counters:
        count(client_for, member, session, boxes[0], BOX_1)
    with pytest.raises(IntegrityError), transaction.atomic():
        CountAgreement.objects.update(total_cents=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        CountEntry.objects.all().delete()


def test_the_schema_documents_the_count_endpoints_and_their_errors(client, manager):
    client.force_login(manager.user)
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    for path in (
        "/api/v1/drop-boxes/",
        "/api/v1/drop-boxes/{id}/removals/",
        "/api/v1/count-sessions/",
        "/api/v1/count-sessions/{id}/counts/",
        "/api/v1/count-sessions/{id}/resolve/",
        "/api/v1/count-sessions/{id}/sign/",
    ):
        assert {"400", "403"} <= set(schema["paths"][path]["post"]["responses"]), path
