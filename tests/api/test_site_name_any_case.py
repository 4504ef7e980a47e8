"""A site's name is unique in its organization whatever its case (house control: "Main Hall" and
"main hall" are one site to whoever picks it from a list). The service refuses a new site or a
renamed one in another case, at `name`; the database does too when two are written at once (or
past the service: cardroom migration 0027), in the same words and at the same field
(core.database_refusals), the API answering it as a 400 there; on whichever database the suite runs
(SQLite by default, PostgreSQL with DATABASE_URL). Another organization may use the same name."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from cardroom import services
from cardroom.models import SITE_NAME_TAKEN, Site
from core.database_refusals import database_refusal

TAKEN = "House control: a site of this name already exists in the organization."


def _open(manager, org, name: str) -> Site:
    return services.create_site(acting_user=manager.user, organization=org, name=name)


def _main_halls(org) -> list[str]:
    return list(Site.objects.filter(organization=org, name__iexact="main hall").values_list("name", flat=True))


def test_the_refusal_keeps_its_words():
    assert SITE_NAME_TAKEN == TAKEN


def test_a_site_named_alike_in_another_case_is_refused_at_its_name(manager, org):
    _open(manager, org, "Main Hall")
    with pytest.raises(ValidationError) as refused:
        _open(manager, org, "main hall")
    assert refused.value.message_dict == {"name": [TAKEN]}
    assert _main_halls(org) == ["Main Hall"]


def test_a_site_renamed_to_another_in_another_case_is_refused_at_its_name(manager, org, site):
    _open(manager, org, "Main Hall")
    with pytest.raises(ValidationError) as refused:
        services.update_site(acting_user=manager.user, site=site, name="MAIN HALL")
    assert refused.value.message_dict == {"name": [TAKEN]}
    site.refresh_from_db()
    assert site.name != "MAIN HALL" and _main_halls(org) == ["Main Hall"]


def test_a_site_may_change_the_case_of_its_own_name(manager, org):
    hall = _open(manager, org, "Main Hall")
    services.update_site(acting_user=manager.user, site=hall, name="MAIN HALL")
    assert _main_halls(org) == ["MAIN HALL"]


@pytest.mark.parametrize("write", ["save", "bulk_create"])
def test_the_database_refuses_a_site_named_alike_in_another_case_at_its_name(manager, org, write):
    _open(manager, org, "Main Hall")
    with pytest.raises(IntegrityError) as refused, transaction.atomic():  # past Site.clean and the service
        if write == "save":
            Site(organization=org, name="main hall").save()
        else:
            Site.objects.bulk_create([Site(organization=org, name="MAIN hall")])
    assert database_refusal(refused.value).message_dict == {"name": [TAKEN]}  # the rule its words cite
    assert _main_halls(org) == ["Main Hall"]


def test_the_api_answers_the_databases_refusal_as_a_400_at_the_name(monkeypatch, client_for, manager, org):
    """As when two terminals send it at once and both pass the service's look: the checks of the
    model are skipped here, so that the second meets the constraint itself."""
    _open(manager, org, "Main Hall")
    monkeypatch.setattr(Site, "clean", lambda self: None)
    monkeypatch.setattr(Site, "validate_constraints", lambda self, exclude=None: None)
    Site(organization=org, name="main hall").full_clean()  # the model's checks pass it now
    response = client_for(manager).post("/api/v1/sites/", {"name": "main hall"}, format="json")
    assert response.status_code == 400, response.content
    assert response.json() == {"name": [TAKEN]}
    assert _main_halls(org) == ["Main Hall"]


def test_another_organization_may_use_the_same_name(manager, org, stranger_site):
    _open(manager, org, "Main Hall")
    other = stranger_site.organization
    Site(organization=other, name="main hall").full_clean()  # neither its check
    Site.objects.create(organization=other, name="main hall")  # nor the database's refuses it
    assert _main_halls(org) == ["Main Hall"] and _main_halls(other) == ["main hall"]
