"""What a pit terminal offers for each step, as plain data its page script reads: the tables,
the slips waiting, who is on duty, and for every step the badges of only the people allowed to
take it there (floor.rules), so a shared terminal never lists the count team or a dealer for a
verification. The services still decide (the same rules, checked when the PIN is given); this
only keeps the lists short and preselects the obvious person.

Read in a fixed number of queries whatever the number of tables and slips (the pit board's,
then the site's people with their roles and PINs, the duty register and the last counts)."""

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q
from django.urls import reverse

from cardroom.access import access_for
from cardroom.models import ChipDenomination, Employee, Membership, Role, Site, Table
from core.hooks import PIT_FEE_STEP
from core.money import format_money
from core.rules import HOUSE_CONTROL

from . import queries, rules
from .models import SlipKind, TableInventory
from .seating import box_at_change_step


@dataclass(frozen=True)
class Person:
    id: int
    initials: str
    name: str
    roles: frozenset[str]

    def badge(self) -> dict:
        return {"id": self.id, "initials": self.initials, "name": self.name}


def site_people(site: Site, *, with_pin: bool) -> dict[int, Person]:
    """The active employees holding a role at `site` (or across its organization), with their
    roles there; on a station only those with a signing PIN (nobody else can initial there)."""
    memberships = Membership.objects.filter(
        Q(site=site) | Q(site__isnull=True),
        employee__organization_id=site.organization_id,
        employee__active=True,
    )
    if with_pin:
        memberships = memberships.filter(employee__signing_pin__isnull=False)
    roles: dict[int, set[str]] = {}
    for employee_id, role in memberships.values_list("employee_id", "role"):
        roles.setdefault(employee_id, set()).add(role)
    employees = Employee.objects.filter(pk__in=list(roles)).select_related("user").order_by("initials")
    return {e.pk: Person(e.pk, e.initials, str(e), frozenset(roles[e.pk])) for e in employees}


def _holding(people: dict[int, Person], wanted, *, excluding=()) -> list[dict]:
    return [p.badge() for p in people.values() if p.roles & set(wanted) and p.id not in excluding]


def terminal_data(site: Site, board: queries.PitBoard, *, station: bool, at: datetime) -> dict:
    """The pit terminal's data: JSON-safe, read by static/floor/pit_terminal.js."""
    people = site_people(site, with_pin=station)
    dealing = {row.shift.dealer_id for row in board.rows if row.shift is not None}
    on_duty = {
        p.employee_id: p.pk for p in queries.duty_periods_running(site, at).filter(role__in=list(rules.VERIFIERS))
    }
    presumed = {e.pk for e in queries.on_duty(site, at, rules.VERIFIERS)} - set(on_duty)
    counted = set()
    if board.day is not None:
        counted = set(
            TableInventory.objects.filter(table__site=site, kind__in=["closer", "change"])
            .values_list("table_id", flat=True)
            .distinct()
        )
    last_fills = queries.last_fill_denominations(Table.objects.filter(site=site, active=True))
    dealers = [{**p.badge(), "dealing": p.id in dealing} for p in people.values() if p.roles & rules.DEALING_ROLES]
    return {
        "site": site.pk,
        "station": station,
        "day": {"id": board.day.pk, "gaming_date": str(board.day.gaming_date)} if board.day else None,
        "next_gaming_date": str(queries.next_gaming_date(site)) if board.day is None else None,
        # The slip's chips, the largest first: a fill or credit is mostly in its top chips.
        "chips": [
            {"value_cents": c.value_cents, "label": format_money(c.value_cents), "colour": c.primary_colour}
            for c in ChipDenomination.objects.filter(organization_id=site.organization_id, active=True).order_by(
                "-value_cents"
            )
        ],
        "supervisors": _holding(people, rules.FLOOR_SUPERVISORS, excluding=dealing),
        "duty": _duty(people, on_duty, presumed, dealing),
        "dealers": dealers,
        "no_dealer_to_seat": _no_dealer_to_seat(dealers, station=station),
        # A change of dealer counts the tray where the house's chips are at its tables (not a fees room).
        "tray_at_change": rules.house_chips(site),
        # Where the site exchanges its drop boxes at each dealer change, the box is removed by the change.
        "box_at_change": box_removal(site, board.day),
        "fill_preparers": _holding(people, rules.FILL_PREPARERS, excluding=dealing),
        "cashiers": [
            {**p.badge(), "cashier": Role.CASHIER in p.roles}
            for p in people.values()
            if (Role.CASHIER in p.roles or Role.DEALER in p.roles) and p.id not in dealing
        ],
        "tables": [_table(row, people, dealing, counted, last_fills) for row in board.rows],
        "fee": fee_step(site, people),
        "slips": [
            _slip(site, slip, row, people, on_duty, presumed, dealing)
            for row in board.rows
            for slip in (*row.unverified, *row.unreceived)
        ],
    }


def _no_dealer_to_seat(dealers: list[dict], *, station: bool) -> str | None:
    """Why the board offers no Seat or Change dealer: every dealer is dealing (a dealer deals at
    one table at a time, floor.services.dealer_shifts) or there is none; None when one is free."""
    if any(not dealer["dealing"] for dealer in dealers):
        return None
    who = "dealer with a PIN here" if station else "dealer here"
    why = f"every {who} is dealing" if dealers else f"there is no {who}"
    return f"{rules.DEALER_SHIFTS}: no other dealer to seat ({why})."


def box_at_change(site: Site) -> dict | None:
    """Where `site` exchanges its drop boxes at each dealer change (house control: one drop per
    dealer shift, so each dealer's figures are kept apart), what the dealer page's change of dealer
    says and where the box's removal is recorded; None elsewhere. The box leaving is removed before
    the next dealer is seated: a removal names the latest shift begun at its table
    (counts.queries.shifts_served). The pit terminal removes it with the change (`box_removal`)."""
    if box_at_change_step(site) is None:
        return None
    return {
        "note": f"{HOUSE_CONTROL}: {site.name} exchanges the drop box at each dealer change (one drop per dealer "
        "shift, so each dealer's figures are kept apart). Remove this table's box first, on Drop boxes: removed "
        "after the change, it would be credited to the next dealer's shift.",
        "url": reverse("counts:remove_all"),
    }


def box_removal(site: Site, day) -> dict | None:
    """Where `site` exchanges its drop boxes at each dealer change, the terminal's Change dealer
    removes the table's box in the same act (floor.services.dealer_shifts.start_dealer_shift with
    `box_removal`): the counts app's fields for it (the note citing its rules, escorts, key holders,
    the storage place, each table's box or why none is left) for the open gaming `day`; None
    elsewhere, or with no day open (no dealer is changed then)."""
    step = box_at_change_step(site)
    if step is None or day is None:
        return None
    return step.data(day.gaming_date)


def register_fee_step(step) -> None:
    """The fees app registers `step(site)` once, when ready (core.hooks.PIT_FEE_STEP)."""
    PIT_FEE_STEP.register(step)


def fee_step(site: Site, people: dict[int, Person]) -> dict | None:
    """A table fee collected on the terminal where the site's revenue is its table fees (WA-BJ):
    the fees app's data with the badges of the people who may collect; None elsewhere."""
    step = PIT_FEE_STEP(site)
    if step is None:
        return None
    return {**step.data(), "collectors": _holding(people, step.roles)}


def may_collect_fee(site: Site, user) -> bool:
    """May `user`, signed in as themselves, collect a table fee at `site` (a site whose revenue is
    its table fees: the pit links each table to the fees page)? False at any other site."""
    step = PIT_FEE_STEP(site)
    return step is not None and access_for(user).has_role(site.pk, *step.roles)


def _duty(people, on_duty: dict[int, int], presumed: set[int], dealing: set[int]) -> list[dict]:
    """Each pit boss or shift manager of the site: on duty (with the register's period, or
    presumed as the day's opener), or not; a dealer on shift is listed as dealing."""
    return [
        {
            **p.badge(),
            "period": on_duty.get(p.id),
            "on_duty": p.id in on_duty or p.id in presumed,
            "dealing": p.id in dealing,
        }
        for p in people.values()
        if p.roles & rules.VERIFIERS
    ]


def _table(row: queries.PitRow, people, dealing: set[int], counted: set[int], last_fills: dict[int, int]) -> dict:
    shift = row.shift
    return {
        "id": row.table.pk,
        "number": row.table.number,
        "game": row.table.game_label,
        "state": row.state,
        "takes_slips": row.takes_slips,
        "has_last_count": row.table.pk in counted,
        # Where a fill's cursor starts: the denomination the table's last fill brought most of.
        "last_fill_cents": last_fills.get(row.table.pk),
        "shift": shift.pk if shift else None,
        "dealer": people[shift.dealer_id].badge() if shift and shift.dealer_id in people else None,
        "dealer_id": shift.dealer_id if shift else None,
        "credit_preparers": _credit_preparers(people, shift, dealing),
    }


def _credit_preparers(people, shift, dealing: set[int]) -> list[dict]:
    """ND 99-01.3-08-05(3)-(4) as floor.rules reads it: the dealer on shift at the table, or a
    pit boss or shift manager who is not dealing."""
    supervisors = _holding(people, {Role.PIT_BOSS, Role.SHIFT_MANAGER}, excluding=dealing)
    dealer = people.get(shift.dealer_id) if shift else None
    return ([dealer.badge()] if dealer else []) + [p for p in supervisors if not dealer or p["id"] != dealer.id]


def _slip(site, slip, row, people, on_duty: dict[int, int], presumed: set[int], dealing: set[int]) -> dict:
    status = slip.status_code
    receivers = _receivers(slip, row, people, dealing)
    verifiers, unverified_allowed = [], False
    if status == "issued":
        # rules.SLIP_VERIFICATION: with someone eligible on duty (by the register, whether or not
        # they have a PIN here) only they are offered and the copy waits for them; with nobody,
        # any pit boss or shift manager may verify (signing puts them on duty) and the copy may
        # be received unverified, as an exception with its reason.
        standing = (set(on_duty) | presumed) - dealing - {slip.prepared_by_id}
        eligible = _holding(people, rules.VERIFIERS, excluding=dealing | {slip.prepared_by_id})
        verifiers = [p for p in eligible if p["id"] in standing] if standing else eligible
        unverified_allowed = not standing
    return {
        "id": slip.pk,
        "kind": slip.kind,
        "label": f"{SlipKind(slip.kind).label} {slip.number}",
        "table": row.table.pk,
        "table_number": row.table.number,
        "total_cents": slip.total_cents,
        "status": status,
        "verifiers": verifiers,
        "receivers": receivers,
        "receiver": _obvious_receiver(receivers),
        "unverified_allowed": unverified_allowed,
        "after_verify": _after_verify(site, slip, row),
    }


def _obvious_receiver(receivers: list[dict]) -> int | None:
    """Who the receive step preselects, as the fill's cashier is: the only one who may receive,
    else the only chip bank cashier among them (a dealer acting as cashier is the exception)."""
    if len(receivers) == 1:
        return receivers[0]["id"]
    cashiers = [r["id"] for r in receivers if r.get("cashier")]
    return cashiers[0] if len(cashiers) == 1 else None


def _after_verify(site: Site, slip, row) -> str:
    """What a verified slip's terminal says comes next: who receives its copy (rules.RECEIVERS,
    services.receiver_capacity), citing the rule at the site."""
    label = f"{SlipKind(slip.kind).label} {slip.number}"
    cited = rules.SLIP_RECEIPT.at(site)
    if slip.kind == SlipKind.FILL:
        who = Role(rules.TABLE_ROLE.get(slip.game, Role.DEALER)).label.lower()  # a paddlewheel's wheel operator
        return f"{label} verified: now the {who} on shift at table {row.table.number} receives its copy ({cited})."
    return (
        f"{label} verified: now the chip bank cashier, or a dealer acting as cashier who is not dealing, "
        f"receives its copy ({cited})."
    )


def _receivers(slip, row, people, dealing: set[int]) -> list[dict]:
    """ND 99-01.3-08-05(6): a fill's copy is received by the dealer on shift at its table (only
    them, preselected); a credit's by a cashier, or a dealer acting as cashier who is not dealing;
    never by the slip's preparer (services.receiver_capacity)."""
    if slip.kind == SlipKind.FILL:
        dealer = people.get(row.shift.dealer_id) if row.shift else None
        return [dealer.badge()] if dealer and dealer.id != slip.prepared_by_id else []
    return [
        {**p.badge(), "cashier": Role.CASHIER in p.roles}
        for p in people.values()
        if p.id != slip.prepared_by_id and (Role.CASHIER in p.roles or (Role.DEALER in p.roles and p.id not in dealing))
    ]
