"""Demo cage records for `make run`: bank counts for every gaming day the demo built, a few
IOUs, the players' chip redemptions, deposits (one late), a chip receipt and a physical count.
The tips a dealer declares and redeems are the floor's demo's, at the end of the dealer's shift
(`floor.demo._declare_tips`); the bank pays them out of its cash and takes their chips in.

Only the days the floor's demo built (`floor.demo.built_dates`) are counted, closed and
deposited: a day a person entered is left to them. The bank follows the floor and the window:
players take chips from the tables (what each tray paid, by value: its prizes), a few of them
cash out at the window during the night and as it ends (the night's redemptions: the chips they
hold, of the values the tables paid them, less a chip or two they keep for another night), a
dealer's tips are chips from them too, and the bank's chips are what it had, less the fills it
sent, plus the credits it took back and the chips redeemed at its window; its cash pays for
those chips, and is counted a few dollars long or short now and then. So a day's cash long
(short) is the change in the chips players hold (the daily report's reconciling line) and those
few dollars; trays plus bank plus the players' chips are the chips the inventory owns, and the
physical count finds the players' chips outstanding.

Each record is dated inside the gaming day it belongs to, as the cage would have written it on
the night (`_opened`, `_closed`): the starting count as the day opens, the redemptions during
the night and before it closes, the ending count as it closes, the IOUs during play. Entered now,
they are marked entered late, as the floor's and the counts' demo records of past nights are.

The busy North Dakota site's last demo night is counted here but its books are closed by the
books' demo (`close_last_night`, from `accounting.demo_books`) once it has filed the previous
quarter and entered its amendment on that night: the correction lands on a night the demo built,
never on today's gaming date, which is a person's to enter. A deposit is made on a banking day
(the first after the night; the late one two banking days after its due day), and a night with
no cash profit records a nil deposit saying so, not a deposit slip.

Idempotent: every step looks for what it would create first. Written through the services,
acting as the demo people, so the audit log reads as if the floor did it.
"""

import random
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, timedelta

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from cardroom.models import ChipDenomination
from core import demo_progress
from core.periods import add_banking_days
from floor.models import GamingDay
from floor.rules import house_chips

from . import services
from .calculations import deposit_due_on
from .models import (
    BankCount,
    BankDeposit,
    ChipInventoryCount,
    ChipMovement,
    ChipRedemptionLine,
    IdealBank,
    Iou,
    TipDeclarationLine,
    TipPolicy,
)

# Starting bank per site key: {cash value: quantity}, {chip value: quantity}. The cash covers
# the most a night's tables can pay out (floor.demo.SITE_PAYOUT_CENTS: six tables at the busy
# site, $15,000); the chips fund the fills.
BANKS = {
    "busy": ({10000: 100, 2000: 250, 500: 100, 100: 100}, {10000: 10, 2500: 300, 500: 500, 100: 1000}),
    "small": ({10000: 20, 2000: 100, 500: 40, 100: 50}, {2500: 100, 500: 200, 100: 400}),
    "seasonal": ({10000: 30, 2000: 100, 500: 40, 100: 50}, {2500: 100, 500: 200, 100: 400}),
    # Spokane: two tables paying out up to $2,000 a night each; Kingston: one $1-$5 table.
    "spokane": ({10000: 50, 2000: 150, 500: 60, 100: 100}, {10000: 20, 2500: 200, 500: 300, 100: 600}),
    "kingston": ({10000: 10, 2000: 60, 500: 40, 100: 100}, {500: 400, 100: 800}),
}
# The imprest amount: the starting bank, cash and chips at face.
IDEAL = {
    key: sum(v * q for v, q in cash.items()) + sum(v * q for v, q in chips.items())
    for key, (cash, chips) in BANKS.items()
}
# Each organization's chips as received (house key: North Dakota's, cardroom.pack_demo's "wa" and
# "ny"): what the banks and the trays hold, and storage. North Dakota's (SFN 17930) for its eleven
# trays, Evergreen's for Spokane's two, the fire company's for Kingston's one.
RECEIVED = {
    "nd": {50: 200, 100: 6000, 200: 200, 500: 4000, 2500: 1500, 10000: 100},
    "wa": {100: 2000, 500: 1000, 2500: 500, 10000: 60},
    "ny": {100: 2000, 500: 1000},
}
DESTROYED = {"nd": {100: 40, 500: 12}}
COUNTED_DAYS_AGO = 7
# What the players of a night keep of the chips they hold rather than cash them (a chip or two to
# come back with): at most this many of each value. The rest is redeemed at the window.
KEPT_AT_MOST = {10000: 0, 2500: 1, 500: 4, 100: 10}
# A player's cash-out at the window: about this much, so a busy night has several.
CASH_OUT_CENTS = (30_000, 80_000)
MOST_CASH_OUTS = 8
CASH_ERROR_DOLLARS = (-5, -3, -2, -1, 1, 2, 3, 4)  # now and then a few dollars long or short


def extend_demo(demo) -> None:
    """`manage.py load_demo` hook: the cage of every demo card room (`cardroom.pack_demo.houses`)."""
    from cardroom.pack_demo import houses

    for house in houses(demo):
        bank_house(house, last_night_open=house.get("key", "nd") == "nd")


# The site whose last demo night the books' demo closes (`close_last_night`).
AMENDED_SITE = "busy"


def bank_house(house, *, last_night_open: bool = False) -> None:
    """The cage of one of the demo's card rooms: its chips, tip policy and banks, then each of
    its sites' demo-built days counted, closed and deposited. North Dakota's ("key" "nd", the
    default) also lends IOUs to its pull-tab booth."""
    from floor.demo import built_dates

    organization, sites, people = house["organization"], house["sites"], house["people"]
    gm, cashier = people["gm"].user, people["cashier"].user
    house_key = house.get("key", "nd")
    with transaction.atomic():
        _chips_received(organization, gm, house_key)
        if not TipPolicy.objects.filter(organization=organization).exists():
            services.record_tip_policy(
                acting_user=gm,
                organization=organization,
                pooled=False,
                effective_on=timezone.localdate() - timedelta(days=365),
                description="Declared at the end of each shift and redeemed at the cage window before the dealer leaves; no tip box at the tables.",
            )
        for key, site in sites.items():
            if not IdealBank.objects.filter(site=site).exists():
                services.set_ideal_bank(
                    acting_user=gm,
                    site=site,
                    amount_cents=IDEAL[key],
                    effective_on=timezone.localdate() - timedelta(days=365),
                )
            days = list(
                GamingDay.objects.filter(site=site, gaming_date__in=built_dates(site))
                .select_related("close")
                .order_by("gaming_date")
            )
            if house_key == "nd":
                _ious(site, days, cashier)  # before the books close
            _bank_days(site, days, BANKS[key], cashier, gm, last_open=last_night_open and key == AMENDED_SITE)
        _inventory_count(organization, sites, gm)


def close_last_night(demo) -> None:
    """Close the books of the busy site's last demo night, which `extend_demo` counted and left
    open for the books' demo, and make its deposit (the cash profit its closed figures expect)."""
    from accounting.published import closed_books_of
    from floor.demo import built_dates

    site, people = demo["sites"][AMENDED_SITE], demo["people"]
    dates = built_dates(site)
    if not dates:
        return
    day = GamingDay.objects.select_related("site").get(site=site, gaming_date=max(dates))
    _close_books(site, day, people["gm"].user)
    closed = closed_books_of(site, day.gaming_date)
    if closed is not None:
        expected = closed.figures["cash"]["deposit_expected_cents"] or 0
        _deposit(site, day, 0, max(0, expected), people["cashier"].user)


def _opened(day, minutes: int = 0):
    """A moment of the gaming day `minutes` after it opened."""
    return day.opened_at + timedelta(minutes=minutes)


def _closed(day, minutes: int = 0):
    """A moment `minutes` after the gaming day closed (its opening if it has no close): still
    inside its business hours, which run to the next day's start hour."""
    return (day.closed_at or day.opened_at) + timedelta(minutes=minutes)


def _bank_days(site, days, bank, cashier, gm, *, last_open: bool = False) -> None:
    if not days:
        return
    flows = _day_flows(site, days[0].gaming_date, days[-1].gaming_date)
    chips = _chips_before(site, days[0].gaming_date) or dict(bank[1])
    held = players_chips(site, before=days[0].gaming_date)
    for index, day in enumerate(days):
        flow = flows.get(day.gaming_date) or _Flow()
        _add(held, flow.taken)
        _add(held, flow.tips, -1)  # the dealers' tips: the players' chips, redeemed by the dealers
        redeemed = _redeem_chips(site, day, held, cashier)
        _add(held, redeemed, -1)
        chips, profit = _bank_counts(site, day, bank[0], chips, flow, redeemed, cashier)
        if last_open and index == len(days) - 1:
            break  # closed, and deposited, by `close_last_night`
        _close_books(site, day, gm)
        _deposit(site, day, index, max(0, profit), cashier)
        demo_progress.advance("days banked and closed")


@dataclass(frozen=True)
class _Flow:
    """One day's flows at a site, amounts in cents, chips as {value: quantity}."""

    drop: int = 0
    taken: dict = field(default_factory=dict)  # what the trays paid players (openers + fills - credits - closers)
    slips: dict = field(default_factory=dict)  # what the bank sent the tables (fills - credits)
    tips: dict = field(default_factory=dict)  # dealers' tip chips declared that day and redeemed at the window
    ious: int = 0  # change in IOUs lent out
    tournament: int = 0  # the tournament's cash

    @property
    def tips_cents(self) -> int:
        return _cents(self.tips)


def _day_flows(site, first, last) -> dict:
    """{gaming date: _Flow} of the site's days in [first, last]. The tournament cash is the fees
    the cashier took into the bank less the cash prizes paid from it (the demo tournament, played
    before the night's ending count: `tournaments.demo`); a merchandise prize takes none
    (accounting.summaries.cash_figures)."""
    from accounting.published import daily_summaries, table_days

    from .queries import bank_days

    drops = defaultdict(int)
    for row in table_days([site.pk], first, last):
        drops[row.gaming_date] += row.custody.drop_cents
    taken = _chips_taken(site, gaming_date__range=(first, last))
    slips = _chips_sent(site, gaming_date__range=(first, last))
    tips = _tip_chips(site, gaming_date__range=(first, last))
    banks = bank_days([site.pk], first, last, jurisdictions={site.pk: site.jurisdiction})
    ious = {day: b.ious_net_cents - b.ious_net_start_cents for (_, day), b in banks.items()}
    played = {
        d.gaming_date: d.tournaments.gross_proceeds_cents - d.tournaments.cash_prizes_cents
        for d in daily_summaries([site], first, last)
        if not d.tournaments.is_empty
    }
    keys = set(drops) | set(taken) | set(slips) | set(tips) | set(ious) | set(played)
    return {
        day: _Flow(
            drops[day], taken.get(day, {}), slips.get(day, {}), tips.get(day, {}), ious.get(day, 0), played.get(day, 0)
        )
        for day in keys
    }


def _cents(chips: dict) -> int:
    return sum(value * quantity for value, quantity in chips.items())


def _add(into: dict, chips: dict, sign: int = 1) -> None:
    for value, quantity in chips.items():
        into[value] = into.get(value, 0) + sign * quantity


def _by_day(rows) -> dict:
    """{gaming date: {value: quantity}} of (gaming date, value, signed quantity) rows."""
    days = defaultdict(lambda: defaultdict(int))
    for day, value, quantity in rows:
        days[day][value] += quantity
    return {day: dict(chips) for day, chips in days.items()}


def _chips_sent(site, **dates) -> dict:
    """{gaming date: {value: fills - credits}}: the chips the bank sent the site's tables on its
    closed days (the slips not voided), `dates` a lookup on the gaming date."""
    from floor.models import SlipLine, SlipStep

    lines = (
        SlipLine.objects.filter(slip__site=site, slip__gaming_day__close__isnull=False)
        .filter(**{f"slip__gaming_day__{k}": v for k, v in dates.items()})
        .exclude(slip__steps__kind=SlipStep.Kind.VOID)
        .values_list("slip__gaming_day__gaming_date", "slip__kind", "value_cents", "quantity")
    )
    return _by_day((day, value, quantity if kind == "fill" else -quantity) for day, kind, value, quantity in lines)


def _chips_taken(site, **dates) -> dict:
    """{gaming date: {value: quantity}}: the chips the site's trays paid players on its closed
    days (openers + fills - credits - closers), `dates` a lookup on the gaming date."""
    from floor.models import TableInventoryLine

    lines = (
        TableInventoryLine.objects.filter(
            inventory__gaming_day__site=site,
            inventory__gaming_day__close__isnull=False,
            inventory__kind__in=("opener", "closer"),
        )
        .filter(**{f"inventory__gaming_day__{k}": v for k, v in dates.items()})
        .values_list("inventory__gaming_day__gaming_date", "inventory__kind", "value_cents", "quantity")
    )
    taken = _by_day((day, value, quantity if kind == "opener" else -quantity) for day, kind, value, quantity in lines)
    for day, chips in _chips_sent(site, **dates).items():
        _add(taken.setdefault(day, {}), chips)
    return taken


def _tip_chips(site, **dates) -> dict:
    """{gaming date: {value: quantity}}: the tip chips dealers declared at the site and redeemed, by the
    day each redemption is counted on (the chips join the bank then)."""
    lines = TipDeclarationLine.objects.filter(declaration__site=site, declaration__redemption__isnull=False).filter(
        **{f"declaration__redemption__{k}": v for k, v in dates.items()}
    )
    return _by_day(lines.values_list("declaration__redemption__gaming_date", "value_cents", "quantity"))


def players_chips(site, *, before: date) -> dict:
    """{value: quantity}: the chips the site's players hold as the gaming date `before` begins:
    what its trays paid them on its closed days before it, less what they redeemed at the window
    and gave the dealers as tips (never fewer than none)."""
    held: dict = {}
    for chips in _chips_taken(site, gaming_date__lt=before).values():
        _add(held, chips)
    for chips in _tip_chips(site, gaming_date__lt=before).values():
        _add(held, chips, -1)
    redeemed = ChipRedemptionLine.objects.filter(redemption__site=site, redemption__gaming_date__lt=before)
    _add(held, dict(redeemed.values("value_cents").annotate(n=Sum("quantity")).values_list("value_cents", "n")), -1)
    return {value: quantity for value, quantity in held.items() if quantity > 0}


def _chips_before(site, gaming_date) -> dict | None:
    """The chips of the last ending bank count before `gaming_date` (None: none yet)."""
    count = (
        BankCount.objects.filter(site=site, kind=BankCount.Kind.END, gaming_date__lt=gaming_date)
        .order_by("-gaming_date", "-counted_at", "-id")
        .first()
    )
    if count is None:
        return None
    return dict(count.lines.filter(chip__isnull=False).values_list("value_cents", "quantity"))


def _paid_out(cash: dict, cents: int) -> dict:
    """The cash left after paying `cents` (negative: taking them in) from the largest bills down."""
    result = dict(cash)
    if cents < 0:
        result[100] = result.get(100, 0) - cents // 100  # taken in as singles
        return result
    for value in sorted(result, reverse=True):
        pieces = min(result[value], cents // value)
        result[value] -= pieces
        cents -= pieces * value
    if cents:
        raise ValueError(f"the demo bank's cash cannot pay out {cents} more cents")
    return result


def _redeem_chips(site, day, held, cashier) -> dict:
    """Players cash at the window the chips they hold (`held`: what the tables paid them, tonight
    and on nights before, less what they redeemed or tipped): all but a chip or two of a value
    they keep for another night (`KEPT_AT_MOST`), in a few cash-outs during the night and as it
    ends (`_cash_outs`), so the redemption log explains the cash that left the bank (`_bank_counts`
    pays it out of its cash) with chips the tables paid. Returns the night's redeemed chips: those
    recorded before where the night has them; none where the house has no chips (a fees room)."""
    from accounting.published import books_closed

    recorded = ChipRedemptionLine.objects.filter(redemption__site=site, redemption__gaming_date=day.gaming_date)
    if recorded.exists():
        return dict(recorded.values("value_cents").annotate(n=Sum("quantity")).values_list("value_cents", "n"))
    if not house_chips(site) or books_closed(site, day.gaming_date):  # a night closed before the demo redeemed
        return {}
    active = set(
        ChipDenomination.objects.filter(organization_id=site.organization_id, active=True).values_list(
            "value_cents", flat=True
        )
    )
    rng = random.Random(f"{site.name}:redemptions:{day.gaming_date}")
    chips = {}
    for value in sorted(held, reverse=True):
        if value in active and held[value] > 0:
            kept = min(held[value], rng.randint(0, KEPT_AT_MOST.get(value, 0)))
            if held[value] > kept:
                chips[value] = held[value] - kept
    for cash_out, at in _cash_outs(day, chips, rng):
        services.redeem_chips(acting_user=cashier, site=site, gaming_date=day.gaming_date, chips=cash_out, at=at)
    return chips


def _cash_outs(day, chips, rng) -> list[tuple[dict, object]]:
    """The night's chips to redeem as a few players' cash-outs ({value: quantity}, moment): about
    one per `CASH_OUT_CENTS`, each a share of every value, the first from three hours into the
    night and the last a few minutes before the day closes (never after it)."""
    total = _cents(chips)
    if not total:
        return []
    count = max(1, min(MOST_CASH_OUTS, round(total / rng.randrange(*CASH_OUT_CENTS))))
    weights = [rng.random() + 0.25 for _ in range(count)]
    shares = [defaultdict(int) for _ in range(count)]
    for value, quantity in sorted(chips.items(), reverse=True):
        parts = [int(quantity * w / sum(weights)) for w in weights]
        parts[rng.randrange(count)] += quantity - sum(parts)
        for share, part in zip(shares, parts, strict=True):
            share[value] += part
    end = (day.closed_at or _opened(day, 8 * 60)) - timedelta(minutes=rng.randint(3, 12))
    start = min(end, _opened(day, 3 * 60 + 30))
    span = max(0, int((end - start).total_seconds() // 60))
    moments = sorted({start + timedelta(minutes=rng.randint(0, span)) for _ in range(count - 1)}) + [end]
    shares = [{v: q for v, q in share.items() if q > 0} for share in shares]
    shares = [share for share in shares if share]
    # as many moments as cash-outs: the extra ones (a share left empty, a moment drawn twice) go
    # to the last cash-out, which ends the night
    while len(moments) > len(shares):
        moments.pop(0)
    while len(shares) > len(moments):
        _add(shares[-2], shares.pop())
    return list(zip(shares, moments, strict=True))


def _bank_counts(site, day, cash, chips, flow, redeemed, cashier) -> tuple[dict, int]:
    """Count the bank at the start and the end of the day; returns the ending chips and the
    cash to deposit. The bank sent its fills and took back its credits, players redeemed chips
    for cash (`redeemed`) and the dealers their tips, IOUs moved cash in or out, a tournament's
    fees came in less its cash prizes, and one day in five the cash is a few dollars off: the
    bank's cash grows by drop - redeemed + tournament cash + that error, the cash long (short) is
    the change in the chips players hold (prizes - redeemed) and that error."""
    rng = random.Random(f"{site.name}:bank:{day.gaming_date}")
    error = rng.choice(CASH_ERROR_DOLLARS) * 100 if rng.random() < 0.2 else 0
    ending_chips = dict(chips)
    _add(ending_chips, flow.slips, -1)
    _add(ending_chips, redeemed)
    _add(ending_chips, flow.tips)
    paid = _cents(redeemed) + flow.tips_cents
    counts = {
        "start": (cash, chips, _opened(day)),
        "end": (_paid_out(cash, paid + flow.ious - error - flow.tournament), ending_chips, _closed(day, 5)),
    }
    for kind, (counted_cash, counted_chips, at) in counts.items():
        if BankCount.objects.filter(site=site, gaming_date=day.gaming_date, kind=kind).exists():
            continue
        services.record_bank_count(
            acting_user=cashier,
            site=site,
            gaming_date=day.gaming_date,
            kind=kind,
            cash={v: q for v, q in counted_cash.items() if q > 0},
            chips={v: q for v, q in counted_chips.items() if q > 0},
            at=at,
        )
    return ending_chips, flow.drop - paid + flow.tournament + error


def _close_books(site, day, manager) -> None:
    """Close the day's books once it is closed, counted and its bank counted (else leave it open)."""
    from django.core.exceptions import ValidationError

    from accounting.published import books_closed
    from accounting.services import close_books

    if day.closed_at is None or books_closed(site, day.gaming_date):
        return
    try:
        close_books(acting_user=manager, site=site, gaming_date=day.gaming_date)
    except ValidationError:
        pass  # not all of the day's boxes were counted: the books stay open, as on the floor


def _deposit(site, day, index, amount_cents, cashier) -> None:
    """The day's cash profit goes to the bank (the bank starts every day at the same cash)."""
    from accounting.published import books_closed

    if not books_closed(site, day.gaming_date) or BankDeposit.objects.filter(gaming_day=day).exists():
        return
    due = deposit_due_on(day.site, day.gaming_date)
    # A bank takes deposits on banking days: the first after the night, the second night's two after its due day (late).
    deposited_on = add_banking_days(due, 2) if index == 1 else add_banking_days(day.gaming_date, 1)
    if deposited_on > site.today():  # as the service asks
        return
    services.record_deposit(
        acting_user=cashier,
        gaming_day=day,
        amount_cents=amount_cents,
        deposited_on=deposited_on,
        reference=f"Deposit slip {day.gaming_date:%Y%m%d}-{site.pk}" if amount_cents else "Nil: no cash profit",
    )


def _ious(site, days, cashier) -> None:
    if not days or Iou.objects.filter(site=site).exists():
        return
    first, last = days[0], days[-1]
    iou = services.lend_iou(
        acting_user=cashier,
        site=site,
        gaming_date=first.gaming_date,
        source="bank",
        destination="pull_tabs",
        amount_cents=20000,
        note="Change for the pull-tab booth",
        at=_opened(first, 30),
    )
    services.repay_iou(acting_user=cashier, iou=iou, gaming_date=last.gaming_date, at=_opened(last, 45))
    services.lend_iou(
        acting_user=cashier,
        site=site,
        gaming_date=last.gaming_date,
        source="reserve",
        destination="bank",
        amount_cents=50000,
        note="Extra twenties for a busy night",
        at=_opened(last, 60),
    )


def _chips_received(organization, gm, house_key) -> None:
    if ChipMovement.objects.filter(organization=organization).exists():
        return
    received_on = timezone.localdate() - timedelta(days=200)
    services.receive_chips(
        acting_user=gm,
        organization=organization,
        received_on=received_on,
        reference="Manufacturer invoice 2026-0412",
        chips=RECEIVED[house_key],
    )
    if house_key not in DESTROYED:
        return
    services.destroy_chips(
        acting_user=gm,
        organization=organization,
        destroyed_on=received_on + timedelta(days=90),
        reference="Worn chips destroyed, witnessed by AT",
        chips=DESTROYED[house_key],
    )


def _inventory_count(organization, sites, gm) -> None:
    """A physical count a week ago: each site's bank (its ending count) and trays (their last
    closers) as the demo recorded them that day, the rest in storage but the chips the players
    held that night (`players_chips`): the count finds those outstanding."""
    from .queries import chip_book

    if ChipInventoryCount.objects.filter(organization=organization).exists():
        return
    counted_on = timezone.localdate() - timedelta(days=COUNTED_DAYS_AGO)
    locations = []
    in_use = defaultdict(int)
    for site in sites.values():
        for value, quantity in players_chips(site, before=counted_on + timedelta(days=1)).items():
            in_use[value] += quantity  # with players: neither counted in the bank nor in storage
        for location, chips in (
            ("bank", _chips_before(site, counted_on + timedelta(days=1))),
            ("trays", _trays(site, counted_on)),
        ):
            if chips:
                locations.append({"location": location, "site": site.pk, "chips": chips})
                for value, quantity in chips.items():
                    in_use[value] += quantity
    storage = {v: q - in_use.get(v, 0) for v, q in chip_book(organization, counted_on).items() if q > in_use.get(v, 0)}
    locations.append({"location": "storage", "chips": storage})
    services.record_chip_inventory_count(
        acting_user=gm, organization=organization, counted_on=counted_on, locations=locations
    )


def _trays(site, on_date) -> dict:
    """The chips of each table's last closer on or before `on_date`, added up."""
    from floor.models import TableInventory

    closers = (
        TableInventory.objects.filter(table__site=site, kind="closer", gaming_day__gaming_date__lte=on_date)
        .order_by("table_id", "-gaming_day__gaming_date")
        .prefetch_related("lines")
    )
    chips, seen = defaultdict(int), set()
    for closer in closers:
        if closer.table_id in seen:
            continue
        seen.add(closer.table_id)
        for line in closer.lines.all():
            chips[line.value_cents] += line.quantity
    return dict(chips)
