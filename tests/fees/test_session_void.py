"""A New York games-of-chance session recorded that did not take place is voided
(fees.services.void_session): a correction with no receipts or prizes and its reason, which the
day's total no longer counts as a session (a zero correction still counted one). Through the
API and the sessions page, with each refusal writing nothing."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from cardroom.models import Role
from core.models import AuditEvent
from fees import services
from fees.models import GameSession
from fees.queries import late_entries, session_totals
from tests.factories import SiteFactory, make_person
from tests.page_support import at_site

from .conftest import one_days_start, record_session, session_two_days_ago

pytestmark = pytest.mark.django_db

SESSIONS = "/api/v1/game-sessions/"
PAGE = "/fees/sessions/"


@pytest.fixture
def started(ny_site):
    return one_days_start(ny_site, timedelta(hours=4, minutes=10))


def _day(session):
    return session_totals([session.site_id], session.gaming_date, session.gaming_date)


def test_a_void_through_the_api_takes_the_session_out_of_the_days_total_and_keeps_it_onrecord_session(
    client_for, ny_site, ny_shift, started
):
    kept = record_session(ny_shift.user, ny_site, started, receipts_cents=20_000, prizes_cents=0)
    wrong = record_session(ny_shift.user, ny_site, started + timedelta(minutes=10))
    assert _day(wrong)["sessions"] == 2
    response = client_for(ny_shift).post(f"{SESSIONS}{wrong.pk}/void/", {"reason": "Bingo hall's sheet"}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["is_void"] is True and body["corrects"] == wrong.pk and body["reason"] == "Bingo hall's sheet"
    assert body["receipts_cents"] == 0 and body["prizes_cents"] == 0
    # The day counts the session left standing only: one session, its figures (not 2 with a $0 one).
    assert _day(kept) == {"sessions": 1, "receipts_cents": 20_000, "prizes_cents": 0, "net_cents": 20_000}
    wrong.refresh_from_db()  # append-only: the voided session is unchanged
    assert wrong.receipts_cents == 100_000 and not wrong.is_void
    assert AuditEvent.objects.filter(
        action="game_session.voided", object_id=str(body["id"]), actor=ny_shift.user
    ).exists()
    listed = {row["id"]: row for row in client_for(ny_shift).get(SESSIONS).json()["results"]}
    assert set(listed) == {kept.pk, wrong.pk, body["id"]} and listed[body["id"]]["is_void"] is True


@pytest.mark.parametrize("reason", ["", "   ", "x" * 2001])
def test_a_void_states_its_reason(client_for, ny_site, ny_shift, started, reason):
    session = record_session(ny_shift.user, ny_site, started)
    response = client_for(ny_shift).post(f"{SESSIONS}{session.pk}/void/", {"reason": reason}, format="json")
    assert response.status_code == 400
    assert response.json()["reason"][0].startswith(("House control: a void states its reason", "Ensure this field"))
    assert GameSession.objects.count() == 1 and _day(session)["sessions"] == 1


def test_a_void_is_not_voided_or_corrected_and_a_corrected_session_is_voided_as_it_stands(
    client_for, ny_site, ny_shift, started
):
    first = record_session(ny_shift.user, ny_site, started)
    correction = record_session(ny_shift.user, ny_site, started, prizes_cents=50_000, corrects=first)
    with pytest.raises(ValidationError) as stale:
        services.void_session(acting_user=ny_shift.user, session=first, reason="typed twice")
    assert stale.value.message_dict["session"][0] == (
        f"House control: session {first.pk} is corrected already, by session {correction.pk}; "
        f"void session {correction.pk}, the session as it stands, instead."
    )
    void = services.void_session(acting_user=ny_shift.user, session=correction, reason="typed twice")
    assert _day(first)["sessions"] == 0
    again = client_for(ny_shift).post(f"{SESSIONS}{void.pk}/void/", {"reason": "again"}, format="json")
    assert again.status_code == 400 and again.json()["session"] == ["House control: a void is not voided again."]
    with pytest.raises(ValidationError) as corrected:
        record_session(ny_shift.user, ny_site, started, corrects=void)
    assert corrected.value.message_dict["corrects"][0].startswith(
        f"House control: session {correction.pk} is voided; a void is not corrected."
    )
    assert GameSession.objects.count() == 3
    # Recorded anew, the same session is not "recorded already": the void is no session.
    anew = record_session(ny_shift.user, ny_site, started)
    assert _day(anew)["sessions"] == 1


@pytest.mark.parametrize(
    "role, status",
    [(Role.AUDITOR, 403), (Role.PIT_BOSS, 404), (Role.CASHIER, 404), (Role.GAMING_MANAGER, 201)],
)
def test_who_voids_is_who_records(client_for, org, ny_site, ny_shift, started, role, status):
    session = record_session(ny_shift.user, ny_site, started)
    person = make_person(org, role, None if role in (Role.GAMING_MANAGER, Role.AUDITOR) else ny_site)
    response = client_for(person).post(f"{SESSIONS}{session.pk}/void/", {"reason": "not ours"}, format="json")
    assert response.status_code == status, response.content
    assert GameSession.objects.count() == (2 if status == 201 else 1)


def test_another_sites_manager_cannot_void_it(client_for, org, ny_site, ny_shift, started):
    session = record_session(ny_shift.user, ny_site, started)
    other = SiteFactory(organization=org, name="Saugerties Hall", jurisdiction="NY", time_zone="America/New_York")
    stranger = make_person(org, Role.SHIFT_MANAGER, other)
    response = client_for(stranger).post(f"{SESSIONS}{session.pk}/void/", {"reason": "not ours"}, format="json")
    assert response.status_code == 404
    assert GameSession.objects.count() == 1


def test_a_session_of_a_day_whose_books_are_closed_is_not_voided(org, ny_site, ny_shift):
    session, close = session_two_days_ago(org, ny_site, ny_shift)
    close()
    with pytest.raises(ValidationError) as refused:
        services.void_session(acting_user=ny_shift.user, session=session, reason="not ours")
    message = refused.value.message_dict["session"][0]
    assert message.startswith("House control (closed books") and str(session.gaming_date) in message
    assert GameSession.objects.count() == 1 and _day(session)["sessions"] == 1


def test_the_database_holds_a_void_to_a_correction_with_nothing_and_a_reason(ny_site, ny_shift, started):
    session = record_session(ny_shift.user, ny_site, started)
    base = {
        "site": ny_site,
        "gaming_date": session.gaming_date,
        "licence_number": session.licence_number,
        "started_at": session.started_at,
        "ended_at": session.ended_at,
        "recorded_by": ny_shift,
        "is_void": True,
    }
    for wrong in (
        {"receipts_cents": 0, "prizes_cents": 0, "reason": "no session pointed at"},
        {"receipts_cents": 5, "prizes_cents": 0, "reason": "money kept", "corrects": session},
        {"receipts_cents": 0, "prizes_cents": 0, "reason": "", "corrects": session},
    ):
        with pytest.raises(IntegrityError), transaction.atomic():
            GameSession.objects.create(**base, **wrong)
    assert GameSession.objects.count() == 1


def test_a_void_entered_past_the_threshold_is_listed_late_as_a_void(ny_site, ny_shift):
    started = one_days_start(ny_site, timedelta(hours=3), before=timedelta(days=2))
    session = record_session(ny_shift.user, ny_site, started)
    void = services.void_session(acting_user=ny_shift.user, session=session, reason="not ours")
    labels = [entry.what for entry in late_entries(ny_site, session.gaming_date, session.gaming_date)]
    assert void.entered_late and "Games-of-chance session void (licence NY-GC-4620)" in labels


def test_the_page_voids_a_session_at_its_row_and_refuses_a_blank_reason_there(client, ny_site, ny_shift, started):
    kept = record_session(ny_shift.user, ny_site, started, receipts_cents=20_000, prizes_cents=0)
    wrong = record_session(ny_shift.user, ny_site, started + timedelta(minutes=10))
    page = at_site(client, ny_shift, ny_site)
    day = {"date": wrong.gaming_date.isoformat()}
    shown = page.get(PAGE, day).content.decode()
    assert f'id="void-session-{wrong.pk}"' in shown and f'id="void-session-{kept.pk}"' in shown
    assert 'name="voided_at"' not in shown  # a void of a record: no paper time to give
    token = shown.split(f'id="void-session-{wrong.pk}"')[1].split('name="form_token" value="')[1].split('"')[0]
    blank = page.post(f"/fees/sessions/{wrong.pk}/void/", {"reason": " ", "form_token": token})
    assert blank.status_code == 400
    row = blank.content.decode().split(f'id="void-session-{wrong.pk}"')[1].split("</form>")[0]
    assert "House control: a void states its reason" in row
    assert GameSession.objects.count() == 2
    token = blank.content.decode().split(f'id="void-session-{wrong.pk}"')[1].split('name="form_token" value="')[1]
    done = page.post(
        f"/fees/sessions/{wrong.pk}/void/", {"reason": "Bingo hall's sheet", "form_token": token[: token.index('"')]}
    )
    assert done.status_code == 302
    void = GameSession.objects.get(corrects=wrong)
    after = page.get(PAGE, day).content.decode()
    assert f"voided by {void.pk}" in after and f"void of {wrong.pk}" in after and "Bingo hall&#x27;s sheet" in after
    assert f'id="void-session-{wrong.pk}"' not in after and f'id="void-session-{void.pk}"' not in after
    assert f'id="correct-{void.pk}"' not in after
    total = after[after.index('id="sessions-total"') :]
    assert "(1 session)" in total[: total.index("</tr>")]


def test_a_correct_link_to_a_voided_session_or_its_void_offers_a_new_session_not_a_correction(
    client, ny_site, ny_shift, started
):
    session = record_session(ny_shift.user, ny_site, started)
    void = services.void_session(acting_user=ny_shift.user, session=session, reason="not ours")
    page = at_site(client, ny_shift, ny_site)
    for asked, says in (
        (session, f"Session {session.pk} is voided, by session {void.pk}: a void is not corrected."),
        (void, f"Session {void.pk} is the void of session {session.pk}: a void is not corrected."),
    ):
        shown = page.get(PAGE, {"correct": asked.pk}).content.decode()
        assert says in shown and "record it anew below" in shown
        assert 'name="corrects" value=' not in shown and 'id="form-title">Record a session' in shown
