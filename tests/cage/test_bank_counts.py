"""Starting and ending bank counts (ND 99-01.3-08-16(1)(a)); the ideal bank amount."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from cage import services
from cage.models import BankCount, BankCountLine
from cardroom.models import Role
from core.models import AuditEvent

from .conftest import DAY

CASH = [
    {"value_cents": 10000, "quantity": 20},
    {"value_cents": 2000, "quantity": 50},
    {"value_cents": 25, "quantity": 40},
]
CHIPS = [{"value_cents": 500, "quantity": 200}, {"value_cents": 2500, "quantity": 40}]


def count(user, site, **overrides):
    values = {"gaming_date": DAY, "kind": "start", "cash": CASH, "chips": CHIPS, **overrides}
    return services.record_bank_count(acting_user=user.user, site=site, **values)


def test_a_cashier_records_the_starting_bank_with_cash_and_chips_by_denomination(site, chips, cashier):
    recorded = count(cashier, site)
    assert recorded.cash_cents == 200000 + 100000 + 1000
    assert recorded.chips_cents == 100000 + 100000
    assert recorded.initials == cashier.initials
    assert BankCountLine.objects.filter(count=recorded, chip__isnull=False).count() == 2
    assert AuditEvent.objects.filter(action="bank_count.recorded", object_id=str(recorded.pk)).exists()


def test_a_mapping_of_values_to_quantities_is_accepted_and_zero_lines_are_dropped(site, chips, cashier):
    recorded = count(cashier, site, cash={"10000": 3, "500": 0}, chips={500: 10})
    assert recorded.cash_cents == 30000
    assert recorded.lines.count() == 2


@pytest.mark.parametrize(
    "field,lines,words",
    [
        ("cash", [{"value_cents": 10000, "quantity": -1}], "cannot be negative"),
        ("cash", [{"value_cents": 10000, "quantity": 2.5}], "whole number"),
        ("chips", [{"value_cents": 500, "quantity": "1.5"}], "whole number"),
        ("chips", [{"value_cents": 300, "quantity": 1}], "not a chip value"),
        ("cash", [{"value_cents": 300, "quantity": 1}], "not a denomination"),
        ("chips", [{"value_cents": 500, "quantity": 1}, {"value_cents": 500, "quantity": 2}], "listed twice"),
    ],
)
def test_a_count_with_bad_lines_changes_nothing_and_says_why(site, chips, cashier, field, lines, words):
    with pytest.raises(ValidationError) as caught:
        count(cashier, site, **{field: lines})
    assert words in " ".join(caught.value.message_dict[field])
    assert not BankCount.objects.exists()


def test_a_second_starting_count_is_refused_and_a_correction_replaces_it(site, chips, cashier):
    first = count(cashier, site)
    with pytest.raises(ValidationError, match="already recorded"):
        count(cashier, site)
    with pytest.raises(ValidationError, match="say why the count is corrected"):
        count(cashier, site, corrects=first)
    corrected = count(cashier, site, corrects=first, reason="Miscounted the twenties", cash={10000: 1})
    assert corrected.corrects == first
    with pytest.raises(ValidationError, match="already corrected"):
        count(cashier, site, corrects=first, reason="again")


def test_a_count_for_a_gaming_day_not_begun_is_refused(site, chips, cashier):
    from datetime import date

    with pytest.raises(ValidationError, match="has not begun"):
        count(cashier, site, gaming_date=date(2030, 1, 1))


@pytest.mark.parametrize("role", [Role.DEALER, Role.PIT_BOSS, Role.COUNT_TEAM, Role.AUDITOR, Role.WHEEL_OPERATOR])
def test_only_cage_clerks_count_the_bank(site, chips, cast, role):
    with pytest.raises(PermissionDenied):
        count(cast[role], site)


def test_a_cashier_cannot_count_the_bank_at_another_site(other_site, chips, cashier):
    with pytest.raises(PermissionDenied):
        count(cashier, other_site)


def test_only_the_gaming_manager_sets_the_ideal_bank(site, cast, manager):
    ideal = services.set_ideal_bank(acting_user=manager.user, site=site, amount_cents=500000, effective_on=DAY)
    assert ideal.amount_cents == 500000
    with pytest.raises(PermissionDenied):
        services.set_ideal_bank(acting_user=cast[Role.CASHIER].user, site=site, amount_cents=1, effective_on=DAY)
    with pytest.raises(ValidationError):
        services.set_ideal_bank(acting_user=manager.user, site=site, amount_cents=0, effective_on=DAY)
