"""Demo chip custody for one site: gaming days with openers, dealer rotations, fill and credit
slips (verified, received, the odd void) and closers, at the scale of domain.md section 8.

    build_demo_custody(site, days=[date(2026, 10, 1), ...], people={
        "shift_manager": [sm], "pit_boss": [pb], "cashier": [ca], "dealer": [d1, d2, d3],
    })

Everything goes through the services (so it is validated and audited like real entries),
back-dated with their `at` arguments. Each day is built in one transaction. Idempotent: a
gaming date that already exists at the site is skipped, and so is a day that has not ended
yet. Deterministic: the random choices are seeded by the site and the date.
"""

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.db import transaction
from django.utils import timezone

from cardroom import demo_progress
from cardroom.models import Employee, Role, Site, Table

from . import services
from .calculations import business_date
from .models import GamingDay

OPEN_AT = time(18, 0)  # local: the evening session; the business day runs past midnight
SESSION = timedelta(hours=7, minutes=30)
MAX_TABLES = 6
TRAY_VALUES = (100, 500, 2500)  # $1 / $5 / $25 (domain.md section 8)


@dataclass
class _Cast:
    shift_manager: Employee
    verifier: Employee  # pit boss if there is one, else the shift manager
    cashier: Employee
    dealers: list[Employee]


@dataclass
class _TableDay:
    table: Table
    tray: dict[int, int]
    changes: list[tuple[datetime, Employee]] = field(default_factory=list)


def build_demo_custody(site: Site, *, days: Iterable[date], people: Mapping[str, Employee | Sequence[Employee]]) -> int:
    """Build the custody records of `site` for each gaming date in `days` (oldest first is
    best). `people` maps role names ("shift_manager", "cashier", "dealer" required; "pit_boss"
    optional) to the employees holding that role at the site; the site's active tables (up to
    six, at most one per dealer) are used. Returns the number of gaming days created."""
    cast = _cast(people)
    tables = list(site.tables.filter(active=True).order_by("number")[: min(MAX_TABLES, len(cast.dealers))])
    existing = set(GamingDay.objects.filter(site=site).values_list("gaming_date", flat=True))
    created = 0
    closers: dict[int, dict[int, int]] = {}  # table id -> its last closer's chips, as this run counted them
    for gaming_date in sorted(set(days) - existing):
        start = _session_start(site, gaming_date)
        if not _over(site, gaming_date) or not tables:
            continue
        with transaction.atomic():
            _build_day(site, gaming_date, start, tables, cast, random.Random(f"{site.name}:{gaming_date}"), closers)
        created += 1
        demo_progress.advance("gaming days")
    return created


def _session_start(site: Site, gaming_date: date) -> datetime:
    return datetime.combine(gaming_date, OPEN_AT, tzinfo=ZoneInfo(site.time_zone))


def _over(site: Site, gaming_date: date) -> bool:
    """Whether the night's session (and the hour after it) is over by now, and its business
    day too: between the end of a session and the next business day's start (03:30 to 06:00,
    say) the gaming date is still today's, which the demo leaves for tonight's gaming day (a
    shift manager opening it; the browser tests open it so) rather than close it."""
    now = timezone.now()
    session_over = _session_start(site, gaming_date) + SESSION + timedelta(hours=1) <= now
    return session_over and gaming_date < business_date(now, site.time_zone, site.business_day_start_hour)


def _cast(people) -> _Cast:
    def many(role) -> list[Employee]:
        value = people.get(role) or []
        return [value] if isinstance(value, Employee) else list(value)

    missing = [r for r in (Role.SHIFT_MANAGER, Role.CASHIER, Role.DEALER) if not many(r)]
    if missing:
        raise ValueError(f"build_demo_custody needs people for {', '.join(missing)}")
    verifier = (many(Role.PIT_BOSS) or many(Role.SHIFT_MANAGER))[0]
    return _Cast(many(Role.SHIFT_MANAGER)[0], verifier, many(Role.CASHIER)[0], many(Role.DEALER))


def _build_day(site, gaming_date, start, tables, cast, rng, closers) -> None:
    boss = cast.shift_manager.user
    day = services.open_gaming_day(
        acting_user=boss, site=site, gaming_date=gaming_date, at=start - timedelta(minutes=30)
    )
    in_play = [t for t in tables[: rng.randint(1, len(tables))] if _may_run(t, start)]
    table_days = [_open_table(t, start, cast, rng, closers.get(t.pk)) for t in in_play]
    _schedule_rotations(table_days, start, cast.dealers, rng)
    _play_day(day, table_days, start, cast, rng)
    closers.update({td.table.pk: {v: q for v, q in td.tray.items() if q > 0} for td in table_days})
    close_at = start + SESSION + timedelta(minutes=30)
    _carry_boxes(boss, day, close_at)
    services.close_gaming_day(acting_user=boss, gaming_day=day, at=close_at)


def _may_run(table, start) -> bool:
    """Whether the table may run the session at its maximum wager: not past the deadline of
    a surveillance outage not yet repaired (ND 99-01.3-08-04(7) caps it at $2 then), checked at
    the session's start and end (the surveillance demo's outage is capped for a day, longer
    than a session). A floor closes such a table for the night; so does the demo, for the
    nights it builds after the surveillance demo (earlier nights added later)."""
    from django.core.exceptions import ValidationError

    from cardroom.wager_caps import check_max_wager

    try:
        for at in (start, start + SESSION):
            check_max_wager(table, table.max_wager_cents, at)
    except ValidationError:
        return False
    return True


# Why the demo's shift manager carries the drop boxes past the close: the count team's demo
# (counts.demo, which runs after this one) removes and counts them after the close.
BOXES_CARRIED = (
    "Boxes go to the office safe after the close and are counted by the count team in the morning "
    "(ND 99-01.3-08-14(1))."
)


def _carry_boxes(boss, day, at) -> None:
    """Every slip of the demo day is received or voided and every table closed; what is left
    open are the drop boxes (registered once the counts demo has run), carried with a reason."""
    keys = [item.key for item in services.items_left_open(day) if item.carryable]
    if keys:
        services.carry_open_items(acting_user=boss, gaming_day=day, keys=keys, reason=BOXES_CARRIED, at=at)


def _chips(tray: dict[int, int]) -> list[dict]:
    return [{"denomination": value, "quantity": quantity} for value, quantity in tray.items() if quantity > 0]


def _open_table(table, start, cast, rng, last_closer: dict[int, int] | None) -> _TableDay:
    """The opener matches the last closer, except now and then (a counted variance).
    `last_closer`: its chips when this run counted it (else they are read)."""
    from . import queries

    if last_closer is not None:
        previous, tray = True, dict(last_closer)
    else:
        previous = queries.last_tray_count(table, before=start)
        tray = dict(previous.lines.values_list("value_cents", "quantity")) if previous else _fresh_tray(rng)
    reason = ""
    if previous and rng.random() < 0.05:
        tray[500] = tray.get(500, 0) + rng.choice([-2, -1, 1])
        reason = "Recount at opening: red chips miscounted at last night's close."
    services.record_table_inventory(
        acting_user=cast.shift_manager.user,
        table=table,
        kind="opener",
        chips=_chips(tray),
        variance_reason=reason,
        at=start,
    )
    return _TableDay(table, tray)


def _fresh_tray(rng) -> dict[int, int]:
    """A $1,000-$3,000 tray in $1, $5 and $25 chips."""
    return {100: rng.choice([100, 150, 200]), 500: rng.choice([60, 100, 140]), 2500: rng.choice([20, 40, 60, 80])}


def _schedule_rotations(table_days, start, dealers, rng) -> None:
    """Changes every 2-4 hours per table, taken in time order across tables: a change seats a
    dealer who is not seated anywhere; with nobody free the dealer there stays on."""
    candidates = []
    for index in range(len(table_days)):
        moment = start + timedelta(minutes=index)
        while moment < start + SESSION - timedelta(hours=1):
            candidates.append((moment, index))
            moment += timedelta(minutes=rng.choice([120, 150, 180, 210, 240]))
    seated: dict[int, Employee] = {}  # table index -> dealer
    for moment, index in sorted(candidates, key=lambda c: (c[0], c[1])):
        busy = {d.pk for d in seated.values()}
        dealer = next((d for d in rng.sample(dealers, len(dealers)) if d.pk not in busy), None)
        if dealer is not None:
            seated[index] = dealer
            table_days[index].changes.append((moment, dealer))


def _play_day(day, table_days, start, cast, rng) -> None:
    """Seat each dealer (with a tray count at each change), prepare 0-3 fills (at least one at
    the first table) and 0-2 credits per table at random moments, all in time order across tables (so slip numbers follow
    time, 08-05(2)), then count the closers."""
    events = []
    for index, table_day in enumerate(table_days):
        events += [(at, 0, "seat", table_day, dealer) for at, dealer in table_day.changes]
        fills = rng.randint(1 if index == 0 else 0, 3)  # every night of play has a slip to look at
        events += [(_minute(start, rng), 1, "fill", table_day, None) for _ in range(fills)]
        events += [(_minute(start, rng), 1, "credit", table_day, None) for _ in range(rng.randint(0, 2))]
    for at, _order, kind, table_day, dealer in sorted(events, key=lambda e: (e[0], e[1], e[3].table.number)):
        _drift(table_day.tray, rng)
        if kind == "seat":
            _seat(table_day, at, dealer, cast)
        elif kind == "fill":
            _fill(table_day, at, cast, rng)
        else:
            _credit(table_day, at, cast, rng)
    _declare_no_tips(day, table_days, start)
    for table_day in table_days:
        _drift(table_day.tray, rng)
        services.record_table_inventory(
            acting_user=cast.shift_manager.user,
            table=table_day.table,
            kind="closer",
            chips=_chips(table_day.tray),
            at=start + SESSION,
        )


def _declare_no_tips(day, table_days, start) -> None:
    """Each dealer of the day declares their tips (none) before the closers end their last
    shifts, so the tips check of ND 99-01.3-08-06(3) finds them in order. The cage's demo adds a
    declared and redeemed amount for one dealer. (A demo builder is wiring: it may call the cage.)"""
    from cage import services as cage

    site = day.site
    dealers = {dealer for table_day in table_days for _, dealer in table_day.changes}
    for dealer in sorted(dealers, key=lambda e: e.pk):
        cage.declare_tips(
            acting_user=dealer.user,
            site=site,
            gaming_date=day.gaming_date,
            chips=[],
            at=start + SESSION - timedelta(minutes=5),
        )


def _minute(start, rng) -> datetime:
    return start + timedelta(minutes=rng.randint(30, 400))


def _seat(table_day, at, dealer, cast) -> None:
    chips = _chips(table_day.tray) if table_day.changes[0][0] != at else None
    services.start_dealer_shift(
        acting_user=cast.shift_manager.user, table=table_day.table, dealer=dealer, started_at=at, chips=chips
    )


def _drift(tray: dict[int, int], rng) -> None:
    """Play between two events: chips sold and paid out leave the tray, lost wagers come in."""
    for value, spread in ((100, 30), (500, 20), (2500, 6)):
        tray[value] = max(5, tray.get(value, 0) + rng.randint(-spread, spread // 2))


def _seated(table_day, at):
    """The dealer the day's schedule has seated at the table by `at` (each change relieves
    the one before it; the closers come after every fill and credit): what
    floor.queries.current_dealer reads back, known here without asking."""
    seated = [dealer for moment, dealer in table_day.changes if moment <= at]
    return seated[-1] if seated else None


def _fill(table_day, at, cast, rng) -> None:
    chips = {2500: rng.choice([20, 40]), 500: rng.choice([0, 20, 40])}
    dealer = _seated(table_day, at)  # the seats recorded so far: none is recorded between now and the receipt
    if dealer is None:
        return  # nobody at the table to receive the copy (ND 99-01.3-08-05(6)): no fill
    slip = services.prepare_fill(acting_user=cast.cashier.user, table=table_day.table, chips=_chips(chips), at=at)
    if rng.random() < 0.05:  # a mistake: VOID and prepare it again
        services.void_slip(acting_user=cast.cashier.user, slip=slip, reason="Wrong quantity written.", at=at)
        slip = services.prepare_fill(acting_user=cast.cashier.user, table=table_day.table, chips=_chips(chips), at=at)
    services.verify_slip(acting_user=cast.verifier.user, slip=slip, at=at + timedelta(minutes=1))
    services.receive_slip(acting_user=dealer.user, slip=slip, at=at + timedelta(minutes=2))
    for value, quantity in chips.items():
        table_day.tray[value] = table_day.tray.get(value, 0) + quantity


def _deals_its_game(dealer, table) -> bool:
    from . import queries, rules

    return rules.TABLE_ROLE.get(table.game, Role.DEALER) in queries.roles_held(dealer, table.site)


def _credit(table_day, at, cast, rng) -> None:
    greens = table_day.tray.get(2500, 0)
    dealer = _seated(table_day, at)
    if greens < 30 or dealer is None:
        return
    chips = {2500: rng.choice([10, 20])}
    if not _deals_its_game(dealer, table_day.table):
        return  # ND 99-01.3-08-05(3)(c): a wheel operator at a twenty-one table initials no credit there
    slip = services.prepare_credit(acting_user=dealer.user, table=table_day.table, chips=_chips(chips), at=at)
    services.verify_slip(acting_user=cast.shift_manager.user, slip=slip, at=at + timedelta(minutes=1))
    services.receive_slip(acting_user=cast.cashier.user, slip=slip, at=at + timedelta(minutes=2))
    table_day.tray[2500] = greens - chips[2500]


# Nights of play per week at each demo site (Monday = 0): domain.md section 8.
DEMO_NIGHTS = {"busy": {1, 2, 3, 4, 5}, "small": {3, 4, 5}, "seasonal": {4, 5, 6}}


def demo_days(site_key: str, site: Site, today: date) -> list[date]:
    """From the start of the previous quarter to yesterday, the nights whose session is over;
    the seasonal site plays only in July-September."""
    from cardroom.periods import Quarter

    first = Quarter.containing(today).previous().start
    days = [first + timedelta(days=n) for n in range((today - first).days)]
    # only nights already over: yesterday's session runs past midnight (the last nights asked
    # for are then the last built, whatever the hour)
    days = [d for d in days if d.weekday() in DEMO_NIGHTS[site_key] and _over(site, d)]
    if site.seasonal:
        days = [d for d in days if d.month in (7, 8, 9)]
    return days


def people_at(site: Site) -> dict[str, list[Employee]]:
    from cardroom.models import Membership

    names = {
        Role.SHIFT_MANAGER: "shift_manager",
        Role.PIT_BOSS: "pit_boss",
        Role.CASHIER: "cashier",
        Role.DEALER: "dealer",
        Role.WHEEL_OPERATOR: "dealer",
    }
    people: dict[str, list[Employee]] = {}
    for membership in (
        Membership.objects.filter(site=site, role__in=names).select_related("employee__user").order_by("pk")
    ):
        people.setdefault(names[membership.role], []).append(membership.employee)
    return people


def extend_demo(demo: dict) -> None:
    """`manage.py load_demo` hook: custody records for every demo site (idempotent)."""
    today = timezone.localdate()
    for key, site in demo["sites"].items():
        build_demo_custody(site, days=demo_days(key, site, today), people=people_at(site))
