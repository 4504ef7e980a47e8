"""An amendment sent to a state's registry is listed on the quarter page and in the quarterly
report by the figure it changed (once: its receipt is listed by its number) in the words of the site's pack: the win at a Washington site
(its texts name no AGP), AGP at North Dakota's. The package keeps the format's key."""

import pytest

from registry import services as registry
from statefiling import services
from statefiling.models import Submission
from tests.accounting.test_quarter_filing import text
from tests.reports.test_kind_daily import download, run_report

from .registry_in_process import URL
from .test_amendments import adjust, file_q3

pytestmark = pytest.mark.usefixtures("quarter_played")


@pytest.mark.parametrize(("code", "word", "foreign"), [("WA-HB", "Win", "AGP"), ("ND", "AGP", "Win")])
def test_an_amendment_at_the_registry_is_listed_by_its_figure_in_the_sites_packs_words(
    in_process_registry, licensee, client_for, manager, site, table, org, client, code, word, foreign
):
    site.jurisdiction = code
    site.save(update_fields=["jurisdiction"])
    issued = registry.issue_credential(acting_user=None, licensee=licensee)
    services.connect_registry(
        acting_user=manager.user, organization=org, jurisdiction=code, url=URL, credential=issued.secret
    )
    api = client_for(manager)
    file_q3(api, site)
    queued = adjust(api, site, table)
    assert isinstance(queued, Submission) and queued.package["figures"]["amendment"]["figure"] == "agp_cents"
    client.force_login(manager.user)
    page = client.get(f"/dashboard/quarter/?site={site.pk}&quarter=2026Q3").content.decode()
    listed = page[page.index('id="filing-amendments"') :].split("</ul>")[0]
    assert f"Amendment {queued.amendment_id}: {word} +$50.00, by " in listed
    assert f": {foreign} +" not in listed
    # Its receipt is listed once more by its number only: the figure and change are not said twice.
    receipts = page[page.index('id="state-amendment-receipts"') :].split("</ul>")[0]
    assert f"Amendment {queued.amendment_id}: " in receipts and "+$50.00" not in receipts
    report = text(download(api, run_report(api, kind="quarterly", site=site.pk, quarter="2026Q3")))
    assert f"Amendment {queued.amendment_id}: {word} +$50.00, by " in report
    assert report.count(f"Amendment {queued.amendment_id}: {word} +$50.00") == 1  # not again with its receipt
