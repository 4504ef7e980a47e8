"""The filed quarter's PDF as received: sent with the filing, checked against the SHA-256 its
package lists, kept append-only, and downloaded byte for byte by the agency's staff (any
licensee of the agency) or by the licensee that sent it, and by no one else."""

import base64
import hashlib

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from rest_framework.test import APIClient

from registry.models import Agency, ReceivedDocument, ReceivedFiling

from .test_registry_api import FILINGS, _licensee, licensee_client, package, regulator_client

PDF = b"%PDF-1.4\n% the quarterly summary as the licensee generated it\n%%EOF\n"
SHA = hashlib.sha256(PDF).hexdigest()


def with_report(site_id=7, pdf_sha256=SHA, **extra) -> dict:
    body = package(site_id=site_id, **extra)
    body["reports"] = [
        {
            "kind": "quarterly",
            "start": "2026-07-01",
            "end": "2026-09-30",
            "generated_at": "2026-10-05T14:00:00+00:00",
            "pdf_sha256": pdf_sha256,
            "data_sha256": "b" * 64,
        }
    ]
    return body


def send(client, body, pdfs, key="k-1"):
    return client.post(FILINGS, {"package": body, "pdfs": pdfs}, format="json", HTTP_IDEMPOTENCY_KEY=key)


def sent(content=PDF, sha=SHA) -> list[dict]:
    return [{"pdf_sha256": sha, "content_base64": base64.b64encode(content).decode()}]


@pytest.fixture
def agency(db):
    return Agency.objects.create(name="North Dakota Attorney General - Gaming Division", jurisdiction="ND")


@pytest.fixture
def received(agency):
    """Elks filed with its quarterly PDF; Eagles, another licensee of the agency, filed too."""
    elks, eagles = _licensee(agency, "Elks", "G-1"), _licensee(agency, "Eagles", "G-2")
    response = send(licensee_client(elks[1]), with_report(site_id=1), sent())
    assert response.status_code == 201, response.json()
    assert send(licensee_client(eagles[1]), package(site_id=2, licence="G-2", name="Eagles"), None).status_code == 201
    return {"agency": agency, "elks": elks, "eagles": eagles, "receipt": response.json()["receipt_number"]}


def pdf_url(receipt, sha=SHA) -> str:
    return f"{FILINGS}{receipt}/pdfs/{sha}/"


def test_the_pdf_sent_with_a_filing_is_kept_as_received_and_listed_with_the_filing(received):
    document = ReceivedDocument.objects.get()
    assert (bytes(document.content), document.pdf_sha256, document.kind) == (PDF, SHA, "quarterly")
    assert document.filing.receipt_number == received["receipt"]
    body = regulator_client(received["agency"]).get(f"{FILINGS}{received['receipt']}/").json()
    assert body["documents"] == [
        {"kind": "quarterly", "pdf_sha256": SHA, "size_bytes": len(PDF), "url": pdf_url(received["receipt"])}
    ]
    with pytest.raises(IntegrityError), transaction.atomic():  # append-only in the database itself
        ReceivedDocument.objects.filter(pk=document.pk).update(content=b"%PDF forged")


def test_the_state_auditor_downloads_the_pdf_byte_for_byte_from_the_api_and_the_page(received, client):
    response = regulator_client(received["agency"]).get(pdf_url(received["receipt"]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content == PDF and hashlib.sha256(response.content).hexdigest() == SHA
    assert received["receipt"] in response["Content-Disposition"]

    user = get_user_model().objects.get(username="state")
    client.force_login(user)
    page = client.get("/registry/filings/").content.decode()
    assert f'href="{pdf_url(received["receipt"])}"' in page
    assert client.get(pdf_url(received["receipt"])).content == PDF  # the page's link, with the session


def test_the_licensee_reads_its_own_pdf_and_another_licensee_cannot(received):
    assert licensee_client(received["elks"][1]).get(pdf_url(received["receipt"])).content == PDF
    assert licensee_client(received["eagles"][1]).get(pdf_url(received["receipt"])).status_code == 404
    assert licensee_client(received["eagles"][1]).get(f"{FILINGS}{received['receipt']}/").status_code == 404


def test_another_agencys_staff_and_an_organizations_login_cannot_read_it(received):
    other = Agency.objects.create(name="Washington State Gambling Commission", jurisdiction="WA-HB")
    assert regulator_client(other, username="wa").get(pdf_url(received["receipt"])).status_code == 404
    stranger = APIClient()
    stranger.force_authenticate(get_user_model().objects.create_user("gm-elsewhere", password="x"))
    assert stranger.get(pdf_url(received["receipt"])).status_code == 403
    assert APIClient().get(pdf_url(received["receipt"])).status_code in (401, 403)


@pytest.mark.parametrize(
    ("pdfs", "why"),
    [
        (sent(content=PDF + b"tampered"), "does not hash"),  # bytes that are not the listed digest
        (sent(sha="c" * 64), "one its package lists"),  # a PDF the package does not list
        (sent() + sent(), "one its package lists"),  # the same PDF twice
        ([{"pdf_sha256": SHA, "content_base64": "not base64!"}], "base64"),
        ("a PDF", "at most"),
    ],
)
def test_a_pdf_that_is_not_the_one_the_package_lists_refuses_the_filing(agency, pdfs, why):
    elks = _licensee(agency, "Elks", "G-1")
    response = send(licensee_client(elks[1]), with_report(), pdfs)
    assert response.status_code == 400 and why in response.json()["pdfs"][0]
    assert response.json()["pdfs"][0].startswith("House control")
    assert not ReceivedFiling.objects.exists() and not ReceivedDocument.objects.exists()
