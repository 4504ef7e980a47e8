"""Demo chip custody for one site: gaming days with openers, dealer rotations, fill and credit
slips (verified, received, the odd void) and closers, at the scale of domain.md section 8.

    build_demo_custody(site, days=[date(2026, 10, 1), ...], people={
        "shift_manager": [sm], "pit_boss": [pb], "cashier": [ca], "dealer": [d1, d2, d3],
    })

Everything goes through the services (so it is validated and audited like real entries),
back-dated with their `at` arguments. Each day is built in one transaction, with an audit
event `demo.gaming_day_built` that marks it as the demo's: the other demo builders write only
into the days so marked (`built_dates`), never into a day a person entered. Idempotent: a
gaming date that already exists at the site is skipped, and so is a day that has not ended
yet; a site with a gaming day left open (a person's) gets no new day. Deterministic: the
random choices are seeded by the site and the date.

The play keeps the trays near their par: each night a table pays out in chips what players
take away (the prizes, which the counts demo turns into a drop at a plausible hold; never a
negative number of chips of a value, so players only ever hold, and redeem, chips the tables
paid them), a fill
tops the tray up to par when a denomination runs low, and a credit sends back what piles up.
So the trays never grow past the chips the house owns, and every prize comes from play.
"""

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.db import transaction
from django.utils import timezone

from cardroom.models import Employee, Game, Role, Site, Table
from core import demo_progress

from . import services
from .calculations import business_date
from .models import GamingDay

OPEN_AT = time(18, 0)  # local: the evening session; the business day runs past midnight
SESSION = timedelta(hours=7, minutes=30)
CLOSE_AFTER_PLAY = timedelta(minutes=30)  # the day closes half an hour after the closers
# One dealer's tips of the demo (`_declare_tips`), redeemed at the window this long after the shift.
TIPS_DECLARED = [{"denomination": 100, "quantity": 14}, {"denomination": 500, "quantity": 2}]
TIPS_REDEEMED_AFTER = timedelta(minutes=10)
MAX_TABLES = 6
# The weekdays (Friday and Saturday) a site may play every one of its tables, the paddlewheel too;
# a weeknight runs one or two twenty-one tables (`_tables_tonight`).
FULL_NIGHTS = (4, 5)
# A table's par tray, $1,800 (domain.md section 8: $1,000-$3,000 in $1, $5 and $25 chips).
TRAY_PAR = {100: 200, 500: 120, 2500: 40}
FILL_BELOW = 0.4  # a denomination under 40% of its par calls for a fill (back to par)
CREDIT_ABOVE = 2.0  # over twice its par, the excess goes back to the bank
STACK = {100: 50, 500: 20, 2500: 10}  # fills and credits move whole stacks
PLAY_STEP = timedelta(minutes=30)
# What a table's tray pays out in a night, net (its prizes), by default: the demo passes each
# site's own range (floor.demo.NIGHTLY_PAYOUT_CENTS).
NIGHTLY_PAYOUT_CENTS = (40_000, 160_000)
DEMO_DAY_EVENT = "demo.gaming_day_built"


@dataclass
class _Cast:
    shift_manager: Employee
    verifier: Employee  # pit boss if there is one, else the shift manager
    cashier: Employee
    dealers: list[Employee]
    roles: dict[int, set[str]] = field(default_factory=dict)  # dealer id -> roles held at the site


@dataclass
class _TableDay:
    table: Table
    tray: dict[int, int]
    par: Mapping[int, int]
    changes: list[tuple[datetime, Employee]] = field(default_factory=list)
    fills: int = 0
    credits: int = 0


def built_dates(site: Site) -> set[date]:
    """The gaming dates at `site` whose days the demo built (marked by `DEMO_DAY_EVENT`): the
    only days the other demo builders count, bank, close or log. A day a person opened has no
    mark and is left exactly as they entered it."""
    from core.models import AuditEvent

    ids = AuditEvent.objects.filter(action=DEMO_DAY_EVENT, site=site).values_list("object_id", flat=True)
    return set(GamingDay.objects.filter(site=site, pk__in=[int(i) for i in ids]).values_list("gaming_date", flat=True))


def mark_built(day: GamingDay) -> None:
    """Mark a gaming day as the demo's (an audit event, in the day's own transaction)."""
    from core.audit import record_site_event

    record_site_event(None, DEMO_DAY_EVENT, day, day.site, after={"gaming_date": day.gaming_date})


def entered_by_hand(site: Site | None = None):
    """The gaming days (at `site`, or anywhere) the demo did not build: a person's."""
    from django.db.models import IntegerField
    from django.db.models.functions import Cast

    from core.models import AuditEvent

    # The demo's days by a subquery of their events, not a list of every id (issue 36).
    built = AuditEvent.objects.filter(action=DEMO_DAY_EVENT).annotate(day_id=Cast("object_id", IntegerField()))
    days = GamingDay.objects.exclude(pk__in=built.values("day_id"))
    return days if site is None else days.filter(site=site)


def build_demo_custody(
    site: Site,
    *,
    days: Iterable[date],
    people: Mapping[str, Employee | Sequence[Employee]],
    nightly_payout_cents: tuple[int, int] = NIGHTLY_PAYOUT_CENTS,
    tray_par: Mapping[int, int] = TRAY_PAR,
) -> int:
    """Build the custody records of `site` for each gaming date in `days` (oldest first is
    best). `people` maps role names ("shift_manager", "cashier", "dealer" required; "pit_boss"
    optional) to the employees holding that role at the site; the site's active tables (up to
    six, at most one per dealer) are used. `nightly_payout_cents`: the range of what a table
    pays out in chips in a night; `tray_par`: a table's par tray (chips of the organization's
    values). Returns the number of gaming days created."""
    from . import queries

    cast = _cast(people, site)
    tables = list(site.tables.filter(active=True).order_by("number")[: min(MAX_TABLES, len(cast.dealers))])
    if queries.open_gaming_day(site) is not None:
        return 0  # a day is open (a person's): the demo opens no other and closes none
    existing = set(GamingDay.objects.filter(site=site).values_list("gaming_date", flat=True))
    created = 0
    closers: dict[int, dict[int, int]] = {}  # table id -> its last closer's chips, as this run counted them
    nights = [d for d in sorted(set(days) - existing) if _over(site, d)] if tables else []
    tipped = nights[-1] if nights and not _tips_declared(site) else None  # the one night a dealer holds tips
    for gaming_date in nights:
        start = _session_start(site, gaming_date)
        rng = random.Random(f"{site.name}:{gaming_date}")
        play = (nightly_payout_cents, tray_par, gaming_date == tipped)
        with transaction.atomic():
            _build_day(site, gaming_date, start, tables, cast, rng, closers, play)
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


def _cast(people, site) -> _Cast:
    from . import queries

    def many(role) -> list[Employee]:
        value = people.get(role) or []
        return [value] if isinstance(value, Employee) else list(value)

    missing = [r for r in (Role.SHIFT_MANAGER, Role.CASHIER, Role.DEALER) if not many(r)]
    if missing:
        raise ValueError(f"build_demo_custody needs people for {', '.join(missing)}")
    verifier = (many(Role.PIT_BOSS) or many(Role.SHIFT_MANAGER))[0]
    dealers = many(Role.DEALER)
    roles = {d.pk: set(queries.roles_held(d, site)) for d in dealers}
    return _Cast(many(Role.SHIFT_MANAGER)[0], verifier, many(Role.CASHIER)[0], dealers, roles)


def _tables_tonight(tables, gaming_date, rng) -> list[Table]:
    """A weeknight runs one or two twenty-one tables; Friday and Saturday up to all of them,
    with the paddlewheel (domain.md section 8: a small site 1-3 tables, a busy one up to six)."""
    twenty_one = [t for t in tables if t.game == Game.TWENTY_ONE]
    others = [t for t in tables if t.game != Game.TWENTY_ONE]
    if not twenty_one:
        return []
    if gaming_date.weekday() not in FULL_NIGHTS:
        return twenty_one[: rng.randint(1, min(2, len(twenty_one)))]
    return twenty_one[: rng.randint(1 if len(twenty_one) <= 3 else 2, len(twenty_one))] + others


def _build_day(site, gaming_date, start, tables, cast, rng, closers, play) -> None:
    nightly, par, tipped = play
    boss = cast.shift_manager.user
    day = services.open_gaming_day(
        acting_user=boss, site=site, gaming_date=gaming_date, at=start - timedelta(minutes=30)
    )
    mark_built(day)
    in_play = [t for t in _tables_tonight(tables, gaming_date, rng) if _may_run(t, start)]
    table_days = [_open_table(t, start, cast, rng, closers.get(t.pk), par) for t in in_play]
    _schedule_rotations(table_days, start, cast, rng)
    _play_day(day, table_days, start, cast, rng, nightly, tipped=tipped)
    closers.update({td.table.pk: {v: q for v, q in td.tray.items() if q > 0} for td in table_days})
    _carry_boxes(boss, day, start + SESSION + timedelta(minutes=1))  # as play ends, after the closers
    services.close_gaming_day(acting_user=boss, gaming_day=day, at=start + SESSION + CLOSE_AFTER_PLAY)


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


# Why the demo's shift manager carries the drop boxes past the close: as play ends the boxes come
# off the tables, escorted to the office safe before the day closes (the count team's demo,
# counts.demo, which runs after this one, records their removal then), and the count team counts
# them in the morning. Cited by the site's pack (ND 99-01.3-08-14(1); "House control" at a
# Washington or New York site).
BOXES_CARRIED = (
    "Boxes come off the tables as play ends and go to the office safe before the day closes; the count team "
    "counts them in the morning ({})."
)


def _carry_boxes(boss, day, at) -> None:
    """Every slip of the demo day is received or voided and every table closed; what is left
    open are the drop boxes (registered once the counts demo has run), carried with a reason.
    Before the counts demo has registered any box (a first load) nothing is left to carry."""
    from counts.models import DropBox

    if not DropBox.objects.filter(site=day.site).exists():
        return
    keys = [item.key for item in services.items_left_open(day) if item.carryable]
    if keys:
        from counts.rules import REMOVAL

        reason = BOXES_CARRIED.format(REMOVAL.at(day.site))
        services.carry_open_items(acting_user=boss, gaming_day=day, keys=keys, reason=reason, at=at)


def _chips(tray: dict[int, int]) -> list[dict]:
    return [{"denomination": value, "quantity": quantity} for value, quantity in tray.items() if quantity > 0]


def _open_table(table, start, cast, rng, last_closer: dict[int, int] | None, par) -> _TableDay:
    """The opener matches the last closer, except now and then (a counted variance).
    `last_closer`: its chips when this run counted it (else they are read)."""
    from . import queries

    if last_closer is not None:
        previous, tray = True, dict(last_closer)
    else:
        previous = queries.last_tray_count(table, before=start)
        tray = dict(previous.lines.values_list("value_cents", "quantity")) if previous else dict(par)
    reason = ""
    if previous and rng.random() < 0.05:
        tray[500] = max(0, tray.get(500, 0) + rng.choice([-2, -1, 1]))
        reason = "Recount at opening: red chips miscounted at last night's close."
    services.record_table_inventory(
        acting_user=cast.shift_manager.user,
        table=table,
        kind="opener",
        chips=_chips(tray),
        variance_reason=reason,
        at=start,
    )
    return _TableDay(table, tray, par)


def _fits(dealer, table, cast) -> bool:
    from . import rules

    return rules.TABLE_ROLE.get(table.game, Role.DEALER) in cast.roles.get(dealer.pk, ())


def _schedule_rotations(table_days, start, cast, rng) -> None:
    """Changes every 2-4 hours per table, taken in time order across tables: a change seats a
    free person who deals the table's game (a dealer at twenty-one, the wheel operator at the
    paddlewheel: the service refuses anyone else); with nobody free the dealer there stays on."""
    candidates = []
    for index in range(len(table_days)):
        moment = start + timedelta(minutes=index)
        while moment < start + SESSION - timedelta(hours=1):
            candidates.append((moment, index))
            moment += timedelta(minutes=rng.choice([120, 150, 180, 210, 240]))
    seated: dict[int, Employee] = {}  # table index -> dealer
    for moment, index in sorted(candidates, key=lambda c: (c[0], c[1])):
        busy = {d.pk for d in seated.values()}
        free = [d for d in rng.sample(cast.dealers, len(cast.dealers)) if d.pk not in busy]
        table = table_days[index].table
        dealer = next((d for d in free if _fits(d, table, cast)), None)
        if dealer is not None:
            seated[index] = dealer
            table_days[index].changes.append((moment, dealer))


def _play_day(day, table_days, start, cast, rng, nightly, *, tipped: bool = False) -> None:
    """Seat each dealer (with a tray count at each change), play every half hour (the tray
    pays out; a fill or a credit when the tray calls for one), all in time order across tables
    (so slip numbers follow time, 08-05(2)), the dealers' tips declared (`_declare_tips`), then
    count the closers."""
    events = []
    for index, table_day in enumerate(table_days):
        events += [(at, 0, "seat", table_day, dealer) for at, dealer in table_day.changes]
        events += [(at, 1, "play", table_day, payout) for at, payout in _payouts(start, index, nightly, rng)]
    for at, _order, kind, table_day, detail in sorted(events, key=lambda e: (e[0], e[1], e[3].table.number)):
        if kind == "seat":
            _seat(table_day, at, detail, cast)
        else:
            _pay_out(table_day.tray, detail, rng)
            # Every night of play has a slip to look at: the first table is topped up by midnight.
            top_up = table_day is table_days[0] and not table_day.fills and at >= start + SESSION * 2 / 3
            _fill_or_credit(table_day, at, cast, rng, top_up=top_up)
    _send_back_a_stack(table_days[0], start + SESSION - timedelta(minutes=8), cast)
    _declare_tips(day, table_days, start, cast, tipped=tipped)
    for table_day in table_days:
        services.record_table_inventory(
            acting_user=cast.shift_manager.user,
            table=table_day.table,
            kind="closer",
            chips=_chips(table_day.tray),
            at=start + SESSION,
        )


def _payouts(start, index, nightly, rng) -> list[tuple[datetime, int]]:
    """The night's net payout of a table (chips players take from the tray, in cents), spread
    over its half hours of play."""
    low, high = nightly
    total = rng.randrange(low, high + 1, 100)
    moments = []
    moment = start + timedelta(minutes=20 + index)
    while moment < start + SESSION - timedelta(minutes=10):
        moments.append(moment)
        moment += PLAY_STEP
    weights = [rng.random() + 0.2 for _ in moments]
    return [(at, round(total * w / sum(weights))) for at, w in zip(moments, weights, strict=True)]


def _pay_out(tray: dict[int, int], cents: int, rng) -> None:
    """Players take `cents` net from the tray: mostly green and red chips, the rest in whites.
    Never a negative share of a value: players hand the tray back only chips they took from it
    (they buy no chips at the cage), so what a night's players take away, and may redeem, is
    chips of every value the tray paid (`cage.demo`: the redemptions and the chips players keep).
    Never more chips than the tray holds (a tray without greens, as at a $5 maximum, pays in reds
    and whites)."""
    greens = min(tray.get(2500, 0), round(cents * rng.uniform(0.55, 0.8) / 2500), cents // 2500)
    reds = min(tray.get(500, 0), round(cents * rng.uniform(0.25, 0.4) / 500), (cents - 2500 * greens) // 500)
    ones = (cents - 2500 * greens - 500 * reds) // 100
    tray[2500] = tray.get(2500, 0) - greens
    tray[500] = tray.get(500, 0) - reds
    tray[100] = max(0, tray.get(100, 0) - ones)


def _fill_or_credit(table_day, at, cast, rng, *, top_up: bool = False) -> None:
    """A fill back to par when a denomination runs low (or `top_up`), else a credit of what piled up."""
    tray, pars = table_day.tray, table_day.par.items()
    if top_up or any(tray.get(v, 0) < FILL_BELOW * par for v, par in pars):
        chips = {v: _stacks(par - tray.get(v, 0), v) for v, par in pars if tray.get(v, 0) < par}
        _fill(table_day, at, cast, rng, {v: q for v, q in chips.items() if q > 0})
    elif any(tray.get(v, 0) > CREDIT_ABOVE * par for v, par in pars):
        chips = {v: _stacks(tray.get(v, 0) - par, v, up=False) for v, par in pars if tray.get(v, 0) > par}
        _credit(table_day, at, cast, {v: q for v, q in chips.items() if q > 0})


def _stacks(quantity: int, value: int, up: bool = True) -> int:
    """`quantity` chips in whole stacks of the value (rounded up for a fill, down for a credit)."""
    stack = STACK[value]
    return -(-quantity // stack) * stack if up else quantity // stack * stack


def _last_shift_ends(table_days, start) -> dict:
    """{dealer: the moment their last shift of the day ends}: relieved by the table's next change,
    or the table's closer (`start + SESSION`)."""
    ends = {}
    for table_day in table_days:
        changes = table_day.changes
        for (_, dealer), following in zip(changes, [*changes[1:], (start + SESSION, None)], strict=True):
            ends[dealer] = max(ends.get(dealer, following[0]), following[0])
    return ends


def _declare_tips(day, table_days, start, cast, *, tipped: bool = False) -> None:
    """Each dealer of the day declares the tips they hold as their last shift ends (at the
    relief, or at the closer), so the tips check of ND 99-01.3-08-06(3) finds them in order: none,
    but on the `tipped` night, where the first dealer still seated at the close declares
    `TIPS_DECLARED` and redeems them at the window after that shift ended, before leaving and
    before the day closes (`TIPS_REDEEMED_AFTER`; the cage's demo pays them out of the bank's cash
    and takes the chips in). (A demo builder is wiring: it may call the cage.)"""
    from cage import services as cage

    site, ends = day.site, _last_shift_ends(table_days, start)
    at_close = [d for d in sorted(ends, key=lambda e: e.pk) if ends[d] == start + SESSION]
    tipper = at_close[0] if tipped and at_close else None
    for dealer in sorted(ends, key=lambda e: e.pk):
        declaration = cage.declare_tips(
            acting_user=dealer.user,
            site=site,
            gaming_date=day.gaming_date,
            chips=TIPS_DECLARED if dealer == tipper else [],
            at=ends[dealer],
        )
        if dealer == tipper:
            cage.redeem_tips(
                acting_user=cast.cashier.user,
                declaration=declaration,
                dealer=dealer,
                at=ends[dealer] + TIPS_REDEEMED_AFTER,
            )


def _tips_declared(site) -> bool:
    """Does a dealer at the site hold tips declared already (a night the demo tipped, or a person's)?"""
    from cage.models import TipDeclaration

    return TipDeclaration.objects.filter(site=site, total_cents__gt=0).exists()


def _seat(table_day, at, dealer, cast) -> None:
    first = table_day.changes[0][0] == at
    chips = None if first else _chips(table_day.tray)
    services.start_dealer_shift(
        acting_user=cast.shift_manager.user, table=table_day.table, dealer=dealer, started_at=at, chips=chips
    )
    if first:
        _check_cards(table_day.table, at, dealer, cast)


def _check_cards(table, at, dealer, cast) -> None:
    """Where the site's pack states the card checks (ND 99-01.3-08-07(1), (2)): the shift manager
    inspects the dealing shoe before play and the first dealer seated approves the table's decks,
    entered by the shift manager; so a demo night raises no alert of a check not recorded."""
    from . import rules

    if table.game != Game.TWENTY_ONE or not rules.card_checks_kept(table.site):
        return
    boss = cast.shift_manager
    services.record_card_check(acting_user=boss.user, table=table, kind="shoe_inspected", at=at)
    services.record_card_check(acting_user=boss.user, table=table, kind="decks_approved", checked_by=dealer, at=at)


def _seated(table_day, at):
    """The dealer the day's schedule has seated at the table by `at` (each change relieves
    the one before it; the closers come after every fill and credit): what
    floor.queries.current_dealer reads back, known here without asking."""
    seated = [dealer for moment, dealer in table_day.changes if moment <= at]
    return seated[-1] if seated else None


def _fill(table_day, at, cast, rng, chips: dict[int, int]) -> None:
    dealer = _seated(table_day, at)  # the seats recorded so far: none is recorded between now and the receipt
    if dealer is None or not chips:
        return  # nobody at the table to receive the copy (ND 99-01.3-08-05(6)): no fill
    slip = services.prepare_fill(acting_user=cast.cashier.user, table=table_day.table, chips=_chips(chips), at=at)
    if rng.random() < 0.05:  # a mistake: VOID and prepare it again
        services.void_slip(acting_user=cast.cashier.user, slip=slip, reason="Wrong quantity written.", at=at)
        slip = services.prepare_fill(acting_user=cast.cashier.user, table=table_day.table, chips=_chips(chips), at=at)
    services.verify_slip(acting_user=cast.verifier.user, slip=slip, at=at + timedelta(minutes=1))
    services.receive_slip(acting_user=dealer.user, slip=slip, at=at + timedelta(minutes=2))
    for value, quantity in chips.items():
        table_day.tray[value] = table_day.tray.get(value, 0) + quantity
    table_day.fills += 1


def _credit(table_day, at, cast, chips: dict[int, int]) -> None:
    dealer = _seated(table_day, at)
    if dealer is None or not chips or not _fits(dealer, table_day.table, cast):
        return  # ND 99-01.3-08-05(3)(c): a wheel operator at a twenty-one table initials no credit there
    slip = services.prepare_credit(acting_user=dealer.user, table=table_day.table, chips=_chips(chips), at=at)
    services.verify_slip(acting_user=cast.shift_manager.user, slip=slip, at=at + timedelta(minutes=1))
    services.receive_slip(acting_user=cast.cashier.user, slip=slip, at=at + timedelta(minutes=2))
    for value, quantity in chips.items():
        table_day.tray[value] -= quantity
    table_day.credits += 1


def _send_back_a_stack(table_day, at, cast) -> None:
    """Every night of play has a credit to look at, as it has a fill: unless the first table sent
    chips back during play, it sends a stack of its smallest chips back after its last hand, before
    its closer, when it holds more than a stack (the lists and the slip pages show a credit every
    night, whatever the night's play; the page walker's lists are never empty)."""
    value = min(table_day.par)
    stack = STACK.get(value)
    if not table_day.credits and stack and table_day.tray.get(value, 0) > stack:
        _credit(table_day, at, cast, {value: stack})


# Nights of play per week at each demo site (Monday = 0): domain.md section 8 (a busy site 4-7
# nights; the small and the summer sites on the weekend only, which also keeps the build short).
DEMO_NIGHTS = {"busy": {1, 2, 3, 4, 5}, "small": {4, 5}, "seasonal": {5, 6}}
# What a table's tray pays out net in a night at each demo site (its prizes): with a hold of
# about 15%, drops of about $700-$2,900 at the busy site and $120-$700 at the small one; at
# Spokane ($5-$300 house-banked) $500-$2,000; at Kingston ($1-$5, a full table of a fire
# company's games-of-chance night) $600-$1,400.
SITE_PAYOUT_CENTS = {
    "busy": (60_000, 250_000),
    "small": (10_000, 60_000),
    "seasonal": (20_000, 120_000),
    "spokane": (50_000, 200_000),
    "kingston": (60_000, 140_000),
}
# A par tray where the site's tables play other chips: Kingston's $1 and $5 ($1,300).
SITE_TRAY_PAR = {"kingston": {100: 300, 500: 200}}


def demo_days(site_key: str, site: Site, today: date) -> list[date]:
    """From the first day of the previous quarter's last month to yesterday, the nights whose
    session is over; the seasonal site plays only in July-September. The demo's card rooms
    opened their books then: the previous quarter has a month of play to file and amend, and
    the build stays short (`make run` to a first page in under a minute)."""
    from cardroom.pack_demo import NIGHTS_AGO
    from core.periods import Quarter

    if site_key in NIGHTS_AGO:  # the Washington and New York sites: their last week only
        return [d for d in (today - timedelta(days=n) for n in NIGHTS_AGO[site_key]) if _over(site, d)]
    first = Quarter.containing(today).previous().end.replace(day=1)
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
    """`manage.py load_demo` hook: custody records for every demo site with play (idempotent)."""
    from cardroom.pack_demo import houses

    for house in houses(demo):
        build_house_custody(house)


def build_house_custody(house: dict) -> None:
    """Custody records for each site of one of the demo's card rooms (`cardroom.pack_demo.houses`)."""
    for key, site in house["sites"].items():
        build_demo_custody(
            site,
            days=demo_days(key, site, timezone.localdate()),
            people=people_at(site),
            nightly_payout_cents=SITE_PAYOUT_CENTS[key],
            tray_par=SITE_TRAY_PAR.get(key, TRAY_PAR),
        )
