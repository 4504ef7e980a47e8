"""The fill form's cashier list (ND 99-01.3-08-05(3)(c)): a shift manager or pit boss is offered
no "I am the cashier" they cannot be (the walk of the demo: the default was refused on submit),
the one cashier on the list is chosen for them, and a dealer dealing at a table is not offered
(the service refuses them as "dealing at a table"). A cashier keeps "I am the cashier"."""

import re

import pytest

from cardroom.models import Role
from floor.models import Slip
from tests.factories import make_person

from .test_pages_slips import GRID, page


def _cashier_options(html: str) -> list[tuple[str, str, bool]]:
    select = html[html.index('name="cashier"') : html.index("</select>", html.index('name="cashier"'))]
    return [
        (v, label, bool(chosen))
        for v, chosen, label in re.findall(r'<option value="(\d*)"( selected)?>([^<]*)<', select)
    ]


@pytest.mark.parametrize("role", [Role.SHIFT_MANAGER, Role.PIT_BOSS])
def test_a_supervisor_is_offered_the_cashier_not_themself_and_not_a_seated_dealer(
    client, cast, open_table, dealer_shift, role
):
    client.force_login(cast[role].user)
    options = _cashier_options(page(client.get(f"/floor/slips/new/fill/?table={open_table.pk}")))
    cashier, dealer = cast[Role.CASHIER], cast[Role.DEALER]
    assert options[0][:2] == ("", "Choose the cashier")
    assert [v for v, _, _ in options[1:]] == [str(cashier.pk)]  # the seated dealer is not offered
    assert options[1][2] is True  # the one cashier, chosen
    assert not [o for o in options if "I am" in o[1]] and str(dealer.pk) not in {v for v, _, _ in options}
    # A dealer not seated may act as cashier: offered, but the site's one cashier is the one chosen.
    second = make_person(cast[Role.CASHIER].organization, Role.DEALER, open_table.site)
    options = _cashier_options(page(client.get(f"/floor/slips/new/fill/?table={open_table.pk}")))
    assert str(second.pk) in {v for v, _, _ in options}
    assert [v for v, _, chosen in options if chosen] == [str(cashier.pk)]
    response = client.post("/floor/slips/new/fill/", {**GRID, "table": open_table.pk, "cashier": str(cashier.pk)})
    assert response.status_code == 302
    assert Slip.objects.get().lines.count() == 2


def test_a_cashier_may_leave_it_blank_as_the_cashier(client, cast, open_table):
    client.force_login(cast[Role.CASHIER].user)
    options = _cashier_options(page(client.get(f"/floor/slips/new/fill/?table={open_table.pk}")))
    assert options[0][:2] == ("", "I am the cashier") and options[0][2] is True


def test_on_a_shared_station_nobody_is_i_the_badge_holder_is_the_cashier(client, station, open_table):
    """A station is no person: its fill form says the blank cashier is the badge holder's, not "I"."""
    client.force_login(station.user)
    options = _cashier_options(page(client.get(f"/floor/slips/new/fill/?table={open_table.pk}")))
    assert options[0][:2] == ("", "The badge holder below is the cashier")
    assert not [o for o in options if "I am" in o[1]]
