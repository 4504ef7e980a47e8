"""An organization's name is unique whatever its case (house control: "Jane Roe" and "jane roe"
are one organization), refused in one sentence however it comes: one after the other, from two
terminals at once (the second read again inside its transaction), or written past the service
(the database's constraint, said in the same words by core.database_refusals), on whichever
database the suite runs (SQLite by default, PostgreSQL with DATABASE_URL)."""

import threading

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction

from cardroom import services
from cardroom.models import ORGANIZATION_NAME_TAKEN, Organization
from core.audit_verify import verify_chain
from core.database_refusals import database_refusal

TAKEN = "House control: an organization of this name already exists."


def _create(operator, name: str, username: str):
    return services.create_organization(
        acting_user=operator,
        name=name,
        manager_username=username,
        manager_password="a long enough pass phrase 77",
        manager_initials="M",
    )


@pytest.fixture
def operator(db):
    return get_user_model().objects.create_superuser("operator", password="operator pass phrase 1")


def test_the_refusal_keeps_its_words():
    assert ORGANIZATION_NAME_TAKEN == TAKEN


def test_a_name_differing_only_in_case_is_refused(operator):
    _create(operator, "Jane Roe", "jane")
    with pytest.raises(ValidationError) as refused:
        _create(operator, "  jane ROE ", "roe")
    assert refused.value.message_dict == {"name": [TAKEN]}
    assert list(Organization.objects.values_list("name", flat=True)) == ["Jane Roe"]


def test_the_database_refuses_a_name_differing_only_in_case_in_the_same_words(operator):
    _create(operator, "Jane Roe", "jane")
    with pytest.raises(IntegrityError) as refused, transaction.atomic():
        Organization.objects.create(name="JANE ROE")
    assert database_refusal(refused.value).message_dict == {"name": [TAKEN]}  # keyed to the field it names
    assert Organization.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_organizations_named_alike_at_once_are_one(monkeypatch, operator):
    look, done, started = services._refuse_organization_name_taken, [], []

    def other():
        try:
            done.append(_create(get_user_model().objects.get(pk=operator.pk), "jane roe", "roe"))
        except Exception as exc:  # noqa: BLE001 - asserted below
            done.append(exc)
        finally:
            connection.close()

    def look_then_create(*args, **kwargs):
        look(*args, **kwargs)
        if not started:  # another terminal creates its organization after the first look
            started.append(True)
            other_terminal = threading.Thread(target=other)
            other_terminal.start()
            other_terminal.join()

    monkeypatch.setattr(services, "_refuse_organization_name_taken", look_then_create)
    with pytest.raises(ValidationError) as refused:
        _create(operator, "Jane Roe", "jane")
    assert isinstance(done[0], tuple), done
    assert refused.value.message_dict == {"name": [TAKEN]}
    assert list(Organization.objects.values_list("name", flat=True)) == ["jane roe"]
    assert not get_user_model().objects.filter(username="jane").exists()
    assert verify_chain().ok
