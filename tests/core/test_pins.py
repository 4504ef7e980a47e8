"""The platform's PIN mechanism (core.pins) and login lockouts (core.lockouts), as the domain's
signing PINs and locked-accounts page use them: a PIN's form, its hash, wrong entries counted
to the lock, the lock's time, and wrong passwords counted per username (house controls)."""

from datetime import timedelta

import pytest
import time_machine
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from cardroom import pins
from cardroom.models import Role, SigningPin
from core.lockouts import LOGIN_FAILURE_LIMIT, clear_password_failures, failures_by_login, login_locked
from core.pins import PIN_FAILURE_LIMIT, PIN_LOCKOUT, PIN_MAX_DIGITS, PIN_MIN_DIGITS, PinLock, validate_pin
from tests.page_support import lock_login

PIN = "482913"


@pytest.mark.parametrize(
    "pin, refused",
    [
        ("12345", "6 to 12 digits"),
        ("1" * (PIN_MAX_DIGITS + 1), "6 to 12 digits"),
        ("12a456", "6 to 12 digits"),
        ("１２３４５６", "6 to 12 digits"),  # digits, but not ASCII ones
        ("777777", "not one digit repeated"),
    ],
)
def test_a_pin_of_the_wrong_form_is_refused_on_its_field_as_a_house_control(pin, refused):
    with pytest.raises(ValidationError) as caught:
        validate_pin(pin)
    assert list(caught.value.message_dict) == ["pin"]
    assert caught.value.message_dict["pin"][0].startswith("House control:") and refused in str(caught.value)


def test_a_pin_is_kept_without_its_surrounding_spaces():
    assert validate_pin(f" {PIN} ") == PIN and len(PIN) >= PIN_MIN_DIGITS


def test_the_signing_pin_is_the_platforms_mechanism_with_an_employee_as_holder():
    assert issubclass(SigningPin, PinLock) and PinLock._meta.abstract
    assert {f.name for f in SigningPin._meta.fields} == {
        "id",
        "employee",
        "pin_hash",
        "set_at",
        "failed_attempts",
        "locked_until",
    }


@pytest.mark.django_db
def test_a_pin_is_stored_hashed_and_the_limit_of_wrong_entries_locks_it_for_the_lockout(cast, station):
    dealer = cast[Role.DEALER]
    row = pins.set_pin(acting_user=dealer.user, employee=dealer, pin=PIN)
    assert PIN not in row.pin_hash and row.matches(PIN) and not row.matches("482914")
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        for attempt in range(1, PIN_FAILURE_LIMIT + 1):
            with pytest.raises(PermissionDenied):
                pins.signer_for(station.user, badge=dealer.initials, pin="000001")
            row.refresh_from_db()
            assert row.locked == (attempt == PIN_FAILURE_LIMIT)
        assert row.locked_until == start + PIN_LOCKOUT and row.failed_attempts == 0
        with pytest.raises(PermissionDenied) as refused:
            pins.signer_for(station.user, badge=dealer.initials, pin=PIN)  # the right PIN, but locked
        assert f"locked after {PIN_FAILURE_LIMIT} wrong entries" in str(refused.value)
    with time_machine.travel(start + PIN_LOCKOUT + timedelta(seconds=1), tick=False):
        assert pins.signer_for(station.user, badge=dealer.initials, pin=PIN).signer == dealer
    row.refresh_from_db()
    assert row.locked_until is None and row.failed_attempts == 0


@pytest.mark.django_db
def test_a_right_pin_forgets_the_wrong_entries_before_it(cast, station):
    dealer = cast[Role.DEALER]
    row = pins.set_pin(acting_user=dealer.user, employee=dealer, pin=PIN)
    with pytest.raises(PermissionDenied):
        pins.signer_for(station.user, badge=dealer.initials, pin="000001")
    row.refresh_from_db()
    assert row.failed_attempts == 1
    pins.signer_for(station.user, badge=dealer.initials, pin=PIN)
    row.refresh_from_db()
    assert row.failed_attempts == 0


@pytest.mark.django_db
def test_wrong_passwords_are_counted_and_cleared_per_username_whatever_its_case(cast):
    username = cast[Role.DEALER].user.username
    lock_login(username)
    failures = failures_by_login()
    assert login_locked(failures[username.lower()]) and failures[username.lower()] >= LOGIN_FAILURE_LIMIT
    clear_password_failures(username.upper())
    assert username.lower() not in failures_by_login()


def test_the_signing_pin_link_is_offered_to_an_employee_and_not_to_a_station_which_may_not_open_it(
    client, cast, station
):
    """A shared terminal holds no PIN of its own (each step is initialled with a person's): the
    header offered it "Signing PIN", which answered 403."""
    client.force_login(station.user)
    page = client.get("/", follow=True)
    assert page.status_code == 200 and 'id="signing-pin-link"' not in page.content.decode()
    assert client.get("/signing-pin/").status_code == 403
    client.force_login(cast[Role.CASHIER].user)
    assert 'id="signing-pin-link"' in client.get("/", follow=True).content.decode()
    assert client.get("/signing-pin/").status_code == 200
