"""Per-dealer percent-of-hold: each dealer shift's figures (SFN 18862 model) and a dealer's
summary over a period such as 12 continuous weeks (SFN 18863), beside the site's hold.

A shift has figures of its own only when its drop and its tray can be separated: the drop
box was exchanged at the dealer change (or the dealer had the table the whole day) and the
tray was counted at each change. Otherwise the shift says why, instead of guessing."""

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from operator import itemgetter
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
_CHANGE, _FILL = TableInventory.Kind.CHANGE.value, SlipKind.FILL.value


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
    The rows are kept as read, keyed by (table_id, gaming day id) where they carry the gaming
    day's id (resolved once a table-day, not once a row), by (table_id, gaming_date) where they
    carry its date (the drops)."""

    def __init__(self, site_ids, start: date, end: date):
        period = {"site_ids": site_ids, "start": start, "end": end}
        self.days = {pk: (site_id, day) for pk, site_id, day in shaped_rows(gaming_days_query, **period)}
        self._read_shifts(period)
        self._read_drops(period)
        self._read_trays(period)
        self._read_slips(period)

    def _read_shifts(self, period: dict) -> None:
        # Rows (pk, table_id, dealer_id, gaming_day_id, started_at, ended_at), each table-day's
        # by start: each shift's neighbours.
        self.shifts = defaultdict(list)
        rows = shaped_rows(_shifts_query, **period)
        rows.sort(key=itemgetter(1, 4, 0))
        for row in rows:
            self.shifts[(row[1], row[3])].append(row)

    def _read_drops(self, period: dict) -> None:
        # Table-day totals keyed by (site_id, table_id, gaming_date), for `site_holds_of_totals`.
        self.drop_totals = drop_totals = defaultdict(int)
        self.drop_by_shift, self.drop_unassigned = defaultdict(int), defaultdict(int)
        # Boxes whose count is not signed yet: tied to a shift (by shift id), or the day's (by table-day).
        self.unsigned_by_shift, self.unsigned_unassigned = set(), set()
        for site_id, table_id, day, shift_id, cents in shaped_rows(_drops_query, **period):
            if cents is None:
                if shift_id is not None:
                    self.unsigned_by_shift.add(shift_id)
                else:
                    self.unsigned_unassigned.add((table_id, day))
                continue
            drop_totals[(site_id, table_id, day)] += cents
            if shift_id is not None:
                self.drop_by_shift[shift_id] += cents
            else:
                self.drop_unassigned[(table_id, day)] += cents

    def _read_trays(self, period: dict) -> None:
        # The day's opener and closer by (table_id, gaming day id, kind); a change's by shift id.
        self.day_trays, self.change_trays = day_trays, change_trays = {}, {}
        for table_id, day_id, kind, shift_id, cents in shaped_rows(_trays_query, **period):
            if kind != _CHANGE:
                day_trays[(table_id, day_id, kind)] = cents
            elif shift_id is not None:
                change_trays[shift_id] = cents

    def _read_slips(self, period: dict) -> None:
        # Rows (table_id, gaming_day_id, kind, prepared_at, total_cents) by table-day.
        self.slips = slips = defaultdict(list)
        for row in shaped_rows(_slips_query, **period):
            slips[(row[0], row[1])].append(row)

    def _table_day_totals(self) -> tuple[dict, dict]:
        """(fills, credits) and (opener or None, closer or None) of each table-day, keyed as
        `drop_totals` (site_id, table_id, gaming_date)."""
        slip_totals, tray_totals = {}, {}
        for (table_id, day_id), rows in self.slips.items():
            fills = credits = 0
            for _, _, kind, _, cents in rows:
                if kind == _FILL:
                    fills += cents
                else:
                    credits += cents
            site_id, day = self.days[day_id]
            slip_totals[(site_id, table_id, day)] = (fills, credits)
        for (table_id, day_id, kind), cents in self.day_trays.items():
            site_id, day = self.days[day_id]
            opener, closer = tray_totals.get((site_id, table_id, day), (None, None))
            if kind == _OPENER:
                opener = cents
            else:
                closer = cents
            tray_totals[(site_id, table_id, day)] = (opener, closer)
        return slip_totals, tray_totals

    def site_holds(self, game: str) -> dict[int, tuple[Custody, figures.HoldSpread]]:
        """`_site_holds` of the same rows' table-days, from their totals (`site_holds_of_totals`):
        the same sums and spreads without a TableDay and a Custody each. The tables are the ones
        `figures` read with its shifts' (call it first)."""
        slip_totals, tray_totals = self._table_day_totals()
        return site_holds_of_totals(self.drop_totals, slip_totals, tray_totals, self.tables).get(game, {})

    def figures(self, dealer_ids=None) -> list[ShiftFigures]:
        wanted = None if dealer_ids is None else set(dealer_ids)
        tables, names = self._tables_and_names(wanted)
        result = []
        for (table_id, day_id), day_shifts in self.shifts.items():
            if wanted is None or any(row[2] in wanted for row in day_shifts):
                result += self._table_day(table_id, day_id, day_shifts, wanted, tables, names)
        return result

    def tallies(self, dealer_ids=None, *, game: str | None = None, per_table_day: bool = False) -> tuple[dict, dict]:
        """The shifts (of `game`, every game when None) summed per dealer without a ShiftFigures
        or Custody each: ({group: {dealer id: [shifts, separable shifts, drop, fills, credits,
        opener, closer]}} (the separable shifts' cents), a group (site_id, game), or (site_id,
        gaming_date, table_id) `per_table_day`; {dealer id: name})."""
        wanted = None if dealer_ids is None else set(dealer_ids)
        tables, names = self._tables_and_names(wanted)
        groups: dict[tuple, dict[int, list[int]]] = {}
        for (table_id, day_id), day_shifts in self.shifts.items():
            table_game = tables[table_id][1]
            if (game is None or table_game == game) and (wanted is None or any(r[2] in wanted for r in day_shifts)):
                site_id, day = self.days[day_id]
                group = (site_id, day, table_id) if per_table_day else (site_id, table_game)
                into = groups.get(group) or groups.setdefault(group, {})
                self._table_day(table_id, day_id, day_shifts, wanted, tables, names, into)
        return groups, names

    def _tables_and_names(self, wanted) -> tuple[dict, dict]:
        """{table id: (number, game)} of the shifts' tables and of the table-days with a drop
        (`site_holds`), read once; {dealer id: name} of the shifts' dealers."""
        rows = [row for day in self.shifts.values() for row in day if wanted is None or row[2] in wanted]
        table_ids = sorted({row[1] for row in rows} | {key[1] for key in self.drop_totals})
        self.tables = {pk: (number, game) for pk, number, game in shaped_rows(table_numbers_query, ids=table_ids)}
        names = {
            pk: f"{first} {last}".strip() or username
            for pk, first, last, username in shaped_rows(dealers_query, ids=sorted({row[2] for row in rows}))
        }
        return self.tables, names

    def _table_day(
        self, table_id: int, day_id: int, day_shifts: list, wanted, tables, names, tallies: dict | None = None
    ) -> list[ShiftFigures]:
        """The figures of a table-day's shifts (those of `wanted` dealers, every one when None).
        A shift's tray opens with the day's opener (the first) or the count at its change, and
        closes with the count at the next change (the next shift's opener) or the day's closer.
        Given `tallies` ({dealer id: tally}, `tallies`'), each shift is summed into its dealer's
        tally instead: no objects.

        One loop without a call a shift (a quarter has thousands): the slips summed in place, and
        each ShiftFigures and Custody made as the dataclass's __init__ leaves it (its fields'
        values in its __dict__) without that __init__, which sets each field through
        object.__setattr__ because the class is frozen (tests/accounting/test_dealer_hold.py holds
        them equal to the dataclasses' own)."""
        site_id, day = self.days[day_id]
        number, game = tables[table_id]
        key, last = (table_id, day), len(day_shifts) - 1
        change_trays, drop_by_shift, new = self.change_trays, self.drop_by_shift, object.__new__
        opener = self.day_trays.get((table_id, day_id, _OPENER))
        slips = self.slips.get((table_id, day_id), ())
        result = []
        for position, (pk, _, dealer_id, _, started_at, ended_at) in enumerate(day_shifts):
            if position < last:
                following = day_shifts[position + 1]
                closer, end_at = change_trays.get(following[0]), ended_at or following[4]
            else:
                closer, end_at = self.day_trays.get((table_id, day_id, _CLOSER)), ended_at
            if wanted is None or dealer_id in wanted:
                drop, reason, custody = drop_by_shift.get(pk), "", None
                if drop is None:
                    drop, reason = self._day_box(pk, key, last + 1)
                if not reason and (opener is None or closer is None):
                    reason = NO_TRAY_COUNT
                elif not reason:
                    fills = credits = 0  # the slips prepared in [started_at, end_at) (no end: to the day's end)
                    for _, _, kind, at, cents in slips:
                        if at >= started_at and (end_at is None or at < end_at):
                            if kind == _FILL:
                                fills += cents
                            else:
                                credits += cents
                if tallies is not None:  # inline: it runs for every shift of the period
                    tally = tallies.get(dealer_id)
                    if tally is None:
                        tally = tallies[dealer_id] = [0, 0, 0, 0, 0, 0, 0]
                    tally[0] += 1
                    if not reason:
                        tally[1] += 1
                        tally[2] += drop
                        tally[3] += fills
                        tally[4] += credits
                        tally[5] += opener
                        tally[6] += closer
                else:
                    if not reason:
                        custody = new(Custody)
                        custody.__dict__.update(
                            {"drop_cents": drop, "fills_cents": fills, "credits_cents": credits,
                             "opener_cents": opener, "closer_cents": closer, "closers_missing": 0}
                        )  # fmt: skip
                    shift = new(ShiftFigures)
                    shift.__dict__.update(
                        {"shift_id": pk, "site_id": site_id, "dealer_id": dealer_id, "dealer_name": names[dealer_id],
                         "table_number": number, "game": game, "gaming_date": day, "started_at": started_at,
                         "ended_at": ended_at, "custody": custody, "not_separable_because": reason,
                         "table_id": table_id}
                    )  # fmt: skip
                    result.append(shift)
            opener = closer
        return result

    def _day_box(self, pk: int, key: tuple, count: int) -> tuple[int | None, str]:
        """The drop of a shift without a signed box tied to it, or None and why it has none: the
        day's box when it is the day's only shift."""
        drop = self.drop_unassigned.get(key) if count == 1 else None
        if drop is not None:
            return drop, ""
        # The shift's own box exists but its count is not signed: wait for the count. No box of
        # its own at all (several shifts, boxes counted but none tied to this one): not exchanged.
        own_box_unsigned = pk in self.unsigned_by_shift or (count == 1 and key in self.unsigned_unassigned)
        return None, NO_COUNT if own_box_unsigned or count == 1 else NO_BOX_EXCHANGE


def shift_figures(site_ids, start: date, end: date, *, dealer_ids=None) -> list[ShiftFigures]:
    """Figures of each dealer shift with gaming dates in [start, end] (a fixed number of
    queries), ordered by table and start."""
    return _Custody(list(site_ids), start, end).figures(dealer_ids)


def shift_prizes(site_ids, start: date, end: date) -> dict[int, int | None]:
    """{dealer shift id: what its tray paid out (opener + fills - credits - closer, the slips of
    the shift's own span)} of each shift with gaming dates in [start, end], or None where the
    tray was not counted at its changes: the chips a shift's own drop box is measured against,
    read before the boxes are counted (a drop of zero stands in for each shift's box)."""
    custody = _Custody(list(site_ids), start, end)
    custody.drop_by_shift = {row[0]: 0 for rows in custody.shifts.values() for row in rows}
    return {s.shift_id: s.custody.prizes_cents if s.custody else None for s in custody.figures()}


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


def dealer_summaries(site_ids, start: date, end: date, *, dealer_ids=None, game: str = "21") -> list["DealerTotals"]:
    """Each dealer's separable shifts of `game` (twenty-one, or paddlewheel for wheel operators,
    ND 99-01.3-08-04(8)) summed per site, beside that site's hold over the same period and the
    z-score against it. Ordered by dealer name, then site. The totals only (`DealerTotals`: the
    number of shifts, not each shift's figures, which `shift_figures` makes): summed as read,
    without a ShiftFigures and a Custody a shift (issue 37: 1,656 of each for 12 dealers)."""
    custody = _Custody(list(site_ids), start, end)
    groups, names = custody.tallies(dealer_ids, game=game)
    tallies = {
        (dealer_id, site_id, g): tally for (site_id, g), found in groups.items() for dealer_id, tally in found.items()
    }
    return totals_of_tallies(tallies, names, custody.site_holds(game), game).dealers


def dealer_sums(site_ids, start: date, end: date) -> tuple[dict, dict]:
    """Each day's shifts with gaming dates in [start, end] summed per dealer and table, as
    accounting.day_figures snapshots a closed day's (`dealer_sums`): ({(site_id, gaming_date):
    [[dealer id, table id, shifts, separable shifts, drop, fills, credits, opener, closer], ...]
    by dealer and table}, {dealer id: name}), without a ShiftFigures and Custody a shift."""
    groups, names = _Custody(list(site_ids), start, end).tallies(per_table_day=True)
    days = defaultdict(list)
    for (site_id, day, table_id), found in groups.items():
        days[(site_id, day)] += ([dealer_id, table_id, *tally] for dealer_id, tally in found.items())
    return {key: sorted(rows) for key, rows in days.items()}, names


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
        separable = [s.custody for s in shifts if s.custody is not None]
        total = figures.total(separable)
        site_total, z = _beside_site(holds, site_id, total)
        result.append(
            DealerSummary(dealer_id, name, tuple(shifts), total, len(separable), site_total, z, site_id, game)
        )
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
