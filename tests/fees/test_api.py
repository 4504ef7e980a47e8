"""WA-BJ table fees (WAC 230-40-125(1), 1999 proposed amendment) and NY games-of-chance sessions
through the API: the happy paths, each refusal, the reconciliation's over/short, and the roles."""

from datetime import date, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from cardroom.models import Role
from core.models import AuditEvent
from fees.models import FeeCollection, FeeCount, GameSession
from floor.calculations import business_date
from tests.factories import SiteFactory, TableFactory, witness_pin

from .conftest import one_days_start

FEES = "/api/v1/fee-collections/"
COUNTS = "/api/v1/fee-counts/"
SESSIONS = "/api/v1/game-sessions/"


def test_a_pit_boss_records_a_fee_and_it_is_audited_as_theirs(cast, client_for, fee_payload, bj_table):
    boss = cast[Role.PIT_BOSS]
    response = client_for(boss).post(FEES, fee_payload, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["amount_cents"] == 1500 and body["table_number"] == 1 and body["collected_by_initials"] == boss.initials
    fee = FeeCollection.objects.get()
    assert AuditEvent.objects.filter(action="fee.collected", object_id=str(fee.pk), actor=boss.user).count() == 1


def test_the_amount_must_be_the_rate_times_the_count(cast, client_for, fee_payload):
    response = client_for(cast[Role.PIT_BOSS]).post(FEES, {**fee_payload, "amount_cents": 1400}, format="json")
    assert response.status_code == 400
    message = response.json()["amount_cents"][0]
    assert "WAC 230-40-125(1)" in message and "$15.00" in message and "$14.00" in message
    assert not FeeCollection.objects.exists()


def test_an_amount_left_out_is_the_rate_times_the_count(cast, client_for, fee_payload):
    payload = {key: value for key, value in fee_payload.items() if key != "amount_cents"}
    response = client_for(cast[Role.PIT_BOSS]).post(FEES, payload, format="json")
    assert response.status_code == 201, response.content
    expected = fee_payload["rate_cents"] * fee_payload["count"]
    assert response.json()["amount_cents"] == expected == FeeCollection.objects.get().amount_cents
    # null is not "left out": a 400 naming the field, nothing written
    refused = client_for(cast[Role.PIT_BOSS]).post(FEES, {**payload, "amount_cents": None}, format="json")
    assert refused.status_code == 400 and "amount_cents" in refused.json()
    assert FeeCollection.objects.count() == 1


def test_fees_are_refused_at_a_site_of_another_pack(cast, client_for, org, site):
    nd_site = SiteFactory(organization=org, name="Elks Lodge", jurisdiction="ND")
    table = TableFactory(site=nd_site, number=1)
    boss = cast[Role.PIT_BOSS]
    from cardroom import services

    services.add_membership(acting_user=cast[Role.GAMING_MANAGER].user, employee=boss, role=Role.PIT_BOSS, site=nd_site)
    payload = {
        "table": table.pk,
        "basis": "per_seat",
        "period_minutes": 30,
        "rate_cents": 300,
        "count": 2,
        "amount_cents": 600,
    }
    response = client_for(boss).post(FEES, payload, format="json")
    assert response.status_code == 400
    # The site's own words: its pack (ND) states no table fees, so no Washington rule is cited there.
    assert response.json()["table"][0] == (
        "House control: table fees collected on a time basis are not kept at Elks Lodge: it runs the North Dakota "
        "pack, whose revenue is its tables' drop."
    )


@pytest.mark.parametrize(
    "field, value",
    [
        ("period_minutes", 0),
        ("period_minutes", 241),
        ("rate_cents", 0),
        ("rate_cents", 10_001),
        ("count", 0),
        ("count", 10),
        ("basis", "per_hand"),
        ("amount_cents", -5),
    ],
)
def test_out_of_bound_fields_are_400_naming_the_field(cast, client_for, fee_payload, field, value):
    response = client_for(cast[Role.PIT_BOSS]).post(FEES, {**fee_payload, field: value}, format="json")
    assert response.status_code == 400 and field in response.json()
    if field != "basis":  # a choice's refusal names the field and its choices (README, REST API)
        # keyed by the field, the sentence reads in words (never "rate_cents is from ...")
        assert field not in response.json()[field][0]
    assert not FeeCollection.objects.exists()


def test_more_seats_than_the_table_has_are_refused(cast, client_for, fee_payload, bj_table):
    bj_table.betting_spaces = 4
    bj_table.save()
    response = client_for(cast[Role.PIT_BOSS]).post(
        FEES, {**fee_payload, "count": 5, "amount_cents": 1500}, format="json"
    )
    assert response.status_code == 400 and "1 to 4 seats" in response.json()["count"][0]


def test_a_table_of_nine_seats_set_up_through_the_api_is_charged_for_nine(cast, client_for, fee_payload, site):
    """A Washington blackjack table states its seats (its betting spaces) as it states its players:
    before, the option was not one of the pack's, so every table kept the model's 7 and a fee per
    seat at a table of nine players stopped at seven seats (House control's "1 to 7 seats")."""
    manager = client_for(cast[Role.GAMING_MANAGER])
    table = {"site": site.pk, "number": 2, "game": "21", "min_wager_cents": 100, "max_wager_cents": 2500, "decks": 6}
    table |= {"banker": "player", "min_bank_cents": 30000, "max_players": 9, "betting_spaces": 9}
    created = manager.post("/api/v1/tables/", table, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["betting_spaces"] == 9
    fee = {**fee_payload, "table": created.json()["id"], "count": 9, "amount_cents": 9 * fee_payload["rate_cents"]}
    charged = client_for(cast[Role.PIT_BOSS]).post(FEES, fee, format="json")
    assert charged.status_code == 201, charged.json()
    assert charged.json()["count"] == 9


def test_a_fee_at_an_inactive_table_is_refused_citing_the_house_control(cast, client_for, fee_payload, bj_table):
    bj_table.active = False
    bj_table.save()
    response = client_for(cast[Role.PIT_BOSS]).post(FEES, fee_payload, format="json")
    assert response.status_code == 400
    assert response.json()["table"] == [
        f"House control: a fee is collected at one of {bj_table.site}'s active tables; table 1 is not."
    ]
    assert not FeeCollection.objects.exists()


def test_a_period_of_no_minutes_is_refused_in_plain_words(cast, client_for, fee_payload):
    response = client_for(cast[Role.PIT_BOSS]).post(FEES, {**fee_payload, "period_minutes": 0}, format="json")
    assert response.status_code == 400
    assert response.json()["period_minutes"] == [
        "The period is from 1 minute to 240 minutes (House control); got 0 minutes."
    ]


def test_a_table_of_one_seat_is_said_in_the_singular(cast, client_for, fee_payload, bj_table):
    bj_table.betting_spaces = 1
    bj_table.save()
    response = client_for(cast[Role.PIT_BOSS]).post(
        FEES, {**fee_payload, "count": 2, "amount_cents": 2 * fee_payload["rate_cents"]}, format="json"
    )
    assert response.status_code == 400 and "a fee charges 1 to 1 seat at table" in response.json()["count"][0]


def test_a_dealer_may_not_collect_nor_a_pit_boss_void(cast, client_for, fee_payload):
    refused = client_for(cast[Role.DEALER]).post(FEES, fee_payload, format="json")
    # A fees room's cashier keeps fee cash, no chip bank: the refusal names the role as the site does.
    assert refused.status_code == 403 and refused.json()["detail"] == (
        "House control: only a shift manager, pit boss or cashier may collect a table fee."
    )
    fee_id = client_for(cast[Role.PIT_BOSS]).post(FEES, fee_payload, format="json").json()["id"]
    refused = client_for(cast[Role.PIT_BOSS]).post(f"{FEES}{fee_id}/void/", {"reason": "wrong table"}, format="json")
    assert refused.status_code == 403 and "House control" in refused.json()["detail"]
    assert FeeCollection.objects.count() == 1


def test_a_shift_manager_voids_a_fee_once_with_a_row_pointing_back(cast, client_for, fee_payload):
    fee_id = client_for(cast[Role.PIT_BOSS]).post(FEES, fee_payload, format="json").json()["id"]
    shift = client_for(cast[Role.SHIFT_MANAGER])
    void = shift.post(f"{FEES}{fee_id}/void/", {"reason": "charged the wrong table"}, format="json")
    assert void.status_code == 201 and void.json()["voids"] == fee_id and void.json()["amount_cents"] == -1500
    again = shift.post(f"{FEES}{fee_id}/void/", {"reason": "twice"}, format="json")
    assert again.status_code == 400 and "voided already" in again.json()["fee"][0]
    assert shift.post(f"{FEES}{fee_id}/void/", {}, format="json").status_code == 400  # the reason is required


def test_the_reconciliation_shows_collected_counted_and_over_short(cast, client_for, fee_payload, site):
    boss, cashier = cast[Role.PIT_BOSS], cast[Role.CASHIER]
    for _ in range(3):
        assert client_for(boss).post(FEES, fee_payload, format="json").status_code == 201  # 3 x $15
    voided = client_for(boss).post(FEES, fee_payload, format="json").json()["id"]
    client_for(cast[Role.SHIFT_MANAGER]).post(f"{FEES}{voided}/void/", {"reason": "mistake"}, format="json")
    day = FeeCollection.objects.first().gaming_date
    count = {
        "site": site.pk,
        "gaming_date": day.isoformat(),
        "counted_cents": 4000,
        "witness": boss.pk,
        "witness_pin": witness_pin(boss),
    }
    assert client_for(cashier).post(COUNTS, count, format="json").status_code == 201
    query = {"site": site.pk, "start": day.isoformat(), "end": day.isoformat()}
    (row,) = client_for(cast[Role.AUDITOR]).get(f"{FEES}reconciliation/", query).json()
    assert row == {
        "site": site.pk,
        "gaming_date": day.isoformat(),
        "collections": 3,
        "collected_cents": 4500,
        "counted_cents": 4000,
        "over_short_cents": -500,
    }
    # A recount corrects the count; the newest stands.
    assert client_for(cashier).post(COUNTS, {**count, "counted_cents": 4500}, format="json").status_code == 201
    (row,) = client_for(cast[Role.AUDITOR]).get(f"{FEES}reconciliation/", query).json()
    assert row["over_short_cents"] == 0 and FeeCount.objects.count() == 2


def test_the_fee_cash_is_counted_by_two_people(cast, client_for, site):
    cashier = cast[Role.CASHIER]
    today = timezone.localdate().isoformat()
    alone = {"site": site.pk, "gaming_date": today, "counted_cents": 100, "witness": cashier.pk, "witness_pin": "0000"}
    response = client_for(cashier).post(COUNTS, alone, format="json")
    assert response.status_code == 400 and "two people" in response.json()["witness"][0]


def test_a_negative_count_or_session_total_reads_in_words_as_on_the_page(cast, client_for, site, ny_site, ny_shift):
    today = timezone.localdate().isoformat()
    count = {
        "site": site.pk,
        "gaming_date": today,
        "counted_cents": -100,
        "witness": cast[Role.PIT_BOSS].pk,
        "witness_pin": witness_pin(cast[Role.PIT_BOSS]),
    }
    response = client_for(cast[Role.CASHIER]).post(COUNTS, count, format="json")
    assert response.status_code == 400
    assert response.json()["counted_cents"] == [
        "The fee cash counted is from $0.00 to $1,000,000.00 (House control); got -$1.00."
    ]
    start = one_days_start(ny_site, timedelta(hours=1), before=timedelta(hours=4))
    session = {
        "site": ny_site.pk,
        "licence_number": "NY-GC-4620",
        "started_at": start.isoformat(),
        "ended_at": (start + timedelta(hours=1)).isoformat(),
        "receipts_cents": -5,
        "prizes_cents": 0,
    }
    response = client_for(ny_shift).post(SESSIONS, session, format="json")
    assert response.status_code == 400
    assert response.json()["receipts_cents"][0].startswith("A session's receipts total is from $0.00")
    assert not FeeCount.objects.exists() and not GameSession.objects.exists()


def test_a_ny_session_records_receipts_prizes_and_net(cast, client_for, ny_site, ny_shift):
    start = one_days_start(ny_site, timedelta(hours=3), before=timedelta(hours=4))
    payload = {
        "site": ny_site.pk,
        "licence_number": "NY-GC-4620",
        "started_at": start.isoformat(),
        "ended_at": (start + timedelta(hours=3)).isoformat(),
        "receipts_cents": 125_000,
        "prizes_cents": 80_000,
    }
    response = client_for(ny_shift).post(SESSIONS, payload, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["net_cents"] == 45_000
    first = response.json()["id"]
    corrected = client_for(ny_shift).post(
        SESSIONS, {**payload, "prizes_cents": 90_000, "corrects": first}, format="json"
    )
    assert corrected.status_code == 201 and corrected.json()["corrects"] == first
    from fees.queries import session_totals

    day = GameSession.objects.get(pk=first).gaming_date
    assert session_totals([ny_site.pk], day, day) == {
        "sessions": 1,
        "receipts_cents": 125_000,
        "prizes_cents": 90_000,
        "net_cents": 35_000,
    }


def test_a_session_names_the_licence_on_file_in_force_on_its_day(cast, client_for, ny_site, ny_shift):
    """House control: where the organization has licences on file for New York (approvals), a
    session's licence is the one in force on its gaming date; a later licence is not yet."""
    from approvals.services import record_licence

    manager = cast[Role.GAMING_MANAGER].user
    record_licence(
        acting_user=manager, organization=ny_site.organization, licence_number="NY-GC-4620",
        tie_option=1, effective_on=date(2024, 1, 1),
    )  # fmt: skip
    record_licence(
        acting_user=manager, organization=ny_site.organization, licence_number="NY-GC-4621",
        tie_option=1, effective_on=timezone.localdate() + timedelta(days=30),
    )  # fmt: skip
    start = one_days_start(ny_site, timedelta(hours=1), before=timedelta(hours=4))
    payload = {
        "site": ny_site.pk,
        "licence_number": "XX-1",
        "started_at": start.isoformat(),
        "ended_at": (start + timedelta(hours=1)).isoformat(),
        "receipts_cents": 1_000,
        "prizes_cents": 0,
    }
    for wrong in ("XX-1", "NY-GC-4621"):
        response = client_for(ny_shift).post(SESSIONS, {**payload, "licence_number": wrong}, format="json")
        assert response.status_code == 400
        (message,) = response.json()["licence_number"]
        assert message.startswith("House control: a session names the organization's licence in force")
        assert "that is NY-GC-4620" in message and f"(got {wrong!r})" in message
        assert "NY-GC-4620 (from 2024-01-01), NY-GC-4621 (from" in message and "NYCRR" not in message
    assert not GameSession.objects.exists()
    right = client_for(ny_shift).post(SESSIONS, {**payload, "licence_number": "NY-GC-4620"}, format="json")
    assert right.status_code == 201, right.content


def test_a_session_is_refused_at_a_non_ny_site_and_when_it_ends_before_it_starts(
    cast, client_for, site, ny_site, ny_shift
):
    start = timezone.now() - timedelta(hours=4)
    payload = {
        "site": site.pk,
        "licence_number": "X-1",
        "started_at": start.isoformat(),
        "ended_at": (start + timedelta(hours=1)).isoformat(),
        "receipts_cents": 1,
        "prizes_cents": 0,
    }
    wrong_pack = client_for(cast[Role.SHIFT_MANAGER]).post(SESSIONS, payload, format="json")
    message = wrong_pack.json()["site"][0]
    assert wrong_pack.status_code == 400 and message.startswith("House control: games-of-chance sessions are not kept")
    assert "NYCRR" not in message and "whose revenue is the fees collected at its tables" in message
    backwards = {**payload, "site": ny_site.pk, "ended_at": (start - timedelta(hours=1)).isoformat()}
    response = client_for(ny_shift).post(SESSIONS, backwards, format="json")
    assert response.status_code == 400 and "ended_at" in response.json()
    assert not GameSession.objects.exists()


@pytest.mark.parametrize("url", [FEES, COUNTS, SESSIONS, f"{FEES}reconciliation/"])
def test_anonymous_requests_are_refused(api_client, url):
    assert api_client.get(url).status_code in (401, 403)
    assert api_client.post(url, {}, format="json").status_code in (401, 403, 405)


def test_another_organization_sees_none_of_the_fees(cast, client_for, fee_payload, stranger_site):
    from tests.factories import make_person

    client_for(cast[Role.PIT_BOSS]).post(FEES, fee_payload, format="json")
    stranger = make_person(stranger_site.organization, Role.GAMING_MANAGER, None)
    assert client_for(stranger).get(FEES).json()["results"] == []


def test_the_daily_and_quarter_figures_carry_the_packs_own_figures(
    cast, client_for, fee_payload, site, ny_site, ny_shift
):
    from core.periods import Quarter

    client_for(cast[Role.PIT_BOSS]).post(FEES, fee_payload, format="json")
    day = FeeCollection.objects.get().gaming_date
    gm = client_for(cast[Role.GAMING_MANAGER])
    daily = gm.get(f"/api/v1/sites/{site.pk}/daily-summary/", {"date": day.isoformat()})
    assert daily.status_code == 200, daily.content
    pack = daily.json()["pack"]
    assert pack["code"] == "WA-BJ" and pack["revenue_model"] == "fees" and pack["hold_applies"] is False
    assert pack["fees"]["fees_collected_cents"] == 1500 and pack["fees"]["days_not_counted"] == 1
    quarter = str(Quarter.containing(day))
    ny = gm.get(f"/api/v1/sites/{ny_site.pk}/quarter-summary/", {"quarter": quarter}).json()["pack"]
    assert ny["code"] == "NY" and ny["sessions"] == {
        "sessions": 0,
        "receipts_cents": 0,
        "prizes_cents": 0,
        "net_cents": 0,
    }


def test_the_demo_records_a_week_of_fees_one_day_short_and_no_ny_session_without_a_night_of_play(db):
    from cardroom.demo import load_demo
    from cardroom.pack_demo import extend_demo as packs
    from fees.demo import DAYS, extend_demo
    from fees.queries import fee_days

    demo = packs(load_demo())
    extend_demo(demo)
    extend_demo(demo)  # idempotent
    tacoma = FeeCollection.objects.values_list("site_id", flat=True).first()
    dates = sorted(set(FeeCollection.objects.values_list("gaming_date", flat=True)))
    days = fee_days([tacoma], dates[0], dates[-1])
    assert len(days) == DAYS and [d.over_short_cents for d in days].count(-500) == 1
    assert all(d.over_short_cents in (0, -500) for d in days)
    # each closed fee day (no gaming day opened) deposited, in time, once its second banking day came
    from cage.models import BankDeposit

    deposits = BankDeposit.objects.filter(site_id=tacoma).order_by("gaming_date")
    assert deposits.exists() and all(d.gaming_day_id is None and not d.late for d in deposits)
    assert {d.gaming_date: d.amount_cents for d in deposits}.items() <= {
        d.gaming_date: d.counted_cents for d in days
    }.items()
    # Kingston's sessions are its nights of play (tests/core/test_demo_safety.py): none built here.
    assert GameSession.objects.count() == 0


def test_a_fee_keeps_its_entry_time_and_the_fee_cash_is_not_counted_before_it_was_collected(
    cast, client_for, fee_payload, site
):
    boss, cashier = cast[Role.PIT_BOSS], cast[Role.CASHIER]
    now = timezone.now().replace(microsecond=0)
    collected = now - timedelta(minutes=20)
    response = client_for(boss).post(FEES, {**fee_payload, "collected_at": collected.isoformat()}, format="json")
    assert response.status_code == 201, response.content
    fee = FeeCollection.objects.get()
    assert fee.collected_at == collected and fee.entered_at >= now and response.json()["entered_late"] is False
    count = {
        "site": site.pk,
        "gaming_date": fee.gaming_date.isoformat(),
        "counted_cents": 1500,
        "witness": boss.pk,
        "witness_pin": witness_pin(boss),
    }
    early = client_for(cashier).post(
        COUNTS, {**count, "counted_at": (collected - timedelta(minutes=1)).isoformat()}, format="json"
    )
    assert early.status_code == 400
    message = early.json()["counted_at"][0]
    assert message.startswith("House control: the fee cash of") and "is before the last fee collected" in message
    assert not FeeCount.objects.exists()
    counted = client_for(cashier).post(
        COUNTS, {**count, "counted_at": (collected + timedelta(minutes=5)).isoformat()}, format="json"
    )
    assert counted.status_code == 201, counted.content
    assert counted.json()["entered_at"] is not None


def test_a_session_keeps_its_times_and_ends_after_it_starts(cast, client_for, ny_site, ny_shift):
    start = one_days_start(ny_site, timedelta(hours=3), before=timedelta(hours=4))
    payload = {
        "site": ny_site.pk,
        "licence_number": "NY-GC-4620",
        "started_at": start.isoformat(),
        "ended_at": (start - timedelta(minutes=1)).isoformat(),
        "receipts_cents": 1_000,
        "prizes_cents": 0,
    }
    backwards = client_for(ny_shift).post(SESSIONS, payload, format="json")
    assert backwards.status_code == 400
    assert backwards.json()["ended_at"][0] == "House control: a session ends after it starts."
    ended = start + timedelta(hours=3)
    response = client_for(ny_shift).post(SESSIONS, {**payload, "ended_at": ended.isoformat()}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["entered_at"] is not None and response.json()["entered_late"] is True  # an hour after


def test_a_void_keeps_the_time_it_was_voided_beside_its_entry_time_and_not_before_the_fee(
    cast, client_for, fee_payload
):
    now = timezone.now().replace(microsecond=0)
    collected = now - timedelta(minutes=40)
    fee = client_for(cast[Role.PIT_BOSS]).post(
        FEES, {**fee_payload, "collected_at": collected.isoformat()}, format="json"
    )
    fee_id, shift = fee.json()["id"], client_for(cast[Role.SHIFT_MANAGER])
    void_url = f"{FEES}{fee_id}/void/"
    early = shift.post(
        void_url, {"reason": "wrong table", "voided_at": (collected - timedelta(minutes=1)).isoformat()}, format="json"
    )
    assert early.status_code == 400
    message = early.json()["voided_at"][0]
    assert message.startswith("House control: a void corrects a fee already collected;")
    assert "is before the fee was collected" in message
    ahead = shift.post(
        void_url, {"reason": "wrong table", "voided_at": (now + timedelta(minutes=10)).isoformat()}, format="json"
    )
    assert ahead.status_code == 400 and "future" in ahead.json()["voided_at"][0]
    assert not FeeCollection.objects.filter(voids__isnull=False).exists()
    voided = collected + timedelta(minutes=10)
    void = shift.post(void_url, {"reason": "wrong table", "voided_at": voided.isoformat()}, format="json")
    assert void.status_code == 201, void.content
    row = FeeCollection.objects.get(voids_id=fee_id)
    assert row.collected_at == voided and row.entered_at >= now
    assert void.json()["collected_at"] is not None and void.json()["entered_at"] is not None


def test_a_void_given_no_time_is_dated_when_it_is_entered(cast, client_for, fee_payload):
    fee_id = client_for(cast[Role.PIT_BOSS]).post(FEES, fee_payload, format="json").json()["id"]
    void = client_for(cast[Role.SHIFT_MANAGER]).post(f"{FEES}{fee_id}/void/", {"reason": "wrong table"}, format="json")
    assert void.status_code == 201, void.content
    row = FeeCollection.objects.get(voids_id=fee_id)
    assert abs(row.entered_at - row.collected_at) < timedelta(seconds=1)  # both now


def test_the_api_writes_a_pacific_sites_moments_in_utc_whatever_the_users_first_site(
    client, org, site, bj_table, ny_site
):
    """A gaming manager working at Kingston (New York) reads a Tacoma (Pacific) fee collected at
    5 p.m. there: 01:00 the next day in UTC, "Z", never Chicago's (the settings') nor New York's offset."""
    from datetime import UTC, datetime
    from zoneinfo import ZoneInfo

    import time_machine

    from cardroom.access import SESSION_KEY
    from fees import services
    from tests.factories import make_person

    manager = make_person(org, Role.GAMING_MANAGER, None)
    pit_boss = make_person(org, Role.PIT_BOSS, site)
    with time_machine.travel(datetime(2026, 11, 29, 3, 0, tzinfo=UTC), tick=False):
        fee = services.record_fee(
            acting_user=pit_boss.user, table=bj_table, basis="per_seat", period_minutes=30, rate_cents=300, count=2,
            collected_at=datetime(2026, 11, 28, 17, 0, tzinfo=ZoneInfo("America/Los_Angeles")),
        )  # fmt: skip
        client.force_login(manager.user)
        session = client.session
        session[SESSION_KEY] = ny_site.pk
        session.save()
        listed = client.get(FEES, {"site": site.pk}).json()["results"][0]
        detail = client.get(f"{FEES}{fee.pk}/").json()
    for answer in (listed, detail):
        assert answer["collected_at"] == "2026-11-29T01:00:00Z"
        assert answer["entered_at"] == "2026-11-29T03:00:00Z"


def test_a_session_ends_within_its_gaming_day_so_it_reaches_no_other_days_books(cast, client_for, ny_site, ny_shift):
    """House control: a session is one gaming day's record. One started on an evening and ended
    days later (across nights whose books may be closed) is refused at its end, nothing
    written; ended a minute before the next gaming day starts (6 a.m. in Kingston), it stands."""
    from core.moments import gaming_day_bounds

    start = one_days_start(ny_site, timedelta(hours=1), before=timedelta(days=3))
    day_end = gaming_day_bounds(ny_site, business_date(start, ny_site.time_zone, ny_site.business_day_start_hour))[1]
    payload = {
        "site": ny_site.pk,
        "licence_number": "NY-GC-4620",
        "started_at": start.isoformat(),
        "receipts_cents": 1_000,
        "prizes_cents": 0,
    }
    shift = client_for(ny_shift)
    for ended in (start + timedelta(days=2), day_end):
        refused = shift.post(SESSIONS, {**payload, "ended_at": ended.isoformat()}, format="json")
        assert refused.status_code == 400, refused.content
        message = refused.json()["ended_at"][0]
        assert message.startswith("House control: a session is one gaming day's record and ends within its business")
        assert f"({day_end.astimezone(ZoneInfo(ny_site.time_zone)):%Y-%m-%d %H:%M} E" in message
        assert "Record play after that as a session of its own gaming day." in message
    assert not GameSession.objects.exists()
    last_minute = shift.post(
        SESSIONS, {**payload, "ended_at": (day_end - timedelta(minutes=1)).isoformat()}, format="json"
    )
    assert last_minute.status_code == 201, last_minute.content


def test_a_fee_count_of_a_day_long_gone_counted_now_is_late(cast, client_for, fee_payload, site):
    # The count of a day's fee cash, dated "now" a fortnight after the day: entered late (core.moments
    # `day_field`), where before it read as entered on time (its moment, now, was its entry's).
    boss, cashier = cast[Role.PIT_BOSS], cast[Role.CASHIER]
    collected = timezone.now().replace(microsecond=0) - timedelta(days=14)
    fee = client_for(boss).post(FEES, {**fee_payload, "collected_at": collected.isoformat()}, format="json")
    assert fee.status_code == 201 and fee.json()["entered_late"] is True, fee.content
    count = {
        "site": site.pk,
        "gaming_date": fee.json()["gaming_date"],
        "counted_cents": 1500,
        "witness": boss.pk,
        "witness_pin": witness_pin(boss),
    }
    counted = client_for(cashier).post(COUNTS, count, format="json")
    assert counted.status_code == 201, counted.content
    assert counted.json()["entered_late"] is True
