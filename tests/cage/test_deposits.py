"""Bank deposits: due by the third banking day (ND 99-01.3-03-10), verified on the statement."""

from datetime import UTC, date, datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from cage import services
from cage.models import BankDeposit, DepositVerification
from cardroom.models import Role


def deposit(user, day, **overrides):
    values = {"amount_cents": 123400, "deposited_on": date(2026, 11, 4), **overrides}
    return services.record_deposit(acting_user=user.user, gaming_day=day, **values)


def test_a_deposit_records_its_due_date_and_is_on_time_by_the_third_banking_day(closed_day, cashier):
    recorded = deposit(cashier, closed_day, deposited_on=date(2026, 11, 5))
    assert recorded.due_on == date(2026, 11, 5)
    assert not recorded.late


def test_a_deposit_after_the_third_banking_day_is_recorded_as_late(closed_day, cashier):
    assert deposit(cashier, closed_day, deposited_on=date(2026, 11, 6)).late


def test_a_deposit_for_a_day_whose_books_are_not_closed_is_refused(open_day, cashier):
    with pytest.raises(ValidationError) as caught:
        deposit(cashier, open_day)
    assert "not closed" in caught.value.message_dict["gaming_day"][0]
    assert not BankDeposit.objects.exists()


def test_a_day_is_deposited_once(closed_day, cashier):
    deposit(cashier, closed_day)
    with pytest.raises(ValidationError, match="already recorded"):
        deposit(cashier, closed_day)


def test_a_negative_deposit_amount_is_refused_at_its_field_citing_house_control_not_the_deadline(closed_day, cashier):
    """ND 99-01.3-03-10 is the deposit's deadline; the sign of an amount is the house's control."""
    with pytest.raises(ValidationError) as refused:
        deposit(cashier, closed_day, amount_cents=-500)
    assert refused.value.message_dict == {"amount_cents": ["House control: the amount must be zero or more."]}
    assert not BankDeposit.objects.exists()


def test_a_deposit_before_its_gaming_date_is_refused(closed_day, cashier):
    with pytest.raises(ValidationError, match="on or after its gaming date"):
        deposit(cashier, closed_day, deposited_on=date(2026, 11, 1))


def test_the_gaming_manager_verifies_the_deposit_against_the_statement(closed_day, cashier, manager):
    recorded = deposit(cashier, closed_day)
    verification = services.verify_deposit(
        acting_user=manager.user, deposit=recorded, statement_date=date(2026, 11, 5), statement_amount_cents=123400
    )
    assert verification.difference_cents == 0
    with pytest.raises(ValidationError, match="already verified"):
        services.verify_deposit(
            acting_user=manager.user, deposit=recorded, statement_date=date(2026, 11, 5), statement_amount_cents=123400
        )


def test_a_statement_that_differs_needs_an_explanation(closed_day, cashier, manager):
    recorded = deposit(cashier, closed_day)
    with pytest.raises(ValidationError) as caught:
        services.verify_deposit(
            acting_user=manager.user, deposit=recorded, statement_date=date(2026, 11, 5), statement_amount_cents=123000
        )
    assert "-$4.00" in caught.value.message_dict["note"][0]
    services.verify_deposit(
        acting_user=manager.user,
        deposit=recorded,
        statement_date=date(2026, 11, 5),
        statement_amount_cents=123000,
        note="Bank fee",
    )
    assert DepositVerification.objects.get().difference_cents == -400


def test_the_person_who_recorded_a_deposit_does_not_verify_it(closed_day, manager):
    recorded = deposit(manager, closed_day)
    with pytest.raises(ValidationError, match="someone other than"):
        services.verify_deposit(
            acting_user=manager.user, deposit=recorded, statement_date=date(2026, 11, 5), statement_amount_cents=123400
        )


@pytest.mark.parametrize("role", [Role.CASHIER, Role.SHIFT_MANAGER, Role.AUDITOR])
def test_only_the_gaming_manager_verifies_deposits(closed_day, cashier, cast, role):
    recorded = deposit(cashier, closed_day)
    with pytest.raises(PermissionDenied):
        services.verify_deposit(
            acting_user=cast[role].user,
            deposit=recorded,
            statement_date=date(2026, 11, 5),
            statement_amount_cents=123400,
        )


def test_the_bank_day_carries_its_deposit_as_recorded_then_as_verified(closed_day, cashier, manager):
    from cage.queries import Deposit, bank_day

    site, day = closed_day.site, closed_day.gaming_date
    assert bank_day(site, day).deposit is None
    recorded = deposit(cashier, closed_day, amount_cents=98765, deposited_on=date(2026, 11, 6))
    assert bank_day(site, day).deposit == Deposit(98765, date(2026, 11, 6), False, None, True)
    services.verify_deposit(
        acting_user=manager.user,
        deposit=recorded,
        statement_date=date(2026, 11, 7),
        statement_amount_cents=98700,
        note="bank fee",
    )
    assert bank_day(site, day).deposit == Deposit(98765, date(2026, 11, 6), True, 98700, True)


@pytest.mark.parametrize(
    ("at", "said"),
    [
        (datetime(2026, 11, 4, 10, 0), "House control: give the time with its time zone."),
        (datetime(2099, 11, 4, 10, 0, tzinfo=UTC), "House control: a record cannot be dated in the future."),
    ],
    ids=["no time zone", "in the future"],
)
def test_a_deposits_recording_time_without_its_zone_or_in_the_future_names_the_field_and_house_control(
    closed_day, cashier, at, said
):
    with pytest.raises(ValidationError) as refused:
        deposit(cashier, closed_day, at=at)
    assert refused.value.message_dict == {"recorded_at": [said]}
    assert not BankDeposit.objects.exists()
