"""Per-dealer percent-of-hold: each dealer shift's figures (SFN 18862 model) and a dealer's
summary over a period such as 12 continuous weeks (SFN 18863), beside the site's hold.

A shift has figures of its own only when its drop and its tray can be separated: the drop
box was exchanged at the dealer change (or the dealer had the table the whole day) and the
tray was counted at each change. Otherwise the shift says why, instead of guessing."""

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import NamedTuple

from django.db.models import OuterRef, Subquery

from cardroom.models import Employee
from core.rows import shaped_rows
from floor.models import DealerShift, SlipKind, TableInventory
from floor.queries import gaming_days_query

from . import figures
from .figures import Custody
from .table_days import live_slips, table_numbers_query, tray_counts

# Why a shift has no figures of its own. The drop box of a shift is a Drop tied to the shift
# (counts.Drop.dealer_shift_id), or the day's box when the dealer had the table all day.
NO_BOX_EXCHANGE = "the drop box was not exchanged at the dealer change"  # no box tied to this shift
NO_TRAY_COUNT = "the tray was not counted at the dealer change"
NO_COUNT = "the drop has no signed count yet"  # the shift's own box exists, its count is not signed


@dataclass(frozen=True)
class ShiftFigures:
    shift_id: int
    site_id: int
    dealer_id: int
    dealer_name: str
    table_number: int
    game: str
    gaming_date: date
    started_at: datetime
    ended_at: datetime | None
    custody: Custody | None  # None when the shift cannot be separated
    not_separable_because: str = ""
    table_id: int = 0

    @property
    def hold_ratio(self) -> Decimal | None:
        return self.custody.hold_ratio if self.custody else None


_OPENER, _CLOSER = TableInventory.Kind.OPENER.value, TableInventory.Kind.CLOSER.value


class _Shift(NamedTuple):  # a tuple: thousands are made per report
    pk: int
    table_id: int
    site_id: int
    dealer_id: int
    gaming_date: date
    started_at: datetime
    ended_at: datetime | None


# The queries, as functions of keyword arguments for core.rows.shaped_rows.
def _shifts_query(*, site_ids, start, end):
    return (
        DealerShift.objects.filter(table__site_id__in=site_ids, gaming_day__gaming_date__range=(start, end))
        .order_by()
        .values_list("pk", "table_id", "dealer_id", "gaming_day_id", "started_at", "ended_at")
    )


def _drops_query(*, site_ids, start, end):
    """Every drop (box use) of the period with its signed count's total, or None while the
    count is not signed: one query, so a box without a signed count is told from no box."""
    from counts.models import Drop
    from counts.queries import current_agreements

    signed = current_agreements().filter(drop=OuterRef("pk")).order_by().values("total_cents")[:1]
    return (
        Drop.objects.filter(site_id__in=site_ids, gaming_date__range=(start, end))
        .order_by()
        .annotate(signed_cents=Subquery(signed))
        .values_list("site_id", "table_id", "gaming_date", "dealer_shift_id", "signed_cents")
    )


def _trays_query(*, site_ids, start, end):
    return (
        tray_counts(site_ids, start, end)
        .order_by()
        .values_list("table_id", "gaming_day_id", "kind", "dealer_shift_id", "total_cents")
    )


def _slips_query(*, site_ids, start, end):
    return (
        live_slips(site_ids, start, end)
        .order_by()
        .values_list("table_id", "gaming_day_id", "kind", "prepared_at", "total_cents")
    )


def dealers_query(*, ids):
    return Employee.objects.filter(pk__in=ids).values_list(
        "pk", "user__first_name", "user__last_name", "user__username"
    )


class _Custody:
    """Everything the shifts of [start, end] need, read once (a fixed number of queries) as
    plain values, not model instances: this runs over every shift and slip of a long period.
    Keys are (table_id, gaming_date) unless said otherwise."""

    def __init__(self, site_ids, start: date, end: date):
        # Rows carry the gaming day's id, resolved here: cheaper than a date per row.
        period = {"site_ids": site_ids, "start": start, "end": end}
        days = {pk: (site_id, day) for pk, site_id, day in shaped_rows(gaming_days_query, **period)}
        self.shifts = defaultdict(list)  # every shift of the table-day, by start: each one's neighbours
        rows = shaped_rows(_shifts_query, **period)
        rows.sort(key=lambda row: (row[1], row[4], row[0]))
        for pk, table_id, dealer_id, day_id, started_at, ended_at in rows:
            site_id, day = days[day_id]
            shift = _Shift(pk, table_id, site_id, dealer_id, day, started_at, ended_at)
            self.shifts[(table_id, day)].append(shift)
        # Table-day totals keyed by (site_id, table_id, gaming_date), for `site_holds_of_totals`.
        self.drop_totals, self.slip_totals, self.tray_totals = defaultdict(int), {}, {}
        self.drop_by_shift, self.drop_unassigned = defaultdict(int), defaultdict(int)
        # Boxes whose count is not signed yet: tied to a shift (by shift id), or the day's (by table-day).
        self.unsigned_by_shift, self.unsigned_unassigned = set(), set()
        drops = shaped_rows(_drops_query, **period)
        for site_id, table_id, day, shift_id, cents in drops:
            if cents is None:
                if shift_id is not None:
                    self.unsigned_by_shift.add(shift_id)
                else:
                    self.unsigned_unassigned.add((table_id, day))
                continue
            self.drop_totals[(site_id, table_id, day)] += cents
            if shift_id is not None:
                self.drop_by_shift[shift_id] += cents
            else:
                self.drop_unassigned[(table_id, day)] += cents
        self.day_trays, self.change_trays = {}, {}
        trays = shaped_rows(_trays_query, **period)
        change, opener_kind = TableInventory.Kind.CHANGE, TableInventory.Kind.OPENER
        for table_id, day_id, kind, shift_id, cents in trays:
            if kind == change:
                if shift_id is not None:
                    self.change_trays[shift_id] = cents
                continue
            site_id, day = days[day_id]
            self.day_trays[(table_id, day, kind)] = cents
            opener, closer = self.tray_totals.get((site_id, table_id, day), (None, None))
            if kind == opener_kind:
                opener = cents
            else:
                closer = cents
            self.tray_totals[(site_id, table_id, day)] = (opener, closer)
        self.slips = defaultdict(list)
        rows = shaped_rows(_slips_query, **period)
        fill = SlipKind.FILL
        for table_id, day_id, kind, at, cents in rows:
            site_id, day = days[day_id]
            self.slips[(table_id, day)].append((kind == fill, at, cents))
            fills, credits = self.slip_totals.get((site_id, table_id, day), (0, 0))
            if kind == fill:
                fills += cents
            else:
                credits += cents
            self.slip_totals[(site_id, table_id, day)] = (fills, credits)

    def site_holds(self, game: str) -> dict[int, tuple[Custody, figures.HoldSpread]]:
        """`_site_holds` of the same rows' table-days, from their totals (`site_holds_of_totals`):
        the same sums and spreads without a TableDay and a Custody each. The tables are the ones
        `figures` read with its shifts' (call it first)."""
        return site_holds_of_totals(self.drop_totals, self.slip_totals, self.tray_totals, self.tables).get(game, {})

    def figures(self, dealer_ids=None) -> list[ShiftFigures]:
        wanted = None if dealer_ids is None else set(dealer_ids)
        shifts = [s for day in self.shifts.values() for s in day if wanted is None or s.dealer_id in wanted]
        # The tables of the shifts and of the table-days with a drop (`site_holds`), read once.
        table_ids = sorted({s.table_id for s in shifts} | {key[1] for key in self.drop_totals})
        employee_ids = sorted({s.dealer_id for s in shifts})
        self.tables = tables = {
            pk: (number, game) for pk, number, game in shaped_rows(table_numbers_query, ids=table_ids)
        }
        names = {
            pk: f"{first} {last}".strip() or username
            for pk, first, last, username in shaped_rows(dealers_query, ids=employee_ids)
        }
        result = []
        for day_shifts in self.shifts.values():
            for position, shift in enumerate(day_shifts):
                if wanted is None or shift.dealer_id in wanted:
                    following = day_shifts[position + 1] if position + 1 < len(day_shifts) else None
                    result.append(self._one(shift, position, len(day_shifts), following, tables, names))
        return result

    def _one(self, shift: _Shift, position: int, count: int, following, tables, names) -> ShiftFigures:
        pk, table_id, site_id, dealer_id, day, started_at, ended_at = shift  # a tuple's items: quicker than its names
        key = (table_id, day)
        end_at = ended_at or (following.started_at if following else None)
        drop = self.drop_by_shift.get(pk)
        reason = ""
        if drop is None and count == 1 and key in self.drop_unassigned:
            drop = self.drop_unassigned[key]
        if drop is None:
            # The shift's own box (tied to it, or the day's box when it is the day's only shift)
            # exists but its count is not signed: wait for the count. No box of its own at all
            # (several shifts, boxes counted but none tied to this one): not exchanged.
            own_box_unsigned = pk in self.unsigned_by_shift or (count == 1 and key in self.unsigned_unassigned)
            reason = NO_COUNT if own_box_unsigned or count == 1 else NO_BOX_EXCHANGE
        if position == 0:
            opener = self.day_trays.get((table_id, day, _OPENER))
        else:
            opener = self.change_trays.get(pk)
        if following:
            closer = self.change_trays.get(following.pk)
        else:
            closer = self.day_trays.get((table_id, day, _CLOSER))
        if not reason and (opener is None or closer is None):
            reason = NO_TRAY_COUNT
        custody = None
        if not reason:
            fills = credits = 0
            for is_fill, at, cents in self.slips.get(key, ()):
                if at >= started_at and (end_at is None or at < end_at):
                    if is_fill:
                        fills += cents
                    else:
                        credits += cents
            custody = Custody(drop, fills, credits, opener, closer)
        number, game = tables[table_id]
        return ShiftFigures(
            pk, site_id, dealer_id, names[dealer_id], number, game, day, started_at, ended_at, custody, reason, table_id
        )


def shift_figures(site_ids, start: date, end: date, *, dealer_ids=None) -> list[ShiftFigures]:
    """Figures of each dealer shift with gaming dates in [start, end] (a fixed number of
    queries), ordered by table and start."""
    return _Custody(list(site_ids), start, end).figures(dealer_ids)


class HoldBesideSite:
    """A dealer's hold (`total`) and the site's over the same period (`site_total`)."""

    total: Custody
    site_total: Custody

    @property
    def hold_ratio(self) -> Decimal | None:
        return self.total.hold_ratio

    @property
    def site_hold_ratio(self) -> Decimal | None:
        return self.site_total.hold_ratio


@dataclass(frozen=True)
class DealerSummary(HoldBesideSite):
    """A dealer's shifts at one site, beside that site's hold: the dealer's own site, never a
    blend of every site the reader can see (a dealer at two sites has a summary at each)."""

    dealer_id: int
    dealer_name: str
    shifts: tuple[ShiftFigures, ...]
    total: Custody
    separable_shifts: int
    site_total: Custody
    z_score: Decimal | None
    site_id: int = 0
    game: str = "21"


def _site_holds(table_days, game: str) -> dict[int, tuple[Custody, figures.HoldSpread]]:
    """{site_id: (the site's complete table-days of `game` summed, the spread of their holds)}."""
    by_site = defaultdict(list)
    for d in table_days:
        if d.complete and d.game == game:
            by_site[d.site_id].append(d.custody)
    return {
        site_id: (
            figures.total(days),
            figures.hold_spread([c.hold_ratio for c in days if c.gross_proceeds_cents != 0]),
        )
        for site_id, days in by_site.items()
    }


def site_holds_of_totals(drops: dict, slips: dict, trays: dict, tables: dict) -> dict[str, dict]:
    """`_site_holds` of every game from the table-day totals `assemble_table_days` takes (keyed by
    (site_id, table_id, gaming_date); `tables`: {table id: (number, game)}), without the table-days:
    {game: {site_id: (complete table-days summed, the spread of their holds)}}. The holds in the
    table-days' order (site, day, table number), so their sums round as `_site_holds`'s."""
    complete = []
    for key in drops:
        opener, closer = trays.get(key, (None, None))
        if opener is not None and closer is not None:
            complete.append((key[0], key[2], tables[key[1]][0], key))
    complete.sort(key=lambda item: item[:3])
    # By hand rather than through a Custody a table-day: the same sums and ratios (Custody.agp_cents,
    # percent_of_hold), a quarter's table-days in a fraction of the time.
    by_game: dict[str, dict[int, list]] = defaultdict(lambda: defaultdict(lambda: [0, 0, 0, 0, 0, []]))
    for site_id, _day, _number, key in complete:
        opener, closer = trays[key]
        fills, credits = slips.get(key, (0, 0))
        drop = drops[key]
        sums = by_game[tables[key[1]][1]][site_id]
        sums[0] += drop
        sums[1] += fills
        sums[2] += credits
        sums[3] += opener
        sums[4] += closer
        if drop != 0:
            sums[5].append(Decimal(drop - (fills - credits + opener - closer)) / Decimal(drop))
    return {
        game: {site_id: (Custody(*sums[:5]), figures.hold_spread(sums[5])) for site_id, sums in by_site.items()}
        for game, by_site in by_game.items()
    }


def _beside_site(holds: dict, site_id: int, total: Custody) -> tuple[Custody, Decimal | None]:
    """The site's total and a dealer's z-score against it."""
    site_total, spread = holds.get(site_id, (figures.ZERO, figures.hold_spread([])))
    z = figures.hold_z_score(
        dealer_agp_cents=total.agp_cents,
        dealer_gp_cents=total.gross_proceeds_cents,
        site_agp_cents=site_total.agp_cents,
        site_gp_cents=site_total.gross_proceeds_cents,
        spread=spread,
    )
    return site_total, z


def dealer_summaries(site_ids, start: date, end: date, *, dealer_ids=None, game: str = "21") -> list[DealerSummary]:
    """Each dealer's separable shifts of `game` (twenty-one, or paddlewheel for wheel operators,
    ND 99-01.3-08-04(8)) summed per site, beside that site's hold over the same period and the
    z-score against it. Ordered by dealer name, then site."""
    custody = _Custody(list(site_ids), start, end)
    shifts = custody.figures(dealer_ids)
    return _summaries(shifts, custody.site_holds(game), game)


def summarize_dealers(shifts, table_days, game: str = "21") -> list[DealerSummary]:
    """`dealer_summaries` from the shifts' figures and the same period's table-days (from the
    closed days' snapshots by accounting.day_figures)."""
    return _summaries(shifts, _site_holds(table_days, game), game)


def _summaries(shifts, holds: dict, game: str) -> list[DealerSummary]:
    """Each dealer's shifts of `game` summed per site beside `holds` (`_site_holds`' of the game)."""
    grouped = defaultdict(list)
    for shift in shifts:
        if shift.game == game:
            grouped[(shift.dealer_id, shift.dealer_name, shift.site_id)].append(shift)
    result = []
    for (dealer_id, name, site_id), shifts in sorted(grouped.items(), key=lambda item: (item[0][1], item[0][2])):
        total = figures.total(s.custody for s in shifts if s.custody is not None)
        site_total, z = _beside_site(holds, site_id, total)
        separable = sum(1 for s in shifts if s.custody is not None)
        result.append(DealerSummary(dealer_id, name, tuple(shifts), total, separable, site_total, z, site_id, game))
    return result


@dataclass(frozen=True)
class DealerLine(HoldBesideSite):
    """A dealer's line of the percent-of-hold summary: the figures it prints. The shifts behind
    them are the dealer shift report's (SFN 18862), so the data (and its digest) is the summary's,
    not every shift of the period again."""

    dealer_id: int
    dealer_name: str
    shifts: int
    separable_shifts: int
    total: Custody
    site_total: Custody
    z_score: Decimal | None


@dataclass(frozen=True)
class DealerTotals(DealerLine):
    """A dealer's summary at a site as `DealerSummary`, with the number of its shifts instead of
    the shifts themselves: its printed line, with the site and the game it sums."""

    site_id: int
    game: str


class GameTotals(NamedTuple):
    dealers: list[DealerTotals]  # by name, then site
    site_totals: dict[int, Custody]  # {site_id: its complete table-days of the game summed}


def totals_of_tallies(tallies: dict, names: dict, holds: dict, game: str) -> GameTotals:
    """`summarize_dealers` of `game` from each dealer's tally: {(dealer_id, site_id, game): [shifts,
    separable shifts, drop, fills, credits, opener, closer]} (separable shifts' sums), `names`
    {dealer id: name} and `holds` (`site_holds_of_totals`' of the game). Ordered by name, then site."""
    found = [(names[dealer_id], site_id, dealer_id, tally) for (dealer_id, site_id, g), tally in tallies.items()
             if g == game]  # fmt: skip
    found.sort(key=lambda item: item[:2])
    result = []
    for name, site_id, dealer_id, (count, separable, *sums) in found:
        total = Custody(*sums) if separable else figures.ZERO
        site_total, z = _beside_site(holds, site_id, total)
        result.append(DealerTotals(dealer_id, name, count, separable, total, site_total, z, site_id, game))
    return GameTotals(result, {site_id: site_total for site_id, (site_total, _) in holds.items()})
