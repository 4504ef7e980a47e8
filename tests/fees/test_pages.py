"""The table fees page: recording a fee in the browser with the service's refusals, the day's
reconciliation, and what a site of another pack shows."""

import pytest
from playwright.sync_api import expect

from cardroom.access import SESSION_KEY
from cardroom.models import Role
from fees.models import FeeCollection
from tests.browser_support import INPUTS_OFF_LINE, browser_page, login  # noqa: F401
from tests.factories import PASSWORD, SiteFactory, make_person

from .conftest import one_days_start

FORM = {"basis": "per_player", "period_minutes": "30", "rate_cents": "2", "count": "4", "amount_cents": "8"}


def test_a_pit_boss_records_a_fee_and_sees_it_reconciled(client, cast, bj_table):
    client.force_login(cast[Role.PIT_BOSS].user)
    assert client.get("/fees/").status_code == 200
    response = client.post("/fees/", {**FORM, "table": bj_table.pk})
    assert response.status_code == 302
    page = client.get("/fees/").content.decode()
    assert "$8.00" in page and "not counted" in page
    assert FeeCollection.objects.get().amount_cents == 800


def test_a_wrong_amount_is_refused_inline_citing_the_rule(client, cast, bj_table):
    client.force_login(cast[Role.PIT_BOSS].user)
    response = client.post("/fees/", {**FORM, "table": bj_table.pk, "amount_cents": "7"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "WAC 230-40-125(1)" in page and "amount_cents:" not in page
    assert not FeeCollection.objects.exists()


@pytest.mark.parametrize(
    "field, value, words",
    [
        ("rate_cents", "-2", "The rate per seat or player is from $0.01 to $100.00 (House control); got -$2.00."),
        ("period_minutes", "500", "The period is from 1 minute to 240 minutes (House control); got 500 minutes."),
        ("period_minutes", "0", "The period is from 1 minute to 240 minutes (House control); got 0 minutes."),
        ("count", "12", "House control: a fee charges 1 to"),
    ],
)
def test_an_out_of_bound_value_is_refused_inline_in_words_not_the_fields_name(
    client, cast, bj_table, field, value, words
):
    client.force_login(cast[Role.PIT_BOSS].user)
    response = client.post("/fees/", {**FORM, "table": bj_table.pk, field: value, "amount_cents": ""})
    assert response.status_code == 400
    page = response.content.decode()
    assert words in page and f"{field} is" not in page
    assert not FeeCollection.objects.exists()


RATE_BOUNDS = "The rate per seat or player is from $0.01 to $100.00 (House control)"


@pytest.mark.parametrize(
    "typed, got",
    [
        ("abc", '"abc", not dollars and cents (for example 2.50).'),
        ("2.505", '"2.505", not dollars and cents (for example 2.50).'),
        ("99999999999", '"99999999999".'),  # money, beyond any amount
    ],
)
def test_a_rate_that_is_not_an_amount_is_refused_inline_naming_the_services_bounds_and_rule(
    client, cast, bj_table, typed, got
):
    """The rate field says what the service says of a rate (fees.services.rate_bounds: its bounds,
    House control), as the pit terminal does, not the money field's bare "Enter an amount"."""
    from html import unescape

    from fees.services import rate_bounds

    assert rate_bounds() == RATE_BOUNDS
    client.force_login(cast[Role.PIT_BOSS].user)
    response = client.post("/fees/", {**FORM, "table": bj_table.pk, "rate_cents": typed, "amount_cents": ""})
    assert response.status_code == 400
    page = unescape(response.content.decode())
    assert f"{RATE_BOUNDS}; got {got}" in page and "Enter an amount" not in page
    assert not FeeCollection.objects.exists()


def test_a_blank_amount_is_worked_out_and_the_next_form_starts_from_the_last_terms(client, cast, bj_table):
    client.force_login(cast[Role.PIT_BOSS].user)
    form = client.get("/fees/").content.decode()
    assert 'placeholder="rate × count"' in form and "fees/fee_amount.js" in form
    blank = {**FORM, "basis": "per_seat", "period_minutes": "20", "rate_cents": "3.50", "amount_cents": ""}
    assert client.post("/fees/", {**blank, "table": bj_table.pk}).status_code == 302
    assert FeeCollection.objects.get().amount_cents == 1400  # 4 x $3.50
    page = client.get("/fees/").content.decode()
    # the posted rate, basis and period of the last collection are the next form's
    assert 'name="rate_cents" value="3.50"' in page and 'name="period_minutes" value="20"' in page
    assert '<option value="per_seat" selected>' in page


def test_an_auditor_reads_but_has_no_form(client, cast, bj_table):
    client.force_login(cast[Role.AUDITOR].user)
    page = client.get("/fees/")
    assert page.status_code == 200 and 'id="fee-form"' not in page.content.decode()
    assert client.post("/fees/", {**FORM, "table": bj_table.pk}).status_code == 403


def test_a_site_of_another_pack_says_whose_revenue_fees_are(client, org):
    nd = SiteFactory(organization=org, name="Elks Lodge", jurisdiction="ND")
    manager = make_person(org, Role.GAMING_MANAGER, None)
    client.force_login(manager.user)
    session = client.session
    session[SESSION_KEY] = nd.pk
    session.save()
    page = client.get("/fees/").content.decode()
    assert 'id="not-this-pack"' in page and "WAC 2" not in page and 'id="fee-form"' not in page


@pytest.fixture
def collector(cast):
    boss = cast[Role.PIT_BOSS]
    boss.user.username = "wacollector"
    boss.user.set_password(PASSWORD)
    boss.user.save()
    return boss


@pytest.mark.browser
def test_a_collector_records_a_fee_in_the_browser(browser_page, live_server, collector, bj_table):  # noqa: F811
    page = browser_page
    page.set_viewport_size({"width": 1366, "height": 768})  # the fields share one line
    login(page, live_server, "wacollector")
    page.goto(f"{live_server.url}/fees/")
    # The two-line label ("Rate per seat or player ($):") kept its input 25 px below its neighbours'.
    assert page.evaluate(INPUTS_OFF_LINE) == []
    page.select_option("#id_basis", "per_player")
    page.fill("#id_period_minutes", "30")
    page.fill("#id_rate_cents", "2")
    page.fill("#id_count", "5")
    # the amount is shown worked out as the rate and count are typed
    expect(page.locator("#id_amount_cents")).to_have_attribute("placeholder", "10.00 (rate × count)")
    page.fill("#id_amount_cents", "9")
    page.click("#record-fee")
    # Each answer comes back to /fees/, whose form and reconciliation are there before it: wait for it.
    expect(page.locator("#fee-form")).to_contain_text("WAC 230-40-125(1)", use_inner_text=True)
    assert page.evaluate(INPUTS_OFF_LINE) == []  # the refusal under the amount moves no input
    page.fill("#id_amount_cents", "10")
    page.click("#record-fee")
    expect(page.locator("#reconciliation")).to_contain_text("$10.00", use_inner_text=True)
    assert "not counted" in page.inner_text("#reconciliation")


def test_the_daily_and_quarter_pages_show_the_packs_figures(client, cast, bj_table, ny_site, ny_shift):
    from datetime import timedelta

    from fees import services

    services.record_fee(
        acting_user=cast[Role.PIT_BOSS].user,
        table=bj_table,
        basis="per_seat",
        period_minutes=30,
        rate_cents=300,
        count=3,
        amount_cents=900,
    )
    day = FeeCollection.objects.get().gaming_date
    client.force_login(cast[Role.GAMING_MANAGER].user)
    daily = client.get("/dashboard/daily/", {"site": bj_table.site_id, "date": day.isoformat()}).content.decode()
    assert 'id="fees-collected">$9.00' in daily and "no drop-based hold" in daily
    start = one_days_start(ny_site, timedelta(hours=2))
    services.record_session(
        acting_user=ny_shift.user,
        site=ny_site,
        licence_number="NY-1",
        started_at=start,
        ended_at=start + timedelta(hours=2),
        receipts_cents=5000,
        prizes_cents=1500,
    )
    quarter = client.get("/dashboard/quarter/", {"site": ny_site.pk}).content.decode()
    assert 'id="sessions-net">$35.00' in quarter


def test_the_dealer_hold_page_of_a_fees_or_session_site_says_there_is_no_hold(client, cast, bj_table, ny_site):
    client.force_login(cast[Role.GAMING_MANAGER].user)
    fees = client.get("/dashboard/dealers/", {"site": bj_table.site_id}).content.decode()
    assert 'id="no-hold"' in fees and "WAC 230-40-125(1)" in fees
    assert "paddlewheel" not in fees.lower() and 'id="dealers"' not in fees
    sessions = client.get("/dashboard/dealers/", {"site": ny_site.pk}).content.decode()
    assert 'id="no-hold"' in sessions and "9 NYCRR 4620.5" in sessions and "paddlewheel" not in sessions.lower()


def test_the_api_refuses_a_rate_that_is_not_a_number_in_the_same_words(client_for, cast, fee_payload):
    answer = client_for(cast[Role.PIT_BOSS]).post(
        "/api/v1/fee-collections/", {**fee_payload, "rate_cents": "abc"}, format="json"
    )
    assert answer.status_code == 400
    assert answer.json() == {"rate_cents": [f"{RATE_BOUNDS}: give it in whole cents, 1 to 10,000."]}
    assert not FeeCollection.objects.exists()
