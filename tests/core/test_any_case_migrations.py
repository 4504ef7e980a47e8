"""The migrations that make a name unique whatever its case (cardroom 0025: an organization's name;
0026: an employee's initials in the organization; 0027: a site's name in the organization; 0028: a
login's name) stop where existing rows already differ only in
case, naming them, so that someone renames one and migrates again, instead of failing on the
database's own words (or, where a database made the index anyway, keeping both); and on data
without such rows they apply, the constraint then refusing a second row in another case.

On an empty database of its own (tests/scratch_database.py) migrated to just before each
migration, the clashing rows written through the models as they were then, on whichever database
the suite runs (SQLite by default, PostgreSQL with DATABASE_URL)."""

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.recorder import MigrationRecorder

from tests.scratch_database import migrate, scratch_database

ORGANIZATION_NAME = ("cardroom", "0025_organization_name_unique_any_case")
EMPLOYEE_INITIALS = ("cardroom", "0026_employee_initials_unique_any_case")
SITE_NAME = ("cardroom", "0027_site_name_unique_in_org_any_case")
LOGIN_NAME = ("cardroom", "0028_login_name_unique_any_case")


def _before(executor, key):
    """The models as they were just before the migration `key` (every earlier one applied)."""
    assert key not in executor.loader.applied_migrations
    return executor.loader.project_state(key, at_end=False).apps


def _after(key):
    """Migrate to `key` and return the models as they are then."""
    executor = migrate([key])
    assert key in executor.loader.applied_migrations
    return executor.loader.project_state(key).apps


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_an_organization_name_differing_only_in_case_stops_the_migration_naming_both():
    with scratch_database("any-case-organization"):
        executor = migrate([("cardroom", "0024_chip_marking")])
        organizations = _before(executor, ORGANIZATION_NAME).get_model("cardroom", "Organization").objects
        organizations.create(name="Prairie Charities")
        jane = organizations.create(name="Jane Roe Charities")
        organizations.create(name="JANE ROE charities")

        with pytest.raises(RuntimeError) as refused:
            migrate([ORGANIZATION_NAME])
        assert str(refused.value) == (
            "House control: an organization's name is unique whatever its case; rename one of "
            "'Jane Roe Charities' and 'JANE ROE charities' before migrating."
        )
        assert ORGANIZATION_NAME not in MigrationRecorder(connection).applied_migrations()  # nothing half applied
        assert organizations.count() == 3

        organizations.filter(pk=jane.pk).update(name="Jane Roe Fund")  # renamed, as the message asks
        organizations = _after(ORGANIZATION_NAME).get_model("cardroom", "Organization").objects
        with pytest.raises(IntegrityError), transaction.atomic():
            organizations.create(name="prairie CHARITIES")
        assert sorted(organizations.values_list("name", flat=True)) == [
            "JANE ROE charities",
            "Jane Roe Fund",
            "Prairie Charities",
        ]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_initials_differing_only_in_case_in_an_organization_stop_the_migration_naming_them():
    with scratch_database("any-case-initials"):
        executor = migrate([("cardroom", "0025_organization_name_unique_any_case")])
        old = _before(executor, EMPLOYEE_INITIALS)
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

        with pytest.raises(RuntimeError) as refused:
            migrate([EMPLOYEE_INITIALS])
        assert str(refused.value) == (
            "Initials must be unique in the organization whatever their case: they sign forms; change one "
            f"of 'JR' and 'jr' (organization {prairie.pk}) before migrating."
        )
        assert EMPLOYEE_INITIALS not in MigrationRecorder(connection).applied_migrations()
        assert employees.count() == 4

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
        executor = migrate([EMPLOYEE_INITIALS])
        old = _before(executor, SITE_NAME)
        sites = old.get_model("cardroom", "Site").objects
        prairie, other = (
            old.get_model("cardroom", "Organization").objects.create(name=n) for n in ("Prairie", "Other")
        )
        hall = sites.create(organization=prairie, name="Main Hall")
        sites.create(organization=prairie, name="main hall")
        sites.create(organization=prairie, name="Elks Lodge")
        sites.create(organization=other, name="MAIN HALL")  # another organization's: no clash

        with pytest.raises(RuntimeError) as refused:
            migrate([SITE_NAME])
        assert str(refused.value) == (
            "House control: a site's name is unique in its organization whatever its case; rename one "
            f"of 'Main Hall' and 'main hall' (organization {prairie.pk}) before migrating."
        )
        assert SITE_NAME not in MigrationRecorder(connection).applied_migrations()
        assert sites.count() == 4

        sites.filter(pk=hall.pk).update(name="Main Hall East")  # renamed, as the message asks
        sites = _after(SITE_NAME).get_model("cardroom", "Site").objects
        with pytest.raises(IntegrityError), transaction.atomic():
            sites.create(organization_id=prairie.pk, name="ELKS lodge")
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
        executor = migrate([SITE_NAME, ("auth", "0012_alter_user_first_name_max_length")])
        users = _before(executor, LOGIN_NAME).get_model("auth", "User").objects
        jdoe = users.create(username="JDoe")
        users.create(username="jdoe")
        users.create(username="roe")

        with pytest.raises(RuntimeError) as refused:
            migrate([LOGIN_NAME])
        assert str(refused.value) == (
            "House control: a login name is unique whatever its case; rename one of 'JDoe' and 'jdoe' before migrating."
        )
        assert LOGIN_NAME not in MigrationRecorder(connection).applied_migrations()
        assert users.count() == 3

        users.filter(pk=jdoe.pk).update(username="JDoe2")  # renamed, as the message asks
        users = _after(LOGIN_NAME).get_model("auth", "User").objects
        with pytest.raises(IntegrityError), transaction.atomic():
            users.create(username="ROE")
        assert sorted(users.values_list("username", flat=True)) == ["JDoe2", "jdoe", "roe"]
