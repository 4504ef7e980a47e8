"""Demo organizations of the Washington and New York jurisdiction packs (PACKS.md), beside the
North Dakota demo: created through the services, idempotent (each step looks first).

- "Evergreen Gaming Club" (WSGC-00-12345): "Spokane Card Room" (WA-HB) and "Tacoma Blackjack
  Room" (WA-BJ, table 1 Washington blackjack, a player dealer/banker, minimum bank $300, maximum
  wager $25). Logins wagm, washift, wadealer, wadealer2, wacashier, wacount1, wacount2, and
  Spokane's shared terminal waterminal. (The
  approvals app adds Spokane's internal controls, its table 1 regular house-banked blackjack and
  the Double Down Madness table 2.)
- "Hudson Valley Volunteer Fire Company" (NY-GC-4620): "Kingston Fire Hall" (NY). Logins nygm,
  nyshift, nydealer, nycashier, nycount1, nycount2, and its shared terminal nyterminal. (The approvals app adds the organization's
  licence, tie option 1, and Kingston's table 1: four decks, $1-$5, naturals pay 3 to 2.)

Each organization gets its chips here; Spokane's and Kingston's play (gaming days, slips, counts,
the cage) is built by the floor, counts and cage demos from `houses(demo)`, as North Dakota's.
Tacoma takes no chips (its revenue is the fees the fees demo collects).
"""

from django.db import transaction
from django.db.models import Q

from . import services
from .demo import DEMO_PASSWORD, DEMO_PIN, LICENCE, ORGANIZATION
from .models import Employee, Membership, Organization, Role, Site, Table

ORGANIZATIONS = {
    "wa": dict(
        name="Evergreen Gaming Club", licence_number="WSGC-00-12345", manager=("wagm", "Wade", "Gallagher", "WG")
    ),
    "ny": dict(
        name="Hudson Valley Volunteer Fire Company",
        licence_number="NY-GC-4620",
        manager=("nygm", "Nora", "Baines", "NB"),
    ),
}

SITES = {
    "spokane": (
        "wa",
        dict(
            name="Spokane Card Room", jurisdiction="WA-HB", time_zone="America/Los_Angeles", business_day_start_hour=6
        ),
    ),
    "tacoma": (
        "wa",
        dict(
            name="Tacoma Blackjack Room",
            jurisdiction="WA-BJ",
            time_zone="America/Los_Angeles",
            business_day_start_hour=6,
        ),
    ),
    "kingston": (
        "ny",
        dict(name="Kingston Fire Hall", jurisdiction="NY", time_zone="America/New_York", business_day_start_hour=6),
    ),
}

# site key -> [(number, options)]; every option is judged by the site's pack. Spokane's table 1
# (after its internal controls) and Kingston's (after its licence) are made by `approvals.demo`:
# the records their tables follow are kept one layer up.
TABLES = {
    # WAC 230-40-125 (1999 proposed amendment): player dealer/banker, $300 minimum bank, $25 maximum.
    "tacoma": [
        (
            1,
            dict(
                game="21",
                min_wager_cents=100,
                max_wager_cents=2500,
                decks=2,
                dealt_from="shoe",
                banker="player",
                min_bank_cents=30000,
                blackjack_payout="3:2",
            ),
        )
    ],
}

# login, first, last, initials, role, employment type, organization key, site keys. No initials
# that read as a state's code ("books closed by NY", "dealer ND" at a New York site).
PEOPLE = [
    ("washift", "Willa", "Shaw", "WS", Role.SHIFT_MANAGER, "gaming", "wa", "spokane tacoma"),
    # Spokane only: Tacoma's game is dealt and banked by a player (WAC 230-40-125(2)), no house dealer.
    ("wadealer", "Wyatt", "Dunn", "WD", Role.DEALER, "gaming", "wa", "spokane"),
    ("wacashier", "Wren", "Castillo", "WC", Role.CASHIER, "gaming", "wa", "spokane tacoma"),
    ("wadealer2", "Wes", "Diaz", "WZ", Role.DEALER, "gaming", "wa", "spokane"),
    # The drop box count at Spokane and Kingston: two non-gaming employees (house control there,
    # counts.rules.COUNT_TEAM: the WA and NY texts we hold do not say who counts).
    ("wacount1", "Cody", "Walsh", "CW", Role.COUNT_TEAM, "non_gaming", "wa", "spokane"),
    ("wacount2", "Carmen", "Vega", "CV", Role.COUNT_TEAM, "non_gaming", "wa", "spokane"),
    ("nyshift", "Ned", "Shapiro", "NS", Role.SHIFT_MANAGER, "gaming", "ny", "kingston"),
    ("nydealer", "Nina", "Falk", "NF", Role.DEALER, "gaming", "ny", "kingston"),
    ("nycashier", "Noel", "Carver", "NC", Role.CASHIER, "gaming", "ny", "kingston"),
    ("nycount1", "Nell", "Kerr", "NK", Role.COUNT_TEAM, "non_gaming", "ny", "kingston"),
    ("nycount2", "Nate", "Quinn", "NQ", Role.COUNT_TEAM, "non_gaming", "ny", "kingston"),
]

# Roles an earlier demo gave that it no longer gives (login, role, site key): a re-run removes
# them where it finds them, through the service (audited). wadealer was a Dealer at Tacoma, where
# the house seats no dealer (WAC 230-40-125(2): the player is the dealer/banker).
WITHDRAWN = [("wadealer", Role.DEALER, "tacoma")]

# Each organization's chips (cents): Spokane's $5-$300 tables play $1 to $100 chips; Kingston's
# bets are at most $5 "or its equivalent in chips" (9 NYCRR 4620.5(f)(2)): $1 and $5 chips.
# The colours are the house's (no pack of theirs has a chip law): the usual white, red, green, black.
CHIPS = {"wa": (100, 500, 2500, 10000), "ny": (100, 500)}
CHIP_COLOURS = {100: ("white", "blue"), 500: ("red", "white"), 2500: ("green", "white"), 10000: ("black", "white")}
# The shared terminal at each pack site with play (login, name, site key), pit and count forms
# both, and the signing PIN (the demo's) of the people who initial on it: the dealers receive
# the fills, the cashier the credits, the shift manager verifies, the count team counts. Without
# them no slip there could be signed on a terminal. Tacoma's fees take no slip and no terminal.
STATIONS = (
    ("waterminal", "Spokane pit and count terminal", "spokane"),
    ("nyterminal", "Kingston pit and count terminal", "kingston"),
)
PIN_HOLDERS = (
    "washift",
    "wadealer",
    "wadealer2",
    "wacashier",
    "wacount1",
    "wacount2",
    "nyshift",
    "nydealer",
    "nycashier",
    "nycount1",
    "nycount2",
)
# The packs' sites with play (site key -> organization key). Tacoma takes no chips.
PLAY_SITES = {"spokane": "wa", "kingston": "ny"}
# Who plays each part of the North Dakota demo's cast (its login names, which the floor, counts
# and cage demos read) at an organization's sites with play.
CAST = {
    "wa": dict(
        gm="wagm", shift="washift", cashier="wacashier", dealer="wadealer", count1="wacount1", count2="wacount2"
    ),
    "ny": dict(
        gm="nygm", shift="nyshift", cashier="nycashier", dealer="nydealer", count1="nycount1", count2="nycount2"
    ),
}
# The nights each pack site plays (days ago): Spokane every night of the last week; Kingston two
# nights, each a licensed games-of-chance session (fees.demo records them from the night's play).
NIGHTS_AGO = {"spokane": (7, 6, 5, 4, 3, 2, 1), "kingston": (6, 2)}


def _organization(values) -> tuple[Organization, Employee]:
    login, first, last, initials = values["manager"]
    organization = Organization.objects.filter(name=values["name"]).first()
    if organization is None:
        return services.create_organization(
            acting_user=None,
            name=values["name"],
            licence_number=values["licence_number"],
            manager_username=login,
            manager_password=DEMO_PASSWORD,
            manager_initials=initials,
            manager_first_name=first,
            manager_last_name=last,
        )
    return organization, Employee.objects.get(user__username=login)


def extend_demo(demo: dict) -> dict:
    with transaction.atomic():
        orgs = {key: _organization(values) for key, values in ORGANIZATIONS.items()}
        sites = {}
        for key, (org_key, values) in SITES.items():
            organization, manager = orgs[org_key]
            sites[key] = Site.objects.filter(organization=organization, name=values["name"]).first() or (
                services.create_site(acting_user=manager.user, organization=organization, **values)
            )
        for key, rows in TABLES.items():
            manager = orgs[SITES[key][0]][1]
            for number, options in rows:
                if not Table.objects.filter(site=sites[key], number=number).exists():
                    services.create_table(acting_user=manager.user, site=sites[key], number=number, **options)
        people = {}
        for login, first, last, initials, role, kind, org_key, site_keys in PEOPLE:
            organization, manager = orgs[org_key]
            employee = Employee.objects.filter(user__username=login).first() or services.create_employee(
                acting_user=manager.user,
                organization=organization,
                username=login,
                password=DEMO_PASSWORD,
                first_name=first,
                last_name=last,
                initials=initials,
                employment_type=kind,
            )
            for site_key in site_keys.split():
                if not Membership.objects.filter(employee=employee, site=sites[site_key], role=role).exists():
                    services.add_membership(
                        acting_user=manager.user, employee=employee, role=role, site=sites[site_key]
                    )
            people[login] = employee
        _withdraw(orgs, sites)
        for _org, manager in orgs.values():
            people[manager.user.username] = manager
        for key, (organization, manager) in orgs.items():
            _chips(organization, manager, CHIPS[key])
        _stations(orgs, sites, people)
    demo.setdefault("pack_sites", {}).update(sites)
    demo.setdefault("pack_people", {}).update(people)
    demo.setdefault("pack_organizations", {}).update({key: org for key, (org, _) in orgs.items()})
    demo["pack_houses"] = [
        {
            "key": key,
            "organization": organization,
            "sites": {site_key: sites[site_key] for site_key, org_key in PLAY_SITES.items() if org_key == key},
            "people": {part: people[login] for part, login in CAST[key].items()},
        }
        for key, (organization, _) in orgs.items()
    ]
    return demo


def _withdraw(orgs, sites) -> None:
    """Remove the roles an earlier demo gave and this one does not (`WITHDRAWN`), where found."""
    for login, role, site_key in WITHDRAWN:
        manager = orgs[SITES[site_key][0]][1]
        found = Membership.objects.filter(employee__user__username=login, role=role, site=sites[site_key]).first()
        if found is not None:
            services.remove_membership(acting_user=manager.user, membership=found)


def _stations(orgs, sites, people) -> None:
    """Each pack site's shared terminal (`STATIONS`) and the PINs people initial with there."""
    from .models import SigningPin, Station
    from .pins import create_station, set_pin

    for username, name, site_key in STATIONS:
        if not Station.objects.filter(user__username=username).exists():
            manager = orgs[SITES[site_key][0]][1]
            create_station(
                acting_user=manager.user,
                site=sites[site_key],
                username=username,
                password=DEMO_PASSWORD,
                name=name,
                kind=Station.Kind.BOTH,
            )
    for login in PIN_HOLDERS:
        if not SigningPin.objects.filter(employee=people[login]).exists():
            set_pin(acting_user=people[login].user, employee=people[login], pin=DEMO_PIN)


def _chips(organization, manager, values) -> None:
    existing = set(organization.chip_denominations.values_list("value_cents", flat=True))
    for value in values:
        if value not in existing:
            colour, edge = CHIP_COLOURS[value]
            services.create_chip_denomination(
                acting_user=manager.user,
                organization=organization,
                value_cents=value,
                primary_colour=colour,
                edge_colour=edge,
                edge_spots=f"Four {edge} edge spots",
            )


def houses(demo: dict) -> list[dict]:
    """The demo's card rooms with play, each shaped as `cardroom.demo.load_demo`'s result (its
    organization, its sites with play by key, its people by the North Dakota demo's login
    names): North Dakota's, then Evergreen's (Spokane) and the fire company's (Kingston) once
    this pack demo has run. The floor, counts and cage demos build each alike."""
    return [demo, *demo.get("pack_houses", ())]


def demo_organizations() -> list[tuple[str, str]]:
    """(name, licence number) of every organization the demo makes: North Dakota's
    (cardroom.demo) and the Washington and New York packs' (here)."""
    return [(ORGANIZATION, LICENCE)] + [(o["name"], o["licence_number"]) for o in ORGANIZATIONS.values()]


def foreign_organizations() -> list[str]:
    """The names of the organizations in the database the demo did not make: the demo loads
    only into an empty database or one it made, never beside a real organization's records."""
    ours = Q()
    for name, licence in demo_organizations():
        ours |= Q(name=name, licence_number=licence)
    return list(Organization.objects.exclude(ours).order_by("name").values_list("name", flat=True))
