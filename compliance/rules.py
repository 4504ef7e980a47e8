"""The flag rules, each a small pure function: figures and thresholds in, findings out. No
database access here; `compliance.providers` gathers the inputs.

Each rule is named by a key (`packs.Rule`); a site's pack states the rules that run there and
their citations (North Dakota's chapter 99-01.3-08 states all of these today). A finding carries
the rule's citation at its site, the figures that triggered it, what must be done and the due
date; `compliance.services.open_alert` turns it into an alert exactly once."""

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

from cardroom.chip_rules import unmarked_chips_text
from core.money import format_money, format_ratio
from core.periods import Quarter, add_banking_days
from core.plurals import noun_for, plural
from core.rules import HOUSE_CONTROL, joined_citations
from packs import Rule

from .thresholds import ThresholdBook

# The flag rules, by key; each pack states those its law has (packs/<pack>/compliance.py).
PRIZES_OVER_GP = Rule("compliance.prizes_over_gp")
LOW_HOLD = Rule("compliance.low_hold")
SURVEILLANCE_REQUIRED = Rule("compliance.surveillance_required")
SURVEILLANCE_OPERATIONAL = Rule("compliance.surveillance_operational")
SPECIAL_EVENT_EXEMPTION = Rule("compliance.special_event_exemption")
RECORDING_COVERS_PLAY = Rule("compliance.recording_covers_play")
OUTAGE_OPERATING = Rule("compliance.outage_operating")
REVIEW_LOG = Rule("compliance.review_log")
REVIEW_LOG_RECORD = Rule("compliance.review_log_record")
VIDEO_SAMPLE = Rule("compliance.video_sample")
CHIP_COLOURS = Rule("compliance.chip_colours")
DEALER_HOLD_TRACKED = Rule("compliance.dealer_hold_tracked")
# Another pack's own (9 NYCRR 4620.5(h), the WSGC blackjack rules): the tables follow the licence
# and the internal controls in force.
TABLES_IN_LINE = Rule("compliance.tables_in_line")
# Another pack's own (the WSGC blackjack rules, "Irregularities"): the internal controls in force say
# how the card room addresses misdeals, exposed cards and an incorrect number of cards.
IRREGULARITIES_DOCUMENTED = Rule("compliance.irregularities_documented")
CHIP_COLOUR_SPEC = Rule("compliance.chip_colour_spec")
# ND 99-01.3-08-06(2): the organization has adopted a procedure on redeeming a player's chips; ND
# 99-01.3-08-08(1): at a site with a video surveillance system, its dealers' shuffle and cut are
# standardized (approvals.WrittenProcedure).
CHIP_REDEMPTION_PROCEDURE = Rule("compliance.chip_redemption_procedure")
SHUFFLE_PROCEDURE = Rule("compliance.shuffle_procedure")
# ND 99-01.3-08-03(2): each chip bears the organization's name (or a unique identification) on one
# side: an active chip whose marking was never recorded (one made before the field) is flagged.
CHIP_MARKING = Rule("compliance.chip_marking")
SLIP_NUMBERING = Rule("compliance.slip_numbering")
SLIP_VERIFIED = Rule("compliance.slip_verified")
SLIP_RECEIVED = Rule("compliance.slip_received")
COUNT_REMOVED = Rule("compliance.count_removed")
COUNT_COUNTED = Rule("compliance.count_counted")
COUNT_RESOLVED = Rule("compliance.count_resolved")
DEPOSIT_DEADLINE = Rule("compliance.deposit_deadline")
DISCONTINUED_REDEMPTION = Rule("compliance.discontinued_redemption")
TIPS_BEFORE_LEAVING = Rule("compliance.tips_before_leaving")
# A twenty-one table in play on a closed gaming day (its opener counted) with no approval of its
# decks, or no inspection of its dealing shoe, recorded that day (floor.models.CardCheck).
DECKS_APPROVED = Rule("compliance.decks_approved")
SHOE_INSPECTED = Rule("compliance.shoe_inspected")
# The low-minimum table's play ended while a table with a higher minimum stayed active.
LOW_TABLE_CLOSED = Rule("compliance.low_table_closed")
# The chips the inventory log says exist cover the banks' and trays' last counts (the chip
# inventory records and their reconciliation, ND 99-01.3-08-16(2) and (6), on SFN 17930): kept at every site, as a
# house control where the site's pack states no inventory rule.
CHIP_FLOAT = Rule("compliance.chip_float")

# The name of the alert a review program's week short of its footage opens (LOW_HOLD's program,
# ND 99-01.3-08-04(9); `providers.review_weeks_short`), which the obligations calendar shows in
# that week's place.
REVIEW_WEEK_SHORT = "review_week_short"


@dataclass(frozen=True)
class Finding:
    rule: str
    citation: str
    title: str
    site_id: int
    period_key: str
    period_start: date
    period_end: date
    action_required: str
    due_date: date | None
    figures: dict = field(default_factory=dict)
    subject: str = ""


@dataclass(frozen=True)
class QuarterFigures:
    """One site's figures for one game and quarter (sums of table figures)."""

    site_id: int
    quarter: Quarter
    game: str  # "21" or "PW"
    gross_proceeds_cents: int
    prizes_cents: int

    @property
    def agp_cents(self) -> int:
        return self.gross_proceeds_cents - self.prizes_cents

    @property
    def hold_ratio(self) -> Decimal | None:
        """ND 99-01.3-08-01(3): adjusted gross proceeds divided by gross proceeds."""
        if self.gross_proceeds_cents == 0:
            return None
        return Decimal(self.agp_cents) / Decimal(self.gross_proceeds_cents)

    def as_figures(self) -> dict:
        return {
            "gross_proceeds_cents": self.gross_proceeds_cents,
            "prizes_cents": self.prizes_cents,
            "agp_cents": self.agp_cents,
            "hold_ratio": None if self.hold_ratio is None else str(self.hold_ratio.quantize(Decimal("0.000001"))),
        }


def _quarter_finding(
    rule: str,
    citation: str,
    title: str,
    fig: QuarterFigures,
    action: str,
    due: date | None,
    extra: dict | None = None,
    subject: str = "",
) -> Finding:
    return Finding(
        rule,
        citation,
        title,
        fig.site_id,
        str(fig.quarter),
        fig.quarter.start,
        fig.quarter.end,
        action,
        due,
        {**fig.as_figures(), **(extra or {})},
        subject,
    )


def _for_the_quarter(
    rule: str, citation: str, title: str, site_id: int, on: date, action: str, figures: dict, subject: str = ""
) -> Finding:
    """A finding about how a site stands on `on` (its chips, its settings, a table), held for the
    quarter of that day: one alert per site (and subject) and quarter while it stays so."""
    quarter = Quarter.containing(on)
    return Finding(
        rule, citation, title, site_id, str(quarter), quarter.start, quarter.end, action, on, figures, subject
    )


# 1. ND 99-01.3-08-01(3): prizes over gross proceeds ------------------------------------------


def prizes_over_gross_proceeds(fig: QuarterFigures, book: ThresholdBook) -> Finding | None:
    """Twenty-one prizes exceeded gross proceeds for the site's quarter, i.e. AGP < 0."""
    if fig.game != "21" or fig.agp_cents >= 0:
        return None
    days = book["prizes_over_gp.contact_days"]
    weeks = book.int("prizes_over_gp.dealer_hold_weeks")
    return _quarter_finding(
        "prizes_over_gp",
        days.citation,
        "Twenty-one prizes exceeded gross proceeds",
        fig,
        f"{days.citation}: contact the attorney general within {int(days)} days of the quarter's end "
        f"(prizes {format_money(fig.prizes_cents)} > gross proceeds {format_money(fig.gross_proceeds_cents)}), "
        f"and keep percent-of-hold records for each dealer at the site for {weeks} continuous weeks.",
        fig.quarter.end + timedelta(days=int(days)),
        {
            "dealer_hold_from": str(fig.quarter.end + timedelta(days=1)),
            "dealer_hold_until": str(fig.quarter.end + timedelta(weeks=weeks)),
        },
    )


@dataclass(frozen=True)
class ShiftRecord:
    shift_id: int
    site_id: int
    dealer_name: str
    table_number: int
    started_at: datetime
    has_own_drop: bool  # the box was exchanged at the dealer change, so hold can be computed


def dealer_shifts_without_figures(shifts: list[ShiftRecord], window: tuple[date, date], citation: str) -> list[Finding]:
    """In the 12-week window after a prizes-over-GP quarter, percent-of-hold records are maintained for
    each dealer (ND 99-01.3-08-01(3)); a shift whose drop was not separated has none of its own, and
    exchanging the box at each dealer change is the house's way to keep them (house control)."""
    start, end = window
    return [
        Finding(
            "dealer_hold_missing",
            citation,
            "Dealer shift without percent-of-hold figures",
            s.site_id,
            f"{start}..{end}",
            start,
            end,
            f"{citation}: percent-of-hold records are maintained for each dealer at the site during these weeks, "
            f"and {s.dealer_name}'s shift at table {s.table_number} on {s.started_at:%Y-%m-%d} has no percent-of-hold "
            "of its own. Exchange the drop box at each dealer change (house control, to keep each dealer's "
            f"percent-of-hold ({citation})).",
            s.started_at.date(),
            {"shift_id": s.shift_id, "table": s.table_number, "dealer_name": s.dealer_name},
            f"shift:{s.shift_id}",
        )
        for s in shifts
        if not s.has_own_drop and start <= s.started_at.date() <= end
    ]


def dealer_hold_untracked(site_id: int, on: date, *, exchange: str, at) -> Finding:
    """At a site that requires video surveillance, "an organization shall track a dealer's and
    wheel operator's percent-of-hold performance" (ND 99-01.3-08-04(8)); with its drop boxes
    exchanged once a gaming day no dealer shift has a drop, so a percent-of-hold, of its own.
    Exchanging them at each dealer change is the house's way to track it (house control), not the
    rule's words. One alert per site and quarter while the setting stays."""
    citation = DEALER_HOLD_TRACKED.at(at)
    return _for_the_quarter(
        "dealer_hold_untracked",
        citation,
        "Dealer percent-of-hold not tracked",
        site_id,
        on,
        f"{citation}: the site requires video surveillance, and an organization shall track a dealer's and wheel "
        f"operator's percent-of-hold performance; its drop boxes are exchanged {exchange.lower()}, so no dealer "
        "shift has a drop, and a percent-of-hold, of its own. Set the count settings to exchange the drop box at "
        f"each dealer change (house control, to track percent-of-hold ({citation})).",
        {"box_exchange": exchange},
    )


def table_out_of_line(
    site_id: int, on: date, table_id: int, number: int, errors: dict[str, str], *, citation: str, settings: list[str]
) -> Finding:
    """A table that no longer follows what its site's licence or internal controls in force say
    (9 NYCRR 4620.5(h): the licence reflects the tie option every table follows; the WSGC rules:
    every option that is the card room's choice documented in its internal controls): the
    table's own check (`approvals.checks.check_table`), judged nightly, since a licence or a
    controls version taking effect later leaves the tables as they were. `settings`: the
    settings out of line, as the table's form names them. One alert per table and quarter while
    it stays so."""
    return _for_the_quarter(
        "table_out_of_line",
        citation,
        "Table no longer follows its licence or internal controls",
        site_id,
        on,
        f"{citation}: table {number} no longer follows what is in force today; bring it in line or record what "
        "permits it. " + " ".join(errors.values()),
        {"table": number, "problems": settings},
        f"table:{table_id}",
    )


def irregularities_undocumented(site_id: int, on: date, *, game: str, version: int, key: str, at) -> Finding:
    """The internal controls in force for a game say nothing of irregularities: "Card room operators
    must document in their internal controls how they will address various irregularities
    applicable to Blackjack (e.g. misdeals, cards exposed, incorrect number of cards, etc.)" (the
    WSGC blackjack rules). One alert per site, game and quarter while the version stays in force."""
    quarter = Quarter.containing(on)
    citation = IRREGULARITIES_DOCUMENTED.at(at)
    return Finding(
        "irregularities_undocumented",
        citation,
        "Internal controls say nothing of irregularities",
        site_id,
        str(quarter),
        quarter.start,
        quarter.end,
        f"{citation}: the internal controls in force for {game} (version {version}) do not document how the card "
        "room addresses irregularities (misdeals, cards exposed, an incorrect number of cards); record a version "
        "that documents them.",
        on,
        {"game": game, "version": version},
        f"controls:{key}",
    )


def chip_redemption_procedure_missing(site_id: int, on: date, *, at) -> Finding:
    """No procedure on redeeming a player's chips in force for the site's organization: "An
    organization shall adopt a procedure on redeeming a player's chips that ensures that redeemed
    chips are separated, by value, and counted accurately" (ND 99-01.3-08-06(2)). One alert per site
    and quarter while none is in force."""
    citation = CHIP_REDEMPTION_PROCEDURE.at(at)
    return _for_the_quarter(
        "chip_redemption_procedure_missing",
        citation,
        "No chip redemption procedure adopted",
        site_id,
        on,
        f"{citation}: the organization has no procedure on redeeming a player's chips in force; adopt one that ensures "
        "redeemed chips are separated, by value, and counted accurately, and record it with the organization's "
        "written procedures.",
        {},
        "procedure:chip_redemption",
    )


def shuffle_procedure_missing(site_id: int, on: date, *, trigger: str, at) -> Finding:
    """A site with a video surveillance system (`trigger`: installed, or required) with no standard
    procedure for shuffling and cutting cards in force for its organization: "For a site with a video
    surveillance system, an organization shall standardize its dealers' procedures for shuffling and
    cutting cards" (ND 99-01.3-08-08(1)). One alert per site and quarter while none is in force."""
    citation = SHUFFLE_PROCEDURE.at(at)
    return _for_the_quarter(
        "shuffle_procedure_missing",
        citation,
        "No standard shuffle and cut procedure",
        site_id,
        on,
        f"{citation}: {trigger}, and the organization has no standard procedure for its "
        "dealers' shuffling and cutting of cards in force; adopt one (one or more standard shuffling methods) and "
        "record it with the organization's written procedures.",
        {},
        "procedure:shuffle_and_cut",
    )


def chip_marking_missing(site_id: int, on: date, chips: list[str], *, at) -> Finding | None:
    """The organization's active chips (`chips`, described) with no marking recorded: "Each chip must
    be permanently impressed, engraved, or imprinted on one side with an organization's name ...
    The name may be represented by a unique identification" (ND 99-01.3-08-03(2)). A chip is
    refused without it when made or changed; this finds those recorded before the field was. One
    alert per site and quarter while any stays unmarked."""
    if not chips:
        return None
    citation = CHIP_MARKING.at(at)
    return _for_the_quarter(
        "chip_marking_missing",
        citation,
        "Chips with no marking recorded",
        site_id,
        on,
        unmarked_chips_text(citation, chips),
        {"chips": chips},
    )


# 2. ND 99-01.3-08-04(9): low hold at a surveillance site --------------------------------------


def low_hold(fig: QuarterFigures, *, surveillance_required: bool, book: ThresholdBook) -> Finding | None:
    """Quarter percent-of-hold below 10% (twenty-one) or 15% (paddlewheel) at a site that
    requires video surveillance. Exactly at the threshold does not fire."""
    if not surveillance_required or fig.hold_ratio is None:
        return None
    threshold = book["low_hold.ratio_21" if fig.game == "21" else "low_hold.ratio_pw"]
    if fig.hold_ratio >= threshold.value:
        return None
    weeks = book.int("low_hold.review_weeks")
    minutes = book.int("low_hold.review_minutes_per_week")
    game = "twenty-one" if fig.game == "21" else "paddlewheel"
    return _quarter_finding(
        f"low_hold_{fig.game}",
        threshold.citation,
        f"Low {game} hold at a surveillance site",
        fig,
        f"{threshold.citation}: {game} percent-of-hold {format_ratio(fig.hold_ratio)} is below "
        f"{format_ratio(threshold.value, 0)}: review at least {plural(minutes, 'minute')} of video per week for each active "
        f"table for {weeks} continuous weeks, or until the reason is documented.",
        fig.quarter.end + timedelta(weeks=weeks),
        {"threshold_ratio": str(threshold.value)},
    )


# 3. ND 99-01.3-08-04: surveillance required ---------------------------------------------------


def surveillance_required(
    history: list[QuarterFigures],
    *,
    seasonal: bool,
    wagers_above_cents: int,
    already_required: bool,
    book: ThresholdBook,
    at,
) -> Finding | None:
    """Twenty-one gross proceeds averaging $10,000 or more per quarter over two entire
    consecutive quarters (the last two in `history`), with wagers above $2.

    Seasonal sites: the average of the active quarters (gross proceeds above zero) within the
    July-June fiscal year of the last quarter. *Reading*: "averaging ... for two consecutive
    quarters" is the mean of the two quarters, not each quarter on its own."""
    if already_required or len(history) < 1:
        return None
    cap = book["surveillance.wager_above_cents"]
    if wagers_above_cents <= int(cap):
        return None
    last = history[-1]
    if seasonal:
        fiscal = set(last.quarter.fiscal_year_quarters())
        considered = [f for f in history if f.quarter in fiscal and f.gross_proceeds_cents > 0]
    else:
        considered = history[-2:]
        if len(considered) < 2 or considered[0].quarter.next() != considered[1].quarter:
            return None
    if not considered:
        return None
    total = sum(f.gross_proceeds_cents for f in considered)
    level = book["surveillance.gp_average_cents"]
    if total < int(level) * len(considered):  # exact: average >= level  <=>  total >= level * n
        return None
    days = book.int("surveillance.operational_days")
    average = Decimal(total) / len(considered)
    return Finding(
        "surveillance_required",
        level.citation,
        "Video surveillance required",
        last.site_id,
        str(last.quarter),
        considered[0].quarter.start,
        last.quarter.end,
        f"{level.citation}: twenty-one gross proceeds averaged {format_money(int(average))} per quarter "
        f"(at least {format_money(int(level))}) with wagers above {format_money(int(cap))}: have a video "
        f"surveillance system operational within {days} days of {last.quarter.end}; chips must then meet "
        f"the colour specification of {CHIP_COLOUR_SPEC.at(at)} ({CHIP_COLOURS.at(at)}).",
        last.quarter.end + timedelta(days=days),
        {
            "quarters": [str(f.quarter) for f in considered],
            "gross_proceeds_cents": [f.gross_proceeds_cents for f in considered],
            "average_cents": str(average),
            "max_wager_cents": wagers_above_cents,
            "seasonal": seasonal,
        },
    )


# 4. ND 99-01.3-08-04(7): outage past its deadline while operating above $2 --------------------


@dataclass(frozen=True)
class OutageRecord:
    outage_id: int
    site_id: int
    table_number: int
    reported_at: datetime
    deadline_at: datetime | None
    repaired_at: datetime | None
    max_wager_after_deadline_cents: int | None  # highest max wager the table operated with after the deadline


def outage_past_deadline(outage: OutageRecord, *, now: datetime, book: ThresholdBook) -> Finding | None:
    cap = book["outage.wager_cap_cents"]
    if outage.deadline_at is None or now < outage.deadline_at:
        return None
    if outage.repaired_at is not None and outage.repaired_at <= outage.deadline_at:
        return None
    if outage.max_wager_after_deadline_cents is None or outage.max_wager_after_deadline_cents <= int(cap):
        return None
    day = outage.deadline_at.date()
    return Finding(
        "outage_operating",
        cap.citation,
        "Table operated above $2 after a surveillance outage deadline",
        outage.site_id,
        str(day),
        outage.reported_at.date(),
        (outage.repaired_at or now).date(),
        f"{cap.citation}: table {outage.table_number}'s camera or recorder was not repaired by "
        f"{outage.deadline_at:%Y-%m-%d %I:%M %p}; the table must be closed or its wagers limited to "
        f"{format_money(int(cap))} until repaired (it ran with a maximum of "
        f"{format_money(outage.max_wager_after_deadline_cents)}).",
        day,
        {
            "outage_id": outage.outage_id,
            "table": outage.table_number,
            "max_wager_after_deadline_cents": outage.max_wager_after_deadline_cents,
        },
        f"outage:{outage.outage_id}",
    )


# 5. ND 99-01.3-08-04(7), 08-16(1)(d): daily surveillance review log ---------------------------


def missing_review_logs(site_id: int, missing: dict[date, list[int]], *, at) -> list[Finding]:
    """Each day of activity at a surveillance site on which some table in use has no daily
    review log entry. `missing`: gaming date -> numbers of the tables without one; `at`: the
    site (or its pack), whose citations the findings carry."""
    citation = REVIEW_LOG.at(at)
    return [
        Finding(
            "review_log_missing",
            citation,
            "No daily surveillance review log",
            site_id,
            str(day),
            day,
            day,
            f"{joined_citations((citation, REVIEW_LOG_RECORD.at(at)))}: document that the camera of {noun_for(len(tables), 'table')} {', '.join(map(str, tables))} "
            f"recorded an unobstructed view and a clear picture on {day}.",
            day,
            {"tables": tables},
        )
        for day, tables in sorted(missing.items())
        if tables
    ]


# ND 99-01.3-08-07(1), (2): the cards and the shoe checked ------------------------------------------

# Each check: its rule, the alert's name and title, and what must be done.
CARD_CHECKS = {
    "decks_approved": (
        DECKS_APPROVED,
        "decks_not_approved",
        "Decks not approved",
        "a dealer approves all decks of cards when they are brought to a table, and again when they are brought "
        "back; no approval of the decks of {tables} was recorded on {day}. Find out why, and record each approval "
        "as it is made.",
    ),
    "shoe_inspected": (
        SHOE_INSPECTED,
        "shoe_not_inspected",
        "Dealing shoe not inspected",
        "a dealer or shift manager inspects each dealing shoe before each day's activity; no inspection of the "
        "shoe of {tables} was recorded on {day}. Find out why, and record each inspection as it is made.",
    ),
}


def missing_card_checks(site_id: int, kind: str, missing: dict[date, list[int]], *, at) -> list[Finding]:
    """Each closed gaming day on which twenty-one tables in play (`missing`: gaming date -> their
    numbers) have no check of `kind` recorded (`CARD_CHECKS`); `at`: the site, whose citation the
    findings carry. One alert a day, naming the tables."""
    rule, name, title, action = CARD_CHECKS[kind]
    citation = rule.at(at)
    return [
        Finding(
            name,
            citation,
            title,
            site_id,
            str(day),
            day,
            day,
            f"{citation}: "
            + action.format(tables=f"{noun_for(len(tables), 'table')} {', '.join(map(str, tables))}", day=day),
            day,
            {"tables": tables},
        )
        for day, tables in sorted(missing.items())
        if tables
    ]


# 6. ND 99-01.3-08-05: slips --------------------------------------------------------------------


@dataclass(frozen=True)
class SlipException:
    site_id: int
    gaming_date: date
    series: str  # "fill" or "credit"
    number: int
    problem: str  # "missing", "out_of_order", "unverified", "unreceived"


_SLIP_TEXT = {
    "missing": (
        SLIP_NUMBERING,
        "Slip number missing",
        "account for {series} slip number {number}: slips are used in order and all accounted for",
    ),
    "out_of_order": (
        SLIP_NUMBERING,
        "Slip used out of order",
        "{series} slip {number} was used after a higher number of its series: slips are used in sequential order; find out why and document it",
    ),
    "unverified": (
        SLIP_VERIFIED,
        "Slip not verified",
        "{series} slip {number} was not verified and initialed by the end of the gaming day",
    ),
    "unreceived": (
        SLIP_RECEIVED,
        "Slip not received",
        "{series} slip {number} was not received and initialed by the end of the gaming day",
    ),
}


def slip_exceptions(exceptions: list[SlipException], *, at) -> list[Finding]:
    """`at`: site id -> the site (or its pack), whose citations the findings carry."""
    findings = []
    for ex in exceptions:
        rule, title, text = _SLIP_TEXT[ex.problem]
        if not rule.applies(at[ex.site_id]):
            continue  # the site's pack does not state this slip rule
        citation = rule.at(at[ex.site_id])
        findings.append(
            Finding(
                f"slip_{ex.problem}",
                citation,
                title,
                ex.site_id,
                str(ex.gaming_date),
                ex.gaming_date,
                ex.gaming_date,
                f"{citation}: " + text.format(series=ex.series, number=ex.number) + ".",
                ex.gaming_date,
                {"series": ex.series, "number": ex.number},
                f"{ex.series}:{ex.number}",
            )
        )
    return findings


# 7. ND 99-01.3-08-14: counts --------------------------------------------------------------------


@dataclass(frozen=True)
class CountException:
    site_id: int
    gaming_date: date
    box_label: str
    problem: str  # "unresolved", "not_removed", "not_counted"


_COUNT_TEXT = {
    "unresolved": (
        COUNT_RESOLVED,
        "Count difference not resolved",
        "resolve the difference between the two counts of box {box}",
    ),
    "not_removed": (
        COUNT_REMOVED,
        "Drop box not removed",
        "box {box} was not removed from its table by the end of the day's activity",
    ),
    "not_counted": (
        COUNT_COUNTED,
        "Drop box not counted",
        "box {box} has not been counted by the two-person count team",
    ),
}


def count_exceptions(exceptions: list[CountException], *, at) -> list[Finding]:
    """`at`: site id -> the site (or its pack), whose citations the findings carry."""
    findings = []
    for ex in exceptions:
        rule, title, text = _COUNT_TEXT[ex.problem]
        if not rule.applies(at[ex.site_id]):
            continue  # the site's pack does not state this count rule
        citation = rule.at(at[ex.site_id])
        findings.append(
            Finding(
                f"count_{ex.problem}",
                citation,
                title,
                ex.site_id,
                str(ex.gaming_date),
                ex.gaming_date,
                ex.gaming_date,
                f"{citation}: " + text.format(box=ex.box_label) + ".",
                ex.gaming_date,
                {"box": ex.box_label},
                f"box:{ex.box_label}",
            )
        )
    return findings


# 8. ND 99-01.3-03-10 deposits; ND 99-01.3-08-04(11) video samples -----------------------------


def late_deposit(
    site_id: int, gaming_date: date, deposited_on: date | None, *, today: date, book: ThresholdBook, limit=None
) -> Finding | None:
    """The deposit of a day of the books past its due date. `limit`: the site's pack's deadline (a
    `Limit`: banking days and citation) where the pack states no deposit rule of its own to the
    scan, the house's third banking day at a Washington site; else the threshold book's."""
    days = book["deposit.banking_days"] if limit is None else limit
    count, citation = int(days.value), days.citation
    due = add_banking_days(gaming_date, count)
    if (deposited_on or today) <= due:
        return None
    return Finding(
        "deposit_late",
        citation,
        "Bank deposit late",
        site_id,
        str(gaming_date),
        gaming_date,
        gaming_date,
        f"{citation}: the deposit for {gaming_date} was due by the {count}rd banking day, {due}"
        + (f"; it was made on {deposited_on}." if deposited_on else "; it has not been recorded."),
        due,
        {"due": str(due), "deposited_on": str(deposited_on) if deposited_on else None},
    )


def late_video_sample(
    site_id: int, change_id: int, changed_on: date, submitted_on: date | None, *, today: date, book: ThresholdBook
) -> Finding | None:
    days = book["sample.due_days"]
    due = changed_on + timedelta(days=int(days))
    if (submitted_on or today) <= due:
        return None
    return Finding(
        "sample_late",
        days.citation,
        "Video sample not sent in time",
        site_id,
        str(changed_on),
        changed_on,
        due,
        f"{days.citation}: a sample recorded video was due to the attorney general within {int(days)} days "
        f"of the equipment change on {changed_on}, by {due}.",
        due,
        {"change_id": change_id, "submitted_on": str(submitted_on) if submitted_on else None},
        f"change:{change_id}",
    )


def sample_resubmission_owed(
    site_id: int,
    submission_id: int,
    change: str,
    submitted_on: date,
    evaluated_on: date,
    *,
    table: int | None,
    findings: str,
    at,
) -> Finding:
    """A sample recording the attorney general found not satisfactory, with no sample sent after
    it: "an organization and vendor shall resolve the deficiency and resubmit a sample recording
    for approval" (ND 99-01.3-08-04(11)). The rule sets no deadline for it, so none is stated; one
    alert per rejected sample, opened from its evaluation's day."""
    citation = VIDEO_SAMPLE.at(at)
    where = f"table {table}" if table is not None else "the site"
    said = f" The evaluation found: {findings.strip()}" if findings.strip() else ""
    return Finding(
        "sample_resubmission_owed",
        citation,
        "Video sample not satisfactory: resubmission owed",
        site_id,
        str(evaluated_on),
        evaluated_on,
        evaluated_on,
        f"{citation}: the sample recording sent on {submitted_on} for {change.lower()} ({where}) was found not "
        f"satisfactory on {evaluated_on}; the organization and the vendor shall resolve the deficiency and resubmit a "
        f"sample recording for approval (no sample has been sent since; the rule sets no deadline).{said}",
        None,
        {"submitted_on": str(submitted_on), "evaluated_on": str(evaluated_on)} | ({"table": table} if table else {}),
        f"sample:{submission_id}",
    )


# 9. ND 99-01.3-08-04 (opening paragraph): the system, each table, special events ---------------


def system_not_operational(
    site_id: int, due: date, table_numbers: list[int], *, on: date, citation: str, cap_cents: int
) -> Finding | None:
    """Past the last day to have the site's system operational (45 days from its trigger), the
    equipment register shows no system for some table that needs one. Day 45 itself is in time."""
    if on <= due or not table_numbers:
        return None
    tables = ", ".join(map(str, table_numbers))
    return Finding(
        "surveillance_not_operational",
        citation,
        "Video surveillance not operational after its deadline",
        site_id,
        str(due),
        due + timedelta(days=1),
        on,
        f"{citation}: the video surveillance system was due operational by {due}; {noun_for(len(table_numbers), 'table')} {tables} {'has' if len(table_numbers) == 1 else 'have'} no camera "
        f"and recording unit in the equipment register on {on}: limit wagers to {format_money(cap_cents)} until it "
        "is operational for each table regularly located on the site.",
        due + timedelta(days=1),
        {"tables": table_numbers, "due": str(due)},
    )


def special_event_over_limit(
    site_id: int, table_id: int, table_number: int, event_start: date, day: date, reason: str, citation: str
) -> Finding:
    """A temporary special-event table used past its exemption without a system."""
    return Finding(
        "special_event_over_limit",
        citation,
        "Special-event table past its exemption",
        site_id,
        str(event_start),
        event_start,
        day,
        f"{reason}: table {table_number} used on {day} needs a video surveillance system.",
        day,
        {"table": table_number, "event_start": str(event_start), "day": str(day)},
        f"table:{table_id}",
    )


# 10. ND 99-01.3-08-04(5)(b): recordings cover play -------------------------------------------------


def recording_gaps(
    site_id: int,
    table_id: int,
    table_number: int,
    gaming_date: date,
    gaps: list[tuple[datetime, datetime]],
    *,
    citation: str,
    time_zone: str,
) -> Finding | None:
    """Parts of a table's play (opener to closer) that no recording covers."""
    if not gaps:
        return None
    from zoneinfo import ZoneInfo

    zone = ZoneInfo(time_zone)
    spans = ", ".join(f"{a.astimezone(zone):%H:%M}-{b.astimezone(zone):%H:%M}" for a, b in gaps)
    minutes = sum(int((b - a).total_seconds() // 60) for a, b in gaps)
    return Finding(
        "recording_gap",
        citation,
        "Table play not recorded",
        site_id,
        str(gaming_date),
        gaming_date,
        gaming_date,
        f"{citation}: table {table_number}'s recordings on {gaming_date} do not cover its play from when chips were "
        f"first made available (opener) until it closed for the day (closer): not recorded {spans}.",
        gaming_date,
        {"table": table_number, "gaps": [[a.isoformat(), b.isoformat()] for a, b in gaps], "minutes": minutes},
        f"table:{table_id}",
    )


# ND 99-01.3-08-09(1): a higher minimum only beside an active table at or below the ceiling -----


def low_table_closings(
    site_id: int, gaming_date: date, tables: list, *, book: ThresholdBook, time_zone: str
) -> list[Finding]:
    """Each moment a table with a minimum at or below the ceiling (the low table) left play after
    which, the grace past, a table with a higher minimum was still active (a dealer and chips
    present, `floor.queries.TablePlay.active_at`) with no low table active beside it: its closer,
    or its dealer relieved with no one seated after (`_reliefs`). `tables`: the day's twenty-one
    tables' play; each minimum is the one in force at the moment judged (`TablePlay.minimum_at`:
    the table's history), never as configured now."""
    ceiling = int(book["low_table.minimum_ceiling_cents"])
    grace = timedelta(minutes=book.int("low_table.grace_minutes"))

    def left(low, left_at: datetime, closed: bool) -> Finding | None:
        if low.minimum_at(left_at) > ceiling:
            return None
        at = left_at + grace
        others = [(t, t.minimum_at(at)) for t in tables if t.table_id != low.table_id and t.active_at(at)]
        higher = [(t, cents) for t, cents in others if cents > ceiling]
        if not higher or any(cents <= ceiling for _, cents in others):
            return None
        return _low_table_closed(site_id, gaming_date, low, left_at, higher, book, time_zone, closed)

    found = []
    for low in tables:
        flagged = {r: finding for r in _reliefs(low, grace) if (finding := left(low, r, closed=False))}
        closed = {c: left(low, c, closed=True) for c in low.closers if not _left_before(low, c, flagged)}
        found += [finding for _, finding in sorted({**flagged, **closed}.items()) if finding]
    return found


def _reliefs(table, grace: timedelta) -> list:
    """The moments `table` (a `TablePlay`) lost its dealer while in play with no one seated after
    (a shift ended, no closer at it or within the grace after it, no other shift begun at it or
    within the grace: a closer ends the shift running and is judged as a closer; a dealer seated
    within the grace is judged when their own shift ends)."""
    found = []
    for _began, ended in table.shifts:
        if ended is None or not table.active_at(ended - timedelta(microseconds=1)):
            continue
        until = ended + max(grace, timedelta(0))
        if any(ended <= c <= until for c in table.closers) or any(ended <= b <= until for b, _ in table.shifts):
            continue
        found.append(ended)
    return found


def _left_before(table, closed_at, reliefs) -> bool:
    """Whether `table` had left play by a relief already flagged (`reliefs`: their moments) and was
    not dealt again before this closer: the closer changes nothing then, and one breach is one
    alert."""
    return any(r < closed_at and not any(r < began < closed_at for began, _ in table.shifts) for r in reliefs)


def _low_table_closed(site_id, gaming_date, low, left_at, higher, book, time_zone, closed=True) -> Finding:
    from zoneinfo import ZoneInfo

    ceiling = book["low_table.minimum_ceiling_cents"]
    cite, limit = ceiling.citation, format_money(int(ceiling))
    moment = f"{left_at.astimezone(ZoneInfo(time_zone)):%H:%M}"
    still = ", ".join(f"table {t.number} (minimum {format_money(cents)})" for t, cents in higher)
    left = f"closed at {moment}" if closed else f"was left without a dealer at {moment}"
    title = "closed" if closed else "lost its dealer"
    return Finding(
        "low_table_closed", cite, f"Higher-minimum table active after the low table {title}", site_id,
        str(gaming_date), gaming_date, gaming_date,
        f"{cite}: table {low.number} (minimum {format_money(low.minimum_at(left_at))}) {left} on "
        f"{gaming_date} while {still} stayed active. \"The organization may establish a minimum wager at not more "
        f"than three dollars on one active table. If there is more than one active table at a site, the "
        f"organization may set a higher minimum wager on additional tables.\" Close the higher table or "
        f"{'open one' if closed else 'seat a dealer at one'} at {limit} or less, and document why play went on "
        f"above {limit}.",
        gaming_date,
        {"table": low.number, ("closed_at" if closed else "relieved_at"): left_at.isoformat(),
         "ceiling_cents": int(ceiling), "tables": [t.number for t, _ in higher]},
        f"table:{low.table_id}:{left_at.isoformat()}",
    )  # fmt: skip


# 11. ND 99-01.3-08-06(2): chips redeemable for thirty days after twenty-one stops ------------


def redemption_window_end(discontinued_on: date, book: ThresholdBook) -> date:
    """The last day the chips must still be redeemed: day 30 after the day twenty-one stopped."""
    return discontinued_on + timedelta(days=book.int("discontinued.redeem_days"))


def chips_redeemable_after_discontinuance(discontinued_on: date, on: date, book: ThresholdBook) -> bool:
    return discontinued_on <= on <= redemption_window_end(discontinued_on, book)


def discontinued_twenty_one(site_id: int, site_name: str, discontinued_on: date, book: ThresholdBook) -> Finding:
    days = book["discontinued.redeem_days"]
    until = redemption_window_end(discontinued_on, book)
    return Finding(
        "discontinued_redemption",
        days.citation,
        "Twenty-one discontinued: chips redeemable for 30 days",
        site_id,
        str(discontinued_on),
        discontinued_on,
        until,
        f"{days.citation}: twenty-one was discontinued at {site_name} on {discontinued_on}; redeem its chips for cash "
        f"at the business office or an active site for {int(days)} days, through {until}.",
        until,
        {"discontinued_on": str(discontinued_on), "redeem_until": str(until)},
    )


# 12. ND 99-01.3-08-03(2)-(3): chip colours once the specification applies --------------------


def chip_colours(site_id: int, on: date, problems: list[str], *, trigger: str, at) -> Finding | None:
    """The organization's chips miss 08-03(3) at a site where 08-03(2) makes it apply
    (surveillance installed, regardless of wagers, or the $10,000 gross proceeds level).
    One alert per site and quarter while the chips stay wrong."""
    if not problems:
        return None
    citation = CHIP_COLOURS.at(at)
    return _for_the_quarter(
        "chip_colours",
        citation,
        "Chips do not meet the colour specification",
        site_id,
        on,
        f"{citation}: {trigger}, so the chips must meet {CHIP_COLOUR_SPEC.at(at)}: " + " ".join(problems),
        {"problems": problems, "trigger": trigger},
    )


# 13. ND 99-01.3-08-06(3): tips redeemed before leaving -------------------------------------------


@dataclass(frozen=True)
class TipsAtLeaving:
    """A dealer whose last shift of a gaming day ended with tips undeclared or unredeemed."""

    site_id: int
    gaming_date: date
    dealer_id: int
    dealer: str
    declared: bool
    unredeemed_cents: int
    checked_at: str  # "closer" or "day close"


def tips_not_redeemed(found: TipsAtLeaving, *, at) -> Finding:
    """A dealer shall redeem tips before leaving a site: their last shift of the day ended (at a
    table's closer or the day's close) and their tips are not declared, or not all redeemed."""
    if not found.declared:
        what = "had not declared the tips they hold"
    else:
        what = f"still held {format_money(found.unredeemed_cents)} of unredeemed tips"
    citation = TIPS_BEFORE_LEAVING.at(at)
    return Finding(
        "tips_before_leaving",
        citation,
        "Tips not redeemed before leaving",
        found.site_id,
        str(found.gaming_date),
        found.gaming_date,
        found.gaming_date,
        f"{citation}: a dealer shall redeem tips before leaving a site; {found.dealer} {what} when "
        f"their last shift of {found.gaming_date} ended ({found.checked_at}). Have the tips declared and "
        "redeemed at the cashier, and document why they were not.",
        found.gaming_date,
        {
            "dealer": found.dealer_id,
            "declared": found.declared,
            "unredeemed_cents": found.unredeemed_cents,
            "checked_at": found.checked_at,
        },
        f"dealer:{found.dealer_id}",
    )


@dataclass(frozen=True)
class EarlyTournamentFee:
    """A tournament fee dated before its tournament was announced (tournaments.services)."""

    site_id: int
    time_zone: str
    tournament_id: int
    tournament: str
    fee_id: int
    fee: str  # "entry fee", "rebuy", "add-on"
    player: str
    fee_cents: int
    gaming_date: date
    collected_at: datetime
    announced_at: datetime


def tournament_fee_before_announcement(found: EarlyTournamentFee, *, disclosure: str) -> Finding:
    """House control: a tournament fee dated before the tournament was announced. `disclosure`:
    the site's pack's citation of the rules disclosed to players (ND 99-01.3-08-15), which states
    no time for the disclosure, so the fee stands and the alert asks for the paper."""
    zone = ZoneInfo(found.time_zone)
    collected = found.collected_at.astimezone(zone).strftime("%Y-%m-%d %H:%M %Z")
    announced = found.announced_at.astimezone(zone).strftime("%Y-%m-%d %H:%M %Z")
    return Finding(
        "tournament_fee_before_announcement", HOUSE_CONTROL, "Tournament fee before its announcement",
        found.site_id, str(found.gaming_date), found.gaming_date, found.gaming_date,
        f"{HOUSE_CONTROL}: {found.fee} {found.fee_id} of {found.player} ({format_money(found.fee_cents)}) at "
        f"{found.tournament} is dated {collected}, before the tournament was announced ({announced}). {disclosure} "
        "has its rules, the entry fee among them, disclosed to players; check the paper for when the rules were "
        "posted and the fee collected, and document it.",
        None,
        {"tournament": found.tournament_id, "fee": found.fee_id, "fee_collected_at": collected,
         "announced_at": announced},
        f"tournament-fee:{found.fee_id}",
    )  # fmt: skip


# 14. The chip float: the inventory against the banks and trays ------------------------------------


@dataclass(frozen=True)
class ChipFloatShort:
    """One chip value of one organization whose banks and trays hold more chips than its
    inventory log says exist, seen from one of the sites holding them."""

    site_id: int
    on_date: date
    counted_through: date  # the latest gaming date of a count read
    value_cents: int
    exist: int  # the organization's, per the inventory log
    bank: int  # every site's bank of the organization, at its last count
    trays: int  # every active table's tray, at its last count
    site_bank: int  # this site's
    site_trays: int

    @property
    def outstanding(self) -> int:
        return self.exist - self.bank - self.trays


def chip_float_short(short: ChipFloatShort, *, at) -> Finding:
    """exist = bank + trays + outstanding (with players, derived): a negative outstanding means
    chips are on the tables or in the banks that the inventory log does not account for (chips
    received but not logged, a count keyed in the wrong value, or chips that are not the
    house's). `at`: the site (or its pack), whose citation the finding carries."""
    citation = CHIP_FLOAT.at(at)
    value = format_money(short.value_cents)
    return Finding(
        "chip_float",
        citation,
        "Chips on the tables and in the banks exceed the chip inventory",
        short.site_id,
        str(short.counted_through),
        short.counted_through,
        short.on_date,
        f"{citation}: the chip inventory log says {short.exist:,} {value} chips exist, but the banks' last counts "
        f"hold {short.bank:,} and the trays' last counts {short.trays:,} ({short.site_bank:,} and "
        f"{short.site_trays:,} at this site): {-short.outstanding:,} more than exist. Record the chips received "
        "in the inventory log, or find the miscounted bank or tray and correct it.",
        short.on_date,
        {
            "value_cents": short.value_cents,
            "exist": short.exist,
            "bank": short.bank,
            "trays": short.trays,
            "outstanding": short.outstanding,
            "site_bank": short.site_bank,
            "site_trays": short.site_trays,
        },
        f"chip:{short.value_cents}",
    )


@dataclass(frozen=True)
class FiledReturnAmended:
    """A figure entered after a quarter was filed that changes its return (accounting.amendments)."""

    site_id: int
    site: str
    quarter: str
    period_start: date
    period_end: date
    filing_id: int
    filed_on: date
    filed_sha256: str
    amendment_id: int
    figure: str  # its label: "AGP", "Cash profit", "Other games' AGP", "Tournament AGP"
    delta_cents: int
    entry: str  # "adjustment 12 of 2026-08-14's drop, counted on gaming day 2026-10-02", "other games' AGP entry 3",
    # "void of tournament fee 7 of 2026-08-14, counted on gaming day 2026-11-20"


def filed_return_amended(found: FiledReturnAmended, *, citation: str) -> Finding:
    """The gaming manager is told that a filed return's figure moved: the filed figures stand
    (their SHA-256 never changes), the amendment is shown beside them, and the manager decides
    whether an amended return is filed. `citation`: the filing rule of the site's pack."""
    return Finding(
        "filed_return_amended", citation, "Filed quarter amended", found.site_id, found.quarter,
        found.period_start, found.period_end,
        f"{citation}: the quarterly summary of {found.quarter} at {found.site} was filed on {found.filed_on} "
        f"(SHA-256 {found.filed_sha256}); {found.entry} changes its {found.figure} by "
        f"{format_money(found.delta_cents, signed=True)}. The filed figures stand and the amendment is shown beside "
        "them; review it, file an amended return if it is due, and document it.",
        None,
        {"filing": found.filing_id, "filed_sha256": found.filed_sha256, "amended_figure": found.figure,
         "delta_cents": found.delta_cents, "entry": found.entry},
        f"amendment:{found.amendment_id}",
    )  # fmt: skip
