"""How an alert reads to a person: its figures with human labels and formatted values, the
table it concerns and its period. One map of figure keys, used by the pages and the e-mails;
tests/compliance/test_figure_labels.py checks that every key a rule emits is in it."""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal, InvalidOperation

from core.moments import shown
from core.money import format_money, format_ratio
from core.periods import Quarter


def _money(value) -> str:
    if isinstance(value, list):
        return ", ".join(_money(v) for v in value)
    if value is None:
        return "\u2014"
    return format_money(int(Decimal(str(value))))  # an average may be stored as a decimal string


def _ratio(value) -> str:
    if value is None:
        return "n/a (no gross proceeds)"
    try:
        return format_ratio(Decimal(str(value)))
    except InvalidOperation:
        return str(value)


def _count(value) -> str:
    if isinstance(value, list):
        return ", ".join(_count(v) for v in value)
    return f"{int(value):,}"


def _signed_count(value) -> str:
    return f"{int(value):,}".replace("-", "\u2212")


def _minutes(value) -> str:
    minutes = int(value)
    return "1 minute" if minutes == 1 else f"{minutes:,} minutes"


def _day(value) -> str:
    if value in (None, ""):
        return "not recorded"
    return date.fromisoformat(str(value)).isoformat()


def _yes_no(value) -> str:
    return "yes" if value else "no"


def _text(value) -> str:
    if isinstance(value, list):
        return "; ".join(str(v) for v in value)
    return "\u2014" if value in (None, "") else str(value)


def _spans(value) -> str:
    """[[start, end], ...] as ISO datetimes -> '20:05-20:40 UTC, ...' (times as recorded)."""
    parts = []
    for start, end in value:
        a, b = datetime.fromisoformat(start), datetime.fromisoformat(end)
        parts.append(f"{a:%Y-%m-%d %H:%M}\u2013{b:%H:%M} {a.tzname() or ''}".rstrip())
    return ", ".join(parts) or "\u2014"


def _shown_moment(value, site=None) -> str:
    """An ISO moment -> '2026-11-20 20:30 CST': at the alert's site's time, as its text says it
    (`core.moments.shown`), else as recorded."""
    at = datetime.fromisoformat(str(value))
    return shown(site, at) if site is not None else f"{at:%Y-%m-%d %H:%M} {at.tzname() or ''}".rstrip()


def _reference(value) -> str:
    return f"#{value}"


@dataclass(frozen=True)
class Figure:
    label: str
    format: Callable[..., str]
    zoned: bool = False  # `format` takes the alert's site too (a moment, shown at its time)


# Every figure key a rule emits (compliance.rules, compliance.providers), its label and format.
FIGURES: dict[str, Figure] = {
    "gross_proceeds_cents": Figure("Gross proceeds", _money),
    "prizes_cents": Figure("Prizes", _money),
    "agp_cents": Figure("Adjusted gross proceeds", _money),
    "hold_ratio": Figure("Hold", _ratio),
    "threshold_ratio": Figure("Threshold", _ratio),
    "dealer_hold_from": Figure("Dealer hold records from", _day),
    "dealer_hold_until": Figure("Dealer hold records until", _day),
    "shift_id": Figure("Dealer shift", _reference),
    "quarters": Figure("Quarters", _text),
    "average_cents": Figure("Average gross proceeds per quarter", _money),
    "max_wager_cents": Figure("Maximum wager", _money),
    "seasonal": Figure("Seasonal site", _yes_no),
    "outage_id": Figure("Outage", _reference),
    "max_wager_after_deadline_cents": Figure("Maximum wager after the deadline", _money),
    "table": Figure("Table", _count),
    "tables": Figure("Tables", _count),
    "series": Figure("Slip series", _text),
    "number": Figure("Slip number", _count),
    "box": Figure("Drop box", _text),
    "due": Figure("Due by", _day),
    "deposited_on": Figure("Deposited on", _day),
    "change_id": Figure("Equipment change", _reference),
    "submitted_on": Figure("Sample sent on", _day),
    "evaluated_on": Figure("Found not satisfactory on", _day),
    "event_start": Figure("Special event began", _day),
    "day": Figure("Day used", _day),
    "gaps": Figure("Not recorded", _spans),
    "minutes": Figure("Minutes not recorded", _minutes),
    "problems": Figure("Problems", _text),
    "trigger": Figure("Why the specification applies", _text),
    "chips": Figure("Active chips with no marking", _text),
    "discontinued_on": Figure("Twenty-one discontinued on", _day),
    "redeem_until": Figure("Chips redeemable through", _day),
    "dealer": Figure("Dealer", _reference),
    "dealer_name": Figure("Dealer", _text),
    "declared": Figure("Tips declared", _yes_no),
    "unredeemed_cents": Figure("Unredeemed tips", _money),
    "checked_at": Figure("Checked at", _text),
    "task": Figure("Review task", _reference),
    "reviewed_minutes": Figure("Video reviewed", _minutes),
    "value_cents": Figure("Chip", _money),
    "exist": Figure("Chips that exist (inventory log)", _count),
    "bank": Figure("In the banks (last counts)", _count),
    "trays": Figure("In the trays (last counts)", _count),
    "outstanding": Figure("Outstanding (exist - banks - trays)", _signed_count),
    "site_bank": Figure("In this site's bank", _count),
    "site_trays": Figure("In this site's trays", _count),
    "filing": Figure("Quarterly filing", _reference),
    "filed_sha256": Figure("Filed figures' SHA-256", _text),
    "amended_figure": Figure("Figure amended", _text),
    "delta_cents": Figure("Change since the filing", _money),
    "entry": Figure("Entered as", _text),
    "box_exchange": Figure("Drop boxes exchanged", _text),
    "game": Figure("Game", _text),
    "version": Figure("Internal controls version", _count),
    "closed_at": Figure("Low table closed at", _shown_moment, zoned=True),
    "relieved_at": Figure("Low table left without a dealer at", _shown_moment, zoned=True),
    "ceiling_cents": Figure("Low-table minimum at most", _money),
    "tournament": Figure("Tournament", _reference),
    "fee": Figure("Tournament fee", _reference),
    "fee_collected_at": Figure("Fee collected at", _text),
    "announced_at": Figure("Tournament announced at", _text),
}


def figure_rows(figures: dict, site=None) -> list[tuple[str, str]]:
    """(label, formatted value) for each figure, in the order the rule recorded them, a moment at
    the time of `site` (the alert's) when given. A key missing from the map (a rule added
    without a label) reads as words, never as a raw key."""
    rows = []
    for key, value in figures.items():
        figure = FIGURES.get(key)
        if figure is None:
            rows.append((key.replace("_cents", "").replace("_", " ").capitalize(), _text(value)))
            continue
        try:
            rows.append((figure.label, figure.format(value, site) if figure.zoned else figure.format(value)))
        except (TypeError, ValueError, InvalidOperation):
            rows.append((figure.label, _text(value)))
    return rows


def figures_text(figures: dict, site=None) -> str:
    """'Hold: 7.82%; Gross proceeds: $1,234.56' (e-mails, one line)."""
    return "; ".join(f"{label}: {value}" for label, value in figure_rows(figures, site))


def table_of(alert) -> str:
    """The tables an alert concerns, from its figures: 'Table 3', 'Tables 1, 4', or ''."""
    figures = alert.figures or {}
    if figures.get("table") is not None:
        return f"Table {figures['table']}"
    tables = figures.get("tables") or []
    if len(tables) == 1:
        return f"Table {tables[0]}"
    return f"Tables {', '.join(map(str, tables))}" if tables else ""


def period_of(alert) -> str:
    """The alert's period in words: a date, a week, a quarter, or a range of dates."""
    start, end = alert.period_start, alert.period_end
    if start == end:
        return start.isoformat()
    quarter = Quarter.containing(start)
    if start == quarter.start and end == quarter.end:
        return str(quarter)
    if end - start == timedelta(days=6):
        return f"Week {start.isoformat()} to {end.isoformat()}"
    return f"{start.isoformat()} to {end.isoformat()}"


def subject_of(alert) -> str:
    """What else tells an alert apart from others of its rule on the same day: its slip, its
    box or its dealer (the table and period are shown on their own)."""
    figures = alert.figures or {}
    if figures.get("series") and figures.get("number") is not None:
        return f"{str(figures['series']).capitalize()} slip {figures['number']}"
    if figures.get("box"):
        return f"Drop box {figures['box']}"
    if figures.get("dealer_name"):
        return str(figures["dealer_name"])  # the shift's table and day are the alert's own columns
    return ""
