"""A licensee's filings on the registry's pages: its page links "Its filings received", the
filings page kept to that licensee (`?licensee=`), as the alerts page is, its older pages too.
A licensee not of the agency, or not a licensee's id, is refused naming the filter (400), with
nothing listed. Before, the licensee's page listed its credentials only and the filings page
every licensee's, so a regulator looking at one licensee read through them all."""

import pytest

from registry import services

from .test_registry_api import package
from .test_registry_supervisor_pages import licensee_page, world  # noqa: F401  (fixture)

FILINGS_PAGE = "/registry/filings/"


@pytest.fixture
def filed(world):  # noqa: F811
    """Elks files two quarters; Moose, a second licensee of the agency, one."""
    moose, _ = services.register_licensee(
        acting_user=None, agency_name=world["agency"].name, jurisdiction="ND", contact="",
        name="Moose", licence_number="G-2", expected_from=world["elks"].expected_from,
    )  # fmt: skip
    moose_credential = services.issue_credential(acting_user=None, licensee=moose).credential
    elks_credential = world["issued"].credential
    sent = [
        (elks_credential, package(site_id=7, quarter="2026Q2")),
        (moose_credential, package(site_id=9, quarter="2026Q2", licence="G-2", name="Moose")),
        (elks_credential, package(site_id=7, quarter="2026Q3")),
    ]
    receipts = [
        services.receive_filing(credential=c, idempotency_key=f"k-{n}", package=p)[0].receipt_number
        for n, (c, p) in enumerate(sent)
    ]
    return {**world, "moose": moose, "elks_receipts": [receipts[0], receipts[2]], "moose_receipts": [receipts[1]]}


def test_the_licensees_page_links_its_filings_and_the_page_lists_only_its_own(filed):
    auditor = filed["auditor"]
    page = auditor.get(licensee_page(filed["elks"])).content.decode()
    link = f'href="{FILINGS_PAGE}?licensee={filed["elks"].pk}" id="its-filings"'
    assert link in page
    html = auditor.get(f"{FILINGS_PAGE}?licensee={filed['elks'].pk}").content.decode()
    assert all(r in html for r in filed["elks_receipts"])
    assert not any(r in html for r in filed["moose_receipts"])
    assert f'<option value="{filed["elks"].pk}" selected>' in html
    every = auditor.get(FILINGS_PAGE).content.decode()
    assert all(r in every for r in filed["elks_receipts"] + filed["moose_receipts"])


def test_the_older_filings_link_keeps_the_licensee(filed, monkeypatch):
    from registry import views

    monkeypatch.setattr(views, "PAGE", 1)
    html = filed["auditor"].get(f"{FILINGS_PAGE}?licensee={filed['elks'].pk}").content.decode()
    assert f'href="?licensee={filed["elks"].pk}&amp;offset=1">Older filings</a>' in html
    older = filed["auditor"].get(f"{FILINGS_PAGE}?licensee={filed['elks'].pk}&offset=1").content.decode()
    assert filed["elks_receipts"][0] in older and filed["moose_receipts"][0] not in older


@pytest.mark.parametrize("given", ["evergreen", "abc", "99999"])
def test_a_licensee_not_of_the_agency_or_not_an_id_is_refused_naming_the_filter(filed, given):
    raw = str(filed["evergreen"].pk) if given == "evergreen" else given  # Washington's licensee
    response = filed["auditor"].get(FILINGS_PAGE, {"licensee": raw})
    assert response.status_code == 400
    html = response.content.decode()
    assert f"licensee: no licensee &#x27;{raw}&#x27; of" in html
    assert not any(r in html for r in filed["elks_receipts"] + filed["moose_receipts"])
