"""The reports' rules and form names, keyed: each pack states the ones its law has (packs/*/reports.py).

A report kind's rule (the citation under its title) and the form it follows (North Dakota's SFN
forms) are the site's pack's: at a site whose pack states none, the report has its plain title
and is cited "House control" (a WA or NY house keeps the same records as its own control).
"""

from packs import Rule

# The forms a report follows, printed only where the pack states them.
FORM_DAILY = Rule("reports.form_daily")
FORM_DAILY_CONTINUATION = Rule("reports.form_daily_continuation")
FORM_QUARTERLY = Rule("reports.form_quarterly")
FORM_DEALER_SHIFTS = Rule("reports.form_dealer_shifts")
FORM_DEALER_HOLD = Rule("reports.form_dealer_hold")

# Each kind's rule: the sections (and forms) of the pack's law that the report answers.
ALERTS = Rule("reports.alerts")
CHIP_INVENTORY = Rule("reports.chip_inventory")
COUNT_SHEETS = Rule("reports.count_sheets")
DAILY = Rule("reports.daily")
DEALER_HOLD = Rule("reports.dealer_hold")
DEALER_SHIFTS = Rule("reports.dealer_shifts")
QUARTERLY = Rule("reports.quarterly")
SLIP_REGISTER = Rule("reports.slip_register")
SURVEILLANCE_LOG = Rule("reports.surveillance_log")
TOURNAMENT_RECORD = Rule("reports.tournament_record")

# Sections inside the reports, cited where the pack states them.
SURVEILLANCE_DAILY_LOG = Rule("reports.surveillance_daily_log")
VIDEO_REVIEW_PROGRAMS = Rule("reports.video_review_programs")

# How long a report is kept: the records' retention rule (ND 99-01.3-08-16) where the pack states
# it; elsewhere the same period is kept as a house control.
RETENTION = Rule("reports.retention")

# The tournament record's sections: the rules disclosed, the register, fees, prizes and win.
TOURNAMENT_RULES = Rule("reports.tournament_rules")
TOURNAMENT_REGISTER = Rule("reports.tournament_register")
TOURNAMENT_FEES = Rule("reports.tournament_fees")
TOURNAMENT_PRIZES = Rule("reports.tournament_prizes")
# The dealer reports' wheel operators (paddlewheel) section.
WHEEL_OPERATORS = Rule("reports.wheel_operators")
