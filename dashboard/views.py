"""Figures pages for a site (daily, quarterly, dealers' percent-of-hold) and the auditor
dashboard. Views parse the period, call one query module, and present; money through the
`money` filter, ratios through `ratio`."""

import html
from datetime import date, timedelta
from functools import lru_cache

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.signals import setting_changed
from django.db.models import Exists, OuterRef
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils import timezone
from django.utils.formats import date_format, localize
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST

from accounting import published, services
from accounting.published import bank_allocation, pack_block, pack_figures, summary_game_lines, tax_label
from accounting.rules import (
    BOOKS_CLOSERS,
    CASH_FIGURE,
    CLOSED_BOOKS,
    COMBINED_BANK,
    DAILY_SUMMARY,
    DEALER_HOLD,
    DEPOSIT,
    FILED_QUARTER,
    GAMING_TAX,
    LOW_HOLD,
    QUARTER_FILERS,
    QUARTERLY_SUMMARY,
    SESSION_GAME,
    SITE_FIGURES,
    TABLE_FEES,
    TABLE_FIGURES,
    TOURNAMENT_PLAY,
    adjustment_fields,
)
from cage.queries import deposit_corrections
from cage.rules import DEPOSIT_DAYS
from cardroom.access import access_for, refusal
from cardroom.api import visible_employees
from cardroom.models import Game, Role
from cardroom.views import refusal_text, show_site
from compliance.labels import period_of
from compliance.queries import ALERTS, open_alerts
from core import form_tokens, limits, moments
from core.money import decimal_to_cents, format_money, format_ratio
from core.periods import Quarter
from core.rows import shaped_rows
from core.rules import HOUSE_CONTROL
from counts.models import CountSession
from counts.rules import keeps_drop_boxes
from fees.queries import latest_record_date, record_dates
from floor.models import GamingDay, Slip, SlipKind, SlipStep
from floor.open_items import Kind as ItemKind
from floor.open_items import open_items
from floor.queries import carried_items, opener_variances
from floor.rules import TRAY_COUNT, game_column, house_chips, house_dealers
from packs import RevenueModel, pack_for
from reports.catalogue import kinds_at
from reports.rules import FORM_DAILY, FORM_DEALER_HOLD, FORM_DEALER_SHIFTS, FORM_QUARTERLY
from reports.services import REPORT_ROLES
from statefiling.queries import amendment_statements, receipt_statement

from . import audit, fragments, trends
from .access import (
    AUDIT_LOG,
    DAILY_FIGURES,
    DASHBOARD_ROLES,
    DEALER_FIGURES,
    QUARTER_FIGURES,
    figure_site,
    site_today,
)

DEALER_WEEKS = 12  # ND 99-01.3-08-01(3): 12 continuous weeks of per-dealer records
CARRIED_SHOWN = 50  # the latest open items carried past a close, on the dashboard
SLIP_KINDS = {ItemKind.SLIP_UNVERIFIED, ItemKind.SLIP_UNRECEIVED}  # the items floor.open_items.slip_items gives
EXCEPTION_PREFIXES = ("slip_", "count_")  # the slip and count rules' alerts: the dashboard's exceptions
EXCEPTIONS_SHOWN = 50  # the latest exceptions on the dashboard
ROWS_SHOWN = 30  # the overdue and open alerts listed on the dashboard (the rest behind a link)


def _stated(rule, site) -> str:
    """The rule's citation where the site's pack states it; "" where it does not (a form, a tax,
    a deadline of another state's law is not shown at all)."""
    return rule.at(site) if rule.applies(site) else ""


def site_law(site) -> dict:
    """What the figures pages say of the site's law: the forms and obligations its pack states
    (empty where it states none), the controls it keeps (cited "House control" where its law does
    not state them), and whether its revenue is drop-based with a hold (packs.RevenueModel)."""
    pack = pack_for(site)
    return {
        "form_daily": _stated(FORM_DAILY, site),
        "form_quarterly": _stated(FORM_QUARTERLY, site),
        "form_dealer_shifts": _stated(FORM_DEALER_SHIFTS, site),
        "form_dealer_hold": _stated(FORM_DEALER_HOLD, site),
        "low_hold": _stated(LOW_HOLD, site),
        "deposit": _stated(DEPOSIT, site),
        "gaming_tax": _stated(GAMING_TAX, site),
        "combined_bank": _stated(COMBINED_BANK, site),
        "daily_summary": DAILY_SUMMARY.at(site),
        "quarterly_summary": QUARTERLY_SUMMARY.at(site),
        "tournament_play": TOURNAMENT_PLAY.at(site),
        "dealer_hold": DEALER_HOLD.at(site),
        "holds": pack.revenue_model == RevenueModel.DROP,
        "fees": pack.revenue_model == RevenueModel.FEES,  # its books rest on its fee records and their count
        "words": pack.revenue_words,  # what the pack calls the drop, the payout and the win
        "deals_paddlewheel": Game.PADDLEWHEEL in pack.games,  # its wheel operators, its PW lines
        "game_names": pack.game_names,  # what the pack calls game 21 ("Twenty-one", "Blackjack", "Black Jack")
    }


def _date(value, default: date, errors: dict, field: str) -> date:
    """The date in `value` (the API's parsing and words, core.limits), else `default` with the
    refusal in `errors`; nothing written is `default`."""
    if not value:
        return default
    try:
        return limits.parse_date(value, field)
    except ValidationError as exc:
        errors[field] = " ".join(exc.messages)
        return default


def _day_query(*, site_id, day):
    return GamingDay.objects.filter(site_id=site_id, gaming_date=day).order_by("pk").values_list(*_DAY_FIELDS)[:1]


def _latest_day_query(*, site_id, today):
    days = GamingDay.objects.filter(site_id=site_id, gaming_date__lte=today)
    return days.order_by("-gaming_date").values_list(*_DAY_FIELDS)[:1]


_DAY_FIELDS = tuple(f.attname for f in GamingDay._meta.concrete_fields)


def _gaming_day(site, asked: date | None) -> tuple[date, GamingDay | None]:
    """The date asked for (by default the latest day of the books up to today) and its gaming day,
    read by SQL compiled once (core.rows). The latest day is the latest gaming date, or where the
    pack's revenue is its fees or its sessions the latest day they were recorded, if later: such a
    site's tables open no gaming day (floor.rules.house_chips), so it would open on an empty today."""
    if asked is not None:
        rows = shaped_rows(_day_query, site_id=site.pk, day=asked)
    else:
        rows = shaped_rows(_latest_day_query, site_id=site.pk, today=site_today(site))
    found = GamingDay.from_db(GamingDay.objects.db, _DAY_FIELDS, rows[0]) if rows else None
    if asked is not None:
        return asked, found
    latest = found.gaming_date if found else None
    if pack_for(site).revenue_model != RevenueModel.DROP:
        recorded = latest_record_date(site.pk, site_today(site))
        if recorded is not None and (latest is None or recorded > latest):
            return recorded, None  # later than the latest gaming day: none was opened on it
    return (found.gaming_date, found) if found else (site_today(site), None)


def _sessions_check(site, day, summary):
    """A session site's day against its custody, its boxes' counts read (one query there only)."""
    if not (summary.pack and "sessions" in summary.pack):
        return None
    uncounted = published.uncounted_boxes(site, day, day).get(day, 0)
    return published.sessions_against_custody(summary, uncounted)


def _offers_report(user, site, code: str) -> bool:
    """Whether the page offers its period's report of kind `code` in one click: to who requests
    reports at the site, where the site's pack offers the kind (reports.catalogue.kinds_at)."""
    return access_for(user).has_role(site.pk, *REPORT_ROLES) and any(k.code == code for k in kinds_at(site))


@login_required
def daily(request):
    site = figure_site(request, DAILY_FIGURES)
    show_site(request, site)
    errors: dict = {}
    day, gaming_day = _gaming_day(site, _date(request.GET.get("date"), None, errors, "date"))
    today = site_today(site)  # the site's gaming date now: no link on to a day still to come
    table_days, shifts = published.table_days_and_shifts([site.pk], day, day)
    of_the_books = published.day_of_the_books(site, day, days=table_days)  # None: nothing of the books on it
    summary = of_the_books if of_the_books is not None else published.no_books_day(site, day)
    law = site_law(site)
    gross = law["words"].gross_column  # a gross proceeds column beside the drop (packs.RevenueWords)
    chips_at_tables = house_chips(site)  # the house's chips go to the tables (not at a fees-only site)
    items = _day_items(gaming_day)
    # No deposit is due for a day that collected nothing: one with nothing of the books recorded
    # (yet), or whose only records are adjusting entries or voided fees, sessions or tournament fees
    # (accounting.summaries.takes_deposit).
    no_deposit = (
        "no deposit due: nothing of the books is recorded on this day"
        if of_the_books is None
        else None
        if published.takes_deposit(summary)
        else f"no deposit due: nothing was collected this day ({published.nothing_collected(summary)})"
    )
    context = {
        **items,
        # Precomputed rows (issue 37): each row's cells are formatted here, once, rather than by
        # an include and nine filters a row in the template.
        "table_rows": _table_rows(summary.tables, items["open_slips"], gross, site=site),
        # The openers that differ from their table's last count, with their reasons: one query, none
        # where no table opened (a fees-only site records no opener).
        "variances": opener_variances([site.pk], day, day) if any(t.opener_recorded for t in summary.tables) else [],
        "tray_count_rule": TRAY_COUNT,
        # The corrections entered on this day count in its total: each is a row, so the total is
        # the sum of the rows (a correction of the cash, the fees or the sessions moves the cash or
        # the pack's figures, not the tables').
        "adjustment_rows": [
            (a, custody_cells(published.adjustment_custody((a,)), gross, hold=False))
            for a in summary.adjustments_recorded
            if a.field not in SITE_FIGURES
        ],
        # Tournament fees and prizes found after their closed day's books closed, each with the rule of
        # its record: entered (and counted) on this day, or belonging to this closed day (not counted here).
        "tournament_late_recorded": [(line, line.rule(site)) for line in summary.tournament_late_recorded],
        "tournament_late_to_this_day": [(line, line.rule(site)) for line in summary.tournament_late_to_this_day],
        "game_cells": (custody_cells(summary.twenty_one, gross), custody_cells(summary.paddlewheel, gross)),
        "total_cells": custody_cells(summary.total, gross),
        # A table in play with no closer yet: its figures that need one are "not known" (the cells say
        # so, `custody_cells`), and this says why, as the daily report does.
        "closers_not_known": published.closers_not_known_statement(summary, site),
        "site": site,
        "law": law,
        "deposit_days": DEPOSIT_DAYS.on(site, day),  # the deposit deadline in force on the gaming date
        "no_deposit": no_deposit,
        # Nothing of the books on the date and no cash at the cage: the page says so once, rather than
        # "not known" a line, "not yet deposited" and "these figures may still change".
        "quiet_day": of_the_books is None
        and summary.cash.cash_profit_cents is None
        and summary.cash.deposit_recorded_cents is None,
        "deposit_late": no_deposit is None and summary.cash.deposit_late(today),
        # The day's deposit as it stands is the figure above; its corrections, each pointing back at
        # what it corrected with its reason (cage.services.correct_deposit): one query.
        "deposit_corrections": deposit_corrections([site.pk], day, day),
        # the pack's figures from the summary the page holds (its fees or sessions, the day's
        # adjusting entries to them counted in), not read a second time
        "pack": pack_block(site, summary.pack),
        # A session site's day: its sessions' receipts and prizes against the drop counted and the
        # tables' payout (the daily report's section of the day says the same); None elsewhere.
        "sessions_check": _sessions_check(site, day, summary),
        "session_check_title": published.SESSION_CHECK_TITLE,
        "session_check_rule": published.SESSION_CHECK,
        "day": day,
        # The day's daily report as a PDF in one click (reports.views.index, with this day as its
        # period), for who requests reports where the site's pack offers it.
        # Not for a gaming day that has not begun (its report would print a day still to come).
        "daily_report": day <= today and _offers_report(request.user, site, "daily"),
        "not_begun": day > today,
        "today": today,
        "previous": day - timedelta(days=1),
        "next": day + timedelta(days=1),
        # the dates in addresses and fields (the `date:'Y-m-d'` filter's), written once
        "day_iso": day.isoformat(),
        "previous_iso": (day - timedelta(days=1)).isoformat(),
        "next_iso": (day + timedelta(days=1)).isoformat(),
        "summary": summary,
        "books_check": published.day_checks([summary])[(site.pk, day)],
        # No slips where the house has no chips at its tables (a fees-only site: floor.rules.house_chips).
        "slips": _slip_rows(gaming_day) if chips_at_tables else None,
        # No count sessions where the site keeps no drop box (a fees-only site: counts.rules.keeps_drop_boxes).
        "count_sessions": _session_rows(site.pk, day) if keeps_drop_boxes(site) else None,
        # the dealer's page over this day, after each dealer's address (ints and a date: nothing to escape)
        # No dealer shifts where a player deals and banks the game (floor.rules.PLAYER_DEALER).
        "shifts": _shift_rows(
            shifts,
            mark_safe(f"?site={int(site.pk)}&start={day:%Y-%m-%d}&end={day:%Y-%m-%d}"),  # noqa: S308
            holds=law["holds"],  # a fees or session site's dealers have no hold (the dealer page says why)
            win=law["words"].net_short,
        )
        if house_dealers(site)
        else None,
        "gaming_day_opened": gaming_day is not None,
        # The books close on a day of the books, the quarter's own (accounting.summaries.day_of_the_books:
        # a gaming day, or records without one: an adjustment entered, tournament play, fees or
        # sessions; accounting.services.close_books): with none (a future date, a day the room was
        # closed) there is nothing to close, and no button is offered for it.
        "closable": of_the_books is not None,
        # A date of a filed quarter with nothing of the books on it: a record found later is an
        # adjusting entry, whose first closes its books (accounting.services.correct_date).
        "filed_quiet": _filed_quiet(site, summary) if of_the_books is None else None,
        **_books_without_a_gaming_day(site, summary, law, gaming_day is None and of_the_books is not None),
        "is_current_site": request.site is not None and request.site.pk == site.pk,
        "errors": errors,
        "can_close_books": access_for(request.user).has_role(site.pk, *CLOSE_ROLES),
        "can_adjust": access_for(request.user).has_role(site.pk, Role.GAMING_MANAGER),
        # What the adjusting entry's service takes at the site: a table's figures where the pack's
        # revenue is a drop; the fees collected or the sessions' receipts and prizes, and the cash,
        # where the day's figures are its fees or its sessions (none of them a table's).
        # An adjusting entry refused comes back here with what was typed and each field's refusal.
        **_adjust_refused(request, site, day),
        "adjustment_takes_table": TABLE_FIGURES[0] in adjustment_fields(site),
        "adjusts_tables": chips_at_tables,
        # The cash entries recorded this day count in its cash profit, which waits for the bank's counts.
        "cash_entries_cents": sum(a.amount_cents for a in summary.adjustments_recorded if a.field == CASH_FIGURE),
    }
    return render(request, "dashboard/daily.html", context, status=400 if errors else 200)


def _books_without_a_gaming_day(site, summary, law: dict, applies: bool) -> dict:
    """What a day of the books with no gaming day rests on (`books_rest_on`: its records, named) and
    what its close needs (`close_needs`): the fee cash counted where a fee stands, and the bank counted
    where the day had cash at the cage (accounting.services.cash_at_the_cage); a day whose only record
    is an adjustment, or whose fees or sessions were all voided, needs neither. Empty where a gaming
    day was opened (or nothing is recorded)."""
    if not applies:
        return {}
    records = bool(record_dates([site.pk], summary.gaming_date, summary.gaming_date))
    rests_on = [
        *([f"its {'fee' if law['fees'] else 'session'} records"] if records else []),
        *(["its tournament play"] if not summary.tournaments.is_empty else []),
        *(["the adjusting entries recorded on it"] if summary.adjustments_recorded else []),
    ]
    ends = moments.gaming_day_bounds(site, summary.gaming_date)[1]
    needs = [
        *(["the fee cash counted by two people"] if law["fees"] and published.fees_or_sessions(summary) else []),
        *([_bank_counted_for(summary)] if services.cash_at_the_cage(site, summary) else []),
        # its business day ended: the books of a day still running are refused (close_books)
        *([f"its business day ended ({moments.shown(site, ends)})"] if ends > timezone.now() else []),
    ]
    if needs:
        close_needs = f"Needs {' and '.join(needs)}."
    else:
        # no cash entry among them: one asks for the bank counted (`_bank_counted_for`)
        why = published.nothing_collected(summary, entries="adjusting entries to figures other than the cash")
        close_needs = f"Needs nothing more: no cash was at the cage ({why}), so no bank count is needed."
    return {"books_rest_on": " and ".join(rests_on) or "its records", "close_needs": close_needs}


def _filed_quiet(site, summary) -> str | None:
    """What the daily page says of a date with nothing of the books on it whose quarter is filed, its
    books not yet closed to take an adjusting entry; None elsewhere."""
    quarter = Quarter.containing(summary.gaming_date)
    if summary.books_closed or published.quarter_filing(site.pk, quarter) is None:
        return None
    return (
        f"{FILED_QUARTER}: the quarterly summary of {quarter} is filed with nothing recorded on this date, "
        "so nothing more is entered on it; a record of it found later is an adjusting entry recorded on a "
        "gaming day of a quarter not yet filed, which closes this date's books and shows beside the filed "
        "figures as an amendment."
    )


def _bank_counted_for(summary) -> str:
    """What a day of the books with no gaming day needs of the cage: the bank counted, and why where
    a cash entry asks for it (its cash profit, which the entry counts in, is known only counted)."""
    if any(a.field == CASH_FIGURE for a in summary.adjustments_recorded):
        return "the bank counted (the adjusting entry to the cash counts in this day's cash profit)"
    return "the bank counted"


def _text(value) -> str:
    """`value` as a template or format_html writes it: escaped unless it is already safe
    (django.utils.html.conditional_escape, without its per-call wrappers: these rows write
    hundreds of cells a page)."""
    if isinstance(value, str) and not hasattr(value, "__html__"):
        return html.escape(value)
    return conditional_escape(value)


def custody_cells(c, gross: bool = True, *, hold: bool = True) -> str:
    """The nine figure cells of a custody row (drop to hold), as dashboard/_custody_cells.html
    writes them: formatted once in Python. Money and ratios are digits, signs and `$,.%` (or a
    dash, "n/a"): nothing in them to escape. Without `gross` eight: where the pack's words name
    the drop as the drop (`packs.RevenueWords`), there is no gross proceeds column beside it.
    Without `hold` the hold cell is a dash: an adjusting entry's row corrects an earlier day's
    figure, and its win over its drop is no percentage of hold of anything."""
    figures = (c.drop_cents, c.fills_cents, c.credits_cents, c.opener_cents)
    figures += (c.closer_cents, c.gross_proceeds_cents) if gross else (c.closer_cents,)
    cells = [f'<td class="text-end">{format_money(cents)}</td>' for cents in figures]
    if not c.closer_known:  # a table in play has no closer yet: not $0.00, so no prizes, AGP nor hold yet
        cells[4] = NOT_KNOWN_CELL
        return mark_safe("".join([*cells, NOT_KNOWN_CELL, NOT_KNOWN_CELL, NOT_KNOWN_CELL]))  # noqa: S308 - as below
    cells.append(f'<td class="text-end">{format_money(c.prizes_cents)}</td>')
    danger = " text-danger" if c.agp_cents < 0 else ""
    cells.append(f'<td class="text-end{danger}">{format_money(c.agp_cents)}</td>')
    cells.append(f'<td class="text-end">{format_ratio(c.hold_ratio) if hold else "—"}</td>')
    return mark_safe("".join(cells))  # noqa: S308 - money and ratios only


# A figure that needs a closer not recorded yet (`Custody.closer_known`; House control: the tray
# counts, floor.rules.TRAY_COUNT): "not known", as the Cash section says of a bank not counted.
NOT_KNOWN_CELL = '<td class="text-end text-muted not-known">not known</td>'


def _table_rows(tables, open_slips: dict, gross: bool = True, *, site) -> str:
    """The rows of #tables (each table's figures and status), escaped, written once in Python:
    what the template's loop wrote, to the character ("" without tables). The game is named as the
    site's pack asks (`floor.rules.game_column`: "21" in North Dakota, "Blackjack" elsewhere)."""
    rows = []
    for t in tables:
        slips = open_slips.get(t.table_number, [])
        status = ""
        if slips:
            title = "".join(f"{_text(i.description)}. " for i in slips)
            plural = "" if len(slips) == 1 else "s"
            status = f'<span class="badge text-bg-danger" title="{title}">{len(slips)} open slip{plural}</span> '
        if t.complete and not slips:
            status += "complete"
        elif not t.complete:
            status += "".join(
                badge
                for missing, badge in (
                    (not t.counted, '<span class="badge text-bg-warning">drop not counted</span> '),
                    (not t.opener_recorded, '<span class="badge text-bg-warning">no opener</span> '),
                    (not t.closer_recorded, '<span class="badge text-bg-warning">no closer</span>'),
                )
                if missing
            )
        number = _text(t.table_number)
        rows.append(
            f'\n    <tr data-table="{number}"><td>{number}</td><td>{_text(game_column(site, t.game))}</td>{custody_cells(t.custody, gross)}'
            f"\n      <td>{status}</td></tr>\n  "
        )
    return mark_safe("".join(rows))  # noqa: S308 - every value went through _text


def _addresses(url_name: str, **kwargs):
    """`address(pk)`: the URL of `url_name` for each pk, reversed once per process and script
    prefix (not once a row, nor once a page)."""
    head, tail = _address_pattern(get_script_prefix(), get_urlconf(), url_name, tuple(sorted(kwargs.items())))
    return lambda pk: f"{head}{int(pk)}{tail}"


@lru_cache(maxsize=64)
def _address_pattern(prefix: str, urlconf, url_name: str, kwargs: tuple) -> tuple[str, str]:
    marker = 987_654_321
    pattern = reverse(url_name, urlconf=urlconf, kwargs={**dict(kwargs), "pk": marker})  # under `prefix`
    return tuple(pattern.split(str(marker)))


def _settings_changed(*, setting, **kwargs) -> None:
    if setting in ("ROOT_URLCONF", "FORCE_SCRIPT_NAME"):
        _address_pattern.cache_clear()


setting_changed.connect(_settings_changed)


def _day_slips_query(day_id: int):
    # By the gaming day's index: by the site's, SQLite read every slip the site ever wrote.
    voided = SlipStep.objects.filter(slip=OuterRef("pk"), kind=SlipStep.Kind.VOID)
    return (
        Slip.objects.filter(gaming_day_id=day_id)
        .annotate(voided=Exists(voided))
        .order_by("kind", "number")
        .values_list("pk", "kind", "number", "table_number", "total_cents", "voided", "site_id")
    )


def _slip_rows(gaming_day) -> str:
    """The day's slips as the page lists them (the `<li>`s of #slips, escaped): values only, by
    SQL compiled once (core.rows), each row written once in Python rather than by the template."""
    address = _addresses("floor:slip")
    rows = [] if gaming_day is None else shaped_rows(_day_slips_query, day_id=gaming_day.pk)
    rows = [row[:-1] for row in rows if row[-1] == gaming_day.site_id]  # the site's own, as ever
    if not rows:
        return mark_safe("<li>No slips.</li>")  # noqa: S308 - a constant
    kinds = {kind: _text(SlipKind(kind).label) for kind in {row[1] for row in rows}}
    void = ' <span class="badge text-bg-secondary">void</span>'
    return mark_safe(  # noqa: S308 - every value went through _text
        "".join(
            f'<li><a href="{_text(address(pk))}">{kinds[kind]} {_text(number)}</a> · table {_text(table_number)} · '
            f"{_text(format_money(total_cents))}{void if voided else ''}</li>"
            for pk, kind, number, table_number, total_cents, voided in rows
        )
    )


def _day_sessions_query(site_id: int, day: date):
    return CountSession.objects.filter(site_id=site_id, gaming_date=day).order_by("pk").values_list("pk", "gaming_date")


def _session_rows(site_id: int, day: date) -> str:
    """The day's count sessions (the `<li>`s of #counts, escaped), each written once in Python."""
    address = _addresses("counts:session")
    rows = shaped_rows(_day_sessions_query, site_id=site_id, day=day)
    if not rows:
        return mark_safe("<li>No count session.</li>")  # noqa: S308 - a constant
    return mark_safe(  # noqa: S308 - every value went through _text
        "".join(
            f'<li><a href="{_text(address(pk))}">Count session {_text(localize(pk))}</a> ({_text(localize(gaming_date))})</li>'
            for pk, gaming_date in rows
        )
    )


def _clock(moment, zone) -> str:
    """H:i in `zone` (the active one: the site's), as the template's `time` filter writes it."""
    return timezone.localtime(moment, zone).strftime("%H:%M") if moment else ""


def _shift_rows(shifts, dealer_query: str, *, win: str, holds: bool = True) -> str:
    """The day's dealer shifts (the `<li>`s of #shifts, escaped), each written once in Python;
    each with its win (`win`: its name in the site's pack's words) and hold only where the site's
    revenue is a drop (`holds`)."""
    if not shifts:
        return mark_safe("<li>No dealer shifts recorded.</li>")  # noqa: S308 - a constant
    address = _addresses("dashboard:dealer")
    query, zone = _text(dealer_query), timezone.get_current_timezone()  # the zone looked up once, not a row
    rows = []
    for s in shifts:
        if not holds:
            figures = ""
        elif s.custody:
            figures = f"{win} {_text(format_money(s.custody.agp_cents))}, hold {_text(format_ratio(s.hold_ratio))}"
        else:
            figures = f"not separable because {_text(s.not_separable_because)}"
        started, ended = _text(_clock(s.started_at, zone)), _text(_clock(s.ended_at, zone) or "open")
        # The dealer's percent-of-hold page only where the site has one (its revenue a drop).
        name = (
            f'<a href="{_text(address(s.dealer_id))}{query}">{_text(s.dealer_name)}</a>'
            if holds
            else _text(s.dealer_name)
        )
        rows.append(
            f"<li>{name} · table {_text(s.table_number)} · {started}–{ended}{f' · {figures}' if figures else ''}</li>"
        )
    return mark_safe("".join(rows))  # noqa: S308 - every value went through _text


def _day_items(gaming_day) -> dict:
    """The day's open items (floor.open_items: slips not verified or received, tables without
    closer, boxes not removed or counted) and those carried past its close with their reasons.
    A table with an open slip is not complete (its slips are not all received)."""
    if gaming_day is None:
        return {"open_items": [], "carried": [], "open_slips": {}}
    carried = carried_items([gaming_day.site_id], gaming_day.gaming_date, gaming_day.gaming_date)
    carried_keys = {c.key for c in carried}
    every = open_items(gaming_day)
    found = [item for item in every if item.key not in carried_keys]
    open_slips: dict = {}
    for item in every:  # the slips' items, carried or not (floor.open_items.slip_items)
        if item.kind in SLIP_KINDS:
            open_slips.setdefault(item.table_number, []).append(item)
    return {"open_items": found, "carried": carried, "open_slips": open_slips}


CLOSE_ROLES = tuple(BOOKS_CLOSERS)  # who may close the books: accounting's rule, shown on the page


def _options(choices, selected: str | None = None) -> str:
    options = "".join(
        f'<option value="{_text(value)}"{" selected" if value == selected else ""}>{_text(label)}</option>'
        for value, label in choices
    )
    return mark_safe(options)  # noqa: S308 - every value went through _text


def _adjustment_options(site, selected: str | None = None) -> str:
    """The adjusting entry's figures the site takes, as the form's <option>s
    (accounting.rules.adjustment_fields: a drop site's table figures, a fees site's fees, a session
    site's receipts and prizes, and the cash), `selected` chosen."""
    fields = adjustment_fields(site)
    return _options((c for c in published.ADJUSTMENT_FIELDS if c[0] in fields), selected)


ADJUST_REFUSED = "dashboard.adjust_refused"  # the session's key for a refused adjusting entry
ADJUST_FIELDS = ("field", "table_number", "amount", "recorded_on", "reason")


def _adjust_refused(request, site, day) -> dict:
    """The adjusting entry refused on `day`'s page (kept in the session by `books` across its
    redirect, read once): what was typed and each field's refusal, and the figures' options with
    the one typed chosen."""
    kept = request.session.pop(ADJUST_REFUSED, None)  # marks the session changed only when it was there
    if not kept or kept.get("date") != day.isoformat():
        kept = {"values": {}, "errors": {}}
    return {
        "adjust_values": kept["values"],
        "adjust_errors": kept["errors"],
        "adjustment_options": _adjustment_options(site, kept["values"].get("field")),
    }


@login_required
@require_POST
def books(request, what):
    """Close a day's books, or record an adjusting entry to closed books, through the services;
    a refusal comes back on the daily page with the rule it cites."""
    site = figure_site(request, DAILY_FIGURES)
    day = _date(request.POST.get("date"), None, {}, "date")
    if day is None:
        raise Http404("No such gaming date.")
    back = f"{reverse('dashboard:daily')}?site={site.pk}&date={day:%Y-%m-%d}"
    refusal = False
    try:
        if what == "close":
            services.close_books(acting_user=request.user, site=site, gaming_date=day)
            messages.success(request, f"The books of {day} are closed.")
        elif what == "adjust":
            _adjust(request, site, day)
            messages.success(request, "The adjusting entry is recorded.")
        else:
            raise Http404("Nothing to do here.")
    except ValidationError as exc:
        refusal = True
        messages.error(request, refusal_text(exc))
        if what == "adjust":  # the form comes back filled in, each refused field marked
            fields = exc.message_dict if hasattr(exc, "error_dict") else {}
            request.session[ADJUST_REFUSED] = {
                "date": day.isoformat(),
                "values": {name: request.POST.get(name, "")[: limits.MAX_TEXT_LENGTH] for name in ADJUST_FIELDS},
                "errors": {name: " ".join(fields[name]) for name in ADJUST_FIELDS if name in fields},
            }
    return form_tokens.refused(redirect(back)) if refusal else redirect(back)


def _adjust(request, site, day) -> None:
    closed = published.closed_books_of(site, day)
    rule = CLOSED_BOOKS  # an adjusting entry corrects a closed day (accounting.services.record_adjustment)
    number = (request.POST.get("table_number") or "").strip()
    table = site.tables.filter(number=int(number)).first() if limits.digits(number) and len(number) < 10 else None
    if number and table is None:
        raise ValidationError(
            {"table_number": f"{rule}: no table {number if limits.digits(number) else limits.shown(number)} at {site}."}
        )
    try:
        amount = decimal_to_cents(request.POST.get("amount", ""))
    except ValueError as exc:
        raise ValidationError({"amount": f"{rule}: enter an amount in dollars and cents ({exc})."}) from exc
    recorded_on = _date(request.POST.get("recorded_on"), None, {}, "recorded_on")
    if recorded_on is None:
        raise ValidationError({"recorded_on": f"{rule}: give the gaming date the entry is recorded on (YYYY-MM-DD)."})
    entry = {
        "table": table,
        "field": request.POST.get("field", ""),
        "amount_cents": amount,
        "reason": request.POST.get("reason", ""),
        "recorded_on": recorded_on,
    }
    if closed is not None:
        services.record_adjustment(acting_user=request.user, books_close=closed, **entry)
    else:  # a date of a filed quarter with nothing recorded on it, or refused with its rule
        services.correct_date(acting_user=request.user, site=site, corrected_date=day, **entry)


@login_required
def quarter(request):
    site = figure_site(request, QUARTER_FIGURES)
    show_site(request, site)
    errors = {}
    today = site_today(site)
    chosen = Quarter.containing(today)
    if request.GET.get("quarter"):
        try:
            chosen = Quarter.parse(request.GET["quarter"])
        except ValidationError as exc:
            # shown as the other pages show a bad date: the field, then its message (not a list)
            errors = {field: " ".join(messages) for field, messages in exc.message_dict.items()}
    access = access_for(request.user)
    # The organization's tax needs every site's quarter; the site's own is among them.
    every_site = published.organization_quarter(site.organization, chosen, snapshots=True) if access.org_roles else None
    summary = (
        next(s for s in every_site if s.site_id == site.pk)
        if every_site
        else published.quarter_summary(site, chosen, snapshots=True)
    )
    found = published.filings([s.site_id for s in every_site] if every_site else [site.pk], [chosen])
    state = published.quarter_books(summary, found.get((site.pk, str(chosen))), site.time_zone)
    # The gaming tax only where the site's pack states it (ND's N.D.C.C. 53-06.1-12): another state's
    # site shows neither the tax nor the other games' AGP it is computed with.
    taxed = every_site and GAMING_TAX.applies(site)
    tax = published.tax_return(site.organization, chosen, every_site, found) if taxed else None
    context = {
        "law": site_law(site),
        "allocation": bank_allocation(summary, site),
        "games": summary_game_lines(summary, chosen.end, where=site),  # the games the pack deals
        "low_hold_review": published.low_hold_review(site, chosen.end),  # the report's words under them
        "other_games": list(published.other_games_history(site.organization_id, chosen)) if tax else [],
        "can_record_other_games": access.is_gaming_manager and tax is not None,
        "tax_label": tax_label(tax.figures) if tax else "",
        "tax_pack": pack_for(tax.figures.pack_code) if tax else None,  # the pack whose law levies the tax
        "site": site,
        "pack": pack_block(site, summary.pack),  # the quarter's own, as the quarterly report's
        "quarter": chosen,
        "previous": chosen.previous(),
        # No link on to a quarter that has not begun at the site (its page would be empty, its report refused).
        "next": chosen.next() if chosen.next().start <= today else None,
        "summary": summary,
        "books": state,
        "receipt": receipt_statement(state.filing, site),
        "state_amendments": amendment_statements(state.filing, site),
        "filed_rows": published.in_pack_words(
            published.filed_beside_now(summary, state, _filed_tax(found.get((site.pk, str(chosen)))), tax), site
        ),
        "filed_note": published.filed_beside_now_note(taxed=tax is not None),  # under them, as the report says
        "tax": tax.figures if tax else None,
        "tax_return": tax,
        # A day's row is its tables'; the tournaments' days, and where they are counted, under them.
        "tournament_days": published.tournament_days_statement(summary, site, taxed=tax is not None),
        # How many gaming days, as the PDF heads its days: a date with records only is named apart.
        "gaming_days": published.gaming_days_statement(summary, site),
        # The days still in play: on their rows, not in the totals until their gaming day closes.
        "in_play": published.in_play_statement(summary),
        # Nothing played in the quarter (a seasonal site out of its season): $0.00, never "not known".
        "nothing_played": published.nothing_played_statement(
            summary, seasonal=summary.nothing_played and published.seasonal_in(site, chosen)
        ),
        # The days that took cash without both bank counts, citing the count's rule at the site.
        "no_bank_count": published.no_bank_count_statement(summary, site),
        "cash_profit_cents": published.return_cash_profit(summary, summary.cash_profit_cents),
        "long_short_cents": published.return_cash_profit(summary, summary.long_short_cents),
        # The house's chips go to the tables (floor.rules.house_chips): where the revenue is not a drop
        # (a session site) its cash is their custody all the same, reconciled with their win.
        "adjusts_tables": house_chips(site),
        "chips_outside_change_cents": published.return_cash_profit(summary, summary.chips_outside_change_cents),
        "unexplained_cents": published.return_cash_profit(summary, summary.unexplained_cents),
        # The quarter's report (PDF, CSV, XLSX) in one click, as the daily page offers its day's, for a
        # quarter begun (a report of days not begun is refused: reports.services.request_report).
        "quarterly_report": chosen.start <= site_today(site) and _offers_report(request.user, site, "quarterly"),
        "can_file": state.filing is None
        and chosen.end < site_today(site)
        and access.has_role(site.pk, *QUARTER_FILERS),
        "errors": errors,
    }
    return render(request, "dashboard/quarter.html", context, status=400 if errors else 200)


def _filed_tax(filing) -> dict | None:
    """The tax a filing froze (its figures' "tax"), or None."""
    return filing.figures.get("tax") if filing is not None else None


@login_required
@require_POST
def other_games(request):
    """Record (or correct) the AGP of the organization's other games for a quarter through the
    service (N.D.C.C. 53-06.1-12); a refusal comes back on the quarter page with its rule."""
    site = figure_site(request, QUARTER_FIGURES)
    raw_quarter = request.POST.get("quarter", "")
    back = f"{reverse('dashboard:quarter')}?site={site.pk}&quarter={raw_quarter}"
    try:
        if not GAMING_TAX.applies(site):  # the page offers the form only where the site's pack levies the tax
            raise ValidationError(
                {"quarter": f"{HOUSE_CONTROL}: {site}'s rules levy no tax on the organization's other games; "
                 "nothing is recorded here."}
            )  # fmt: skip
        chosen = Quarter.parse(raw_quarter)
        try:
            amount = decimal_to_cents(request.POST.get("amount", ""))
        except ValueError as exc:
            raise ValidationError(
                {"amount": f"{GAMING_TAX.at(site)}: enter the AGP in dollars and cents ({exc})."}
            ) from exc
        standing = published.other_games_agp(site.organization_id, chosen)
        corrects = standing if request.POST.get("correct") and standing is not None else None
        services.record_other_games_agp(
            acting_user=request.user,
            organization=site.organization,
            quarter=chosen,
            agp_cents=amount,
            note=request.POST.get("note", ""),
            corrects=corrects,
        )
        messages.success(request, f"The other games' AGP of {chosen} is recorded.")
    except ValidationError as exc:
        messages.error(request, " ".join(m for ms in exc.message_dict.values() for m in ms))
        return form_tokens.refused(redirect(back))
    return redirect(back)


@login_required
@require_POST
def file_quarter(request):
    """Mark the site's quarterly summary filed through the service; a refusal comes back on the
    quarter page with the rule it cites."""
    site = figure_site(request, QUARTER_FIGURES)
    back = f"{reverse('dashboard:quarter')}?site={site.pk}&quarter={request.POST.get('quarter', '')}"
    try:
        chosen = Quarter.parse(request.POST.get("quarter", ""))
        services.file_quarter(
            acting_user=request.user, site=site, quarter=chosen, reference=request.POST.get("reference", "")
        )
        messages.success(request, f"The quarterly summary of {chosen} is filed; its figures are frozen.")
    except ValidationError as exc:
        messages.error(request, " ".join(m for ms in exc.message_dict.values() for m in ms))
        return form_tokens.refused(redirect(back))
    return redirect(back)


def _period(request, site) -> tuple[date, date, dict]:
    """The period asked for; by default the last 12 weeks up to today."""
    errors: dict = {}
    end = _date(request.GET.get("end"), site_today(site), errors, "end")
    start = _date(request.GET.get("start"), end - timedelta(weeks=DEALER_WEEKS) + timedelta(days=1), errors, "start")
    if end < start:
        errors["end"] = f"The end ({end}) is before the start ({start})."
    return start, end, errors


def _game(request, law: dict) -> str:
    """21: dealers' twenty-one shifts (the default); PW: wheel operators' paddlewheel shifts (08-04(8)),
    where the site's pack deals paddlewheels (a Washington room has no wheel operators)."""
    return "PW" if request.GET.get("game") == "PW" and law["deals_paddlewheel"] else "21"


# What having no hold means on each page that says so (`no_hold`); {hold}: the ratio in the words
# of the site's pack (packs.RevenueWords.hold_name).
NO_DEALER_HOLD = "so no dealer has a {hold} here"
NO_HOLD_CHARTS = "so it has no {hold} by table or dealer to chart (its own figures are below)"


def no_hold(site, consequence: str) -> str | None:
    """Why `site` has no percent-of-hold, then `consequence` (NO_DEALER_HOLD on the dealer pages,
    NO_HOLD_CHARTS on the dashboard), worded once for them all; None where its revenue is a drop.
    A fees pack's rule says its revenue is its fees (WAC 230-40-125(1)); a session pack's only
    sets the game (9 NYCRR 4620.5), its record a session at a time a house control, said so."""
    pack = pack_for(site)
    model = pack.revenue_model
    if model == RevenueModel.DROP:
        return None
    consequence = consequence.format(hold=pack.revenue_words.hold_name)
    if model == RevenueModel.FEES:
        return f"{TABLE_FEES.at(site)}: the revenue of {site.name} is not a drop, {consequence}."
    return (
        f"The revenue of {site.name} is its games-of-chance sessions, not a drop "
        f"({published.session_basis(SESSION_GAME.at(site))}), {consequence}."
    )


@login_required
def dealers(request):
    site = figure_site(request, DEALER_FIGURES)
    show_site(request, site)
    start, end, errors = _period(request, site)
    law = site_law(site)
    game = _game(request, law)
    # Percent-of-hold is a drop-based house's figure: a fees or session pack's site has none. Each
    # dealer's totals (the number of shifts, not each shift's figures: the dealer's own page has those).
    holds = not errors and law["holds"]
    found = published.dealer_totals([site.pk], start, end, (game,))[game].dealers if holds else []
    context = {
        "site": site,
        "law": law,
        "no_hold": no_hold(site, NO_DEALER_HOLD),
        "start": start,
        "end": end,
        "game": game,
        "dealers": found,
        "site_total": found[0].site_total if found else None,
        "errors": errors,
    }
    return render(request, "dashboard/dealers.html", context, status=400 if errors else 200)


@login_required
def dealer(request, pk):
    site = figure_site(request, DEALER_FIGURES)
    show_site(request, site)
    employee = get_object_or_404(visible_employees(access_for(request.user)).select_related("user"), pk=pk)
    start, end, errors = _period(request, site)
    law = site_law(site)
    game = _game(request, law)
    # As the dealers page: a site whose revenue is not a drop has no hold, a dealer's nor its own.
    found = (
        []
        if errors or not law["holds"]
        else published.dealer_summaries([site.pk], start, end, dealer_ids=[employee.pk], game=game)
    )
    context = {
        "game": game,
        "site": site,
        "law": law,
        "no_hold": no_hold(site, NO_DEALER_HOLD),
        "employee": employee,
        "start": start,
        "end": end,
        "summary": found[0] if found else None,
        "errors": errors,
    }
    return render(request, "dashboard/dealer.html", context, status=400 if errors else 200)


def _dashboard_access(request):
    access = access_for(request.user)
    visible = sorted(request.visible_sites, key=lambda s: (s.name, s.pk))  # the user's sites (middleware)
    sites = [s for s in visible if access.has_role(s.pk, *DASHBOARD_ROLES)]
    if not sites:
        raise PermissionDenied(refusal(HOUSE_CONTROL, DASHBOARD_ROLES, "see the auditor dashboard"))
    return access, sites


def _detail_site(request, sites):
    chosen = request.GET.get("site")
    if chosen:
        found = [s for s in sites if str(s.pk) == chosen]
        if not found:
            raise Http404("No such site among yours.")
        return found[0]
    current = request.site
    return next((s for s in sites if current is not None and s.pk == current.pk), sites[0])


@login_required
def overview(request):
    access, sites = _dashboard_access(request)
    site = _detail_site(request, sites)
    show_site(request, site)
    today = site_today(site)
    # The alerts of every site the user sees (the middleware's list) where ALERTS lets them read,
    # not resolved, as values in one query (issue 37); the exceptions are those of the slip and
    # count rules among them.
    named = {s.pk: s for s in request.visible_sites}
    today_at = {pk: s.today() for pk, s in named.items() if ALERTS.allows(access, pk)}  # each site's own date
    pending = open_alerts(today_at)
    exceptions = sorted(
        (a for a in pending if a.rule.startswith(EXCEPTION_PREFIXES)),
        key=lambda a: (-a.period_end.toordinal(), a.rule, a.pk),  # the latest first; ties in the order written
    )[:EXCEPTIONS_SHOWN]
    weeks = trends.weeks_ending(today)
    law = site_law(site)
    overdue = [a for a in pending if a.due_date and a.due_date < today_at[a.site_id]]
    daily_url = reverse("dashboard:daily")
    carried = carried_items([s.pk for s in sites], weeks[0].start, today, latest=CARRIED_SHOWN, since=False)
    rows = _AlertRows(named, _addresses("compliance:alert"), daily_url)
    context = {
        "site": site,
        "law": law,
        # A fees or session pack's own figures over the weeks shown, instead of its hold.
        "pack": None if law["holds"] else pack_figures(site, weeks[0].start, today),
        "no_hold": no_hold(site, NO_HOLD_CHARTS),
        # The chart by site charts the sites with a hold (`overview_data`): none of the user's, no chart.
        "any_holds": any(_holds(s) for s in sites),
        "sites": sites,
        "today": today,
        "weeks": weeks,
        "overdue": overdue,
        "open_alerts": pending,
        "exceptions": exceptions,
        # Each list's rows written once in Python (issue 37), as the template's loops wrote them.
        "overdue_rows": rows.overdue(overdue[:ROWS_SHOWN]),
        "open_rows": rows.open(pending[:ROWS_SHOWN]),
        "exception_rows": rows.exceptions(exceptions, carried),
        "daily_url": daily_url,
        "unusual_rows": fragments.cached_fragment(
            "unusual-table-days",
            site_id=site.pk,
            token=published.site_versions([site.pk])[site.pk],
            day=today,
            template="dashboard/_unusual_rows.html",
            build=lambda: {"site_id": site.pk, "unusual": trends.unusual_table_days(site, weeks[0].start, today)},
        ),
        # Open items carried past a gaming day's close, with their reasons (floor.open_items): the
        # latest first, as values.
        "carried": carried,
    }
    return render(request, "dashboard/overview.html", context)


class _AlertRows:
    """The dashboard's alert and carried-item rows, escaped, written once in Python: what the
    template's loops wrote, to the character (a date as the template writes one, `date_format`)."""

    def __init__(self, sites: dict, address, daily_url: str):
        self.sites, self.address, self.daily_url = sites, address, _text(daily_url)
        self.dates: dict = {}

    def _date(self, day) -> str:
        text = self.dates.get(day)
        if text is None:
            text = self.dates[day] = _text(date_format(day))
        return text

    def _link(self, a) -> str:
        return f'<a href="{_text(self.address(a.pk))}">{_text(a.title)}</a>'

    def _daily(self, site_id, day) -> str:
        return f'<a href="{self.daily_url}?site={_text(site_id)}&date={day:%Y-%m-%d}">daily summary</a>'

    @staticmethod
    def _rows(alerts, empty: str, row) -> str:
        """`row(alert)` for each alert (each value in it through _text), or one row saying `empty`."""
        if not alerts:
            return mark_safe(f'<tr><td colspan="4">{empty}</td></tr>')  # noqa: S308 - a constant of this class
        return mark_safe("".join(row(a) for a in alerts))  # noqa: S308 - every value went through _text

    def overdue(self, alerts) -> str:
        return self._rows(alerts, "Nothing overdue.", lambda a: (
            f'<tr><td class="text-danger">{self._date(a.due_date)}</td><td>{_text(self.sites[a.site_id].name)}</td>'
            f'<td>{self._link(a)}</td><td class="small">{_text(a.citation)}</td></tr>'
        ))  # fmt: skip

    def open(self, alerts) -> str:
        return self._rows(alerts, "No open alerts.", lambda a: (
            f"<tr><td>{self._date(a.due_date) if a.due_date else '—'}</td>"
            f"<td>{_text(self.sites[a.site_id].name)}</td><td>{self._link(a)}</td><td>{_text(period_of(a))}</td></tr>"
        ))  # fmt: skip

    def exceptions(self, alerts, carried) -> str:
        rows = [
            f'<tr data-rule="{_text(a.rule)}"><td>{self._date(a.period_end)}</td><td>{_text(self.sites[a.site_id].name)}</td>'
            f"<td>{self._link(a)}{f' · {_text(a.subject)}' if a.subject else ''}</td>"
            f"<td>{self._daily(a.site_id, a.period_end)}</td></tr>"
            for a in alerts
        ]
        rows.append("\n      ")
        rows.extend(
            f'<tr data-rule="carried" data-key="{_text(c.key)}"><td>{self._date(c.gaming_date)}</td>'
            f'<td>{_text(c.site_name)}</td><td><span class="badge text-bg-warning">Carried at close</span> '
            f'{_text(c.statement)} <span class="small text-muted">({_text(c.citation)})</span> · '
            f"{_text(c.carried_by_initials)}: {_text(c.reason)}</td><td>{self._daily(c.site_id, c.gaming_date)}</td></tr>"
            for c in carried
        )
        rows.append("\n      ")
        if not alerts and not carried:
            rows.append('<tr><td colspan="4">No open slip or count exceptions.</td></tr>')
        return mark_safe("".join(rows))  # noqa: S308 - every value went through _text


@login_required
def overview_data(request):
    """The charts' data: weekly hold by site for every site of the user's, and by table and
    by dealer at one site (`?site=`, by default the current site)."""
    _, sites = _dashboard_access(request)
    site = _detail_site(request, sites)
    today = site_today(site)
    # Hold is a drop-based pack's figure: a fees (WA-BJ) or session (NY) site has no hold to chart.
    holding = [s for s in sites if _holds(s)]
    detail = trends.site_detail_trends(site, today) if _holds(site) else {"tables": [], "dealers": []}
    return JsonResponse({**trends.site_trends(holding, today), **detail})


def _holds(site) -> bool:
    return pack_for(site).revenue_model == RevenueModel.DROP


@login_required
def audit_log(request):
    """The audit log of the reader's organization (`AUDIT_LOG`), newest first, a page at a time;
    a filter that cannot be read is named above the list and ignored (answered 400)."""
    access = access_for(request.user)
    sites = list(AUDIT_LOG.sites(access).order_by("name", "pk"))
    if not sites and not AUDIT_LOG.allows(access, None):
        raise PermissionDenied(AUDIT_LOG.refusal())
    employees = list(audit.people(access))
    filters, errors = audit.parse_filters(request.GET, sites, employees)
    page = audit.page_of(audit.events(access, sites, filters), request.GET)
    shared_zone = audit.shared_zone(sites)  # once a page, not once a row
    named = audit.names_on(page.events, sites, employees)  # a stored id as its record: a query a kind
    kept = request.GET.copy()
    for place in ("older", "newer", "page"):
        kept.pop(place, None)
    context = {
        "sites": sites,
        "employees": employees,
        "filters": filters,
        "errors": errors,
        "page": page,
        # An event of no site (a signed row's own, written by the database) in the sites' local
        # time where they share one zone, as the rows beside it, else in UTC.
        "rows": [audit.row(event, zone_of=shared_zone, named=named) for event in page.events],
        "shared_zone": shared_zone,
        "query": kept.urlencode(),
    }
    return render(request, "dashboard/audit.html", context, status=400 if errors else 200)
