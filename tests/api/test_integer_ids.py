"""An id in a request body is a whole number (house control): a fraction, a decimal string or a
boolean is a 400 naming the field, never truncated to another row's id (cardroom.api)."""

import pytest

from cardroom.models import Membership, Role, Table
from core import limits
from floor.models import Slip
from tests.floor.conftest import FILL

NOT_IDS = [lambda pk: pk + 0.9, lambda pk: f"{pk}.9", lambda pk: f"{pk}.0", lambda pk: True, lambda pk: "²"]


def refused_naming(response, field: str) -> str:
    assert response.status_code == 400, response.content[:300]
    message = " ".join(response.json()[field])
    assert "House control:" in message and "whole number" in message
    return message


@pytest.mark.parametrize("not_an_id", NOT_IDS)
def test_a_fill_slip_on_a_fractional_table_id_is_refused_naming_the_table(client_for, cast, open_table, not_an_id):
    body = {"table": not_an_id(open_table.pk), "chips": FILL}
    response = client_for(cast[Role.CASHIER]).post("/api/v1/fill-slips/", body, format="json")
    refused_naming(response, "table")
    assert not Slip.objects.exists()


def test_a_table_on_a_fractional_site_id_is_refused_and_a_whole_one_in_a_form_body_is_read(client_for, manager, site):
    api = client_for(manager)
    body = {"site": site.pk + 0.5, "number": 7, "min_wager_cents": 100, "max_wager_cents": 2500}
    assert str(site.pk) in refused_naming(api.post("/api/v1/tables/", body, format="json"), "site")
    assert not Table.objects.filter(number=7).exists()
    # A form body reads an absent boolean as false (HTML forms send no unchecked box), so the
    # options ND 99-01.3-08-09(2)(c),(d) and 08-02(3) (jumbo-faced cards) require are sent.
    required = {
        "double_after_split": "true",
        "resplit_allowed": "true",
        "split_aces_one_card": "true",
        "jumbo_faced_cards": "true",
    }
    form = {**body, "site": str(site.pk), **required}
    assert api.post("/api/v1/tables/", form).status_code == 201


@pytest.mark.parametrize("value", [True, 0, -1, limits.MAX_ID + 1, "1e3"])
def test_a_membership_for_an_employee_id_that_is_not_one_is_refused(client_for, manager, cast, site, value):
    response = client_for(manager).post(
        "/api/v1/memberships/", {"employee": value, "site": site.pk, "role": Role.DEALER}, format="json"
    )
    refused_naming(response, "employee")
    assert Membership.objects.filter(role=Role.DEALER).count() == 1  # the cast's dealer only
