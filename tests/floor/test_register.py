"""The slip register and pre-printed slip books (ND 99-01.3-08-05(2))."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError

from cardroom.models import Role
from floor import services
from floor.calculations import check_series
from floor.queries import slip_register

from .conftest import FILL, today


def test_check_series_finds_missing_and_out_of_order_numbers():
    result = check_series([1, 2, 5, 3, 6])
    assert result.missing == [4]
    assert result.out_of_order == [3]


def test_check_series_looks_for_gaps_up_to_the_given_ends_inclusive():
    """ND 99-01.3-08-05(2): every number of the series accounted for, its first and last too."""
    assert check_series([3, 4], first=1, last=6).missing == [1, 2, 5, 6]


def test_check_series_of_nothing_is_clean():
    assert check_series([]).missing == []


def test_the_register_lists_every_number_in_order_with_its_status(open_table, cast, site, dealer_shift):
    cashier = cast[Role.CASHIER].user
    slips = [services.prepare_fill(acting_user=cashier, table=open_table, chips=FILL) for _ in range(3)]
    services.verify_slip(acting_user=cast[Role.PIT_BOSS].user, slip=slips[1])
    services.void_slip(acting_user=cashier, slip=slips[2], reason="typo")
    services.prepare_credit(acting_user=cast[Role.DEALER].user, table=open_table, chips=FILL)
    register = slip_register(site, today(site), today(site))
    fills, credits = register.series
    assert [(e.number, e.status) for e in fills.entries] == [(1, "issued"), (2, "verified"), (3, "voided")]
    assert (fills.missing, fills.out_of_order, fills.unused) == ([], [], [])
    assert [(e.number, e.status) for e in credits.entries] == [(1, "issued")]


def test_a_slip_book_shows_missing_out_of_order_and_unused_numbers(open_table, cast, site, shift_manager):
    services.register_slip_book(
        acting_user=shift_manager.user, site=site, kind="fill", first_number=101, last_number=110
    )
    cashier = cast[Role.CASHIER].user
    for number in (101, 104, 103):
        services.prepare_fill(acting_user=cashier, table=open_table, chips=FILL, number=number)
    fills = slip_register(site, today(site), today(site)).series[0]
    assert fills.missing == [102]
    assert fills.out_of_order == [103]
    assert fills.unused == list(range(105, 111))
    assert [e.status for e in fills.entries[:4]] == ["issued", "missing", "issued", "issued"]


def test_a_site_with_a_slip_book_must_give_the_printed_number(open_table, cast, site, shift_manager):
    services.register_slip_book(acting_user=shift_manager.user, site=site, kind="fill", first_number=1, last_number=50)
    with pytest.raises(ValidationError) as caught:
        services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=open_table, chips=FILL)
    assert "ND 99-01.3-08-05(2)" in caught.value.message_dict["number"][0]


@pytest.mark.parametrize("number", [51, 7])
def test_a_printed_number_outside_the_books_or_already_used_is_refused(open_table, cast, site, shift_manager, number):
    services.register_slip_book(acting_user=shift_manager.user, site=site, kind="fill", first_number=1, last_number=50)
    services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=open_table, chips=FILL, number=7)
    with pytest.raises(ValidationError, match="ND 99-01.3-08-05\\(2\\)"):
        services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=open_table, chips=FILL, number=number)


def test_overlapping_slip_books_are_refused(site, shift_manager):
    services.register_slip_book(
        acting_user=shift_manager.user, site=site, kind="credit", first_number=1, last_number=50
    )
    with pytest.raises(ValidationError, match="overlaps"):
        services.register_slip_book(
            acting_user=shift_manager.user, site=site, kind="credit", first_number=50, last_number=99
        )
    assert services.register_slip_book(
        acting_user=shift_manager.user, site=site, kind="fill", first_number=1, last_number=50
    )


def test_a_series_already_numbered_electronically_takes_no_book(fill, site, shift_manager):
    with pytest.raises(ValidationError, match="electronically"):
        services.register_slip_book(
            acting_user=shift_manager.user, site=site, kind="fill", first_number=100, last_number=150
        )


def test_the_register_endpoint_needs_both_dates(client_for, cast, site, fill):
    client = client_for(cast[Role.AUDITOR])
    response = client.get(f"/api/v1/sites/{site.pk}/slip-register/", {"start": "2026-13-01"})
    assert response.status_code == 400
    assert "start" in response.json()
    day = str(today(site))
    body = client.get(f"/api/v1/sites/{site.pk}/slip-register/", {"start": day, "end": day}).json()
    assert body["series"][0]["entries"][0]["slip"]["number"] == 1


def test_slips_of_another_period_are_not_in_the_register(fill, site):
    earlier = today(site) - timedelta(days=10)
    assert slip_register(site, earlier, earlier).series[0].entries == []
    assert [e.number for e in slip_register(site, today(site), today(site)).series[0].entries] == [1]


REGISTER_READERS = {  # floor.rules.SLIP_REGISTER: who prepares, verifies or registers slips, and oversight
    Role.GAMING_MANAGER, Role.AUDITOR, Role.SHIFT_MANAGER, Role.PIT_BOSS, Role.CASHIER,
}  # fmt: skip


@pytest.mark.parametrize("role", list(Role))
def test_the_register_is_read_by_its_roles_on_the_page_the_api_and_the_menu_alike(client, client_for, cast, site, role):
    """Not by the dealers at the tables nor the count team, whose count stays apart from the
    chips' movements: their menu offers no register, and its address refuses them (it used to
    answer anyone at the site who typed it)."""
    day = str(today(site))
    api = client_for(cast[role]).get(f"/api/v1/sites/{site.pk}/slip-register/", {"start": day, "end": day})
    client.force_login(cast[role].user)
    page = client.get("/floor/register/")
    home = client.get("/").content.decode()
    may = role in REGISTER_READERS
    assert (api.status_code, page.status_code) == ((200, 200) if may else (403, 403))
    assert ('href="/floor/register/"' in home) is may
    if not may:
        assert "see the slip register" in api.json()["detail"]
