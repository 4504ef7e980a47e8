"""A gaming manager's administration pages of the core: locked accounts (sign-in and signing-PIN
lockouts, unlocked and audited) and stations (shared terminals) created, deactivated and
reactivated in the browser. Other roles are refused; another organization's people and stations
are out of reach."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.test import Client
from django.utils import timezone

from cardroom import lockouts, pins
from cardroom.models import Role, SigningPin, Station
from core.lockouts import password_failures
from core.models import AuditEvent
from tests.conftest import ALL_ROLES
from tests.factories import PASSWORD, make_person
from tests.page_support import as_user, assert_opens_only_for, lock_login, page

PIN = "482913"
STATION_PASSWORD = "Ochre-Lantern-Drift-58"


def lock_pin(employee) -> SigningPin:
    pins.set_pin(acting_user=employee.user, employee=employee, pin=PIN)
    SigningPin.objects.filter(employee=employee).update(locked_until=timezone.now() + timedelta(minutes=30))
    return SigningPin.objects.get(employee=employee)


@pytest.fixture
def stranger(stranger_site):
    return make_person(stranger_site.organization, Role.DEALER, stranger_site)


@pytest.fixture
def stranger_manager(stranger_site):
    return make_person(stranger_site.organization, Role.GAMING_MANAGER)


# --- access matrix ---------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/administration/locked-accounts/", "/administration/stations/"])
@pytest.mark.parametrize("role", ALL_ROLES)
def test_only_a_gaming_manager_opens_the_administration_pages(client, cast, role, path):
    assert_opens_only_for(
        as_user(client, cast[role]).get(path),
        allowed=role == Role.GAMING_MANAGER,
        refusal="House control: only a gaming manager may",
    )


@pytest.mark.parametrize("role", [r for r in ALL_ROLES if r != Role.GAMING_MANAGER])
def test_no_other_role_unlocks_anyone(client, cast, role):
    dealer = cast[Role.DEALER]
    lock_login(dealer.user.username)
    response = as_user(client, cast[role]).post(
        "/administration/locked-accounts/", {"unlock": "login", "employee": dealer.pk}
    )
    assert response.status_code == 403
    assert password_failures(dealer.user.username) == 5


def test_the_unauthenticated_are_sent_to_sign_in(client):
    for path in ("/administration/locked-accounts/", "/administration/stations/"):
        response = client.get(path)
        assert response.status_code == 302 and response["Location"].startswith("/login/")


# --- locked accounts -------------------------------------------------------------------------


def test_the_page_lists_locked_logins_and_pins_of_the_organization_only(client, cast, stranger):
    dealer, cashier = cast[Role.DEALER], cast[Role.CASHIER]
    lock_login(dealer.user.username)
    lock_login(cast[Role.PIT_BOSS].user.username, failures=2)
    lock_pin(cashier)
    lock_login(stranger.user.username)
    text = page(as_user(client, cast[Role.GAMING_MANAGER]).get("/administration/locked-accounts/"))
    assert f'data-unlock="login-{dealer.user.username}"' in text
    assert f'data-unlock="pin-{cashier.user.username}"' in text
    assert cast[Role.PIT_BOSS].user.username in text  # two wrong passwords: shown, not yet locked
    assert stranger.user.username not in text


def test_a_gaming_manager_unlocks_a_login_and_it_signs_in_again(client, cast, settings):
    settings.AXES_ENABLED = True
    dealer = cast[Role.DEALER]
    username = dealer.user.username
    try:
        browser = Client()
        for _ in range(5):
            browser.post("/login/", {"username": username, "password": "wrong"})
        assert browser.post("/login/", {"username": username, "password": PASSWORD}).status_code == 429
        manager = as_user(client, cast[Role.GAMING_MANAGER])
        response = manager.post("/administration/locked-accounts/", {"unlock": "login", "employee": dealer.pk})
        assert response.status_code == 302
        # The right password refused during the lock counted too (axes).
        assert "is unlocked (6 failed sign-ins cleared)" in page(manager.get(response["Location"]))
        assert browser.post("/login/", {"username": username, "password": PASSWORD}).status_code == 302
    finally:
        AccessAttempt.objects.all().delete()
    event = AuditEvent.objects.get(action="login.unlocked")
    assert event.actor == cast[Role.GAMING_MANAGER].user
    assert event.object_id == str(dealer.pk) and event.after["failed_sign_ins_cleared"] == 6


def test_a_gaming_manager_unlocks_a_signing_pin_which_keeps_working(client, cast, site):
    cashier = cast[Role.CASHIER]
    lock_pin(cashier)
    response = as_user(client, cast[Role.GAMING_MANAGER]).post(
        "/administration/locked-accounts/", {"unlock": "pin", "employee": cashier.pk}
    )
    assert response.status_code == 302
    row = SigningPin.objects.get(employee=cashier)
    assert row.locked_until is None and row.failed_attempts == 0
    station = pins.create_station(
        acting_user=cast[Role.GAMING_MANAGER].user, site=site, username="pit-1", password=STATION_PASSWORD, name="Pit 1"
    )
    assert pins.signer_for(station.user, badge=cashier.initials, pin=PIN).signer == cashier
    assert AuditEvent.objects.filter(action="signing_pin.unlocked", after__initials=cashier.initials).exists()


def test_unlocking_a_login_that_is_not_locked_is_refused_inline(client, cast):
    response = as_user(client, cast[Role.GAMING_MANAGER]).post(
        "/administration/locked-accounts/", {"unlock": "login", "employee": cast[Role.DEALER].pk}
    )
    assert response.status_code == 400
    text = page(response)
    assert "House control: the login" in text and "it is not locked." in text
    assert "user:" not in text
    assert not AuditEvent.objects.filter(action="login.unlocked").exists()


def test_unlocking_a_pin_that_is_not_locked_is_refused_inline(client, cast):
    response = as_user(client, cast[Role.GAMING_MANAGER]).post(
        "/administration/locked-accounts/", {"unlock": "pin", "employee": cast[Role.DEALER].pk}
    )
    assert response.status_code == 400
    assert "is not locked." in page(response)


def test_a_post_naming_nobody_is_refused_inline(client, cast):
    response = as_user(client, cast[Role.GAMING_MANAGER]).post(
        "/administration/locked-accounts/", {"unlock": "login", "employee": "x"}
    )
    assert response.status_code == 400
    assert "House control: choose a login or a signing PIN to unlock." in page(response)


def test_another_organizations_person_is_not_found_and_stays_locked(client, cast, stranger, stranger_manager):
    lock_login(stranger.user.username)
    lock_pin(stranger)
    manager = as_user(client, cast[Role.GAMING_MANAGER])
    assert (
        manager.post("/administration/locked-accounts/", {"unlock": "login", "employee": stranger.pk}).status_code
        == 404
    )
    assert (
        manager.post("/administration/locked-accounts/", {"unlock": "pin", "employee": stranger.pk}).status_code == 404
    )
    assert password_failures(stranger.user.username) == 5
    assert SigningPin.objects.get(employee=stranger).locked_until is not None
    # Their own gaming manager may.
    lockouts.unlock_login(acting_user=stranger_manager.user, holder=stranger)
    assert password_failures(stranger.user.username) == 0


def test_the_service_refuses_a_gaming_manager_of_another_organization(cast, stranger_manager):
    from django.core.exceptions import PermissionDenied

    dealer = cast[Role.DEALER]
    lock_login(dealer.user.username)
    with pytest.raises(PermissionDenied, match="only a gaming manager of the organization may unlock an account"):
        lockouts.unlock_login(acting_user=stranger_manager.user, holder=dealer)


def test_a_locked_station_login_is_listed_and_unlocked(client, cast, site):
    station = pins.create_station(
        acting_user=cast[Role.GAMING_MANAGER].user, site=site, username="pit-2", password=STATION_PASSWORD, name="Pit 2"
    )
    lock_login("pit-2")
    manager = as_user(client, cast[Role.GAMING_MANAGER])
    assert 'data-unlock="login-pit-2"' in page(manager.get("/administration/locked-accounts/"))
    assert (
        manager.post("/administration/locked-accounts/", {"unlock": "login", "station": station.pk}).status_code == 302
    )
    assert password_failures("pit-2") == 0


def test_old_wrong_passwords_past_the_cool_off_are_not_listed(client, cast, settings):
    dealer = cast[Role.DEALER]
    lock_login(dealer.user.username)
    AccessAttempt.objects.update(attempt_time=timezone.now() - settings.AXES_COOLOFF_TIME - timedelta(minutes=1))
    text = page(as_user(client, cast[Role.GAMING_MANAGER]).get("/administration/locked-accounts/"))
    assert dealer.user.username not in text


# --- stations --------------------------------------------------------------------------------


def test_a_gaming_manager_creates_a_station_for_a_site(client, cast, site):
    manager = as_user(client, cast[Role.GAMING_MANAGER])
    response = manager.post(
        "/administration/stations/",
        {"site": site.pk, "name": "Pit 1 terminal", "kind": "pit", "username": "pit-1", "password": STATION_PASSWORD},
    )
    assert response.status_code == 302
    station = Station.objects.get(user__username="pit-1")
    assert station.site == site and station.name == "Pit 1 terminal" and station.kind == Station.Kind.PIT
    assert station.user.check_password(STATION_PASSWORD)
    assert AuditEvent.objects.filter(action="station.created", object_id=str(station.pk)).exists()
    text = page(manager.get("/administration/stations/"))
    assert "Pit 1 terminal" in text and "pit-1" in text


def test_a_taken_login_is_refused_inline_with_the_services_words(client, cast, site):
    response = as_user(client, cast[Role.GAMING_MANAGER]).post(
        "/administration/stations/",
        {
            "site": site.pk,
            "name": "Pit",
            "kind": "pit",
            "username": cast[Role.DEALER].user.username,
            "password": STATION_PASSWORD,
        },
    )
    assert response.status_code == 400
    assert "House control: a login name is unique whatever its case" in page(response)
    assert "already exists." in page(response)
    assert not Station.objects.exists()


def test_a_weak_password_is_refused_inline(client, cast, site):
    response = as_user(client, cast[Role.GAMING_MANAGER]).post(
        "/administration/stations/",
        {"site": site.pk, "name": "Pit", "kind": "pit", "username": "pit-9", "password": "12345678"},
    )
    assert response.status_code == 400
    assert "House control: this password is too common." in page(response)
    assert not Station.objects.exists()


def test_a_station_cannot_be_created_at_another_organizations_site(client, cast, stranger_site):
    response = as_user(client, cast[Role.GAMING_MANAGER]).post(
        "/administration/stations/",
        {"site": stranger_site.pk, "name": "Pit", "kind": "pit", "username": "pit-9", "password": STATION_PASSWORD},
    )
    assert response.status_code == 400
    assert "House control: Site: select a valid choice; that choice is not one of the available choices." in page(
        response
    )
    assert not Station.objects.exists()


def test_the_station_list_shows_only_the_organizations_stations(client, cast, stranger_site, stranger_manager):
    pins.create_station(
        acting_user=stranger_manager.user, site=stranger_site, username="far-1", password=STATION_PASSWORD, name="Far"
    )
    text = page(as_user(client, cast[Role.GAMING_MANAGER]).get("/administration/stations/"))
    assert "far-1" not in text and "Far Away Bar" not in text


def test_the_menu_links_the_administration_pages_for_a_gaming_manager_only(client, cast):
    text = page(as_user(client, cast[Role.GAMING_MANAGER]).get("/"))
    for path in (
        "/administration/locked-accounts/",
        "/administration/stations/",
        "/floor/slip-books/",
        "/counts/drop-boxes/",
        "/compliance/thresholds/",
    ):
        assert f'href="{path}"' in text, path
    dealer_page = page(as_user(Client(), cast[Role.DEALER]).get("/"))
    assert "/administration/" not in dealer_page and "/counts/drop-boxes/" not in dealer_page


# --- deactivating and reactivating a station -------------------------------------------------


def new_station(manager, site, username: str):
    return pins.create_station(
        acting_user=manager.user, site=site, username=username, password=STATION_PASSWORD, name=f"{username} terminal"
    )


@pytest.fixture
def stations(cast, site, other_site, stranger_site, stranger_manager):
    """A station at the cast's site, one at another site of the organization, one at another
    organization's site; each with the gaming manager of its organization."""
    manager = cast[Role.GAMING_MANAGER]
    return {
        "own site": (new_station(manager, site, "pit-own"), manager),
        "other site": (new_station(manager, other_site, "pit-other"), manager),
        "other organization": (new_station(stranger_manager, stranger_site, "pit-far"), stranger_manager),
    }


def is_active(station) -> bool:
    return Station.objects.get(pk=station.pk).active


def station_signs_in(username: str) -> tuple[int, str]:
    response = Client().post("/login/", {"username": username, "password": STATION_PASSWORD})
    return response.status_code, page(response)


@pytest.mark.parametrize("where", ["own site", "other site", "other organization"])
@pytest.mark.parametrize("role", ALL_ROLES)
def test_who_may_deactivate_and_reactivate_which_station(client, cast, stations, role, where):
    (station, its_manager), user = stations[where], as_user(client, cast[role])
    deactivate, reactivate = (f"/administration/stations/{station.pk}/{verb}/" for verb in ("deactivate", "reactivate"))
    if role != Role.GAMING_MANAGER:
        refused = user.post(deactivate)
        assert refused.status_code == 403
        assert "House control: only a gaming manager may deactivate a station." in page(refused)
        assert is_active(station)
        pins.deactivate_station(acting_user=its_manager.user, station=station)
        assert user.post(reactivate).status_code == 403
        assert not is_active(station)
    elif where == "other organization":  # out of the manager's reach: not found, either way
        assert user.post(deactivate).status_code == 404 and is_active(station)
        pins.deactivate_station(acting_user=its_manager.user, station=station)
        assert user.post(reactivate).status_code == 404 and not is_active(station)
    else:
        assert user.post(deactivate).status_code == 302 and not is_active(station)
        assert user.post(reactivate).status_code == 302 and is_active(station)


def test_a_deactivated_station_cannot_sign_in_and_its_session_and_tokens_stop(client, cast, site):
    station = new_station(cast[Role.GAMING_MANAGER], site, "pit-1")
    terminal = Client()
    terminal.force_login(station.user)
    home = terminal.get("/")  # a shared terminal's home is its site's pit (issue 33)
    assert home.status_code == 302 and home["Location"] == "/floor/pit/"
    assert terminal.get("/floor/pit/").status_code == 200
    token = Client().post("/api/v1/auth/token/", {"username": "pit-1", "password": STATION_PASSWORD}).json()["token"]

    manager = as_user(client, cast[Role.GAMING_MANAGER])
    response = manager.post(f"/administration/stations/{station.pk}/deactivate/")
    assert response.status_code == 302
    assert "The station pit-1 terminal is deactivated." in page(manager.get(response["Location"]))

    status, text = station_signs_in("pit-1")
    assert status == 400
    assert "House control: the station pit-1 terminal (" in text and "is deactivated and cannot sign in" in text
    signed_out = terminal.get("/floor/pit/")  # the open session is signed out
    assert signed_out.status_code == 302 and signed_out["Location"].startswith("/login/")
    assert Client().get("/api/v1/me/", HTTP_AUTHORIZATION=f"Token {token}").status_code == 401
    refused = Client().post("/api/v1/auth/token/", {"username": "pit-1", "password": STATION_PASSWORD})
    assert refused.status_code == 400
    assert "is deactivated and cannot sign in" in refused.json()["non_field_errors"][0]
    event = AuditEvent.objects.get(action="station.deactivated")
    assert event.actor == cast[Role.GAMING_MANAGER].user and event.object_id == str(station.pk)
    assert event.before == {"active": True}
    assert event.after == {"active": False, "username": "pit-1", "api_tokens_revoked": 1}


def test_a_wrong_password_of_a_deactivated_station_gets_the_usual_answer(cast, site):
    station = new_station(cast[Role.GAMING_MANAGER], site, "pit-1")
    pins.deactivate_station(acting_user=cast[Role.GAMING_MANAGER].user, station=station)
    response = Client().post("/login/", {"username": "pit-1", "password": "not-the-password"})
    assert response.status_code == 400
    assert "did not match" in page(response) and "deactivated" not in page(response)


def test_a_reactivated_station_signs_in_again(client, cast, site):
    station = new_station(cast[Role.GAMING_MANAGER], site, "pit-1")
    manager = as_user(client, cast[Role.GAMING_MANAGER])
    manager.post(f"/administration/stations/{station.pk}/deactivate/")
    text = page(manager.get("/administration/stations/"))
    assert 'data-toggle-station="pit-1">Reactivate' in text
    assert manager.post(f"/administration/stations/{station.pk}/reactivate/").status_code == 302
    assert station_signs_in("pit-1")[0] == 302
    assert AuditEvent.objects.get(action="station.reactivated").after["active"] is True


def test_deactivating_a_deactivated_station_is_refused_inline(client, cast, site):
    station = new_station(cast[Role.GAMING_MANAGER], site, "pit-1")
    manager = as_user(client, cast[Role.GAMING_MANAGER])
    manager.post(f"/administration/stations/{station.pk}/deactivate/")
    response = manager.post(f"/administration/stations/{station.pk}/deactivate/")
    assert response.status_code == 400
    assert "House control: the station pit-1 terminal is already deactivated." in page(response)
    assert AuditEvent.objects.filter(action="station.deactivated").count() == 1


def test_a_station_is_deactivated_by_post_only(client, cast, site):
    station = new_station(cast[Role.GAMING_MANAGER], site, "pit-1")
    assert (
        as_user(client, cast[Role.GAMING_MANAGER]).get(f"/administration/stations/{station.pk}/deactivate/").status_code
        == 405
    )
    assert is_active(station)


def test_the_service_refuses_a_gaming_manager_of_another_organization_a_station(cast, site, stranger_manager):
    from django.core.exceptions import PermissionDenied

    station = new_station(cast[Role.GAMING_MANAGER], site, "pit-1")
    with pytest.raises(PermissionDenied, match="only a gaming manager of the organization may deactivate a station"):
        pins.deactivate_station(acting_user=stranger_manager.user, station=station)
    assert is_active(station)
