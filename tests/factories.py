"""Factories for the core domain, and a cast of users per role (healthchecks-style)."""

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password

from cardroom.models import ChipDenomination, Employee, Membership, Organization, Role, Site, Table
from packs.nd.chips import SPECS as CHIP_SPECS

PASSWORD = "correct-horse-battery-staple"


class OrganizationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Organization

    name = factory.Sequence(lambda n: f"Charity {n}")


class SiteFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Site

    organization = factory.SubFactory(OrganizationFactory)
    name = factory.Sequence(lambda n: f"Site {n}")
    jurisdiction = "ND"
    time_zone = "America/Chicago"
    business_day_start_hour = 6


class TableFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Table

    site = factory.SubFactory(SiteFactory)
    number = factory.Sequence(lambda n: n + 1)
    game = "21"
    min_wager_cents = 100
    max_wager_cents = 2500


class UserFactory(factory.django.DjangoModelFactory):
    """The password hashed before the INSERT (with the hasher the test runs with): one write per
    user, not an INSERT and then an UPDATE that `set_password` would need (with its token
    revocation, core.tokens), in every `cast` of every test (issue 34)."""

    class Meta:
        model = get_user_model()

    username = factory.Sequence(lambda n: f"user{n}")
    first_name = factory.Sequence(lambda n: f"First{n}")
    last_name = factory.Sequence(lambda n: f"Last{n}")
    password = factory.LazyFunction(lambda: make_password(PASSWORD))


def _base36(n: int) -> str:
    """Four characters, as the initials column allows, the first a digit: unique for 466,560 rows
    and never letters alone, as the initials a test gives its own people are ("XX", "IC", "NG"):
    the organization's initials are unique, and two letters were the factory's too from its 37th
    employee of a process on ("XX" its 1,222nd), so which test failed hung on what the process
    had made before it."""
    digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    n = n % (10 * 36**3)
    text = digits[n // 36**3]
    for power in (36**2, 36, 1):
        text += digits[n // power % 36]
    return text


class EmployeeFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Employee

    organization = factory.SubFactory(OrganizationFactory)
    user = factory.SubFactory(UserFactory)
    initials = factory.Sequence(lambda n: _base36(n))
    employment_type = "gaming"


def make_chips(organization) -> dict[int, ChipDenomination]:
    """The organization's full ND chip set, keyed by value in cents: those it has, read in one
    query, and the others created one by one (their history and audit rows as any save's)."""
    have = {chip.value_cents: chip for chip in ChipDenomination.objects.filter(organization=organization)}
    for value, spec in CHIP_SPECS.items():
        if value not in have:
            have[value] = ChipDenomination.objects.create(
                organization=organization,
                value_cents=value,
                primary_colour=spec.primary_colour,
                edge_spots=spec.edge_spots,
                edge_colour=spec.default_edge_colour,
                marking=organization.name,
            )
    return {value: have[value] for value in CHIP_SPECS}


def make_person(organization, role: str, site=None, **employee_fields) -> Employee:
    """An employee holding `role` at `site` (org-wide when site is None and the role allows); a
    gaming manager's user is staff from its INSERT."""
    if role == Role.GAMING_MANAGER:
        employee_fields["user__is_staff"] = True
    employee = EmployeeFactory(organization=organization, **employee_fields)
    Membership.objects.create(employee=employee, site=site, role=role)
    return employee


def admin_role_added(employee, site, role: str, **fields) -> dict:
    """The admin's employee change form as posted with `employee`'s roles kept and one row added:
    `role` at `site` (None: at every site); `fields` beside the employee's own (a supervisor)."""
    held = list(employee.memberships.order_by("pk"))
    data = {
        "initials": employee.initials,
        "employment_type": employee.employment_type,
        "active": "on",
        "memberships-TOTAL_FORMS": len(held) + 1,
        "memberships-INITIAL_FORMS": len(held),
        **fields,
    }
    for i, m in enumerate(held):
        data.update({f"memberships-{i}-id": m.pk, f"memberships-{i}-employee": employee.pk,
                     f"memberships-{i}-site": m.site_id or "", f"memberships-{i}-role": m.role})  # fmt: skip
    n = len(held)
    data.update({f"memberships-{n}-employee": employee.pk, f"memberships-{n}-site": site.pk if site else "",
                 f"memberships-{n}-role": role})  # fmt: skip
    return data


# The table options every admin table form posts (their defaults), beside the fields a test sets.
TABLE_OPTION_DEFAULTS = {
    "max_players": 7,
    "betting_spaces": 7,
    "dealt_from": "shoe",
    "double_on": "any_two",
    "split_pairs": "any_pair",
    "resplit_allowed": "on",
    "split_aces_one_card": "on",
    "double_after_split": "on",
    "blackjack_payout": "3:2",
    "jumbo_faced_cards": "on",  # ND 99-01.3-08-02(3): a ticked box is posted, an unticked one is not
}


def fees_site(organization, **fields) -> Site:
    """A Washington blackjack (player-banked, time fees) site: the demo's Tacoma."""
    values = {"name": "Tacoma Blackjack Room", "jurisdiction": "WA-BJ", "time_zone": "America/Los_Angeles"}
    return SiteFactory(organization=organization, **(values | fields))


def player_banked_table(site, number: int = 1) -> Table:
    """A fees site's two-deck table, the bank a player's ($300 minimum), $1-$25 wagers."""
    return TableFactory(
        site=site,
        number=number,
        decks=2,
        banker="player",
        min_bank_cents=30_000,
        min_wager_cents=100,
        max_wager_cents=2500,
        max_players=7,
        betting_spaces=7,
    )


WITNESS_PIN = "604127"


def witness_pin(employee) -> str:
    """Give `employee` a signing PIN (WITNESS_PIN) and return it: the witness of a fee cash count
    confirms it with their own PIN (fees.services.count_fees)."""
    from cardroom import pins

    pins.set_pin(acting_user=employee.user, employee=employee, pin=WITNESS_PIN)
    return WITNESS_PIN


def card_checks_kept_from(applied) -> None:
    """This database began keeping card checks at `applied` (an aware datetime): the record of the
    migration that made their table (`floor.queries.card_checks_kept_since`), in the test's transaction."""
    from django.db import connection
    from django.db.migrations.recorder import MigrationRecorder

    from floor.queries import CARD_CHECKS_MIGRATION

    app, name = CARD_CHECKS_MIGRATION
    assert MigrationRecorder(connection).migration_qs.filter(app=app, name=name).update(applied=applied) == 1
