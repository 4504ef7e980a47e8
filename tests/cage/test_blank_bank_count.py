"""A blank bank-count form is no count (ND 99-01.3-08-16(1)(a)): the service refuses a count of no
denomination at all, so the page and the API refuse it too and nothing is written; saved, it
would take the day's one starting count and let the books close on a $0 bank."""

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from cage import services
from cage.models import BankCount, BankCountLine
from cardroom.models import Role
from core.models import AuditEvent

from .conftest import DAY

BLANK_GRID = {f"cash_{v}": "" for v in (10000, 5000, 2000, 1000, 500, 200, 100, 50, 25, 10, 5, 1)} | {
    f"chip_{v}": "" for v in (10000, 2500, 500, 200, 100, 50)
}


def browser(employee) -> Client:
    client = Client()
    client.force_login(employee.user)
    return client


def nothing_counted() -> bool:
    return (
        not BankCount.objects.exists()
        and not BankCountLine.objects.exists()
        and not AuditEvent.objects.filter(action="bank_count.recorded").exists()
    )


@pytest.mark.parametrize(
    "cash,chip_lines",
    [({}, {}), ([], []), (None, None), ({10000: 0, 500: "0"}, {500: 0})],
    ids=["empty-mappings", "empty-lists", "none", "only-zero-lines"],
)
def test_the_service_refuses_a_count_of_no_denomination_citing_the_bank_count_rule(
    site, chips, cashier, cash, chip_lines
):
    with pytest.raises(ValidationError) as refused:
        services.record_bank_count(
            acting_user=cashier.user, site=site, gaming_date=DAY, kind="start", cash=cash, chips=chip_lines
        )
    assert refused.value.message_dict["cash"] == [
        "ND 99-01.3-08-16(1)(a): give at least one denomination and its quantity "
        "(a blank count is not recorded as an empty bank)."
    ]
    assert nothing_counted()


def test_a_blank_grid_on_the_bank_page_is_refused_inline_and_the_real_count_then_goes_in(cast, chips):
    cashier = browser(cast[Role.CASHIER])
    blank = {"form": "count", "gaming_date": DAY.isoformat(), "kind": "start", **BLANK_GRID}
    response = cashier.post("/cage/", blank)
    assert response.status_code == 400
    text = response.content.decode()
    assert "ND 99-01.3-08-16(1)(a): give at least one denomination and its quantity" in text
    assert nothing_counted()
    counted = cashier.post("/cage/", {**blank, "cash_10000": "276"})
    assert counted.status_code == 302
    assert BankCount.objects.get().cash_cents == 2_760_000


def test_the_api_answers_400_naming_the_field_of_a_blank_count(client_for, cashier, site, chips):
    response = client_for(cashier).post(
        "/api/v1/cage/bank-counts/",
        {"site": site.pk, "gaming_date": DAY.isoformat(), "kind": "start", "cash": [], "chips": {}},
        format="json",
    )
    assert response.status_code == 400, response.content
    assert response.json()["cash"][0].startswith("ND 99-01.3-08-16(1)(a): give at least one denomination")
    assert nothing_counted()


def test_a_blank_correction_is_refused_and_the_count_it_would_replace_stands(site, chips, cashier):
    first = services.record_bank_count(
        acting_user=cashier.user, site=site, gaming_date=DAY, kind="start", cash={10000: 276}, chips={}
    )
    with pytest.raises(ValidationError) as refused:
        services.record_bank_count(
            acting_user=cashier.user,
            site=site,
            gaming_date=DAY,
            kind="start",
            cash={},
            chips={},
            corrects=first,
            reason="recount",
        )
    assert "give at least one denomination" in refused.value.message_dict["cash"][0]
    assert list(BankCount.objects.all()) == [first]


@pytest.mark.parametrize("jurisdiction", ["WA-HB", "NY"])
def test_elsewhere_a_blank_count_is_refused_as_a_house_control(site, chips, cashier, jurisdiction):
    site.jurisdiction = jurisdiction
    site.save()
    with pytest.raises(ValidationError) as refused:
        services.record_bank_count(acting_user=cashier.user, site=site, gaming_date=DAY, kind="end", cash={}, chips={})
    assert refused.value.message_dict["cash"][0].startswith("House control: give at least one denomination")
    assert nothing_counted()


def test_a_bank_count_form_sent_twice_records_one_count(cast, site, chips):
    from tests.page_support import at_site, form_token, page

    client = at_site(Client(), cast[Role.CASHIER], site)
    token = form_token(page(client.get("/cage/")), "count-form")
    data = {"form": "count", "gaming_date": DAY.isoformat(), "kind": "start", "cash_2000": "50", "form_token": token}
    assert client.post("/cage/", data).status_code == 302
    again = client.post("/cage/", data, follow=True)
    assert "Already recorded" in page(again) and BankCount.objects.count() == 1
