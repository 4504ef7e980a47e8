"""Duty without paperwork and the pit terminal's badge lists (issue 33): a pit boss or shift
manager who signs a slip's step is on duty; a slip is never offered for receipt before its
verification while someone eligible is on duty; each step lists only who may take it."""

import json
import re
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from cardroom import pins
from cardroom.models import Membership, Role, Table
from core.models import AuditEvent
from floor import queries, services
from floor.models import DutyPeriod
from floor.pit_terminal import terminal_data
from floor.views import outbox_seal
from tests.factories import SiteFactory, TableFactory, make_person

from .conftest import FILL, TRAY


def _terminal(site, station=True):
    now = timezone.now()
    return terminal_data(site, queries.pit_board(site, now), station=station, at=now)


def _initials(badges):
    return sorted(b["initials"] if isinstance(b, dict) else b.initials for b in badges)


def test_a_pit_boss_who_verifies_is_on_duty_so_the_openers_own_slip_waits_for_verification(
    fill, dealer_shift, cast, shift_manager, site
):
    boss, dealer = cast[Role.PIT_BOSS], cast[Role.DEALER]
    services.verify_slip(acting_user=boss.user, slip=fill)
    period = DutyPeriod.objects.get(employee=boss, ended_at__isnull=True)
    assert (period.site, period.role, period.recorded_by) == (site, Role.PIT_BOSS, boss)
    assert AuditEvent.objects.get(action="duty.started").after["by_signing"] is True

    # The night: the shift manager who opened the day prepares a slip minutes later.
    mine = services.prepare_fill(
        acting_user=shift_manager.user, table=fill.table, chips=FILL, cashier=cast[Role.CASHIER]
    )
    with pytest.raises(ValidationError) as caught:
        services.receive_slip(acting_user=dealer.user, slip=mine, unverified_reason="In a hurry.")
    assert caught.value.message_dict["slip"][0].startswith(
        f"ND 99-01.3-08-05(5): fill slip {mine.number} must be verified before it is received; {boss} is on duty"
    )
    slip = next(s for s in _terminal(site)["slips"] if s["id"] == mine.pk)
    assert slip["unverified_allowed"] is False and _initials(slip["verifiers"]) == []  # nobody with a PIN yet


def test_signing_twice_keeps_one_duty_period_and_a_time_from_paper_puts_nobody_on_duty(
    day_under_way, open_table, dealer_shift, cast, site
):
    # A time from paper (given, even the present moment: a slip is never dated before its table
    # opened, and the table opened just now) puts nobody on duty.
    boss = cast[Role.PIT_BOSS]
    earlier = timezone.now()
    services.prepare_fill(acting_user=boss.user, table=open_table, chips=FILL, cashier=cast[Role.CASHIER], at=earlier)
    assert not DutyPeriod.objects.exists()
    services.prepare_fill(acting_user=boss.user, table=open_table, chips=FILL, cashier=cast[Role.CASHIER])
    services.prepare_credit(acting_user=boss.user, table=open_table, chips=FILL)
    assert DutyPeriod.objects.filter(employee=boss).count() == 1


def test_a_pit_boss_signed_out_is_put_on_duty_again_by_the_next_slip_they_prepare(open_table, dealer_shift, cast):
    # The slip's context reads the register at the slip's moment: a period ended before it is not duty.
    boss = cast[Role.PIT_BOSS]
    services.prepare_credit(acting_user=boss.user, table=open_table, chips=FILL)
    services.end_duty(acting_user=boss.user, period=DutyPeriod.objects.get(employee=boss))
    services.prepare_credit(acting_user=boss.user, table=open_table, chips=FILL)
    periods = DutyPeriod.objects.filter(employee=boss).order_by("started_at")
    assert [p.ended_at is None for p in periods] == [False, True]
    assert AuditEvent.objects.filter(action="duty.started").count() == 2


def test_a_cashier_or_dealer_signing_is_not_put_on_duty(fill, dealer_shift, cast):
    services.verify_slip(acting_user=cast[Role.PIT_BOSS].user, slip=fill)
    services.receive_slip(acting_user=cast[Role.DEALER].user, slip=fill)
    assert set(DutyPeriod.objects.values_list("employee__initials", flat=True)) == {cast[Role.PIT_BOSS].initials}


@pytest.fixture
def with_pins(cast):
    for number, role in enumerate(
        (Role.CASHIER, Role.PIT_BOSS, Role.SHIFT_MANAGER, Role.DEALER, Role.WHEEL_OPERATOR, Role.COUNT_TEAM)
    ):
        pins.set_pin(acting_user=cast[role].user, employee=cast[role], pin=f"90817{number}")


def test_each_step_lists_only_the_badges_allowed_to_take_it(fill, dealer_shift, cast, shift_manager, site, with_pins):
    data = _terminal(site)
    cashier, boss, dealer = cast[Role.CASHIER], cast[Role.PIT_BOSS], cast[Role.DEALER]
    everyone = {b["initials"] for key in ("fill_preparers", "supervisors", "cashiers") for b in data[key]}
    assert cast[Role.COUNT_TEAM].initials not in everyone  # the count team signs nothing on the floor
    assert _initials(data["fill_preparers"]) == _initials([cashier, boss, shift_manager])
    assert _initials(data["supervisors"]) == [shift_manager.initials]
    table = data["tables"][0]
    assert table["dealer"]["initials"] == dealer.initials
    assert table["credit_preparers"][0]["initials"] == dealer.initials  # the dealer at the table first
    slip = data["slips"][0]
    # Verification: the shift manager who opened the day is on duty (presumed) and not the
    # preparer; the pit boss, off duty, is not offered while someone eligible is on duty.
    assert (_initials(slip["verifiers"]), slip["unverified_allowed"]) == ([shift_manager.initials], False)
    assert _initials(slip["receivers"]) == [dealer.initials]  # the seated dealer only

    # Once the register holds someone, it alone says who is on duty (floor.queries.on_duty).
    services.start_duty(acting_user=boss.user, site=site)
    slip = _terminal(site)["slips"][0]
    assert _initials(slip["verifiers"]) == [boss.initials]


def test_a_slips_preparer_is_never_offered_to_receive_it(dealer_shift, cast, org, site, with_pins):
    """A pit boss who is also the cashier prepares a credit: the terminal offers the other cashier,
    not them (floor.services.receiver_capacity refuses the preparer)."""
    boss = make_person(org, Role.PIT_BOSS, site)
    Membership.objects.create(employee=boss, site=site, role=Role.CASHIER)
    pins.set_pin(acting_user=boss.user, employee=boss, pin="908179")
    services.prepare_credit(acting_user=boss.user, table=dealer_shift.table, chips=FILL)
    slip = _terminal(site)["slips"][0]
    assert _initials(slip["receivers"]) == [cast[Role.CASHIER].initials]


def test_with_nobody_eligible_on_duty_any_pit_boss_or_shift_manager_is_offered_and_receipt_is_an_exception(
    day_under_way, fill, dealer_shift, cast, shift_manager, site, with_pins
):
    period = services.start_duty(acting_user=shift_manager.user, site=site, at=timezone.now() - timedelta(minutes=30))
    services.end_duty(acting_user=shift_manager.user, period=period, at=timezone.now() - timedelta(minutes=10))
    slip = _terminal(site)["slips"][0]
    assert slip["unverified_allowed"] is True
    assert _initials(slip["verifiers"]) == _initials([cast[Role.PIT_BOSS], shift_manager])


def test_a_station_lists_only_people_with_a_pin_and_a_person_sees_everyone(fill, dealer_shift, cast, site):
    assert _terminal(site)["fill_preparers"] == []
    assert len(_terminal(site, station=False)["fill_preparers"]) == 3


def test_a_stations_home_is_its_pit_terminal(client, site, cast, fill, dealer_shift, with_pins):
    station = pins.create_station(
        acting_user=None, site=site, username="pit-a", password="terminal-password-1", name="A"
    )
    client.force_login(station.user)
    assert client.get("/").url == "/floor/pit/"
    page = client.get("/floor/pit/").content.decode()
    assert 'id="pit-data"' in page and 'data-pit-action="prepare"' in page and "pit_terminal.js" in page
    assert 'data-retry-seconds="3"' in page  # the outbox tries again every 3 s (settings.PIT_OUTBOX_RETRY_SECONDS)
    # A person's pit has no terminal: their own login signs.
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    assert 'id="pit-data"' not in client.get("/floor/pit/").content.decode()


def _outbox(client, user):
    client.logout()
    client.force_login(user)
    page = client.get("/floor/pit/").content.decode()
    return re.search(r'id="pit-outbox"[^>]*data-store="([^"]+)" data-seal="([^"]+)"', page).groups()


def test_a_stations_queue_key_is_its_own_and_outlives_its_sign_in(client, site, cast, fill, dealer_shift):
    """The key sealing a terminal's offline queue (floor.views.outbox_seal) is the same for every
    sign-in of the station login at the site, and another login's differs: it lives on the
    server, not in the session, so a queue taken before a sign-out is opened after signing in."""
    first = pins.create_station(acting_user=None, site=site, username="pit-a", password="terminal-password-1", name="A")
    other = pins.create_station(acting_user=None, site=site, username="pit-b", password="terminal-password-2", name="B")
    store, seal = _outbox(client, first.user)
    assert _outbox(client, first.user) == (store, seal)  # signed in again: the same queue, the same key
    assert len(seal) == 64 and seal not in str(dict(client.session))
    other_store, other_seal = _outbox(client, other.user)
    assert other_store != store and other_seal != seal
    elsewhere = SiteFactory(organization=site.organization, name="Mandan Hall")
    assert outbox_seal(first.user, elsewhere) != seal


def test_a_slip_received_unverified_is_on_the_daily_report_with_its_reason(
    day_under_way, client_for, fill, dealer_shift, cast, shift_manager, site
):
    import io

    import pdfplumber

    from reports.services import generate_report

    period = services.start_duty(acting_user=shift_manager.user, site=site, at=timezone.now() - timedelta(minutes=30))
    services.end_duty(acting_user=shift_manager.user, period=period, at=timezone.now() - timedelta(minutes=10))
    services.receive_slip(acting_user=cast[Role.DEALER].user, slip=fill, unverified_reason="Pit boss at the cage.")
    api = client_for(cast[Role.AUDITOR])
    day = str(fill.gaming_day.gaming_date)
    run = api.post("/api/v1/reports/", {"kind": "daily", "site": site.pk, "start": day, "end": day}, format="json")
    assert run.status_code == 201, run.content
    if run.json()["status"] == "queued":
        assert generate_report(run.json()["id"]) is True
    content = api.get(f"/api/v1/reports/{run.json()['id']}/download/").content
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        text = " ".join(" ".join(page.extract_text() for page in pdf.pages).split())
    assert "Received unverified (1)" in text
    assert f"Fill slip {fill.number}, table {fill.table_number}" in text
    section = text[text.index("Received unverified (1)") :]
    assert "Pit boss at the cage." in section and "99-01.3-08-05(5)" in section, section[:600]


def test_a_station_opens_a_table_seats_and_relieves_a_dealer_and_signs_duty_with_pins(
    client, site, gaming_day, table, chips, cast, with_pins
):
    station = pins.create_station(
        acting_user=None, site=site, username="pit-b", password="terminal-password-1", name="B"
    )
    client.force_login(station.user)
    manager, boss, dealer = cast[Role.SHIFT_MANAGER], cast[Role.PIT_BOSS], cast[Role.DEALER]
    as_manager = {"signer_badge": manager.initials, "signer_pin": "908172"}

    def post(url, body):
        return client.post(url, body, content_type="application/json")

    opener = {"table": table.pk, "kind": "opener", "chips": [{"denomination": 2500, "quantity": 40}]}
    refused = post("/api/v1/table-inventories/", opener)
    assert refused.status_code == 403 and "a station signs nothing itself" in refused.json()["detail"]
    assert post("/api/v1/table-inventories/", {**opener, **as_manager}).status_code == 201
    seated = post("/api/v1/dealer-shifts/", {"table": table.pk, "dealer": dealer.pk, **as_manager})
    assert seated.status_code == 201, seated.json()
    assert post(f"/api/v1/dealer-shifts/{seated.json()['id']}/end/", as_manager).status_code == 200
    duty = post("/api/v1/duty-periods/", {"site": site.pk, "signer_badge": boss.initials, "signer_pin": "908171"})
    assert duty.status_code == 201 and duty.json()["employee"] == boss.pk
    ended = post(
        f"/api/v1/duty-periods/{duty.json()['id']}/end/", {"signer_badge": boss.initials, "signer_pin": "908171"}
    )
    assert ended.status_code == 200 and ended.json()["ended_at"]
    actors = set(
        AuditEvent.objects.filter(action__startswith="dealer_shift.").values_list("actor__username", flat=True)
    )
    assert actors == {manager.user.username}


def test_a_tables_fill_starts_in_the_denomination_its_last_fill_brought_most_of(cast, fill, site):
    """FILL brought $500 in $25 chips and $100 in $5: the terminal's next fill at the table opens in
    the $25 box (static/floor/pit_terminal.js's firstChip); a voided fill counts for nothing, and a
    table never filled has no start but the largest chip."""
    TableFactory(site=site, number=2)
    tables = {table["number"]: table for table in _terminal(site)["tables"]}
    assert (tables[1]["last_fill_cents"], tables[2]["last_fill_cents"]) == (2500, None)
    services.void_slip(acting_user=cast[Role.CASHIER].user, slip=fill, reason="Wrong table")
    assert _terminal(site)["tables"][0]["last_fill_cents"] is None


def test_the_last_fills_are_read_in_two_queries_whatever_the_tables(cast, fill, site, django_assert_num_queries):
    with django_assert_num_queries(2):
        assert queries.last_fill_denominations(Table.objects.filter(site=site)) == {fill.table_id: 2500}


def test_the_terminals_poll_asks_the_same_queries_for_more_tables_fills_and_people(
    client, station, with_pins, cast, fill, dealer_shift, site
):
    """The station's board is polled every few seconds (`/pit/live/`, with the terminal's data):
    more tables, each dealt and filled (fills verified, voided, several to a table), and more
    people with a PIN ask not one query more. Nor does the duty register's state: at first it is
    empty and the day's opener is presumed on duty (queries.on_duty, its opener and close read with
    the day: two queries fewer than before), then the verifier is on it."""
    from tests.conftest import TERMINAL_PIN

    manager, cashier, boss = cast[Role.SHIFT_MANAGER].user, cast[Role.CASHIER].user, cast[Role.PIT_BOSS].user
    client.force_login(station.user)
    live = f"/floor/sites/{site.pk}/pit/live/"
    client.get(live)  # the session and the access cache warm up alike for both

    def poll() -> tuple[int, int]:
        with CaptureQueriesContext(connection) as captured:
            text = client.get(live).content.decode()
        data = json.loads(re.search(r'id="pit-data" type="application/json">(.*?)</script>', text).group(1))
        return len(captured), len(data["tables"])

    few, tables = poll()
    for number in range(2, 6):
        table = TableFactory(site=site, number=number)
        services.record_table_inventory(acting_user=manager, table=table, kind="opener", chips=TRAY)
        dealer = make_person(site.organization, Role.DEALER, site)
        pins.set_pin(acting_user=dealer.user, employee=dealer, pin=TERMINAL_PIN)
        services.start_dealer_shift(acting_user=manager, table=table, dealer=dealer)
        for _ in range(2):
            services.verify_slip(
                acting_user=boss, slip=services.prepare_fill(acting_user=cashier, table=table, chips=FILL)
            )
        voided = services.prepare_fill(acting_user=cashier, table=table, chips=[{"denomination": 500, "quantity": 10}])
        services.void_slip(acting_user=cashier, slip=voided, reason="Wrong table")
    many, more = poll()
    assert (tables, more) == (1, 5) and many == few


def test_a_step_sent_with_no_badge_tapped_says_what_to_tap_never_the_fields_name(
    client, site, fill, dealer_shift, cast, with_pins
):
    station = pins.create_station(
        acting_user=None, site=site, username="pit-c", password="terminal-password-1", name="C"
    )
    client.force_login(station.user)
    no_badge = client.post(
        f"/api/v1/fill-slips/{fill.pk}/verify/",
        {"signer_badge": "", "signer_pin": "908172"},
        content_type="application/json",
    )
    assert no_badge.status_code == 400
    assert no_badge.json()["signer_badge"] == [pins.NO_BADGE_HOUSE_CONTROL]
    assert pins.NO_BADGE_HOUSE_CONTROL.startswith("House control: tap the badge of who takes this step")
    neither = client.post(
        f"/api/v1/fill-slips/{fill.pk}/verify/", {"signer_badge": "", "signer_pin": ""}, content_type="application/json"
    ).json()
    assert neither == {"signer_badge": [pins.NO_BADGE_HOUSE_CONTROL], "signer_pin": [pins.NO_PIN_HOUSE_CONTROL]}
    assert "signer_" not in " ".join(m for messages in neither.values() for m in messages)


def test_a_credits_receipt_preselects_the_only_cashier_as_a_fills_preselects_its_dealer(
    credit, fill, dealer_shift, cast, org, site, with_pins
):
    """The credit's receivers are the chip bank cashier and any dealer not dealing (acting as
    cashier): the one cashier is preselected, as the fill's cashier is when preparing it."""
    idle = make_person(org, Role.DEALER, site)
    pins.set_pin(acting_user=idle.user, employee=idle, pin="908178")
    slips = {s["kind"]: s for s in _terminal(site)["slips"]}
    assert _initials(slips["credit"]["receivers"]) == _initials([cast[Role.CASHIER], idle])
    assert slips["credit"]["receiver"] == cast[Role.CASHIER].pk
    assert slips["fill"]["receiver"] == cast[Role.DEALER].pk


def test_a_verified_slip_says_who_receives_its_copy_citing_the_rule(credit, fill, dealer_shift, site, with_pins):
    slips = {s["kind"]: s for s in _terminal(site)["slips"]}
    assert slips["credit"]["after_verify"] == (
        f"Credit slip {credit.number} verified: now the chip bank cashier, or a dealer acting as cashier who is "
        "not dealing, receives its copy (ND 99-01.3-08-05(6))."
    )
    assert slips["fill"]["after_verify"] == (
        f"Fill slip {fill.number} verified: now the dealer on shift at table {fill.table.number} receives its copy "
        "(ND 99-01.3-08-05(6))."
    )
