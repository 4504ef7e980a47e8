"""Chip redemptions and dealer tips (ND 99-01.3-08-06(2)-(3))."""

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from cage import queries, services
from cage.models import ChipRedemption, TipDeclaration, TipPolicy, TipRedemption
from cardroom.models import Role
from tests.factories import make_person

from .conftest import DAY


def test_a_cashier_pays_a_player_cash_for_chips_by_denomination(site, chips, cashier):
    redemption = services.redeem_chips(
        acting_user=cashier.user,
        site=site,
        gaming_date=DAY,
        chips=[{"value_cents": 2500, "quantity": 4}, {"value_cents": 100, "quantity": 3}],
    )
    assert redemption.total_cents == 10300
    assert redemption.lines.count() == 2


@pytest.mark.parametrize(
    "lines,words",
    [
        ([], "at least one"),
        ([{"value_cents": 2500, "quantity": -4}], "cannot be negative"),
        ([{"value_cents": 1000, "quantity": 1}], "not a chip value"),
    ],
)
def test_a_bad_redemption_changes_nothing(site, chips, cashier, lines, words):
    with pytest.raises(ValidationError) as caught:
        services.redeem_chips(acting_user=cashier.user, site=site, gaming_date=DAY, chips=lines)
    assert words in caught.value.message_dict["chips"][0]
    assert not ChipRedemption.objects.exists()


def test_a_dealer_cannot_redeem_chips_at_the_cage(site, chips, dealer):
    with pytest.raises(PermissionDenied):
        services.redeem_chips(acting_user=dealer.user, site=site, gaming_date=DAY, chips={500: 1})


def declare(dealer, site, chips=None):
    return services.declare_tips(
        acting_user=dealer.user, site=site, gaming_date=DAY, chips=chips if chips is not None else {100: 12, 500: 3}
    )


def test_a_dealer_declares_their_own_tips_and_they_stay_unredeemed_until_paid(site, chips, dealer, cashier):
    started = timezone.now() - timedelta(hours=3)
    declaration = declare(dealer, site)
    assert declaration.dealer == dealer and declaration.total_cents == 2700
    assert queries.unredeemed_tips_cents(dealer, site, started) == 2700
    assert not queries.tip_status(dealer, site, started).may_leave
    services.redeem_tips(acting_user=cashier.user, declaration=declaration, dealer=dealer)
    assert queries.unredeemed_tips_cents(dealer, site, started) == 0
    assert queries.tip_status(dealer, site, started).may_leave


def test_a_dealer_who_declared_nothing_has_not_declared_and_may_not_leave(site, chips, dealer):
    started = timezone.now() - timedelta(hours=3)
    assert not queries.tip_status(dealer, site, started).declared
    declare(dealer, site, chips=[])
    assert queries.tip_status(dealer, site, started).may_leave


def test_a_tip_redemption_for_another_dealer_is_refused(org, site, chips, dealer, cashier):
    other_dealer = make_person(org, Role.DEALER, site)
    declaration = declare(dealer, site)
    with pytest.raises(ValidationError) as caught:
        services.redeem_tips(acting_user=cashier.user, declaration=declaration, dealer=other_dealer)
    assert "redeems only their own tips" in caught.value.message_dict["dealer"][0]
    assert not TipRedemption.objects.exists()


def test_tips_are_redeemed_once(site, chips, dealer, cashier):
    declaration = declare(dealer, site)
    services.redeem_tips(acting_user=cashier.user, declaration=declaration, dealer=dealer)
    with pytest.raises(ValidationError, match="already redeemed"):
        services.redeem_tips(acting_user=cashier.user, declaration=declaration, dealer=dealer)


def test_a_dealer_cannot_pay_out_tips_even_their_own(site, chips, dealer):
    declaration = declare(dealer, site)
    with pytest.raises(PermissionDenied):
        services.redeem_tips(acting_user=dealer.user, declaration=declaration, dealer=dealer)


def test_a_cashier_cannot_declare_tips_for_a_dealer(site, chips, cashier):
    with pytest.raises(PermissionDenied):
        services.declare_tips(acting_user=cashier.user, site=site, gaming_date=DAY, chips={100: 1})


def test_a_declaration_with_a_fractional_chip_is_refused(site, chips, dealer):
    with pytest.raises(ValidationError, match="whole number"):
        declare(dealer, site, chips={100: 1.5})
    assert not TipDeclaration.objects.exists()


def test_the_gaming_manager_records_the_tip_pooling_policy(org, manager, cashier):
    policy = services.record_tip_policy(
        acting_user=manager.user,
        organization=org,
        pooled=True,
        description="Pooled per shift, split by hours.",
        effective_on=DAY,
    )
    assert TipPolicy.objects.get() == policy
    with pytest.raises(PermissionDenied):
        services.record_tip_policy(
            acting_user=cashier.user, organization=org, pooled=False, description="x", effective_on=DAY
        )
