"""A package the state's registry receives says what was true when the quarter was filed: the
dealers' hold is frozen at filing (a quarter filed before the organization linked and sent later
names each dealer's identifier as filed, not as changed since), and a return the registry refused
for the licence number it named goes again, once the gaming manager corrects the number and links
again, naming the corrected number (only the envelope naming the filer is rebuilt; the filed
figures stay as frozen). The registry is reachable in this process (registry_in_process)."""

from datetime import date

import pytest
from django.db import DatabaseError, connection, transaction

from accounting import services as accounting
from cardroom.models import Role
from core import filing_package
from core.models import AuditEvent
from registry.models import Agency, Licensee, ReceivedDealerHold, ReceivedFiling
from statefiling import delivery, services
from statefiling.models import FiledDealers, Submission
from tests.accounting.scenario import Scenario, shift
from tests.accounting.test_quarter_filing import play
from tests.factories import TableFactory, make_person

from .test_amendments import file_q3
from .test_dealer_holds import set_identifier
from .test_relink import relink

DAY = date(2026, 8, 14)
WSGC = "Washington State Gambling Commission"


@pytest.fixture
def washington_quarter(site, org, people, manager, client_for):
    """A Washington house-banked site's 2026Q3: one day dealt by a dealer licensed B-12345, its
    books closed."""
    site.jurisdiction = "WA-HB"
    site.save()
    dealer = make_person(org, Role.DEALER, site)
    assert set_identifier(client_for(manager), dealer, "B-12345").status_code == 200
    scenario = Scenario(site, people)
    table = TableFactory(site=site, number=1)
    play(scenario, table, DAY)
    shift(scenario, table, dealer, DAY, 18, 26)
    accounting.close_books(acting_user=manager.user, site=site, gaming_date=DAY)
    return dealer


def test_an_earlier_quarter_sent_later_names_each_dealer_as_filed_not_as_changed_since(
    washington_quarter, in_process_registry, site, org, manager, client_for
):
    api = client_for(manager)
    filed = api.post(f"/api/v1/sites/{site.pk}/quarter-filing/", {"quarter": "2026Q3"}, format="json")
    assert filed.status_code == 201, filed.content
    assert not Submission.objects.exists()  # no registry linked: nothing sent, the hold frozen all the same
    frozen = FiledDealers.objects.get(filing_id=filed.json()["id"])
    assert [d["identifier"] for d in frozen.dealers] == ["B-12345"]
    assert frozen.dealers_sha256 == FiledDealers.digest(frozen.dealers, frozen.dealers_without_identifier)

    # the dealer's licence number changes after the filing (the commission issued a new one)
    assert set_identifier(api, washington_quarter, "B-67890").status_code == 200
    agency = Agency.objects.create(name=WSGC, jurisdiction="WA-HB")
    licensee = Licensee.objects.create(
        agency=agency, name=org.name, licence_number=org.licence_number or "WSGC-1", expected_from=date(2026, 1, 1)
    )
    relink(manager, org, licensee, "WA-HB")
    [sent] = services.send_earlier_filings(acting_user=manager.user, organization=org, jurisdiction="WA-HB")
    assert delivery.deliver(sent.pk) == "delivered"

    assert [(d["identifier"], d["name"]) for d in sent.package["dealers"]] == [
        (d["identifier"], d["name"]) for d in frozen.dealers
    ]
    assert list(ReceivedDealerHold.objects.values_list("identifier", flat=True)) == ["B-12345"]


def test_the_dealers_hold_frozen_at_filing_is_append_only_in_the_database(
    washington_quarter, site, manager, client_for
):
    filed = client_for(manager).post(f"/api/v1/sites/{site.pk}/quarter-filing/", {"quarter": "2026Q3"}, format="json")
    assert filed.status_code == 201, filed.content
    frozen = FiledDealers.objects.get(filing_id=filed.json()["id"])
    for sql in (
        "UPDATE statefiling_fileddealers SET dealers_without_identifier = 7",
        "DELETE FROM statefiling_fileddealers",
    ):
        with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql)
    kept = FiledDealers.objects.get(pk=frozen.pk)
    assert (kept.dealers, kept.dealers_without_identifier) == (frozen.dealers, frozen.dealers_without_identifier)
    assert AuditEvent.objects.filter(
        action="row.created", row_table="statefiling_fileddealers", row_pk=frozen.pk
    ).exists()


def _licence_in_the_admin(client, manager, org, licence: str) -> None:
    """The gaming manager sets the organization's licence number (the Django admin, audited)."""
    client.force_login(manager.user)
    response = client.post(
        f"/admin/cardroom/organization/{org.pk}/change/", {"name": org.name, "licence_number": licence}
    )
    assert response.status_code == 302, response.content.decode()
    org.refresh_from_db()
    assert org.licence_number == licence


@pytest.mark.usefixtures("quarter_played")
def test_a_return_refused_for_its_licence_number_goes_again_with_the_corrected_number_once_relinked(
    in_process_registry, licensee, org, manager, client_for, client, site
):
    _licence_in_the_admin(client, manager, org, "ND-GC-0471")  # a typo: the agency licensed ND-GC-0417
    Licensee.objects.filter(pk=licensee.pk).update(licence_number="ND-GC-0417")
    relink(manager, org, licensee)
    submission = file_q3(client_for(manager), site)
    assert delivery.deliver(submission.pk) == "refused"
    refused = Submission.objects.get(pk=submission.pk)
    assert "organization.licence_number" in refused.last_error and "ND-GC-0471" in refused.last_error

    _licence_in_the_admin(client, manager, org, "ND-GC-0417")
    link = relink(manager, org, licensee)
    event = AuditEvent.objects.filter(action="registry.connected").latest("seq")
    assert event.after["resent"] == [submission.pk] and event.after["rebuilt"] == [submission.pk]
    assert delivery.deliver(submission.pk) == "delivered"

    sent = Submission.objects.get(pk=submission.pk)
    assert sent.link_id == link.pk and sent.package["organization"]["licence_number"] == "ND-GC-0417"
    assert sent.package_sha256 == filing_package.digest(sent.package) != refused.package_sha256
    assert sent.idempotency_key == refused.idempotency_key  # the registry kept nothing of the refused request
    # only the envelope naming the filer was rebuilt: the filed figures, dealers and reports as frozen
    assert {k: v for k, v in sent.package.items() if k != "organization"} == {
        k: v for k, v in refused.package.items() if k != "organization"
    }
    held = ReceivedFiling.objects.get()
    assert held.package["organization"]["licence_number"] == "ND-GC-0417"
    assert held.package_sha256 == sent.package_sha256


@pytest.mark.usefixtures("quarter_played")
def test_a_package_relinked_with_its_filer_unchanged_goes_as_built(linked, licensee, org, manager, client_for, site):
    submission = file_q3(client_for(manager), site)  # waiting, not yet sent
    built = Submission.objects.get(pk=submission.pk)
    relink(manager, org, licensee)
    event = AuditEvent.objects.filter(action="registry.connected").latest("seq")
    assert event.after["resent"] == [submission.pk] and event.after["rebuilt"] == []
    moved = Submission.objects.get(pk=submission.pk)
    assert (moved.package, moved.package_sha256, moved.idempotency_key) == (
        built.package,
        built.package_sha256,
        built.idempotency_key,
    )
