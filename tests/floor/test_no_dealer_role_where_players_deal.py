"""Where the player deals and banks (WA-BJ, WAC 230-40-125(2): `floor.rules.PLAYER_DEALER`) the house
seats no dealer: a dealer shift there is refused, and so is giving the dealer's role at such a
site, wherever a role is given (the memberships API, the employee page, the admin), in the same
words, writing nothing. The role at a site whose house seats dealers is given as before."""

from django.utils.html import escape

from cardroom.models import Role
from core.models import AuditEvent
from tests.factories import SiteFactory, admin_role_added, fees_site, make_person

PLAYER_DEALER_RULE = "WAC 230-40-125(2) (1999 proposed amendment)"


def refusal(site) -> str:
    return (
        f"{PLAYER_DEALER_RULE}: the game at {site} is played with a player who is both the dealer and banker "
        "(dealer/banker), so the house seats no dealer at its tables."
    )


def dealer_roles(employee) -> list:
    return [(m.site.name if m.site else None) for m in employee.memberships.filter(role=Role.DEALER).order_by("pk")]


def test_the_api_refuses_the_dealer_role_at_a_player_dealt_site_and_gives_it_elsewhere(client_for, org):
    manager = make_person(org, Role.GAMING_MANAGER)
    tacoma = fees_site(org)
    spokane = SiteFactory(organization=org, name="Spokane Card Room", jurisdiction="WA-HB")
    person = make_person(org, Role.CASHIER, site=spokane)
    api = client_for(manager)
    before = AuditEvent.objects.count()

    refused = api.post("/api/v1/memberships/", {"employee": person.pk, "site": tacoma.pk, "role": Role.DEALER},
                       format="json")  # fmt: skip
    assert refused.status_code == 400, refused.json()
    assert refused.json()["role"] == [refusal(tacoma)]
    assert dealer_roles(person) == [] and AuditEvent.objects.count() == before

    given = api.post("/api/v1/memberships/", {"employee": person.pk, "site": spokane.pk, "role": Role.DEALER},
                     format="json")  # fmt: skip
    assert given.status_code == 201, given.json()
    assert dealer_roles(person) == ["Spokane Card Room"]

    # Other roles at the player-dealt site are given as before.
    cashier = api.post("/api/v1/memberships/", {"employee": person.pk, "site": tacoma.pk, "role": Role.CASHIER},
                       format="json")  # fmt: skip
    assert cashier.status_code == 201, cashier.json()


def test_the_employee_page_refuses_it_inline_and_writes_nothing(client, org):
    manager = make_person(org, Role.GAMING_MANAGER)
    tacoma = fees_site(org)
    person = make_person(org, Role.CASHIER, site=tacoma)
    before = AuditEvent.objects.count()
    client.force_login(manager.user)
    response = client.post(f"/setup/employees/{person.pk}/membership/add/", {"role": Role.DEALER, "site": tacoma.pk})
    assert response.status_code == 400
    assert response.context["membership_form"].errors["role"] == [refusal(tacoma)]
    assert escape(refusal(tacoma)) in response.content.decode()
    assert dealer_roles(person) == [] and AuditEvent.objects.count() == before


def test_the_admin_refuses_it_on_the_role_row_and_writes_nothing(client, org):
    manager = make_person(org, Role.GAMING_MANAGER)
    tacoma = fees_site(org)
    person = make_person(org, Role.CASHIER, site=tacoma)
    data = admin_role_added(person, tacoma, Role.DEALER)
    before = AuditEvent.objects.count()
    client.force_login(manager.user)
    response = client.post(f"/admin/cardroom/employee/{person.pk}/change/", data)
    assert response.status_code == 400
    assert escape(refusal(tacoma)) in response.content.decode()
    assert dealer_roles(person) == [] and AuditEvent.objects.count() == before
