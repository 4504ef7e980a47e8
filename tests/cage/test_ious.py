"""IOUs between the bank and reserves: loan and repayment are separate rows (ND 99-01.3-03-06)."""

from datetime import date

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from cage import services
from cage.models import Iou, IouRepayment
from cardroom.models import Role
from core.models import AuditEvent

from .conftest import DAY


def lend(user, site, **overrides):
    values = {"gaming_date": DAY, "source": "bank", "destination": "pull_tabs", "amount_cents": 50000, **overrides}
    return services.lend_iou(acting_user=user.user, site=site, **values)


def test_a_loan_records_source_destination_amount_date_and_initials(site, cashier):
    iou = lend(cashier, site)
    assert (iou.source, iou.destination, iou.amount_cents, iou.gaming_date) == ("bank", "pull_tabs", 50000, DAY)
    assert iou.initials == cashier.initials
    assert AuditEvent.objects.filter(action="iou.lent").count() == 1


def test_a_repayment_is_its_own_row_with_its_date_and_initials(site, cashier, shift_manager):
    iou = lend(cashier, site)
    repayment = services.repay_iou(
        acting_user=shift_manager.user, iou=iou, amount_cents=20000, gaming_date=date(2026, 11, 3)
    )
    assert repayment.initials == shift_manager.initials
    assert repayment.gaming_date == date(2026, 11, 3)
    services.repay_iou(acting_user=cashier.user, iou=iou, gaming_date=date(2026, 11, 3))
    assert sum(IouRepayment.objects.filter(iou=iou).values_list("amount_cents", flat=True)) == 50000


def test_an_iou_repaid_twice_is_refused(site, cashier):
    iou = lend(cashier, site)
    services.repay_iou(acting_user=cashier.user, iou=iou, gaming_date=DAY)
    with pytest.raises(ValidationError) as caught:
        services.repay_iou(acting_user=cashier.user, iou=iou, gaming_date=DAY)
    assert "already repaid" in caught.value.message_dict["iou"][0]
    assert IouRepayment.objects.count() == 1


def test_repaying_more_than_was_lent_is_refused(site, cashier):
    iou = lend(cashier, site)
    with pytest.raises(ValidationError) as caught:
        services.repay_iou(acting_user=cashier.user, iou=iou, amount_cents=50001, gaming_date=DAY)
    assert "more than the $500.00 outstanding" in caught.value.message_dict["amount_cents"][0]
    assert not IouRepayment.objects.exists()


def test_a_repayment_before_the_loan_is_refused(site, cashier):
    iou = lend(cashier, site)
    with pytest.raises(ValidationError, match="on or after the day it was lent"):
        services.repay_iou(acting_user=cashier.user, iou=iou, gaming_date=date(2026, 11, 1))


@pytest.mark.parametrize(
    "overrides,field",
    [
        ({"destination": "bank"}, "destination"),
        ({"source": "mattress"}, "source"),
        ({"amount_cents": 0}, "amount_cents"),
        ({"amount_cents": -5}, "amount_cents"),
    ],
)
def test_a_bad_loan_changes_nothing_and_names_the_field(site, cashier, overrides, field):
    with pytest.raises(ValidationError) as caught:
        lend(cashier, site, **overrides)
    assert field in caught.value.message_dict
    assert not Iou.objects.exists()


@pytest.mark.parametrize("role", [Role.DEALER, Role.AUDITOR, Role.PIT_BOSS])
def test_only_cage_clerks_sign_ious(site, cast, role):
    with pytest.raises(PermissionDenied):
        lend(cast[role], site)
