"""The witness of a fee cash count confirms it with their own signing PIN (house control: a
witness only named has attested nothing). Refused at the `witness_pin` field in the API and on the
page (400, nothing recorded) when it is missing, wrong (counted towards the PIN's lock), locked, or
the witness has no PIN. No station records one, even with the counter's badge and PIN and the
witness's PIN: no station's page offers the count (cardroom.access.PERSON_WORK, house control)."""

import pytest
from django.utils import timezone

from cardroom import pins
from cardroom.models import Role, SigningPin
from core.moments import gaming_date_of
from core.pins import PIN_FAILURE_LIMIT
from fees.models import FeeCount
from tests.conftest import TERMINAL_PIN
from tests.factories import witness_pin
from tests.page_support import page

COUNTS = "/api/v1/fee-counts/"
WRONG = (
    "House control: the witness confirms the fee cash count with their own signing PIN, and that is not {}'s PIN "
    "(a wrong PIN counts towards its lock; a witness with none sets one first). Nothing is recorded."
)


@pytest.fixture
def count(cast, site, bj_table):
    """Today's fee cash counted by the cashier with the shift manager, whose PIN is WITNESS_PIN."""
    return {
        "site": site.pk,
        "gaming_date": gaming_date_of(site, timezone.now()).isoformat(),
        "counted_cents": 0,
        "witness": cast[Role.SHIFT_MANAGER].pk,
        "witness_pin": witness_pin(cast[Role.SHIFT_MANAGER]),
    }


def _failures(employee) -> int:
    return SigningPin.objects.get(employee=employee).failed_attempts


def test_the_witness_types_their_own_pin_and_the_count_is_recorded(client_for, cast, count):
    answer = client_for(cast[Role.CASHIER]).post(COUNTS, count, format="json")
    assert answer.status_code == 201, answer.content
    assert "witness_pin" not in answer.json()  # write-only: never answered
    saved = FeeCount.objects.get()
    assert (saved.counted_by, saved.witness) == (cast[Role.CASHIER], cast[Role.SHIFT_MANAGER])


def test_a_count_without_the_witnesss_pin_is_refused_at_its_field(client_for, cast, count):
    del count["witness_pin"]
    answer = client_for(cast[Role.CASHIER]).post(COUNTS, count, format="json")
    assert answer.status_code == 400 and "witness_pin" in answer.json()
    assert not FeeCount.objects.exists()


def test_a_wrong_pin_is_refused_at_its_field_and_counts_towards_the_witnesss_lock(client_for, cast, count):
    shift = cast[Role.SHIFT_MANAGER]
    answer = client_for(cast[Role.CASHIER]).post(COUNTS, {**count, "witness_pin": "000001"}, format="json")
    assert answer.status_code == 400 and answer.json() == {"witness_pin": [WRONG.format(shift.initials)]}
    assert _failures(shift) == 1 and not FeeCount.objects.exists()


def test_the_counters_own_pin_does_not_stand_for_the_witnesss(client_for, cast, count):
    cashier = cast[Role.CASHIER]
    pins.set_pin(acting_user=cashier.user, employee=cashier, pin="771199")
    answer = client_for(cashier).post(COUNTS, {**count, "witness_pin": "771199"}, format="json")
    assert answer.status_code == 400 and answer.json()["witness_pin"] == [
        WRONG.format(cast[Role.SHIFT_MANAGER].initials)
    ]
    assert not FeeCount.objects.exists()


def test_a_witness_with_no_pin_or_a_locked_pin_is_refused(client_for, cast, count):
    boss = cast[Role.PIT_BOSS]
    SigningPin.objects.filter(employee=boss).delete()
    no_pin = client_for(cast[Role.CASHIER]).post(COUNTS, {**count, "witness": boss.pk, "witness_pin": "123456"},
                                                 format="json")  # fmt: skip
    assert no_pin.status_code == 400 and no_pin.json()["witness_pin"] == [WRONG.format(boss.initials)]
    shift = cast[Role.SHIFT_MANAGER]
    for _ in range(PIN_FAILURE_LIMIT):
        client_for(cast[Role.CASHIER]).post(COUNTS, {**count, "witness_pin": "000001"}, format="json")
    locked = client_for(cast[Role.CASHIER]).post(COUNTS, count, format="json")  # the right PIN, locked
    assert locked.status_code == 400 and "this PIN is locked after" in locked.json()["witness_pin"][0]
    assert SigningPin.objects.get(employee=shift).locked and not FeeCount.objects.exists()


def test_no_station_records_a_count_even_with_the_counters_badge_and_the_witnesss_pin(api_client, cast, site, count):
    """The fee cash count is on the fees page only, whose counters sign in as themselves: a
    station (here of both kinds) is refused it, alone or with a PIN, and spends no PIN."""
    cashier = cast[Role.CASHIER]
    pins.set_pin(acting_user=cashier.user, employee=cashier, pin=TERMINAL_PIN)
    station = pins.create_station(acting_user=cast[Role.GAMING_MANAGER].user, site=site, username="wabj-cage",
                                  password="Ochre-Lantern-Drift-58", name="Cage")  # fmt: skip
    api_client.force_authenticate(station.user)
    refusal = (
        "House control: Cage is a pit terminal and count tablet: no station presents the fee cash count, a "
        "person's work at their own login. Sign in as yourself."
    )
    for body in (count, {**count, "signer_badge": cashier.initials, "signer_pin": TERMINAL_PIN}):
        answer = api_client.post(COUNTS, body, format="json")
        assert answer.status_code == 403 and answer.json()["detail"] == refusal
    assert not FeeCount.objects.exists() and _failures(cast[Role.SHIFT_MANAGER]) == 0


def test_the_page_asks_the_witnesss_pin_and_refuses_a_wrong_one_inline(client, cast, count):
    client.force_login(cast[Role.CASHIER].user)
    form = {key: count[key] for key in ("gaming_date", "witness", "witness_pin")} | {"counted_cents": "0.00"}
    assert 'name="witness_pin"' in page(client.get("/fees/"))
    refused = client.post("/fees/count/", {**form, "witness_pin": "000001"})
    assert refused.status_code == 400
    assert WRONG.format(cast[Role.SHIFT_MANAGER].initials) in page(refused)
    assert not FeeCount.objects.exists()
    assert client.post("/fees/count/", form).status_code == 302 and FeeCount.objects.count() == 1
