"""An employee's initials are unique in the organization whatever their case: they sign forms, and
a badge is looked up by them without regard to case (cardroom.pins), so "JR" and "jr" would be one
badge for two people. No pack's text says it: the refusal names the field and House control. The
service refuses them; the database does too when two are written at once (or past the service), in
the very same words (core.database_refusals keeps a constraint's message that names its rule), on
whichever database the suite runs (SQLite by default, PostgreSQL with DATABASE_URL)."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from cardroom import services
from cardroom.models import Employee
from core.database_refusals import database_refusal
from tests.factories import UserFactory

WORDS = "House control: initials are unique in the organization whatever their case: they sign forms."


def _hire(manager, org, initials: str, username: str):
    return services.create_employee(
        acting_user=manager.user,
        organization=org,
        username=username,
        password="a long enough pass phrase 77",
        initials=initials,
    )


def test_initials_differing_only_in_case_are_refused(manager, org):
    _hire(manager, org, "JR", "jane")
    with pytest.raises(ValidationError) as refused:
        _hire(manager, org, "jr", "roe")
    assert refused.value.message_dict == {"initials": [WORDS]}
    assert Employee.objects.filter(organization=org, initials__iexact="jr").count() == 1


def test_the_database_refuses_initials_differing_only_in_case_in_the_same_words(manager, org):
    _hire(manager, org, "JR", "jane")
    with pytest.raises(IntegrityError) as refused, transaction.atomic():
        Employee.objects.create(organization=org, user=UserFactory(), initials="jr")
    refusal = database_refusal(refused.value)  # keyed to the field inside Lower(), not the organization
    assert refusal.message_dict == {"initials": [WORDS]}
    assert Employee.objects.filter(organization=org, initials__iexact="jr").count() == 1


def test_another_organization_may_use_the_same_initials(manager, org, stranger_site):
    _hire(manager, org, "JR", "jane")
    Employee.objects.create(organization=stranger_site.organization, user=UserFactory(), initials="jr")
    assert Employee.objects.filter(initials__iexact="jr").count() == 2
