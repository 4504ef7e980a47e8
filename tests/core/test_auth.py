from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.utils import timezone
from knox.models import AuthToken

from core.lockouts import SIGN_IN_REFUSED
from tests.factories import PASSWORD
from tests.page_support import page

TOKEN_URL = "/api/v1/auth/token/"


def sign_in(api_client, username, password=PASSWORD):
    return api_client.post(TOKEN_URL, {"username": username, "password": password}, format="json")


def with_token(api_client, token):
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return api_client


def test_token_login_then_token_requests(api_client, manager):
    response = sign_in(api_client, manager.user.username)
    assert response.status_code == 200
    assert with_token(api_client, response.json()["token"]).get("/api/v1/sites/").status_code == 200


def test_a_wrong_password_gets_no_token(api_client, manager):
    response = sign_in(api_client, manager.user.username, "wrong")
    assert response.status_code == 400
    assert response.json() == {"non_field_errors": [SIGN_IN_REFUSED]}  # the sign-in page's words


def test_a_bad_token_is_refused(api_client, manager):
    assert with_token(api_client, "not-a-real-token").get("/api/v1/sites/").status_code == 401


def test_each_sign_in_gets_its_own_token_and_both_work(api_client, manager):
    first, second = (sign_in(api_client, manager.user.username).json() for _ in range(2))
    assert first["token"] != second["token"]
    for token in (first["token"], second["token"]):
        assert with_token(api_client, token).get("/api/v1/sites/").status_code == 200


def test_the_token_is_stored_only_as_a_digest(api_client, manager):
    token = sign_in(api_client, manager.user.username).json()["token"]
    stored = AuthToken.objects.get(user=manager.user)
    assert token not in (stored.digest, stored.token_key) and token.startswith(stored.token_key)


def test_a_token_expires_after_one_shift(api_client, manager, time_machine):
    time_machine.move_to(timezone.now())
    body = sign_in(api_client, manager.user.username).json()
    expiry = timezone.datetime.fromisoformat(body["expiry"])
    assert timedelta(hours=11, minutes=59) < expiry - timezone.now() <= timedelta(hours=12)
    time_machine.shift(timedelta(hours=11, minutes=59))
    assert with_token(api_client, body["token"]).get("/api/v1/sites/").status_code == 200
    time_machine.shift(timedelta(minutes=2))
    response = api_client.get("/api/v1/sites/")
    assert response.status_code == 401 and "Invalid token" in response.json()["detail"]


def test_logout_revokes_the_token_it_is_sent_with_only(api_client, manager):
    kept, revoked = (sign_in(api_client, manager.user.username).json()["token"] for _ in range(2))
    assert with_token(api_client, revoked).post("/api/v1/auth/logout/").status_code == 204
    assert with_token(api_client, revoked).get("/api/v1/sites/").status_code == 401
    assert with_token(api_client, kept).get("/api/v1/sites/").status_code == 200


def test_logout_all_revokes_every_token_of_the_login(api_client, manager, cast):
    from cardroom.models import Role

    mine = [sign_in(api_client, manager.user.username).json()["token"] for _ in range(2)]
    others = sign_in(api_client, cast[Role.AUDITOR].user.username).json()["token"]
    assert with_token(api_client, mine[0]).post("/api/v1/auth/logout-all/").status_code == 204
    for token in mine:
        assert with_token(api_client, token).get("/api/v1/sites/").status_code == 401
    assert with_token(api_client, others).get("/api/v1/sites/").status_code == 200


def test_logout_needs_a_token(api_client):
    assert api_client.post("/api/v1/auth/logout/").status_code == 401


def test_a_password_change_revokes_the_tokens(api_client, manager):
    token = sign_in(api_client, manager.user.username).json()["token"]
    manager.user.set_password("a-new-long-passphrase-2026")
    manager.user.save()
    assert with_token(api_client, token).get("/api/v1/sites/").status_code == 401
    assert sign_in(api_client, manager.user.username, "a-new-long-passphrase-2026").status_code == 200


def test_saving_a_login_without_a_new_password_keeps_its_tokens(api_client, manager):
    token = sign_in(api_client, manager.user.username).json()["token"]
    manager.user.first_name = "Renamed"
    manager.user.save()
    assert with_token(api_client, token).get("/api/v1/sites/").status_code == 200


@pytest.fixture
def axes_on(settings):
    settings.AXES_ENABLED = True
    yield
    AccessAttempt.objects.all().delete()


def test_five_wrong_passwords_lock_the_account_in_the_browser(client, manager, axes_on):
    username = manager.user.username
    for _ in range(4):
        assert client.post("/login/", {"username": username, "password": "nope"}).status_code == 400
    locked = client.post("/login/", {"username": username, "password": "nope"})
    assert locked.status_code == 429
    assert "locked" in locked.content.decode()
    again = client.post("/login/", {"username": username, "password": PASSWORD})
    assert again.status_code == 429
    assert "_auth_user_id" not in client.session


def test_a_locked_account_gets_no_api_token(api_client, manager, axes_on):
    username = manager.user.username
    for _ in range(5):
        sign_in(api_client, username, "nope")
    response = sign_in(api_client, username)
    # The right password no longer yields a token: the lockout holds on the API too.
    assert response.status_code == 429
    assert "locked" in response.json()["detail"] and "token" not in response.json()


@pytest.mark.parametrize("minutes, said", [(1, "try again in 1 minute or"), (30, "try again in 30 minutes or")])
def test_a_locked_accounts_refusal_says_its_minutes_singular_for_one(
    api_client, manager, axes_on, settings, minutes, said
):
    settings.AXES_COOLOFF_TIME = timedelta(minutes=minutes)
    for _ in range(5):
        sign_in(api_client, manager.user.username, "nope")
    assert said in sign_in(api_client, manager.user.username).json()["detail"]


def test_a_lockout_revokes_the_tokens_issued_before_it(api_client, manager, axes_on):
    token = sign_in(api_client, manager.user.username).json()["token"]
    for _ in range(5):
        sign_in(api_client, manager.user.username, "nope")
    assert with_token(api_client, token).get("/api/v1/sites/").status_code == 401


def test_a_lockout_in_the_browser_revokes_the_api_tokens_too(client, api_client, manager, axes_on):
    token = sign_in(api_client, manager.user.username).json()["token"]
    for _ in range(5):
        client.post("/login/", {"username": manager.user.username, "password": "nope"})
    assert with_token(api_client, token).get("/api/v1/sites/").status_code == 401


def test_a_successful_api_sign_in_resets_the_failure_count(api_client, manager, axes_on):
    username = manager.user.username
    for _ in range(3):
        assert sign_in(api_client, username, "nope").status_code == 400
    assert sign_in(api_client, username).status_code == 200
    for _ in range(2):
        assert sign_in(api_client, username, "nope").status_code == 400
    assert sign_in(api_client, username).status_code == 200  # 3 + 2 wrong, but not in a row


def test_a_successful_browser_sign_in_resets_the_failure_count(client, manager, axes_on):
    username = manager.user.username
    for _ in range(3):
        client.post("/login/", {"username": username, "password": "nope"})
    assert client.post("/login/", {"username": username, "password": PASSWORD}).status_code == 302
    client.post("/logout/")
    for _ in range(2):
        assert client.post("/login/", {"username": username, "password": "nope"}).status_code == 400
    assert client.post("/login/", {"username": username, "password": PASSWORD}).status_code == 302


def test_four_wrong_passwords_do_not_lock(client, manager, axes_on):
    for _ in range(4):
        client.post("/login/", {"username": manager.user.username, "password": "nope"})
    response = client.post("/login/", {"username": manager.user.username, "password": PASSWORD})
    assert response.status_code == 302


def test_a_wrong_password_on_the_sign_in_page_is_refused_with_400_and_no_session(client, manager):
    response = client.post("/login/", {"username": manager.user.username, "password": "nope"})
    assert response.status_code == 400
    assert SIGN_IN_REFUSED in page(response)
    assert response.context["form"].data["username"] == manager.user.username  # the same page, as posted
    assert "_auth_user_id" not in client.session


@pytest.mark.parametrize("blank, label", [("username", "login name"), ("password", "password")])
def test_a_blank_field_on_the_sign_in_page_names_the_field_and_house_control(client, manager, blank, label):
    response = client.post("/login/", {"username": manager.user.username, "password": PASSWORD, blank: ""})
    assert response.status_code == 400
    shown = page(response)
    assert f"House control: give your {label} to sign in." in shown
    assert "This field is required." not in shown and SIGN_IN_REFUSED not in shown  # no password was tried
    assert "_auth_user_id" not in client.session


GIVE_LOGIN_NAME = "House control: give your login name to sign in."
GIVE_PASSWORD = "House control: give your password to sign in."


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({"username": "", "password": PASSWORD}, {"username": [GIVE_LOGIN_NAME]}),
        ({"username": "   ", "password": PASSWORD}, {"username": [GIVE_LOGIN_NAME]}),
        ({"username": None, "password": PASSWORD}, {"username": [GIVE_LOGIN_NAME]}),
        ({"username": "LOGIN", "password": ""}, {"password": [GIVE_PASSWORD]}),
        ({"username": "", "password": ""}, {"username": [GIVE_LOGIN_NAME], "password": [GIVE_PASSWORD]}),
        ({"password": PASSWORD}, {"username": [GIVE_LOGIN_NAME]}),
        ({"username": "LOGIN"}, {"password": [GIVE_PASSWORD]}),
        ({}, {"username": [GIVE_LOGIN_NAME], "password": [GIVE_PASSWORD]}),
    ],
    ids=["blank login name", "spaces for a login name", "null login name", "blank password", "both blank",
         "no login name", "no password", "neither"],
)  # fmt: skip
def test_a_blank_or_missing_field_at_the_token_endpoint_is_refused_in_the_sign_in_pages_words(
    api_client, manager, axes_on, body, said
):
    """The sign-in page's sentence for each field left blank or out (core.lockouts.SIGN_IN_BLANKS),
    keyed by the field, never DRF's "may not be blank" or the "record is not made" of a record's
    field; no password is tried, so nothing is counted against the login and no token is issued."""
    body = {name: manager.user.username if value == "LOGIN" else value for name, value in body.items()}
    before = AuthToken.objects.count(), AccessAttempt.objects.count()
    response = api_client.post(TOKEN_URL, body, format="json")
    assert response.status_code == 400
    assert response.json() == said
    assert (AuthToken.objects.count(), AccessAttempt.objects.count()) == before


def test_a_wrong_password_on_the_admins_sign_in_is_refused_with_400_in_the_same_words(client, manager):
    response = client.post("/admin/login/", {"username": manager.user.username, "password": "nope"})
    assert response.status_code == 400
    assert SIGN_IN_REFUSED in page(response) and "staff account" not in page(response)
    assert "_auth_user_id" not in client.session
    blank = client.post("/admin/login/", {"username": manager.user.username, "password": ""})
    assert blank.status_code == 400
    assert "House control: give your password to sign in." in page(blank)


def test_the_sign_in_page_reads_200_and_a_right_password_redirects(client, manager):
    assert client.get("/login/").status_code == 200
    response = client.post("/login/", {"username": manager.user.username, "password": PASSWORD})
    assert response.status_code == 302 and "_auth_user_id" in client.session


def test_login_home_and_logout(client, manager):
    response = client.post("/login/", {"username": manager.user.username, "password": PASSWORD}, follow=True)
    assert response.status_code == 200 and "Setup" in response.content.decode()
    client.post("/logout/")
    assert client.get("/").status_code == 302


# --- Rate limits -----------------------------------------------------------------------------


@pytest.fixture
def rates(settings):
    def set_rates(**rates):
        settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}

    return set_rates


def test_the_token_endpoint_is_throttled_per_address(api_client, manager, cast, rates):
    from cardroom.models import Role

    rates(login="3/minute", writes="100/minute")
    for _ in range(3):
        sign_in(api_client, manager.user.username, "nope")
    response = sign_in(api_client, cast[Role.AUDITOR].user.username)  # another login, same address
    assert response.status_code == 429
    detail = response.json()["detail"]
    assert "at most 3 sign-in attempts from one address per minute" in detail and "try again in" in detail
    assert int(response["Retry-After"]) > 0


def test_writes_are_throttled_per_user_and_reads_are_not(client_for, manager, site, rates):
    rates(login="10/minute", writes="2/minute")
    api = client_for(manager)
    for number in (1, 2):
        body = {"site": site.pk, "number": number, "min_wager_cents": 100, "max_wager_cents": 2500}
        assert api.post("/api/v1/tables/", body, format="json").status_code == 201
    refused = api.post(
        "/api/v1/tables/",
        {"site": site.pk, "number": 3, "min_wager_cents": 100, "max_wager_cents": 2500},
        format="json",
    )
    assert refused.status_code == 429
    assert "at most 2 changes by one user per minute" in refused.json()["detail"]
    assert api.get("/api/v1/tables/").status_code == 200
    assert not site.tables.filter(number=3).exists()


def test_one_users_writes_do_not_use_up_anothers(client_for, cast, site, rates):
    from cardroom.models import Role

    rates(login="10/minute", writes="1/minute")
    body = {"name": "Moose Lodge", "jurisdiction": "ND", "time_zone": "America/Chicago"}
    assert client_for(cast[Role.GAMING_MANAGER]).post("/api/v1/sites/", body, format="json").status_code == 201
    refused = client_for(cast[Role.GAMING_MANAGER]).post("/api/v1/sites/", {**body, "name": "Two"}, format="json")
    assert refused.status_code == 429
    # Another user (whose write is refused for their role, not for the rate) is not throttled.
    assert client_for(cast[Role.DEALER]).post("/api/v1/sites/", body, format="json").status_code == 403


def test_a_login_keeps_at_most_ten_live_tokens_the_oldest_revoked_first(api_client, manager, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"login": None, "writes": None}}
    tokens = [sign_in(api_client, manager.user.username).json()["token"] for _ in range(11)]
    assert AuthToken.objects.filter(user=manager.user).count() == 10
    assert with_token(api_client, tokens[0]).get("/api/v1/sites/").status_code == 401
    assert with_token(api_client, tokens[1]).get("/api/v1/sites/").status_code == 200
    assert with_token(api_client, tokens[-1]).get("/api/v1/sites/").status_code == 200


def test_signing_in_clears_the_logins_expired_tokens(api_client, manager, time_machine):
    time_machine.move_to(timezone.now())
    sign_in(api_client, manager.user.username)
    time_machine.shift(timedelta(hours=13))
    sign_in(api_client, manager.user.username)
    assert AuthToken.objects.filter(user=manager.user).count() == 1


# A header's bytes beyond ASCII (WSGI hands them over as Latin-1): knox decoded the token as UTF-8
# and a byte such as 0xE9 raised UnicodeDecodeError, a 500 on every API path, the registry's and
# the Idempotency-Key check's included (core.tokens.TokenAuthentication).
@pytest.mark.parametrize("token", ["\u00e9\u00e9", "\u00ff\u00fe", "abc\u00e9"])
@pytest.mark.parametrize(
    "method,path,headers",
    [
        ("get", "/api/v1/sites/", {}),
        ("post", "/api/v1/auth/logout/", {}),
        ("post", "/api/v1/tables/", {"HTTP_IDEMPOTENCY_KEY": "k-1"}),
        ("get", "/registry/api/v1/filings/", {}),
    ],
)
def test_a_token_of_bytes_beyond_ascii_is_refused_401_not_a_500(api_client, manager, token, method, path, headers):
    api_client.raise_request_exception = False
    answer = getattr(with_token(api_client, token), method)(path, {}, format="json", **headers)
    assert answer.status_code == 401, answer.content[:200]
    assert answer.json() == {"detail": "Invalid token."}
