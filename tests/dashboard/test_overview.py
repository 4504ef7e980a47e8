"""The auditor dashboard: weekly percent-of-hold equal to the figures API's, open alerts,
overdue obligations, slip and count exceptions, and links to the figures behind them."""

import re
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

import pytest

from accounting.figures import ratio_string
from cardroom.models import Role
from compliance.models import Alert, AlertStep

from .conftest import FIRST_DAY


def _get(client, employee, url):
    client.force_login(employee.user)
    return client.get(url)


def _week_of(data, day: date) -> int:
    return next(i for i, w in enumerate(data["weeks"]) if w["start"] <= str(day) <= w["end"])


def test_there_are_thirteen_weekly_points_ending_today(client, cast, site, play):
    data = _get(client, cast[Role.AUDITOR], f"/dashboard/data.json?site={site.pk}").json()
    assert len(data["weeks"]) == 13
    assert data["weeks"][-1] == {"start": "2026-08-14", "end": "2026-08-20"}
    assert data["weeks"][0]["start"] == "2026-05-22"


def test_a_sites_weekly_hold_is_the_ratio_of_the_sums_of_its_counted_twenty_one_table_days(
    client, client_for, cast, site, other_site, play
):
    api = client_for(cast[Role.AUDITOR])
    agp = gp = 0
    for n in range(3):
        day = api.get(f"/api/v1/sites/{site.pk}/daily-summary/?date={FIRST_DAY + timedelta(days=n)}").json()
        for table in day["tables"]:
            if table["complete"] and table["game"] == "21":
                agp, gp = agp + table["agp_cents"], gp + table["gross_proceeds_cents"]
    data = _get(client, cast[Role.AUDITOR], f"/dashboard/data.json?site={site.pk}").json()
    by_site = {s["name"]: s for s in data["sites"]}
    assert set(by_site) == {site.name, other_site.name}
    point = by_site[site.name]["points"][_week_of(data, FIRST_DAY)]
    assert (point["agp_cents"], point["gross_proceeds_cents"]) == (agp, gp)
    assert point["hold_percent"] == ratio_string(Decimal(agp) / gp * 100, 2)
    assert by_site[other_site.name]["points"][-1]["hold_percent"] is None


def test_a_dealers_weekly_hold_equals_the_apis_for_that_week(client, client_for, cast, site, play, dealers):
    data = _get(client, cast[Role.AUDITOR], f"/dashboard/data.json?site={site.pk}").json()
    week = data["weeks"][_week_of(data, FIRST_DAY)]
    for dealer in data["dealers"]:
        api = (
            client_for(cast[Role.AUDITOR])
            .get(f"/api/v1/employees/{dealer['id']}/percent-of-hold/?start={week['start']}&end={week['end']}")
            .json()
        )
        point = dealer["points"][_week_of(data, FIRST_DAY)]
        assert point["agp_cents"] == api["total"]["agp_cents"]
        assert point["hold_percent"] == ratio_string(Decimal(api["total"]["hold_ratio"]) * 100, 2)
    assert {d["id"] for d in data["dealers"]} == {d.pk for d in dealers}
    assert [t["label"] for t in data["tables"]] == ["Table 1", "Table 2"]


def _alert(site, rule, *, due, day=FIRST_DAY, title=None):
    return Alert.objects.create(
        rule=rule,
        citation="ND 99-01.3-08-05(2)",
        title=title or rule.replace("_", " "),
        organization=site.organization,
        site=site,
        period_key=str(day),
        period_start=day,
        period_end=day,
        action_required="Look into it.",
        due_date=due,
        opened_at=datetime(2026, 8, 6, tzinfo=UTC),
    )


def test_open_alerts_overdue_obligations_and_slip_and_count_exceptions(client, cast, site, stranger_site):
    overdue = _alert(site, "deposit_late", due=date(2026, 8, 10), title="Deposit later than the third banking day")
    missing = _alert(site, "slip_missing_number", due=date(2026, 8, 30), title="Fill slip number missing")
    counted = _alert(site, "count_unresolved", due=None, title="Count difference not resolved")
    resolved = _alert(site, "slip_unverified", due=date(2026, 8, 1), title="Slip not verified")
    AlertStep.objects.create(
        alert=resolved,
        kind="resolved",
        by=cast[Role.GAMING_MANAGER].user,
        at=datetime(2026, 8, 7, tzinfo=UTC),
        note="verified late",
    )
    _alert(stranger_site, "slip_missing_number", due=date(2026, 8, 1), title="Someone else's slip")
    response = _get(client, cast[Role.AUDITOR], f"/dashboard/?site={site.pk}")
    html = response.content.decode()
    assert [a.pk for a in response.context["overdue"]] == [overdue.pk]
    assert {a.pk for a in response.context["open_alerts"]} == {overdue.pk, missing.pk, counted.pk}
    assert {a.pk for a in response.context["exceptions"]} == {missing.pk, counted.pk}
    assert "Someone else" not in html and "Slip not verified" not in html
    assert f"/compliance/alerts/{missing.pk}/" in html
    assert f"/dashboard/daily/?site={site.pk}&date={FIRST_DAY}" in html


def test_the_table_days_to_look_at_link_to_their_daily_summary(client, cast, site, play):
    html = _get(client, cast[Role.GAMING_MANAGER], f"/dashboard/?site={site.pk}").content.decode()
    assert 'id="unusual"' in html
    assert f"/dashboard/daily/?site={site.pk}&date=2026-08-03" in html


def test_the_charts_use_the_vendored_chart_js(client, cast, site):
    html = _get(client, cast[Role.AUDITOR], "/dashboard/").content.decode()
    assert "/static/vendor/chart.umd.js" in html
    # no script or stylesheet from another host (a bare "cdn" also matched a random CSRF token's letters)
    assert not re.findall(r'(?:src|href)="(?:https?:)?//', html)


@pytest.mark.parametrize("role", [Role.SHIFT_MANAGER, Role.DEALER])
def test_only_gaming_managers_and_auditors_see_the_dashboard(client, cast, site, role):
    assert _get(client, cast[role], "/dashboard/").status_code == 403


def test_with_no_alert_the_overdue_and_open_lists_say_so(client, cast, site):
    html = _get(client, cast[Role.AUDITOR], f"/dashboard/?site={site.pk}").content.decode()
    assert '<tr><td colspan="4">Nothing overdue.</td></tr>' in html
    assert '<tr><td colspan="4">No open alerts.</td></tr>' in html


def test_an_open_alert_shows_the_same_period_as_the_alerts_page(client, cast, site):
    """Found walking the demo: a camera outage's alert read "2026-12-05" on the dashboard (its
    period_key, the deadline's day that keeps it once) and "2026-12-01 to 2026-12-06" on the alerts
    page (its own period, start to end). Both now print the alert's own period."""
    outage = Alert.objects.create(
        rule="outage_operating",
        citation="ND 99-01.3-08-04(7)",
        title="Table operated above $2 after a surveillance outage deadline",
        organization=site.organization,
        site=site,
        period_key="2026-08-05",
        period_start=date(2026, 8, 1),
        period_end=date(2026, 8, 6),
        action_required="Close the table or limit its wagers to $2.00.",
        due_date=date(2026, 8, 5),
        opened_at=datetime(2026, 8, 6, tzinfo=UTC),
        subject="outage:1",
    )
    dashboard = _get(client, cast[Role.AUDITOR], f"/dashboard/?site={site.pk}").content.decode()
    row = re.search(
        rf'<tr><td>[^<]*</td><td>[^<]*</td><td><a href="/compliance/alerts/{outage.pk}/">.*?</tr>', dashboard
    )
    assert row and "<td>2026-08-01 to 2026-08-06</td>" in row.group(0) and "2026-08-05</td></tr>" not in row.group(0)
    alerts = _get(client, cast[Role.AUDITOR], "/compliance/alerts/?quarter=2026Q3").content.decode()
    assert re.search(
        rf'data-alert="{outage.pk}".*?<td data-label="Period" class="alert-period">2026-08-01 to 2026-08-06</td>',
        alerts,
        re.S,
    )
