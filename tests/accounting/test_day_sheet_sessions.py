"""A New York day from paper in one sheet, its games-of-chance sessions with it (9 NYCRR 4620.5):
the API's sheet and the browser's CSV take a session section, applied through the sessions'
own service as whoever the paper names; a site whose pack keeps no sessions refuses one at its
item, and its template shows no session row or column. Before, a Kingston clerk entering a
night from paper had no place for its session on the sheet."""

import csv
import io
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.utils import timezone

from accounting import day_sheet_csv
from cardroom.models import Role
from fees.models import GameSession
from floor.calculations import business_date
from floor.models import GamingDay
from tests.factories import SiteFactory, TableFactory, make_chips, make_person

TRAY = [{"denomination": 500, "quantity": 100}, {"denomination": 100, "quantity": 300}]


@pytest.fixture
def kingston(org):
    site = SiteFactory(organization=org, name="Kingston Fire Hall", jurisdiction="NY", time_zone="America/New_York")
    make_chips(org)
    TableFactory(site=site, number=1, max_wager_cents=500, decks=2, tie_option=1)
    people = {
        "gm": make_person(org, Role.GAMING_MANAGER, site),
        "sm": make_person(org, Role.SHIFT_MANAGER, site),
    }
    day = business_date(timezone.now(), site.time_zone, site.business_day_start_hour) - timedelta(days=2)
    return site, people, day


def at(site, day, hh_mm: str) -> str:
    hour, minute = map(int, hh_mm.split(":"))
    return datetime.combine(day, time(hour, minute), ZoneInfo(site.time_zone)).isoformat()


def sheet(site, day, sm, **session) -> dict:
    return {
        "gaming_date": day.isoformat(),
        "open": {"opened_at": at(site, day, "17:55"), "opened_by": sm.initials},
        "openers": [{"table": 1, "counted_at": at(site, day, "18:00"), "counted_by": sm.initials, "chips": TRAY}],
        "sessions": [
            {
                "licence_number": "NY-GC-4620",
                "started_at": at(site, day, "19:00"),
                "ended_at": at(site, day, "23:00"),
                "receipts_cents": 109_650,
                "prizes_cents": 99_200,
                "recorded_by": sm.initials,
                **session,
            }
        ],
    }


def post(client_for, employee, site, body):
    return client_for(employee).post(f"/api/v1/sites/{site.pk}/day-sheets/", body, format="json")


def test_a_new_york_sheet_records_its_session_as_the_paper_names_it(client_for, kingston):
    site, people, day = kingston
    response = post(client_for, people["gm"], site, sheet(site, day, people["sm"]))
    assert response.status_code == 201, response.json()
    [session] = GameSession.objects.filter(site=site)
    assert response.json()["sessions"] == [session.pk]
    assert (session.gaming_date, session.receipts_cents, session.prizes_cents) == (day, 109_650, 99_200)
    assert session.recorded_by == people["sm"] and session.licence_number == "NY-GC-4620"


def test_a_session_refused_by_its_service_is_located_and_nothing_is_changed(client_for, kingston):
    site, people, day = kingston
    response = post(client_for, people["gm"], site, sheet(site, day, people["sm"], ended_at=at(site, day, "18:30")))
    assert response.status_code == 400
    assert "a session ends after it starts" in " ".join(response.json()["sessions[0].ended_at"])
    assert not GamingDay.objects.filter(site=site).exists() and not GameSession.objects.exists()


def test_a_north_dakota_sheet_refuses_a_session_at_its_item(client_for, site, org, kingston):
    _ny, _people, _day = kingston
    manager, shift = make_person(org, Role.GAMING_MANAGER, site), make_person(org, Role.SHIFT_MANAGER, site)
    TableFactory(site=site, number=1)
    day = business_date(timezone.now(), site.time_zone, site.business_day_start_hour) - timedelta(days=2)
    response = post(client_for, manager, site, sheet(site, day, shift))
    assert response.status_code == 400
    [message] = response.json()["sessions[0]"]
    assert "games-of-chance sessions" in message
    assert not GamingDay.objects.filter(site=site).exists() and not GameSession.objects.exists()


def at_site(employee, site) -> Client:
    client = Client()
    client.force_login(employee.user)
    client.post("/switch-site/", {"site": site.pk})
    return client


def template_text(employee, site) -> str:
    return at_site(employee, site).get("/accounting/day-sheets/template.csv").content.decode()


def template(employee, site) -> list[dict]:
    client = at_site(employee, site)
    return list(csv.DictReader(io.StringIO(client.get("/accounting/day-sheets/template.csv").content.decode())))


def test_the_template_has_a_session_row_only_where_the_pack_keeps_sessions(client_for, site, org, kingston):
    ny, people, _day = kingston
    rows = template(people["gm"], ny)
    assert [row["section"] for row in rows if row["section"] == "session"] == ["session"]
    assert {"licence", "receipts", "prizes"} <= set(rows[0])
    # Its session reconciles with the sheet's own figures (a walk read receipts $1,096 beside a drop
    # counted of $1,500, prizes $992 beside a payout of $95): receipts the drop, prizes the payout.
    [session] = [row for row in rows if row["section"] == "session"]
    parsed = day_sheet_csv.to_sheet(template_text(people["gm"], ny), ny).sheet
    drop = sum(line["denomination_cents"] * line["quantity"] for line in parsed["count"]["entries"][0]["currency"])

    def chips(lines):
        return sum(line["denomination"] * line["quantity"] for line in lines)

    payout = (
        chips(parsed["slips"][0]["chips"]) + chips(parsed["openers"][0]["chips"]) - chips(parsed["closers"][0]["chips"])
    )
    assert (parsed["sessions"][0]["receipts_cents"], parsed["sessions"][0]["prizes_cents"]) == (drop, payout)
    # Kingston keeps no slip books: its slips are numbered electronically, no number typed.
    assert [row["number"] for row in rows if row["section"] == "slip"] == [""]
    nd_manager = make_person(org, Role.GAMING_MANAGER, site)
    nd_rows = template(nd_manager, site)
    assert "session" not in [row["section"] for row in nd_rows] and "licence" not in nd_rows[0]


def test_a_csv_with_its_session_row_applies_and_a_bad_amount_is_shown_at_its_row(kingston):
    site, people, day = kingston
    sm = people["sm"].initials
    head = "section,gaming_date,table,at,by,chips,ended_at,licence,receipts,prizes\r\n"
    rows = [
        f"day,{day.isoformat()}",
        f"open,,,17:55,{sm}",
        f"opener,,1,18:00,{sm},5x100 1x300",
        f'session,,,19:00,{sm},,23:00,NY-GC-4620,"$1,096.50",992',
    ]
    client = at_site(people["gm"], site)

    def upload(text):
        from django.core.files.uploadedfile import SimpleUploadedFile

        return client.post("/accounting/day-sheets/", {"sheet": SimpleUploadedFile("d.csv", text.encode())})

    wrong = upload(head + "\r\n".join([*rows[:3], rows[3].replace("992", "99.999")]) + "\r\n")
    assert wrong.status_code == 400 and "row 5, column prizes" in wrong.content.decode()
    assert not GameSession.objects.exists()

    response = upload(head + "\r\n".join(rows) + "\r\n")
    assert response.status_code == 302
    [session] = GameSession.objects.filter(site=site)
    assert (session.receipts_cents, session.prizes_cents) == (109_650, 99_200)
    assert "1 session" in client.get("/accounting/day-sheets/").content.decode()


def test_a_sheet_with_sessions_reads_back_from_its_csv():
    sheet = {
        "gaming_date": "2026-08-14",
        "sessions": [{"licence_number": "NY-GC-4620", "receipts_cents": 109_650, "prizes_cents": 99_200}],
    }
    text = day_sheet_csv.to_csv(sheet)
    assert "NY-GC-4620,1096.50,992.00" in text

    class Site:
        time_zone, business_day_start_hour = "America/New_York", 6

    read = day_sheet_csv.to_sheet(text, Site())
    assert not read.errors and read.sheet["sessions"] == sheet["sessions"]
