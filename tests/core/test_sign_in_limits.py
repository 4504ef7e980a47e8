"""The per-address sign-in limit (house control): one client address, read from the connection
unless trusted proxies stand in front (core.client_address), counted across the API's
token endpoint, the browser's login and the admin's login; django-axes sees the same address."""

import pytest
from axes.models import AccessAttempt
from django.test import RequestFactory

from cardroom.models import Role
from core.client_address import client_address
from tests.factories import PASSWORD

TOKEN_URL = "/api/v1/auth/token/"
LIMIT_TEXT = "at most 3 sign-in attempts from one address per minute"


@pytest.fixture
def three_a_minute(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"login": "3/minute", "writes": "100/minute"},
    }


def token_sign_in(api_client, username, password="nope", **headers):
    return api_client.post(TOKEN_URL, {"username": username, "password": password}, format="json", **headers)


@pytest.mark.parametrize(
    "proxies,forwarded,expected",
    [
        (0, "", "10.0.0.9"),
        (0, "203.0.113.7", "10.0.0.9"),  # a direct client's header is ignored
        (1, "", "10.0.0.9"),  # the proxy sent none: the connection's own address
        (1, "203.0.113.7", "203.0.113.7"),
        (1, "6.6.6.6, 203.0.113.7", "203.0.113.7"),  # what the client wrote (left) is never read
        (2, "6.6.6.6, 203.0.113.7, 10.0.0.5", "203.0.113.7"),
        (2, "203.0.113.7", "203.0.113.7"),  # fewer hops than proxies: the farthest there is
        (1, "6.6.6.6, not-an-address", "10.0.0.9"),
        (1, "2001:db8::1", "2001:db8::1"),
    ],
)
def test_the_client_address_is_the_hop_the_trusted_proxies_vouch_for(settings, proxies, forwarded, expected):
    settings.TRUSTED_PROXIES = proxies
    headers = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded else {}
    request = RequestFactory().post("/login/", REMOTE_ADDR="10.0.0.9", **headers)
    assert client_address(request) == expected


def test_a_spoofed_forwarded_for_does_not_evade_the_token_endpoints_limit(api_client, manager, cast, three_a_minute):
    for n in range(3):
        token_sign_in(api_client, manager.user.username, HTTP_X_FORWARDED_FOR=f"198.51.100.{n}")
    refused = token_sign_in(
        api_client, cast[Role.AUDITOR].user.username, PASSWORD, HTTP_X_FORWARDED_FOR="198.51.100.99"
    )
    assert refused.status_code == 429
    assert LIMIT_TEXT in refused.json()["detail"]


def test_behind_a_trusted_proxy_each_client_has_its_own_limit(api_client, manager, settings, three_a_minute):
    settings.TRUSTED_PROXIES = 1
    proxy = {"REMOTE_ADDR": "10.0.0.5"}
    for spoof in ("1.1.1.1", "2.2.2.2", "3.3.3.3"):  # one client, whatever it writes to the left
        token_sign_in(api_client, manager.user.username, HTTP_X_FORWARDED_FOR=f"{spoof}, 203.0.113.7", **proxy)
    again = token_sign_in(api_client, manager.user.username, HTTP_X_FORWARDED_FOR="4.4.4.4, 203.0.113.7", **proxy)
    assert again.status_code == 429
    other = token_sign_in(api_client, manager.user.username, PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.8", **proxy)
    assert other.status_code == 200


def test_django_axes_records_the_same_client_address(client, manager, settings):
    settings.AXES_ENABLED = True
    settings.TRUSTED_PROXIES = 1
    client.post(
        "/login/",
        {"username": manager.user.username, "password": "nope"},
        REMOTE_ADDR="10.0.0.5",
        HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7",
    )
    assert list(AccessAttempt.objects.values_list("ip_address", flat=True)) == ["203.0.113.7"]


def test_the_browser_login_has_the_per_address_limit(client, cast, three_a_minute):
    people = [cast[role] for role in (Role.GAMING_MANAGER, Role.AUDITOR, Role.PIT_BOSS)]
    for person in people:  # wrong passwords on three accounts, one address
        assert client.post("/login/", {"username": person.user.username, "password": "nope"}).status_code == 400
    refused = client.post("/login/", {"username": cast[Role.CASHIER].user.username, "password": PASSWORD})
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    page = refused.content.decode()
    assert f"Too many sign-in attempts: the limit is {LIMIT_TEXT} (house control)" in page
    assert "_auth_user_id" not in client.session
    assert client.get("/login/").status_code == 200  # the form is still shown


def test_the_admin_login_has_the_per_address_limit(client, django_user_model, three_a_minute):
    for n in range(3):
        client.post("/admin/login/", {"username": f"nobody{n}", "password": "nope"})
    django_user_model.objects.create_superuser("root", password=PASSWORD)
    refused = client.post("/admin/login/", {"username": "root", "password": PASSWORD})
    assert refused.status_code == 429
    assert LIMIT_TEXT in refused.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_token_endpoint_the_browser_and_the_admin_share_one_count(client, api_client, manager, three_a_minute):
    token_sign_in(api_client, manager.user.username)
    client.post("/login/", {"username": manager.user.username, "password": "nope"})
    client.post("/admin/login/", {"username": manager.user.username, "password": "nope"})
    assert token_sign_in(api_client, manager.user.username, PASSWORD).status_code == 429
    assert client.post("/login/", {"username": manager.user.username, "password": PASSWORD}).status_code == 429
