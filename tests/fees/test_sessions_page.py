"""The games-of-chance sessions page (/fees/sessions/) at a New York site: who reads it and who
records on it (the API's roles), recording and correcting a session through
fees.services.record_session, each bad input refused at its field with nothing written, the page
refused and its menu entry absent at a site of another pack, and its queries bounded."""

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from playwright.sync_api import expect

from cardroom.models import Role
from core.models import AuditEvent
from fees.models import GameSession
from tests.browser_support import PHONE, browser_page, login, overflow  # noqa: F401
from tests.factories import PASSWORD, SiteFactory, make_person
from tests.page_support import at_site

from .conftest import one_days_start, record_session, session_two_days_ago

pytestmark = pytest.mark.django_db

PAGE = "/fees/sessions/"
ORG_WIDE = (Role.GAMING_MANAGER, Role.AUDITOR)


def _person(org, role, site):
    return make_person(org, role, None if role in ORG_WIDE else site)


def _field(site, moment) -> str:
    """The browser's datetime-local value: the site's local time, to the minute."""
    return moment.astimezone(ZoneInfo(site.time_zone)).strftime("%Y-%m-%dT%H:%M")


@pytest.fixture
def started(ny_site):
    """Five hours ago, or earlier where the next 4 hours 10 minutes (the latest session a test
    records from it ends then) would cross the site's gaming-day start (6 a.m. in New York)."""
    return one_days_start(ny_site, timedelta(hours=4, minutes=10))


@pytest.fixture
def typed(ny_site, started):
    """A session as the form posts it: dollars, local times."""
    return {
        "licence_number": "NY-GC-4620",
        "started_at": _field(ny_site, started),
        "ended_at": _field(ny_site, started + timedelta(hours=3)),
        "receipts_cents": "1,250.50",
        "prizes_cents": "800",
    }


# --- who reads and who records ----------------------------------------------------------------


@pytest.mark.parametrize(
    "role, reads, records",
    [
        (Role.GAMING_MANAGER, True, True),
        (Role.SHIFT_MANAGER, True, True),
        (Role.AUDITOR, True, False),
        (Role.PIT_BOSS, False, False),
        (Role.CASHIER, False, False),
        (Role.DEALER, False, False),
        (Role.WHEEL_OPERATOR, False, False),
        (Role.COUNT_TEAM, False, False),
    ],
)
def test_the_page_at_a_ny_site_is_the_apis_readers_and_its_form_the_apis_recorders(
    client, org, ny_site, typed, role, reads, records
):
    person = _person(org, role, ny_site)
    client = at_site(client, person, ny_site)
    page = client.get(PAGE)
    assert page.status_code == (200 if reads else 403)
    html = page.content.decode()
    if not reads:
        assert "House control: only" in html  # the refusal names its rule and who may read
    assert ('id="session-form"' in html) is records
    posted = client.post(PAGE, typed)
    assert posted.status_code == (302 if records else 403)
    assert GameSession.objects.count() == (1 if records else 0)


@pytest.mark.parametrize("jurisdiction", ["WA-BJ", "WA-HB", "ND"])
@pytest.mark.parametrize("role", [Role.GAMING_MANAGER, Role.SHIFT_MANAGER])
def test_a_site_of_another_pack_refuses_sessions_and_has_no_menu_entry(client, org, typed, jurisdiction, role):
    """As the fees page at a site whose revenue is not fees: it says so, offers no form or list,
    records nothing and cites no New York law."""
    other = SiteFactory(organization=org, name=f"Room {jurisdiction}", jurisdiction=jurisdiction)
    person = _person(org, role, other)
    client = at_site(client, person, other)
    page = client.get(PAGE)
    html = page.content.decode()
    assert page.status_code == 200 and 'id="not-this-pack"' in html
    assert 'id="session-form"' not in html and 'id="sessions"' not in html and "NYCRR " not in html
    posted = client.post(PAGE, typed)
    assert posted.status_code == 400 and 'id="not-this-pack"' in posted.content.decode()
    assert not GameSession.objects.exists()
    home = client.get("/fees/" if jurisdiction == "WA-BJ" else "/").content.decode()
    assert f'href="{PAGE}"' not in home and "Games-of-chance sessions" not in home


def test_the_menu_offers_the_page_at_the_ny_site_only(client, org, site, ny_site):
    manager = make_person(org, Role.GAMING_MANAGER, None)
    at_ny = at_site(client, manager, ny_site).get("/").content.decode()
    assert f'href="{PAGE}"' in at_ny
    at_wa = at_site(client, manager, site).get("/").content.decode()
    assert f'href="{PAGE}"' not in at_wa


def test_another_ny_sites_manager_neither_sees_nor_corrects_this_sites_sessions(
    client, org, ny_site, ny_shift, started
):
    kept = record_session(ny_shift.user, ny_site, started, licence_number="KINGSTON-1")
    albany = SiteFactory(organization=org, name="Albany Hall", jurisdiction="NY", time_zone="America/New_York")
    theirs = make_person(org, Role.SHIFT_MANAGER, albany)
    client = at_site(client, theirs, albany)
    page = client.get(PAGE, {"date": kept.gaming_date.isoformat()}).content.decode()
    assert "KINGSTON-1" not in page and f'id="session-{kept.pk}"' not in page
    assert client.get(PAGE, {"correct": kept.pk}).status_code == 404
    typed = {
        "licence_number": "ALBANY-1",
        "started_at": _field(albany, started),
        "ended_at": _field(albany, started + timedelta(hours=1)),
        "receipts_cents": "10",
        "prizes_cents": "0",
        "corrects": kept.pk,
    }
    refused = client.post(PAGE, typed)
    assert refused.status_code == 400
    assert "not one of this site&#x27;s sessions" in refused.content.decode()
    assert GameSession.objects.count() == 1


# --- recording and correcting -------------------------------------------------------------------


def test_a_shift_manager_records_a_session_in_dollars_and_local_time_and_it_is_audited(
    client, ny_site, ny_shift, typed, started
):
    client = at_site(client, ny_shift, ny_site)
    response = client.post(PAGE, typed)
    assert response.status_code == 302
    session = GameSession.objects.get()
    assert response["Location"] == f"{PAGE}?date={session.gaming_date.isoformat()}"
    assert (session.receipts_cents, session.prizes_cents, session.net_cents) == (125_050, 80_000, 45_050)
    assert session.started_at == started and session.ended_at == started + timedelta(hours=3)
    assert session.recorded_by == ny_shift and session.corrects is None
    event = AuditEvent.objects.get(action="game_session.recorded", object_id=str(session.pk))
    assert event.actor == ny_shift.user and event.site_id == ny_site.pk
    page = client.get(response["Location"]).content.decode()
    row = page[page.index(f'id="session-{session.pk}"') :]
    row = row[: row.index("</tr>")]
    local = started.astimezone(ZoneInfo(ny_site.time_zone)).strftime("%Y-%m-%d %H:%M")
    assert "NY-GC-4620" in row and local in row and "$1,250.50" in row and "$800.00" in row and "$450.50" in row
    assert ny_shift.initials in row
    assert '<td class="text-end" data-label="Net">$450.50</td>' in row  # a card a session on a phone
    total = page[page.index('id="sessions-total"') :]
    assert "(1 session)" in total and "$450.50" in total[: total.index("</tr>")]
    # The NY text defines the game, not this record: the page says which is which.
    basis = page[page.index('id="sessions-basis"') :].split("</p>")[0]
    assert "9 NYCRR 4620.5 sets the game; recording it a session at a time is House control" in basis


def test_a_correction_is_a_new_row_pointing_back_and_the_total_takes_it(client, ny_site, ny_shift, started):
    first = record_session(ny_shift.user, ny_site, started)
    second = record_session(
        ny_shift.user, ny_site, started + timedelta(minutes=10), receipts_cents=20_000, prizes_cents=0
    )
    client = at_site(client, ny_shift, ny_site)
    form = client.get(PAGE, {"correct": first.pk}).content.decode()
    assert "Correct session" in form and f'name="corrects" value="{first.pk}"' in form
    assert 'value="1000.00"' in form and f'value="{_field(ny_site, started)}"' in form  # filled from the session
    typed = {
        "licence_number": "NY-GC-4620",
        "started_at": _field(ny_site, started),
        "ended_at": _field(ny_site, started + timedelta(hours=3)),
        "receipts_cents": "1000",
        "prizes_cents": "450",
        "corrects": first.pk,
    }
    assert client.post(PAGE, typed).status_code == 302
    correction = GameSession.objects.get(corrects=first)
    assert correction.prizes_cents == 45_000 and correction.recorded_by == ny_shift
    assert AuditEvent.objects.filter(action="game_session.recorded", object_id=str(correction.pk)).exists()
    first.refresh_from_db()  # append-only: the corrected row is unchanged
    assert first.prizes_cents == 40_000
    page = client.get(PAGE, {"date": first.gaming_date.isoformat()}).content.decode()
    assert f"corrected by {correction.pk}" in page and f"correction of {first.pk}" in page
    assert f'id="correct-{first.pk}"' not in page and f'id="correct-{correction.pk}"' in page
    total = page[page.index('id="sessions-total"') :]
    total = total[: total.index("</tr>")]
    # As corrected: $1,000 - $450 and $200 - $0, not the corrected $600.
    assert "(2 sessions)" in total and "$1,200.00" in total and "$450.00" in total and "$750.00" in total
    assert f'id="correct-{second.pk}"' in page  # still standing beside the correction
    stale = client.get(PAGE, {"correct": first.pk}).content.decode()
    assert 'id="replaced"' in stale and f'href="?correct={correction.pk}"' in stale
    assert 'name="corrects" value=' not in stale  # the form records a new session, not a second correction
    again = client.post(PAGE, {**typed, "prizes_cents": "460"})
    assert again.status_code == 400 and 'id="session-errors"' in again.content.decode()
    assert "its latest correction" in again.content.decode()
    assert GameSession.objects.count() == 3


# --- bad input ---------------------------------------------------------------------------------


def test_a_blank_licence_is_said_with_the_other_blank_fields_at_once(client, ny_site, ny_shift, typed):
    """A sheet typed with its licence and its receipts left blank: both fields say so in one answer
    (the licence was refused only once every other field was valid, a second round trip)."""
    posted = {**typed, "licence_number": " ", "receipts_cents": ""}
    response = at_site(client, ny_shift, ny_site).post(PAGE, posted)
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert errors["licence_number"] == [
        "House control: a session names its games-of-chance licence (at most 50 characters)."
    ]
    assert errors["receipts_cents"][0].startswith("House control: a session's record gives the organization's")
    assert not GameSession.objects.exists()


@pytest.mark.parametrize(
    "change, field, words",
    [
        ({"ended_at": "start"}, "ended_at", "House control: a session ends after it starts."),
        ({"ended_at": "before"}, "ended_at", "House control: a session ends after it starts."),
        ({"receipts_cents": "-5"}, "receipts_cents", "A session&#x27;s receipts total is from $0.00"),
        ({"prizes_cents": "-0.01"}, "prizes_cents", "(House control); got -$0.01."),
        ({"receipts_cents": "lots"}, "receipts_cents", "House control: enter an amount in dollars and cents"),
        ({"prizes_cents": "1.005"}, "prizes_cents", "has a fraction of a cent"),
        (
            {"receipts_cents": ""},
            "receipts_cents",
            "House control: a session&#x27;s record gives the organization&#x27;s",
        ),
        ({"prizes_cents": ""}, "prizes_cents", "House control: a session&#x27;s record gives the prizes paid"),
        ({"started_at": ""}, "started_at", "House control: a session&#x27;s record gives when it started"),
        ({"ended_at": ""}, "ended_at", "House control: a session&#x27;s record gives when it ended"),
        ({"licence_number": ""}, "licence_number", "House control: a session names its games-of-chance licence"),
        ({"licence_number": "   "}, "licence_number", "House control: a session names its games-of-chance licence"),
        ({"licence_number": "X" * 51}, "licence_number", "at most 50 characters"),
        ({"started_at": "yesterday"}, "started_at", "House control: Started at: enter a valid date/time."),
        ({"ended_at": "future"}, "ended_at", "cannot be dated in the future"),
        ({"corrects": "999999999"}, "corrects", "not one of this site&#x27;s sessions"),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_bad_input_is_refused_at_its_field_and_writes_nothing(
    client, ny_site, ny_shift, typed, started, change, field, words
):
    moments = {
        "start": typed["started_at"],
        "before": _field(ny_site, started - timedelta(minutes=1)),
        "future": _field(ny_site, timezone.now() + timedelta(hours=2)),
    }
    posted = {**typed, **{k: moments.get(v, v) for k, v in change.items()}}
    response = at_site(client, ny_shift, ny_site).post(PAGE, posted)
    assert response.status_code == 400
    html = response.content.decode()
    where = 'id="session-errors"' if field == "corrects" else f'id="error-{field}"'
    assert where in html, html
    message = html[html.index(where) :]
    assert words in message[: message.index("</div></div>")]
    assert not GameSession.objects.exists()
    assert not AuditEvent.objects.filter(action="game_session.recorded").exists()


def test_a_licence_not_on_file_is_refused_at_its_field_naming_the_licences_on_file(
    client, org, ny_site, ny_shift, typed
):
    from datetime import date

    from approvals.services import record_licence

    manager = _person(org, Role.GAMING_MANAGER, ny_site)
    record_licence(
        acting_user=manager.user, organization=org, licence_number="NY-GC-4620", tie_option=1,
        effective_on=date(2024, 1, 1),
    )  # fmt: skip
    response = at_site(client, ny_shift, ny_site).post(PAGE, {**typed, "licence_number": "XX-1"})
    assert response.status_code == 400
    html = response.content.decode()
    message = html[html.index('id="error-licence_number"') :]
    assert (
        "Licences on file: NY-GC-4620 (from 2024-01-01) (got &#x27;XX-1&#x27;)." in message[: message.index("</div>")]
    )
    assert not GameSession.objects.exists()
    assert at_site(client, ny_shift, ny_site).post(PAGE, typed).status_code == 302  # NY-GC-4620, the licence in force


def test_a_bad_gaming_day_shows_today_with_the_reason(client, ny_site, ny_shift):
    page = at_site(client, ny_shift, ny_site).get(PAGE, {"date": "2026-13-45"})
    # a refused date is a 400, as on the figures pages (the page still shows today's sessions)
    assert page.status_code == 400 and 'id="error-date"' in page.content.decode()
    assert at_site(client, ny_shift, ny_site).get(PAGE, {"date": "2026-11-28"}).status_code == 200


@pytest.mark.parametrize("wanted", ["abc", "-1", "99999999999999999999999"])
def test_a_correct_link_to_no_session_is_not_found(client, ny_site, ny_shift, wanted):
    assert at_site(client, ny_shift, ny_site).get(PAGE, {"correct": wanted}).status_code == 404


# --- queries ----------------------------------------------------------------------------------


def test_the_page_asks_the_same_number_of_queries_for_one_session_or_many(client, ny_site, ny_shift, started):
    first = record_session(ny_shift.user, ny_site, started)
    client = at_site(client, ny_shift, ny_site)
    day = {"date": first.gaming_date.isoformat()}

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(PAGE, day).status_code == 200
        return len(captured)

    client.get(PAGE, day)  # the session's and the site's first reads
    one = queries()
    last = first
    for minutes in range(10, 80, 10):
        record_session(ny_shift.user, ny_site, started + timedelta(minutes=minutes))
    for _ in range(3):  # corrections of corrections: every row names the one that replaced it
        last = record_session(ny_shift.user, ny_site, started, corrects=last, prizes_cents=last.prizes_cents + 100)
    assert GameSession.objects.filter(gaming_date=first.gaming_date).count() == 11
    assert queries() == one


# --- in the browser ------------------------------------------------------------------------------


@pytest.fixture
def night_manager(ny_shift):
    ny_shift.user.username = "nynight"
    ny_shift.user.set_password(PASSWORD)
    ny_shift.user.save()
    return ny_shift


@pytest.mark.browser
def test_a_shift_manager_records_and_corrects_a_session_on_a_phone(
    browser_page,  # noqa: F811
    live_server,
    ny_site,
    night_manager,
    typed,
):
    page = browser_page
    page.set_viewport_size(PHONE)
    login(page, live_server, "nynight")
    entry = page.locator("#nav a.dropdown-item", has_text="Games-of-chance sessions")  # the menu's, collapsed
    page.goto(f"{live_server.url}{entry.get_attribute('href')}")
    expect(page.locator("#session-form")).to_be_visible()
    for name in ("licence_number", "started_at", "ended_at", "receipts_cents"):
        page.fill(f"#id_{name}", typed[name])
    page.fill("#id_prizes_cents", "-1")
    page.click("#record-session")
    expect(page.locator("#error-prizes_cents")).to_contain_text("House control", use_inner_text=True)
    page.fill("#id_prizes_cents", "800")
    page.click("#record-session")
    expect(page.locator("#sessions-total")).to_contain_text("$450.50", use_inner_text=True)
    assert overflow(page) == []
    session = GameSession.objects.get()
    page.click(f"#correct-{session.pk}")
    expect(page.locator("#form-title")).to_contain_text(f"Correct session {session.pk}", use_inner_text=True)
    page.fill("#id_prizes_cents", "900")
    page.click("#record-session")
    expect(page.locator(f"#session-{session.pk}")).to_contain_text("corrected by", use_inner_text=True)
    expect(page.locator("#sessions-total")).to_contain_text("$350.50", use_inner_text=True)
    assert GameSession.objects.get(corrects=session).prizes_cents == 90_000


def test_a_session_of_a_day_whose_books_are_closed_offers_no_correction(client, org, ny_site, ny_shift):
    """Its books closed, a day's sessions stand (record_session refuses a correction of one, and a
    new session): the page offers no Correct link at them, a Correct link typed in fills no form,
    no form to record a session is offered, and the page says why in the refusal's words, as the
    fees page offers no Void at a closed day's fee."""
    session, close = session_two_days_ago(org, ny_site, ny_shift)
    day = session.gaming_date
    page = at_site(client, ny_shift, ny_site)
    assert f'id="correct-{session.pk}"' in page.get(PAGE, {"date": day.isoformat()}).content.decode()
    close()
    shown = page.get(PAGE, {"date": day.isoformat()}).content.decode()
    assert f'id="correct-{session.pk}"' not in shown
    note = shown.split('id="books-closed">')[1].split("</p>")[0]
    assert note.startswith("House control (closed books") and f"a games-of-chance session of {day}" in note
    asked = page.get(PAGE, {"correct": session.pk}).content.decode()
    assert f"Correct session {session.pk}" not in asked and 'id="books-closed"' in asked
    # nor a form to record a session there: its submit is refused as in closed books, so the page
    # shows the refusal's words (books-closed) and no form, as the other pages of a closed day do
    for html in (shown, asked):
        assert 'id="session-form"' not in html and "Record a session" not in html


def test_a_correction_dated_on_an_open_day_does_not_reach_a_closed_days_session(client, org, ny_site, ny_shift):
    """A correction replaces the session it corrects in that session's day's total
    (fees.queries.current_sessions), so a closed day's session is not corrected from an open day
    either: refused on `corrects`, nothing written, the closed day's total as it closed."""
    from fees.queries import session_totals

    session, close = session_two_days_ago(org, ny_site, ny_shift)
    day = session.gaming_date
    close()
    before = session_totals([ny_site.pk], day, day)
    later = one_days_start(ny_site, timedelta(hours=1), before=timedelta(hours=2))
    with pytest.raises(ValidationError) as refused:
        record_session(
            ny_shift.user, ny_site, later, ended_at=later + timedelta(hours=1), corrects=session, prizes_cents=0
        )
    message = refused.value.message_dict["corrects"][0]
    assert message.startswith("House control (closed books") and f"a games-of-chance session of {day}" in message
    assert GameSession.objects.count() == 1 and session_totals([ny_site.pk], day, day) == before


def test_a_session_dated_outside_the_books_range_is_refused_as_such_not_for_its_licence(
    client, org, ny_site, ny_shift, typed
):
    """1900 is before the books this product keeps (2000 to 2100, core.limits): the time is refused
    at its field in those words (core.moments), before any licence is looked for on that day."""
    from datetime import date

    from approvals.services import record_licence

    manager = _person(org, Role.GAMING_MANAGER, ny_site)
    record_licence(
        acting_user=manager.user, organization=org, licence_number="NY-GC-4620", tie_option=1,
        effective_on=date(2024, 1, 1),
    )  # fmt: skip
    posted = {**typed, "started_at": "1900-01-01T19:00", "ended_at": "1900-01-01T22:00"}
    response = at_site(client, ny_shift, ny_site).post(PAGE, posted)
    assert response.status_code == 400
    html = response.content.decode()
    message = html[html.index('id="error-started_at"') :]
    assert "The time (1900-01-01 19:00 " in message[: message.index("</div>")]
    assert "must be between 2000-01-01 and 2100-12-31 (house control)." in message[: message.index("</div>")]
    assert "licence on file" not in html and 'id="error-licence_number"' not in html
    assert not GameSession.objects.exists()


def test_a_correction_of_a_session_already_corrected_is_refused_naming_corrects_and_house_control(ny_site, ny_shift):
    started = one_days_start(ny_site, timedelta(hours=3))
    session = record_session(ny_shift.user, ny_site, started)
    record_session(ny_shift.user, ny_site, started, ended_at=started + timedelta(hours=2), corrects=session)
    with pytest.raises(ValidationError) as refused:
        record_session(ny_shift.user, ny_site, started, ended_at=started + timedelta(hours=1), corrects=session)
    assert refused.value.message_dict == {
        "corrects": ["House control: a correction points at this site's session as it stands (its latest correction)."]
    }
    assert GameSession.objects.filter(corrects=session).count() == 1
