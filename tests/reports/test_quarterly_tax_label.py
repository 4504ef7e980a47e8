"""The quarterly tax reconciliation's AGP line carries each site's tournaments with its tables
(accounting.summaries.tax_row, ND 99-01.3-08-16(1)(g)): its label says so on the page, in the PDF
and in the CSV, never that it is the tables' alone."""

# ruff: noqa: F811  (pytest fixtures imported from test_kind_daily are redefined as arguments)

import pytest

from cardroom.models import Role
from tests.page_support import at_site
from tests.reports.test_kind_daily import auditor_api  # noqa: F401
from tests.reports.test_quarterly_gaming_days import Q3, quarter_played, quarterly_report  # noqa: F401

pytestmark = pytest.mark.django_db


def test_the_tax_lines_label_says_it_carries_the_tournaments_with_the_tables(
    auditor_api, client, cast, site, quarter_played
):
    text, rows = quarterly_report(auditor_api, site)
    assert "sites' tables)" not in text
    (line,) = [r for r in rows if r["row"] == "tax_line" and r["label"].startswith("AGP recorded here")]
    assert "tables and tournaments, ND 99-01.3-08-15" in line["label"]
    assert line["label"].split(" (", 1)[1].split(",")[0] in text  # the PDF's label is the CSV's
    site_line = next(r for r in rows if r["row"] == "tax_site" and r["label"] == site.name)
    assert site_line["agp"] == "100.00"  # the tournament's $100.00 entry fee: no table played
    html = at_site(client, cast[Role.GAMING_MANAGER], site).get(f"/dashboard/quarter/?quarter={Q3}").content
    label = html.decode().split('id="tax-label">', 1)[1].split("</p>", 1)[0]
    assert "tables&#x27; and their tournaments&#x27; (ND 99-01.3-08-15" in label
