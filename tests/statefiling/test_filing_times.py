"""A filing's time and its receipt's, wherever they are shown, are the site's local time: a
quarter filed at 20:01 in Bismarck (America/Chicago) is 02:01 UTC the next day, and every page,
refusal, PDF and alert says 2026-11-30, never the UTC date 2026-12-01."""

from datetime import UTC, datetime

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.test import Client

from registry.models import Regulator, RegulatorRole
from statefiling import delivery
from tests.accounting.test_quarter_filing import text
from tests.reports.test_kind_daily import download, run_report

from .test_amendments import adjust, file_q3

pytestmark = pytest.mark.usefixtures("quarter_played")
EVENING = datetime(2026, 12, 1, 2, 1, tzinfo=UTC)  # 2026-11-30 20:01 CST at Bismarck


def test_a_filing_made_in_the_evening_shows_the_sites_date_everywhere(
    linked, licensee, client_for, manager, site, table, client
):
    api = client_for(manager)
    with time_machine.travel(EVENING, tick=False):
        original = file_q3(api, site)
        assert delivery.deliver(original.pk) == "delivered"
        queued = adjust(api, site, table)
        assert delivery.deliver(queued.pk) == "delivered"

    client.force_login(manager.user)
    page = client.get(f"/dashboard/quarter/?site={site.pk}&quarter=2026Q3").content.decode()
    statement = page[page.index('id="filing-statement"') : page.index("</ul>", page.index('id="state-receipt"'))]
    assert "2026-11-30 20:01 CST" in statement and "2026-12-01" not in statement and "UTC" not in statement
    refused = client.post(f"/dashboard/quarter/file/?site={site.pk}", {"quarter": "2026Q3"}, follow=True)
    message = refused.content.decode()
    assert "was filed on 2026-11-30 20:01 CST" in message and "2026-12-01" not in message

    pdf = text(download(api, run_report(api, kind="quarterly", site=site.pk, quarter="2026Q3")))
    assert "Received by" in pdf and "2026-12-01" not in pdf and "UTC" not in pdf

    alert = api.get("/api/v1/alerts/", {"rule": "filed_return_amended"}).json()["results"][0]
    assert "was filed on 2026-11-30 " in alert["action_required"] and "2026-12-01" not in alert["action_required"]

    user = get_user_model().objects.create_user("state", password="x")
    Regulator.objects.create(user=user, agency=licensee.agency, role=RegulatorRole.STATE_AUDITOR)
    state = Client()
    state.force_login(user)
    for address in ("/registry/filings/", "/registry/quarter/?quarter=2026Q3"):
        html = state.get(address).content.decode()
        assert "2026-11-30 20:01" in html and "2026-12-01" not in html and "T20:01" not in html, address
