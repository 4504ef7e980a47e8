"""The compliance pages one works from: the quarter's alerts by default with the last and next
runs, alerts told apart by table and period, figures in words, one resolve action, the month
calendar."""

from datetime import UTC, date, datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from cardroom.models import Membership, Role
from compliance import notifications, services
from compliance.models import AlertStep, ComplianceRun
from compliance.rules import Finding
from core.models import AuditEvent


def open_alert(site, **overrides):
    values = dict(
        rule="prizes_over_gp",
        citation="ND 99-01.3-08-01(3)",
        title="Twenty-one prizes exceeded gross proceeds",
        site_id=site.pk,
        period_key="2026Q4",
        period_start=date(2026, 10, 1),
        period_end=date(2026, 12, 31),
        action_required="ND 99-01.3-08-01(3): contact the attorney general.",
        due_date=date(2027, 1, 30),
        figures={"gross_proceeds_cents": 123456, "prizes_cents": 200, "agp_cents": 123256, "hold_ratio": "0.078157"},
    )
    values.update(overrides)
    return services.open_alert(Finding(**values), organization_id=site.organization_id)[0]


def review_week(site, table, week_start, subject):
    from datetime import timedelta

    end = week_start + timedelta(days=6)
    return open_alert(
        site,
        rule="review_week_short",
        citation="ND 99-01.3-08-04(9)",
        title="Video review week short of an hour",
        period_key=f"{week_start}..{end}",
        period_start=week_start,
        period_end=end,
        due_date=end,
        subject=subject,
        figures={"task": 1, "table": table, "reviewed_minutes": 20},
    )


@pytest.fixture
def in_november(time_machine):
    time_machine.move_to(datetime(2026, 11, 18, 18, 0, tzinfo=UTC))


def page(client, user, url):
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


# --- The list: this quarter by default, the last run and the next ---------------------------


def test_the_list_shows_this_quarters_alerts_without_asking(client, cast, site, in_november):
    this = open_alert(site, subject="this")
    last_quarter_resolved = open_alert(
        site,
        subject="old",
        period_key="2026Q2",
        period_start=date(2026, 4, 1),
        period_end=date(2026, 6, 30),
        due_date=date(2026, 7, 30),
    )
    services.resolve_alert_with_documentation(
        acting_user=cast[Role.GAMING_MANAGER].user, alert=last_quarter_resolved, note="Documented in July."
    )
    still_open = open_alert(
        site,
        subject="open",
        period_key="2026Q2",
        period_start=date(2026, 4, 1),
        period_end=date(2026, 6, 30),
        due_date=date(2026, 7, 30),
    )
    html = page(client, cast[Role.SHIFT_MANAGER].user, "/compliance/alerts/")
    assert "Compliance alerts, 2026Q4" in html
    alerts, earlier = html.split('id="alerts"')[1].split("Still open from earlier quarters")
    assert f'data-alert="{this.pk}"' in alerts and f'data-alert="{still_open.pk}"' in earlier
    assert f'data-alert="{last_quarter_resolved.pk}"' not in html
    assert f'data-alert="{last_quarter_resolved.pk}"' in page(
        client, cast[Role.SHIFT_MANAGER].user, "/compliance/alerts/?quarter=2026Q2"
    )


def test_a_bad_quarter_is_said_and_this_quarter_shown(client, cast, site, in_november):
    html = page(client, cast[Role.AUDITOR].user, "/compliance/alerts/?quarter=2026-2")
    assert "House control: write quarter as YYYYQn" in html and "Compliance alerts, 2026Q4" in html


def test_the_list_says_when_the_checks_last_ran_by_whom_and_with_what_result(
    client, client_for, cast, site, in_november
):
    # The organization's chip redemption procedure (ND 99-01.3-08-06(2)), so the run has nothing to open.
    adopted = client_for(cast[Role.GAMING_MANAGER]).post(
        "/api/v1/written-procedures/",
        {"kind": "chip_redemption", "text": "Separated by value and counted.", "effective_on": "2026-10-01"},
        format="json",
    )
    assert adopted.status_code == 201, adopted.json()
    html = page(client, cast[Role.GAMING_MANAGER].user, "/compliance/alerts/")
    assert "The checks have not run yet." in html
    assert '<option value="2026Q4" selected>' in html  # the run form needs no typing
    response = client.post("/compliance/run/", {"quarter": "2026Q4"})
    assert response.status_code == 302 and response["Location"] == "/compliance/alerts/?quarter=2026Q4"
    run = ComplianceRun.objects.get()
    assert (run.trigger, run.by, run.site, run.status, run.opened) == (
        "browser",
        cast[Role.GAMING_MANAGER].user,
        site,
        "succeeded",
        0,
    )
    assert AuditEvent.objects.filter(action="compliance.run").count() == 1
    last = (
        page(client, cast[Role.SHIFT_MANAGER].user, "/compliance/alerts/").split('id="last-run"')[1].split("</div>")[0]
    )
    name = cast[Role.GAMING_MANAGER].user.get_full_name() or cast[Role.GAMING_MANAGER].user.username
    assert f"started by\n        {name} (the compliance page)" in last
    assert "0 alerts opened, 0 already open" in last


def test_a_run_of_a_quarter_not_offered_is_refused_naming_house_control_and_runs_nothing(
    client, cast, site, in_november
):
    client.force_login(cast[Role.GAMING_MANAGER].user)
    response = client.post("/compliance/run/", {"quarter": "2019Q1"}, follow=True)
    assert "House control: choose one of the quarters offered." in response.content.decode()
    assert not ComplianceRun.objects.exists()


def test_a_scheduled_run_is_shown_as_the_schedules(client, cast, site, in_november):
    from compliance.tasks import run_daily_checks

    run_daily_checks()
    run = ComplianceRun.objects.get()
    assert (run.trigger, run.by, run.site, run.status, run.scope["day_ranges"]) == (
        "schedule",
        None,
        None,
        "succeeded",
        [["2026-11-11", "2026-11-17"]],
    )
    last = page(client, cast[Role.AUDITOR].user, "/compliance/alerts/").split('id="last-run"')[1].split("</div>")[0]
    assert "started by\n        the schedule" in last and "every site" in last


def test_a_failed_run_is_recorded_as_failed(site, in_november, monkeypatch):
    from compliance.tasks import run_quarter_checks

    def broken(**kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr("compliance.tasks.fan_out", broken)
    with pytest.raises(RuntimeError):
        run_quarter_checks()
    run = ComplianceRun.objects.get()
    assert (run.status, run.scope["quarters"], run.error) == (
        "failed",
        ["2026Q3"],
        "RuntimeError: the database went away",
    )


def test_the_list_shows_the_next_scheduled_runs_from_the_beat_schedule(client, cast, site, in_november):
    nxt = page(client, cast[Role.AUDITOR].user, "/compliance/alerts/").split('id="next-run"')[1].split("</div>")[0]
    # 2026-11-18 18:00 UTC: the day rules next run at 09:30 UTC on the 19th (03:30 in Chicago);
    # the quarter rules on the 1st of January at 09:45 UTC.
    assert "2026-11-19 03:30 CST" in nxt and "Day rules" in nxt
    assert "2027-01-01 03:45 CST" in nxt and "Quarter rules" in nxt
    assert nxt.index("Day rules") < nxt.index("Quarter rules")


def a_site_in(zone, cast, org):
    from cardroom import services as cardroom_services

    gm = cast[Role.GAMING_MANAGER].user
    values = dict(name="Kingston Fire Hall", jurisdiction="ND", time_zone=zone, business_day_start_hour=6)
    return cardroom_services.create_site(acting_user=gm, organization=org, **values)


def test_the_runs_are_shown_in_the_time_zone_of_the_site_one_works_at(client, cast, org, site, in_november):
    from compliance.tasks import run_daily_checks

    run_daily_checks()
    kingston = a_site_in("America/New_York", cast, org)
    client.force_login(cast[Role.AUDITOR].user)
    client.post("/switch-site/", {"site": kingston.pk, "next": "/"})
    text = page(client, cast[Role.AUDITOR].user, "/compliance/alerts/")
    last, nxt = text.split('id="last-run"')[1].split("</div>")[0], text.split('id="next-run"')[1].split("</div>")[0]
    assert "2026-11-18 13:00 EST" in last  # 18:00 UTC
    assert "2026-11-19 04:30 EST" in nxt and "CST" not in nxt


def test_a_page_in_a_sites_zone_leaves_the_next_request_in_the_servers(client, cast, org, site, in_november):
    from django.conf import settings
    from django.utils import timezone

    kingston = a_site_in("America/New_York", cast, org)
    client.force_login(cast[Role.AUDITOR].user)
    client.post("/switch-site/", {"site": kingston.pk, "next": "/"})
    assert client.get("/compliance/alerts/").status_code == 200
    assert timezone.get_current_timezone_name() == settings.TIME_ZONE


# --- Told apart: table, period, figures in words -------------------------------------------------


def test_alerts_of_one_rule_carry_their_table_and_week(client, cast, site, in_november):
    review_week(site, 3, date(2026, 10, 5), "task:1")
    review_week(site, 4, date(2026, 10, 5), "task:2")
    review_week(site, 3, date(2026, 10, 12), "task:3")
    html = page(client, cast[Role.SHIFT_MANAGER].user, "/compliance/alerts/")
    rows = [r for r in html.split("<tr") if "Video review week short of an hour" in r]
    described = sorted(
        (r.split('class="alert-table">')[1].split("<")[0], r.split('class="alert-period">')[1].split("<")[0])
        for r in rows
    )
    assert described == [
        ("Table 3", "Week 2026-10-05 to 2026-10-11"),
        ("Table 3", "Week 2026-10-12 to 2026-10-18"),
        ("Table 4", "Week 2026-10-05 to 2026-10-11"),
    ]


@pytest.mark.parametrize(
    "figures,period,expected",
    [
        ({"series": "fill", "number": 12}, (date(2026, 11, 3), date(2026, 11, 3)), ("", "2026-11-03", "Fill slip 12")),
        ({"box": "T1-A"}, (date(2026, 11, 3), date(2026, 11, 3)), ("", "2026-11-03", "Drop box T1-A")),
        ({"tables": [1, 4]}, (date(2026, 11, 3), date(2026, 11, 3)), ("Tables 1, 4", "2026-11-03", "")),
        ({"tables": [2]}, (date(2026, 7, 1), date(2026, 9, 30)), ("Table 2", "2026Q3", "")),
        ({}, (date(2026, 11, 1), date(2026, 11, 20)), ("", "2026-11-01 to 2026-11-20", "")),
        (
            {"shift_id": 891, "table": 1, "dealer_name": "Fern Halvorson"},
            (date(2026, 10, 1), date(2026, 12, 23)),
            ("Table 1", "2026-10-01 to 2026-12-23", "Fern Halvorson"),
        ),
    ],
)
def test_an_alert_names_its_table_period_and_subject(figures, period, expected):
    from compliance.labels import period_of, subject_of, table_of
    from compliance.models import Alert

    alert = Alert(figures=figures, period_start=period[0], period_end=period[1])
    assert (table_of(alert), period_of(alert), subject_of(alert)) == expected


def test_the_figures_read_as_labels_and_formatted_values(client, cast, site, in_november):
    alert = open_alert(site)
    html = page(client, cast[Role.AUDITOR].user, f"/compliance/alerts/{alert.pk}/")
    figures = html.split('id="figures"')[1].split("</table>")[0]
    for label, value in [
        ("Gross proceeds", "$1,234.56"),
        ("Prizes", "$2.00"),
        ("Hold", "7.82%"),
        ("Adjusted gross proceeds", "$1,232.56"),
    ]:
        assert f'<th scope="row">{label}</th><td class="money">{value}</td>' in figures
    assert "hold_ratio" not in figures and "0.078157" not in figures


def test_the_e_mail_reads_the_figures_in_words(cast, site):
    from django.core import mail

    manager = cast[Role.GAMING_MANAGER].user
    manager.email = "gm@example.org"
    manager.save()
    notifications.send_notification(open_alert(site), "opened")
    assert "Figures: Gross proceeds: $1,234.56; Prizes: $2.00; Adjusted gross proceeds: $1,232.56; Hold: 7.82%" in (
        mail.outbox[0].body
    )


# --- One resolve action --------------------------------------------------------------------------


def test_resolving_with_documentation_records_the_three_steps_in_one_go(cast, site):
    alert = open_alert(site)
    manager = cast[Role.GAMING_MANAGER].user
    services.resolve_alert_with_documentation(
        acting_user=manager, alert=alert, note="Called the AG's office.", documentation={"contacted_person": "J. Smith"}
    )
    steps = list(alert.steps.values_list("kind", "by", "note", "documentation"))
    assert steps == [
        ("acknowledged", manager.pk, "", {}),
        ("documented", manager.pk, "Called the AG's office.", {"contacted_person": "J. Smith"}),
        ("resolved", manager.pk, "Called the AG's office.", {}),
    ]
    assert (
        list(
            AuditEvent.objects.filter(
                action__in=["alert.acknowledged", "alert.documented", "alert.resolved"]
            ).values_list("actor_id", flat=True)
        )
        == [manager.pk] * 3
    )


def test_an_acknowledged_alert_is_not_acknowledged_twice(cast, site):
    alert = open_alert(site)
    services.acknowledge_alert(acting_user=cast[Role.SHIFT_MANAGER].user, alert=alert)
    services.resolve_alert_with_documentation(acting_user=cast[Role.GAMING_MANAGER].user, alert=alert, note="Reason.")
    assert list(alert.steps.values_list("kind", flat=True)) == ["acknowledged", "documented", "resolved"]


def test_resolving_twice_is_refused_and_writes_nothing_more(cast, site):
    alert = open_alert(site)
    manager = cast[Role.GAMING_MANAGER].user
    services.resolve_alert_with_documentation(acting_user=manager, alert=alert, note="Reason.")
    with pytest.raises(ValidationError, match="already resolved"):
        services.resolve_alert_with_documentation(acting_user=manager, alert=alert, note="Again.")
    assert alert.steps.count() == 3


def test_resolving_without_documentation_writes_no_step(cast, site):
    alert = open_alert(site)
    with pytest.raises(ValidationError) as error:
        services.resolve_alert_with_documentation(acting_user=cast[Role.GAMING_MANAGER].user, alert=alert, note=" ")
    assert "note" in error.value.message_dict and not AlertStep.objects.exists()


# Who is offered what, and what their post does (house control: services.RESOLVE_ROLES,
# ACKNOWLEDGE_ROLES; the compliance pages are for gaming managers, shift managers, auditors).
MATRIX = [
    (Role.GAMING_MANAGER, "resolve", 302, "resolved"),
    (Role.SHIFT_MANAGER, "document", 302, "documented"),
    (Role.AUDITOR, None, 403, "open"),
    (Role.PIT_BOSS, None, 403, "open"),
    (Role.DEALER, None, 403, "open"),
    (Role.CASHIER, None, 403, "open"),
    (Role.COUNT_TEAM, None, 403, "open"),
]


@pytest.mark.parametrize("role,offered,status,after", MATRIX)
def test_the_resolve_action_is_offered_and_allowed_by_role(client, cast, site, role, offered, status, after):
    from compliance.queries import status_of

    alert = open_alert(site)
    client.force_login(cast[role].user)
    shown = client.get(f"/compliance/alerts/{alert.pk}/")
    if role in (Role.GAMING_MANAGER, Role.SHIFT_MANAGER, Role.AUDITOR):
        html = shown.content.decode()
        assert ('id="resolve-form"' in html, 'id="document-form"' in html) == (
            offered == "resolve",
            offered == "document",
        )
    else:
        assert shown.status_code == 403
    response = client.post(f"/compliance/alerts/{alert.pk}/", {"action": "resolve", "resolve-note": "Documented."})
    expected = status if role != Role.SHIFT_MANAGER else 403  # a shift manager may not resolve
    assert response.status_code == expected
    if offered == "document":
        response = client.post(f"/compliance/alerts/{alert.pk}/", {"action": "document", "document-note": "Reason."})
        assert response.status_code == 302
    assert status_of(alert) == after


def test_a_gaming_manager_of_another_organization_cannot_resolve(client, cast, site, stranger_site):
    from tests.factories import make_person

    alert = open_alert(site)
    stranger = make_person(stranger_site.organization, Role.GAMING_MANAGER)
    client.force_login(stranger.user)
    assert client.post(f"/compliance/alerts/{alert.pk}/", {"action": "resolve", "resolve-note": "x"}).status_code == 404
    with pytest.raises(PermissionDenied):
        services.resolve_alert_with_documentation(acting_user=stranger.user, alert=alert, note="x")


def test_the_api_carries_the_table_period_and_labelled_figures(client_for, cast, site):
    alert = review_week(site, 3, date(2026, 10, 5), "task:1")
    body = client_for(cast[Role.AUDITOR]).get(f"/api/v1/alerts/{alert.pk}/").json()
    assert (body["table"], body["period"]) == ("Table 3", "Week 2026-10-05 to 2026-10-11")
    assert body["figure_labels"] == [
        {"label": "Review task", "value": "#1"},
        {"label": "Table", "value": "3"},
        {"label": "Video reviewed", "value": "20 minutes"},
    ]
    assert body["figures"] == {"task": 1, "table": 3, "reviewed_minutes": 20}  # the data, unchanged


def test_the_api_keeps_its_three_steps(client_for, cast, site):
    alert = open_alert(site)
    api = client_for(cast[Role.GAMING_MANAGER])
    assert api.post(f"/api/v1/alerts/{alert.pk}/acknowledge/", {}, format="json").json()["status"] == "acknowledged"
    assert (
        api.post(f"/api/v1/alerts/{alert.pk}/document/", {"note": "AG"}, format="json").json()["status"] == "documented"
    )
    assert api.post(f"/api/v1/alerts/{alert.pk}/resolve/", {"note": "ok"}, format="json").json()["status"] == "resolved"


# --- The month calendar ----------------------------------------------------------------------------


def test_the_calendar_is_a_month_grid_with_items_on_their_day(client, cast, site, in_november):
    due = open_alert(site, subject="a", due_date=date(2026, 11, 24), title="Bank deposit late")
    overdue = open_alert(site, subject="b", due_date=date(2026, 10, 2), title="Slip not verified")
    html = page(client, cast[Role.SHIFT_MANAGER].user, "/compliance/calendar/")
    assert "November 2026" in html
    grid = html.split('id="calendar"')[1].split("</table>")[0]
    assert grid.count("<tr>") == 6  # a header and five weeks, Sunday 2026-11-01 to Saturday 2026-12-05
    cell = grid.split('data-date="2026-11-24"')[1].split("</td>")[0]
    assert f"/compliance/alerts/{due.pk}/" in cell and "Bank deposit late" in cell
    assert 'aria-current="date" data-date="2026-11-18"' in grid
    assert f"/compliance/alerts/{overdue.pk}/" in html.split('id="overdue"')[1].split("</section>")[0]
    assert "?month=2026-10" in html and "?month=2026-12" in html


def test_the_calendar_says_whose_due_dates_it_shows(client, cast, site, stranger_site, in_november):
    lead = page(client, cast[Role.SHIFT_MANAGER].user, "/compliance/calendar/").split('id="calendar-sites">')[1]
    assert lead.split("</p>")[0] == f"The due dates of {site.name}."
    assert stranger_site.name not in lead


def test_the_calendars_lead_names_only_the_sites_whose_alerts_it_shows(client, cast, site, other_site, in_november):
    # A shift manager at `site` who is a dealer at `other_site` reads no alerts there (ALERTS).
    shift = cast[Role.SHIFT_MANAGER]
    Membership.objects.create(employee=shift, site=other_site, role=Role.DEALER)
    lead = page(client, shift.user, "/compliance/calendar/").split('id="calendar-sites">')[1]
    assert lead.split("</p>")[0] == f"The due dates of {site.name}."


def test_the_calendar_moves_by_month_across_the_year(client, cast, site, in_november):
    due = open_alert(site, due_date=date(2027, 1, 30))
    html = page(client, cast[Role.AUDITOR].user, "/compliance/calendar/?month=2027-01")
    assert "January 2027" in html and "?month=2026-12" in html and "?month=2027-02" in html
    assert f"/compliance/alerts/{due.pk}/" in html.split('data-date="2027-01-30"')[1].split("</td>")[0]


@pytest.mark.parametrize(
    "month, said",
    [
        ("2026-13", "month: House control: month names no month (2026-13 is not a month; write YYYY-MM)."),
        ("garbage", "month: House control: write month as YYYY-MM, for example 2026-11 (got &#x27;garbage&#x27;)."),
        ("1999-12", "month: The month (1999-12) must be between 2000-01-01 and 2100-12-31 (house control)."),
    ],
)
def test_a_bad_month_is_said_inline_and_this_month_shown(client, cast, site, in_november, month, said):
    client.force_login(cast[Role.AUDITOR].user)
    response = client.get(f"/compliance/calendar/?month={month}")
    html = response.content.decode()
    assert response.status_code == 400
    assert said in html.split('id="errors"')[1].split("</div>")[0]
    assert "November 2026" in html.split('id="month-title"')[1]


def test_the_calendar_is_closed_to_those_without_the_compliance_pages(client, cast):
    client.force_login(cast[Role.DEALER].user)
    assert client.get("/compliance/calendar/").status_code == 403


def test_a_run_over_every_site_shows_only_what_it_opened_at_the_readers_sites(client, cast, site, in_november):
    """The schedule's run spans every organization: its own counts (and its error) are the
    whole system's, never shown to a reader of one organization."""
    from tests.factories import OrganizationFactory, SiteFactory

    stranger = SiteFactory(organization=OrganizationFactory(name="Another Lodge"), name="Stranger Hall")
    run = services.start_run(trigger=ComplianceRun.Trigger.SCHEDULE, scope={"quarters": ["2026Q4"]})
    open_alert(site)
    open_alert(stranger)
    open_alert(stranger, rule="low_hold", title="Twenty-one hold below 10%")
    services.finish_run(run.pk, result={"opened": 3, "already_open": 4})
    last = page(client, cast[Role.AUDITOR].user, "/compliance/alerts/").split('id="last-run"')[1].split("</div>")[0]
    assert "1 alert opened at your sites" in last
    assert "3 alerts" not in last and "already open" not in last
    failed = services.start_run(trigger=ComplianceRun.Trigger.SCHEDULE, scope={"quarters": ["2026Q4"]})
    services.finish_run(failed.pk, error="chunk of Stranger Hall: boom")
    last = page(client, cast[Role.AUDITOR].user, "/compliance/alerts/").split('id="last-run"')[1].split("</div>")[0]
    assert "failed" in last and "Stranger Hall" not in last and "boom" not in last


def _alert_row(html: str, alert) -> str:
    start = html.rindex("<tr", 0, html.index(f'data-alert="{alert.pk}"'))
    return html[start : html.index("</tr>", start)]


def test_an_alert_is_overdue_by_its_own_sites_date_from_any_site_and_on_the_api(
    client, client_for, cast, site, time_machine
):
    """01:30 Friday in Chicago (the factory's site, and the server's zone, which the API runs in)
    is 23:30 Thursday at a Washington site. Of two alerts due Thursday, the Chicago site's is
    overdue and the Washington site's is not yet, whichever of the two sites lists them."""
    from zoneinfo import ZoneInfo

    from tests.factories import fees_site
    from tests.page_support import at_site

    tacoma = fees_site(site.organization)
    here = open_alert(site, subject="here", due_date=date(2026, 11, 19))
    there = open_alert(tacoma, subject="there", due_date=date(2026, 11, 19))
    time_machine.move_to(datetime(2026, 11, 20, 1, 30, tzinfo=ZoneInfo("America/Chicago")), tick=False)
    for current in (site, tacoma):
        html = at_site(client, cast[Role.AUDITOR], current).get("/compliance/alerts/").content.decode()
        assert "overdue" in _alert_row(html, here) and "table-danger" in _alert_row(html, here)
        assert "overdue" not in _alert_row(html, there) and "table-danger" not in _alert_row(html, there)
    rows = client_for(cast[Role.AUDITOR]).get("/api/v1/alerts/").json()["results"]
    assert {r["subject"]: r["overdue"] for r in rows} == {"here": True, "there": False}
    # The obligations list puts the overdue first on the same dates: the Chicago site's, then the
    # Washington site's, opened later (on the server's date both were overdue, the later first).
    listed = client_for(cast[Role.AUDITOR]).get("/api/v1/obligations/").json()["results"]
    assert [r["subject"] for r in listed if r["subject"] in ("here", "there")] == ["here", "there"]
    # The dashboard's overdue list: the Chicago site's alert only, whichever site it is read at.
    for current in (site, tacoma):
        html = at_site(client, cast[Role.AUDITOR], current).get("/dashboard/").content.decode()
        overdue = html[html.index('id="overdue"') :].split("</table>")[0]
        assert f"/compliance/alerts/{here.pk}/" in overdue and f"/compliance/alerts/{there.pk}/" not in overdue


def test_the_last_runs_sentence_ends_without_a_space_before_its_period(client, cast, site, in_november):
    """Read as text (the tags gone), the sentence closes on its last word: "... at your sites."."""
    import re

    run = services.start_run(trigger=ComplianceRun.Trigger.SCHEDULE, scope={"quarters": ["2026Q4"]})
    open_alert(site)
    services.finish_run(run.pk, result={"opened": 1, "already_open": 0})
    last = page(client, cast[Role.AUDITOR].user, "/compliance/alerts/").split('id="last-run"')[1].split("</div>")[0]
    text = " ".join(re.sub(r"<[^>]+>", " ", last).split())
    assert text.endswith("1 alert opened at your sites.")


def test_the_e_mail_gives_the_alerts_own_period_as_the_pages_do(cast, site):
    """An outage's alert is kept once by its deadline's day (period_key "2026-12-05"); its period
    runs from the outage's report to its repair, and the e-mail says that period, as the alerts
    page and the dashboard do."""
    from django.core import mail

    manager = cast[Role.GAMING_MANAGER].user
    manager.email = "gm@example.org"
    manager.save()
    alert = open_alert(
        site,
        rule="outage_operating",
        citation="ND 99-01.3-08-04(7)",
        period_key="2026-12-05",
        period_start=date(2026, 12, 1),
        period_end=date(2026, 12, 6),
        due_date=date(2026, 12, 5),
        figures={"table": 2},
    )
    notifications.send_notification(alert, "opened")
    assert "\nPeriod: 2026-12-01 to 2026-12-06\n" in mail.outbox[0].body
