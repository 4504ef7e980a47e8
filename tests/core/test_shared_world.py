"""The module's shared organization, site, cast and chips (tests/shared_world.py): built once,
each test with its own copy, nothing a test does reaching the next; and the order the test
processes take the tests in (tests/conftest.py `while_one_migrates`)."""

from types import SimpleNamespace

import pytest

from cardroom.models import ChipDenomination, Employee, Organization, Role, Table

from ..conftest import while_one_migrates
from ..factories import TableFactory, _base36
from ..shared_world import built_once

# Letters alone: initials the factory never gives (tests/factories._base36; it gave "ZZ" to its
# 1,296th employee of a process, and under `-n 3` this test failed on the unique initials).
CHANGED_INITIALS = "ZZ"


@pytest.mark.parametrize("turn", [1, 2, 3])
def test_each_test_starts_from_the_worlds_rows_and_objects_whatever_the_one_before_did(
    turn, org, site, cast, people, chips, _shared_world
):
    # Shared: the same rows for every test of the module, the Python objects a copy of them.
    assert org.pk == _shared_world["org"].pk and org is not _shared_world["org"]
    assert cast[Role.DEALER] is not _shared_world["cast"][Role.DEALER]
    assert cast[Role.DEALER].organization is org  # one copy: the objects still point at each other
    # Whatever ran before in this process left nothing: not in the objects, not in the rows.
    assert org.name == "Prairie Charities" and site.name == "Elks Lodge"
    assert Organization.objects.get(pk=org.pk).name == "Prairie Charities"
    assert Employee.objects.filter(organization=org).count() == len(cast) + 1  # and the independent counter
    assert ChipDenomination.objects.filter(organization=org).count() == len(chips)
    assert people["count1"].employment_type == "independent"
    assert Employee.objects.get(pk=people["count1"].pk).initials != CHANGED_INITIALS
    assert not ChipDenomination.objects.filter(organization=org, edge_spots=99).exists()
    # Now change all of it, for the next turn to find unchanged.
    org.name = f"Renamed {turn}"
    org.save()
    Employee.objects.filter(pk=people["count1"].pk).update(initials=CHANGED_INITIALS)
    ChipDenomination.objects.filter(organization=org, value_cents=100).update(edge_spots=99)
    site.name = "Moved"


@built_once
def tables(site, other_site, cast):
    """The module's own fixture, built once with its world from the world's parts."""
    return {"here": TableFactory(site=site, number=7), "there": TableFactory(site=other_site, number=8),
            "dealer": cast[Role.DEALER]}  # fmt: skip


@pytest.mark.parametrize("turn", [1, 2, 3])
def test_a_modules_own_fixture_is_built_once_and_copied_with_the_world(
    turn, tables, site, other_site, cast, _shared_world
):
    # The same rows for every test; the objects the test's copy, one copy with the world's.
    assert (
        tables["here"].pk == _shared_world["tables"]["here"].pk
        and tables["here"] is not _shared_world["tables"]["here"]
    )
    assert tables["dealer"] is cast[Role.DEALER] and tables["here"].site is site and tables["there"].site is other_site
    assert Table.objects.filter(site__in=[site, other_site]).count() == 2  # built once, not once a test
    # Whatever the turn before changed is gone, in the rows and in the objects.
    assert Table.objects.get(pk=tables["here"].pk).number == 7 and tables["there"].number == 8
    Table.objects.filter(pk=tables["here"].pk).update(number=70 + turn)
    tables["there"].number = 80 + turn


def test_a_module_with_a_transactional_overridden_or_unshared_test_builds_its_own_for_each_test():
    from tests.shared_world import parts_wanted

    def item(names, transactional=False, unshared=False):
        fixturedef = SimpleNamespace(func=SimpleNamespace(__module__="tests.conftest"))
        return SimpleNamespace(
            fixturenames=names,
            transactional=transactional,
            get_closest_marker=lambda name: unshared if name == "unshared" else None,
            _fixtureinfo=SimpleNamespace(name2fixturedefs={name: [fixturedef] for name in names}),
        )

    def transactional(it):
        return it.transactional

    assert parts_wanted([item(["db", "org", "site"]), item(["db", "chips", "org"])], transactional) == {
        "org",
        "site",
        "chips",
    }
    assert parts_wanted([item(["db", "org"]), item(["transactional_db", "org"], True)], transactional) == set()
    overridden = item(["db", "org", "site"])
    overridden._fixtureinfo.name2fixturedefs["site"] = [SimpleNamespace(func=SimpleNamespace(__module__="tests.x"))]
    assert parts_wanted([item(["db", "org"]), overridden], transactional) == set()
    parametrized = item(["db", "org", "site"])
    parametrized.callspec = SimpleNamespace(params={"site": 1})
    assert parts_wanted([parametrized], transactional) == set()
    assert parts_wanted([item(["db", "org"]), item(["db", "org"], unshared=True)], transactional) == set()
    # Another site of the organization, or the stranger's, only where every test asking for a part
    # asks for it: a page of a test that did not would list one more site.
    assert parts_wanted([item(["db", "org", "site"]), item(["db", "org", "other_site"])], transactional) == {
        "org",
        "site",
    }
    both = [item(["db", "org", "other_site", "stranger_site"]), item(["db", "org", "other_site"]), item(["db"])]
    assert parts_wanted(both, transactional) == {"org", "other_site"}


def test_one_test_needing_the_database_first_then_those_needing_none_then_the_groups_and_those_emptying_it_last():
    def item(name, db=False, setup_only=False):
        return SimpleNamespace(
            nodeid=name,
            fixturenames=["db"] if db else ["django_db_setup"] if setup_only else [],
            get_closest_marker=lambda _name: None,
        )

    items = [
        item("a", db=True),
        item("b"),
        item("c@small", db=True),
        item("d", db=True),
        item("e@big", db=True),
        item("f@big", db=True),
        item("g"),
        item("h", setup_only=True),  # a module's own server on the test database: it empties it at the end
        item("i", db=True),
    ]
    order = ["a", "b", "g", "e@big", "f@big", "c@small", "d", "i", "h"]
    assert [it.nodeid for it in while_one_migrates(items)] == order


def test_the_factorys_initials_are_never_letters_alone_as_a_tests_own_are():
    given = [_base36(n) for n in range(0, 10 * 36**3, 7)]
    assert len(set(given)) == len(given) and all(len(i) == 4 and i[0].isdigit() for i in given)
