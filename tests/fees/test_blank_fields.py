"""A required field left blank on the fees page (a Washington blackjack site) is refused at its
field in the words of its rule, never Django's bare "This field is required.": a fee's terms cite
the site's fees rule (WAC 230-40-125(1)), the fee cash count and a void the house's control. Nothing
is written."""

from datetime import timedelta

import pytest
from django.utils import timezone

from cardroom.models import Role
from core.moments import gaming_date_of
from fees import services
from fees.models import FeeCollection, FeeCount
from tests.page_support import page

pytestmark = pytest.mark.django_db

FEES_RULE = "WAC 230-40-125(1) (1999 proposed amendment)"
FEE = {"basis": "per_player", "period_minutes": "30", "rate_cents": "2", "count": "4", "amount_cents": ""}


@pytest.mark.parametrize(
    "field, words",
    [
        ("table", f"{FEES_RULE}: choose the table the fee was collected at."),
        ("basis", f"{FEES_RULE}: a fee is charged per seat or per player per period; choose which."),
        ("period_minutes", f"{FEES_RULE}: fees only on a time basis; give the period in minutes."),
        ("rate_cents", f"{FEES_RULE}: give the rate per seat or player per period."),
        ("count", f"{FEES_RULE}: give the number of seats or players charged."),
    ],
)
def test_a_blank_term_of_a_fee_cites_the_fees_rule(client, cast, bj_table, field, words):
    client.force_login(cast[Role.PIT_BOSS].user)
    response = client.post("/fees/", {**FEE, "table": bj_table.pk, field: ""})
    assert response.status_code == 400
    assert response.context["form"].errors[field] == [words]
    assert words in page(response) and "This field is required." not in page(response)
    assert not FeeCollection.objects.exists()


def test_another_sites_table_on_the_fee_form_is_refused_citing_the_house_control(client, cast, org, bj_table):
    """A table id of another site (Spokane's, posted at Tacoma) is not one of the form's: refused
    in the fees rule's words, not Django's bare "Select a valid choice."."""
    from tests.factories import SiteFactory, TableFactory

    spokane = SiteFactory(organization=org, name="Spokane Card Room", jurisdiction="WA-HB")
    elsewhere = TableFactory(site=spokane, number=2, max_wager_cents=5000, payout_rounding="down", decks=2)
    client.force_login(cast[Role.PIT_BOSS].user)
    response = client.post("/fees/", {**FEE, "table": elsewhere.pk})
    assert response.status_code == 400
    words = f"House control: a fee is collected at one of {bj_table.site}'s active tables; choose one of them."
    assert response.context["form"].errors["table"] == [words]
    assert words in page(response) and "Select a valid choice" not in page(response)
    assert not FeeCollection.objects.exists()


@pytest.mark.parametrize(
    "field, words",
    [
        ("gaming_date", "House control: give the gaming day whose fee cash is counted."),
        ("counted_cents", "House control: give the fee cash counted."),
        ("witness", "House control: the fee cash is counted by two people; choose the second."),
    ],
)
def test_a_blank_field_of_the_fee_cash_count_cites_the_house_control(client, cast, site, bj_table, field, words):
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    form = {"gaming_date": str(gaming_date_of(site, timezone.now())), "counted_cents": "16.00"}
    form["witness"] = cast[Role.CASHIER].pk
    response = client.post("/fees/count/", {**form, field: ""})
    assert response.status_code == 400
    assert response.context["count_form"].errors[field] == [words]
    assert not FeeCount.objects.exists()


def test_a_void_without_its_reason_is_refused_at_the_fees_row_citing_the_house_control(client, cast, bj_table):
    fee = services.record_fee(
        acting_user=cast[Role.PIT_BOSS].user,
        table=bj_table,
        basis="per_seat",
        period_minutes=30,
        rate_cents=300,
        count=3,
        collected_at=(timezone.now() - timedelta(hours=1)).replace(second=0, microsecond=0),
    )
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    response = client.post(f"/fees/{fee.pk}/void/", {"reason": "", "voided_at": ""})
    assert response.status_code == 400
    form = page(response)[page(response).index(f'id="void-fee-{fee.pk}"') :]
    assert "House control: a void states its reason." in form[: form.index("</form>")]
    assert not FeeCollection.objects.filter(voids=fee).exists()
