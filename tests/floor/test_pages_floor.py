"""The floor page: the gaming day, each table's status, openers and closers, dealer rotations."""

import pytest

from cardroom.models import Role
from floor import services
from floor.models import DealerShift, GamingDay, Slip, TableInventory

from .conftest import TRAY, in_day, today

TRAY_POST = {"qty_2500": "40", "qty_500": "160", "qty_100": "200"}


def page(response) -> str:
    return response.content.decode().replace("&#x27;", "'")


def test_the_shift_manager_opens_the_gaming_day_from_the_floor(client, cast, site):
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    assert "No gaming day open" in page(client.get("/floor/"))
    response = client.post("/floor/open-day/", {"gaming_date": today(site)}, follow=True)
    assert GamingDay.objects.get(site=site).gaming_date == today(site)
    assert "open since" in page(response)


def test_with_no_gaming_day_open_the_slip_page_offers_no_form_but_the_way_to_open_one(client, cast, site, table):
    """It showed the whole form, its table list empty, under a warning: a clerk typed the chips for nothing."""
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    for kind, word in (("fill", "fill slip"), ("credit", "credit slip")):
        text = page(client.get(f"/floor/slips/new/{kind}/"))
        assert 'id="slip-form"' not in text and 'id="no-day"' in text
        assert f"No gaming day is open at {site.name}: a {word} goes to a table open on the gaming day." in text
        assert 'href="/floor/">Open the gaming day on the floor</a>' in text
    # A pit boss prepares slips but opens no day: the page says who does (a walk read the
    # instruction to open it as a pit boss, whose floor offers no such button).
    client.force_login(cast[Role.PIT_BOSS].user)
    text = page(client.get("/floor/slips/new/credit/"))
    assert 'id="slip-form"' not in text and "Open the gaming day on the floor" not in text
    assert 'A shift manager opens it on the <a href="/floor/">floor</a>.' in text


def test_with_no_gaming_day_open_the_pit_and_the_floor_tell_a_pit_boss_who_opens_it(client, cast, site, table):
    """The pit board linked a pit boss to the floor's form opening the day, which the floor does not
    show them: a link to nothing. Who runs the floor keeps the link and the form."""
    client.force_login(cast[Role.PIT_BOSS].user)
    pit, floor = page(client.get("/floor/pit/")), page(client.get("/floor/"))
    assert "No gaming day open" in pit and 'id="pit-open-day-link"' not in pit
    assert "a shift manager opens it" in pit
    assert 'id="open-day-form"' not in floor
    assert "A shift manager opens the gaming day here" in floor
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    pit, floor = page(client.get("/floor/pit/")), page(client.get("/floor/"))
    assert 'id="pit-open-day-link"' in pit and "a shift manager opens it" not in pit
    assert 'id="open-day-form"' in floor and "A shift manager opens the gaming day here" not in floor


def test_the_closer_page_of_a_table_not_opened_says_so_first_and_leads_to_its_opener(client, cast, table, gaming_day):
    """The page showed the whole closer form, and only its submission said the table was not
    opened (a walk typed a tray for nothing)."""
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    text = page(client.get(f"/floor/tables/{table.pk}/closer/"))
    assert f"table {table.number} was not opened in this gaming day; count its opener first." in text
    assert 'id="count-form"' not in text
    assert f'href="/floor/tables/{table.pk}/opener/" id="count-the-opener"' in text
    services.record_table_inventory(acting_user=cast[Role.SHIFT_MANAGER].user, table=table, kind="opener", chips=TRAY)
    text = page(client.get(f"/floor/tables/{table.pk}/closer/"))
    assert 'id="count-form"' in text and 'id="not-opened"' not in text


def test_opening_a_day_twice_shows_the_service_message(client, cast, site, gaming_day):
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    response = client.post("/floor/open-day/", {"gaming_date": today(site)})
    assert response.status_code == 400
    assert f"House control: the gaming day {today(site)} was already opened at {site}." in page(response)


def test_a_dealer_sees_the_floor_without_floor_buttons_and_may_not_open_a_day(client, cast, site, table):
    client.force_login(cast[Role.DEALER].user)
    text = page(client.get("/floor/"))
    assert 'id="tables"' in text and 'id="open-day-form"' not in text
    assert client.post("/floor/open-day/", {"gaming_date": today(site)}).status_code == 403


def test_table_status_moves_from_not_opened_to_open_to_closed(client, cast, table, chips, gaming_day):
    manager = cast[Role.SHIFT_MANAGER]
    client.force_login(manager.user)
    assert "not opened" in page(client.get("/floor/"))
    response = client.post(f"/floor/tables/{table.pk}/opener/", TRAY_POST)
    assert response.status_code == 302
    assert TableInventory.objects.get(kind="opener").total_cents == 40 * 2500 + 160 * 500 + 200 * 100
    text = page(client.get("/floor/"))
    assert ">open<" in text and "$2,000.00" in text
    assert client.post(f"/floor/tables/{table.pk}/closer/", {"qty_2500": "30"}).status_code == 302
    assert ">closed<" in page(client.get("/floor/"))


def test_the_opener_page_shows_the_previous_closer(client, cast, table, chips, gaming_day):
    manager = cast[Role.SHIFT_MANAGER]
    services.record_table_inventory(acting_user=manager.user, table=table, kind="opener", chips=TRAY)
    services.record_table_inventory(acting_user=manager.user, table=table, kind="closer", chips=TRAY)
    services.close_gaming_day(acting_user=manager.user, gaming_day=gaming_day)
    client.force_login(manager.user)
    text = page(client.get(f"/floor/tables/{table.pk}/opener/"))
    assert "Previous closer: $2,000.00" in text
    assert 'class="text-end previous-qty" data-qty="40"' in text


@pytest.fixture
def reopened_day(table, chips, site, cast):
    """Yesterday's closer on record; today's gaming day open, the table not yet opened. Yesterday
    is over: its records give the times on their paper (core.moments)."""
    from datetime import timedelta

    manager, before = cast[Role.SHIFT_MANAGER].user, today(site) - timedelta(days=1)
    yesterday = services.open_gaming_day(acting_user=manager, site=site, gaming_date=before, at=in_day(site, before, 1))
    for kind, hours in (("opener", 2), ("closer", 12)):
        services.record_table_inventory(
            acting_user=manager, table=table, kind=kind, chips=TRAY, at=in_day(site, before, hours)
        )
    services.close_gaming_day(acting_user=manager, gaming_day=yesterday)
    services.open_gaming_day(acting_user=manager, site=site, gaming_date=today(site))
    return table


def test_an_opener_that_differs_asks_for_the_reason_with_the_service_message(client, cast, reopened_day, site):
    manager = cast[Role.SHIFT_MANAGER]
    client.force_login(manager.user)
    day = GamingDay.objects.get(gaming_date=today(site))
    response = client.post(f"/floor/tables/{reopened_day.pk}/opener/", {**TRAY_POST, "qty_100": "199"})
    assert response.status_code == 400
    assert "House control: the opener differs from the previous closer; give the reason." in page(response)
    response = client.post(
        f"/floor/tables/{reopened_day.pk}/opener/",
        {**TRAY_POST, "qty_100": "199", "variance_reason": "One $1 chip found on the floor"},
    )
    assert response.status_code == 302
    opener = TableInventory.objects.get(gaming_day=day, kind="opener")
    assert (opener.variance_cents, opener.variance_reason) == (-100, "One $1 chip found on the floor")


def test_closing_a_day_already_closed_says_so_on_the_floor(client, cast, site, gaming_day):
    """Sent again (or from a second tab) after the close, the form finds no day open: the floor
    says there is nothing to close, not a page not found."""
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    assert client.post("/floor/close-day/").status_code == 302
    for again in (client.post("/floor/close-day/", follow=True), client.get("/floor/close-day/", follow=True)):
        assert again.status_code == 200 and again.redirect_chain[-1][0] == "/floor/"
        assert f"No gaming day is open at {site}: there is nothing to close." in page(again)


def test_closing_the_day_with_a_table_still_open_shows_the_service_message(client, cast, open_table, gaming_day):
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    response = client.post("/floor/close-day/")
    assert response.status_code == 400
    assert "House control: table 1 is open (no closer); record the closer of table 1 first" in page(response)


def test_a_dealer_is_seated_with_a_tray_count_and_relieved(client, cast, open_table, org, site):
    from tests.factories import make_person

    first, second = cast[Role.DEALER], make_person(org, Role.DEALER, site)
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    url = f"/floor/tables/{open_table.pk}/dealer/"
    assert client.post(url, {"dealer": first.pk}).status_code == 302
    assert client.post(url, {"dealer": second.pk, **TRAY_POST}).status_code == 302
    shifts = list(DealerShift.objects.order_by("started_at"))
    assert [s.dealer for s in shifts] == [first, second] and shifts[0].ended_at is not None
    assert TableInventory.objects.get(kind="change").dealer_shift == shifts[1]
    assert client.post(f"/floor/dealer-shifts/{shifts[1].pk}/end/").status_code == 302
    shifts[1].refresh_from_db()
    assert shifts[1].ended_at is not None


def test_the_relief_select_leaves_out_the_dealer_already_seated_at_the_table(client, cast, open_table, org, site):
    """A walk of the demo found the seated dealer offered as their own relief."""
    from tests.factories import make_person

    first, second = cast[Role.DEALER], make_person(org, Role.DEALER, site)
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    url = f"/floor/tables/{open_table.pk}/dealer/"
    assert client.post(url, {"dealer": first.pk}).status_code == 302
    offered = page(client.get(url))
    assert f'value="{second.pk}"' in offered and f'value="{first.pk}"' not in offered


def test_seating_someone_who_is_not_a_dealer_shows_the_service_message(client, cast, open_table, site):
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    cashier = cast[Role.CASHIER]
    response = client.post(f"/floor/tables/{open_table.pk}/dealer/", {"dealer": cashier.pk})
    assert response.status_code == 400
    assert f"{cashier} is not an active dealer or wheel operator at {site}." in page(response)


def test_a_twenty_one_table_is_dealt_by_a_dealer_not_a_wheel_operator(client, client_for, cast, open_table, site):
    """Seated at twenty-one, a wheel operator's initials could not go on its credit slips (read by
    game, floor.rules.TABLE_ROLE): the page offers dealers only and the service refuses the others
    (house control)."""
    operator = cast[Role.WHEEL_OPERATOR]
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    url = f"/floor/tables/{open_table.pk}/dealer/"
    offered = page(client.get(url))
    assert f'value="{cast[Role.DEALER].pk}"' in offered and f'value="{operator.pk}"' not in offered
    refused = client.post(url, {"dealer": operator.pk})
    message = f"House control: {open_table} is dealt by a dealer; {operator} is not one at {site}."
    assert refused.status_code == 400 and message in page(refused)
    api = client_for(cast[Role.SHIFT_MANAGER]).post(
        "/api/v1/dealer-shifts/", {"table": open_table.pk, "dealer": operator.pk}, format="json"
    )
    assert api.status_code == 400 and api.json()["dealer"] == [message]
    assert not DealerShift.objects.exists()


def test_a_table_of_another_site_is_not_found(client, cast, other_site, gaming_day):
    from tests.factories import TableFactory

    elsewhere = TableFactory(site=other_site, number=9)
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    assert client.get(f"/floor/tables/{elsewhere.pk}/opener/").status_code == 404
    assert client.get(f"/floor/tables/{elsewhere.pk}/dealer/").status_code == 404


def test_queues_show_a_table_running_without_an_opener(client, cast, table, chips, gaming_day):
    services.start_dealer_shift(acting_user=cast[Role.SHIFT_MANAGER].user, table=table, dealer=cast[Role.DEALER])
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    assert "<li>Table 1</li>" in page(client.get("/floor/queues/"))
    assert "open without opener" in page(client.get("/floor/"))


OVER = (
    "2026-11-29 06:00 CST to 2026-11-30 06:00 CST, ND 99-01.3-02-01); the gaming day 2026-11-29 is over; give "
    "the time on the paper, within its business hours."
)


def _refused_at(response, field: str, form: str = "form") -> None:
    """The service's refusal of a blank time, inline at the form's time field, citing the business day."""
    assert response.status_code == 400
    (message,) = response.context[form].errors[field]
    assert message.startswith("House control: no time was given and now (2026-11-30 22:58 CST)") and OVER in message
    assert f'id="error-{field}"' in page(response)


def test_a_day_already_over_opens_from_the_paper_time_never_now(client, cast, site, table, chips, time_machine):
    """Entered the next evening, 2026-11-29's night is over: a blank time would stamp the opening
    (and its opener) on 11-30, outside that day, and then refuse the paper's closer as before
    it. The service refuses it at the page's time field instead (as through the API), and the
    page takes the time on the paper."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    chicago = ZoneInfo("America/Chicago")
    time_machine.move_to(datetime(2026, 11, 30, 22, 58, tzinfo=chicago), tick=False)
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    refused = client.post("/floor/open-day/", {"gaming_date": "2026-11-29"})
    _refused_at(refused, "opened_at", form="open_day_form")
    assert not GamingDay.objects.exists()
    opened = client.post("/floor/open-day/", {"gaming_date": "2026-11-29", "opened_at": "2026-11-29T18:00"})
    assert opened.status_code == 302
    assert GamingDay.objects.get().opened_at == datetime(2026, 11, 29, 18, 0, tzinfo=chicago)
    url = f"/floor/tables/{table.pk}/opener/"
    grid = {f"qty_{line['denomination']}": line["quantity"] for line in TRAY}
    _refused_at(client.post(url, grid), "counted_at")
    assert not TableInventory.objects.exists()
    timed = {"counted_at": "2026-11-29T18:05", **grid}
    assert client.post(url, timed).status_code == 302
    assert TableInventory.objects.get().counted_at == datetime(2026, 11, 29, 18, 5, tzinfo=chicago)
    # The night's slips and dealers from the paper too: a blank time is refused at its field.
    fill = {**grid, "table": table.pk, "purpose": "regular", "cashier": cast[Role.CASHIER].pk}
    _refused_at(client.post("/floor/slips/new/fill/", fill), "prepared_at")
    assert not Slip.objects.exists()
    assert client.post("/floor/slips/new/fill/", {**fill, "prepared_at": "2026-11-29T19:10"}).status_code == 302
    seat = {"dealer": cast[Role.DEALER].pk}
    _refused_at(client.post(f"/floor/tables/{table.pk}/dealer/", seat), "started_at")
    assert not DealerShift.objects.exists()
    # The closer's page asks for the paper's time too (it showed the field for openers only, so a
    # closer of a day already over was refused with no field to correct), and takes it.
    closer_url = f"/floor/tables/{table.pk}/closer/"
    shown = page(client.get(closer_url))
    assert 'name="counted_at"' in shown
    _refused_at(client.post(closer_url, grid), "counted_at")
    assert TableInventory.objects.count() == 1  # the opener alone
    assert client.post(closer_url, {**grid, "counted_at": "2026-11-29T23:30"}).status_code == 302
    # The next table's one-click opener (the same as its last closer) asks for the time on a day over.
    from tests.factories import TableFactory

    second = TableFactory(site=site, number=2, min_wager_cents=100, max_wager_cents=2500)
    for kind, minute in (("opener", 1), ("closer", 2)):  # a previous count, so the one-click form is offered
        services.record_table_inventory(
            acting_user=cast[Role.SHIFT_MANAGER].user, table=second, kind=kind, chips=TRAY,
            at=datetime(2026, 11, 29, 18, minute, tzinfo=chicago),
        )  # fmt: skip
    one_click = page(client.get(f"/floor/tables/{second.pk}/opener/"))
    form = one_click[one_click.index('id="same-as-last-form"') :]
    assert 'name="counted_at" id="same-counted-at" required' in form[: form.index("</form>")]
    _refused_at(client.post(f"/floor/tables/{second.pk}/opener/", {"same_as_last_closer": "on"}), "counted_at")
    assert TableInventory.objects.filter(table=second).count() == 2  # its opener and closer, no more


@pytest.mark.parametrize(
    "jurisdiction, rule", [("ND", "ND 99-01.3-02-01"), ("WA-HB", "House control"), ("NY", "House control")]
)
def test_a_blank_gaming_date_on_the_open_day_form_cites_the_business_day_at_the_site(
    client, cast, site, jurisdiction, rule
):
    site.jurisdiction = jurisdiction
    site.save()
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    refused = client.post("/floor/open-day/", {"gaming_date": ""})
    assert refused.status_code == 400
    assert refused.context["open_day_form"].errors["gaming_date"] == [f"{rule}: give the gaming date to open."]
    assert 'id="error-gaming_date"' in page(refused)
    assert not GamingDay.objects.exists()


def test_a_negative_chip_quantity_on_the_opener_is_refused_inline_with_the_tray_count_rule(
    client, cast, table, chips, gaming_day
):
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    refused = client.post(f"/floor/tables/{table.pk}/opener/", {"qty_2500": "-3", "qty_500": "10"})
    assert refused.status_code == 400
    (message,) = refused.context["form"].errors["chips"]
    assert message.startswith(
        "House control: chips are recorded by denomination, each with its number of chips, 1 or more; the quantity "
        "of $25.00"
    )
    assert message.endswith(" is -3 (a value with no chips is left out).")
    assert 'id="error-chips"' in page(refused)
    assert not TableInventory.objects.exists()


def test_the_one_click_opener_takes_the_papers_time_on_the_current_day(time_machine, client, cast, site, table, chips):
    """A night entered from paper later the same gaming day (02:50 for a table opened at 18:00): the
    one-click opener offers the paper's time behind "From paper", so the opener is not stamped at
    the entry, after the night's slips and before its true closer (which was then refused)."""
    from datetime import date, datetime, timedelta
    from zoneinfo import ZoneInfo

    evening = datetime(2026, 7, 10, 18, 0, tzinfo=ZoneInfo("America/Chicago"))  # gaming day 2026-07-10
    time_machine.move_to(evening - timedelta(hours=20), tick=False)  # 2026-07-09 22:00
    manager = cast[Role.SHIFT_MANAGER]
    before = date(2026, 7, 9)
    day = services.open_gaming_day(acting_user=manager.user, site=site, gaming_date=before, at=in_day(site, before, 1))
    for kind, hours in (("opener", 2), ("closer", 3)):
        services.record_table_inventory(
            acting_user=manager.user, table=table, kind=kind, chips=TRAY, at=in_day(site, before, hours)
        )
    services.close_gaming_day(acting_user=manager.user, gaming_day=day)
    time_machine.move_to(evening + timedelta(hours=8, minutes=50), tick=False)  # 02:50, still 2026-07-10
    services.open_gaming_day(acting_user=manager.user, site=site, gaming_date=date(2026, 7, 10), at=evening)
    client.force_login(manager.user)
    shown = page(client.get(f"/floor/tables/{table.pk}/opener/"))
    form = shown.split('id="same-as-last-form"')[1].split("</form>")[0]
    assert "From paper (an earlier time)" in form and 'name="counted_at"' in form
    token = form.split('name="form_token" value="')[1].split('"')[0]
    posted = {"same_as_last_closer": "on", "counted_at": "2026-07-10T18:00", "form_token": token}
    assert client.post(f"/floor/tables/{table.pk}/opener/", posted).status_code == 302
    opener = TableInventory.objects.get(gaming_day__gaming_date=date(2026, 7, 10), kind="opener")
    assert opener.counted_at == evening and opener.total_cents == 2_000_00
