"""A required field left out of a surveillance, tournament or approvals write is a 400 naming the
field and the rule that requires it, at each pack's site: the record's own regulation where that
pack's law states it (North Dakota's 08-04 for surveillance records, 08-15 and 08-16(1)(e),(f) for
tournaments; the Washington commission's game approval; New York's licence), House control where
it is silent. Each citation is the section whose text requires the field (shared/regulations);
the mechanism is core.api.StrictInputMixin.required_rules, as tests/core/test_refusals.py walks it
for slips, counts, the cage and fees."""

import pytest
from django.utils import timezone

from cardroom.models import Role
from tests.factories import SiteFactory, TableFactory, make_person

PACKS = ["ND", "WA-HB", "WA-BJ", "NY"]
ZONES = {
    "ND": "America/Chicago",
    "WA-HB": "America/Los_Angeles",
    "WA-BJ": "America/Los_Angeles",
    "NY": "America/New_York",
}
HOUSE = "House control"


def only(code: str, citation: str) -> dict[str, str]:
    """The citation at the pack whose law states the rule; House control at every other."""
    return {pack: citation if pack == code else HOUSE for pack in PACKS}


ND = lambda citation: only("ND", citation)  # noqa: E731
EVERYWHERE_HOUSE = {pack: HOUSE for pack in PACKS}

# (who posts, url, the body's fields (of the pack's site `s` and table `t`), the field left out,
# the citation at each pack's site)
SURVEILLANCE = "/api/v1/surveillance"
REQUIRED = [
    # 08-04(7): "On a daily basis an employee shall review and document that a surveillance camera at
    # each ... table ... is recording an unobstructed view and clear picture"
    (Role.GAMING_MANAGER, f"{SURVEILLANCE}/review-log/", lambda s, t: {"table": t.pk}, "camera_recording",
     ND("ND 99-01.3-08-04(7)")),
    (Role.GAMING_MANAGER, f"{SURVEILLANCE}/review-log/", lambda s, t: {"table": t.pk}, "clear_picture",
     ND("ND 99-01.3-08-04(7)")),
    # 08-04(7): "not repaired or remedied within forty-eight hours of activity on the table or four
    # calendar days" runs from when the equipment stopped operating properly
    (Role.GAMING_MANAGER, f"{SURVEILLANCE}/outages/", lambda s, t: {"table": t.pk, "kind": "camera"}, "began_at",
     ND("ND 99-01.3-08-04(7)")),
    (Role.GAMING_MANAGER, f"{SURVEILLANCE}/outages/", lambda s, t: {"table": t.pk}, "kind", ND("ND 99-01.3-08-04(7)")),
    (Role.GAMING_MANAGER, f"{SURVEILLANCE}/outages/", lambda s, t: {"table": t.pk, "kind": "camera"}, "description",
     EVERYWHERE_HOUSE),
    # 08-04(5)(b): recording "when chips are first made available ... until the table is permanently closed"
    (Role.GAMING_MANAGER, f"{SURVEILLANCE}/recordings/", lambda s, t: {"table": t.pk}, "started_at",
     ND("ND 99-01.3-08-04(5)(b)")),
    (Role.GAMING_MANAGER, f"{SURVEILLANCE}/recordings/", lambda s, t: {"table": t.pk}, "stopped_at",
     ND("ND 99-01.3-08-04(5)(b)")),
    # 08-04(11): "within fourteen days" of a change, a sample recording
    (Role.GAMING_MANAGER, f"{SURVEILLANCE}/equipment-changes/", lambda s, t: {"site": s.pk}, "changed_on",
     ND("ND 99-01.3-08-04(11)")),
    # 08-04(10): "defer remitting at least fifty percent of the cost or lease price"
    (Role.GAMING_MANAGER, f"{SURVEILLANCE}/vendor-purchases/", lambda s, t: {"site": s.pk}, "deferred_cents",
     ND("ND 99-01.3-08-04(10)")),
    # opening paragraph: a special event's table "for fourteen or fewer consecutive days"
    (Role.GAMING_MANAGER, f"{SURVEILLANCE}/special-events/", lambda s, t: {"site": s.pk}, "last_day",
     ND("ND 99-01.3-08-04")),
    (Role.GAMING_MANAGER, f"{SURVEILLANCE}/special-events/", lambda s, t: {"site": s.pk}, "name", EVERYWHERE_HOUSE),
    # 08-04(9): "during the period immediately after the percent-of-hold for the quarter has been determined"
    (Role.GAMING_MANAGER, f"{SURVEILLANCE}/review-programs/", lambda s, t: {"site": s.pk}, "start_date",
     ND("ND 99-01.3-08-04(9)")),
    # the law authorizes who handles video (08-04(5)(a)) but keeps no log of it: the house's
    (Role.GAMING_MANAGER, f"{SURVEILLANCE}/video-access/", lambda s, t: {"site": s.pk}, "accessed_at",
     EVERYWHERE_HOUSE),
    (Role.GAMING_MANAGER, f"{SURVEILLANCE}/equipment/", lambda s, t: {"site": s.pk}, "make_model", EVERYWHERE_HOUSE),
    # 08-15(1): "An organization shall charge a player an entry fee and provide the player a fixed
    # number of no-value chips"; (2) "shall set the time or number of shoes or hands to be played";
    # (3) "shall set a minimum bet limit ... based on a number of chips"
    (Role.SHIFT_MANAGER, "/api/v1/tournaments/", lambda s, t: {"site": s.pk}, "entry_fee_cents",
     ND("ND 99-01.3-08-15(1)")),
    (Role.SHIFT_MANAGER, "/api/v1/tournaments/", lambda s, t: {"site": s.pk}, "chips_per_entry",
     ND("ND 99-01.3-08-15(1)")),
    (Role.SHIFT_MANAGER, "/api/v1/tournaments/", lambda s, t: {"site": s.pk}, "length_of_play",
     ND("ND 99-01.3-08-15(2)")),
    (Role.SHIFT_MANAGER, "/api/v1/tournaments/", lambda s, t: {"site": s.pk}, "minimum_bet_chips",
     ND("ND 99-01.3-08-15(3)")),
    (Role.SHIFT_MANAGER, "/api/v1/tournaments/", lambda s, t: {"site": s.pk}, "name", EVERYWHERE_HOUSE),
    # The commission approves a game "under the conditions listed below" (the WSGC's approval letter)
    (Role.GAMING_MANAGER, "/api/v1/game-approvals/", lambda s, t: {"game_name": "Push 22"}, "conditions",
     only("WA-HB", "WSGC game approval")),
    (Role.GAMING_MANAGER, "/api/v1/game-approvals/", lambda s, t: {"conditions": {}}, "game_name",
     only("WA-HB", "WSGC game approval")),
    (Role.GAMING_MANAGER, "/api/v1/game-approvals/", lambda s, t: {"conditions": {}}, "submission_number",
     EVERYWHERE_HOUSE),
    # 9 NYCRR 4620.5(h): "The license shall reflect one of the following options"
    (Role.GAMING_MANAGER, "/api/v1/licences/", lambda s, t: {"licence_number": "GC-1"}, "tie_option",
     only("NY", "9 NYCRR 4620.5(h)")),
    (Role.GAMING_MANAGER, "/api/v1/licences/", lambda s, t: {"tie_option": 1}, "licence_number", EVERYWHERE_HOUSE),
]  # fmt: skip


@pytest.fixture
def pack_site(org, site):
    """The pack's site, with a table, and a person of each role there only (so a record naming no
    site is cited at that site's pack)."""

    def at(code):
        here = site if code == "ND" else SiteFactory(organization=org, jurisdiction=code, time_zone=ZONES[code])
        people = {role: make_person(org, role, here) for role in (Role.GAMING_MANAGER, Role.SHIFT_MANAGER)}
        return here, TableFactory(site=here, number=9), people

    return at


@pytest.mark.parametrize("code", PACKS)
@pytest.mark.parametrize(
    ("role", "url", "body", "field", "cited"), REQUIRED, ids=[f"{r[1].split('/v1/')[1]}{r[3]}" for r in REQUIRED]
)
def test_a_required_field_left_out_is_cited_at_the_records_site_by_its_own_law(
    client_for, pack_site, code, role, url, body, field, cited
):
    here, table, people = pack_site(code)
    response = client_for(people[role]).post(url, body(here, table), format="json")
    assert response.status_code == 400, response.content
    message = response.json()[field][0]
    assert message.startswith(f"{cited[code]}: {field} is required; "), message
    assert code == "ND" or "ND " not in message, message  # each pack speaks only its own law


@pytest.fixture
def tournament(client_for, cast, site):
    from tests.tournaments.conftest import announce

    return announce(cast[Role.SHIFT_MANAGER], site)


@pytest.mark.parametrize(
    ("path", "body", "field", "cited"),
    [
        # 08-16(1)(e): "the fees; rebuys; add-ons collected"
        ("entries", {"player_name": "Ann Lee"}, "kind", "ND 99-01.3-08-16(1)(e)"),
        # 08-16(1)(f): the prize register
        ("prizes", {"round_name": "Final", "kind": "cash", "amount_cents": 100}, "player", "ND 99-01.3-08-16(1)(f)"),
        ("prizes", {"player": 1, "round_name": "Final", "kind": "cash"}, "amount_cents", "ND 99-01.3-08-16(1)(f)"),
        # 08-15(4): "A cash or merchandise prize may be awarded"
        ("prizes", {"player": 1, "round_name": "Final", "amount_cents": 100}, "kind", "ND 99-01.3-08-15(4)"),
        ("prizes", {"player": 1, "kind": "cash", "amount_cents": 100}, "round_name", HOUSE),
    ],
)
def test_a_tournaments_register_cites_its_record_at_the_tournaments_site(
    client_for, cast, tournament, path, body, field, cited
):
    response = client_for(cast[Role.SHIFT_MANAGER]).post(
        f"/api/v1/tournaments/{tournament.pk}/{path}/", body, format="json"
    )
    assert response.status_code == 400, response.content
    assert response.json()[field][0].startswith(f"{cited}: {field} is required; "), response.json()


def test_a_tournaments_register_is_cited_at_its_own_site_whoever_else_the_user_works_for(
    client_for, org, cast, tournament
):
    """A gaming manager of every site of the organization (North Dakota's and New York's) leaving out a
    fee's kind reads the tournament's own site's rule, not the house's for want of one jurisdiction."""
    SiteFactory(organization=org, jurisdiction="NY", time_zone="America/New_York")
    response = client_for(cast[Role.GAMING_MANAGER]).post(
        f"/api/v1/tournaments/{tournament.pk}/entries/", {"player_name": "Ann Lee"}, format="json"
    )
    assert response.status_code == 400, response.content
    assert response.json()["kind"][0].startswith("ND 99-01.3-08-16(1)(e): kind is required; "), response.json()


def test_nothing_is_written_when_a_required_field_is_left_out(client_for, cast, site):
    from surveillance.models import Outage

    table = TableFactory(site=site, number=9)
    began = timezone.now().isoformat()
    response = client_for(cast[Role.GAMING_MANAGER]).post(
        f"{SURVEILLANCE}/outages/", {"table": table.pk, "began_at": began}, format="json"
    )
    assert response.status_code == 400 and "kind" in response.json()
    assert not Outage.objects.exists()
