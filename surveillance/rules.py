"""Surveillance thresholds and deadlines as data, each with the rule it comes from.

Every other module of this app reads these; none writes a threshold as a literal. Each rule is
named by a key (`packs.Rule`), cited at a site by its pack: North Dakota's chapter 99-01.3-08-04
states them (packs/nd/surveillance.py). Where a site's pack does not, an obligation of 08-04 (a
trigger, a deadline, a $2 cap) does not apply there (`Rule.applies`), and the records the site
may still keep (equipment, outages, recordings, the review log) are its house's own control.
"""

from datetime import timedelta

from cardroom.access import ReadRule
from cardroom.models import Role
from core.rules import HOUSE_CONTROL
from packs import LimitKey, Rule

SYSTEM = Rule("surveillance.system")
SPECIAL_EVENT = Rule("surveillance.special_event")
VIDEO_ACCESS = Rule("surveillance.video_access")
VIDEO_ACCESS_STORED = Rule("surveillance.video_access_stored")
RECORDING_COVERS_PLAY = Rule("surveillance.recording_covers_play")
RECORDER_OVERLAP_RULE = Rule("surveillance.recorder_overlap")
RETENTION = Rule("surveillance.retention")
DAILY_REVIEW = Rule("surveillance.daily_review")
DAILY_REVIEW_RECORD = Rule("surveillance.daily_review_record")
FIELD_OF_VIEW = Rule("surveillance.field_of_view")
OUTAGE_DEADLINE = Rule("surveillance.outage_deadline")
REVIEW_PROGRAM = Rule("surveillance.review_program")
VENDOR_DEFERRAL = Rule("surveillance.vendor_deferral")
VIDEO_SAMPLE = Rule("surveillance.video_sample")
SAMPLE_EVALUATION_FORM = Rule("surveillance.sample_evaluation_form")
REVIEW_DOCUMENTS = Rule("surveillance.review_document_retention")


# The numbers of 08-04 are the site's pack's, effective-dated, each with its section (ND's:
# packs/nd/surveillance.py `LIMITS`): `OUTAGE_CALENDAR_LIMIT.on(site, day).value` is the one in
# force on the day of the act. A site whose pack states none: the outage deadlines and the
# retention of recordings are kept as the house's own control, at the values below (cited "House
# control"); the caps, the overlap, the 45 days and the special events apply only where the pack
# states them (their rule `applies`), and are asked for only there.

# A camera or recorder not working properly is repaired within 48 hours of activity on the table or
# 4 calendar days, whichever comes first; after that the table is closed or its wagers capped.
OUTAGE_ACTIVITY_LIMIT = LimitKey(
    "surveillance.outage_activity", OUTAGE_DEADLINE, house=(timedelta(hours=48), "48 hours of activity on the table")
)
OUTAGE_CALENDAR_LIMIT = LimitKey(
    "surveillance.outage_calendar", OUTAGE_DEADLINE, house=(timedelta(days=4), "4 calendar days")
)
OUTAGE_WAGER_CAP_CENTS = LimitKey("surveillance.outage_wager_cap_cents", OUTAGE_DEADLINE)

# Two recorders in sequence for one table overlap by the pack's minutes.
RECORDER_OVERLAP = LimitKey("surveillance.recorder_overlap", RECORDER_OVERLAP_RULE)

# A table is recorded from when chips are first made available until it is permanently closed for
# the day (RECORDING_COVERS_PLAY).

# Recorded video is kept in a safe place for the pack's days.
RECORDING_RETENTION = LimitKey("surveillance.retention", RETENTION, house=(timedelta(days=30), "30 days"))

# A sample recording within the pack's days of an equipment change, the acquisition of a site's
# equipment, or a camera or table move (ND 99-01.3-08-04(11)); where the pack states none, the
# change's record keeps the house's own date, 14 days on.
SAMPLE_DUE = LimitKey("surveillance.sample_due", VIDEO_SAMPLE, house=(timedelta(days=14), "14 days"))

# The share of an approved vendor's price deferred until the attorney general approves the
# clarity of the recorded video (ND 99-01.3-08-04(10)): asked only where the pack states it.
VENDOR_DEFERRED_SHARE = LimitKey("surveillance.vendor_deferred_share", VENDOR_DEFERRAL)

# A low-hold video review (ND's 08-04(9)): at least the pack's footage a week of reviewed video for
# each active table, for the pack's continuous weeks or until the reason is documented. A program a
# gaming manager opens at a site whose pack states none is the house's own, at the values below.
REVIEW_PROGRAM_LENGTH = LimitKey(
    "surveillance.review_program_length", REVIEW_PROGRAM, house=(timedelta(weeks=6), "6 continuous weeks")
)
REVIEW_MIN_FOOTAGE = LimitKey(
    "surveillance.review_min_footage", REVIEW_PROGRAM, house=(timedelta(hours=1), "at least one hour per week")
)
REVIEW_WEEK = timedelta(weeks=1)  # the program's unit of review, not a number of the law
# Where the pack states none, the gaming manager sets the house program's length (whole weeks)
# and footage per table a week when opening it, within these bounds (house control: half a year,
# and no more footage than a full-time reviewer watches in a week).
HOUSE_PROGRAM_MAX_WEEKS = 26
HOUSE_PROGRAM_MAX_FOOTAGE_MINUTES = 40 * 60

# A site whose twenty-one activity requires a system has it operational within the pack's days (from
# the end of the second quarter; at newly acquired premises, of conducting twenty-one there), or
# limits wagers to the pack's cap until it is.
OPERATIONAL_WITHIN = LimitKey("surveillance.operational_within", SYSTEM)
NOT_OPERATIONAL_WAGER_CAP_CENTS = LimitKey("surveillance.not_operational_wager_cap_cents", SYSTEM)

# A temporary table brought in for a special event for at most the pack's consecutive days, at most
# its number of events a quarter, needs no system.
SPECIAL_EVENT_MAX_DAYS = LimitKey("surveillance.special_event_max_days", SPECIAL_EVENT)
SPECIAL_EVENT_MAX_PER_QUARTER = LimitKey("surveillance.special_event_max_per_quarter", SPECIAL_EVENT)

# Video review documentation kept for the pack's time from the quarter's end (ND's 08-16(1)(h)).
REVIEW_DOCUMENT_RETENTION = LimitKey("surveillance.review_document_retention", REVIEW_DOCUMENTS)

# ND 99-01.3-08-04(5): only a gaming or shift manager or an independent person accesses a
# recording unit, camera or stored video, and starts, stops or changes a recording.
VIDEO_ACCESS_ROLES = frozenset({Role.GAMING_MANAGER, Role.SHIFT_MANAGER})


# Who does what in this app (the product's reading; auditors only read).
STAFF_ROLES = frozenset({Role.GAMING_MANAGER, Role.SHIFT_MANAGER})
DAILY_LOG_ROLES = frozenset({Role.GAMING_MANAGER, Role.SHIFT_MANAGER, Role.PIT_BOSS})
OUTAGE_REPORT_ROLES = frozenset({Role.GAMING_MANAGER, Role.SHIFT_MANAGER, Role.PIT_BOSS})
READ_ROLES = frozenset({Role.GAMING_MANAGER, Role.SHIFT_MANAGER, Role.PIT_BOSS, Role.AUDITOR})
SURVEILLANCE_RECORDS = ReadRule(READ_ROLES, HOUSE_CONTROL, "see a site's surveillance records")
