"""A licensee the registry expects returns of from a later quarter (registered after a quarter's
return fell due: `Licensee.expected_from`) is not held to that quarter's due date: the licensees
page does not call its return late, and the quarter page and its downloads say its return was not
expected instead of stating a due date above it (they said "(due 2026-10-31)" of every return).
A licensee that was expected keeps its due date and whether its return came by it."""

import csv
import io
from datetime import UTC, date, datetime
from io import StringIO

import pytest
import time_machine
from django.core.management import CommandError, call_command
from openpyxl import load_workbook
from rest_framework.test import APIClient

from core.models import AuditEvent
from registry.models import Agency, Licensee

from .test_registry_api import LICENSEES, package, post_filing, regulator_client
from .test_registry_time_zone import page_client

AGENCY = "North Dakota Attorney General - Gaming Division"


def register(name: str, licence: str, expected_from: str) -> APIClient:
    """A licensee registered at the registry as an agency registers one (`registry_licensee`),
    with a client holding the credential it was issued."""
    out = StringIO()
    call_command(
        "registry_licensee",
        agency=AGENCY,
        jurisdiction="ND",
        licensee=name,
        licence=licence,
        expected_from=expected_from,
        stdout=out,
    )
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Licensee {out.getvalue().strip()}")
    return client


def test_a_return_of_a_quarter_before_the_registry_expected_the_licensee_states_no_due_date(db):
    newcomer = register("Newcomer Charities", "G-9", "2026-10-01")  # registered in November: Q4 on
    elks = register("Elks", "G-1", "2026-01-01")
    with time_machine.travel(datetime(2026, 11, 20, 18, tzinfo=UTC), tick=False):  # Q3 fell due Oct 31
        for client, key, licence in ((newcomer, "n-1", "G-9"), (elks, "e-1", "G-1")):
            filed = package(site_id=1, quarter="2026Q3", licence=licence)
            assert post_filing(client, filed, key=key).status_code == 201
        agency = Agency.objects.get(name=AGENCY)
        state = page_client(agency, "state-page")
        html = state.get("/registry/quarter/", {"quarter": "2026Q3"}).content.decode()
        text = state.get("/registry/quarter/", {"quarter": "2026Q3", "format": "csv"}).content.decode()
        book = state.get("/registry/quarter/", {"quarter": "2026Q3", "format": "xlsx"}).content
        overview = state.get("/registry/").content.decode()
        api = {v["name"]: v for v in regulator_client(agency, username="state-api").get(LICENSEES).json()["results"]}
    assert Licensee.objects.get(licence_number="G-9").expected_from == date(2026, 10, 1)

    intro = html[: html.index("<table")]
    assert "(due 2026-10-31)" not in intro  # said of every return, the newcomer's too
    assert "due 2026-10-31 from the licensees the registry expected it of; not of Newcomer Charities" in intro
    rows = {name: html[html.index(f"<td>{name} (") :].split("</tr>")[0] for name in ("Elks", "Newcomer Charities")}
    # Said short in its cell (the lead above says why): a narrow column, one line, not nine.
    expected = '<td class="due"><span class="text-nowrap">not expected</span> <span class="text-nowrap">(from 2026Q4)</span></td>'
    assert expected in rows["Newcomer Charities"]
    assert "2026-10-31" not in rows["Newcomer Charities"]
    assert '<td class="due">2026-10-31, late</td>' in rows["Elks"]  # expected: its due date kept

    downloaded = {r["licensee"]: r for r in csv.DictReader(io.StringIO(text))}
    assert (downloaded["Newcomer Charities"]["due_on"], downloaded["Newcomer Charities"]["timeliness"]) == (
        "",
        "not expected",
    )
    assert (downloaded["Elks"]["due_on"], downloaded["Elks"]["timeliness"]) == ("2026-10-31", "late")
    header, *cells = list(load_workbook(io.BytesIO(book)).active.values)
    sheet = {r["licensee"]: r for r in (dict(zip(header, c, strict=True)) for c in cells)}
    assert (sheet["Newcomer Charities"]["due_on"], sheet["Newcomer Charities"]["timeliness"]) == (None, "not expected")
    assert (sheet["Elks"]["due_on"].date(), sheet["Elks"]["timeliness"]) == (date(2026, 10, 31), "late")

    licensees = dict(Licensee.objects.values_list("name", "pk"))
    late = {
        name: row[row.index('data-label="Late"') :].split("</td>")[0]
        for name in ("Elks", "Newcomer Charities")
        for row in overview.split("<tr>")
        if f'data-label="Licensee"><a href="/registry/licensees/{licensees[name]}/">{name}</a></td>' in row
    }
    assert late["Newcomer Charities"].endswith(">none") and "Elks Lodge 2026Q3 (due 2026-10-31" in late["Elks"]
    assert "(returns expected from 2026Q4)" in overview and "(returns expected from 2026Q1)" in overview
    assert (api["Newcomer Charities"]["expected_from_quarter"], api["Newcomer Charities"]["late"]) == ("2026Q4", [])
    assert api["Elks"]["expected_from_quarter"] == "2026Q1" and [q["quarter"] for q in api["Elks"]["late"]] == [
        "2026Q3"
    ]


def test_a_package_that_carries_no_cash_profit_reads_not_known(db):
    """An older package's summary has no cash profit (nor one where no bank was counted): the
    quarter page says "not known" (never $0.00) and the downloads leave it empty."""
    elks = register("Elks", "G-1", "2026-01-01")
    assert post_filing(elks, package(site_id=1, quarter="2026Q3")).status_code == 201
    state = page_client(Agency.objects.get(name=AGENCY), "state-page")
    html = state.get("/registry/quarter/", {"quarter": "2026Q3"}).content.decode()
    text = state.get("/registry/quarter/", {"quarter": "2026Q3", "format": "csv"}).content.decode()
    assert '<td class="text-end cash-profit">not known</td>' in html
    [row] = csv.DictReader(io.StringIO(text))
    assert row["cash_profit_cents"] == "" and row["agp_cents"] == "50000"


def test_registering_a_licensee_is_audited_and_an_agency_of_another_pack_is_refused_naming_both(db):
    """`registry_licensee --jurisdiction WA-HB` naming North Dakota's agency registered the licensee
    there, silently under ND, and no audit event said a licensee was registered."""
    register("Elks", "G-1", "2026-01-01")
    event = AuditEvent.objects.get(action="registry.licensee_registered")
    licensee = Licensee.objects.get(licence_number="G-1")
    assert event.object_id == str(licensee.pk)
    assert event.after == {
        "agency": licensee.agency_id,
        "agency_name": AGENCY,
        "agency_created": True,
        "jurisdiction": "ND",
        "name": "Elks",
        "licence_number": "G-1",
        "expected_from": "2026-01-01",
    }
    register("Elks", "G-1", "2026-01-01")  # a second credential: no second registration
    assert AuditEvent.objects.filter(action="registry.licensee_registered").count() == 1
    assert AuditEvent.objects.filter(action="registry.credential_issued").count() == 2

    with pytest.raises(CommandError) as refused:
        call_command(
            "registry_licensee",
            agency=AGENCY,
            jurisdiction="WA-HB",
            licensee="River Card Room",
            licence="WSGC-1",
            stdout=StringIO(),
        )
    assert f"the agency '{AGENCY}' is under ND, not WA-HB" in str(refused.value)
    assert not Licensee.objects.filter(licence_number="WSGC-1").exists()
    assert AuditEvent.objects.filter(action="registry.licensee_registered").count() == 1
    assert AuditEvent.objects.filter(action="registry.credential_issued").count() == 2


def test_revoking_an_unknown_licensees_credential_registers_no_one(db):
    """`--revoke` naming a licence the agency does not hold created that licensee (and the agency)
    before answering that it had no credential."""
    with pytest.raises(CommandError, match="no live credential 'lic_abc' of G-404"):
        call_command(
            "registry_licensee", agency=AGENCY, licensee="Nobody", licence="G-404", revoke="lic_abc", stdout=StringIO()
        )
    assert not Licensee.objects.exists() and not Agency.objects.exists()


def test_revoking_by_a_prefix_two_live_credentials_begin_with_revokes_neither(db):
    """`--revoke lic_` (every credential begins so) revoked whichever live credential of the licence
    came first, perhaps the one the licensee files with; now it is refused, naming both, and one
    credential is revoked by its whole prefix."""
    from registry.models import Credential

    for _ in range(2):
        call_command(
            "registry_licensee", agency=AGENCY, jurisdiction="ND", licensee="Elks", licence="G-1", stdout=StringIO()
        )
    first, second = Credential.objects.order_by("pk")
    with pytest.raises(CommandError, match="begins more than one live credential of G-1") as refused:
        call_command(
            "registry_licensee", agency=AGENCY, licensee="Elks", licence="G-1", revoke="lic_", stdout=StringIO()
        )
    assert first.prefix in str(refused.value) and second.prefix in str(refused.value)
    assert not Credential.objects.filter(revoked_at__isnull=False).exists()
    call_command(
        "registry_licensee", agency=AGENCY, licensee="Elks", licence="G-1", revoke=second.prefix, stdout=StringIO()
    )
    assert list(Credential.objects.filter(revoked_at__isnull=False)) == [second]
