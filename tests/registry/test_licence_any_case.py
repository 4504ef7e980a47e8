"""A licence number is one licence at its agency whatever its case and surrounding spaces, as the
filing check reads it (house control): "nd-0042 " is "ND-0042". Registration keeps the number
trimmed and finds a licence held in another case (the command and the demo take it, to issue it a
credential; the supervisor's page refuses it at `licence_number`); the database refuses one
written past the check, as the second of two sent at once is (registry migration 0006), in the
check's very sentence (core.database_refusals), the page answering it as a 400 at the field; on
whichever database the suite runs (SQLite by default, PostgreSQL with DATABASE_URL). Another
agency may hold the same number. Before, "ND-0042" and "nd-0042 " were two licensees."""

from datetime import date
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction

from core.database_refusals import database_refusal
from core.models import AuditEvent
from registry import services
from registry.models import Agency, Licensee
from tests.race_support import after_first_look

from . import test_registry_supervisor_pages as pages
from .test_registry_supervisor_pages import AGENCY_NAME, OTHER_AGENCY, REGISTER, error_at
from .test_registry_supervisor_pages import LICENCE_TAKEN as SAID

world = pages.world  # the agencies, Elks (G-1) and the staff of the supervisor's pages

MOOSE = {"name": "Moose Lodge", "expected_from": "2026-07-01"}


def register(licence_number: str, *, agency_name=AGENCY_NAME, refuse_existing=False, name="Moose Lodge"):
    return services.register_licensee(
        acting_user=None, agency_name=agency_name, jurisdiction=None, contact="", name=name,
        licence_number=licence_number, expected_from=date(2026, 7, 1), refuse_existing=refuse_existing,
    )  # fmt: skip


def numbers(agency_name=AGENCY_NAME) -> list[str]:
    return sorted(Licensee.objects.filter(agency__name=agency_name).values_list("licence_number", flat=True))


def registrations() -> int:
    return AuditEvent.objects.filter(action="registry.licensee_registered").count()


def test_a_licence_number_is_kept_trimmed(world):
    moose, registered = register("  ND-GC-0777 ")
    assert registered and moose.licence_number == "ND-GC-0777"
    assert AuditEvent.objects.filter(action="registry.licensee_registered").last().after["licence_number"] == (
        "ND-GC-0777"
    )


@pytest.mark.parametrize("variant", ["g-1", "G-1 ", " g-1\t"])
def test_the_service_refuses_a_licence_held_in_another_case_at_its_field_and_writes_nothing(world, variant):
    before = registrations()
    with pytest.raises(ValidationError) as refused:
        register(variant, refuse_existing=True)
    assert refused.value.message_dict == {"licence_number": [SAID]}
    assert numbers() == ["G-1"] and registrations() == before


def test_the_command_finds_a_licence_held_in_another_case_and_issues_it_a_credential(world):
    before = (registrations(), world["elks"].credentials.count())
    out = StringIO()
    call_command(
        "registry_licensee", agency=AGENCY_NAME, licensee="Elks Lodge", licence=" g-1 ", stdout=out
    )  # fmt: skip
    assert numbers() == ["G-1"] and registrations() == before[0]
    assert world["elks"].credentials.count() == before[1] + 1
    assert services.credential_for(out.getvalue().strip()).licensee == world["elks"]


def test_the_page_refuses_a_licence_held_in_another_case_at_its_field_with_a_400(world):
    before = registrations()
    response = world["supervisor"].post(REGISTER, {**MOOSE, "licence_number": "g-1 "})
    assert response.status_code == 400
    assert error_at(response.content.decode(), "licence_number").count("<li>") == 1
    assert SAID in error_at(response.content.decode(), "licence_number")
    holder = f'held by <a href="/registry/licensees/{world["elks"].pk}/">{world["elks"].name}</a>'
    assert holder in response.content.decode()  # one click to the licensee holding it
    assert numbers() == ["G-1"] and registrations() == before


@pytest.mark.parametrize("write", ["save", "bulk_create"])
def test_the_database_refuses_a_licence_held_in_another_case_in_the_checks_words(world, write):
    def row(agency):
        return Licensee(agency=agency, name="Moose Lodge", licence_number="g-1", expected_from=date(2026, 7, 1))

    with pytest.raises(IntegrityError) as refused, transaction.atomic():  # past the service's check
        row(world["agency"]).save() if write == "save" else Licensee.objects.bulk_create([row(world["agency"])])
    assert database_refusal(refused.value).message_dict == {"licence_number": [SAID]}
    assert numbers() == ["G-1"]
    row(Agency.objects.get(name=OTHER_AGENCY)).save()  # another agency may hold the number
    assert numbers(OTHER_AGENCY) == ["WSGC-1", "g-1"]


def looked_before_it_was_written(monkeypatch):
    """The service's look, for a registration that looked before another of the licence (sent at
    the same moment) was written: it finds nothing the first time."""
    held, looks = services.licence_holder, []

    def first_finds_nothing(agency, licence_number):
        looks.append(licence_number)
        return None if len(looks) == 1 else held(agency, licence_number)

    monkeypatch.setattr(services, "licence_holder", first_finds_nothing)


def test_the_page_answers_the_databases_refusal_of_a_raced_registration_as_a_400_at_the_field(world, monkeypatch):
    looked_before_it_was_written(monkeypatch)
    before = registrations()
    response = world["supervisor"].post(REGISTER, {**MOOSE, "licence_number": "g-1"})
    assert response.status_code == 400
    assert SAID in error_at(response.content.decode(), "licence_number")
    holder = f'held by <a href="/registry/licensees/{world["elks"].pk}/">{world["elks"].name}</a>'
    assert holder in response.content.decode()  # one click to the licensee holding it
    assert numbers() == ["G-1"] and registrations() == before


def test_the_command_takes_the_licensee_a_raced_registration_wrote(world, monkeypatch):
    looked_before_it_was_written(monkeypatch)
    before = registrations()
    assert register("g-1") == (world["elks"], False)
    assert numbers() == ["G-1"] and registrations() == before


@pytest.mark.django_db(transaction=True)
def test_two_registrations_of_one_licence_in_two_cases_sent_at_once_register_one(world, manager, monkeypatch):
    """The second sent from another terminal right after the first looked and found the licence
    free: on PostgreSQL it is written first and the first meets the database's constraint; on
    SQLite, where writers queue, the second waits and its look finds the first. Either way one
    licensee, and the other refused at its field in the one sentence."""
    other = after_first_look(
        monkeypatch, services, "licence_holder",
        lambda user: register(" g-7", refuse_existing=True, name="Other Lodge"), manager.user,
    )  # fmt: skip
    try:
        first = register("G-7", refuse_existing=True)
    except ValidationError as exc:
        first = exc
    outcomes = [first, other.result()]
    refusals = [o for o in outcomes if isinstance(o, ValidationError)]
    assert len(refusals) == 1, outcomes
    # PostgreSQL: the first, past its look, meets the other's row at the constraint; SQLite: the other's look finds the first
    assert refusals[0] is (first if connection.vendor == "postgresql" else outcomes[1])
    assert refusals[0].message_dict == {"licence_number": [SAID]}
    assert [n for n in numbers() if n.lower() == "g-7"] in (["G-7"], ["g-7"])


def test_the_command_revokes_a_credential_of_a_licence_named_in_another_case(world):
    credential = world["issued"].credential
    call_command(
        "registry_licensee", agency=AGENCY_NAME, licensee="Elks", licence=" g-1 ", revoke=credential.prefix,
        stdout=StringIO(),
    )  # fmt: skip
    credential.refresh_from_db()
    assert credential.revoked_at is not None
