"""What a licensee sends the registry that the registry cannot hold or read (a number beyond its
database's, a figure its quarter's page reads that is not an amount, a PDF or a moment named by
something else) is a 400 at the field, nothing is received, and the agency's pages still answer:
never a 500 at the licensee, never a page of the agency's staff broken by one licensee's package."""

import copy

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from core import filing_package
from core.appendonly import drop_trigger_sql, trigger_sql
from registry.models import Agency, ReceivedAlert, ReceivedAnchor, ReceivedDocument, ReceivedFiling

from .test_registry_alerts import ALERTS, alert
from .test_registry_api import ANCHORS, FILINGS, _licensee, licensee_client, package, post_filing, regulator_client
from .test_registry_documents import PDF, pdf_url, send, sent, with_report

BEYOND = 2**63  # one more than a 64-bit integer, the largest id the registry's database holds


@pytest.fixture
def agency(db):
    return Agency.objects.create(name="North Dakota Attorney General - Gaming Division", jurisdiction="ND")


@pytest.fixture
def elks(agency):
    return _licensee(agency, "Elks", "G-1")


def _figures(change):
    def apply(body):
        change(body["figures"])
        body["figures_sha256"] = filing_package.digest(body["figures"])

    return apply


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda p: p["site"].update(id=BEYOND), "site"),
        (lambda p: p.update(tax="500"), "tax"),
        (lambda p: p.update(tax={"organization_tax_cents": "500"}), "tax.organization_tax_cents"),
        (lambda p: p.update(dealers_without_identifier="two"), "dealers_without_identifier"),
        (_figures(lambda f: f["summary"]["total"].update(drop_cents="100000")), "figures.summary.total.drop_cents"),
        (_figures(lambda f: f["summary"].update(cash_profit_cents=[1])), "figures.summary.cash_profit_cents"),
        (_figures(lambda f: f.update(amendment="agp")), "figures.amendment"),
        # the quarter's tournament play, which the agency's quarter page reads beside the tables'
        (_figures(lambda f: f["summary"].update(tournaments=[1])), "figures.summary.tournaments"),
        (
            _figures(lambda f: f["summary"].update(tournaments={"agp_cents": {"x": 1}})),
            "figures.summary.tournaments.agp_cents",
        ),
        (
            _figures(lambda f: f.update(return_now=[{"figure": "AGP", "now_cents": "x"}])),
            "figures.return_now[0].now_cents",
        ),
    ],
)
def test_a_package_the_registry_cannot_hold_or_read_is_a_400_at_the_field_and_the_quarter_still_reads(
    elks, agency, client, change, field
):
    body = copy.deepcopy(package())
    change(body)
    response = post_filing(_licensee_client(elks), body)
    assert response.status_code == 400 and field in response.json()
    assert "House control" in response.json()[field][0]
    assert not ReceivedFiling.objects.exists()
    regulator_client(agency)
    client.force_login(get_user_model().objects.get(username="state"))
    for download in ("", "&format=csv", "&format=xlsx"):
        assert client.get(f"/registry/quarter/?quarter=2026Q3{download}").status_code == 200


def test_a_filed_return_as_the_organization_sends_it_is_still_received(elks):
    assert post_filing(_licensee_client(elks), package()).status_code == 201


def test_a_head_beyond_the_registrys_numbers_is_a_400_at_its_seq(elks):
    head = {"chain": "org-1", "seq": BEYOND, "hash": "a" * 64, "head_at": "2026-11-20T18:00:00+00:00"}
    response = _licensee_client(elks).post(ANCHORS, {"anchors": [head]}, format="json")
    assert response.status_code == 400 and "anchors[0].seq" in response.json()
    assert not ReceivedAnchor.objects.exists()


@pytest.mark.parametrize(
    ("sent", "field"),
    [
        (alert(ref=BEYOND), "alerts[0].id"),
        (alert(site={"id": BEYOND, "name": "Elks Lodge"}), "alerts[0].site"),
        (alert(opened_at="2026-13-01T18:00:00+00:00"), "alerts[0].opened_at"),
        (alert(resolved_at="2026-02-30T09:00:00+00:00"), "alerts[0].resolved_at"),
    ],
)
def test_an_alert_beyond_the_registrys_numbers_or_on_no_day_is_a_400_at_the_field(elks, sent, field):
    response = _licensee_client(elks).post(ALERTS, {"alerts": [sent]}, format="json")
    assert response.status_code == 400 and field in response.json()
    assert not ReceivedAlert.objects.exists()


@pytest.mark.parametrize(
    ("reports", "sent"),
    [
        ([], {"pdf_sha256": ["a" * 64], "content_base64": "JVBERi0="}),
        (5, {"pdf_sha256": "a" * 64, "content_base64": "JVBERi0="}),
        ([{"kind": "quarterly", "pdf_sha256": ["a" * 64]}], {"pdf_sha256": "a" * 64, "content_base64": "JVBERi0="}),
    ],
)
def test_a_pdf_not_named_by_a_digest_its_package_lists_is_a_400_at_pdfs(elks, reports, sent):
    body = {**package(), "reports": reports}
    response = _licensee_client(elks).post(
        FILINGS, {"package": body, "pdfs": [sent]}, format="json", HTTP_IDEMPOTENCY_KEY="k-pdf"
    )
    assert response.status_code == 400 and "pdfs" in response.json()
    assert not ReceivedFiling.objects.exists()


def _licensee_client(elks):
    return licensee_client(elks[1])


@pytest.mark.parametrize("kind", ["quarterly\r\nSet-Cookie: a=b", 'quarterly".exe', ["quarterly"], ""])
def test_a_pdf_listed_under_no_reports_kind_is_a_400_at_pdfs(elks, kind):
    body = with_report(site_id=1)
    body["reports"][0]["kind"] = kind
    response = send(_licensee_client(elks), body, sent())
    assert response.status_code == 400 and "a report's kind" in response.json()["pdfs"][0]
    assert not ReceivedFiling.objects.exists()


def test_a_pdf_held_under_a_kind_no_header_carries_still_downloads_under_a_plain_name(elks, agency):
    """A row received before kinds were checked: its download names the file in plain words, never a 500."""
    receipt = send(_licensee_client(elks), with_report(site_id=1), sent()).json()["receipt_number"]
    table = ReceivedDocument._meta.db_table
    with connection.cursor() as cursor:
        for sql in drop_trigger_sql(connection.vendor, table):
            cursor.execute(sql)
    ReceivedDocument.objects.filter(filing__receipt_number=receipt).update(kind='quarterly\n"x')
    with connection.cursor() as cursor:
        for sql in trigger_sql(connection.vendor, table):
            cursor.execute(sql, [])
    response = regulator_client(agency).get(pdf_url(receipt))
    assert response.status_code == 200 and response.content == PDF
    assert response["Content-Disposition"] == f'attachment; filename="{receipt}-quarterly--x.pdf"'
