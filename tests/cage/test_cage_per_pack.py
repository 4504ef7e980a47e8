"""The cage's rules at a site of another pack (issue 32): at a Washington house-banked or a New
York site the bank, IOUs, redemptions, tips, deposits and the chip inventory keep their controls
as house controls, closed books stay closed, records are kept three years; every refusal and
page cites "House control", never North Dakota's sections or its SFN form. North Dakota's words
are unchanged (the other cage tests)."""

import re
from datetime import date, datetime, timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from django.test import Client
from django.utils import timezone

from cage import services
from cardroom.retention import retain_until
from core.appendonly import ImmutableRecordError
from reports.models import ReportRun
from surveillance.models import SurveillanceStatus
from tests.conformance.words import ND_WORDS, OTHER_WORDS, law_words_in

from .conftest import CHICAGO, DAY

OPEN_DATE = "2026-11-03"


def speaks_no_nd(text: str) -> bool:
    return not law_words_in(text, ND_WORDS)


def messages(refused) -> str:
    return " ".join(m for ms in refused.value.message_dict.values() for m in ms)


@pytest.fixture(params=["WA-HB", "NY"])
def elsewhere(request, site):
    """The test's site (the organization's only one) under another pack, before any record."""
    site.jurisdiction = request.param
    site.save()
    return site


def test_an_iou_between_one_fund_is_refused_as_a_house_control(elsewhere, client_for, cashier, chips, open_day):
    payload = {
        "site": elsewhere.pk,
        "gaming_date": OPEN_DATE,
        "source": "bank",
        "destination": "bank",
        "amount_cents": 5000,
    }
    response = client_for(cashier).post("/api/v1/cage/ious/", payload, format="json")
    assert response.status_code == 400
    text = response.json()["destination"][0]
    assert text == "House control: an IOU moves money between two different funds."


def test_an_iou_offers_and_takes_only_the_funds_the_sites_pack_keeps(elsewhere, client_for, cashier, chips, open_day):
    """The paddlewheel, pull-tab and bingo banks are North Dakota's charitable games' funds
    (ND 99-01.3-03-06): at a WA or NY site an IOU moves money between the bank, the reserve and
    the general account, on the page and in the API."""
    browser = Client()
    browser.force_login(cashier.user)
    page = browser.get("/cage/ious/").content.decode()
    form = page[page.index('name="source"') : page.index("</select>", page.index('name="destination"'))]
    assert re.findall(r'<option value="([a-z_]+)"', form) == ["bank", "reserve", "general"] * 2
    assert "Paddlewheel bank" not in page and "Bingo bank" not in page
    client = client_for(cashier)
    payload = {"site": elsewhere.pk, "gaming_date": OPEN_DATE, "source": "bingo", "destination": "bank"}
    response = client.post("/api/v1/cage/ious/", {**payload, "amount_cents": 5000}, format="json")
    assert response.status_code == 400
    assert response.json()["source"] == [
        f"House control: 'bingo' is not a fund at {elsewhere.name} (one of bank, reserve, general)."
    ]
    lent = client.post("/api/v1/cage/ious/", {**payload, "source": "reserve", "amount_cents": 5000}, format="json")
    assert lent.status_code == 201, lent.content


def test_a_chip_the_organization_does_not_have_is_refused_as_a_house_control(
    elsewhere, client_for, cashier, chips, open_day
):
    payload = {
        "site": elsewhere.pk,
        "gaming_date": OPEN_DATE,
        "kind": "start",
        "cash": [{"value_cents": 2000, "quantity": 5}],
        "chips": [{"value_cents": 300, "quantity": 1}],
    }
    response = client_for(cashier).post("/api/v1/cage/bank-counts/", payload, format="json")
    assert response.status_code == 400
    text = response.json()["chips"][0]
    assert text.startswith("House control: 300 is not a chip value") and speaks_no_nd(text)


def test_closed_books_stay_closed_as_a_house_control(elsewhere, cashier, chips, closed_day):
    with pytest.raises(ValidationError) as refused:
        services.lend_iou(
            acting_user=cashier.user,
            site=elsewhere,
            gaming_date=DAY,
            source="bank",
            destination="reserve",
            amount_cents=1000,
        )
    text = messages(refused)
    assert text.startswith("House control (closed books): ") and speaks_no_nd(text)


def test_a_deposit_dated_ahead_is_refused_as_a_house_control(elsewhere, cashier, closed_day):
    with pytest.raises(ValidationError) as refused:
        services.record_deposit(
            acting_user=cashier.user,
            gaming_day=closed_day,
            amount_cents=100,
            deposited_on=timezone.localdate() + timedelta(days=2),
        )
    assert messages(refused) == "House control: a deposit cannot be dated in the future."


def test_the_chip_inventory_is_the_houses_own_log(elsewhere, client, manager, chips):
    with pytest.raises(ValidationError) as refused:
        services.receive_chips(
            acting_user=manager.user,
            organization=elsewhere.organization,
            chips={500: 10},
            received_on=timezone.localdate() + timedelta(days=2),
            reference="inv 1",
        )
    assert messages(refused).startswith("House control: give the date") and speaks_no_nd(messages(refused))
    client.force_login(manager.user)
    page = client.get("/cage/inventory/").content.decode()
    assert "The house's chip inventory (House control)" in page and speaks_no_nd(page)


@pytest.mark.parametrize("url", ["/cage/", "/cage/ious/", "/cage/redemptions/", "/cage/tips/", "/cage/deposits/"])
def test_the_cage_pages_speak_no_north_dakota_elsewhere(elsewhere, client, cashier, chips, url):
    client.force_login(cashier.user)
    response = client.get(url)
    assert response.status_code == 200
    page = response.content.decode()
    assert "House control" in page and speaks_no_nd(page)


def test_the_bank_page_states_house_control_once_where_both_records_are_the_houses(elsewhere, client, cashier, chips):
    """It read "House control: the starting and ending cash and chip banks of each day, with the IOU
    records (House control)." at a WA or NY site."""
    client.force_login(cashier.user)
    rule = re.search(r'<p class="text-muted" id="bank-rule">(.*?)</p>', client.get("/cage/").content.decode()).group(1)
    assert rule == "House control: the starting and ending cash and chip banks of each day, with the IOU records."


def test_the_bank_page_cites_both_nd_sections_at_a_north_dakota_site(client, cashier, chips):
    client.force_login(cashier.user)
    page = client.get("/cage/").content.decode()
    assert "ND 99-01.3-08-16(1)(a): the starting and ending cash" in page and "IOU records (ND 99-01.3-03-06)." in page


def test_north_dakota_keeps_its_words(client, cashier, manager, chips):
    client.force_login(cashier.user)
    page = client.get("/cage/deposits/").content.decode()
    assert "ND 99-01.3-03-10" in page and not law_words_in(page, OTHER_WORDS)
    client.force_login(manager.user)
    page = client.get("/cage/inventory/").content.decode()
    assert "SFN 17930" in page and "ND 99-01.3-03-09(6)" in page


# --- Retention: three years everywhere, the house's control where no pack states a period ------


def _run(org, site, manager, kind):
    return ReportRun.objects.create(
        kind=kind,
        organization=org,
        site=site,
        start=date(2026, 8, 1),
        end=date(2026, 8, 1),
        period_label="2026-08-01",
        requested_by=manager.user,
        requested_at=datetime(2026, 8, 1, tzinfo=CHICAGO),
    )


def test_a_record_is_kept_three_years_as_a_house_control(elsewhere, org, manager):
    run = _run(org, elsewhere, manager, "house_rules")
    with pytest.raises(ImmutableRecordError) as refused, transaction.atomic():
        ReportRun.objects.filter(pk=run.pk).delete()
    text = str(refused.value)
    assert text.startswith("House control: ") and "three years" in text and speaks_no_nd(text)


def test_no_record_is_kept_for_only_one_year_elsewhere(elsewhere, org, manager):
    """North Dakota allows one year for dealer percent-of-hold records at a surveillance site;
    elsewhere the house keeps them three years like every record."""
    SurveillanceStatus.objects.create(
        site=elsewhere,
        required=True,
        since=date(2026, 1, 1),
        reason="house",
        recorded_by=manager.user,
        recorded_at=datetime(2026, 1, 1, tzinfo=CHICAGO),
    )
    assert retain_until(_run(org, elsewhere, manager, "dealer_hold")) == date(2029, 9, 30)


def test_north_dakota_keeps_its_retention_words(org, site, manager):
    run = _run(org, site, manager, "house_rules")
    with pytest.raises(ImmutableRecordError, match=r"^ND 99-01.3-08-16: "), transaction.atomic():
        ReportRun.objects.filter(pk=run.pk).delete()


def test_a_site_whose_pack_changes_is_cited_by_its_new_pack(org, site, manager):
    """The site's jurisdiction is kept per site id and forgotten when the site is saved."""
    run = _run(org, site, manager, "house_rules")
    from cardroom.retention import retention_notice

    assert retention_notice(run).endswith("(ND 99-01.3-08-16)")
    site.jurisdiction = "NY"
    site.save()
    assert retention_notice(run).endswith("(House control)")


def test_the_redemptions_page_states_the_redemption_rule_where_the_house_has_chips(client, cashier, chips):
    client.force_login(cashier.user)
    page = client.get("/cage/redemptions/").content.decode()
    assert 'id="redemption-rule">ND 99-01.3-08-06(2): chips are redeemed for cash at the value' in page


def test_a_negative_deposit_is_refused_on_its_field_as_a_house_control(elsewhere, client_for, cashier, closed_day):
    """The API's floor under an amount named neither rule nor control ("The amount must be at
    least 0 cents."): its refusal names the field and the house control, as the ceiling's does."""
    payload = {"site": elsewhere.pk, "gaming_date": str(DAY), "amount_cents": -100, "deposited_on": str(DAY)}
    response = client_for(cashier).post("/api/v1/cage/deposits/", payload, format="json")
    assert response.status_code == 400, response.content
    assert response.json() == {"amount_cents": ["The amount must be at least 0 cents (house control)."]}
