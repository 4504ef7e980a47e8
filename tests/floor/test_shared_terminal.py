"""A shared pit terminal: a station login presents the slip forms; each step is initialled with
the doer's badge and PIN, checked against their own roles and rules, and audited as theirs."""

import pytest

from cardroom import pins
from cardroom.models import Role, SigningPin, Station
from core.models import AuditEvent
from core.pins import PIN_FAILURE_LIMIT
from floor import services
from floor.models import Slip, SlipStep
from tests.conftest import TERMINAL_PIN as PIN

from .conftest import FILL


def _signed(badge_of, pin=PIN):
    return {"signer_badge": badge_of.initials, "signer_pin": pin}


def _step_event(step):
    return AuditEvent.objects.get(action=f"fill_slip.{step.kind}", object_id=str(step.pk))


def test_a_station_verifies_and_receives_with_pins_recorded_as_the_pin_holders(
    client, station, with_pins, fill, dealer_shift
):
    pit_boss, dealer = with_pins[Role.PIT_BOSS], with_pins[Role.DEALER]
    client.force_login(station.user)
    verified = client.post(f"/floor/slips/{fill.pk}/verify/", _signed(pit_boss))
    received = client.post(f"/floor/slips/{fill.pk}/receive/", _signed(dealer))
    assert verified.status_code == 302 and received.status_code == 302, received.content.decode()[-800:]
    verify, receive = SlipStep.objects.get(slip=fill, kind="verify"), SlipStep.objects.get(slip=fill, kind="receive")
    assert (verify.employee, receive.employee) == (pit_boss, dealer)
    for step, person in ((verify, pit_boss), (receive, dealer)):
        event = _step_event(step)
        assert event.actor_id == person.user_id and event.actor_label == person.user.username
        assert event.after["station"] == "pit-terminal-1"


def test_a_wrong_pin_is_refused_counted_and_recorded(client, station, with_pins, fill):
    pit_boss = with_pins[Role.PIT_BOSS]
    client.force_login(station.user)
    response = client.post(f"/floor/slips/{fill.pk}/verify/", _signed(pit_boss, "000001"))
    assert response.status_code == 403
    assert "that badge and PIN do not match" in response.content.decode()
    assert SigningPin.objects.get(employee=pit_boss).failed_attempts == 1
    assert AuditEvent.objects.filter(action="signing_pin.failed").count() == 1
    assert not SlipStep.objects.filter(slip=fill).exists()


def test_a_pin_locks_after_the_password_limit_even_for_the_right_pin(client, station, with_pins, fill):
    pit_boss = with_pins[Role.PIT_BOSS]
    client.force_login(station.user)
    for _ in range(PIN_FAILURE_LIMIT):
        client.post(f"/floor/slips/{fill.pk}/verify/", _signed(pit_boss, "000001"))
    response = client.post(f"/floor/slips/{fill.pk}/verify/", _signed(pit_boss))
    assert response.status_code == 403
    assert f"locked after {PIN_FAILURE_LIMIT} wrong entries" in response.content.decode()
    assert AuditEvent.objects.filter(action="signing_pin.locked_out").count() == 1
    assert not SlipStep.objects.filter(slip=fill).exists()
    # A gaming manager resets it; the holder signs again.
    pins.set_pin(acting_user=with_pins[Role.GAMING_MANAGER].user, employee=pit_boss, pin="771204")
    assert client.post(f"/floor/slips/{fill.pk}/verify/", _signed(pit_boss, "771204")).status_code == 302


def test_a_station_alone_signs_nothing(client, station, with_pins, fill):
    client.force_login(station.user)
    page = client.get(f"/floor/slips/{fill.pk}/")
    assert page.status_code == 200 and 'id="pin-form"' in page.content.decode()
    response = client.post(f"/floor/slips/{fill.pk}/verify/", {})
    assert response.status_code == 403
    assert "a station signs nothing itself" in response.content.decode()
    assert not SlipStep.objects.filter(slip=fill).exists()


def test_a_pin_holder_without_the_role_is_refused_with_the_rule(client, station, with_pins, fill):
    client.force_login(station.user)
    response = client.post(f"/floor/slips/{fill.pk}/verify/", _signed(with_pins[Role.COUNT_TEAM]))
    assert response.status_code == 403
    assert "ND 99-01.3-08-05(5): only" in response.content.decode()
    assert not SlipStep.objects.filter(slip=fill).exists()


def test_the_preparer_signing_with_their_pin_may_not_verify_their_own_slip(client, station, with_pins, open_table):
    pit_boss = with_pins[Role.PIT_BOSS]
    fill = services.prepare_fill(
        acting_user=pit_boss.user, table=open_table, chips=FILL, cashier=with_pins[Role.CASHIER]
    )
    client.force_login(station.user)
    response = client.post(f"/floor/slips/{fill.pk}/verify/", _signed(pit_boss))
    body = response.content.decode()
    assert response.status_code == 400
    assert "ND 99-01.3-08-05(5): the preparer cannot verify their own slip." in body
    assert "slip: " not in body  # the sentence names the rule, not a field


def test_a_station_prepares_a_fill_with_the_cashiers_pin(client, station, with_pins, open_table):
    cashier = with_pins[Role.CASHIER]
    client.force_login(station.user)
    assert 'id="preparer-pin"' in client.get("/floor/slips/new/fill/").content.decode()
    grid = {"qty_2500": "20", "qty_500": "20", "purpose": "regular", "table": open_table.pk}
    response = client.post("/floor/slips/new/fill/", {**grid, **_signed(cashier)})
    slip = Slip.objects.get(kind="fill")
    assert response.status_code == 302 and slip.prepared_by == cashier
    assert AuditEvent.objects.get(action="fill_slip.prepared").actor_id == cashier.user_id


def test_the_one_login_per_person_way_still_works_and_the_preparer_is_not_offered_verify(client, cast, fill):
    client.force_login(cast[Role.CASHIER].user)
    body = client.get(f"/floor/slips/{fill.pk}/").content.decode()
    assert 'id="verify"' not in body and 'id="pin-form"' not in body
    client.force_login(cast[Role.PIT_BOSS].user)
    assert 'id="verify"' in client.get(f"/floor/slips/{fill.pk}/").content.decode()
    assert client.post(f"/floor/slips/{fill.pk}/verify/").status_code == 302


def test_receive_is_offered_only_to_the_dealer_on_shift_at_the_table(client, org, site, cast, fill, dealer_shift):
    from tests.factories import make_person

    pins.set_pin(acting_user=cast[Role.PIT_BOSS].user, employee=cast[Role.PIT_BOSS], pin=PIN)
    client.force_login(cast[Role.PIT_BOSS].user)
    client.post(f"/floor/slips/{fill.pk}/verify/")
    other_dealer = make_person(org, Role.DEALER, site)
    client.force_login(other_dealer.user)
    assert 'id="receive"' not in client.get(f"/floor/slips/{fill.pk}/").content.decode()
    client.force_login(cast[Role.DEALER].user)
    assert 'id="receive"' in client.get(f"/floor/slips/{fill.pk}/").content.decode()


# --- The API ---------------------------------------------------------------------------------


def test_the_api_takes_signer_badge_and_pin_on_a_stations_token(api_client, station, with_pins, fill, dealer_shift):
    api_client.force_authenticate(station.user)
    alone = api_client.post(f"/api/v1/fill-slips/{fill.pk}/verify/", {}, format="json")
    assert alone.status_code == 403 and "a station signs nothing itself" in alone.json()["detail"]
    wrong = api_client.post(f"/api/v1/fill-slips/{fill.pk}/verify/", _signed(with_pins[Role.PIT_BOSS], "000001"))
    assert wrong.status_code == 403
    assert SigningPin.objects.get(employee=with_pins[Role.PIT_BOSS]).failed_attempts == 1
    no_role = api_client.post(f"/api/v1/fill-slips/{fill.pk}/verify/", _signed(with_pins[Role.COUNT_TEAM]))
    assert no_role.status_code == 403 and "ND 99-01.3-08-05(5)" in no_role.json()["detail"]
    verified = api_client.post(f"/api/v1/fill-slips/{fill.pk}/verify/", _signed(with_pins[Role.PIT_BOSS]))
    received = api_client.post(f"/api/v1/fill-slips/{fill.pk}/receive/", _signed(with_pins[Role.DEALER]))
    assert verified.status_code == 200 and received.status_code == 200, received.content
    assert received.json()["received_by_initials"] == with_pins[Role.DEALER].initials
    event = AuditEvent.objects.get(action="fill_slip.receive")
    assert event.actor_id == with_pins[Role.DEALER].user_id and event.after["station"] == "pit-terminal-1"


def test_a_pin_is_six_to_twelve_digits_and_set_only_by_its_holder_or_a_gaming_manager(cast):
    from django.core.exceptions import PermissionDenied, ValidationError

    dealer = cast[Role.DEALER]
    with pytest.raises(ValidationError, match="6 to 12 digits"):
        pins.set_pin(acting_user=dealer.user, employee=dealer, pin="1234")
    with pytest.raises(ValidationError, match="one digit repeated"):
        pins.set_pin(acting_user=dealer.user, employee=dealer, pin="111111")
    with pytest.raises(PermissionDenied):
        pins.set_pin(acting_user=cast[Role.PIT_BOSS].user, employee=dealer, pin=PIN)
    row = pins.set_pin(acting_user=dealer.user, employee=dealer, pin=PIN)
    assert row.pin_hash != PIN and PIN not in str(AuditEvent.objects.filter(action="signing_pin.set").get().after)


def test_a_person_sets_their_own_pin_and_a_gaming_manager_resets_anothers_in_the_browser(client, cast):
    dealer, manager = cast[Role.DEALER], cast[Role.GAMING_MANAGER]
    client.force_login(dealer.user)
    assert 'name="employee"' not in client.get("/signing-pin/").content.decode()
    short = client.post("/signing-pin/", {"pin": "12"})
    assert short.status_code == 400 and "House control: a PIN is 6 to 12 digits" in short.content.decode()
    assert client.post("/signing-pin/", {"pin": PIN}).status_code == 302
    client.force_login(manager.user)
    assert client.post("/signing-pin/", {"pin": "771204", "employee": dealer.pk}).status_code == 302
    assert AuditEvent.objects.filter(action="signing_pin.reset", actor=manager.user).count() == 1


def test_a_station_has_no_pin_of_its_own(client, station):
    client.force_login(station.user)
    assert client.get("/signing-pin/").status_code == 403


def test_only_a_gaming_manager_creates_a_station_login(cast, site):
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied, match="only a gaming manager"):
        pins.create_station(
            acting_user=cast[Role.SHIFT_MANAGER].user,
            site=site,
            username="t2",
            password="Ochre-Lantern-Drift-58",
            name="",
        )
    assert not Station.objects.exists()


def test_a_badge_whose_holder_may_not_prepare_comes_back_on_the_form_with_what_was_typed(
    client, station, with_pins, open_table
):
    """A dealer's badge on the fill form: refused with the rule, on the form itself (403), the
    chips typed still there, where it was a bare 403 page that lost them."""
    client.force_login(station.user)
    grid = {"qty_2500": "20", "qty_500": "17", "purpose": "regular", "table": open_table.pk}
    response = client.post("/floor/slips/new/fill/", {**grid, **_signed(with_pins[Role.DEALER])})
    body = response.content.decode()
    assert response.status_code == 403 and "ND 99-01.3-08-05(3)" in body
    assert 'name="qty_500"' in body and 'value="17"' in body and 'id="preparer-pin"' in body
    assert not Slip.objects.exists()


def _badges(html: str, select_id: str) -> set[str]:
    """The badges a station form's selector lists (its options' values, the blank one aside)."""
    import re

    select = html[html.index(f'id="{select_id}"') :]
    select = select[: select.index("</select>")]
    return set(re.findall(r'<option value="([^"]+)"', select))


def test_a_stations_forms_list_only_the_badges_of_who_may_take_the_step(client, station, with_pins, fill):
    """The fill form lists its preparers (cashier, pit boss, shift manager: 08-05(3)), not the
    count team or a dealer; a slip's verify-or-receive form its verifiers and receivers (08-05(5),
    (6)), not the count team; its VOID form its preparers (08-05(2)). Every badge is still taken,
    so a dealer's typed on the fill form is refused by the service with its rule (the test above)."""
    people = {role: with_pins[role].initials for role in with_pins}
    client.force_login(station.user)
    prepare = client.get("/floor/slips/new/fill/").content.decode()
    assert _badges(prepare, "id_signer_badge") == {
        people[Role.CASHIER],
        people[Role.PIT_BOSS],
        people[Role.SHIFT_MANAGER],
    }
    detail = client.get(f"/floor/slips/{fill.pk}/").content.decode()
    assert _badges(detail, "id_signer_badge") == {
        people[Role.PIT_BOSS],
        people[Role.SHIFT_MANAGER],
        people[Role.DEALER],
    }
    assert _badges(detail, "void_signer_badge") == {
        people[Role.CASHIER],
        people[Role.PIT_BOSS],
        people[Role.SHIFT_MANAGER],
    }


def test_an_empty_pin_is_asked_for_and_never_counted_towards_the_lock(client, station, with_pins, fill):
    """A badge chosen and Enter pressed before the PIN was typed sent an empty PIN, counted as a
    wrong one: five such locked the person out of every terminal. It is asked for instead."""
    pit_boss = with_pins[Role.PIT_BOSS]
    client.force_login(station.user)
    for _ in range(PIN_FAILURE_LIMIT):
        response = client.post(f"/floor/slips/{fill.pk}/verify/", _signed(pit_boss, ""))
        assert response.status_code == 403
        assert "House control: type the PIN of" in response.content.decode()
    assert SigningPin.objects.get(employee=pit_boss).failed_attempts == 0
    assert not AuditEvent.objects.filter(action__in=["signing_pin.failed", "signing_pin.locked_out"]).exists()
    assert not SlipStep.objects.filter(slip=fill).exists()
    assert client.post(f"/floor/slips/{fill.pk}/verify/", _signed(pit_boss)).status_code == 302
