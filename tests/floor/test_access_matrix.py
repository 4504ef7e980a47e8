"""Role x endpoint x own site / other site / other organization for the chip custody API.

Site roles act only at `site`; gaming managers and auditors see every site of the
organization but hold no floor role; nobody sees another organization."""

from dataclasses import dataclass

import pytest

from cardroom.models import Role
from floor import services
from tests.conftest import ALL_ROLES
from tests.factories import TableFactory, make_chips, make_person

from .conftest import FILL, TRAY, today

SM, PB, CA, DE, WO, GM = (
    Role.SHIFT_MANAGER,
    Role.PIT_BOSS,
    Role.CASHIER,
    Role.DEALER,
    Role.WHEEL_OPERATOR,
    Role.GAMING_MANAGER,
)


@dataclass
class Floor:
    site: object
    table: object
    spare: object
    spare_for_shift: object
    dealer: object
    fill: object
    verified_fill: object
    seated: object
    card_check: object


def build_floor(site, boss, seated_dealer):
    """A gaming day in play at `site`: table 1 opened with `seated_dealer`, a fill waiting for
    verification, another verified fill waiting for the dealer, two spare tables."""
    make_chips(site.organization)
    org = site.organization
    table, spare, spare_for_shift = (TableFactory(site=site, number=n) for n in (1, 2, 3))
    services.open_gaming_day(acting_user=boss.user, site=site, gaming_date=today(site))
    services.record_table_inventory(acting_user=boss.user, table=table, kind="opener", chips=TRAY)
    services.start_dealer_shift(acting_user=boss.user, table=table, dealer=seated_dealer)
    cashier = make_person(org, CA, site)
    fill = services.prepare_fill(acting_user=cashier.user, table=table, chips=FILL)
    verified = services.prepare_fill(acting_user=cashier.user, table=table, chips=FILL)
    services.verify_slip(acting_user=boss.user, slip=verified)
    check = services.record_card_check(acting_user=boss.user, table=table, kind="shoe_inspected")  # ND 08-07(2)
    return Floor(site, table, spare, spare_for_shift, make_person(org, DE, site), fill, verified, seated_dealer, check)


ENDPOINTS = {
    "open gaming day": lambda c, f: c.post(
        "/api/v1/gaming-days/", {"site": f.site.pk, "gaming_date": str(today(f.site))}, format="json"
    ),
    "record opener": lambda c, f: c.post(
        "/api/v1/table-inventories/", {"table": f.spare.pk, "kind": "opener", "chips": TRAY}, format="json"
    ),
    "start dealer shift": lambda c, f: c.post(
        "/api/v1/dealer-shifts/", {"table": f.spare_for_shift.pk, "dealer": f.dealer.pk}, format="json"
    ),
    "prepare fill": lambda c, f: c.post("/api/v1/fill-slips/", {"table": f.table.pk, "chips": FILL}, format="json"),
    "prepare credit": lambda c, f: c.post("/api/v1/credit-slips/", {"table": f.table.pk, "chips": FILL}, format="json"),
    "verify": lambda c, f: c.post(f"/api/v1/fill-slips/{f.fill.pk}/verify/", format="json"),
    "receive": lambda c, f: c.post(f"/api/v1/fill-slips/{f.verified_fill.pk}/receive/", format="json"),
    "void": lambda c, f: c.post(f"/api/v1/fill-slips/{f.fill.pk}/void/", {"reason": "matrix"}, format="json"),
    "read slip": lambda c, f: c.get(f"/api/v1/fill-slips/{f.fill.pk}/"),
    "inspect shoe": lambda c, f: c.post(
        "/api/v1/card-checks/", {"table": f.table.pk, "kind": "shoe_inspected"}, format="json"
    ),
    "approve decks": lambda c, f: c.post(
        "/api/v1/card-checks/",
        {"table": f.table.pk, "kind": "decks_approved", "checked_by": f.seated.pk},
        format="json",
    ),
    "read card check": lambda c, f: c.get(f"/api/v1/card-checks/{f.card_check.pk}/"),
    "register": lambda c, f: c.get(
        f"/api/v1/sites/{f.site.pk}/slip-register/", {"start": str(today(f.site)), "end": str(today(f.site))}
    ),
    "queues": lambda c, f: c.get(f"/api/v1/sites/{f.site.pk}/custody-queues/"),
    "open items": lambda c, f: c.get(f"/api/v1/gaming-days/{f.fill.gaming_day_id}/open-items/"),
    "carry open item": lambda c, f: c.post(
        f"/api/v1/gaming-days/{f.fill.gaming_day_id}/carry/",
        {"items": [f"slip:{f.fill.pk}"], "reason": "matrix"},
        format="json",
    ),
}
CREATES = {
    "open gaming day",
    "record opener",
    "start dealer shift",
    "prepare fill",
    "prepare credit",
    "inspect shoe",
    "approve decks",
}

# Who may do it where they can see the site: {endpoint: {role: status}}, otherwise 403.
ALLOWED = {
    "open gaming day": {SM: 400},  # permitted, but the day is already open: 08-05 rules still apply
    "record opener": {SM: 201},
    "start dealer shift": {SM: 201},
    # A supervisor names the cashier whose initials the fill carries (08-05(3)(c)); without one, 400.
    "prepare fill": {SM: 400, PB: 400, CA: 201},
    # The dealer seated at table 1 prepares its credit; the wheel operator is on shift at no
    # table (08-05(4)); a supervisor prepares for any table.
    "prepare credit": {SM: 201, PB: 201, DE: 201, WO: 400},
    "verify": {SM: 200, PB: 200},
    "receive": {DE: 200, WO: 400},  # the wheel operator is not dealing at that table (08-05(6))
    # Nobody here prepared it (a separate cashier did): only the preparer voids, 08-05(2).
    "void": {role: 400 for role in ALL_ROLES},
    # House control: a shift manager or gaming manager carries an open item past the close.
    "carry open item": {SM: 201, GM: 201},
    # ND 99-01.3-08-07(2): a dealer or shift manager inspects the shoe, each entering their own; (1): a
    # dealer approves the decks, entered by the shift manager or by the dealer (table 1's, seated).
    "inspect shoe": {SM: 201, DE: 201},
    "approve decks": {SM: 201, DE: 201},
}
READS = {"read slip", "register", "queues", "open items", "read card check"}
# The slip register: who prepares, verifies or registers slips, and oversight (floor.rules.SLIP_REGISTER).
REGISTER_READERS = {GM, Role.AUDITOR, SM, PB, CA}


def expected(endpoint, role, scope):
    sees_site = scope == "own" or (scope == "other site" and role in (GM, Role.AUDITOR))
    if not sees_site:
        return 400 if endpoint in CREATES else 404
    if endpoint == "register" and role not in REGISTER_READERS:
        return 403
    if endpoint in READS:
        return 200
    if scope != "own" and role not in (GM, Role.AUDITOR):
        return 403
    return ALLOWED[endpoint].get(role, 403)


@pytest.mark.parametrize("scope", ["own", "other site", "other organization"])
@pytest.mark.parametrize("role", ALL_ROLES)
def test_custody_endpoints_answer_each_role_by_the_rules(
    client_for, cast, site, other_site, stranger_site, role, scope
):
    if scope == "own":
        floor = build_floor(site, cast[SM], cast[DE])
    else:
        target = other_site if scope == "other site" else stranger_site
        floor = build_floor(
            target, make_person(target.organization, SM, target), make_person(target.organization, DE, target)
        )
    client = client_for(cast[role])
    got = {name: call(client, floor).status_code for name, call in ENDPOINTS.items()}
    want = {name: expected(name, role, scope) for name in ENDPOINTS}
    assert got == want


@pytest.mark.parametrize("scope", ["own", "other site", "other organization"])
def test_a_station_alone_may_read_its_sites_slips_and_do_nothing(
    api_client, cast, site, other_site, stranger_site, scope
):
    """A shared terminal (cardroom.models.Station) holds no role: without a person's badge and
    PIN every write is refused (403); it sees its own site only."""
    from django.contrib.auth import get_user_model

    from cardroom.models import Station

    target = {"own": site, "other site": other_site, "other organization": stranger_site}[scope]
    boss = cast[SM] if scope == "own" else make_person(target.organization, SM, target)
    dealer = cast[DE] if scope == "own" else make_person(target.organization, DE, target)
    floor = build_floor(target, boss, dealer)
    terminal = get_user_model().objects.create_user(username="pit-terminal", password="terminal-password-1")
    Station.objects.create(user=terminal, site=site, name="Pit terminal")
    api_client.force_authenticate(terminal)
    got = {name: call(api_client, floor).status_code for name, call in ENDPOINTS.items()}
    if scope == "own":
        want = {name: 200 if name in READS else 403 for name in ENDPOINTS}
    else:
        want = {name: 400 if name in CREATES else 404 for name in ENDPOINTS}
    assert got == want
