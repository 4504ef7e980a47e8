"""/api/v1/tournaments/ and /api/v1/tournaments/{id}/entries/: happy path, refusals, scope."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from cardroom.access import forget_access
from cardroom.models import Membership, Role
from tests.factories import make_person
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

BODY = {
    "name": "Saturday Shootout",
    "entry_fee_cents": 10000,
    "rebuy_fee_cents": 9999,
    "add_on_fee_cents": 1,
    "chips_per_entry": 500,
    "chips_per_rebuy": 500,
    "chips_per_add_on": 100,
    "minimum_bet_chips": 10,
    "length_of_play": "Three shoes",
    "prizes_offered": "$150 to the winner",
}


def announce(api, site, **overrides):
    return api.post(
        "/api/v1/tournaments/",
        {**BODY, "site": site.pk, "gaming_date": timezone.localdate().isoformat(), **overrides},
        format="json",
    )


def test_a_tournament_runs_through_the_api_from_announcement_to_record_of_win(client_for, cast, site):
    api = client_for(cast[Role.SHIFT_MANAGER])
    created = announce(api, site)
    assert created.status_code == 201, created.content
    tid = created.json()["id"]
    entry = api.post(f"/api/v1/tournaments/{tid}/entries/", {"kind": "entry", "player_name": "Ann Lee"}, format="json")
    assert entry.status_code == 201, entry.content
    player = entry.json()["player"]
    assert (
        entry.json()["fee_cents"] == 10000
        and entry.json()["collected_by_initials"] == cast[Role.SHIFT_MANAGER].initials
    )
    for kind in ("rebuy", "add_on"):
        assert (
            api.post(f"/api/v1/tournaments/{tid}/entries/", {"kind": kind, "player": player}, format="json").status_code
            == 201
        )
    over = api.post(f"/api/v1/tournaments/{tid}/entries/", {"kind": "add_on", "player": player}, format="json")
    assert over.status_code == 400
    assert "ND 99-01.3-08-15(1)" in over.json()["kind"][0] and "$200.01" in over.json()["kind"][0]
    prize = api.post(
        f"/api/v1/tournaments/{tid}/prizes/",
        {"player": player, "round_name": "Final", "kind": "cash", "amount_cents": 15000},
        format="json",
    )
    assert prize.status_code == 201, prize.content
    fees = api.get(f"/api/v1/tournaments/{tid}/entries/").json()
    assert fees["count"] == 3 and [f["kind"] for f in fees["results"]] == ["entry", "rebuy", "add_on"]
    players = api.get(f"/api/v1/tournaments/{tid}/players/").json()["results"]
    assert players == [
        {
            "id": player,
            "name": "Ann Lee",
            "registered_at": players[0]["registered_at"],
            "registered_by_initials": cast[Role.SHIFT_MANAGER].initials,
            "paid_cents": 20000,
            "chips": 1100,
            "prizes_cents": 15000,
        }
    ]
    figures = api.get(f"/api/v1/tournaments/{tid}/").json()["figures"]
    assert (
        figures["gross_proceeds_cents"] == 20000 and figures["prizes_cents"] == 15000 and figures["agp_cents"] == 5000
    )
    listed = api.get("/api/v1/tournaments/").json()["results"][0]
    assert listed["figures"] == figures


def test_a_void_through_the_api_lowers_the_players_fees(client_for, cast, site):
    api = client_for(cast[Role.SHIFT_MANAGER])
    tid = announce(api, site).json()["id"]
    fee = api.post(f"/api/v1/tournaments/{tid}/entries/", {"kind": "entry", "player_name": "Ann"}, format="json").json()
    missing_reason = api.post(f"/api/v1/tournaments/{tid}/entries/{fee['id']}/void/", {}, format="json")
    assert missing_reason.status_code == 400 and "reason" in missing_reason.json()
    void = api.post(f"/api/v1/tournaments/{tid}/entries/{fee['id']}/void/", {"reason": "Left"}, format="json")
    assert void.status_code == 201 and void.json()["fee_cents"] == -10000 and void.json()["voids"] == fee["id"]
    assert api.get(f"/api/v1/tournaments/{tid}/").json()["figures"]["gross_proceeds_cents"] == 0


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"entry_fee_cents": 20001, "rebuy_fee_cents": None, "chips_per_rebuy": None}, "entry_fee_cents"),
        ({"rebuy_fee_cents": 10001}, "rebuy_fee_cents"),
        ({"betting_spaces": 3}, "betting_spaces"),
        ({"entry_fee_cents": "ten dollars"}, "entry_fee_cents"),
        ({"chips_per_entry": 0}, "chips_per_entry"),
        ({"gaming_date": "1999-12-31"}, "gaming_date"),
        ({"name": "x" * 121}, "name"),
    ],
)
def test_bad_announcements_answer_400_naming_the_field(client_for, cast, site, overrides, field):
    response = announce(client_for(cast[Role.SHIFT_MANAGER]), site, **overrides)
    assert response.status_code == 400 and field in response.json(), response.content
    assert Tournament.objects.count() == 0


def test_bad_entries_answer_400_naming_the_field(client_for, cast, site):
    api = client_for(cast[Role.SHIFT_MANAGER])
    tid = announce(api, site).json()["id"]
    url = f"/api/v1/tournaments/{tid}/entries/"
    assert "kind" in api.post(url, {"kind": "refund", "player_name": "A"}, format="json").json()
    assert "player_name" in api.post(url, {"kind": "entry"}, format="json").json()
    assert "player" in api.post(url, {"kind": "rebuy"}, format="json").json()
    assert "player" in api.post(url, {"kind": "rebuy", "player": 999999}, format="json").json()
    assert api.post(url, {"kind": "rebuy", "player": "x"}, format="json").status_code == 400


def test_roles_and_sites_decide_who_may_announce_collect_and_read(
    client_for, api_client, cast, site, other_site, stranger_site, org
):
    gm, sm, pb, ca, de, au = (
        cast[r]
        for r in (Role.GAMING_MANAGER, Role.SHIFT_MANAGER, Role.PIT_BOSS, Role.CASHIER, Role.DEALER, Role.AUDITOR)
    )
    tid = announce(client_for(sm), site).json()["id"]
    # Announce: gaming manager and shift manager (house control).
    assert announce(client_for(gm), site, name="Saturday Shootout II").status_code == 201
    for person in (pb, ca, de, au):
        refused = announce(client_for(person), site)
        assert refused.status_code == 403 and refused.json()["detail"].startswith(
            "House control: only a gaming manager or shift manager"
        )
    # A shift manager of this site who is a pit boss at the other site may not announce there.
    Membership.objects.create(employee=sm, site=other_site, role=Role.PIT_BOSS)
    forget_access(sm.user)
    assert announce(client_for(sm), other_site).status_code == 403
    # A site the user holds no role at is not even visible.
    assert "site" in announce(client_for(pb), other_site).json()
    # Another organization's site is not even visible.
    assert announce(client_for(sm), stranger_site).status_code == 400
    # Collect: shift manager, pit boss, cashier (house control).
    url = f"/api/v1/tournaments/{tid}/entries/"
    for n, person in enumerate((sm, pb, ca)):
        assert client_for(person).post(url, {"kind": "entry", "player_name": f"P{n}"}, format="json").status_code == 201
    for person in (gm, au):
        refused = client_for(person).post(url, {"kind": "entry", "player_name": "Z"}, format="json")
        assert refused.status_code == 403 and "House control" in refused.json()["detail"]
    # A dealer may not read tournament records, so the tournament is not there for them at all.
    assert client_for(de).post(url, {"kind": "entry", "player_name": "Z"}, format="json").status_code == 404
    # Read: gaming manager, shift manager, pit boss, cashier, auditor; a dealer sees no tournament.
    for person in (gm, sm, pb, ca, au):
        assert client_for(person).get(f"/api/v1/tournaments/{tid}/").status_code == 200
    assert client_for(de).get(f"/api/v1/tournaments/{tid}/").status_code == 404
    assert client_for(de).get("/api/v1/tournaments/").json()["count"] == 0
    other_sm = make_person(org, Role.SHIFT_MANAGER, other_site)
    assert client_for(other_sm).get(f"/api/v1/tournaments/{tid}/").status_code == 404
    assert client_for(other_sm).post(url, {"kind": "entry", "player_name": "Q"}, format="json").status_code == 404
    stranger = make_person(stranger_site.organization, Role.GAMING_MANAGER, None)
    assert client_for(stranger).get(f"/api/v1/tournaments/{tid}/entries/").status_code == 404
    api_client.force_authenticate(None)
    assert api_client.get("/api/v1/tournaments/").status_code in (401, 403)


def test_the_lists_answer_in_the_same_number_of_queries_for_one_row_and_many(client_for, cast, site):
    api = client_for(cast[Role.SHIFT_MANAGER])
    tid = announce(api, site).json()["id"]
    first = api.post(f"/api/v1/tournaments/{tid}/entries/", {"kind": "entry", "player_name": "P0"}, format="json")
    prize = {"player": first.json()["player"], "round_name": "R1", "kind": "cash", "amount_cents": 100}
    api.post(f"/api/v1/tournaments/{tid}/prizes/", prize, format="json")

    def count(path):
        with CaptureQueriesContext(connection) as captured:
            assert api.get(path).status_code == 200
        return len(captured)

    paths = [
        "/api/v1/tournaments/",
        f"/api/v1/tournaments/{tid}/entries/",
        f"/api/v1/tournaments/{tid}/players/",
        f"/api/v1/tournaments/{tid}/prizes/",
    ]
    small = {path: count(path) for path in paths}
    for n in range(1, 6):
        fee = api.post(
            f"/api/v1/tournaments/{tid}/entries/", {"kind": "entry", "player_name": f"P{n}"}, format="json"
        ).json()
        api.post(
            f"/api/v1/tournaments/{tid}/prizes/",
            {"player": fee["player"], "round_name": "R1", "kind": "cash", "amount_cents": 100},
            format="json",
        )
        announce(api, site)
    for path in paths:
        assert count(path) == small[path], path
    assert api.get("/api/v1/tournaments/", {"limit": 0}).status_code == 400


def test_a_fee_and_a_prize_keep_the_time_they_happened_and_a_prize_is_not_dated_before_the_entry(
    client_for, cast, site
):
    """The register's times come from the paper (collected_at, awarded_at) and the entry time is
    kept beside them; a prize dated before the player's entry fee is refused with the rule."""
    from datetime import timedelta

    api = client_for(cast[Role.SHIFT_MANAGER])
    tid = announce(api, site).json()["id"]
    now = timezone.now().replace(microsecond=0)
    collected = now - timedelta(minutes=30)
    entry = api.post(
        f"/api/v1/tournaments/{tid}/entries/",
        {"kind": "entry", "player_name": "Ann Lee", "collected_at": collected.isoformat()},
        format="json",
    )
    assert entry.status_code == 201, entry.content
    body = entry.json()
    assert timezone.datetime.fromisoformat(body["collected_at"]) == collected
    assert timezone.datetime.fromisoformat(body["entered_at"]) >= now  # entered now, beside the time it happened
    early = api.post(
        f"/api/v1/tournaments/{tid}/prizes/",
        {
            "player": body["player"],
            "round_name": "Final",
            "kind": "cash",
            "amount_cents": 15000,
            "awarded_at": (collected - timedelta(minutes=5)).isoformat(),
        },
        format="json",
    )
    assert early.status_code == 400
    assert early.json()["awarded_at"][0].startswith("ND 99-01.3-08-15(4): a prize goes to a player who has entered")
    future = api.post(
        f"/api/v1/tournaments/{tid}/entries/",
        {"kind": "rebuy", "player": body["player"], "collected_at": (now + timedelta(hours=1)).isoformat()},
        format="json",
    )
    assert future.status_code == 400 and "future" in future.json()["collected_at"][0]
    awarded = api.post(
        f"/api/v1/tournaments/{tid}/prizes/",
        {
            "player": body["player"],
            "round_name": "Final",
            "kind": "cash",
            "amount_cents": 15000,
            "awarded_at": (collected + timedelta(minutes=20)).isoformat(),
        },
        format="json",
    )
    assert awarded.status_code == 201, awarded.content
    assert awarded.json()["entered_late"] is False  # ten minutes ago: within the site's threshold


def test_an_announcement_keeps_the_time_it_was_made_beside_its_entry_time(client_for, cast, site):
    from datetime import timedelta

    api = client_for(cast[Role.SHIFT_MANAGER])
    now = timezone.now().replace(microsecond=0)
    announced = now - timedelta(hours=3)
    response = announce(api, site, announced_at=announced.isoformat())
    assert response.status_code == 201, response.content
    body = response.json()
    assert timezone.datetime.fromisoformat(body["announced_at"]) == announced
    assert timezone.datetime.fromisoformat(body["entered_at"]) >= now and body["entered_late"] is True
    row = Tournament.objects.get()
    assert row.announced_at == announced and row.entered_at >= now
    ahead = announce(api, site, name="Tomorrow's", announced_at=(now + timedelta(minutes=10)).isoformat())
    assert ahead.status_code == 400 and "future" in ahead.json()["announced_at"][0]
    plain = announce(api, site, name="Now").json()
    given, entered = (timezone.datetime.fromisoformat(plain[k]) for k in ("announced_at", "entered_at"))
    assert abs(entered - given) < timedelta(seconds=1) and plain["entered_late"] is False  # both now


def test_a_void_keeps_the_time_it_was_voided_and_is_not_dated_before_what_it_voids(client_for, cast, site):
    from datetime import timedelta

    from tournaments.models import TournamentFee, TournamentPrize

    api = client_for(cast[Role.SHIFT_MANAGER])
    now = timezone.now().replace(microsecond=0)
    collected, awarded = now - timedelta(minutes=50), now - timedelta(minutes=40)
    tid = announce(api, site, announced_at=(now - timedelta(hours=1)).isoformat()).json()["id"]
    fee = api.post(
        f"/api/v1/tournaments/{tid}/entries/",
        {"kind": "entry", "player_name": "Ann Lee", "collected_at": collected.isoformat()},
        format="json",
    ).json()
    prize = api.post(
        f"/api/v1/tournaments/{tid}/prizes/",
        {
            "player": fee["player"],
            "round_name": "Final",
            "kind": "cash",
            "amount_cents": 5000,
            "awarded_at": awarded.isoformat(),
        },
        format="json",
    ).json()
    fee_void = f"/api/v1/tournaments/{tid}/entries/{fee['id']}/void/"
    prize_void = f"/api/v1/tournaments/{tid}/prizes/{prize['id']}/void/"
    early_fee = api.post(
        fee_void, {"reason": "rung twice", "voided_at": (collected - timedelta(minutes=1)).isoformat()}, format="json"
    )
    assert early_fee.status_code == 400
    assert early_fee.json()["voided_at"][0].startswith("ND 99-01.3-08-16(1)(e): a void corrects a fee already on")
    assert "is before the fee was collected" in early_fee.json()["voided_at"][0]
    early_prize = api.post(
        prize_void, {"reason": "wrong player", "voided_at": (awarded - timedelta(minutes=1)).isoformat()}, format="json"
    )
    assert early_prize.status_code == 400
    assert early_prize.json()["voided_at"][0].startswith("ND 99-01.3-08-16(1)(f): a void corrects a prize already on")
    assert not TournamentFee.objects.filter(voids__isnull=False).exists()
    assert not TournamentPrize.objects.filter(voids__isnull=False).exists()
    voided = awarded + timedelta(minutes=5)
    prize_voided = api.post(prize_void, {"reason": "wrong player", "voided_at": voided.isoformat()}, format="json")
    assert prize_voided.status_code == 201, prize_voided.content
    assert timezone.datetime.fromisoformat(prize_voided.json()["awarded_at"]) == voided
    assert timezone.datetime.fromisoformat(prize_voided.json()["entered_at"]) >= now
    fee_voided = api.post(fee_void, {"reason": "rung twice", "voided_at": voided.isoformat()}, format="json")
    assert fee_voided.status_code == 201, fee_voided.content
    row = TournamentFee.objects.get(voids_id=fee["id"])
    assert row.collected_at == voided and row.entered_at >= now


def test_a_tournament_dated_before_the_law_held_is_a_400_naming_the_rule(client_for, cast, site):
    """The fuzzer's find: a gaming date of 2000-02-01 answered 500 (no fee limit in force then)."""
    answer = announce(client_for(cast[Role.SHIFT_MANAGER]), site, gaming_date="2000-02-01")
    assert answer.status_code == 400, answer.content
    assert "ND 99-01.3-08-15(1)" in str(answer.json()) and "2006-10-01" in str(answer.json())
    assert not Tournament.objects.exists()


def test_a_tournament_is_named_once_a_day_at_a_site_whatever_the_case_and_spaces(client_for, cast, site):
    """Two copies of the announce form loaded apart (each its own token) announce one tournament."""
    api = client_for(cast[Role.SHIFT_MANAGER])
    assert announce(api, site).status_code == 201
    again = announce(api, site, name="  saturday   SHOOTOUT ")
    assert again.status_code == 400, again.content
    message = again.json()["name"][0]
    assert message.startswith("House control: Saturday Shootout is already announced for ") and site.name in message
    assert Tournament.objects.filter(site=site).count() == 1
    assert announce(api, site, name="Saturday Shootout, late game").status_code == 201
