"""Inputs of the rules, gathered from the other apps for many sites at once.

Each provider issues a fixed number of queries for all the sites of a run, whatever their
number (measured by `manage.py bench_compliance`)."""

from collections import defaultdict
from datetime import date, timedelta

from django.core.exceptions import FieldDoesNotExist
from django.utils import timezone
from django.utils.text import capfirst

from accounting.published import live_shift_figures, quarter_game_totals
from approvals import queries as approvals_queries
from approvals.checks import check_table
from approvals.queries import site_today
from cage.queries import chip_floats, deposit_limit, deposits_maybe_late
from cardroom.chip_colours import colour_spec_problems, colours_of
from cardroom.chip_rules import law_at
from cardroom.chips import described
from cardroom.models import ChipDenomination, Site, Table
from core.moments import site_zone
from core.money import format_money
from core.periods import Quarter
from core.plurals import plural
from counts import queries as counts_queries
from counts.models import BoxExchange
from floor.calculations import gaming_day_bounds
from floor.queries import (
    SLIP_EXEMPT,
    SLIP_RECEIVED,
    SLIP_VERIFIED,
    SLIP_VOIDED,
    card_checks_of_tables_played,
    closed_day_slip_signatures,
    open_day_slip_steps,
    shifts_of_tables,
    tables_dealt,
    twenty_one_play,
)
from floor.rules import house_chips, is_unverified_note
from surveillance import coverage, special_events
from surveillance import queries as surveillance_queries
from surveillance.deadlines import outage_deadline
from surveillance.rules import NOT_OPERATIONAL_WAGER_CAP_CENTS

from . import rules
from .engine import RunContext, day_provider, quarter_provider
from .models import Alert
from .slip_series import series_problems
from .thresholds import ThresholdBook


@day_provider(rule=(rules.SLIP_NUMBERING, rules.SLIP_VERIFIED, rules.SLIP_RECEIVED), day_by_day=True)
def slip_problems(sites: list[Site], start: date, end: date, book: ThresholdBook):
    """ND 99-01.3-08-05: fill and credit slip numbers missing or used out of order (08-05(2)), and
    slips not verified (08-05(5)) or not received (08-05(6)) by the end of their gaming day (when
    the day is closed, or else when the next business day starts). A slip received unverified
    because nobody who could verify was on duty (its receipt says so, floor.rules.unverified_note)
    is not flagged unverified: 08-05(5) asks for verification only when someone is. A voided slip
    needs neither.

    The days closed by now are judged in the database (only the flagged slips come back); the
    few days not closed are judged here, their end depending on the site's time zone."""
    by_id = {s.pk: s for s in sites}
    now = timezone.now()
    found = _closed_day_slip_problems(by_id, start, end, now) + _open_day_slip_problems(by_id, start, end, now)
    # The order of the pass over every slip this replaced: by series, in number order.
    found.sort(key=lambda ex: (ex.site_id, ex.series, ex.number, ex.problem != "unverified"))
    found += _series_problems(by_id, start, end)
    return rules.slip_exceptions(found, at=by_id)


# A slip of a closed day is flagged by the sums of its signatures' bits (floor.queries.SLIP_*): not
# voided, and not verified (nor exempt) or not received.
_FLAGGED = tuple(
    bits for bits in range(16)
    if not bits & SLIP_VOIDED and (not bits & (SLIP_VERIFIED | SLIP_EXEMPT) or not bits & SLIP_RECEIVED)
)  # fmt: skip


def _closed_day_slip_problems(by_id: dict[int, Site], start: date, end: date, now) -> list[rules.SlipException]:
    """Slips of days closed by `now`, whose end is the close: unverified when no verification
    at or before it (unless exempt), unreceived when no receipt at or before it. One query,
    returning the flagged slips only (`floor.queries.closed_day_slip_signatures`)."""
    found = []
    for site_id, kind, number, gaming_date, signatures in closed_day_slip_signatures(
        list(by_id), start, end, now, _FLAGGED
    ):
        if not signatures & (SLIP_VERIFIED | SLIP_EXEMPT):
            found.append(rules.SlipException(site_id, gaming_date, kind, number, "unverified"))
        if not signatures & SLIP_RECEIVED:
            found.append(rules.SlipException(site_id, gaming_date, kind, number, "unreceived"))
    return found


def _open_day_slip_problems(by_id: dict[int, Site], start: date, end: date, now) -> list[rules.SlipException]:
    """Slips of days not closed, whose end is the next business day's start (in the site's time
    zone): judged once that has passed. One query, the slips with their steps' times
    (`floor.queries.open_day_slip_steps`)."""
    rows = open_day_slip_steps(list(by_id), start, end)
    day_ends, found = {}, []  # (site id, gaming date) -> the next business day's start
    for site_id, kind, number, gaming_date, verified_at, received_at, receipt_reason in rows:
        if (site_id, gaming_date) not in day_ends:
            site = by_id[site_id]
            bounds = gaming_day_bounds(gaming_date, site.time_zone, site.business_day_start_hour)
            day_ends[site_id, gaming_date] = bounds[1]
        day_end = day_ends[site_id, gaming_date]
        if day_end > now:
            continue  # the day is still running
        exempt = is_unverified_note(receipt_reason)
        if not exempt and (verified_at is None or verified_at > day_end):
            found.append(rules.SlipException(site_id, gaming_date, kind, number, "unverified"))
        if received_at is None or received_at > day_end:
            found.append(rules.SlipException(site_id, gaming_date, kind, number, "unreceived"))
    return found


def _series_problems(by_id: dict[int, Site], start: date, end: date) -> list[rules.SlipException]:
    """Each site's fill and credit series: numbers missing and numbers used out of order
    (ND 99-01.3-08-05(2)), read from each series' checkpoint (compliance.slip_series)."""
    return series_problems(by_id, start, end)


def _statuses(site_ids, run: RunContext | None = None) -> dict[int, list]:
    """site id -> its surveillance statuses in the order they take force (one query; in a run,
    once for each site until a follow-up writes one: its `engine.FollowUp.writes`)."""
    if run is None:
        return surveillance_queries.statuses_by_site(site_ids)
    found = run.per_site("surveillance_statuses", None, site_ids, surveillance_queries.statuses_by_site, default=[])
    return {site_id: statuses for site_id, statuses in found.items() if statuses}


def _status_lookup(site_ids, statuses: dict[int, list] | None = None, run: RunContext | None = None):
    """site_id -> function(date) -> bool: is surveillance required on that date (one query,
    none when the sites' `statuses` are given or the run has read them)."""
    by_site = _statuses(site_ids, run) if statuses is None else statuses

    def required(site_id: int, day: date) -> bool:
        in_force = [s for s in by_site.get(site_id, ()) if s.since <= day]
        return bool(in_force and in_force[-1].required)

    return required


@day_provider(rule=rules.REVIEW_LOG, day_by_day=True)
def review_log_gaps(sites: list[Site], start: date, end: date, book: ThresholdBook, run: RunContext | None = None):
    """ND 99-01.3-08-04(7), 08-16(1)(d): at a site that requires video surveillance, each table dealt
    on a gaming day needs that day's entry in the daily surveillance review log (its camera recording
    an unobstructed view and a clear picture): every regularly located table, and a special-event
    table past its exemption (an event of 14 or fewer consecutive days, at most two events a
    quarter)."""
    site_ids = [s.pk for s in sites]
    codes = {s.pk: s.jurisdiction for s in sites}
    required = _status_lookup(site_ids, run=run)
    rows = tables_dealt(site_ids, start, end)
    temporary = {table_id for *_, table_id, location in rows if location != Table.Location.REGULAR}
    events = (
        surveillance_queries.site_special_events(site_ids, *surveillance_queries.special_event_window(start, end))
        if temporary
        else {}
    )
    dealt = {
        (site_id, day, number)
        for site_id, day, number, table_id, location in rows
        if location == Table.Location.REGULAR
        or not special_events.exemption(events.get(site_id, []), day, codes[site_id]).exempt
    }
    logged = surveillance_queries.review_logged(site_ids, start, end)
    missing = defaultdict(lambda: defaultdict(list))
    for site_id, day, number in sorted(dealt - logged):
        if required(site_id, day):
            missing[site_id][day].append(number)
    by_id = {s.pk: s for s in sites}
    return [
        f
        for site_id, days in missing.items()
        for f in rules.missing_review_logs(site_id, dict(days), at=by_id[site_id])
    ]


@day_provider(rule=rules.OUTAGE_OPERATING)
def outages_operating(sites: list[Site], start: date, end: date, book: ThresholdBook):
    """ND 99-01.3-08-04(7): a table whose camera or recording unit was not repaired within 48 hours
    of activity on the table or four calendar days, and that was dealt after that deadline with a
    maximum wager above $2 (the table must be closed or its wagers limited to $2 until the repair).

    *Assumed*: a table dealt after the deadline ran at its configured maximum wager."""
    by_id = {s.pk: s for s in sites}
    in_period = surveillance_queries.outages_overlapping(list(by_id), start, end)
    outages = list(in_period.select_related("table", "repair"))
    shifts = defaultdict(list)
    earliest = min((o.began_at for o in outages), default=None)
    if earliest is not None:  # the tables as a subquery, not a list of ids
        shifts.update(shifts_of_tables(in_period.values("table_id"), earliest - timedelta(days=1)))
    now = timezone.now()
    found = []
    for outage in outages:
        site = by_id[outage.table.site_id]
        deadline = outage_deadline(outage.began_at, shifts[outage.table_id], site.time_zone, site).at
        repair = getattr(outage, "repair", None)
        until = repair.repaired_at if repair else now
        dealt_after = any(b < until and (e is None or e > deadline) for b, e in shifts[outage.table_id])
        zone = site_zone(site)  # the finding's days and the deadline it prints are the site's
        record = rules.OutageRecord(
            outage.pk,
            site.pk,
            outage.table.number,
            outage.began_at.astimezone(zone),
            deadline.astimezone(zone),
            repair.repaired_at.astimezone(zone) if repair else None,
            outage.table.max_wager_cents if dealt_after else None,
        )
        finding = rules.outage_past_deadline(record, now=now.astimezone(zone), book=book)
        if finding is not None:
            found.append(finding)
    return found


@day_provider(rule=rules.VIDEO_SAMPLE)
def late_samples(sites: list[Site], start: date, end: date, book: ThresholdBook, run: RunContext | None = None):
    """ND 99-01.3-08-04(11): a sample recorded video not provided to the attorney general within 14
    days of an equipment change at the site (equipment acquired, changed, or a camera or table
    moved)."""
    window = timedelta(days=book.int("sample.due_days"))
    changes = _over_span(
        run, "equipment_changes", [s.pk for s in sites], start, end,
        lambda ids, a, b: list(surveillance_queries.equipment_changes_with_first_sample(ids, a - window, b)),
        window,
    )  # fmt: skip
    today = {s.pk: site_today(s) for s in sites}  # each site judged on its own date
    return [
        f
        for c in changes
        if start - window <= c.changed_on <= end
        and (
            f := rules.late_video_sample(
                c.site_id, c.pk, c.changed_on, c.first_submission, today=today[c.site_id], book=book
            )
        )
    ]


@day_provider(rule=rules.VIDEO_SAMPLE)
def samples_to_resubmit(sites: list[Site], start: date, end: date, book: ThresholdBook, run: RunContext | None = None):
    """ND 99-01.3-08-04(11): a sample recording the attorney general found not satisfactory, and no
    sample sent since: the organization and its vendor must resolve the deficiency and resubmit one.
    Judged as things stand at the range's end, whatever its start (an evaluation entered late is
    found the next night); one alert per rejected sample. Read once for the run's ranges
    (`_over_span`)."""
    by_id = {s.pk: s for s in sites}
    rows = _over_span(
        run, "samples_to_resubmit", list(by_id), start, end,
        lambda ids, a, b: surveillance_queries.samples_to_resubmit(ids, b),
    )  # fmt: skip
    return [
        rules.sample_resubmission_owed(
            site_id, pk, change, sent, evaluated, table=table, findings=findings, at=by_id[site_id]
        )
        for site_id, pk, change, table, sent, evaluated, findings in rows
        if evaluated <= end
    ]


@day_provider(rule=rules.DEPOSIT_DEADLINE, house_control=True)
def late_deposits(sites: list[Site], start: date, end: date, book: ThresholdBook, run: RunContext | None = None):
    """Bank deposits: each day of the books is deposited by the third banking day after it.

    ND 99-01.3-03-10(1) where the site's pack states it (the threshold book's deadline); a house
    control elsewhere (the cage's own deadline, `cage.rules.DEPOSIT_DAYS`, cited as the pack gives
    it). The days are the gaming days and the closed days of the books with no gaming day that took
    cash (a fees, session or tournament day; never one whose only records are adjusting entries or
    voided fees, sessions or tournament fees, which collected nothing). Each day that may be late comes with its deposit's date only
    (`cage.queries.deposits_maybe_late`: not the days deposited within that many calendar days),
    not its bank figures."""
    today = {s.pk: site_today(s) for s in sites}  # each site judged on its own date
    found = []
    house = {s.pk: s for s in sites if not rules.DEPOSIT_DEADLINE.applies(s)}
    stated = [book.int("deposit.banking_days")] if len(house) < len(sites) else []
    within = min(stated + [deposit_limit(s, end).value for s in house.values()], default=0)
    maybe_late = _over_span(
        run, "deposits_maybe_late", [s.pk for s in sites], start, end,
        lambda ids, a, b: deposits_maybe_late(ids, a, b, within_days=within), within,
    )  # fmt: skip
    for (site_id, day), deposited in maybe_late.items():
        if not start <= day <= end:
            continue
        limit = deposit_limit(house[site_id], day) if site_id in house else None
        if finding := rules.late_deposit(site_id, day, deposited, today=today[site_id], book=book, limit=limit):
            found.append(finding)
    return found


@day_provider(rule=rules.LOW_TABLE_CLOSED)
def low_table_closed(sites: list[Site], start: date, end: date, book: ThresholdBook, run: RunContext | None = None):
    """ND 99-01.3-08-09(1): a table with a minimum wager above $3 stayed active after the site's
    last table with a minimum of $3 or less left play (its closer counted, or its dealer relieved
    with no one seated after), since a higher minimum is allowed only on additional tables. Three
    queries for all the sites (`floor.queries.twenty_one_play`), once for all the ranges of a run
    that touch (each range judged with its own book), reading only the days on which a dealer stayed
    on shift past another table's closer or relief (the others cannot hold a finding: no table is
    active without a dealer)."""
    by_id = {s.pk: s for s in sites}
    grace = timedelta(minutes=book.int("low_table.grace_minutes"))
    play = _over_span(
        run, "twenty_one_play", list(by_id), start, end,
        lambda ids, a, b: twenty_one_play(ids, a, b, dealt_past_a_closer=grace), grace,
    )  # fmt: skip
    found = []
    for (site_id, day), tables in sorted(play.items()):
        if start <= day <= end:
            found += rules.low_table_closings(site_id, day, tables, book=book, time_zone=by_id[site_id].time_zone)
    return found


@day_provider(rule=(rules.DECKS_APPROVED, rules.SHOE_INSPECTED), day_by_day=True)
def card_checks_missing(sites: list[Site], start: date, end: date, book: ThresholdBook):
    """ND 99-01.3-08-07(1), (2): each twenty-one table in play on a closed gaming day (its opener
    counted) needs a dealer's approval of its decks (08-07(1)) and an inspection of its dealing
    shoe (08-07(2)) recorded on the floor that day.

    Each check is judged where the site's pack states it, on the days after the product began
    keeping them (`floor.queries.card_checks_kept_since`: an earlier night had nothing to record
    them in). Three queries for all the sites (`floor.queries.card_checks_of_tables_played`)."""
    by_id = {s.pk: s for s in sites}
    missing: dict[tuple[int, str], dict[date, list[int]]] = defaultdict(lambda: defaultdict(list))
    for site_id, day, number, checked in card_checks_of_tables_played(list(by_id), start, end):
        for kind, (rule, *_) in rules.CARD_CHECKS.items():
            if kind not in checked and rule.applies(by_id[site_id]):
                missing[(site_id, kind)][day].append(number)
    return [
        f
        for (site_id, kind), days in sorted(missing.items())
        for f in rules.missing_card_checks(site_id, kind, dict(days), at=by_id[site_id])
    ]


def _over_span(run: RunContext | None, name: str, site_ids: list[int], start: date, end: date, read, *key):
    """`read(site_ids, a, b)` over the run's span holding [start, end], read once for every range
    of the run in it with the same `key` (what else the read depends on, a threshold); the caller
    keeps the part in [start, end]. Outside a run, [start, end] itself."""
    if run is None:
        return read(site_ids, start, end)
    span = run.span_of(start, end)
    return run.shared((name, span, tuple(site_ids), *key), lambda: read(site_ids, *span))


# --- Quarter rules ----------------------------------------------------------------------------


def _span(quarter: Quarter, run: RunContext) -> list[Quarter]:
    """The quarters computed with `quarter`: the run's quarters and the one before each (the
    surveillance rule looks back a quarter) that follow on from one another around it; only
    `quarter` if the run does not judge it."""
    wanted = sorted({q for r in run.quarters for q in (r, r.previous())})
    if quarter not in wanted:
        return [quarter]
    i = j = wanted.index(quarter)
    while i > 0 and wanted[i - 1].next() == wanted[i]:
        i -= 1
    while j + 1 < len(wanted) and wanted[j].next() == wanted[j + 1]:
        j += 1
    return wanted[i : j + 1]


def _quarter_figures(
    sites: list[Site], quarter: Quarter, run: RunContext
) -> dict[tuple[int, str], rules.QuarterFigures]:
    """(site id, game) -> the quarter's figures; each site-quarter computed once per run (the
    hold rules and the surveillance rule ask for the same quarters), the run's consecutive
    quarters together: summed by the database (accounting.summaries.quarter_game_totals, the
    quarter summary's `twenty_one` and `paddlewheel` without building every day)."""
    by_id = {s.pk: s for s in sites}

    def compute(missing: list[int]) -> dict[int, dict[str, rules.QuarterFigures]]:
        span = _span(quarter, run)
        found = {q: defaultdict(dict) for q in span}
        for q, totals in quarter_game_totals(missing, span[0], span[-1]).items():
            for (site_id, game), custody in totals.items():
                found[q][site_id][game] = rules.QuarterFigures(
                    site_id, q, game, custody.gross_proceeds_cents, custody.prizes_cents
                )
        for q in span:
            if q != quarter:
                run.remember("quarter_figures", q, found[q])
        return found[quarter]

    per_site = run.per_site("quarter_figures", quarter, by_id, compute, default={})
    return {(site_id, game): fig for site_id, games in per_site.items() for game, fig in games.items()}


@quarter_provider(rule=(rules.PRIZES_OVER_GP, rules.LOW_HOLD))
def quarter_hold_rules(sites: list[Site], quarter: Quarter, book: ThresholdBook, run: RunContext):
    """ND 99-01.3-08-01(3), 08-04(9): a quarter in which the site's twenty-one prizes exceeded its
    twenty-one gross proceeds (08-01(3)); and, at a site that requires video surveillance, a
    quarter's percent-of-hold below 10% for twenty-one or 15% for paddlewheel (08-04(9)). Each only
    at a site whose pack states it."""
    by_id = {s.pk: s for s in sites}
    required = _status_lookup([s.pk for s in sites], run=run)
    found = []
    for (site_id, game), fig in _quarter_figures(sites, quarter, run).items():
        site = by_id[site_id]
        if (
            game == "21"
            and rules.PRIZES_OVER_GP.applies(site)
            and (finding := rules.prizes_over_gross_proceeds(fig, book))
        ):
            found.append(finding)
        if not rules.LOW_HOLD.applies(site):
            continue
        if finding := rules.low_hold(fig, surveillance_required=required(site_id, quarter.end), book=book):
            found.append(finding)
    return found


def _premises_chains(sites: list[Site], run: RunContext) -> dict[int, list[int]]:
    """site id -> the ids of the site and the sites whose premises it succeeds (one query a run):
    activity counts "regardless of which organization conducted twenty-one at the site"
    (ND 99-01.3-08-04; surveillance.models.PremisesSuccession)."""
    previous = run.shared(("premises_predecessors",), surveillance_queries.premises_predecessors)
    chains = {}
    for site in sites:
        chain = [site.pk]
        while previous.get(chain[-1]) is not None and previous[chain[-1]] not in chain:
            chain.append(previous[chain[-1]])
        chains[site.pk] = chain
    return chains


@quarter_provider(rule=rules.SURVEILLANCE_REQUIRED)
def surveillance_requirement(sites: list[Site], quarter: Quarter, book: ThresholdBook, run: RunContext):
    """ND 99-01.3-08-04: a site whose twenty-one gross proceeds averaged $10,000 or more per quarter
    for two entire consecutive quarters (a seasonal site: its active quarters of the July-June
    fiscal year), with wagers above $2, must have a video surveillance system operational within
    45 days of the second quarter's end. The premises' history
    counts whichever organization conducted twenty-one there: a quarter's figures are the
    site's plus those of the sites it succeeds."""
    quarters = sorted({quarter.previous(), quarter, *quarter.fiscal_year_quarters()})
    quarters = [q for q in quarters if q <= quarter]
    chains = _premises_chains(sites, run)
    known = {s.pk for s in sites}
    predecessors = list(Site.objects.filter(pk__in={i for c in chains.values() for i in c} - known))
    by_quarter = {q: _quarter_figures(sites + predecessors, q, run) for q in quarters}
    max_wager = run.shared(("max_wager", tuple(known)), lambda: _max_wagers(sites))
    required = _status_lookup([s.pk for s in sites], run=run)
    found = []
    for site in sites:
        history = [_premises_figures(by_quarter[q], site.pk, chains[site.pk], q) for q in quarters]
        finding = rules.surveillance_required(
            history,
            seasonal=site.seasonal,
            wagers_above_cents=max_wager[site.pk],
            already_required=required(site.pk, quarter.end),
            book=book,
            at=site,
        )
        if finding:
            found.append(finding)
    return found


def _max_wagers(sites: list[Site]) -> dict[int, int]:
    """site id -> the highest maximum wager of its active twenty-one tables (0 without one)."""
    max_wager = defaultdict(int)
    for site_id, cents in Table.objects.filter(site__in=sites, active=True, game="21").values_list(
        "site_id", "max_wager_cents"
    ):
        max_wager[site_id] = max(max_wager[site_id], cents)
    return max_wager


def _premises_figures(figures: dict, site_id: int, chain: list[int], quarter: Quarter) -> rules.QuarterFigures:
    parts = [figures[(i, "21")] for i in chain if (i, "21") in figures]
    return rules.QuarterFigures(
        site_id, quarter, "21", sum(f.gross_proceeds_cents for f in parts), sum(f.prizes_cents for f in parts)
    )


@day_provider(rule=rules.PRIZES_OVER_GP)
def dealer_records_after_prizes_over_gp(sites: list[Site], start: date, end: date, book: ThresholdBook):
    """ND 99-01.3-08-01(3): for 12 continuous weeks after a quarter in which the site's twenty-one
    prizes exceeded its twenty-one gross proceeds, percent-of-hold records must be maintained for
    each dealer at the site; a dealer shift there with no percent-of-hold of its own is flagged (its
    drop box is exchanged at the dealer change: house control, to keep each dealer's
    percent-of-hold)."""
    windows = {}
    for alert in Alert.objects.filter(rule="prizes_over_gp", site__in=sites):
        window = (
            date.fromisoformat(alert.figures["dealer_hold_from"]),
            date.fromisoformat(alert.figures["dealer_hold_until"]),
        )
        if window[0] <= end and window[1] >= start:
            windows[alert.site_id] = window
    if not windows:
        return []
    first, last = max(start, min(w[0] for w in windows.values())), min(end, max(w[1] for w in windows.values()))
    zones = {site.pk: site_zone(site) for site in sites}  # a shift's day is its site's
    records = [
        rules.ShiftRecord(
            s.shift_id,
            s.site_id,
            s.dealer_name,
            s.table_number,
            s.started_at.astimezone(zones[s.site_id]),
            s.custody is not None,
        )
        for s in live_shift_figures(list(windows), first, last)
        if s.game == "21"
    ]
    citation = book["prizes_over_gp.dealer_hold_weeks"].citation
    return [
        f
        for site_id, window in windows.items()
        for f in rules.dealer_shifts_without_figures([r for r in records if r.site_id == site_id], window, citation)
    ]


@day_provider(rule=rules.DEALER_HOLD_TRACKED)
def dealer_hold_tracking(sites: list[Site], start: date, end: date, book: ThresholdBook, run: RunContext | None = None):
    """ND 99-01.3-08-04(8): at a site that requires video surveillance, the organization shall track
    each dealer's and wheel operator's percent-of-hold performance; the site is flagged while its
    drop boxes are exchanged only once a gaming day, as the house tracks it by exchanging them at
    each dealer change (house control, to track percent-of-hold).

    Judged on the run's last day (the site's surveillance status and its count settings,
    `counts.CountSettings.box_exchange`). Two queries."""
    required = _status_lookup([s.pk for s in sites], run=run)
    judged = [s for s in sites if required(s.pk, end)]
    exchanges = counts_queries.box_exchanges([s.pk for s in judged]) if judged else {}
    return [
        rules.dealer_hold_untracked(site.pk, end, exchange=BoxExchange(exchanges[site.pk]).label, at=site)
        for site in judged
        if exchanges[site.pk] != BoxExchange.DEALER_SHIFT
    ]


@day_provider(rule=rules.IRREGULARITIES_DOCUMENTED)
def irregularities_documented(sites: list[Site], start: date, end: date, book: ThresholdBook):
    """Irregularities documented: the internal controls in force for each game say how they are addressed.

    The WSGC blackjack rules' "Irregularities" (misdeals, cards exposed, an incorrect number of
    cards), for house-banked blackjack and each approved game. Judged as of today, so only by a run
    whose range reaches the site's yesterday (the nightly run), as `tables_in_line` is. One query."""
    judged = {s.pk: s for s in sites if end >= site_today(s) - timedelta(days=1)}
    found = []
    for controls in approvals_queries.controls_in_force(list(judged.values())):
        if not controls.irregularities.strip():
            site = judged[controls.site_id]
            found.append(
                rules.irregularities_undocumented(
                    site.pk, end, game=controls.game, version=controls.version,
                    key=str(controls.game_approval_id or "house"), at=site,
                )
            )  # fmt: skip
    return found


def _judged_tonight(sites: list[Site], end: date) -> list[Site]:
    """The sites a run judges as of the night: those whose range reaches the site's yesterday (the
    nightly run), never a past range."""
    return [s for s in sites if end >= site_today(s) - timedelta(days=1)]


@day_provider(rule=rules.CHIP_REDEMPTION_PROCEDURE)
def chip_redemption_procedure(sites: list[Site], start: date, end: date, book: ThresholdBook):
    """Chip redemption procedure: the organization has adopted a procedure on redeeming a player's
    chips that keeps redeemed chips separated by value and counted accurately, recorded with its
    written procedures and in force on the night.

    ND 99-01.3-08-06(2) (approvals.WrittenProcedure). Judged on the range's last day by the nightly
    run only, as `irregularities_documented` is. One query."""
    judged = _judged_tonight(sites, end)
    in_force = approvals_queries.procedures_in_force({s.organization_id for s in judged}, end) if judged else {}
    return [
        rules.chip_redemption_procedure_missing(site.pk, end, at=site)
        for site in judged
        if (site.organization_id, "chip_redemption") not in in_force
    ]


@day_provider(rule=rules.SHUFFLE_PROCEDURE)
def shuffle_procedure(sites: list[Site], start: date, end: date, book: ThresholdBook, run: RunContext | None = None):
    """Shuffle procedure: at a site with a video surveillance system (installed or required), the
    organization has standardized its dealers' procedures for shuffling and cutting cards, recorded
    with its written procedures and in force on the night.

    ND 99-01.3-08-08(1) (approvals.WrittenProcedure): "for a site with a video surveillance
    system", installed on the range's last day or required then (the surveillance status, as
    `dealer_hold_tracking` reads it), as `chip_colour_spec` reads 08-03(2)'s; and the procedure in
    force then; by the nightly run only. Three queries."""
    night = _judged_tonight(sites, end)
    if not night:
        return []
    installed = surveillance_queries.sites_with_equipment([s.pk for s in night], end)
    required = _status_lookup([s.pk for s in night], run=run)
    judged = {
        site: "a video surveillance system is installed at the site"
        if site.pk in installed
        else "the site requires video surveillance"
        for site in night
        if site.pk in installed or required(site.pk, end)
    }
    in_force = approvals_queries.procedures_in_force({s.organization_id for s in judged}, end) if judged else {}
    return [
        rules.shuffle_procedure_missing(site.pk, end, trigger=trigger, at=site)
        for site, trigger in judged.items()
        if (site.organization_id, "shuffle_and_cut") not in in_force
    ]


@day_provider(rule=rules.CHIP_MARKING)
def chip_marking(sites: list[Site], start: date, end: date, book: ThresholdBook):
    """Chip marking: each of the organization's active chips has recorded the organization's name,
    or the unique identification of its chips, that the chip bears on one side.

    ND 99-01.3-08-03(2). A chip is refused without one when made or changed (`ChipDenomination`'s
    chip law); a chip recorded before the marking was kept stays blank until someone edits it, and
    this says so. The chips as they are, judged on the range's last day by the nightly run only, as
    the written procedures are. One query."""
    judged = _judged_tonight(sites, end)
    if not judged:
        return []
    unmarked = defaultdict(list)
    chips = ChipDenomination.objects.filter(organization_id__in={s.organization_id for s in judged}, active=True)
    for chip in chips.only("organization_id", "value_cents", "primary_colour", "marking", "active"):
        if chip.unmarked:  # the model's own test, as its save refuses it
            unmarked[chip.organization_id].append(described(chip))
    return [
        finding
        for site in judged
        if (finding := rules.chip_marking_missing(site.pk, end, unmarked[site.organization_id], at=site))
    ]


def count_settings_warnings(site: Site, box_exchange: str) -> list[str]:
    """The hook `count_settings_warnings` (counts.rules.settings_warnings): at a site that requires
    video surveillance today, drop boxes exchanged once a gaming day track no dealer's
    percent-of-hold (ND 99-01.3-08-04(8)), said when the setting is saved, in the words of the
    alert the night's check (`dealer_hold_tracking`) opens. Nothing where the pack does not state
    the rule, or the site requires no system. Two queries at most."""
    if box_exchange == BoxExchange.DEALER_SHIFT or not rules.DEALER_HOLD_TRACKED.applies(site):
        return []
    today = site_today(site)
    if not _status_lookup([site.pk])(site.pk, today):
        return []
    finding = rules.dealer_hold_untracked(site.pk, today, exchange=BoxExchange(box_exchange).label, at=site)
    return [f"{finding.action_required} Until then the nightly checks flag it once a quarter."]


@day_provider(rule=rules.TABLES_IN_LINE)
def tables_in_line(sites: list[Site], start: date, end: date, book: ThresholdBook):
    """Tables in line: each active table follows the licence or internal controls in force today.

    9 NYCRR 4620.5(h) (every table follows the tie option its licence reflects) and the WSGC
    blackjack rules (every option the card room chooses documented in its internal controls): a
    licence or a controls version that takes effect later leaves the tables as they were until
    someone edits one, so each night each table is judged as its save would judge it
    (`approvals.checks.check_table`). Judged as of today, so only by a run whose range reaches the
    site's yesterday (the nightly run), never for a past range. A few queries a table (its link,
    the controls and licence in force), at the sites of the packs that state it only."""
    found = []
    for site in sites:
        if end < site_today(site) - timedelta(days=1):
            continue
        citation = rules.TABLES_IN_LINE.at(site)
        for table in Table.objects.filter(site=site, active=True, game="21").select_related("site").order_by("number"):
            if errors := check_table(table):
                settings = [_setting_words(name) for name in sorted(errors)]
                found.append(
                    rules.table_out_of_line(
                        site.pk, end, table.pk, table.number, errors, citation=citation, settings=settings
                    )
                )
    return found


def _setting_words(name: str) -> str:
    """A table setting's name as its form labels it ("Tie option")."""
    try:
        return str(capfirst(Table._meta.get_field(name).verbose_name))
    except FieldDoesNotExist:
        return capfirst(name.replace("_", " "))


@day_provider(rule=rules.LOW_HOLD)
def review_weeks_short(sites: list[Site], start: date, end: date, book: ThresholdBook, run: RunContext | None = None):
    """ND 99-01.3-08-04(9): during a low-hold video review, each week at least one hour of video of
    each active table is reviewed and documented. The weeks of a run's ranges that touch read
    together (the quarter rules, which open programs, have all run before the day rules:
    engine.run_scan)."""
    minutes = book.int("low_hold.review_minutes_per_week")
    today = {s.pk: site_today(s) for s in sites}  # each site's weeks ended before its own date
    tasks, reviewed = _over_span(
        run, "review_weeks_due", [s.pk for s in sites], start, end,
        lambda ids, a, b: surveillance_queries.review_weeks_due(ids, a, b, max(today.values(), default=b)),
    )  # fmt: skip
    tasks = [task for task in tasks if start <= task.week_end <= end and task.week_end < today[task.program.site_id]]
    reviewed = defaultdict(timedelta, reviewed)
    citation = book["low_hold.review_minutes_per_week"].citation
    return [
        rules.Finding(
            rules.REVIEW_WEEK_SHORT,
            citation,
            "Video review week short of an hour",
            task.program.site_id,
            f"{task.week_start}..{task.week_end}",
            task.week_start,
            task.week_end,
            f"{citation}: table {task.table.number} had {plural(int(reviewed[task.pk].total_seconds() // 60), 'minute')} "
            f"of video reviewed in week {task.week} ({task.week_start} to {task.week_end}); at least "
            f"{plural(minutes, 'minute')} {'is' if minutes == 1 else 'are'} required.",
            task.week_end,
            {
                "task": task.pk,
                "table": task.table.number,
                "reviewed_minutes": int(reviewed[task.pk].total_seconds() // 60),
            },
            f"task:{task.pk}",
        )
        for task in tasks
        if reviewed[task.pk] < timedelta(minutes=minutes)
    ]


@day_provider(rule=(rules.COUNT_REMOVED, rules.COUNT_COUNTED, rules.COUNT_RESOLVED), day_by_day=True)
def count_problems(sites: list[Site], start: date, end: date, book: ThresholdBook):
    """ND 99-01.3-08-14: a drop box not removed from its table by the end of the day's activity
    (08-14(1)), a drop box not yet counted by the two-person count team by the end of the following
    gaming day, and a difference between the two members' counts not resolved (08-14(4)). A count is
    due the day after the gaming day; it is judged once that day has passed.

    The database leaves out the drops that cannot be flagged (removed well before their day's
    end, and agreed); the rest are judged here, their day's end depending
    on the site's time zone. One query. A drop's removal is probed by the drop (the join it
    replaces scanned every removal ever recorded), and its agreement is looked up among the
    current agreements of the range's count sessions (signatures counted
    per site-day) before it is asked of the drop itself (`counts.queries.drops_to_judge`)."""
    by_id = {s.pk: s for s in sites}
    drops = counts_queries.drops_to_judge(sites, start, end)
    now = timezone.now()
    day_ends, found = {}, []
    for site_id, gaming_date, table_number, box_label, removed_at, is_agreed, totals in drops:
        site = by_id[site_id]
        if (site_id, gaming_date) not in day_ends:
            day_ends[(site_id, gaming_date)] = gaming_day_bounds(
                gaming_date, site.time_zone, site.business_day_start_hour
            )[1]
        day_end = day_ends[(site_id, gaming_date)]
        count_due = day_end + timedelta(days=1)
        label = f"{table_number}{box_label}"
        if now > day_end and (removed_at is None or removed_at > day_end):
            found.append(rules.CountException(site.pk, gaming_date, label, "not_removed"))
        if now > count_due and not is_agreed:
            problem = "unresolved" if (totals or 0) > 1 else "not_counted"
            found.append(rules.CountException(site.pk, gaming_date, label, problem))
    return rules.count_exceptions(found, at=by_id)


# --- ND 99-01.3-08-04: the system follows from its trigger ------------------------------------


@day_provider(rule=rules.SURVEILLANCE_OPERATIONAL)
def surveillance_not_operational(sites: list[Site], start: date, end: date, book: ThresholdBook):
    """ND 99-01.3-08-04: once the site's deadline to have a video surveillance system has passed
    (45 days after the end of the second quarter that required it, or 45 days after it began
    conducting twenty-one at newly acquired premises), each table that needs a system must have a
    camera and a recording unit in the equipment register. Judged on the run's last day."""
    deadlines = surveillance_queries.operational_deadlines([s.pk for s in sites], end)
    late = [s for s in sites if s.pk in deadlines and end > deadlines[s.pk]]
    missing = surveillance_queries.tables_without_system(late, end) if late else {}
    found = []
    for site in late:
        numbers = [t.number for t in missing.get(site.pk, [])]
        finding = rules.system_not_operational(
            site.pk,
            deadlines[site.pk],
            numbers,
            on=end,
            citation=rules.SURVEILLANCE_OPERATIONAL.at(site),
            cap_cents=NOT_OPERATIONAL_WAGER_CAP_CENTS.on(site, end).value,
        )
        if finding:
            found.append(finding)
    return found


@day_provider(rule=rules.SPECIAL_EVENT_EXEMPTION)
def special_events_over_limit(
    sites: list[Site], start: date, end: date, book: ThresholdBook, run: RunContext | None = None
):
    """ND 99-01.3-08-04: at a site that requires video surveillance, a temporary table brought in
    for a special event needs no system only for an event of 14 or fewer consecutive days, and for
    at most two events a quarter (the site's recorded events, `surveillance.models.SpecialEvent`);
    such a table played outside that without a system is flagged (once per table and event, or
    once per table for days no recorded event covers)."""
    by_id = {s.pk: s for s in sites}
    tables = (
        _special_event_tables(sites)
        if run is None
        else run.shared(("special_event_tables", tuple(by_id)), lambda: _special_event_tables(sites))
    )
    if not tables:
        return []
    days = surveillance_queries.special_event_days([t.pk for t in tables], start, end)
    events = surveillance_queries.site_special_events(
        list(by_id), *surveillance_queries.special_event_window(start, end)
    )
    required = _status_lookup([s.pk for s in sites], run=run)
    register = surveillance_queries.EquipmentRegister([s.pk for s in sites])
    found = []
    for table in tables:
        used, flagged = sorted(days.get(table.pk, ())), set()
        for day in used:
            exemption = special_events.exemption(events.get(table.site_id, []), day, by_id[table.site_id])
            event_start = exemption.event_start or day  # a day no event covers stands for itself
            key = exemption.event_start or "no event"
            if exemption.exempt or key in flagged or not required(table.site_id, day):
                continue
            if register.has_system(table, day):
                continue
            flagged.add(key)
            found.append(
                rules.special_event_over_limit(
                    table.site_id,
                    table.pk,
                    table.number,
                    event_start,
                    day,
                    exemption.cited(by_id[table.site_id]),
                    rules.SPECIAL_EVENT_EXEMPTION.at(by_id[table.site_id]),
                )
            )
    return found


def _special_event_tables(sites: list[Site]) -> list[Table]:
    return list(Table.objects.filter(site__in=sites, location=Table.Location.SPECIAL_EVENT))


@day_provider(rule=rules.RECORDING_COVERS_PLAY, day_by_day=True)
def recordings_not_covering_play(
    sites: list[Site], start: date, end: date, book: ThresholdBook, run: RunContext | None = None
):
    """ND 99-01.3-08-04(5)(b): at a site that requires video surveillance, each table that needs a
    system is recorded from when its chips are first made available (its opener) until it closes
    for the day (its closer), with no gap (surveillance.coverage).
    A table day without a closer yet is judged when it has one.

    The database finds the table days whose recordings leave part of the play uncovered, at
    the sites that ever required surveillance (`surveillance.queries.uncovered_table_days`); their gaps are
    measured here, and the site's requirement on the day and a special-event table's
    exemption applied."""
    by_id = {s.pk: s for s in sites}
    statuses = _statuses(list(by_id), run)
    required = _status_lookup(list(by_id), statuses)
    watched = [site_id for site_id, rows in statuses.items() if any(s.required for s in rows)]
    days = surveillance_queries.uncovered_table_days(watched, start, end) if watched else {}
    temporary = {key[0] for key, day in days.items() if day["location"] != Table.Location.REGULAR}
    events = (
        surveillance_queries.site_special_events(watched, *surveillance_queries.special_event_window(start, end))
        if temporary
        else {}
    )
    found = []
    for (table_id, day), play in sorted(days.items(), key=lambda item: (item[0][1], item[1]["number"], item[0][0])):
        if not required(play["site_id"], day):
            continue
        if (
            table_id in temporary
            and special_events.exemption(events.get(play["site_id"], []), day, by_id[play["site_id"]]).exempt
        ):
            continue
        missing = coverage.gaps(play["opener_at"], play["closer_at"], play["recordings"])
        site = by_id[play["site_id"]]
        finding = rules.recording_gaps(
            site.pk, table_id, play["number"], day, missing,
            citation=rules.RECORDING_COVERS_PLAY.at(site), time_zone=site.time_zone,
        )  # fmt: skip
        if finding:
            found.append(finding)
    return found


@day_provider(rule=rules.CHIP_COLOURS)
def chip_colour_spec(sites: list[Site], start: date, end: date, book: ThresholdBook, run: RunContext | None = None):
    """ND 99-01.3-08-03(2): at a site with a video surveillance system installed (whatever the
    wagers) or required by its gross proceeds, the organization's active chips must meet the
    colours and edge spots of 08-03(3). Judged on the last day of the run."""
    site_ids = [s.pk for s in sites]
    required = _status_lookup(site_ids, run=run)
    installed = surveillance_queries.sites_with_equipment(site_ids, end)
    organizations = tuple(sorted({s.organization_id for s in sites}))
    chips = (
        _active_chip_colours(organizations)
        if run is None
        else run.shared(("active_chip_colours", organizations), lambda: _active_chip_colours(organizations))
    )
    found = []
    for site in sites:
        law = law_at(site.jurisdiction)  # the colours apply where the site's pack states them
        if law is None:
            continue
        if site.pk in installed:
            trigger = "a video surveillance system is installed at the site"
        elif required(site.pk, end):
            trigger = "video surveillance is required at the site"
        else:
            continue
        problems = colour_spec_problems(chips[site.organization_id], law)
        if finding := rules.chip_colours(site.pk, end, problems, trigger=trigger, at=site):
            found.append(finding)
    return found


@quarter_provider(rule=rules.CHIP_COLOURS)
def chip_colours_at_proceeds(sites: list[Site], quarter: Quarter, book: ThresholdBook, run: RunContext):
    """ND 99-01.3-08-03(2): at a site whose twenty-one gross proceeds averaged $10,000 or more per
    quarter over two consecutive quarters (this one and the one before, counting the premises'
    history as the surveillance rule does), the organization's chips must meet the colours and edge
    spots of 08-03(3) whatever the wagers, even at a site whose wagers of $2 or less never require a
    surveillance system. The organization's active chips as they are now; one alert per site and
    quarter, shared with `chip_colour_spec`."""
    judged = [site for site in sites if law_at(site.jurisdiction) is not None]
    if not judged:
        return []
    level = book["chips.gp_average_cents"]
    quarters = [quarter.previous(), quarter]
    chains = _premises_chains(judged, run)
    known = {s.pk for s in judged}
    predecessors = list(Site.objects.filter(pk__in={i for c in chains.values() for i in c} - known))
    by_quarter = {q: _quarter_figures(judged + predecessors, q, run) for q in quarters}
    reached = {}
    for site in judged:
        total = sum(
            _premises_figures(by_quarter[q], site.pk, chains[site.pk], q).gross_proceeds_cents for q in quarters
        )
        if total >= int(level) * len(quarters):  # exact: the average at or above the level
            reached[site.pk] = total
    if not reached:
        return []
    organizations = tuple(sorted({s.organization_id for s in judged if s.pk in reached}))
    chips = run.shared(("active_chip_colours", organizations), lambda: _active_chip_colours(organizations))
    found = []
    for site in judged:
        if site.pk not in reached:
            continue
        average = format_money(reached[site.pk] // len(quarters))
        trigger = (
            f"twenty-one gross proceeds averaged {average} per quarter in {quarters[0]} and {quarters[1]} (at least "
            f"{format_money(int(level))}), whatever the wagers accepted"
        )
        problems = colour_spec_problems(chips[site.organization_id], law_at(site.jurisdiction))
        if finding := rules.chip_colours(site.pk, quarter.end, problems, trigger=trigger, at=site):
            found.append(finding)
    return found


def _active_chip_colours(organization_ids) -> dict[int, list]:
    """organization id -> the colours of its active chips (one query)."""
    chips = defaultdict(list)
    for chip in ChipDenomination.objects.filter(organization_id__in=organization_ids, active=True):
        chips[chip.organization_id].append(colours_of(chip))
    return chips


@day_provider(rule=rules.DISCONTINUED_REDEMPTION)
def discontinued_sites(sites: list[Site], start: date, end: date, book: ThresholdBook):
    """ND 99-01.3-08-06(2): after twenty-one is discontinued at a site, the organization redeems
    its chips, at its business office or an active site, for thirty days.

    A site is flagged when twenty-one was discontinued on a day of the run, or its thirty days
    overlap the run."""
    found = []
    for site in sites:
        stopped = site.twenty_one_discontinued_on
        if stopped is not None and stopped <= end and rules.redemption_window_end(stopped, book) >= start:
            found.append(rules.discontinued_twenty_one(site.pk, site.name, stopped, book))
    return found


# No chip float where the house holds no chips (a fees-only site: floor.rules.house_chips).
@day_provider(rule=rules.CHIP_FLOAT, house_control=True, only_where=house_chips)
def chip_float(sites: list[Site], start: date, end: date, book: ThresholdBook):
    """Chip inventory: the banks and trays hold no more chips than the inventory log says exist.

    Per organization and chip value, as of the run's last day: the chips the inventory log says
    exist (received minus destroyed) against every site's bank at its last count and every
    active table's tray at its last count (`cage.queries.chip_floats`, three queries for the
    run). Where the banks and trays hold more than exist, each judged site holding that value
    gets the alert, citing its pack's inventory rule (House control where it states none). An
    organization's totals take all its sites, judged or not."""
    by_org = defaultdict(list)
    for site in sites:
        by_org[site.organization_id].append(site)
    found = []
    for org_id, chips in chip_floats(by_org, end).items():
        for value in chips.short:
            for site in by_org[org_id]:
                site_bank = chips.banks.get(site.pk, {}).get(value, 0)
                site_trays = chips.trays.get(site.pk, {}).get(value, 0)
                if not site_bank and not site_trays:
                    continue
                short = rules.ChipFloatShort(
                    site.pk,
                    end,
                    chips.counted_through or end,
                    value,
                    chips.exist.get(value, 0),
                    chips.bank(value),
                    chips.tray(value),
                    site_bank,
                    site_trays,
                )
                found.append(rules.chip_float_short(short, at=site))
    return found
