"""North Dakota's law for the flag rules and their thresholds: rule key -> citation.

Each key names a compliance check (`compliance.rules`, `compliance.providers`): the check runs
only at a site whose pack states its key (`Rule.applies`), and its alerts cite the key here."""

from datetime import date
from decimal import Decimal

from .cage import LIMITS as CAGE_LIMITS
from .core import CITATIONS as CORE_CITATIONS
from .floor import CITATIONS as FLOOR_CITATIONS
from .procedures import CITATIONS as PROCEDURE_CITATIONS
from .surveillance import LIMITS as SURVEILLANCE_LIMITS
from .tables import LOW_MINIMUM_CEILING_CENTS, ND_08_01_DATE, ND_08_09_DATE

# The deposit deadline's and the outage limits' one source: the cage's and surveillance's limits
# (`cage.LIMITS`, `surveillance.LIMITS`), seeded as the thresholds of the checks too.
_LIMIT = {x.key: x for x in CAGE_LIMITS + SURVEILLANCE_LIMITS}
DEPOSIT_DAYS = _LIMIT["cage.deposit_banking_days"]
OUTAGE_ACTIVITY = _LIMIT["surveillance.outage_activity"]
OUTAGE_CALENDAR = _LIMIT["surveillance.outage_calendar"]
OUTAGE_CAP = _LIMIT["surveillance.outage_wager_cap_cents"]
OPERATIONAL_WITHIN = _LIMIT["surveillance.operational_within"]
SAMPLE_DUE = _LIMIT["surveillance.sample_due"]
REVIEW_LENGTH = _LIMIT["surveillance.review_program_length"]
REVIEW_FOOTAGE = _LIMIT["surveillance.review_min_footage"]

CITATIONS: dict[str, str] = {
    # 08-01(3): prizes over gross proceeds (attorney general, dealer percent-of-hold for 12 weeks)
    "compliance.prizes_over_gp": "ND 99-01.3-08-01(3)",
    # 08-04(9): low hold at a surveillance site, and the video review program it starts
    "compliance.low_hold": "ND 99-01.3-08-04(9)",
    # 08-04 (opening paragraph): the activity that requires a system; its deadline; special events
    "compliance.surveillance_required": "ND 99-01.3-08-04",
    "compliance.surveillance_operational": "ND 99-01.3-08-04",
    "compliance.special_event_exemption": "ND 99-01.3-08-04",
    # 08-04(5)(b): recordings cover a table's play
    "compliance.recording_covers_play": "ND 99-01.3-08-04(5)(b)",
    # 08-04(7): an outage past its deadline; the daily review log (and its record, 08-16(1)(d))
    "compliance.outage_operating": "ND 99-01.3-08-04(7)",
    "compliance.review_log": "ND 99-01.3-08-04(7)",
    "compliance.review_log_record": "ND 99-01.3-08-16(1)(d)",
    # 08-04(8): at a surveillance site, a dealer's and wheel operator's percent-of-hold is tracked
    "compliance.dealer_hold_tracked": "ND 99-01.3-08-04(8)",
    # 08-04(11): a sample recording after an equipment change
    "compliance.video_sample": "ND 99-01.3-08-04(11)",
    # 08-03(2): when the chip colour specification applies; 08-03(3): the specification
    "compliance.chip_colours": "ND 99-01.3-08-03(2)",
    "compliance.chip_colour_spec": "ND 99-01.3-08-03(3)",
    # 08-03(2): each chip bears the organization's name (or a unique identification) on one side: an
    # active chip with no marking recorded (one made before it was kept) is flagged each night
    "compliance.chip_marking": CORE_CITATIONS["core.chip_marking"],
    # 08-05: fill and credit slips
    "compliance.slip_numbering": "ND 99-01.3-08-05(2)",
    "compliance.slip_verified": "ND 99-01.3-08-05(5)",
    "compliance.slip_received": "ND 99-01.3-08-05(6)",
    # 08-14: drop boxes removed, counted, differences resolved
    "compliance.count_removed": "ND 99-01.3-08-14(1)",
    "compliance.count_counted": "ND 99-01.3-08-14",
    "compliance.count_resolved": "ND 99-01.3-08-14(4)",
    # 03-10(1): the bank deposit by the third banking day
    "compliance.deposit_deadline": "ND 99-01.3-03-10(1)",
    # 08-06(2): chips redeemable for thirty days after twenty-one is discontinued at a site
    "compliance.discontinued_redemption": "ND 99-01.3-08-06(2)",
    # 08-09(1): a minimum above $3 only on an additional active table: the low table's play ended
    # while a higher one stayed active
    "compliance.low_table_closed": "ND 99-01.3-08-09(1)",
    # 08-07(1), (2): a table in play on a closed gaming day with no approval of its decks, or no
    # inspection of its dealing shoe, recorded that day (the floor's card checks)
    "compliance.decks_approved": FLOOR_CITATIONS["floor.decks_approved"],
    "compliance.shoe_inspected": FLOOR_CITATIONS["floor.shoe_inspected"],
    # 08-06(3): a dealer redeems tips before leaving a site
    "compliance.tips_before_leaving": "ND 99-01.3-08-06(3)",
    # 08-16(2): inventory records (per 03-09(6), a text we do not hold), on the attorney general's
    # SFN 17930; 08-16(6): "the count and reconciliation of cash banks and casino and betting chips":
    # the chips the log says exist cover what the banks and trays hold (the nightly chip float check)
    "compliance.chip_float": "ND 99-01.3-08-16(2), (6); SFN 17930",
    # 08-06(2): the organization has adopted a procedure on redeeming a player's chips; 08-08(1): at
    # a site with a video surveillance system, its dealers' shuffle and cut are standardized
    # (`approvals.WrittenProcedure`, flagged each night while none is in force)
    "compliance.chip_redemption_procedure": PROCEDURE_CITATIONS["procedures.chip_redemption"],
    "compliance.shuffle_procedure": PROCEDURE_CITATIONS["procedures.shuffle_and_cut"],
}

ND_08_03_DATE = date(2016, 4, 1)  # amended effective April 1, 2016
ND_08_04_DATE = date(2018, 7, 1)  # amended effective July 1, 2018
ND_08_06_DATE = date(2016, 4, 1)  # amended effective April 1, 2016

# The thresholds of these rules (compliance.Threshold rows): code, value, unit, citation, summary,
# effective from. A later amendment is a new row with a later date.
THRESHOLDS: tuple[tuple, ...] = (
    (
        "low_table.minimum_ceiling_cents",
        LOW_MINIMUM_CEILING_CENTS,
        "cents",
        "ND 99-01.3-08-09(1)",
        "A minimum wager of not more than three dollars on one active table; a higher minimum only on additional "
        "tables while more than one table is active. The low table closing while a higher one stays active is flagged.",
        ND_08_09_DATE,
    ),
    (
        "low_table.grace_minutes",
        0,
        "minutes",
        "ND 99-01.3-08-09(1)",
        "The text allows no time: a table with a higher minimum is not active once the low table has closed.",
        ND_08_09_DATE,
    ),
    (
        "prizes_over_gp.contact_days",
        30,
        "days",
        "ND 99-01.3-08-01(3)",
        "Contact the attorney general within 30 days of the end of a quarter in which twenty-one prizes exceeded gross proceeds.",
        ND_08_01_DATE,
    ),
    (
        "prizes_over_gp.dealer_hold_weeks",
        12,
        "weeks",
        "ND 99-01.3-08-01(3)",
        "Keep twenty-one percent-of-hold records for each dealer at the site for twelve continuous weeks.",
        ND_08_01_DATE,
    ),
    (
        "low_hold.ratio_21",
        Decimal("0.10"),
        "ratio",
        "ND 99-01.3-08-04(9)",
        "At a surveillance site, twenty-one percent-of-hold below ten percent for a quarter starts a video review.",
        ND_08_04_DATE,
    ),
    (
        "low_hold.ratio_pw",
        Decimal("0.15"),
        "ratio",
        "ND 99-01.3-08-04(9)",
        "At a surveillance site, paddlewheel percent-of-hold below fifteen percent for a quarter starts a video review.",
        ND_08_04_DATE,
    ),
    (
        "low_hold.review_weeks",
        REVIEW_LENGTH.value.days // 7,
        "weeks",
        REVIEW_LENGTH.citation,
        "The video review continues for six continuous weeks or until the reason is documented.",
        ND_08_04_DATE,
    ),
    (
        "low_hold.review_minutes_per_week",
        int(REVIEW_FOOTAGE.value.total_seconds() // 60),
        "minutes",
        REVIEW_FOOTAGE.citation,
        "At least one hour per week of video for each active table is reviewed and documented.",
        ND_08_04_DATE,
    ),
    (
        "chips.gp_average_cents",
        1_000_000,
        "cents",
        "ND 99-01.3-08-03(2)",
        "Twenty-one gross proceeds averaging $10,000 or more for two consecutive quarters: the chips must meet the "
        "colours and edge spots of 08-03(3), regardless of the value of wagers accepted at the site.",
        ND_08_03_DATE,
    ),
    (
        "surveillance.gp_average_cents",
        1_000_000,
        "cents",
        "ND 99-01.3-08-04",
        "Twenty-one gross proceeds averaging $10,000 or more per quarter for two entire consecutive quarters.",
        ND_08_04_DATE,
    ),
    (
        "surveillance.wager_above_cents",
        200,
        "cents",
        "ND 99-01.3-08-04",
        "Surveillance is required only where wagers exceed two dollars.",
        ND_08_04_DATE,
    ),
    (
        "surveillance.operational_days",
        OPERATIONAL_WITHIN.value.days,
        "days",
        OPERATIONAL_WITHIN.citation,
        "The video surveillance system must be operational within 45 days from the end of the second quarter.",
        ND_08_04_DATE,
    ),
    (
        "outage.activity_hours",
        int(OUTAGE_ACTIVITY.value.total_seconds() // 3600),
        "hours",
        OUTAGE_ACTIVITY.citation,
        "Equipment not repaired within 48 hours of activity on the table ...",
        ND_08_04_DATE,
    ),
    (
        "outage.calendar_days",
        OUTAGE_CALENDAR.value.days,
        "days",
        OUTAGE_CALENDAR.citation,
        "... or four calendar days: close the table or limit wagers to two dollars.",
        ND_08_04_DATE,
    ),
    (
        "outage.wager_cap_cents",
        OUTAGE_CAP.value,
        "cents",
        OUTAGE_CAP.citation,
        "The wager limit on a table whose surveillance equipment is past its repair deadline.",
        ND_08_04_DATE,
    ),
    (
        "sample.due_days",
        SAMPLE_DUE.value.days,
        "days",
        SAMPLE_DUE.citation,
        "A sample recorded video is due to the attorney general within 14 days of an equipment change.",
        ND_08_04_DATE,
    ),
    (
        "deposit.banking_days",
        DEPOSIT_DAYS.value,
        "days",
        DEPOSIT_DAYS.citation,
        "The bank deposit is due by the third banking day after the activity.",
        DEPOSIT_DAYS.effective_from,
    ),
    (
        "discontinued.redeem_days",
        30,
        "days",
        "ND 99-01.3-08-06(2)",
        "After twenty-one is discontinued at a site, its chips are redeemed at the business office or an active site for thirty days.",
        ND_08_06_DATE,
    ),
)
