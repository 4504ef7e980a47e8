"""Each table-day's custody (drop, fills, credits, opener, closer), gathered by the database:
the layer under the daily and quarterly summaries (accounting.summaries), the dealers'
percent-of-hold (accounting.dealer_hold) and the closed days' snapshots (accounting.day_figures).

Every function here issues a fixed number of queries whatever the number of sites, tables,
days and slips."""

from dataclasses import dataclass
from datetime import date

from django.db.models import Exists, Max, OuterRef, Q, Sum
from django.db.models.functions import TruncQuarter

from cardroom.models import Table
from core.rows import shaped_rows
from floor.models import GamingDay, Slip, SlipKind, SlipStep, TableInventory

from .figures import Custody


@dataclass(frozen=True)
class TableDay:
    site_id: int
    table_id: int
    table_number: int
    game: str
    gaming_date: date
    custody: Custody
    counted: bool  # the drop comes from a signed count
    opener_recorded: bool
    closer_recorded: bool

    @property
    def complete(self) -> bool:
        return self.counted and self.opener_recorded and self.closer_recorded


def signed_drops(site_ids, start: date, end: date):
    """The standing signed count of each drop of [start, end] (counts.queries.current_agreements)."""
    from counts.queries import current_agreements

    return current_agreements().filter(drop__site_id__in=site_ids, drop__gaming_date__range=(start, end)).order_by()


def live_slips(site_ids, start: date, end: date):
    """Fill and credit slips of gaming days in [start, end], voided ones left out. Found through
    the sites' gaming days (a slip's site is its gaming day's: floor migration 0008), so the
    planner joins only those days, not every gaming day of every site in the dates."""
    voided = SlipStep.objects.filter(slip=OuterRef("pk"), kind=SlipStep.Kind.VOID)
    return Slip.objects.filter(gaming_day__site_id__in=site_ids, gaming_day__gaming_date__range=(start, end)).exclude(
        Exists(voided)
    )


def tray_counts(site_ids, start: date, end: date):
    """Tray counts (openers, closers and counts at dealer changes) of gaming days in [start, end]."""
    return TableInventory.objects.filter(gaming_day__site_id__in=site_ids, gaming_day__gaming_date__range=(start, end))


def _drop_sums(drops, *keys):
    return drops.values_list(*keys).annotate(cents=Sum("total_cents")).order_by()


def _slip_sums(slips, *keys):
    return (
        slips.values_list(*keys)
        .annotate(
            fills=Sum("total_cents", filter=Q(kind=SlipKind.FILL), default=0),
            credits=Sum("total_cents", filter=Q(kind=SlipKind.CREDIT), default=0),
        )
        .order_by()
    )


def _tray_sums(trays, *keys, aggregate=Max):
    """Openers and closers by `keys`: `Max` picks a table-day's own (None when missing); over
    more table-days `Sum` adds them, one of each per table-day (one_opener_and_closer_per_table_day)."""
    kinds = TableInventory.Kind
    return (
        trays.filter(kind__in=[kinds.OPENER, kinds.CLOSER])
        .values_list(*keys)
        .annotate(
            opener=aggregate("total_cents", filter=Q(kind=kinds.OPENER)),
            closer=aggregate("total_cents", filter=Q(kind=kinds.CLOSER)),
        )
        .order_by()
    )


def drop_totals_query(*, site_ids, start, end):
    return _drop_sums(signed_drops(site_ids, start, end), "drop__site_id", "drop__table_id", "drop__gaming_date")


def slip_totals_query(*, site_ids, start, end):
    return _slip_sums(live_slips(site_ids, start, end), "site_id", "table_id", "gaming_day__gaming_date")


def tray_totals_query(*, site_ids, start, end):
    """Each table-day's opener and closer, and its gaming day's close (None while its play goes on)."""
    trays = tray_counts(site_ids, start, end)
    return _tray_sums(trays, "gaming_day__site_id", "table_id", "gaming_day__gaming_date", "gaming_day__close")


# The window and quarter sums (accounting.summaries.game_totals) leave out a gaming day still in
# play, opened and not closed, as the quarter summary does (`summaries.DailySummary.in_play`): a
# table in play has no closer yet, its figures that need one not known (`Custody.closer_known`).


def _ended_drops(site_ids, start, end):
    in_play = GamingDay.objects.filter(
        site_id=OuterRef("drop__site_id"), gaming_date=OuterRef("drop__gaming_date"), close__isnull=True
    )
    return signed_drops(site_ids, start, end).exclude(Exists(in_play))


def _ended_slips(site_ids, start, end):
    return live_slips(site_ids, start, end).filter(gaming_day__close__isnull=False)


def _ended_trays(site_ids, start, end):
    return tray_counts(site_ids, start, end).filter(gaming_day__close__isnull=False)


def drop_window_totals_query(*, site_ids, start, end):
    return _drop_sums(_ended_drops(site_ids, start, end), "drop__site_id", "drop__table_id")


def slip_window_totals_query(*, site_ids, start, end):
    return _slip_sums(_ended_slips(site_ids, start, end), "site_id", "table_id")


def tray_window_totals_query(*, site_ids, start, end):
    return _tray_sums(_ended_trays(site_ids, start, end), "gaming_day__site_id", "table_id", aggregate=Sum)


class QuarterStart(TruncQuarter):
    """The first day of a date's quarter. On SQLite in SQL's own date functions: Django's
    `TruncQuarter` calls a Python function for every row there (a scan of eight quarters
    called it for each of the 23,000 rows of one site's slips, drops and trays)."""

    def as_sqlite(self, compiler, connection, **extra_context):
        sql, params = compiler.compile(self.lhs)
        months_back = f"((CAST(strftime('%%m', {sql}) AS INTEGER) - 1) %% 3)"
        return f"date({sql}, 'start of month', '-' || {months_back} || ' months')", [*params, *params]

    def as_postgresql(self, compiler, connection, **extra_context):
        """On PostgreSQL truncated as a timestamp without time zone: DATE_TRUNC of a date casts it
        to a timestamp with time zone, converted at every row; the quarter's first day is the same."""
        sql, params = compiler.compile(self.lhs)
        return f"DATE_TRUNC('quarter', ({sql})::timestamp)::date", params


def drop_quarter_totals_query(*, site_ids, start, end):
    drops = _ended_drops(site_ids, start, end)
    return _drop_sums(drops, "drop__site_id", "drop__table_id", QuarterStart("drop__gaming_date"))


def slip_quarter_totals_query(*, site_ids, start, end):
    slips = _ended_slips(site_ids, start, end)
    return _slip_sums(slips, "site_id", "table_id", QuarterStart("gaming_day__gaming_date"))


def tray_quarter_totals_query(*, site_ids, start, end):
    trays = _ended_trays(site_ids, start, end)
    return _tray_sums(trays, "gaming_day__site_id", "table_id", QuarterStart("gaming_day__gaming_date"), aggregate=Sum)


def drops(site_ids, start, end) -> dict:
    """{(site_id, table_id, gaming_date): drop cents}, summed by the database."""
    rows = shaped_rows(drop_totals_query, site_ids=site_ids, start=start, end=end)
    return {(site_id, table_id, day): cents for site_id, table_id, day, cents in rows}


def slips(site_ids, start, end) -> dict:
    """{(site_id, table_id, gaming_date): (fills cents, credits cents)}."""
    rows = shaped_rows(slip_totals_query, site_ids=site_ids, start=start, end=end)
    return {(site_id, table_id, day): (fills, credits) for site_id, table_id, day, fills, credits in rows}


def trays(site_ids, start, end) -> tuple[dict, frozenset]:
    """{(site_id, table_id, gaming_date): (opener cents or None, closer cents or None)}, and the
    (site_id, gaming_date) of the gaming days among them still in play, opened and not closed
    (`summaries.DailySummary.in_play`): from one query."""
    rows = shaped_rows(tray_totals_query, site_ids=site_ids, start=start, end=end)
    found = {(site_id, table_id, day): (opener, closer) for site_id, table_id, day, _, opener, closer in rows}
    return found, frozenset((site_id, day) for site_id, _, day, close, _, _ in rows if close is None)


def table_days(site_ids, start: date, end: date) -> list[TableDay]:
    """Each table-day with any activity (a drop, a slip or a tray count) in [start, end]."""
    site_ids = list(site_ids)
    return assemble_table_days(drops(site_ids, start, end), slips(site_ids, start, end), *trays(site_ids, start, end))


def table_numbers_query(*, ids):
    return Table.objects.filter(pk__in=ids).values_list("pk", "number", "game")


def assemble_table_days(drops: dict, slips: dict, trays: dict, in_play: frozenset) -> list[TableDay]:
    """Table-days from the totals keyed by (site_id, table_id, gaming_date): drop cents,
    (fills, credits) and (opener or None, closer or None), ordered by site, day and table;
    `in_play`: the (site_id, gaming_date) whose gaming day is opened and not closed (`trays`)."""
    keys = set(drops) | set(slips) | set(trays)
    tables = {
        pk: (number, game) for pk, number, game in shaped_rows(table_numbers_query, ids=sorted({k[1] for k in keys}))
    }
    result = []
    for key in sorted(keys, key=lambda k: (k[0], k[2], tables[k[1]][0])):
        site_id, table_id, day = key
        number, game = tables[table_id]
        fills, credits = slips.get(key, (0, 0))
        opener, closer = trays.get(key, (None, None))
        # A table opened with no closer yet on a day in play: its closer is not known, never $0.00.
        # Once the day's play has ended a closer never recorded counts as 0, as the day's figures
        # always stood: a gaming day closes with every closer (House control: floor.services.
        # close_gaming_day refuses a table left open), so only records written around it lack one.
        missing = int(opener is not None and closer is None and (site_id, day) in in_play)
        custody = Custody(drops.get(key, 0), fills, credits, opener or 0, closer or 0, missing)
        result.append(
            TableDay(
                site_id, table_id, number, game, day, custody, key in drops, opener is not None, closer is not None
            )
        )
    return result
