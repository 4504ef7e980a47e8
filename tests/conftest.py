import os
import shutil

import pytest
from django.db import connection

from cardroom.appendonly import set_guard_lifted
from cardroom.models import Role

from .browser_support import browser_page  # noqa: F401  (the Playwright page fixture for every journey)
from .factories import OrganizationFactory, SiteFactory, TableFactory, make_chips, make_person

SITE_ROLES = [Role.SHIFT_MANAGER, Role.PIT_BOSS, Role.CASHIER, Role.DEALER, Role.WHEEL_OPERATOR, Role.COUNT_TEAM]
ALL_ROLES = [Role.GAMING_MANAGER, Role.AUDITOR, *SITE_ROLES]


@pytest.fixture(scope="session", autouse=True)
def _celery_queue_per_test_process(worker_id):
    """Each pytest-xdist process sends and consumes on its own queue: two tests running real
    Celery workers at once (one in each process, on the same broker) must not take each
    other's tasks and run them against the other process's test database."""
    from cardroom.celery import app

    app.conf.task_default_queue = f"{app.conf.task_default_queue}-{worker_id}"


@pytest.fixture(autouse=True)
def _fast_and_unlocked(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.AXES_ENABLED = False


def _uses_transactional_db(request) -> bool:
    marker = request.node.get_closest_marker("django_db")
    if marker and (marker.kwargs.get("transaction") or (len(marker.args) > 0 and marker.args[0])):
        return True
    return bool({"transactional_db", "live_server"} & set(request.fixturenames))


def _uses_db(request) -> bool:
    return bool(request.node.get_closest_marker("django_db")) or bool(
        {"db", "transactional_db", "live_server"} & set(request.fixturenames)
    )


@pytest.fixture(autouse=True)
def _appendonly_guard(request):
    """Append-only triggers refuse DELETE unless the guard is lifted. A transactional test's
    database is emptied by a flush after the test: lift the guard just for that."""
    if not _uses_db(request):
        yield
        return
    transactional = _uses_transactional_db(request)
    request.getfixturevalue("transactional_db" if transactional else "db")
    set_guard_lifted(connection, False)
    yield
    if transactional:
        set_guard_lifted(connection, True)


@pytest.fixture
def org(db):
    return OrganizationFactory(name="Prairie Charities")


@pytest.fixture
def site(org):
    return SiteFactory(organization=org, name="Elks Lodge")


@pytest.fixture
def other_site(org):
    return SiteFactory(organization=org, name="Eagles Club")


@pytest.fixture
def stranger_site(db):
    return SiteFactory(organization=OrganizationFactory(name="Other Charity"), name="Far Away Bar")


@pytest.fixture
def chips(org):
    return make_chips(org)


@pytest.fixture
def table(site):
    return TableFactory(site=site, number=1, min_wager_cents=100, max_wager_cents=2500)


@pytest.fixture
def cast(org, site):
    """One employee per role: gaming manager and auditor org-wide, the others at `site`."""
    people = {}
    for role in ALL_ROLES:
        people[role] = make_person(org, role, None if role in (Role.GAMING_MANAGER, Role.AUDITOR) else site)
    return people


@pytest.fixture
def people(org, site, cast):
    """Who signs the records of tests/accounting/scenario.py: a shift manager, a cashier and a
    count team of an independent person and a gaming employee."""
    return {
        "shift": cast[Role.SHIFT_MANAGER],
        "cashier": cast[Role.CASHIER],
        "count1": make_person(org, Role.COUNT_TEAM, site, employment_type="independent"),
        "count2": cast[Role.COUNT_TEAM],
    }


@pytest.fixture
def manager(cast):
    return cast[Role.GAMING_MANAGER]


@pytest.fixture
def api_client():
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture
def client_for(api_client):
    """`client_for(employee)`: an API client logged in as that employee."""

    def login(employee):
        api_client.force_authenticate(employee.user)
        return api_client

    return login


def chromium_path() -> str | None:
    for candidate in ("/usr/bin/chromium", shutil.which("chromium") or ""):
        if candidate and os.path.exists(candidate):
            return candidate
    return None
