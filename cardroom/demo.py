"""Demo data for `make run`: one organization, three North Dakota sites, one login per role.

Idempotent: every step looks for what it would create first. Master data is written through
the services (so it has history and audit events), acting as the demo gaming manager.
"""

from contextlib import contextmanager

from django.contrib.auth import base_user, get_user_model
from django.db import transaction

from . import services
from .models import Employee, Membership, Organization, Role, Site, Table

DEMO_PASSWORD = "demo-cardroom-2026"
ORGANIZATION = "Prairie Charities"
LICENCE = "ND-GC-0417"  # the demo organization's gaming licence, printed on every report
# The shared terminals at the busy site and the signing PIN of the people who initial on them
# (their badge is their initials): the pit terminal and the count tablet of the README's tour.
STATIONS = (("pit1", "Bismarck pit terminal", "pit"), ("tablet1", "Bismarck count tablet", "count"))
DEMO_PIN = "135790"
PIN_HOLDERS = ("shift", "pitboss", "cashier", "dealer", "dealer2", "count1", "count2")

# login, first, last, initials, role, employment type, site keys ("*" = all sites)
PEOPLE = [
    ("gm", "Grace", "Manning", "GM", Role.GAMING_MANAGER, "gaming", "*"),
    ("auditor", "Audrey", "Tate", "AT", Role.AUDITOR, "non_gaming", "*"),
    ("shift", "Sam", "Hartley", "SH", Role.SHIFT_MANAGER, "gaming", "busy small"),
    ("shift2", "Shelby", "Knox", "SK", Role.SHIFT_MANAGER, "gaming", "busy seasonal"),
    ("pitboss", "Pat", "Bosch", "PB", Role.PIT_BOSS, "gaming", "busy"),
    ("cashier", "Cass", "Ortega", "CO", Role.CASHIER, "gaming", "busy small seasonal"),
    ("dealer", "Dana", "Lee", "DL", Role.DEALER, "gaming", "busy"),
    ("dealer2", "Drew", "Nguyen", "DN", Role.DEALER, "gaming", "busy"),
    ("dealer3", "Devon", "Park", "DP", Role.DEALER, "gaming", "busy"),
    ("dealer4", "Dakota", "Reyes", "DR", Role.DEALER, "gaming", "busy"),
    ("dealer5", "Eli", "Sorensen", "ES", Role.DEALER, "gaming", "busy"),
    ("wheel", "Wes", "Olsen", "WO", Role.WHEEL_OPERATOR, "gaming", "busy"),
    ("dealer6", "Fern", "Halvorson", "FH", Role.DEALER, "gaming", "small"),
    ("dealer7", "Gus", "Iverson", "GI", Role.DEALER, "gaming", "small"),
    ("dealer8", "Hana", "Johnson", "HJ", Role.DEALER, "gaming", "seasonal"),
    ("dealer9", "Ike", "Kowalski", "IK", Role.DEALER, "gaming", "seasonal"),
    ("count1", "Cora", "Lind", "CL", Role.COUNT_TEAM, "non_gaming", "busy small seasonal"),
    ("count2", "Carl", "Berg", "CB", Role.COUNT_TEAM, "non_gaming", "busy small seasonal"),
]

SITES = {
    "busy": dict(name="Bismarck Elks Lodge", jurisdiction="ND", time_zone="America/Chicago", business_day_start_hour=6),
    "small": dict(
        name="Mandan Eagles Aerie", jurisdiction="ND", time_zone="America/Chicago", business_day_start_hour=6
    ),
    "seasonal": dict(
        name="Medora Summer Hall",
        jurisdiction="ND",
        time_zone="America/Denver",
        business_day_start_hour=8,
        seasonal=True,
    ),
}

# Each demo dealer plays at one site only: a dealer cannot be on shift at two tables at once.
# site key -> [(number, game, min, max)]
TABLES = {
    "busy": [
        (1, "21", 200, 2500),
        (2, "21", 500, 2500),
        (3, "21", 500, 2500),
        (4, "21", 1000, 2500),
        (5, "21", 300, 2500),
        (6, "PW", 100, 2500),
    ],
    "small": [(1, "21", 100, 1000), (2, "21", 200, 2500)],
    "seasonal": [(1, "21", 100, 2500), (2, "21", 500, 2500), (3, "21", 500, 2500)],
}


@contextmanager
def secrets_hashed_once():
    """Demo only: within the block each demo secret (the password, the PIN) is hashed once and
    its encoded hash reused for every login and PIN that has it, as if set_password ran once
    and the `password` field were copied. Argon2 is slow on purpose (~0.2 s a hash) and the
    demo sets ~30 of them; every one still verifies against the demo password or PIN."""
    from . import pins

    hashed: dict[str, str] = {}
    real = base_user.make_password

    def make_password(raw, *args, **kwargs):
        if args or kwargs or raw not in (DEMO_PASSWORD, DEMO_PIN):
            return real(raw, *args, **kwargs)
        if raw not in hashed:
            hashed[raw] = real(raw)
        return hashed[raw]

    base_user.make_password = pins.make_password = make_password
    try:
        yield
    finally:
        base_user.make_password = pins.make_password = real


def _bootstrap_manager(organization) -> Employee:
    """The first gaming manager cannot be created by a gaming manager: made directly, once."""
    User = get_user_model()
    login, first, last, initials, role, kind, _ = PEOPLE[0]
    user, created = User.objects.get_or_create(
        username=login, defaults={"first_name": first, "last_name": last, "is_staff": True}
    )
    if created:
        user.set_password(DEMO_PASSWORD)
        user.save()
    employee, _ = Employee.objects.get_or_create(
        user=user, defaults={"organization": organization, "initials": initials, "employment_type": kind}
    )
    Membership.objects.get_or_create(employee=employee, site=None, role=role)
    return employee


def _chip_values(organization) -> list[int]:
    """The values the organization's chip law lists (its sites' packs), else the usual set."""
    from .chips import laws_for

    laws = laws_for(organization.pk)
    return sorted({v for law in laws for v in law.specs}) if laws else [100, 500, 2500, 10000]


DEMO_LOADED_EVENT = "demo.loaded"  # the whole demo built, for the stamp in its `after`


def loaded_for() -> dict | None:
    """The stamp for which `load_demo` last built the whole demo in the database (its dates,
    `load_demo.demo_dates`, and its builders' code: `{"dates": [...], "code": "..."}`), or None:
    never, or not to its end."""
    from core.models import AuditEvent

    organization = Organization.objects.filter(name=ORGANIZATION, licence_number=LICENCE).first()
    if organization is None:
        return None
    event = AuditEvent.objects.filter(organization_id=organization.pk, action=DEMO_LOADED_EVENT).order_by("-pk").first()
    return event.after if event else None


def mark_loaded(demo: dict, stamp: dict) -> None:
    """Record that every builder ran to its end for `stamp` (its dates and builders' code: an
    audit event of the demo's organization): run again before a date turns or the builders
    change, `load_demo` finds the demo loaded and writes nothing."""
    from core.audit import record_event

    organization = demo["organization"]
    with transaction.atomic():
        record_event(
            actor=None,
            action=DEMO_LOADED_EVENT,
            object_type="demo",
            object_id=str(organization.pk),
            organization_id=organization.pk,
            after=stamp,
        )


class NotTheDemos(Exception):
    """An organization of the demo's name that the demo did not make (another licence)."""


def load_demo() -> dict:
    with transaction.atomic():
        organization, _ = Organization.objects.get_or_create(name=ORGANIZATION, defaults={"licence_number": LICENCE})
        if organization.licence_number != LICENCE:  # never the records of an organization it did not make
            raise NotTheDemos(
                f"An organization named {ORGANIZATION!r} with licence {organization.licence_number!r}, not the "
                f"demo's {LICENCE}, is in the database: the demo writes only into its own; nothing was written."
            )
        gm = _bootstrap_manager(organization)
        acting = gm.user
        sites = {key: _site(acting, organization, values) for key, values in SITES.items()}
        for key, rows in TABLES.items():
            for number, game, minimum, maximum in rows:
                if not Table.objects.filter(site=sites[key], number=number).exists():
                    services.create_table(
                        acting_user=acting,
                        site=sites[key],
                        number=number,
                        game=game,
                        min_wager_cents=minimum,
                        max_wager_cents=maximum,
                    )
        existing = set(organization.chip_denominations.values_list("value_cents", flat=True))
        for value in _chip_values(organization):
            if value not in existing:
                # The organization's name on one side of each chip (its chip law may ask for it).
                services.create_chip_denomination(
                    acting_user=acting, organization=organization, value_cents=value, marking=organization.name
                )
        people = {login: _person(acting, organization, sites, row) for row in PEOPLE[1:] for login in [row[0]]}
        people["gm"] = gm
        _relations(acting, people)
        _stations(acting, sites["busy"], people)
    return {"organization": organization, "sites": sites, "people": people}


def _site(acting, organization, values) -> Site:
    return Site.objects.filter(organization=organization, name=values["name"]).first() or services.create_site(
        acting_user=acting, organization=organization, **values
    )


def _person(acting, organization, sites, row) -> Employee:
    login, first, last, initials, role, kind, site_keys = row
    employee = Employee.objects.filter(user__username=login).first() or services.create_employee(
        acting_user=acting,
        organization=organization,
        username=login,
        password=DEMO_PASSWORD,
        first_name=first,
        last_name=last,
        initials=initials,
        employment_type=kind,
    )
    targets = [None] if site_keys == "*" else [sites[key] for key in site_keys.split()]
    for site in targets:
        if not Membership.objects.filter(employee=employee, site=site, role=role).exists():
            services.add_membership(acting_user=acting, employee=employee, role=role, site=site)
    return employee


def _relations(acting, people) -> None:
    """Two dealers who are siblings and a supervisor line, for the count-team rule."""
    from .models import EmployeeRelation

    if not EmployeeRelation.objects.filter(employee=people["dealer"], relative=people["dealer2"]).exists():
        services.add_relation(acting_user=acting, employee=people["dealer"], relative=people["dealer2"], kind="sibling")
    if people["dealer"].supervisor_id is None:
        services.update_employee(acting_user=acting, employee=people["dealer"], supervisor=people["pitboss"])


def _stations(acting, site, people) -> None:
    """The busy site's pit terminal and count tablet, and the PINs people initial with there."""
    from .models import SigningPin, Station
    from .pins import create_station, set_pin

    for username, name, kind in STATIONS:
        if not Station.objects.filter(user__username=username).exists():
            create_station(
                acting_user=acting, site=site, username=username, password=DEMO_PASSWORD, name=name, kind=kind
            )
    for login in PIN_HOLDERS:
        if not SigningPin.objects.filter(employee=people[login]).exists():
            set_pin(acting_user=acting, employee=people[login], pin=DEMO_PIN)
