"""North Dakota's written procedures an organization adopts, kept as versioned, append-only records
of the organization (approvals.WrittenProcedure): its dealers' standard shuffle and cut, with the
idle period after which a dealer may reshuffle (ND 99-01.3-08-08(1), (2)), its chip redemption
procedure (08-06(2)) and an alternative written policy for dealing mistakes (08-12). Recorded by a
gaming manager only, through the API and the page (one service), offered only where a site of the
organization is under a pack that states them."""

import html
from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from approvals import services
from approvals.models import WrittenProcedure
from approvals.queries import procedures_in_force, site_today
from cardroom.models import Role, Site
from cardroom.navigation import menu_for
from core.appendonly import ImmutableRecordError
from core.models import AuditEvent
from tests.factories import OrganizationFactory, SiteFactory, make_person

CHIPS = "Chips redeemed are separated by value in the rack and counted down in view of the player."
SHUFFLE = "Riffle three times, strip once, riffle once; the player on the dealer's left cuts."


@pytest.fixture
def site(org):
    """The cast's site: North Dakota."""
    return SiteFactory(organization=org, name="Elks Lodge", jurisdiction="ND", time_zone="America/Chicago")


@pytest.fixture
def manager(cast):
    return cast[Role.GAMING_MANAGER]


@pytest.fixture
def today(site):
    return site_today(site)


def post(api, **body):
    return api.post("/api/v1/written-procedures/", body, format="json")


def test_a_gaming_manager_records_versions_and_a_later_one_supersedes_from_its_date(client_for, manager, org, today):
    api = client_for(manager)
    first = post(api, kind="chip_redemption", text=CHIPS, effective_on=str(today - timedelta(days=30)))
    assert first.status_code == 201, first.json()
    assert first.json()["version"] == 1 and first.json()["adopted_by"] == manager.pk
    second = post(
        api,
        kind="chip_redemption",
        text="Summary: by value, counted twice.",
        document_reference="Cage manual, section 2",
        effective_on=str(today + timedelta(days=10)),
    )
    assert second.status_code == 201, second.json()
    assert second.json()["version"] == 2 and second.json()["supersedes"] == first.json()["id"]
    assert procedures_in_force([org.pk], today)[(org.pk, "chip_redemption")].version == 1
    assert procedures_in_force([org.pk], today + timedelta(days=10))[(org.pk, "chip_redemption")].version == 2
    assert procedures_in_force([org.pk], today - timedelta(days=31)) == {}
    listed = api.get("/api/v1/written-procedures/", {"kind": "chip_redemption"}).json()["results"]
    assert [row["version"] for row in listed] == [1, 2]
    events = AuditEvent.objects.filter(action="written_procedure.recorded", organization_id=org.pk)
    assert events.count() == 2


def test_the_shuffle_procedure_keeps_its_idle_period(client_for, manager, today):
    answer = post(
        client_for(manager),
        kind="shuffle_and_cut",
        text=SHUFFLE,
        effective_on=str(today),
        reshuffle_idle_minutes=30,
    )
    assert answer.status_code == 201, answer.json()
    assert answer.json()["reshuffle_idle_minutes"] == 30


def test_recording_one_reads_the_organizations_sites_once(manager, org, today):
    """The kind's check and the idle period's citation read the same sites' jurisdictions: once."""
    with CaptureQueriesContext(connection) as queries:
        services.record_written_procedure(
            acting_user=manager.user, organization=org, kind="shuffle_and_cut", text=SHUFFLE, effective_on=today,
            reshuffle_idle_minutes=30,
        )  # fmt: skip
    site_table = f'FROM "{Site._meta.db_table}"'
    assert [q["sql"] for q in queries.captured_queries if site_table in q["sql"]] != []
    assert len([q for q in queries.captured_queries if site_table in q["sql"]]) == 1


@pytest.mark.parametrize("role", [Role.SHIFT_MANAGER, Role.AUDITOR])
def test_only_a_gaming_manager_records_one(client_for, cast, role, today):
    answer = post(client_for(cast[role]), kind="chip_redemption", text=CHIPS, effective_on=str(today))
    assert answer.status_code == 403
    assert "only a gaming manager" in answer.json()["detail"]
    assert not WrittenProcedure.objects.exists()


def test_another_organization_neither_records_nor_reads_ours(client_for, manager, org, stranger_site, today):
    stranger = make_person(stranger_site.organization, Role.GAMING_MANAGER)
    with pytest.raises(PermissionDenied):
        services.record_written_procedure(
            acting_user=stranger.user, organization=org, kind="chip_redemption", text=CHIPS, effective_on=today
        )
    assert post(client_for(manager), kind="chip_redemption", text=CHIPS, effective_on=str(today)).status_code == 201
    assert client_for(stranger).get("/api/v1/written-procedures/").json()["results"] == []


@pytest.mark.parametrize(
    "body,field",
    [
        ({"kind": "chip_redemption", "text": "  "}, "text"),
        ({"kind": "chip_redemption", "text": CHIPS, "reshuffle_idle_minutes": 30}, "reshuffle_idle_minutes"),
        ({"kind": "shuffle_and_cut", "text": SHUFFLE, "reshuffle_idle_minutes": 0}, "reshuffle_idle_minutes"),
        ({"kind": "shuffle_and_cut", "text": SHUFFLE, "reshuffle_idle_minutes": 1441}, "reshuffle_idle_minutes"),
        ({"kind": "house_rules", "text": CHIPS}, "kind"),
        ({"kind": "chip_redemption", "text": CHIPS, "effective_on": "1900-01-01"}, "effective_on"),
    ],
)
def test_bad_input_is_refused_naming_the_field(client_for, manager, today, body, field):
    answer = post(client_for(manager), **{"effective_on": str(today), **body})
    assert answer.status_code == 400 and field in answer.json(), answer.json()
    assert not WrittenProcedure.objects.exists()


def test_a_version_may_not_take_effect_before_the_one_it_supersedes(client_for, manager, today):
    api = client_for(manager)
    assert post(api, kind="shuffle_and_cut", text=SHUFFLE, effective_on=str(today)).status_code == 201
    earlier = post(api, kind="shuffle_and_cut", text=SHUFFLE, effective_on=str(today - timedelta(days=1)))
    assert earlier.status_code == 400
    assert earlier.json()["effective_on"][0].startswith("House control: a new version takes effect on or after")
    assert WrittenProcedure.objects.count() == 1


def test_a_version_is_never_updated_or_deleted(manager, org, today):
    procedure = services.record_written_procedure(
        acting_user=manager.user, organization=org, kind="chip_redemption", text=CHIPS, effective_on=today
    )
    procedure.text = "changed"
    with pytest.raises(ImmutableRecordError):
        procedure.save()
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE approvals_writtenprocedure SET text = 'changed'")
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM approvals_writtenprocedure")
    assert WrittenProcedure.objects.get().text == CHIPS


def test_the_page_lists_them_with_citations_and_a_manager_adds_a_version(client, manager, today):
    client.force_login(manager.user)
    page = client.get("/approvals/procedures/").content.decode()
    for citation in ("ND 99-01.3-08-08(1)", "ND 99-01.3-08-06(2)", "ND 99-01.3-08-12"):
        assert f"({citation})" in page
    assert page.count("none in force") == 2 and 'id="procedure-form"' in page
    answer = client.post(
        "/approvals/procedures/",
        {"kind": "shuffle_and_cut", "text": SHUFFLE, "effective_on": str(today), "reshuffle_idle_minutes": "20"},
        follow=True,
    )
    shown = answer.content.decode()
    assert "ND 99-01.3-08-08(1): Shuffling and cutting cards, version 1, is recorded" in shown
    assert "a dealer may reshuffle after 20 minutes with no activity at the table (ND 99-01.3-08-08(2))" in shown
    assert shown.count("none in force") == 1
    refused = client.post("/approvals/procedures/", {"kind": "chip_redemption", "text": "", "effective_on": str(today)})
    assert refused.status_code == 400 and WrittenProcedure.objects.count() == 1


def test_an_auditor_reads_the_page_and_may_not_post(client, cast, today):
    client.force_login(cast[Role.AUDITOR].user)
    page = client.get("/approvals/procedures/")
    assert page.status_code == 200 and 'id="procedure-form"' not in page.content.decode()
    posted = client.post(
        "/approvals/procedures/", {"kind": "chip_redemption", "text": CHIPS, "effective_on": str(today)}
    )
    assert posted.status_code == 403 and not WrittenProcedure.objects.exists()


@pytest.mark.parametrize("code", ["WA-HB", "WA-BJ", "NY"])
def test_an_organization_under_another_pack_is_not_offered_them(client_for, org, code):
    organization = OrganizationFactory(name="Elsewhere Club")
    elsewhere = SiteFactory(organization=organization, name="Elsewhere", jurisdiction=code)
    manager = make_person(organization, Role.GAMING_MANAGER)
    answer = post(client_for(manager), kind="chip_redemption", text=CHIPS, effective_on=str(site_today(elsewhere)))
    assert answer.status_code == 400 and answer.json()["kind"][0].startswith("House control:")
    offered = {item.label for items in menu_for({Role.GAMING_MANAGER}, {code}).values() for item in items}
    assert "Written procedures" not in offered
    assert "Written procedures" in {
        item.label for items in menu_for({Role.GAMING_MANAGER}, {"ND"}).values() for item in items
    }


@pytest.mark.parametrize("role", [Role.DEALER, Role.CASHIER, Role.SHIFT_MANAGER, Role.COUNT_TEAM])
def test_the_people_who_follow_them_read_the_page_and_may_not_post(client, cast, manager, org, today, role):
    """A dealer follows the shuffle and the dealing-mistakes policy, a cashier the chip redemption:
    every employee reads the procedures in force (as the API's list answers them), from the floor's
    menu; only a gaming manager records one, and the refusal says so."""
    services.record_written_procedure(
        acting_user=manager.user, organization=org, kind="chip_redemption", text=CHIPS, effective_on=today
    )
    client.force_login(cast[role].user)
    page = client.get("/approvals/procedures/")
    shown = page.content.decode()
    assert page.status_code == 200 and CHIPS in shown and 'id="procedure-form"' not in shown
    posted = client.post(
        "/approvals/procedures/", {"kind": "chip_redemption", "text": SHUFFLE, "effective_on": str(today)}
    )
    assert (
        posted.status_code == 403 and "only a gaming manager may record a written procedure" in posted.content.decode()
    )
    assert WrittenProcedure.objects.count() == 1
    sections = {section: {item.label for item in items} for section, items in menu_for({role}, {"ND"}).items()}
    assert "Written procedures" in sections.get("Floor", set()) and "Setup" not in sections
    elsewhere = {item.label for items in menu_for({role}, {"WA-BJ"}).values() for item in items}
    assert "Written procedures" not in elsewhere


def test_someone_of_no_organization_is_refused_naming_the_procedures(client, django_user_model):
    """A signed-in user who is no organization's employee is refused with the procedures' own words,
    not the approvals register's."""
    client.force_login(django_user_model.objects.create_user("visitor", password="x"))
    answer = client.get("/approvals/procedures/")
    shown = html.unescape(answer.content.decode())
    assert answer.status_code == 403
    assert "may see the organization's written procedures" in shown and "game approvals" not in shown
