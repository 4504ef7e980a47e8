"""The production configuration as the README's production section runs it, in subprocesses:
DEBUG=false with a secret key and allowed hosts, `migrate` on a throwaway SQLite database,
`collectstatic` into a fresh STATIC_ROOT, `check --deploy`, then gunicorn serving the app and
its static files (whitenoise). TLS is terminated by gunicorn itself (a self-signed certificate
for 127.0.0.1) where production has its proxy, so that secure cookies, HSTS and the CSRF origin
check run as they do behind the proxy. One browser journey runs against the same server.

The throwaway database starts as a copy of the suite's migrated template where the run has one
(tests/migrated_template.py), and `migrate` then runs on it with the production settings (it
would apply whatever the copy lacked). Applying every migration to an empty database took 28 s
of the fixture's 76 s alone on the 2-core machine, and the suite proves it already: the template
is built that way whenever a migration changes, and the PostgreSQL run (`--create-db`) does it
every time. The PostgreSQL run copies the template an earlier SQLite run of the same migrations
left (`.ci/run` runs SQLite first; the template is named after their digest). Where there is none
(`TEST_DB_TEMPLATE=0`, a run with no database test and none kept from before, a PostgreSQL run
alone from a fresh clone), `migrate` starts from empty as before."""

import ipaddress
import json
import os
import re
import secrets
import socket
import ssl
import subprocess
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from http.cookiejar import CookieJar
from pathlib import Path
from types import SimpleNamespace
from urllib.error import HTTPError, URLError
from urllib.parse import urlencode
from urllib.request import HTTPCookieProcessor, HTTPRedirectHandler, HTTPSHandler, Request, build_opener

import pytest
from django.conf import settings

from config.csp import policy_header
from tests.browser_support import chromium_page, login
from tests.factories import PASSWORD
from tests.migrated_template import TEMPLATE_PREFIX, copy_database, template_digest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
# The test process's own settings must not leak into the production processes.
NOT_INHERITED = {
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "DATABASE_URL",
    "VAR_DIR",
    "STATIC_ROOT",
    "CELERY_BROKER_URL",
    "CELERY_QUEUE",
    "CELERY_FS_ROOT",
    "AXES_ENABLED",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
}
# The users the server's database gets: a gaming manager and a dealer of one site.
MAKE_USERS = """
import json
from cardroom.models import Role
from tests.factories import OrganizationFactory, SiteFactory, make_person
org = OrganizationFactory(name="Prairie Charities")
site = SiteFactory(organization=org, name="Elks Lodge")
users = {role: make_person(org, role, None if role == Role.GAMING_MANAGER else site).user.username
         for role in (Role.GAMING_MANAGER, Role.DEALER)}
print(json.dumps(users))
"""

pytestmark = pytest.mark.xdist_group("production")  # one server per run (pytest.ini: --dist loadgroup)


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode()


class NoRedirects(HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Client:
    """HTTPS with cookies, as a browser behind the TLS proxy sends it: one request, one answer
    (redirects are answers), the origin on every POST."""

    def __init__(self, url: str, cafile: Path):
        self.url = url
        context = ssl.create_default_context(cafile=str(cafile))
        self.opener = build_opener(HTTPSHandler(context=context), HTTPCookieProcessor(CookieJar()), NoRedirects)

    def request(self, path: str, data: dict | None = None, **headers: str) -> Answer:
        body = urlencode(data).encode() if data is not None else None
        if body is not None:
            headers = {"Origin": self.url, "Referer": self.url + path, **headers}
        try:
            with self.opener.open(Request(self.url + path, data=body, headers=headers), timeout=30) as response:
                return Answer(response.status, dict(response.headers), response.read())
        except HTTPError as error:
            return Answer(error.code, dict(error.headers), error.read())

    def log_in(self, username: str) -> None:
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', self.request("/login/").text).group(1)
        answer = self.request("/login/", {"username": username, "password": PASSWORD, "csrfmiddlewaretoken": token})
        assert (answer.status, answer.headers.get("Location")) == (302, "/"), answer.text


@dataclass
class Production:
    url: str
    env: dict[str, str]
    cafile: Path
    users: dict[str, str]
    log: Path

    @property
    def static_root(self) -> Path:
        return Path(self.env["VAR_DIR"]) / "staticfiles"

    def client(self) -> Client:
        return Client(self.url, self.cafile)


def production_env(var_dir: Path) -> dict[str, str]:
    env = {name: value for name, value in os.environ.items() if name not in NOT_INHERITED}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1",
        VAR_DIR=str(var_dir),
        DATABASE_URL=f"sqlite:///{var_dir / 'production.sqlite3'}",
    )
    return env


def manage(env: dict[str, str], *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )


def finish(process: subprocess.Popen) -> str:
    output, _ = process.communicate(timeout=300)
    assert process.returncode == 0, f"{' '.join(process.args)}:\n{output}"
    return output


def self_signed_certificate(directory: Path) -> tuple[Path, Path]:
    """A certificate for https://127.0.0.1, valid for a day, and its key (PEM files)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.now(UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(minutes=5))
        .not_valid_after(now + timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = directory / "cert.pem", directory / "key.pem"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return cert_path, key_path


def wait_until_serving(production: Production, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"gunicorn exited ({server.returncode}):\n{production.log.read_text()}")
        try:
            production.client().request("/login/")
            return
        except (URLError, ConnectionError):
            time.sleep(0.2)
    pytest.fail(f"gunicorn did not answer within 60 s:\n{production.log.read_text()}")


def migrated_template(request) -> Path | None:
    """The suite's migrated SQLite database (tests/migrated_template.py) for the migrations as
    they are, made or copied by this process's test database setup if the run has database tests;
    on a PostgreSQL run, the one an earlier SQLite run of the same migrations left (`.ci/run` runs
    SQLite first). None where there is none and with TEST_DB_TEMPLATE=0."""
    from django.db import connection

    if os.environ.get("TEST_DB_TEMPLATE", "1") == "0":
        return None
    if connection.vendor == "sqlite":
        request.getfixturevalue("django_db_setup")
    template = Path(settings.VAR_DIR) / f"{TEMPLATE_PREFIX}{template_digest()}.sqlite3"
    return template if template.exists() else None


@pytest.fixture(scope="session")
def production(request, tmp_path_factory):
    """gunicorn with the production settings on a free loopback port (a socket bound here and
    handed over, so no other process can take the port in between). Built once a run: the module's
    tests share one xdist group (one process, tests/conftest.py) and the fixture lives for it."""
    var_dir = tmp_path_factory.mktemp("production")
    env = production_env(var_dir)
    template = migrated_template(request)
    if template is not None:
        copy_database(template, var_dir / "production.sqlite3")
    # The static files are independent of the database: collected while it is migrated and filled.
    migrate, collect = manage(env, "migrate", "--noinput", "-v0"), manage(env, "collectstatic", "--noinput", "-v0")
    finish(migrate)
    users = json.loads(finish(manage(env, "shell", "-c", MAKE_USERS)).strip().splitlines()[-1])
    finish(collect)
    cert, key = self_signed_certificate(var_dir)
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    log = var_dir / "gunicorn.log"
    with open(log, "w") as log_file:
        server = subprocess.Popen(
            [
                str(BIN / "gunicorn"),
                "config.wsgi",
                "--bind",
                f"fd://{listener.fileno()}",
                "--workers",
                "2",
                "--certfile",
                str(cert),
                "--keyfile",
                str(key),
            ],
            cwd=ROOT,
            env=env,
            stdout=log_file,
            stderr=subprocess.STDOUT,
            pass_fds=[listener.fileno()],
        )
    listener.close()
    running = Production(url=f"https://127.0.0.1:{port}", env=env, cafile=cert, users=users, log=log)
    try:
        wait_until_serving(running, server)
        yield running
    finally:
        server.terminate()
        server.wait(timeout=30)


def linked(page: str, pattern: str) -> str:
    """The one address in `page` matching `pattern` (a regular expression)."""
    found = re.findall(rf'(?:href|src)="({pattern})"', page)
    assert len(found) == 1, (pattern, found)
    return found[0]


def test_the_deploy_check_is_clean_with_the_static_files_collected(production):
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=production.env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_the_login_page_answers_with_the_security_headers(production):
    answer = production.client().request("/login/")
    assert answer.status == 200
    assert answer.headers["Content-Security-Policy"] == policy_header(settings.CONTENT_SECURITY_POLICY)
    assert answer.headers["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert answer.headers["Referrer-Policy"] == "same-origin"
    assert answer.headers["X-Frame-Options"] == "DENY"
    cookie = answer.headers["Set-Cookie"]
    assert cookie.startswith("csrftoken=") and "; Secure" in cookie and "; HttpOnly" in cookie


def test_plain_http_from_the_proxy_is_sent_to_https(production):
    answer = production.client().request("/login/", **{"X-Forwarded-Proto": "http"})
    assert (answer.status, answer.headers["Location"]) == (301, f"{production.url}/login/")


def test_static_files_are_served_under_hashed_names_cached_for_good(production):
    client = production.client()
    css = linked(client.request("/login/").text, r"/static/vendor/bootstrap\.min\.[0-9a-f]{12}\.css")
    answer = client.request(css)
    assert answer.status == 200
    assert answer.headers["Content-Type"].startswith("text/css")
    assert answer.headers["Cache-Control"] == "max-age=315360000, public, immutable"
    assert answer.body == (production.static_root / css.removeprefix("/static/")).read_bytes()
    compressed = client.request(css, **{"Accept-Encoding": "gzip"})
    assert compressed.headers["Content-Encoding"] == "gzip" and len(compressed.body) < len(answer.body) / 3


def test_the_vendored_source_maps_are_collected_and_served(production):
    client = production.client()
    collected = json.loads((production.static_root / "staticfiles.json").read_text())["paths"]
    for name in ("vendor/chart.umd.js", "vendor/bootstrap.bundle.min.js", "vendor/bootstrap.min.css"):
        served = client.request(f"/static/{collected[name]}").body
        assert (
            re.search(rb"sourceMappingURL=(\S+?)(?: \*/)?\s*$", served).group(1).decode()
            == Path(collected[name + ".map"]).name
        )
        assert client.request(f"/static/{collected[name + '.map']}").status == 200


def test_an_unknown_address_answers_the_apps_404_page(production):
    answer = production.client().request("/no-such-page/")
    assert answer.status == 404
    assert 'id="error-404"' in answer.text and "Card-room back office" in answer.text
    assert answer.headers["Content-Security-Policy"] == policy_header(settings.CONTENT_SECURITY_POLICY)
    linked(answer.text, r"/static/cardroom/app\.[0-9a-f]{12}\.css")


def test_a_forbidden_page_answers_the_apps_403_page(production):
    client = production.client()
    client.log_in(production.users["dealer"])
    answer = client.request("/setup/tables/new/")
    assert answer.status == 403
    assert (
        'id="error-403"' in answer.text and "House control: only a gaming manager may change the setup." in answer.text
    )
    assert 'id="whoami"' in answer.text  # the page keeps the app's menu for the logged-in user


def test_the_api_docs_and_their_assets_are_served(production):
    client = production.client()
    page = client.request("/api/docs/")
    assert page.status == 200
    assets = re.findall(r'(?:href|src)="([^"]+)"', page.text)
    assert any(
        re.fullmatch(r"/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle\.[0-9a-f]{12}\.js", a)
        for a in assets
    )
    for asset in assets:
        answer = client.request(asset.replace("&amp;", "&"))
        assert answer.status == 200, asset
    script = client.request("/api/docs/?script=")
    assert script.headers["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle(" in script.text


def test_the_admin_login_page_and_its_styles_are_served(production):
    client = production.client()
    page = client.request("/admin/login/")
    assert page.status == 200
    css = linked(page.text, r"/static/admin/css/base\.[0-9a-f]{12}\.css")
    assert client.request(css).status == 200


@pytest.fixture
def production_page():
    """A Chromium page that accepts the server's self-signed certificate."""
    with chromium_page(ignore_https_errors=True) as page:
        yield page


@pytest.mark.browser
def test_a_gaming_manager_logs_in_and_opens_pages_with_no_console_error(production, production_page):
    page = production_page
    login(page, SimpleNamespace(url=production.url), production.users["gaming_manager"])
    page.click("text=Setup")
    page.click("a.dropdown-item:has-text('Tables')")
    page.wait_for_url(f"{production.url}/setup/tables/")
    assert page.locator("#setup-table").count() == 1
    page.goto(f"{production.url}/api/docs/")
    page.wait_for_selector(".opblock-tag")  # Swagger UI ran and drew the schema's operations
    assert page.problems.csp_violations == []
    assert page.problems.console_errors == []
