"""Fewer keystrokes on the floor (issue 15): an opener recorded as the last closer in one
action, chips entered as counts or as dollar amounts per denomination, and the day-open form
proposing the next gaming date. Service, API and browser form posts."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError

from cardroom.models import Role
from core.models import AuditEvent
from floor import queries, services
from floor.calculations import chips_for_amount
from floor.models import GamingDay, Slip, TableInventory

from .conftest import TRAY, closed_last_night, in_day, today

TRAY_AMOUNTS = [
    {"denomination": 2500, "amount": "1000.00"},
    {"denomination": 500, "amount": "800"},
    {"denomination": 100, "amount": "$200.00"},
]
TRAY_CENTS = 40 * 2500 + 160 * 500 + 200 * 100


def page(response) -> str:
    return response.content.decode().replace("&#x27;", "'").replace("&quot;", '"')


@pytest.fixture
def closed_yesterday(table, chips, site, shift_manager):
    """Yesterday the table was opened and closed with TRAY; today's gaming day is open."""
    return closed_last_night(site, shift_manager.user, [table])


def lines(count) -> dict[int, int]:
    return dict(count.lines.values_list("value_cents", "quantity"))


# --- Calculations ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "amount_cents,value_cents,quantity",
    [(100000, 2500, 40), (2500, 2500, 1), (3000, 2500, None), (150, 50, 3), (125, 50, None), (1, 10000, None)],
)
def test_an_amount_is_a_whole_number_of_chips_or_none(amount_cents, value_cents, quantity):
    assert chips_for_amount(amount_cents, value_cents) == quantity


# --- Services: same as last closer -----------------------------------------------------------


def test_an_opener_same_as_the_last_closer_copies_its_lines_with_no_variance(closed_yesterday, table, shift_manager):
    opener = services.record_table_inventory(
        acting_user=shift_manager.user, table=table, kind="opener", same_as_last_closer=True
    )
    closer = TableInventory.objects.get(kind="closer")
    assert lines(opener) == lines(closer) == {2500: 40, 500: 160, 100: 200}
    assert (opener.total_cents, opener.variance_cents, opener.previous_id) == (TRAY_CENTS, 0, closer.pk)
    event = AuditEvent.objects.get(action="table_inventory.opener", object_id=str(opener.pk))
    assert event.after["same_as_last_closer"] is True
    assert event.after["chips"] == {"2500": 40, "500": 160, "100": 200}


def test_same_as_last_closer_is_refused_naming_the_field_when_the_table_has_no_closer(
    table, chips, gaming_day, shift_manager
):
    with pytest.raises(ValidationError) as refused:
        services.record_table_inventory(
            acting_user=shift_manager.user, table=table, kind="opener", same_as_last_closer=True
        )
    assert refused.value.message_dict["same_as_last_closer"] == [
        "House control: Twenty-one table 1 has no previous closer to copy; count its tray."
    ]
    assert not TableInventory.objects.exists()


@pytest.mark.parametrize(
    "extra,message",
    [
        ({"kind": "closer"}, "House control: only an opener copies the last closer."),
        ({"chips": TRAY}, "House control: give the chips or ask for the last closer's, not both."),
        ({"amounts": TRAY_AMOUNTS}, "House control: give the chips or ask for the last closer's, not both."),
    ],
)
def test_same_as_last_closer_is_only_for_an_opener_without_chips(
    closed_yesterday, table, shift_manager, extra, message
):
    with pytest.raises(ValidationError) as refused:
        services.record_table_inventory(
            acting_user=shift_manager.user, table=table, **{"kind": "opener", **extra}, same_as_last_closer=True
        )
    assert refused.value.message_dict["same_as_last_closer"] == [message]


# --- Services: dollar amounts ------------------------------------------------------------------


def test_amounts_in_dollars_become_chip_counts(closed_yesterday, table, shift_manager):
    opener = services.record_table_inventory(
        acting_user=shift_manager.user, table=table, kind="opener", amounts=TRAY_AMOUNTS
    )
    assert lines(opener) == {2500: 40, 500: 160, 100: 200}
    assert opener.variance_cents == 0


def test_a_fill_in_dollar_amounts_carries_the_chip_counts(open_table, cast):
    slip = services.prepare_fill(
        acting_user=cast[Role.CASHIER].user,
        table=open_table,
        amounts=[{"denomination": 2500, "amount": "1,250"}, {"denomination": 50, "amount": "1.50"}],
    )
    assert {line.value_cents: line.quantity for line in slip.lines.all()} == {2500: 50, 50: 3}
    assert slip.total_cents == 125150


@pytest.mark.parametrize(
    "amounts,message",
    [
        ([{"denomination": 2500, "amount": "30.00"}], "$30.00 is not a whole number of $25.00 chips"),
        ([{"denomination": 50, "amount": "1.25"}], "$1.25 is not a whole number of $0.50 chips"),
        ([{"denomination": 2500, "amount": "12.345"}], 'must be dollars and cents, like "125.00"'),
        ([{"denomination": 2500, "amount": 25.0}], 'must be dollars and cents, like "125.00"'),
        ([{"denomination": 2500, "amount": "1e9"}], 'must be dollars and cents, like "125.00"'),
        ([{"denomination": 2500, "amount": 10**20}], 'must be dollars and cents, like "125.00"'),
        ([{"denomination": 2500, "amount": "0"}], "must be more than $0.00"),
        ([{"denomination": 2500, "amount": "-25"}], 'must be dollars and cents, like "125.00"'),
        ([{"denomination": 700, "amount": "7"}], "ND 99-01.3-08-03(1): 700 is not a chip value"),
        ([{"denomination": 100, "amount": "10001"}], "is more than a tray holds"),
        ([{"denomination": 100, "quantity": 1}], "each line of amounts"),
        ([], "give at least one denomination and its amount"),
        ([{"denomination": 100, "amount": "1"}] * 51, "at most 50 lines"),
        ([{"denomination": 100, "amount": "1"}] * 2, "is listed twice"),
    ],
)
def test_a_bad_amount_is_refused_naming_the_denomination_and_the_rule(dealer_shift, cast, amounts, message):
    with pytest.raises(ValidationError) as refused:
        services.prepare_credit(acting_user=cast[Role.PIT_BOSS].user, table=dealer_shift.table, amounts=amounts)
    errors = refused.value.message_dict
    assert message in " ".join(errors.get("amounts", errors.get("chips", []))), errors
    assert not Slip.objects.exists()


def test_chips_and_amounts_together_are_refused(open_table, cast):
    with pytest.raises(ValidationError) as refused:
        services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=open_table, chips=TRAY, amounts=TRAY_AMOUNTS)
    assert refused.value.message_dict["amounts"] == [
        "ND 99-01.3-08-05(3): give the chips either as counts or as amounts, not both."
    ]


# --- The proposed gaming date ----------------------------------------------------------------


def test_the_next_gaming_date_is_today_at_a_new_site_and_then_the_day_after_the_latest(site, shift_manager):
    user = shift_manager.user
    assert queries.next_gaming_date(site) == today(site)
    before = today(site) - timedelta(days=3)
    earlier = services.open_gaming_day(acting_user=user, site=site, gaming_date=before, at=in_day(site, before))
    services.close_gaming_day(acting_user=user, gaming_day=earlier)
    # Not the day after it (a day over, which a blank time cannot open): the current gaming day.
    assert queries.next_gaming_date(site) == today(site)
    services.open_gaming_day(acting_user=user, site=site, gaming_date=today(site))
    assert queries.next_gaming_date(site) == today(site) + timedelta(days=1)


# --- API ----------------------------------------------------------------------------------------


def post(client, url, data):
    return client.post(url, data, format="json")


def test_the_api_records_an_opener_same_as_the_last_closer(client_for, shift_manager, closed_yesterday, table):
    response = post(
        client_for(shift_manager),
        "/api/v1/table-inventories/",
        {"table": table.pk, "kind": "opener", "same_as_last_closer": True},
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["total_cents"], body["variance_cents"]) == (TRAY_CENTS, 0)
    assert {line["value_cents"]: line["quantity"] for line in body["chips"]} == {2500: 40, 500: 160, 100: 200}


def test_the_api_refuses_same_as_last_closer_naming_the_field_without_a_closer(
    client_for, shift_manager, table, chips, gaming_day
):
    body = {"table": table.pk, "kind": "opener", "same_as_last_closer": True}
    response = post(client_for(shift_manager), "/api/v1/table-inventories/", body)
    assert response.status_code == 400
    assert "no previous closer to copy" in response.json()["same_as_last_closer"][0]


def test_the_api_takes_amounts_in_dollars_instead_of_chips(client_for, cast, open_table):
    client = client_for(cast[Role.CASHIER])
    response = post(
        client, "/api/v1/fill-slips/", {"table": open_table.pk, "amounts": [{"denomination": 2500, "amount": "500"}]}
    )
    assert response.status_code == 201, response.json()
    assert [(c["value_cents"], c["quantity"]) for c in response.json()["chips"]] == [(2500, 20)]
    assert response.json()["total_cents"] == 50000


@pytest.mark.parametrize(
    "body,field,message",
    [
        ({"amounts": [{"denomination": 2500, "amount": "30"}]}, "amounts", "$30.00 is not a whole number of $25.00"),
        ({"amounts": [{"denomination": 2500, "amount": "25"}], "chips": TRAY}, "amounts", "not both"),
        ({}, "chips", "give at least one denomination and its quantity"),
        ({"amounts": [{"denomination": 100, "amount": "1"}] * 51}, "amounts", "no more than 50"),
        ({"amounts": [{"denomination": 100, "amount": "1", "colour": "white"}]}, "amounts", "colour"),
    ],
)
def test_the_api_refuses_bad_amounts_naming_the_field(client_for, cast, dealer_shift, body, field, message):
    table = dealer_shift.table
    response = post(client_for(cast[Role.PIT_BOSS]), "/api/v1/credit-slips/", {"table": table.pk, **body})
    assert response.status_code == 400, response.json()
    assert message in str(response.json()[field]), response.json()


def test_a_dealer_change_count_may_be_given_in_dollars(client_for, shift_manager, open_table, cast):
    body = {"table": open_table.pk, "dealer": cast[Role.DEALER].pk, "amounts": TRAY_AMOUNTS}
    response = post(client_for(shift_manager), "/api/v1/dealer-shifts/", body)
    assert response.status_code == 201, response.json()
    change = TableInventory.objects.get(kind="change")
    assert lines(change) == {2500: 40, 500: 160, 100: 200}


def test_the_schema_documents_the_alternatives_to_chips():
    from drf_spectacular.generators import SchemaGenerator

    components = SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]
    inventory = components["TableInventoryInputRequest"]["properties"]
    assert inventory["same_as_last_closer"]["type"] == "boolean"
    assert "last closer" in inventory["same_as_last_closer"]["description"]
    assert inventory["amounts"]["maxItems"] == 50
    assert "chips" not in components["TableInventoryInputRequest"].get("required", [])
    assert "amounts" in components["SlipInputRequest"]["properties"]
    assert components["AmountLineInputRequest"]["properties"]["amount"]["type"] == "string"


# --- Browser form posts -----------------------------------------------------------------------


def test_the_opener_form_is_prefilled_with_the_last_closer_and_offers_it_in_one_action(
    client, shift_manager, closed_yesterday, table
):
    client.force_login(shift_manager.user)
    text = page(client.get(f"/floor/tables/{table.pk}/opener/"))
    assert 'id="same-as-last"' in text and "Opener same as the last closer ($2,000.00)" in text
    assert 'name="qty_2500" value="40"' in text and 'name="amount_2500" value="1000.00"' in text
    response = client.post(f"/floor/tables/{table.pk}/opener/", {"same_as_last_closer": "on"})
    assert response.status_code == 302
    opener = TableInventory.objects.get(kind="opener", gaming_day=closed_yesterday)
    assert (lines(opener), opener.variance_cents) == ({2500: 40, 500: 160, 100: 200}, 0)


def test_the_closer_form_is_not_prefilled_and_offers_no_copy(client, shift_manager, open_table):
    client.force_login(shift_manager.user)
    text = page(client.get(f"/floor/tables/{open_table.pk}/closer/"))
    assert 'id="same-as-last"' not in text
    assert 'name="qty_2500" value=' not in text


def test_an_opener_with_no_previous_count_offers_no_copy(client, shift_manager, table, chips, gaming_day):
    client.force_login(shift_manager.user)
    assert 'id="same-as-last"' not in page(client.get(f"/floor/tables/{table.pk}/opener/"))
    response = client.post(f"/floor/tables/{table.pk}/opener/", {"same_as_last_closer": "on"})
    assert response.status_code == 400
    assert "Twenty-one table 1 has no previous closer to copy; count its tray." in page(response)
    assert "same_as_last_closer:" not in page(response)


def test_the_opener_form_takes_dollar_amounts(client, shift_manager, closed_yesterday, table):
    client.force_login(shift_manager.user)
    data = {"entry": "amounts", "amount_2500": "1,000", "amount_500": "800.00", "amount_100": "$199", "qty_2500": "3"}
    response = client.post(f"/floor/tables/{table.pk}/opener/", {**data, "variance_reason": "A $1 chip short"})
    assert response.status_code == 302, page(response)
    opener = TableInventory.objects.get(kind="opener", gaming_day=closed_yesterday)
    assert (lines(opener), opener.variance_cents) == ({2500: 40, 500: 160, 100: 199}, -100)


def test_a_dollar_amount_that_is_no_whole_number_of_chips_is_an_inline_error(client, cast, open_table):
    client.force_login(cast[Role.CASHIER].user)
    data = {"table": open_table.pk, "purpose": "regular", "entry": "amounts", "amount_2500": "30"}
    response = client.post("/floor/slips/new/fill/", data)
    assert response.status_code == 400
    text = page(response)
    assert 'id="error-amounts"' in text
    assert "ND 99-01.3-08-05(3): $30.00 is not a whole number of $25.00 chips; give a multiple of $25.00." in text
    assert "amounts:" not in text
    # The boxes come back in dollars, as typed.
    assert 'id="entry-amounts" value="amounts" autocomplete="off" checked' in text
    assert 'name="amount_2500" value="30"' in text
    assert not Slip.objects.exists()


def test_a_credit_and_a_dealer_change_take_dollar_amounts_in_the_browser(client, cast, dealer_shift, shift_manager):
    table = dealer_shift.table
    client.force_login(cast[Role.PIT_BOSS].user)
    data = {"table": table.pk, "purpose": "regular", "entry": "amounts", "amount_500": "100", "amount_50": "0"}
    assert client.post("/floor/slips/new/credit/", data).status_code == 302
    credit = Slip.objects.get(kind="credit")
    assert ({line.value_cents: line.quantity for line in credit.lines.all()}, credit.total_cents) == ({500: 20}, 10000)

    client.force_login(shift_manager.user)
    data = {"dealer": dealer_shift.dealer_id, "entry": "amounts", "amount_2500": "975"}
    assert client.post(f"/floor/tables/{table.pk}/dealer/", data).status_code == 302
    assert lines(TableInventory.objects.get(kind="change")) == {2500: 39}


def test_a_dealer_change_with_blank_dollar_boxes_has_no_count(client, cast, dealer_shift, shift_manager):
    client.force_login(shift_manager.user)
    data = {"dealer": dealer_shift.dealer_id, "entry": "amounts", "amount_2500": ""}
    assert client.post(f"/floor/tables/{dealer_shift.table_id}/dealer/", data).status_code == 302
    assert not TableInventory.objects.filter(kind="change").exists()


def test_the_day_open_form_proposes_the_day_after_the_latest_opened(client, shift_manager, site):
    client.force_login(shift_manager.user)
    assert f'name="gaming_date" value="{today(site)}"' in page(client.get("/floor/"))
    before = today(site) - timedelta(1)
    day = services.open_gaming_day(
        acting_user=shift_manager.user, site=site, gaming_date=before, at=in_day(site, before)
    )
    services.close_gaming_day(acting_user=shift_manager.user, gaming_day=day)
    text = page(client.get("/floor/"))
    assert f'name="gaming_date" value="{today(site)}"' in text
    services.open_gaming_day(acting_user=shift_manager.user, site=site, gaming_date=today(site))
    services.close_gaming_day(acting_user=shift_manager.user, gaming_day=GamingDay.objects.get(gaming_date=today(site)))
    proposed = today(site) + timedelta(days=1)
    assert f'name="gaming_date" value="{proposed}"' in page(client.get("/floor/"))


def test_the_floor_opens_a_table_as_its_last_closer_in_one_tap(client, shift_manager, closed_yesterday, table):
    """The floor's row of a table not opened posts its opener as its last closer (one tap, not the
    opener's page and then its button); the page to count the tray is still linked."""
    client.force_login(shift_manager.user)
    text = page(client.get("/floor/"))
    row = text[text.index('<tr id="table-1">') : text.index("</tr>", text.index('<tr id="table-1">'))]
    assert f'action="/floor/tables/{table.pk}/opener/"' in row
    assert '<input type="hidden" name="same_as_last_closer" value="on">' in row
    assert 'id="open-same-1"' in row and "Open as last closer ($2,000.00)" in row
    assert f'href="/floor/tables/{table.pk}/opener/">Count the opener</a>' in row
    token = row.split('name="form_token" value="')[1].split('"')[0]
    response = client.post(f"/floor/tables/{table.pk}/opener/", {"same_as_last_closer": "on", "form_token": token})
    # The table's next step, seating its dealer, with the table chosen (not the floor and its Dealers).
    assert response.status_code == 302 and response["Location"] == f"/floor/tables/{table.pk}/dealer/"
    opener = TableInventory.objects.get(kind="opener", gaming_day=closed_yesterday)
    assert (lines(opener), opener.variance_cents) == ({2500: 40, 500: 160, 100: 200}, 0)
    assert "open-same-1" not in page(client.get("/floor/"))  # opened: nothing to open


def test_the_floor_offers_no_one_tap_opener_without_a_last_count_or_on_a_day_over(
    client, shift_manager, table, chips, site
):
    """A table never counted has only its opener's page; nor does a day already over, whose
    opener takes the paper's time on that page."""
    user = shift_manager.user
    client.force_login(user)
    earlier, before = today(site) - timedelta(days=2), today(site) - timedelta(days=1)
    first = services.open_gaming_day(acting_user=user, site=site, gaming_date=earlier, at=in_day(site, earlier, 1))
    text = page(client.get("/floor/"))
    assert "open-same-1" not in text and f'href="/floor/tables/{table.pk}/opener/">Open table</a>' in text
    services.record_table_inventory(acting_user=user, table=table, kind="opener", chips=TRAY, at=in_day(site, earlier))
    services.record_table_inventory(
        acting_user=user, table=table, kind="closer", chips=TRAY, at=in_day(site, earlier, 3)
    )
    services.close_gaming_day(acting_user=user, gaming_day=first)
    services.open_gaming_day(acting_user=user, site=site, gaming_date=before, at=in_day(site, before, 1))
    text = page(client.get("/floor/"))  # the day is over: the opener takes the paper's time on its page
    assert "one-tap-opener" not in text and f'href="/floor/tables/{table.pk}/opener/">Open table</a>' in text


def test_a_slip_leads_back_to_the_floor_in_one_click(client, shift_manager, fill):
    """The slip page (where a fill's preparer lands, and its verifier works) links back to the
    floor: one click, not the Chips menu and its Floor item, for the next table's step."""
    client.force_login(shift_manager.user)
    text = page(client.get(f"/floor/slips/{fill.pk}/"))
    assert '<a class="btn btn-outline-secondary" href="/floor/" id="back-to-floor">Back to the floor</a>' in text


def test_an_opener_with_its_dealer_already_seated_and_a_closer_lead_back_to_the_floor(
    client, shift_manager, closed_yesterday, table, cast
):
    """Only a table with nobody dealing goes on to seat a dealer: a dealer seated before its
    opener was counted (the floor's "open without opener") needs none, and a closer ends the table."""
    client.force_login(shift_manager.user)
    services.start_dealer_shift(acting_user=shift_manager.user, table=table, dealer=cast[Role.DEALER])
    response = client.post(f"/floor/tables/{table.pk}/opener/", {"same_as_last_closer": "on"})
    assert response.status_code == 302 and response["Location"] == "/floor/"
    response = client.post(f"/floor/tables/{table.pk}/closer/", {"qty_2500": "40", "qty_500": "160", "qty_100": "200"})
    assert response.status_code == 302 and response["Location"] == "/floor/"


def test_a_table_just_opened_offers_the_next_table_without_an_opener_in_one_tap(
    client, shift_manager, table, chips, site, cast
):
    """Opening every table before seating dealers: each opener lands on seating its dealer (one tap
    fewer for who seats at once), whose page opens the next table without an opener in one tap (as
    its last closer, as the floor would), so going back to the floor between openers costs nothing.
    A table never counted is offered as its opener's form; the last table offers none."""
    from tests.factories import TableFactory

    second, third = TableFactory(site=site, number=2), TableFactory(site=site, number=3)
    closed_last_night(site, shift_manager.user, [table, second])
    client.force_login(shift_manager.user)
    opened = client.post(f"/floor/tables/{table.pk}/opener/", {"same_as_last_closer": "on"})
    assert opened["Location"] == f"/floor/tables/{table.pk}/dealer/"
    text = page(client.get(opened["Location"]))
    assert f'<form method="post" action="/floor/tables/{second.pk}/opener/"' in text
    assert "Open table 2 next <small>(as last closer, $2,000.00)</small></button>" in text
    assert 'id="back-to-floor">Back to the floor</a>' in text  # kept
    opened = client.post(f"/floor/tables/{second.pk}/opener/", {"same_as_last_closer": "on"})
    assert opened["Location"] == f"/floor/tables/{second.pk}/dealer/"
    text = page(client.get(opened["Location"]))  # table 3 was never counted: its figures are typed
    assert (
        f'<a class="btn btn-outline-primary btn-lg" id="open-next-table" href="/floor/tables/{third.pk}/opener/">'
        in text
    )
    assert "Open table 3 next</a>" in text
    opened = client.post(f"/floor/tables/{third.pk}/opener/", {"qty_2500": "40", "qty_500": "160", "qty_100": "200"})
    assert opened["Location"] == f"/floor/tables/{third.pk}/dealer/"
    assert "open-next-table" not in page(client.get(opened["Location"]))  # every table is open
    assert TableInventory.objects.filter(kind="opener", gaming_day__close__isnull=True).count() == 3
    services.start_dealer_shift(acting_user=shift_manager.user, table=table, dealer=cast[Role.DEALER])
    assert "open-next-table" not in page(client.get(f"/floor/tables/{table.pk}/dealer/"))  # seated: a relief


def test_on_a_day_already_over_the_next_table_is_offered_as_its_openers_form(client, shift_manager, table, chips, site):
    """A day entered from paper: each opener takes its paper's time, so the next table is its
    opener's page, never the one-tap opener (as on the floor)."""
    from tests.factories import TableFactory

    second = TableFactory(site=site, number=2)
    day = closed_last_night(site, shift_manager.user, [table, second], days_ago=2)  # yesterday's, still open
    services.record_table_inventory(
        acting_user=shift_manager.user,
        table=table,
        kind="opener",
        same_as_last_closer=True,
        at=in_day(site, day.gaming_date),
    )
    client.force_login(shift_manager.user)
    text = page(client.get(f"/floor/tables/{table.pk}/dealer/"))
    assert f'id="open-next-table" href="/floor/tables/{second.pk}/opener/">Open table 2 next</a>' in text
    assert f'action="/floor/tables/{second.pk}/opener/"' not in text


def test_a_table_not_yet_opened_offers_no_next_table(client, shift_manager, table, chips, site):
    """Only a table just opened leads on to the next: the seating page of a table without an
    opener (a dealer seated first, the floor's "open without opener") offers none."""
    from tests.factories import TableFactory

    TableFactory(site=site, number=2)
    closed_last_night(site, shift_manager.user, [table])
    client.force_login(shift_manager.user)
    assert "open-next-table" not in page(client.get(f"/floor/tables/{table.pk}/dealer/"))


def test_the_closer_form_puts_the_cursor_in_the_openers_first_denomination_and_types_nothing(
    client, shift_manager, open_table
):
    client.force_login(shift_manager.user)
    text = page(client.get(f"/floor/tables/{open_table.pk}/closer/"))
    assert text.count("autofocus") == 1
    box = text[text.index('name="qty_100"') - 200 : text.index('name="qty_100"') + 300]
    assert "autofocus" in box  # the opener's TRAY: $1, $5, $25; its lowest first, as the grid runs
    assert 'name="qty_100" value=' not in text and 'name="qty_2500" value=' not in text  # figures still typed


def test_the_fill_form_puts_the_cursor_in_the_tables_last_fill_denomination(client, shift_manager, fill, cast):
    """The table's last fill (FILL: $500 of $25 chips, $100 of $5) brought most in $25 chips: the
    next one opens there. The quantity is typed; without a table chosen, no cursor is placed."""
    client.force_login(shift_manager.user)
    text = page(client.get(f"/floor/slips/new/fill/?table={fill.table_id}"))
    assert text.count("autofocus") == 1
    box = text[text.index('name="qty_2500"') - 200 : text.index('name="qty_2500"') + 300]
    assert "autofocus" in box and 'name="qty_2500" value=' not in text
    assert "autofocus" not in page(client.get("/floor/slips/new/fill/"))
    services.void_slip(acting_user=cast[Role.CASHIER].user, slip=fill, reason="Wrong table")
    assert "autofocus" not in page(client.get(f"/floor/slips/new/fill/?table={fill.table_id}"))  # a void brought none


def test_a_dealer_home_lists_the_fills_waiting_for_them_at_their_table(client, cast, dealer_shift, fill, site):
    """One tap from the dealer's home to the slip they receive (08-05(6)): the fills verified and
    waiting at the table where they deal; none while they deal nowhere."""
    services.verify_slip(acting_user=cast[Role.SHIFT_MANAGER].user, slip=fill)
    dealer = cast[Role.DEALER]
    client.force_login(dealer.user)
    assert 'hx-get="/floor/queues/to-receive/live/"' in page(client.get("/"))
    text = page(client.get("/floor/queues/to-receive/live/"))
    assert f'id="to-receive-{fill.pk}" href="/floor/slips/{fill.pk}/"' in text
    assert f"Fill slip {fill.number} · table 1 · $600.00: read it and receive" in text
    assert 'id="receive"' in page(client.get(f"/floor/slips/{fill.pk}/"))  # the slip's page offers Receive
    services.end_dealer_shift(acting_user=cast[Role.SHIFT_MANAGER].user, shift=dealer_shift)
    text = page(client.get("/floor/queues/to-receive/live/"))
    assert f"to-receive-{fill.pk}" not in text
    assert (
        "You are not dealing at a table now: a fill is received by the dealer on shift at its table (ND 99-01.3-08-05(6))."
        in text
    )


def test_the_fills_to_receive_are_for_the_receivers_of_a_fill_only(client, cast, fill):
    client.force_login(cast[Role.COUNT_TEAM].user)
    assert "home-receive" not in page(client.get("/"))
    response = client.get("/floor/queues/to-receive/live/")
    assert response.status_code == 403 and "ND 99-01.3-08-05(6)" in page(response)
