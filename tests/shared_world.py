"""The organization, site, people and chips most tests start from, built once for a module.

Nearly every test asks for `org`, `site` and `cast` (tests/conftest.py): one employee per role,
each a user, an employee, a membership, their history rows and audit events, with the chip set
twelve denominations more. Built for each test, they were a sixth to a third of the queries
of the record-writing files (tests/accounting, tests/cage/test_api.py), if less of their time
(README, "Tests"). For a module none of whose tests is transactional, the fixtures the
module's tests ask for (the union over its tests, so every process running a part of it builds
the same rows) are built once, in a transaction each test's own nests in, rolled back after the
module, as Django's `TestCase.setUpTestData`; each test gets its own deep copy of the Python
objects, as `setUpTestData`'s attributes are, so what a test changes on them or in the database
does not reach the next. A module with a transactional test, whose tests take any of these
fixtures from elsewhere (their own override, a parameter), or with a test marked `unshared` (it
needs a database without them, or closes the connection, as `BaseCommand.run_from_argv` does, which
would end the module's transaction) builds them for each test as before. A test of a shared module
that closes the connection fails, naming the marker. A module's own fixture whose rows take a good
part of each test's time is built with its world by `built_once` (the access matrices, the stored
reports); another site and the stranger's are parts only where no test would see them unasked.
"""

import copy
import inspect
from contextlib import contextmanager

import pytest
from django.db import connection, transaction
from django.test import override_settings

from cardroom.models import Role

from .factories import OrganizationFactory, SiteFactory, make_chips, make_person

SITE_ROLES = [Role.SHIFT_MANAGER, Role.PIT_BOSS, Role.CASHIER, Role.DEALER, Role.WHEEL_OPERATOR, Role.COUNT_TEAM]
ALL_ROLES = [Role.GAMING_MANAGER, Role.AUDITOR, *SITE_ROLES]

# What the world can hold, in the order it is built (each from those before it).
PARTS = ("org", "site", "cast", "people", "chips", "other_site", "stranger_site")
OTHERS_SITES = {"other_site", "stranger_site"}  # in the world only where no test would see them unasked
# A module's own fixtures built once with its world (`built_once`): module -> name -> (build, its parts).
BUILT_ONCE: dict[str, dict[str, tuple]] = {}


def new_org():
    return OrganizationFactory(name="Prairie Charities")


def new_site(org):
    return SiteFactory(organization=org, name="Elks Lodge")


def new_cast(org, site) -> dict:
    """One employee per role: gaming manager and auditor org-wide, the others at `site`."""
    return {role: make_person(org, role, None if role in (Role.GAMING_MANAGER, Role.AUDITOR) else site)
            for role in ALL_ROLES}  # fmt: skip


def new_people(org, site, cast) -> dict:
    return {
        "shift": cast[Role.SHIFT_MANAGER],
        "cashier": cast[Role.CASHIER],
        "count1": make_person(org, Role.COUNT_TEAM, site, employment_type="independent"),
        "count2": cast[Role.COUNT_TEAM],
    }


def new_other_site(org):
    return SiteFactory(organization=org, name="Eagles Club")


def new_stranger_site():
    return SiteFactory(organization=OrganizationFactory(name="Other Charity"), name="Far Away Bar")


def _build(parts: set[str], own: dict) -> dict:
    world: dict = {"org": new_org()} if "org" in parts else {}  # every part but the stranger's needs it
    if parts & {"site", "cast", "people"}:
        world["site"] = new_site(world["org"])
    if parts & {"cast", "people"}:
        world["cast"] = new_cast(world["org"], world["site"])
    if "people" in parts:
        world["people"] = new_people(world["org"], world["site"], world["cast"])
    if "chips" in parts:
        world["chips"] = make_chips(world["org"])
    if "other_site" in parts:
        world["other_site"] = new_other_site(world["org"])
    if "stranger_site" in parts:
        world["stranger_site"] = new_stranger_site()
    for name, (build, names) in own.items():  # the module's own, in the order they were declared
        if name in parts:
            world[name] = build(**{part: world[part] for part in names})
    return world


def part(world: dict | None, name: str, make, *args, **kwargs):
    """A test's `name`: from its copy of the module's world where the world holds it, else
    `make(*args, **kwargs)`, in the test's own transaction."""
    return world[name] if world and name in world else make(*args, **kwargs)


def built_once(build):
    """`build` as a fixture of its name, built with the module's world where the module shares
    one (from the world's parts, which are its parameters; each test gets it in its copy of the
    world, so the two agree on every object) and for each test where the module's tests build
    theirs. For a module fixture whose rows take a good part of each test's time."""
    names = list(inspect.signature(build).parameters)
    own = BUILT_ONCE.setdefault(build.__module__, {})
    assert set(names) <= set(PARTS) | set(own), f"{build.__name__} may take only the world's parts: {names}"
    own[build.__name__] = (build, names)

    def fixture(_world, **parts):  # not in the world where another module imports the fixture
        return part(_world, build.__name__, build, **parts)

    fixture.__signature__ = inspect.Signature(
        [inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD) for name in ("_world", *names)]
    )
    fixture.__module__, fixture.__name__, fixture.__doc__ = build.__module__, build.__name__, build.__doc__
    return pytest.fixture(fixture)


def parts_wanted(items, transactional) -> set[str]:
    """The parts a module's tests ask for, or none when one of its tests is transactional or
    takes a part from another fixture than tests/conftest.py's (or as a parameter). Another
    site and the stranger's are in the world only where every test asking for a part asks for
    them, or the module's own fixture built once takes them: a test that did not ask for
    another site of its organization would see one on its pages."""
    wanted: set[str] = set()
    asking: list[set[str]] = []  # the parts of each test asking for any
    module = None
    for item in items:
        if transactional(item) or item.get_closest_marker("unshared"):
            return set()
        module = getattr(getattr(item, "module", None), "__name__", None)
        home = dict.fromkeys(PARTS, "tests.conftest") | dict.fromkeys(BUILT_ONCE.get(module, ()), module)
        names = set(item.fixturenames) & set(home)
        params = getattr(getattr(item, "callspec", None), "params", {})
        for name in names:
            defs = item._fixtureinfo.name2fixturedefs.get(name) or ()
            if name in params or not defs or getattr(defs[-1].func, "__module__", None) != home[name]:
                return set()
        wanted |= names
        asking += [names] if names else []
    everyones = set.intersection(*asking) if asking else set()
    taken = {part for name, (_, parts) in BUILT_ONCE.get(module, {}).items() if name in wanted for part in parts}
    return wanted - (OTHERS_SITES - everyones - taken)


@contextmanager
def rolled_back_after(blocker, hashers):
    """A module's shared rows: written in a transaction the module's tests nest theirs in, rolled
    back after them (as Django's TestCase.setUpClass does), with the tests' own hasher."""
    with blocker.unblock(), override_settings(PASSWORD_HASHERS=hashers):
        outer = transaction.atomic()
        outer.__enter__()
        try:
            yield
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


def built_for_the_module(parts: set[str], blocker, hashers, module: str):
    """A generator for a module fixture: the world, or None where the module's tests build theirs."""
    if not parts:
        yield None
        return
    with rolled_back_after(blocker, hashers):
        yield _build(parts, BUILT_ONCE.get(module, {}))


def for_one_test(world: dict | None):
    """A generator for a test's fixture: its copy of the world; after the test, a failure if it
    closed the connection (the module's transaction would end with it)."""
    if world is None:
        yield None
        return
    yield copy.deepcopy(world)
    if connection.closed_in_transaction:
        pytest.fail("This test closes the database connection, which ends its module's shared rows "
                    "(tests/shared_world.py): mark it `unshared`.", pytrace=False)  # fmt: skip
