"""The daily summary's day as the daily report in one click (its PDF, CSV and XLSX): the
auditor's journey to yesterday's daily PDF was the Reports page, its kind chosen and both dates
typed; now the daily page's button requests it with that day as its period."""

import pytest

from cardroom.models import Role
from core.periods import Quarter
from reports.models import ReportRun

from .conftest import FIRST_DAY

pytestmark = pytest.mark.django_db


def test_the_daily_page_requests_its_days_daily_report_in_one_click(client, cast, site, play):
    client.force_login(cast[Role.AUDITOR].user)
    text = client.get(f"/dashboard/daily/?site={site.pk}&date={FIRST_DAY.isoformat()}").content.decode()
    form = text[text.index('id="daily-report-form"') : text.index("</form>", text.index('id="daily-report-form"'))]
    for name, value in (("kind", "daily"), ("site", site.pk), ("start", FIRST_DAY), ("end", FIRST_DAY)):
        assert f'name="{name}" value="{value}"' in form
    assert 'action="/reports/"' in text[text.index('id="daily-report-form"') - 200 :][:300]
    token = form.split('name="form_token" value="')[1].split('"')[0]
    posted = {"kind": "daily", "site": site.pk, "start": FIRST_DAY, "end": FIRST_DAY, "form_token": token}
    response = client.post("/reports/", posted)
    run = ReportRun.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/reports/{run.pk}/"
    assert (run.kind, run.site_id, run.start, run.end) == ("daily", site.pk, FIRST_DAY, FIRST_DAY)


@pytest.mark.parametrize("role", [Role.SHIFT_MANAGER, Role.CASHIER])
def test_the_daily_report_button_is_only_for_who_requests_reports(client, cast, site, play, role):
    client.force_login(cast[role].user)
    response = client.get(f"/dashboard/daily/?site={site.pk}&date={FIRST_DAY.isoformat()}")
    if response.status_code == 200:
        assert 'id="daily-report-form"' not in response.content.decode()


def test_the_quarter_page_requests_its_quarters_report_in_one_click(client, cast, site, play):
    """The quarterly report was the Reports page, its kind chosen among eleven and its quarter
    typed; the quarter page's button requests it with the page's quarter."""
    quarter = Quarter.containing(FIRST_DAY)
    client.force_login(cast[Role.AUDITOR].user)
    text = client.get(f"/dashboard/quarter/?site={site.pk}&quarter={quarter}").content.decode()
    at = text.index('id="quarterly-report-form"')
    form = text[at : text.index("</form>", at)]
    for name, value in (("kind", "quarterly"), ("site", site.pk), ("quarter", quarter)):
        assert f'name="{name}" value="{value}"' in form
    assert f"Quarterly report of {quarter} (PDF, CSV, XLSX)" in form
    token = form.split('name="form_token" value="')[1].split('"')[0]
    response = client.post("/reports/", {"kind": "quarterly", "site": site.pk, "quarter": quarter, "form_token": token})
    run = ReportRun.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/reports/{run.pk}/"
    assert (run.kind, run.site_id, run.start, run.end) == ("quarterly", site.pk, quarter.start, quarter.end)
    # A quarter not begun has no report to request (it would be refused): no button.
    later = Quarter.containing(FIRST_DAY)
    for _ in range(8):
        later = later.next()
    assert (
        'id="quarterly-report-form"'
        not in client.get(f"/dashboard/quarter/?site={site.pk}&quarter={later}").content.decode()
    )
