"""The slip books page (/floor/slip-books/): register a book of pre-printed slips in the
browser with the API's service and messages (ND 99-01.3-08-05(2)), list the site's books with
how far each is used; only who may register a book opens it."""

import pytest

from cardroom.models import Role
from floor import services
from floor.models import SlipBook
from tests.conftest import ALL_ROLES
from tests.factories import make_person
from tests.page_support import as_user, assert_opens_only_for, page

from .conftest import FILL

URL = "/floor/slip-books/"


@pytest.mark.parametrize("role", ALL_ROLES)
def test_only_a_gaming_manager_or_shift_manager_opens_the_page(client, cast, role):
    assert_opens_only_for(
        as_user(client, cast[role]).get(URL),
        allowed=role in (Role.GAMING_MANAGER, Role.SHIFT_MANAGER),
        refusal="House control: only a gaming manager or shift manager may register a slip book.",
    )


@pytest.mark.parametrize("role", [Role.PIT_BOSS, Role.CASHIER, Role.AUDITOR, Role.DEALER])
def test_other_roles_register_no_book(client, cast, role):
    response = as_user(client, cast[role]).post(URL, {"kind": "fill", "first_number": 1, "last_number": 50})
    assert response.status_code == 403
    assert not SlipBook.objects.exists()


def test_a_gaming_manager_registers_a_book_and_sees_it_listed(client, cast, site):
    manager = as_user(client, cast[Role.GAMING_MANAGER])
    response = manager.post(URL, {"kind": "fill", "first_number": 1001, "last_number": 1050})
    assert response.status_code == 302 and response["Location"] == URL
    book = SlipBook.objects.get()
    assert (book.site, book.kind, book.first_number, book.last_number) == (site, "fill", 1001, 1050)
    assert book.registered_by == cast[Role.GAMING_MANAGER]
    text = page(manager.get(URL))
    assert "Fill slip book 1001-1050 is registered" in text
    assert "1001–1050" in text


def test_the_list_shows_how_far_a_book_is_used(client, cast, site, open_table):
    services.register_slip_book(
        acting_user=cast[Role.SHIFT_MANAGER].user, site=site, kind="fill", first_number=1001, last_number=1050
    )
    services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=open_table, chips=FILL, number=1001)
    services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=open_table, chips=FILL, number=1002)
    text = page(as_user(client, cast[Role.SHIFT_MANAGER]).get(URL))
    assert "<td>1001–1050</td><td>2</td><td>1002</td>" in text


def test_an_overlapping_book_is_refused_inline_with_the_apis_words(client, client_for, cast, site):
    services.register_slip_book(
        acting_user=cast[Role.GAMING_MANAGER].user, site=site, kind="credit", first_number=1, last_number=50
    )
    api = client_for(cast[Role.GAMING_MANAGER]).post(
        "/api/v1/slip-books/", {"site": site.pk, "kind": "credit", "first_number": 40, "last_number": 90}, format="json"
    )
    assert api.status_code == 400
    message = api.json()["first_number"][0]
    assert message == "ND 99-01.3-08-05(2): the range overlaps a registered book."
    response = as_user(client, cast[Role.GAMING_MANAGER]).post(
        URL, {"kind": "credit", "first_number": 40, "last_number": 90}
    )
    assert response.status_code == 400
    assert message in page(response)
    assert "first_number:" not in page(response)
    assert SlipBook.objects.count() == 1


def test_a_range_out_of_order_is_refused_inline(client, cast):
    response = as_user(client, cast[Role.GAMING_MANAGER]).post(
        URL, {"kind": "fill", "first_number": 90, "last_number": 40}
    )
    assert response.status_code == 400
    assert "ND 99-01.3-08-05(2): give a range of printed numbers, first to last." in page(response)


def test_a_series_already_numbered_electronically_takes_no_book(client, cast, open_table):
    services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=open_table, chips=FILL)
    response = as_user(client, cast[Role.GAMING_MANAGER]).post(
        URL, {"kind": "fill", "first_number": 1, "last_number": 50}
    )
    assert response.status_code == 400
    assert "already numbers this series electronically (up to 1)" in page(response)


def test_a_number_past_the_form_limit_is_refused_by_the_form(client, cast):
    response = as_user(client, cast[Role.GAMING_MANAGER]).post(
        URL, {"kind": "fill", "first_number": 1, "last_number": 100_000_000}
    )
    assert response.status_code == 400
    assert "A form number is at most 99,999,999 (house control)." in page(response)


def test_the_page_lists_only_the_current_sites_books(client, cast, site, other_site, stranger_site):
    gm = cast[Role.GAMING_MANAGER]
    services.register_slip_book(acting_user=gm.user, site=other_site, kind="fill", first_number=7001, last_number=7050)
    stranger_gm = make_person(stranger_site.organization, Role.GAMING_MANAGER)
    services.register_slip_book(
        acting_user=stranger_gm.user, site=stranger_site, kind="fill", first_number=8001, last_number=8050
    )
    manager = as_user(client, gm)
    manager.post("/switch-site/", {"site": site.pk})
    text = page(manager.get(URL))
    assert "7001" not in text and "8001" not in text
    manager.post("/switch-site/", {"site": other_site.pk})
    assert "7001–7050" in page(manager.get(URL))
    # Another organization's site cannot be chosen.
    assert manager.post("/switch-site/", {"site": stranger_site.pk}).status_code == 404


def test_a_shift_manager_of_another_site_registers_at_their_own_site_only(client, org, other_site, site):
    shift = make_person(org, Role.SHIFT_MANAGER, other_site)
    response = as_user(client, shift).post(URL, {"kind": "fill", "first_number": 1, "last_number": 50})
    assert response.status_code == 302
    assert SlipBook.objects.get().site == other_site
    assert not SlipBook.objects.filter(site=site).exists()
