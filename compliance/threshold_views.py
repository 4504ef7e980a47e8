"""The thresholds page: the effective-dated thresholds of the rules of the reader's organization's
packs (and the house's own), read-only, each with its citation, value and the dates it is in
force (compliance.thresholds). An organization with Washington sites only sees none of North
Dakota's."""

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import render
from django.utils import timezone

from cardroom.access import access_for, refusal
from cardroom.models import Role
from core.money import format_money
from core.rules import HOUSE_CONTROL
from packs import all_packs, packs_of

from .models import Threshold
from .thresholds import HOUSE_SEED, codes_of

THRESHOLD_READERS = frozenset({Role.GAMING_MANAGER, Role.AUDITOR})

# What each limit of a pack's law (`packs.Limit` key) and each threshold of the checks (code) is, as
# the page names it for a manager; its citation stands beside it. The key itself stays on the page
# in small print, as the admin adds a later row under it (tests/compliance/test_thresholds_page.py
# checks that every key and code a pack holds is named here).
NAMES: dict[str, str] = {
    # Limits of the law (`Pack.limits`)
    "surveillance.outage_activity": "Repair of a camera or recorder: hours of activity on the table",
    "surveillance.outage_calendar": "Repair of a camera or recorder: calendar days",
    "surveillance.outage_wager_cap_cents": "Wagers on a table whose camera or recorder is not repaired in time",
    "surveillance.recorder_overlap": "Overlap of two recorders used in sequence for one table",
    "surveillance.retention": "Keeping recorded video",
    "surveillance.operational_within": "Video surveillance system operational within",
    "surveillance.not_operational_wager_cap_cents": "Wagers on a table until its video surveillance is operational",
    "surveillance.special_event_max_days": "Special-event table without a system: length of the event",
    "surveillance.special_event_max_per_quarter": "Special-event table without a system: events a quarter",
    "surveillance.sample_due": "Sample recording after an equipment change",
    "surveillance.vendor_deferred_share": "An approved vendor's price held back until the video's clarity is approved",
    "surveillance.review_program_length": "Low-hold video review: how long it runs",
    "surveillance.review_min_footage": "Low-hold video review: video reviewed for each active table",
    "surveillance.review_document_retention": "Keeping video review documentation",
    "tournaments.max_cumulative_fee_cents": "Tournament entry fee, rebuys and add-ons together",
    "cage.deposit_banking_days": "Bank deposit due",
    # Thresholds of the checks (`Pack.thresholds` codes, and the house's own)
    "low_table.minimum_ceiling_cents": "Minimum wager of the low-minimum table, at most",
    "low_table.grace_minutes": "Time a higher-minimum table may stay active after the low-minimum table closes",
    "prizes_over_gp.contact_days": "Prizes over gross proceeds: contact the attorney general within",
    "prizes_over_gp.dealer_hold_weeks": "Prizes over gross proceeds: dealer percent-of-hold records kept for",
    "low_hold.ratio_21": "Low-hold threshold, twenty-one",
    "low_hold.ratio_pw": "Low-hold threshold, paddlewheel",
    "low_hold.review_weeks": "Low-hold video review: how long it runs",
    "low_hold.review_minutes_per_week": "Low-hold video review: video reviewed each week for each active table",
    "chips.gp_average_cents": "Chip colours required: gross proceeds averaging",
    "surveillance.gp_average_cents": "Video surveillance required: gross proceeds averaging",
    "surveillance.wager_above_cents": "Video surveillance required: wagers above",
    "surveillance.operational_days": "Video surveillance system operational within",
    "outage.activity_hours": "Repair of a camera or recorder: hours of activity on the table",
    "outage.calendar_days": "Repair of a camera or recorder: calendar days",
    "outage.wager_cap_cents": "Wagers on a table whose camera or recorder is not repaired in time",
    "sample.due_days": "Sample recording after an equipment change",
    "deposit.banking_days": "Bank deposit due",
    "discontinued.redeem_days": "Chips redeemed after twenty-one is discontinued",
    "reminder.days_before_due": "Reminder before an alert is due",
}


def name_of(key: str) -> str:
    """The words a manager reads for a limit's key or a threshold's code (`NAMES`); a key not named
    there (a pack's new one) reads as its words, never as the raw key."""
    return NAMES.get(key) or key.replace("_cents", "").replace(".", ": ").replace("_", " ").capitalize()


@dataclass(frozen=True)
class ThresholdRow:
    threshold: Threshold
    name: str  # what it is, in words (`NAMES`)
    value: str  # "10%", "$10,000.00", "30 days"
    until: date | None  # the last day in force; None while no later row replaces it
    in_force: bool  # on today's date
    pack: str = HOUSE_CONTROL  # the name of the pack whose rule it is, or "House control"


def value_text(value: Decimal, unit: str) -> str:
    """A threshold's value as the regulation writes it: a ratio as a percentage, cents as dollars."""
    if unit == Threshold.Unit.RATIO:
        return f"{(Decimal(value) * 100).normalize():f}%"
    if unit == Threshold.Unit.CENTS:
        return format_money(int(value))
    number = Decimal(value).normalize()
    return f"{number:f} {unit}"


def threshold_rows(on: date, packs=None) -> list[ThresholdRow]:
    """The rows of the thresholds of `packs` (None: every pack) and the house's own, by code then
    date; a row is in force from its date to the day before the next."""
    rows = Threshold.objects.order_by("code", "effective_from")
    if packs is not None:
        rows = rows.filter(code__in=sorted(codes_of(packs)))
    rows = list(rows)
    owner = {row[0]: pack.name for pack in (packs if packs is not None else all_packs()) for row in pack.thresholds}
    owner.update({row[0]: HOUSE_CONTROL for row in HOUSE_SEED})
    result = []
    for i, row in enumerate(rows):
        following = rows[i + 1] if i + 1 < len(rows) and rows[i + 1].code == row.code else None
        until = following.effective_from - timedelta(days=1) if following else None
        in_force = row.effective_from <= on and (until is None or on <= until)
        result.append(
            ThresholdRow(
                row,
                name_of(row.code),
                value_text(row.value, row.unit),
                until,
                in_force,
                owner.get(row.code, HOUSE_CONTROL),
            )  # fmt: skip
        )
    return result


@dataclass(frozen=True)
class LimitRow:
    """One limit of a pack's law (its table wager limits, or a `packs.Limit`): what it is, its value,
    the source that sets it and the dates it is in force."""

    pack: str
    what: str  # what it is, in words (`NAMES`)
    key: str  # the limit's key ("" for the table wager limits)
    value: str
    citation: str
    effective_from: date | None  # None: in force before any day the product records
    until: date | None
    in_force: bool


def _dated(pack_name: str, key: str, entries, on: date) -> list[LimitRow]:
    """(value, citation, effective from) of one key, oldest first, as rows with their end dates."""
    rows = []
    what = name_of(key) if key else "Table wager limits"
    for i, (value, citation, start) in enumerate(entries):
        following = entries[i + 1][2] if i + 1 < len(entries) else None
        until = following - timedelta(days=1) if following else None
        in_force = (start is None or start <= on) and (until is None or on <= until)
        rows.append(LimitRow(pack_name, what, key, value, citation, start, until, in_force))
    return rows


def _wager_value(w) -> str:
    upper = f" to {format_money(w.max_cents)}" if w.max_cents is not None else " up (no maximum)"
    text = f"{format_money(w.min_cents)}{upper}, in steps of {format_money(w.step_cents)}"
    if w.low_minimum_ceiling_cents is not None:
        text += f"; one active table's minimum at most {format_money(w.low_minimum_ceiling_cents)}"
    return text


def limit_rows(on: date, packs) -> list[LimitRow]:
    """The limits of `packs`' law (each pack's table wager limits, then its other limits by key),
    each with its source and the dates it is in force: only the packs given (the organization's)."""
    result = []
    for pack in packs:
        wagers = [(_wager_value(w), w.citation, w.effective_from) for w in pack.wager_limits]
        result += _dated(pack.name, "", wagers, on)
        for key in dict.fromkeys(x.key for x in pack.limits):
            rows = [(x.text, x.citation, x.effective_from) for x in pack.limits if x.key == key]
            result += _dated(pack.name, key, rows, on)
    return result


def organization_packs(access):
    """The packs of the sites of the reader's organization (each once)."""
    from cardroom.models import Site

    codes = Site.objects.filter(organization_id=access.organization_id).values_list("jurisdiction", flat=True)
    return packs_of(set(codes))


@login_required
def thresholds(request):
    if not access_for(request.user).all_roles() & THRESHOLD_READERS:
        raise PermissionDenied(refusal(HOUSE_CONTROL, THRESHOLD_READERS, "see the thresholds page"))
    today = timezone.localdate()
    packs = organization_packs(access_for(request.user))
    return render(
        request,
        "compliance/thresholds.html",
        {"rows": threshold_rows(today, packs), "limits": limit_rows(today, packs), "today": today, "packs": packs},
    )
