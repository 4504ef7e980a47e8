"""The migrations that make a name unique whatever its case (cardroom 0025: an organization's name;
0026: an employee's initials in the organization; 0027: a site's name in the organization; 0028: a
login's name; registry 0006: a licence number at its agency, its surrounding spaces aside) stop where existing rows already differ only in
case, naming them, so that someone renames one and migrates again, instead of failing on the
database's own words (or, where a database made the index anyway, keeping both); and on data
without such rows they apply, the constraint then refusing a second row in another case.

On an empty database of its own (tests/scratch_database.py) migrated to just before each
migration, the clashing rows written through the models as they were then, on whichever database
the suite runs (SQLite by default, PostgreSQL with DATABASE_URL)."""

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.recorder import MigrationRecorder

from tests.scratch_database import dependencies_of, migrate, scratch_database

ORGANIZATION_NAME = ("cardroom", "0025_organization_name_unique_any_case")
EMPLOYEE_INITIALS = ("cardroom", "0026_employee_initials_unique_any_case")
SITE_NAME = ("cardroom", "0027_site_name_unique_in_org_any_case")
LOGIN_NAME = ("cardroom", "0028_login_name_unique_any_case")
LICENCE_NUMBER = ("registry", "0006_licence_unique_any_case")


def _before(executor, key):
    """The models as they were just before the migration `key` (every earlier one applied)."""
    assert key not in executor.loader.applied_migrations
    return executor.loader.project_state(key, at_end=False).apps


def _just_before(key):
    """Migrate to just before `key` (what it depends on) and return the models as they are then."""
    return _before(migrate(dependencies_of([key])), key)


def _after(key):
    """Migrate to `key` and return the models as they are then."""
    executor = migrate([key])
    assert key in executor.loader.applied_migrations
    return executor.loader.project_state(key).apps


def _stopped(key, objects, count: int) -> str:
    """Migrate to `key`: it stops, nothing of it applied and the `count` rows of `objects` kept;
    what it said."""
    with pytest.raises(RuntimeError) as refused:
        migrate([key])
    assert key not in MigrationRecorder(connection).applied_migrations()  # nothing half applied
    assert objects.count() == count
    return str(refused.value)


def _applied(key, model: str, **another):
    """Migrate to `key` (it applies, the clash gone) and write `another` row, alike but for its
    case: the database refuses it. The model's rows, as they are then."""
    objects = _after(key).get_model(*model.split(".")).objects
    with pytest.raises(IntegrityError), transaction.atomic():
        objects.create(**another)
    return objects


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_an_organization_name_differing_only_in_case_stops_the_migration_naming_both():
    with scratch_database("any-case-organization"):
        organizations = _just_before(ORGANIZATION_NAME).get_model("cardroom", "Organization").objects
        organizations.create(name="Prairie Charities")
        jane = organizations.create(name="Jane Roe Charities")
        organizations.create(name="JANE ROE charities")

        assert _stopped(ORGANIZATION_NAME, organizations, 3) == (
            "House control: an organization's name is unique whatever its case; rename one of "
            "'Jane Roe Charities' and 'JANE ROE charities' before migrating."
        )

        organizations.filter(pk=jane.pk).update(name="Jane Roe Fund")  # renamed, as the message asks
        organizations = _applied(ORGANIZATION_NAME, "cardroom.Organization", name="prairie CHARITIES")
        assert sorted(organizations.values_list("name", flat=True)) == [
            "JANE ROE charities",
            "Jane Roe Fund",
            "Prairie Charities",
        ]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_initials_differing_only_in_case_in_an_organization_stop_the_migration_naming_them():
    with scratch_database("any-case-initials"):
        old = _just_before(EMPLOYEE_INITIALS)
        users, employees = old.get_model("auth", "User").objects, old.get_model("cardroom", "Employee").objects
        prairie, other = (
            old.get_model("cardroom", "Organization").objects.create(name=n) for n in ("Prairie", "Other")
        )

        def hire(organization, initials):
            user = users.create(username=f"{initials}-{organization.pk}-{users.count()}")
            return employees.create(organization=organization, user=user, initials=initials)

        first = hire(prairie, "JR")
        hire(prairie, "jr")
        hire(prairie, "AB")
        hire(other, "Jr")  # another organization's: no clash

        assert _stopped(EMPLOYEE_INITIALS, employees, 4) == (
            "Initials must be unique in the organization whatever their case: they sign forms; change one "
            f"of 'JR' and 'jr' (organization {prairie.pk}) before migrating."
        )

        employees.filter(pk=first.pk).update(initials="JRR")  # changed, as the message asks
        new = _after(EMPLOYEE_INITIALS)
        with pytest.raises(IntegrityError), transaction.atomic():
            new.get_model("cardroom", "Employee").objects.create(
                organization_id=prairie.pk,
                user=new.get_model("auth", "User").objects.create(username="x"),
                initials="ab",
            )
        assert sorted(new.get_model("cardroom", "Employee").objects.values_list("initials", flat=True)) == [
            "AB",
            "JRR",
            "Jr",
            "jr",
        ]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_site_names_differing_only_in_case_in_an_organization_stop_the_migration_naming_them():
    with scratch_database("any-case-sites"):
        old = _just_before(SITE_NAME)
        sites = old.get_model("cardroom", "Site").objects
        prairie, other = (
            old.get_model("cardroom", "Organization").objects.create(name=n) for n in ("Prairie", "Other")
        )
        hall = sites.create(organization=prairie, name="Main Hall")
        sites.create(organization=prairie, name="main hall")
        sites.create(organization=prairie, name="Elks Lodge")
        sites.create(organization=other, name="MAIN HALL")  # another organization's: no clash

        assert _stopped(SITE_NAME, sites, 4) == (
            "House control: a site's name is unique in its organization whatever its case; rename one "
            f"of 'Main Hall' and 'main hall' (organization {prairie.pk}) before migrating."
        )

        sites.filter(pk=hall.pk).update(name="Main Hall East")  # renamed, as the message asks
        sites = _applied(SITE_NAME, "cardroom.Site", organization_id=prairie.pk, name="ELKS lodge")
        sites.create(organization_id=other.pk, name="Elks Lodge")  # still free in another organization
        assert sorted(sites.values_list("organization__name", "name")) == [
            ("Other", "Elks Lodge"),
            ("Other", "MAIN HALL"),
            ("Prairie", "Elks Lodge"),
            ("Prairie", "Main Hall East"),
            ("Prairie", "main hall"),
        ]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_logins_differing_only_in_case_stop_the_migration_naming_them():
    with scratch_database("any-case-logins"):
        users = _just_before(LOGIN_NAME).get_model("auth", "User").objects
        jdoe = users.create(username="JDoe")
        users.create(username="jdoe")
        users.create(username="roe")

        assert _stopped(LOGIN_NAME, users, 3) == (
            "House control: a login name is unique whatever its case; rename one of 'JDoe' and 'jdoe' before migrating."
        )

        users.filter(pk=jdoe.pk).update(username="JDoe2")  # renamed, as the message asks
        users = _applied(LOGIN_NAME, "auth.User", username="ROE")
        assert sorted(users.values_list("username", flat=True)) == ["JDoe2", "jdoe", "roe"]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_licence_numbers_differing_only_in_case_or_spaces_at_an_agency_stop_the_migration_naming_them():
    with scratch_database("any-case-licences"):
        old = _just_before(LICENCE_NUMBER)
        agencies, licensees = (old.get_model("registry", m).objects for m in ("Agency", "Licensee"))
        nd, wa = (agencies.create(name=n) for n in ("ND AG", "WSGC"))

        def licence(agency, number):
            return licensees.create(agency=agency, name=number, licence_number=number, expected_from="2026-01-01")

        first = licence(nd, "ND-0042")
        for agency, number in ((nd, "nd-0042 "), (nd, " G-7 "), (wa, "ND-0042")):  # WSGC's ND-0042: no clash
            licence(agency, number)

        assert _stopped(LICENCE_NUMBER, licensees, 4) == (
            "House control: a licence number is unique at its agency whatever its case; change one of "
            "'ND-0042' and 'nd-0042 ' (agency 'ND AG') before migrating."
        )

        licensees.filter(pk=first.pk).update(licence_number="ND-0043")  # changed, as the message asks
        licensees = _applied(
            LICENCE_NUMBER,
            "registry.Licensee",
            agency_id=nd.pk,
            name="x",
            licence_number="g-7",
            expected_from="2026-01-01",
        )
        assert sorted(licensees.values_list("agency__name", "licence_number")) == [
            ("ND AG", "G-7"),  # kept trimmed, as registration keeps them now
            ("ND AG", "ND-0043"),
            ("ND AG", "nd-0042"),
            ("WSGC", "ND-0042"),
        ]
