"""The obligations calendar shows, beside the alerts' due dates, the obligations the system
knows are running with no alert of their own (compliance.obligations): each week of a video
review program still to be documented (ND 99-01.3-08-04(9)), the last day of the twelve weeks
of dealer percent-of-hold records after a quarter whose prizes exceeded gross proceeds (ND
99-01.3-08-01(3)), each day's bank deposit not yet recorded (ND 99-01.3-03-10), and each
quarter's return on the day the pack sets (ND's, a house setting said so). Each at a site whose pack states it, cited as that pack cites it; a Washington
site shows none of North Dakota's; the page's queries do not grow with the rows."""

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounting import services as accounting_services
from cardroom.models import Role
from compliance.engine import run_day_checks, run_quarter_rules
from compliance.obligations import RETURN_DUE_NOTE
from core.periods import Quarter
from counts.models import BoxExchange
from counts.services import update_count_settings
from floor import services as floor_services
from surveillance import services as surveillance_services
from surveillance.models import ReviewProgram
from tests import pack_setup
from tests.accounting.scenario import Scenario
from tests.compliance.test_quarter_providers import play
from tests.conformance.words import ND_WORDS, law_words_in
from tests.factories import OrganizationFactory, SiteFactory, TableFactory, make_person

Q3 = Quarter(2026, 3)


@pytest.fixture
def table(site):
    return TableFactory(site=site, number=1, min_wager_cents=100, max_wager_cents=2500)


def calendar(client, employee, month):
    client.force_login(employee.user)
    response = client.get(f"/compliance/calendar/?month={month}")
    assert response.status_code == 200
    return response.content.decode()


def cell(html, day):
    return html.split(f'data-date="{day}"')[1].split("</td>")[0]


def obligations_in(html) -> list[str]:
    grid = html.split('id="calendar"')[1].split("</table>")[0]
    return [part.split("</li>")[0] for part in grid.split('class="due-item obligation')[1:]]


def low_hold_program(scenario, table, site, manager, time_machine):
    """A surveillance site's third quarter at 1% hold; the quarter checks run on 5 October open
    the review program (six weeks, 5 October to 15 November)."""
    time_machine.move_to(datetime(2026, 10, 5, 12, tzinfo=UTC))
    surveillance_services.set_surveillance_status(
        manager.user, site, True, date(2026, 1, 1), date(2026, 1, 1), "Required since the first quarter."
    )
    play(scenario, table, date(2026, 8, 1), drop=100_000, opener=100_000, closer=1_000)  # AGP 1,000: hold 1%
    assert "low_hold_21" in {a.rule for a in run_quarter_rules(site_ids=[site.pk], quarter=Q3).opened}
    return ReviewProgram.objects.get(site=site)


def document_an_hour(manager, site, task, day):
    evening = datetime.combine(day, datetime.min.time(), ZoneInfo(site.time_zone)) + timedelta(hours=19)
    return surveillance_services.record_review_entry(
        acting_user=manager.user,
        task=task,
        gaming_date=day,
        shift_started_at=evening,
        shift_ended_at=evening + timedelta(hours=3),
        footage_start_at=evening,
        footage_end_at=evening + timedelta(minutes=60),
        reviewer=manager,
        findings="Nothing unusual",
    )


# --- The video review program's weeks (ND 99-01.3-08-04(9)) ---------------------------------------


def test_each_review_week_falls_due_on_its_last_day_citing_the_rule_and_linking_its_page(
    client, scenario, table, site, cast, time_machine
):
    manager = cast[Role.GAMING_MANAGER]
    program = low_hold_program(scenario, table, site, manager, time_machine)
    html = calendar(client, manager, "2026-10")
    first = cell(html, "2026-10-11")
    assert "Video review, table 1, week 1" in first and "ND 99-01.3-08-04(9)" in first
    assert "at least one hour per week of table 1&#x27;s video, week 1 (2026-10-05 to 2026-10-11)" in first
    assert f'href="/surveillance/programs/{program.pk}/"' in first and "to document" in first
    assert 'data-kind="review_week"' in first and ">obligation<" in first  # told apart from the alerts
    assert "Video review, table 1, week 2" in cell(html, "2026-10-18")
    november = calendar(client, manager, "2026-11")
    assert "Video review, table 1, week 6" in cell(november, "2026-11-15")
    assert "week 7" not in november


def test_a_documented_week_shows_documented_and_the_next_is_still_to_document(
    client, scenario, table, site, cast, time_machine
):
    manager = cast[Role.GAMING_MANAGER]
    program = low_hold_program(scenario, table, site, manager, time_machine)
    time_machine.move_to(datetime(2026, 10, 7, 12, tzinfo=UTC))
    document_an_hour(manager, site, program.tasks.get(week=1), date(2026, 10, 6))
    html = calendar(client, cast[Role.SHIFT_MANAGER], "2026-10")
    week_one = cell(html, "2026-10-11")
    assert "due-item obligation resolved" in week_one and "· documented" in week_one
    assert "to document" not in week_one
    assert "review and document" not in week_one  # a week done is one line: what, where, documented
    assert "review and document at least one hour" in cell(html, "2026-10-18")
    assert "· to document" in cell(html, "2026-10-18")


def test_a_program_closed_with_its_reason_shows_no_week_after_it(client, scenario, table, site, cast, time_machine):
    manager = cast[Role.GAMING_MANAGER]
    program = low_hold_program(scenario, table, site, manager, time_machine)
    time_machine.move_to(datetime(2026, 10, 14, 12, tzinfo=UTC))
    surveillance_services.close_review_program(
        acting_user=manager.user, program=program, closed_on=date(2026, 10, 14), low_hold_reason="A dealer's error."
    )
    html = calendar(client, manager, "2026-10")
    assert "week 2" in cell(html, "2026-10-18")  # the week the reason was documented in still counts
    assert "week 3" not in html and "week 4" not in calendar(client, manager, "2026-11")


def test_a_week_found_short_shows_once_as_its_alert_not_again_as_an_overdue_obligation(
    client, client_for, scenario, table, site, cast, time_machine
):
    """Before the nightly rules, a week past its end undocumented is an overdue obligation;
    once they open its alert, the alert is the one line for that week (in its cell and above
    the grid), and the obligation stays for the weeks still running."""
    manager = cast[Role.GAMING_MANAGER]
    low_hold_program(scenario, table, site, manager, time_machine)
    time_machine.move_to(datetime(2026, 10, 13, 12, tzinfo=UTC))
    before = calendar(client, manager, "2026-10")
    assert "Video review, table 1, week 1" in cell(before, "2026-10-11") and "· overdue" in cell(before, "2026-10-11")
    # The site tracks its dealers' percent-of-hold (ND 99-01.3-08-04(8)): the review week is all there is.
    update_count_settings(acting_user=manager.user, site=site, box_exchange=BoxExchange.DEALER_SHIFT)
    # and has adopted its chip redemption and shuffle procedures (ND 99-01.3-08-06(2), 08-08(1)).
    for kind in ("chip_redemption", "shuffle_and_cut"):
        body = {"kind": kind, "text": "As adopted.", "effective_on": "2026-10-01"}
        assert client_for(manager).post("/api/v1/written-procedures/", body, format="json").status_code == 201
    opened = run_day_checks(site_ids=[site.pk], start=date(2026, 10, 5), end=date(2026, 10, 12)).opened
    assert [a.rule for a in opened] == ["review_week_short"]
    after = calendar(client, manager, "2026-10")
    week_one = cell(after, "2026-10-11")
    assert "Video review week short of an hour" in week_one  # the alert
    assert "Video review, table 1, week 1" not in after  # not the obligation again, in the cell or above
    assert "Video review, table 1, week 2" in cell(after, "2026-10-18")  # still running
    api = client.get("/api/v1/obligations/running/", {"month": "2026-10"}).json()["results"]
    assert [r["title"] for r in api if r["kind"] == "review_week"] == [
        "Video review, table 1, week 2",
        "Video review, table 1, week 3",
    ]


# --- The twelve weeks of dealer records (ND 99-01.3-08-01(3)) -------------------------------------


def test_the_twelve_weeks_of_dealer_records_end_on_the_calendar(client, scenario, table, site, cast, time_machine):
    time_machine.move_to(datetime(2026, 10, 5, 12, tzinfo=UTC))
    play(scenario, table, date(2026, 8, 1), drop=50_000, fills=80_000)  # prizes over gross proceeds
    assert "prizes_over_gp" in {a.rule for a in run_quarter_rules(site_ids=[site.pk], quarter=Q3).opened}
    html = calendar(client, cast[Role.AUDITOR], "2026-12")
    last_day = cell(html, "2026-12-23")  # 1 October + 12 weeks - 1 day
    assert "Dealer percent-of-hold records: last day" in last_day and "ND 99-01.3-08-01(3)" in last_day
    assert "12 continuous weeks, 2026-10-01 to 2026-12-23, after 2026Q3" in last_day
    assert f"/dashboard/dealers/?site={site.pk}&amp;start=2026-10-01&amp;end=2026-12-23" in last_day
    assert "· running" in last_day


# --- The quarter's return (the pack's due date, a house setting in ND) ----------------------------


def played_and_closed(site, people, table, manager, time_machine, day: date, now: datetime) -> Scenario:
    """`day` played at `site` and its bank counted, its books closed at `now`."""
    time_machine.move_to(now)
    scenario = Scenario(site, people)
    play(scenario, table, day, drop=100_000, fills=20_000, closer=185_000, number=1)
    scenario.bank(day, "start", 500_000, 300_000)
    scenario.bank(day, "end", 600_000, 280_000)
    accounting_services.close_books(acting_user=manager.user, site=site, gaming_date=day)
    return scenario


@pytest.fixture
def q3_closed(site, people, table, manager, time_machine):
    """A day of 2026Q3 at `site`, its books closed, on 20 October (the return due 31 October)."""
    return played_and_closed(
        site, people, table, manager, time_machine, date(2026, 8, 14), datetime(2026, 10, 20, 18, tzinfo=UTC)
    )


def test_an_unfiled_return_falls_due_on_the_packs_day_saying_the_date_is_a_house_setting(
    client, q3_closed, site, manager
):
    html = calendar(client, manager, "2026-10")
    due = cell(html, "2026-10-31")
    assert "Quarterly return 2026Q3" in due and "ND 99-01.3-08-16(1)(g)" in due
    assert RETURN_DUE_NOTE in due and "· not filed" in due
    assert f"/dashboard/quarter/?site={site.pk}&amp;quarter=2026Q3" in due
    assert 'data-kind="state_return"' in due


def test_a_shift_manager_sees_the_return_fall_due_without_a_link_to_a_quarter_they_do_not_open(
    client, client_for, q3_closed, site, cast
):
    """The calendar's readers are more than the quarter's: the return linked a shift manager to
    /dashboard/quarter/, a 403 (found walking the pages as each role); it is shown, unlinked."""
    shift = cast[Role.SHIFT_MANAGER]
    due = cell(calendar(client, shift, "2026-10"), "2026-10-31")
    assert "Quarterly return 2026Q3" in due and "· not filed" in due
    assert "/dashboard/quarter/" not in due and '<span class="obligation-title">Quarterly return 2026Q3</span>' in due
    assert client.get(f"/dashboard/quarter/?site={site.pk}&quarter=2026Q3").status_code == 403  # the page it linked
    listed = client_for(shift).get("/api/v1/obligations/running/?month=2026-10").json()["results"]
    assert [o["page"] for o in listed if o["kind"] == "state_return"] == [""]


def test_a_filed_return_shows_filed_and_an_unfiled_one_is_overdue_later(client, q3_closed, site, manager, time_machine):
    time_machine.move_to(datetime(2026, 12, 2, 18, tzinfo=UTC))
    html = calendar(client, manager, "2026-12")
    overdue = html.split('id="overdue"')[1].split("</section>")[0]
    assert "Quarterly return 2026Q3" in overdue and "due 2026-10-31" in overdue
    accounting_services.file_quarter(acting_user=manager.user, site=site, quarter=Q3)
    assert 'id="overdue"' not in calendar(client, manager, "2026-12")
    due = cell(calendar(client, manager, "2026-10"), "2026-10-31")
    assert "Quarterly return 2026Q3" in due and "· filed" in due and "resolved" in due


# --- The bank deposits (ND 99-01.3-03-10) -------------------------------------------------------------


@pytest.fixture
def friday_closed(site, people, table, manager, time_machine):
    """Friday 16 October 2026 played at `site`, its books closed on Monday 19 October: its deposit
    is due by the third banking day, Wednesday 21 October."""
    return played_and_closed(
        site, people, table, manager, time_machine, date(2026, 10, 16), datetime(2026, 10, 19, 18, tzinfo=UTC)
    )


def test_a_days_deposit_falls_due_on_its_third_banking_day_and_leaves_once_recorded(
    client, client_for, friday_closed, site, manager, cast
):
    from cage import services as cage_services

    due = cell(calendar(client, manager, "2026-10"), "2026-10-21")
    assert "Bank deposit of 2026-10-16" in due and "ND 99-01.3-03-10" in due and "· to deposit" in due
    assert 'data-kind="deposit"' in due and "/cage/deposits/" in due
    # The API lists it for a shift manager, who records deposits at the cage.
    listed = client_for(cast[Role.SHIFT_MANAGER]).get("/api/v1/obligations/running/?month=2026-10").json()["results"]
    assert [(o["kind"], o["due_date"]) for o in listed if o["kind"] == "deposit"] == [("deposit", "2026-10-21")]
    cage_services.record_deposit(
        acting_user=cast[Role.CASHIER].user, gaming_day=friday_closed.day(date(2026, 10, 16)), amount_cents=100_000,
        deposited_on=date(2026, 10, 19),
    )  # fmt: skip
    assert "Bank deposit of 2026-10-16" not in calendar(client, manager, "2026-10")


def test_a_deposit_not_made_is_overdue_then_shown_once_as_its_alert(client, friday_closed, site, manager, time_machine):
    time_machine.move_to(datetime(2026, 10, 22, 18, tzinfo=UTC))
    due = cell(calendar(client, manager, "2026-10"), "2026-10-21")
    assert "Bank deposit of 2026-10-16" in due and "· overdue" in due and 'data-kind="deposit"' in due
    opened = run_day_checks(site_ids=[site.pk], start=date(2026, 10, 16), end=date(2026, 10, 21)).opened
    assert [a.rule for a in opened if a.rule == "deposit_late"] == ["deposit_late"]
    due = cell(calendar(client, manager, "2026-10"), "2026-10-21")
    assert "Bank deposit late" in due and 'data-kind="deposit"' not in due


# --- Each pack its own law --------------------------------------------------------------------------


def test_a_washington_site_shows_none_of_north_dakotas_obligations(client, scenario, table, site, cast, time_machine):
    """The same quarter at an ND site (low hold, prizes over gross proceeds aside) and at a
    Washington house-banked room of another organization: the ND gaming manager sees the ND
    program's weeks and the return; the WA gaming manager, whose house opened a review program
    of its own (WA's texts state none), sees its weeks as the house's control, and no return."""
    low_hold_program(scenario, table, site, cast[Role.GAMING_MANAGER], time_machine)
    wa = SiteFactory(
        organization=OrganizationFactory(name="Spokane Lodge"),
        name="Spokane Room",
        jurisdiction="WA-HB",
        time_zone="America/Los_Angeles",
    )
    wa_manager = make_person(wa.organization, Role.GAMING_MANAGER)
    pack_setup.record_controls(wa_manager, wa)
    TableFactory(site=wa, number=1, min_wager_cents=100, max_wager_cents=5000, payout_rounding="down", decks=2,
                 dealt_from="hand")  # fmt: skip
    shift = make_person(wa.organization, Role.SHIFT_MANAGER, wa)
    floor_services.open_gaming_day(acting_user=shift.user, site=wa, gaming_date=date(2026, 10, 4))
    assert run_quarter_rules(site_ids=[wa.pk], quarter=Q3).opened == []
    surveillance_services.open_review_program(wa_manager.user, wa, date(2026, 10, 5), "The house's own review.")

    nd_html = calendar(client, cast[Role.GAMING_MANAGER], "2026-10")
    assert "ND 99-01.3-08-04(9)" in cell(nd_html, "2026-10-11") and "Spokane Room" not in nd_html

    wa_html = calendar(client, wa_manager, "2026-10")
    entries = obligations_in(wa_html)
    assert entries and all("House control" in e for e in entries)
    assert {e.split('data-kind="')[1].split('"')[0] for e in entries} == {"review_week", "deposit"}
    # The day opened on 4 October takes its deposit by the house's third banking day (WA's texts state none).
    assert "Bank deposit of 2026-10-04" in cell(wa_html, "2026-10-07") and "House control" in cell(
        wa_html, "2026-10-07"
    )
    assert not law_words_in(wa_html, ND_WORDS)
    assert "Quarterly return" not in calendar(client, wa_manager, "2027-01")


# --- Bounded ------------------------------------------------------------------------------------------


def test_the_calendar_reads_in_the_same_queries_whatever_the_obligations(
    client, scenario, table, site, other_site, cast, time_machine
):
    manager = cast[Role.GAMING_MANAGER]
    low_hold_program(scenario, table, site, manager, time_machine)
    time_machine.move_to(datetime(2026, 10, 7, 12, tzinfo=UTC))
    client.force_login(manager.user)
    client.post("/switch-site/", {"site": site.pk})
    play(scenario, table, date(2026, 10, 2), drop=100_000)  # a deposit still to make, due 7 October
    client.get("/compliance/calendar/?month=2026-10")
    with CaptureQueriesContext(connection) as few:
        assert client.get("/compliance/calendar/?month=2026-10").status_code == 200
    TableFactory(site=other_site, number=1)
    TableFactory(site=other_site, number=2)
    surveillance_services.open_review_program(manager.user, other_site, date(2026, 10, 5), "Q3 hold below 10%")
    play(scenario, table, date(2026, 5, 2), drop=100_000)  # a second quarter played, its return due in July
    play(scenario, table, date(2026, 10, 5), drop=100_000)  # another deposit to make
    document_an_hour(manager, site, ReviewProgram.objects.get(site=site).tasks.get(week=1), date(2026, 10, 5))
    with CaptureQueriesContext(connection) as many:
        html = client.get("/compliance/calendar/?month=2026-10").content.decode()
    assert len(obligations_in(html)) > 8  # both sites' weeks, and the return
    elsewhere = ReviewProgram.objects.get(site=other_site)
    # The other site's program page is at that site: its weeks offer to switch to it.
    assert (
        f'<input type="hidden" name="site" value="{other_site.pk}"><input type="hidden" name="next" '
        f'value="/surveillance/programs/{elsewhere.pk}/">' in cell(html, "2026-10-11")
    )
    assert len(many) == len(few), [q["sql"] for q in many.captured_queries]


# --- The API --------------------------------------------------------------------------------------


def test_the_api_lists_the_running_obligations_of_a_month_apart_from_the_alerts(
    client_for, scenario, table, site, cast, time_machine
):
    manager = cast[Role.GAMING_MANAGER]
    low_hold_program(scenario, table, site, manager, time_machine)
    api = client_for(manager)
    rows = api.get("/api/v1/obligations/running/", {"month": "2026-10"}).json()["results"]
    weeks = [r for r in rows if r["kind"] == "review_week"]
    assert [r["due_date"] for r in weeks] == ["2026-10-11", "2026-10-18", "2026-10-25"]
    assert {(r["citation"], r["status"], r["done"], r["site"]) for r in weeks} == {
        ("ND 99-01.3-08-04(9)", "to document", False, site.pk)
    }
    returns = [r for r in rows if r["kind"] == "state_return"]
    assert [(r["title"], r["due_date"]) for r in returns] == [("Quarterly return 2026Q3", "2026-10-31")]
    assert RETURN_DUE_NOTE in returns[0]["action"]
    assert {r["rule"] for r in api.get("/api/v1/obligations/").json()["results"]} == {"low_hold_21"}  # the alerts
    response = api.get("/api/v1/obligations/running/", {"month": "2026-13"})
    assert response.status_code == 400 and "month" in response.json()


def test_the_api_shows_nothing_of_another_organizations_site(client_for, scenario, table, site, cast, time_machine):
    low_hold_program(scenario, table, site, cast[Role.GAMING_MANAGER], time_machine)
    stranger = make_person(OrganizationFactory(name="Other Charity"), Role.GAMING_MANAGER)
    SiteFactory(organization=stranger.organization)
    assert client_for(stranger).get("/api/v1/obligations/running/?month=2026-10").json()["results"] == []


def test_a_days_review_weeks_are_in_table_order_not_in_the_order_of_their_titles():
    from compliance.obligations import Obligation, in_order

    def week(table: int) -> Obligation:
        title = f"Video review, table {table}, week 1"
        due = date(2026, 10, 7)
        return Obligation("review_week", 1, "Elks", due, title, "c", "a", "to document", False, "/", rank=(table, 1))

    assert [o.title for o in in_order([week(10), week(2), week(1)])] == [
        "Video review, table 1, week 1",
        "Video review, table 2, week 1",
        "Video review, table 10, week 1",
    ]
