import pytest
from axes.models import AccessAttempt

from tests.factories import PASSWORD


def test_token_login_then_token_requests(api_client, manager):
    response = api_client.post("/api/v1/auth/token/", {"username": manager.user.username, "password": PASSWORD}, format="json")
    assert response.status_code == 200
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    assert api_client.get("/api/v1/sites/").status_code == 200


def test_a_wrong_password_gets_no_token(api_client, manager):
    response = api_client.post("/api/v1/auth/token/", {"username": manager.user.username, "password": "wrong"}, format="json")
    assert response.status_code == 400
    assert "token" not in response.json()


def test_a_bad_token_is_refused(api_client, manager):
    api_client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    assert api_client.get("/api/v1/sites/").status_code == 401


@pytest.fixture
def axes_on(settings):
    settings.AXES_ENABLED = True
    yield
    AccessAttempt.objects.all().delete()


def test_five_wrong_passwords_lock_the_account_in_the_browser(client, manager, axes_on):
    username = manager.user.username
    for _ in range(4):
        assert client.post("/login/", {"username": username, "password": "nope"}).status_code == 200
    locked = client.post("/login/", {"username": username, "password": "nope"})
    assert locked.status_code == 429
    assert "locked" in locked.content.decode()
    again = client.post("/login/", {"username": username, "password": PASSWORD})
    assert again.status_code == 429
    assert "_auth_user_id" not in client.session


def test_a_locked_account_gets_no_api_token(api_client, manager, axes_on):
    username = manager.user.username
    for _ in range(5):
        api_client.post("/api/v1/auth/token/", {"username": username, "password": "nope"}, format="json")
    response = api_client.post("/api/v1/auth/token/", {"username": username, "password": PASSWORD}, format="json")
    # The right password no longer yields a token: the lockout holds on the API too.
    assert response.status_code in (400, 403, 429)
    assert "token" not in response.json()


def test_four_wrong_passwords_do_not_lock(client, manager, axes_on):
    for _ in range(4):
        client.post("/login/", {"username": manager.user.username, "password": "nope"})
    response = client.post("/login/", {"username": manager.user.username, "password": PASSWORD})
    assert response.status_code == 302


def test_login_home_and_logout(client, manager):
    response = client.post("/login/", {"username": manager.user.username, "password": PASSWORD}, follow=True)
    assert response.status_code == 200 and "Setup" in response.content.decode()
    client.post("/logout/")
    assert client.get("/").status_code == 302
