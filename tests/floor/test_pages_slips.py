"""Fill and credit slip pages: prepare, verify, receive, void, print, queues and register, with
the service's message inline (the same words as the API)."""

import io

import pytest
from pypdf import PdfReader

from cardroom.models import Role
from floor import services
from floor.models import Slip, SlipStep
from tests.factories import TableFactory

from .conftest import FILL

GRID = {"qty_2500": "20", "qty_500": "20", "purpose": "regular"}


def page(response) -> str:
    return response.content.decode()


def api_error(client_for, employee, url, data=None) -> str:
    response = client_for(employee).post(url, data or {}, format="json")
    assert response.status_code == 400, response.content
    body = response.json()
    return next(iter(body.values()))[0] if isinstance(body, dict) else body[0]


def test_a_cashier_prepares_a_fill_from_the_quantity_grid(client, cast, open_table):
    client.force_login(cast[Role.CASHIER].user)
    response = client.post("/floor/slips/new/fill/", {**GRID, "table": open_table.pk})
    slip = Slip.objects.get(kind="fill")
    assert response.status_code == 302 and response["Location"] == f"/floor/slips/{slip.pk}/"
    assert slip.total_cents == 20 * 2500 + 20 * 500
    assert sorted(slip.lines.values_list("value_cents", "quantity")) == [(500, 20), (2500, 20)]


def test_the_prepared_message_names_who_can_verify_or_says_nobody_else_can(client, cast, open_table):
    """08-05(5): verified by someone on duty who is not dealing; a lone shift manager who prepares
    the slip is not sent looking for a verifier: it is received unverified, its receiver saying why."""
    shift_manager = cast[Role.SHIFT_MANAGER]  # opened the day: presumed on duty, the register empty
    client.force_login(cast[Role.CASHIER].user)
    text = page(client.post("/floor/slips/new/fill/", {**GRID, "table": open_table.pk}, follow=True))
    assert f"prepared: now have it verified ({shift_manager} on duty)." in text
    client.force_login(shift_manager.user)
    fill = {**GRID, "table": open_table.pk, "cashier": cast[Role.CASHIER].pk}
    text = page(client.post("/floor/slips/new/fill/", fill, follow=True))
    # The pit boss is not on the register, but verifying signs them in: named, not "nobody".
    assert (
        "prepared: someone on duty who is not dealing verifies it (ND 99-01.3-08-05(5)); nobody else is signed in "
        f"on duty yet. If {cast[Role.PIT_BOSS]} is here and not dealing, they verify it, signing in on duty as they "
        "do; if nobody is, it is received unverified, its receiver saying why." in text
    )
    cast[Role.PIT_BOSS].active = False
    cast[Role.PIT_BOSS].save()
    text = page(client.post("/floor/slips/new/fill/", fill, follow=True))
    assert (
        "prepared: nobody else on duty can verify it (ND 99-01.3-08-05(5)), so it is received unverified, its "
        "receiver saying why." in text
    )


def test_the_fill_form_offers_only_open_tables_and_shows_a_box_per_chip_value(client, cast, open_table, site):
    TableFactory(site=site, number=2)
    client.force_login(cast[Role.CASHIER].user)
    text = page(client.get("/floor/slips/new/fill/"))
    assert "Table 1 \u00b7 Twenty-one" in text and "Table 2" not in text
    for value in (50, 100, 200, 500, 2500, 10000):
        assert f'name="qty_{value}"' in text
    assert 'id="grand-total"' in text


def test_a_fill_without_chips_shows_the_service_message_at_the_grid(client, cast, open_table):
    client.force_login(cast[Role.CASHIER].user)
    response = client.post("/floor/slips/new/fill/", {"table": open_table.pk, "purpose": "regular"})
    assert response.status_code == 400
    assert "ND 99-01.3-08-05(3): give at least one denomination and its quantity." in page(response)
    assert not Slip.objects.exists()


def test_a_fill_for_a_table_not_opened_shows_the_same_message_as_the_api(
    client, client_for, cast, gaming_day, site, chips
):
    table = TableFactory(site=site, number=3)
    message = api_error(client_for, cast[Role.CASHIER], "/api/v1/fill-slips/", {"table": table.pk, "chips": FILL})
    client.force_login(cast[Role.CASHIER].user)
    response = client.post("/floor/slips/new/fill/", {**GRID, "table": table.pk})
    assert response.status_code == 400
    assert "is not open (no opener, no dealer seated)" in message
    assert message in page(response).replace("&#x27;", "'")


@pytest.mark.parametrize("kind, role", [("fill", Role.CASHIER), ("credit", Role.DEALER)])
def test_a_negative_quantity_is_refused_naming_the_chip_and_the_rule_as_the_api_does(
    client, client_for, cast, open_table, dealer_shift, kind, role
):
    chips = [{"denomination": 500, "quantity": -3}]
    message = api_error(client_for, cast[role], f"/api/v1/{kind}-slips/", {"table": open_table.pk, "chips": chips})
    assert message.startswith("ND 99-01.3-08-05(3): chips are recorded by denomination, each with its number of chips")
    assert "the quantity of $5.00" in message and "is -3 (a value with no chips is left out)." in message
    client.force_login(cast[role].user)
    response = client.post(f"/floor/slips/new/{kind}/", {**GRID, "qty_500": "-3", "table": open_table.pk})
    assert response.status_code == 400
    assert message in page(response).replace("&#x27;", "'")
    assert "greater than or equal to 0" not in page(response)
    assert not Slip.objects.exists()


@pytest.mark.parametrize("role", [Role.DEALER, Role.WHEEL_OPERATOR, Role.COUNT_TEAM, Role.AUDITOR])
def test_only_fill_preparers_open_the_fill_form(client, cast, open_table, role):
    client.force_login(cast[role].user)
    response = client.get("/floor/slips/new/fill/")
    assert response.status_code == 403
    assert "ND 99-01.3-08-05(3): only a shift manager, pit boss or chip bank cashier may prepare a fill slip." in page(
        response
    )


def test_a_dealer_prepares_a_credit(client, cast, open_table, dealer_shift):
    client.force_login(cast[Role.DEALER].user)
    response = client.post("/floor/slips/new/credit/", {**GRID, "table": open_table.pk})
    assert response.status_code == 302
    assert Slip.objects.get().kind == "credit"


def test_the_preparer_verifying_their_own_slip_sees_the_api_message(client, client_for, cast, open_table):
    manager = cast[Role.SHIFT_MANAGER]
    cashier = cast[Role.CASHIER]
    slip = services.prepare_fill(acting_user=manager.user, table=open_table, chips=FILL, cashier=cashier)
    other = services.prepare_fill(acting_user=manager.user, table=open_table, chips=FILL, cashier=cashier)
    message = api_error(client_for, manager, f"/api/v1/fill-slips/{other.pk}/verify/")
    client.force_login(manager.user)
    response = client.post(f"/floor/slips/{slip.pk}/verify/")
    assert response.status_code == 400
    assert message == "ND 99-01.3-08-05(5): the preparer cannot verify their own slip."
    assert message in page(response)


def test_verify_then_receive_through_the_pages(client, cast, fill, dealer_shift):
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    assert 'id="verify"' in page(client.get(f"/floor/slips/{fill.pk}/"))
    assert client.post(f"/floor/slips/{fill.pk}/verify/").status_code == 302
    client.force_login(cast[Role.DEALER].user)
    text = page(client.get(f"/floor/slips/{fill.pk}/"))
    assert 'id="receive"' in text and 'id="verify"' not in text
    assert client.post(f"/floor/slips/{fill.pk}/receive/").status_code == 302
    assert set(fill.steps.values_list("kind", flat=True)) == {"verify", "receive"}


def test_buttons_appear_only_for_whoever_may_use_them(client, cast, fill):
    client.force_login(cast[Role.AUDITOR].user)
    text = page(client.get(f"/floor/slips/{fill.pk}/"))
    assert 'id="verify"' not in text and 'id="receive"' not in text and 'id="void"' not in text
    assert 'id="print"' in text


def test_a_void_without_a_reason_shows_the_service_message(client, cast, fill):
    client.force_login(cast[Role.CASHIER].user)
    response = client.post(f"/floor/slips/{fill.pk}/void/", {"reason": "  "})
    assert response.status_code == 400
    assert "ND 99-01.3-08-05(2): say why the slip is void." in page(response)


def test_the_preparer_voids_and_is_offered_a_new_slip_for_the_same_table(client, cast, fill):
    client.force_login(cast[Role.CASHIER].user)
    response = client.post(f"/floor/slips/{fill.pk}/void/", {"reason": "Wrong table"}, follow=True)
    text = page(response)
    assert fill.steps.get().kind == SlipStep.Kind.VOID
    assert "voided" in text and "Wrong table" in text
    assert f"/floor/slips/new/fill/?table={fill.table_id}" in text


@pytest.mark.parametrize("role", [Role.AUDITOR, Role.GAMING_MANAGER])
def test_a_voided_slip_offers_no_new_slip_to_whom_may_not_prepare_one(client, cast, fill, role):
    services.void_slip(acting_user=cast[Role.CASHIER].user, slip=fill, reason="Wrong table")
    client.force_login(cast[role].user)
    text = page(client.get(f"/floor/slips/{fill.pk}/"))
    assert "voided" in text and 'id="reissue"' not in text and "/floor/slips/new/fill/" not in text


@pytest.mark.parametrize("role", [Role.PIT_BOSS, Role.SHIFT_MANAGER])
def test_nobody_but_the_preparer_voids_and_the_page_says_why(client, cast, fill, role):
    client.force_login(cast[role].user)
    text = page(client.get(f"/floor/slips/{fill.pk}/"))
    assert 'id="void"' not in text and "Only its preparer voids a slip (ND 99-01.3-08-05(2))" in text
    response = client.post(f"/floor/slips/{fill.pk}/void/", {"reason": "x"})
    assert response.status_code == 400
    assert "ND 99-01.3-08-05(2): a voided slip is initialed by its preparer" in page(response)
    assert not fill.steps.exists()


def test_a_slip_of_a_site_out_of_scope_is_not_found(client, cast, fill, org, other_site):
    from tests.factories import make_person

    elsewhere = make_person(org, Role.SHIFT_MANAGER, other_site)
    client.force_login(elsewhere.user)
    for url in (f"/floor/slips/{fill.pk}/", f"/floor/slips/{fill.pk}/pdf/"):
        assert client.get(url).status_code == 404
    assert client.post(f"/floor/slips/{fill.pk}/verify/").status_code == 404


def test_print_gives_the_slip_pdf(client, cast, fill):
    client.force_login(cast[Role.CASHIER].user)
    response = client.get(f"/floor/slips/{fill.pk}/pdf/")
    assert response["Content-Type"] == "application/pdf"
    text = " ".join(PdfReader(io.BytesIO(response.content)).pages[0].extract_text().split())
    assert f"FILL SLIP No. {fill.number} ORIGINAL" in text and "COPY" in text
    assert "Grand total 40 $600.00" in text


def test_queues_list_slips_to_verify_and_to_receive(client, cast, fill, credit):
    services.verify_slip(acting_user=cast[Role.SHIFT_MANAGER].user, slip=credit)
    client.force_login(cast[Role.PIT_BOSS].user)
    text = page(client.get("/floor/queues/"))
    verify_part, receive_part = text.split('id="awaiting-receipt"')
    assert f"Fill slip {fill.number}" in verify_part
    assert f"Credit slip {credit.number}" in receive_part


def test_the_queues_page_reads_the_same_slips_as_the_api_queues(
    client, cast, open_table, site, gaming_day, dealer_shift
):
    """The page's rows (floor.queries.page_queues, values by SQL compiled once) are the API's
    queues (floor.queries.queues, models): the same slips in the same order and states, a voided
    and a received one in neither, each row with its preparer's initials and total."""
    from floor import queries

    cashier, manager = cast[Role.CASHIER].user, cast[Role.SHIFT_MANAGER].user
    slips = [services.prepare_fill(acting_user=cashier, table=open_table, chips=FILL) for _ in range(5)]
    services.verify_slip(acting_user=manager, slip=slips[1])
    services.verify_slip(acting_user=manager, slip=slips[3])
    services.receive_slip(acting_user=cast[Role.DEALER].user, slip=slips[3])
    services.void_slip(acting_user=cashier, slip=slips[4], reason="Miscounted")
    api, shown = queries.queues(site, gaming_day), queries.page_queues(site, gaming_day)
    for models, rows in (
        (api.awaiting_verification, shown.awaiting_verification),
        (api.awaiting_receipt, shown.awaiting_receipt),
    ):
        assert [
            (s.pk, s.get_kind_display(), s.number, s.table_number, s.prepared_at, s.prepared_by.initials, s.total_cents)
            for s in models
        ] == [
            (r.pk, r.kind_label, r.number, r.table_number, r.prepared_at, r.preparer_initials, r.total_cents)
            for r in rows
        ]
    assert [r.pk for r in shown.awaiting_verification] == [slips[0].pk, slips[2].pk]
    assert [r.pk for r in shown.awaiting_receipt] == [slips[1].pk]
    assert shown.table_numbers_without_opener == [t.number for t in api.tables_without_opener]
    client.force_login(cast[Role.PIT_BOSS].user)
    text = page(client.get("/floor/queues/"))
    row = f"<td>Fill slip {slips[0].number}</td><td>{open_table.number}</td>"
    assert row in text.split('id="awaiting-receipt"')[0]
    assert f" {cast[Role.CASHIER].initials}</td>" in text


def test_the_register_lists_every_number_in_order_with_its_status(client, cast, open_table, gaming_day):
    cashier = cast[Role.CASHIER]
    slips = [services.prepare_fill(acting_user=cashier.user, table=open_table, chips=FILL) for _ in range(3)]
    services.void_slip(acting_user=cashier.user, slip=slips[1], reason="Miscounted")
    client.force_login(cast[Role.AUDITOR].user)
    day = gaming_day.gaming_date
    text = page(client.get("/floor/register/", {"start": day, "end": day}))
    fills = text.split('id="series-fill"')[1].split('id="series-credit"')[0]
    positions = [
        fills.index(f'data-number="{n}" data-status="{s}"') for n, s in ((1, "issued"), (2, "voided"), (3, "issued"))
    ]
    assert positions == sorted(positions)
    assert "Missing numbers" not in fills


def test_the_register_refuses_a_reversed_period_with_the_api_message(client, cast, site):
    client.force_login(cast[Role.AUDITOR].user)
    response = client.get("/floor/register/", {"start": "2026-11-10", "end": "2026-11-01"})
    assert response.status_code == 400
    assert "House control: end is on or after start and within 366 days of it." in page(response)


def test_the_chips_menu_fits_the_role(client, cast):
    client.force_login(cast[Role.DEALER].user)
    text = page(client.get("/"))
    assert "/floor/slips/new/credit/" in text and "/floor/slips/new/fill/" not in text
    client.force_login(cast[Role.CASHIER].user)
    text = page(client.get("/"))
    assert "/floor/slips/new/fill/" in text and "/floor/" in text


def test_the_register_shows_a_slip_book_its_missing_and_unused_numbers(client, cast, open_table, gaming_day, site):
    manager = cast[Role.SHIFT_MANAGER]
    services.register_slip_book(acting_user=manager.user, site=site, kind="fill", first_number=501, last_number=505)
    for number in (501, 503):
        services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=open_table, chips=FILL, number=number)
    client.force_login(cast[Role.AUDITOR].user)
    day = gaming_day.gaming_date
    fills = page(client.get("/floor/register/", {"start": day, "end": day})).split('id="series-fill"')[1]
    assert "Missing numbers: 502" in fills
    assert "Unused numbers in the books: 504, 505" in fills
    assert "501\u2013505" in fills


def test_a_site_using_slip_books_asks_for_the_printed_number_with_the_service_message(client, cast, open_table, site):
    services.register_slip_book(
        acting_user=cast[Role.SHIFT_MANAGER].user, site=site, kind="fill", first_number=1, last_number=50
    )
    client.force_login(cast[Role.CASHIER].user)
    assert 'name="number"' in page(client.get("/floor/slips/new/fill/"))
    response = client.post("/floor/slips/new/fill/", {**GRID, "table": open_table.pk, "number": "77"})
    assert response.status_code == 400
    assert "ND 99-01.3-08-05(2): 77 is not in a registered book of fill slips." in page(response)


@pytest.mark.parametrize("kind", ["fill", "credit"])
def test_a_slip_with_no_table_chosen_is_refused_at_the_table_field_not_a_500(client, cast, open_table, kind):
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    response = client.post(f"/floor/slips/new/{kind}/", {**GRID, "cashier": cast[Role.CASHIER].pk})
    assert response.status_code == 400
    assert response.context["form"].errors["table"] == [
        "ND 99-01.3-08-05(3): a slip names its table; choose the table."
    ]
    assert not Slip.objects.exists()


def test_a_rotation_with_no_dealer_chosen_is_refused_at_the_dealer_field_not_a_500(client, cast, open_table):
    from floor.models import DealerShift

    client.force_login(cast[Role.SHIFT_MANAGER].user)
    response = client.post(f"/floor/tables/{open_table.pk}/dealer/", {"dealer": ""})
    assert response.status_code == 400
    assert response.context["form"].errors["dealer"] == ["House control: choose the dealer who is seated at the table."]
    assert not DealerShift.objects.exists()


def test_a_fill_form_sent_twice_prepares_one_slip_and_the_second_copy_is_told(client, cast, open_table):
    """A double click on "Prepare" at 2 a.m.: the form's one-time token (core.form_tokens) makes the
    second copy go to the first slip, "Already recorded", where it numbered a second slip."""
    from tests.page_support import form_token

    client.force_login(cast[Role.CASHIER].user)
    token = form_token(page(client.get("/floor/slips/new/fill/")), "slip-form")
    data = {**GRID, "table": open_table.pk, "form_token": token}
    first = client.post("/floor/slips/new/fill/", data)
    again = client.post("/floor/slips/new/fill/", data, follow=True)
    slip = Slip.objects.get()
    assert first.status_code == 302 and first["Location"] == f"/floor/slips/{slip.pk}/"
    assert again.redirect_chain[0][0] == f"/floor/slips/{slip.pk}/" and "Already recorded" in page(again)
