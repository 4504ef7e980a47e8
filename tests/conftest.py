import os
import re
import shutil
import uuid
from datetime import timedelta

import pytest
import time_machine
from celery.signals import after_task_publish
from django.core.cache import cache
from django.db import connection
from django.utils import timezone
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from cardroom.models import Role
from core.appendonly import set_guard_lifted

from . import shared_world
from .browser_support import browser_page, close_shared_browser  # noqa: F401  (the Playwright page fixture for every journey)
from .factories import TableFactory, make_chips
from .postgres_session import commits_without_waiting_for_the_disk

# Before the first connection: every PostgreSQL session of the run (tests/postgres_session.py).
commits_without_waiting_for_the_disk()

# Property tests judge what they compute, not how fast a loaded CI machine computes it: no
# per-example deadline and no "too slow" health check (both failed runs here under load, with no
# bug). The examples stay Hypothesis's own, drawn afresh each run.
hypothesis_settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
hypothesis_settings.load_profile("suite")

SITE_ROLES = shared_world.SITE_ROLES
ALL_ROLES = shared_world.ALL_ROLES


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """`--dist loadgroup` (pytest.ini) sends the tests of one `xdist_group` to one process: the
    conformance walks of a pack share the site they build, the production tests their server.
    pytest-xdist 3.8 marks a test's group by writing `item._nodeid`, which pytest 9 no longer reads
    (a node's id is `item._id`), so every group was spread over both processes and its module or
    session fixture built in each (the production server twice a run, a minute each). The same
    suffix, set where pytest 9 keeps the id."""
    if not getattr(config.option, "loadgroup", False):  # set by pytest-xdist with -n N and --dist loadgroup
        return
    from _pytest.nodeid import coerce_node_id

    for item in items:
        groups = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                         for m in item.iter_markers("xdist_group")})  # fmt: skip
        if groups and "@" not in item.nodeid:
            item._id = coerce_node_id(f"{item.nodeid}@{'_'.join(groups)}")
    items[:] = while_one_migrates(items)


def while_one_migrates(items: list) -> list:
    """The order the processes take the tests in (pytest.ini: `--no-loadscope-reorder`). On a run
    without a migrated template (a fresh clone; `--create-db` on PostgreSQL) the first process to
    need a database migrates it from empty while the other waits for it (tests/migrated_template.py),
    about 25 s of one of two cores. So one test that needs the database comes first, and the
    tests that need none after it: the other process runs those meanwhile. Then the groups, the
    largest first (as pytest-xdist's own reordering would), then the rest in pytest-django's order
    (the transactional tests last), and last of all the tests that set up the database without
    pytest-django's `db` (a module's own live server, tests/core/test_browser_small_screens.py):
    they empty it when they end, the rows of the data migrations with the rest, as a
    transactional test does."""
    grouped: dict[str, list] = {}
    free, needing, emptying = [], [], []
    for item in items:
        if "@" in item.nodeid:
            grouped.setdefault(item.nodeid.rsplit("@", 1)[1], []).append(item)
        elif _uses_db(item, item.fixturenames):
            needing.append(item)
        else:
            (emptying if "django_db_setup" in item.fixturenames else free).append(item)
    groups = [item for group in sorted(grouped.values(), key=len, reverse=True) for item in group]
    return needing[:1] + free + groups + needing[1:] + emptying


def pytest_sessionfinish(session, exitstatus):
    """The process's shared Chromium (tests/browser_support.py), if a journey launched it."""
    close_shared_browser()


@pytest.fixture(scope="session", autouse=True)
def _celery_queue_per_test_process(worker_id):
    """Each pytest-xdist process sends and consumes on its own queue: two tests running real
    Celery workers at once (one in each process, on the same broker) must not take each
    other's tasks and run them against the other process's test database."""
    from config.celery import app

    app.conf.task_default_queue = f"{app.conf.task_default_queue}-{worker_id}"


# Whether a task message was sent since the last test ended (in this process, any thread).
_SENT = {"since": False}


@after_task_publish.connect(weak=False)
def _note_a_message_sent(**kwargs):
    _SENT["since"] = True


@pytest.fixture(autouse=True)
def _no_message_outlives_its_test():
    """A message a test queues and no worker of its takes (a registry anchor's push, sent at once
    while the test's rows roll back; an e-mail) is dropped from the process's queue when the test
    ends: left there, it ran
    first on the next test's real worker, in that test's database (test_fanout failed so once on
    PostgreSQL: two `push_anchor` tasks of earlier tests ahead of the run's chunks)."""
    yield
    drop_the_messages_left()


def drop_the_messages_left() -> None:
    if _SENT["since"]:
        _SENT["since"] = False
        from config.celery import app

        with app.connection_for_write() as connection:
            connection.default_channel.queue_purge(app.conf.task_default_queue)


@pytest.fixture(scope="session", autouse=True)
def _postgres_flush_by_delete():
    """On PostgreSQL a transactional test's flush deletes instead of truncating (tests/postgres_session.py)."""
    if connection.vendor != "postgresql":
        yield
        return
    from .postgres_session import flush_by_delete

    with pytest.MonkeyPatch.context() as patch:
        flush_by_delete(patch)
        yield


@pytest.fixture(scope="session")
def django_db_setup(
    request,
    django_test_environment,
    django_db_blocker,
    django_db_use_migrations,
    django_db_keepdb,
    django_db_createdb,
    django_db_modify_db_settings,
):
    """pytest-django's, with the migrated database copied from a template where it can be
    (tests/migrated_template.py)."""
    from django.db import DEFAULT_DB_ALIAS, connections
    from django.test.utils import setup_databases, teardown_databases
    from pytest_django.fixtures import _disable_migrations, _get_databases_for_setup

    from .migrated_template import (
        applies,
        applies_on_postgres,
        drop_migrated_copy,
        keep_migrated_copy,
        migrated_database,
        postgres_migrated_database,
    )

    if not django_db_use_migrations:
        _disable_migrations()
    aliases, serialized_aliases = _get_databases_for_setup(request.session.items)
    keepdb = django_db_keepdb and not django_db_createdb

    def setup(keep: bool):
        return setup_databases(
            verbosity=request.config.option.verbose,
            interactive=False,
            aliases=aliases,
            serialized_aliases=serialized_aliases,
            keepdb=keep,
        )

    connection = connections[DEFAULT_DB_ALIAS]
    with django_db_blocker.unblock():
        if aliases and applies(
            connection,
            use_migrations=django_db_use_migrations,
            keepdb=django_db_keepdb,
            createdb=django_db_createdb,
            aliases=aliases,
        ):
            db_cfg = migrated_database(connection, setup)
        elif aliases and applies_on_postgres(
            connection, use_migrations=django_db_use_migrations, keepdb=keepdb, aliases=aliases
        ):
            run_id = os.environ.get("PYTEST_XDIST_TESTRUNUID") or uuid.uuid4().hex
            db_cfg = postgres_migrated_database(connection, setup, createdb=django_db_createdb, run_id=run_id)
        else:
            db_cfg = setup(keepdb)
        if aliases and connection.vendor == "postgresql":
            keep_migrated_copy(connection)

    yield

    with django_db_blocker.unblock():
        close_shared_browser()
    if not django_db_keepdb:
        with django_db_blocker.unblock():
            if aliases and connection.vendor == "postgresql":
                drop_migrated_copy(connection)
            try:
                teardown_databases(db_cfg, verbosity=request.config.option.verbose)
            except Exception as exc:  # as pytest-django: a warning, not an error of the last test
                request.node.warn(pytest.PytestWarning(f"Error when trying to teardown test databases: {exc!r}"))


FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fast_and_unlocked(settings, tmp_path):
    settings.PASSWORD_HASHERS = FAST_HASHERS
    settings.AXES_ENABLED = False
    cache.clear()  # the API's rate limits count in the cache: each test starts with none used
    # Anchors of the test database's chains never mix with those of a real one.
    settings.AUDIT_ANCHOR_DIR = tmp_path / "audit-anchors"


# Django's connections of the context a test's fixtures run in (see pytest_runtest_call).
_FIXTURES_CONNECTIONS = pytest.StashKey[dict]()


@pytest.fixture(autouse=True)
def _fixtures_connections(request):
    from django.db import connections

    request.node.stash[_FIXTURES_CONNECTIONS] = {alias: connections[alias] for alias in connections}


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """A browser journey's body runs in the context Playwright's sync API leaves behind (its
    greenlets switch context variables), where Django's connections, kept per context, are
    other objects than its fixtures'. pytest-django never closes those, and their PostgreSQL
    sessions outlived the run: the test databases could not be dropped at the end ("being
    accessed by other users"). Close them after the body; elsewhere they are the fixtures' own."""
    from django.db import connections

    try:
        return (yield)
    finally:
        outside = item.stash.get(_FIXTURES_CONNECTIONS, {})
        for alias in connections:
            if alias in outside and connections[alias] is not outside[alias]:
                connections[alias].close()


def _uses_transactional_db(node, fixturenames) -> bool:
    marker = node.get_closest_marker("django_db")
    if marker and (marker.kwargs.get("transaction") or (len(marker.args) > 0 and marker.args[0])):
        return True
    return bool({"transactional_db", "live_server"} & set(fixturenames))


def _uses_db(node, fixturenames) -> bool:
    return bool(node.get_closest_marker("django_db")) or bool(
        {"db", "transactional_db", "live_server"} & set(fixturenames)
    )


@pytest.fixture(autouse=True)
def _appendonly_guard(request):
    """Append-only triggers refuse DELETE unless the guard is lifted. A transactional test's
    database is emptied by a flush after the test: lift the guard just for that."""
    if not _uses_db(request.node, request.fixturenames):
        yield
        return
    transactional = _uses_transactional_db(request.node, request.fixturenames)
    request.getfixturevalue("transactional_db" if transactional else "db")
    set_guard_lifted(connection, False)
    yield
    if transactional:
        set_guard_lifted(connection, True)


# A refusal names its rule (a section of the regulation, or "House control" where the regulation
# does not say) and, where a role may act, who: "ND 99-01.3-08-05(3): only a shift manager, pit
# boss or chip bank cashier may prepare a fill slip."
REFUSAL = re.compile(r"(ND 99-01\.3-\d\d-\d\d\S*|House control): \S")


def refusal_text(response) -> str:
    if response.get("Content-Type", "").startswith("application/json"):
        return str(response.json().get("detail", ""))
    return response.content.decode(errors="replace")


def _exempt(path: str, response) -> bool:
    """403s that are no refusal by a rule: the Django admin's own, and a form posted without its
    CSRF token (the "form expired" page: send it again)."""
    templates = {t.name for t in getattr(response, "templates", None) or []}
    return path.startswith("/admin/") or "403_csrf.html" in templates


@pytest.fixture(autouse=True)
def _every_refusal_names_its_rule(monkeypatch):
    """Every 403 that any test receives from the API or a page names the rule it applies
    (see `_exempt` for the two kinds that are not refusals by a rule)."""
    from django.test import Client
    from rest_framework.test import APIClient

    for client_class in (APIClient, Client):
        original = client_class.request

        def request(self, _original=original, **kwargs):
            response = _original(self, **kwargs)
            if response.status_code == 403 and not _exempt(kwargs.get("PATH_INFO", ""), response):
                text = refusal_text(response)
                assert REFUSAL.search(text), f"403 without its rule at {kwargs.get('PATH_INFO')}: {text[:300]}"
            return response

        monkeypatch.setattr(client_class, "request", request)


@pytest.fixture(scope="module")
def _shared_world(request, django_db_setup, django_db_blocker):
    """The module's org, site, cast, people and chips, built once where they can be (tests/shared_world.py)."""
    items = [item for item in request.session.items if item.module is request.module]
    parts = shared_world.parts_wanted(items, lambda item: _uses_transactional_db(item, item.fixturenames))
    yield from shared_world.built_for_the_module(parts, django_db_blocker, FAST_HASHERS, request.module.__name__)


@pytest.fixture
def _world(db, _shared_world):
    yield from shared_world.for_one_test(_shared_world)


@pytest.fixture
def org(_world):
    return shared_world.part(_world, "org", shared_world.new_org)


@pytest.fixture
def site(org, _world):
    return shared_world.part(_world, "site", shared_world.new_site, org)


DAY_UNDER_WAY = timedelta(hours=3)


@pytest.fixture
def day_under_way(site):
    """The site's business day at least three hours old: a test that dates records hours
    before now, in today's gaming day, fails in the day's first hours (06:00-09:00 in
    Chicago for the factory's site), when those hours belong to the day before. From then
    on the clock is left alone; before, it is moved to three hours into the day and runs on
    from there. Ask for it before the fixtures that write records."""
    from floor.calculations import business_date, gaming_day_bounds

    now = timezone.now()
    opened = gaming_day_bounds(business_date(now, site.time_zone, site.business_day_start_hour), site.time_zone,
                               site.business_day_start_hour)[0]  # fmt: skip
    if now - opened >= DAY_UNDER_WAY:
        yield now
        return
    with time_machine.travel(opened + DAY_UNDER_WAY, tick=True):
        yield opened + DAY_UNDER_WAY


@pytest.fixture
def other_site(org, _world):
    return shared_world.part(_world, "other_site", shared_world.new_other_site, org)


@pytest.fixture
def stranger_site(_world):
    return shared_world.part(_world, "stranger_site", shared_world.new_stranger_site)


@pytest.fixture
def chips(org, _world):
    return shared_world.part(_world, "chips", make_chips, org)


@pytest.fixture
def table(site):
    return TableFactory(site=site, number=1, min_wager_cents=100, max_wager_cents=2500)


@pytest.fixture
def cast(org, site, _world):
    """One employee per role: gaming manager and auditor org-wide, the others at `site`."""
    return shared_world.part(_world, "cast", shared_world.new_cast, org, site)


TERMINAL_PIN = "482913"  # the `with_pins` cast's PIN at a shared terminal


@pytest.fixture
def with_pins(cast):
    """The cast, with a signing PIN (TERMINAL_PIN) for each role that steps up to a shared terminal."""
    from cardroom import pins

    for role in (Role.CASHIER, Role.PIT_BOSS, Role.DEALER, Role.SHIFT_MANAGER, Role.COUNT_TEAM):
        pins.set_pin(acting_user=cast[role].user, employee=cast[role], pin=TERMINAL_PIN)
    return cast


@pytest.fixture
def people(org, site, cast, _world):
    """Who signs the records of tests/accounting/scenario.py: a shift manager, a cashier and a
    count team of an independent person and a gaming employee."""
    return shared_world.part(_world, "people", shared_world.new_people, org, site, cast)


@pytest.fixture
def scenario(site, people):
    """The records of a gaming day at `site`, signed by `people` (tests/accounting/scenario.py)."""
    from .accounting.scenario import Scenario

    return Scenario(site, people)


@pytest.fixture
def manager(cast):
    return cast[Role.GAMING_MANAGER]


@pytest.fixture
def station(site, cast):
    """A shared pit terminal at `site` (a station login: no employee, no role), made by the
    gaming manager."""
    from cardroom import pins

    return pins.create_station(
        acting_user=cast[Role.GAMING_MANAGER].user,
        site=site,
        username="pit-terminal-1",
        password="Ochre-Lantern-Drift-58",
        name="Pit 1 terminal",
    )


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


@pytest.fixture(scope="module")
def a_week_of_the_demo(django_db_setup, django_db_blocker) -> dict:
    """The demo's last week (tests/api/demo.py, 5-7 s), built once for a module's tests in a
    transaction each test's own nests in (what a test writes rolls back), rolled back after
    them as Django's TestCase.setUpClass data is. For a module whose database tests can all
    share it (the factories' organizations take the demo's names), with one `xdist_group` so
    that one process builds it."""
    from tests.api.demo import load_short_demo

    with shared_world.rolled_back_after(django_db_blocker, FAST_HASHERS):
        yield load_short_demo(weeks=1)


def chromium_path() -> str | None:
    for candidate in ("/usr/bin/chromium", shutil.which("chromium") or ""):
        if candidate and os.path.exists(candidate):
            return candidate
    return None
