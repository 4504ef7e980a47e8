"""Rules of other chapters that the floor enforces: tips before leaving the site
(ND 99-01.3-08-06(3)) and the $2 limit after a surveillance outage deadline (08-04(7))."""

from datetime import UTC, datetime, timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from cage import services as cage
from cardroom.models import Role
from floor import services
from surveillance.models import Outage


def test_a_dealer_who_has_not_declared_tips_cannot_leave_the_site(dealer_shift, shift_manager):
    with pytest.raises(ValidationError) as error:
        services.end_dealer_shift(acting_user=shift_manager.user, shift=dealer_shift, left_site=True)
    assert "ND 99-01.3-08-06(3)" in error.value.message_dict["left_site"][0]
    dealer_shift.refresh_from_db()
    assert dealer_shift.ended_at is None


def test_a_dealer_with_unredeemed_tips_cannot_leave_until_the_cashier_pays_them(
    dealer_shift, shift_manager, cast, chips, site, client_for
):
    dealer = cast[Role.DEALER]
    declaration = cage.declare_tips(
        acting_user=dealer.user,
        site=site,
        gaming_date=dealer_shift.gaming_day.gaming_date,
        chips=[{"denomination": 100, "quantity": 7}],
    )
    response = client_for(shift_manager).post(
        f"/api/v1/dealer-shifts/{dealer_shift.pk}/end/", {"left_site": True}, format="json"
    )
    assert response.status_code == 400 and "$7.00 of unredeemed tips" in response.json()["left_site"][0]
    cage.redeem_tips(acting_user=cast[Role.CASHIER].user, declaration=declaration, dealer=dealer)
    ended = services.end_dealer_shift(acting_user=shift_manager.user, shift=dealer_shift, left_site=True)
    assert ended.ended_at is not None


def test_a_shift_ending_without_leaving_the_site_needs_no_tip_check(dealer_shift, shift_manager):
    assert services.end_dealer_shift(acting_user=shift_manager.user, shift=dealer_shift).ended_at is not None


@pytest.fixture
def expired_outage(table, manager):
    began = timezone.now() - timedelta(days=5)
    return Outage.objects.create(
        table=table,
        kind="camera",
        began_at=began,
        description="no picture",
        reported_by=manager.user,
        reported_at=began,
    )


def test_a_table_past_its_outage_deadline_cannot_open_above_two_dollars(
    table, chips, gaming_day, shift_manager, expired_outage, client
):
    with pytest.raises(ValidationError) as error:
        services.record_table_inventory(
            acting_user=shift_manager.user, table=table, kind="opener", chips=[{"denomination": 500, "quantity": 100}]
        )
    assert "ND 99-01.3-08-04(7)" in error.value.message_dict["max_wager_cents"][0]


def test_the_same_table_opens_once_limited_to_two_dollars(table, chips, gaming_day, shift_manager, expired_outage):
    type(table).objects.filter(pk=table.pk).update(min_wager_cents=100, max_wager_cents=200)
    table.refresh_from_db()
    opener = services.record_table_inventory(
        acting_user=shift_manager.user, table=table, kind="opener", chips=[{"denomination": 500, "quantity": 100}]
    )
    assert opener.pk


def test_a_repaired_outage_lifts_the_limit(table, chips, gaming_day, shift_manager, expired_outage, manager):
    from surveillance.models import OutageRepair

    OutageRepair.objects.create(
        outage=expired_outage,
        repaired_at=timezone.now() - timedelta(hours=1),
        description="replaced",
        recorded_by=manager.user,
        recorded_at=datetime.now(UTC),
    )
    opener = services.record_table_inventory(
        acting_user=shift_manager.user, table=table, kind="opener", chips=[{"denomination": 500, "quantity": 100}]
    )
    assert opener.pk


def test_the_browser_refuses_a_dealer_leaving_with_tips_and_says_why(client, dealer_shift, shift_manager):
    client.force_login(shift_manager.user)
    response = client.post(f"/floor/dealer-shifts/{dealer_shift.pk}/end/", {"left_site": "on"}, follow=True)
    assert "ND 99-01.3-08-06(3)" in response.content.decode()
    dealer_shift.refresh_from_db()
    assert dealer_shift.ended_at is None
