"""The thresholds and deadlines of the rules, as data with citation and effective date.

`SEED` is loaded by a data migration; a later change of regulation is a new row with a later
`effective_from` (through the admin or a migration), and the rules pick the row in force on
the date they judge."""

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.core.exceptions import ImproperlyConfigured

ND_08_01_DATE = date(2016, 4, 1)  # amended effective April 1, 2016
ND_08_04_DATE = date(2018, 7, 1)  # amended effective July 1, 2018
ND_03_10_DATE = date(2016, 4, 1)
ND_08_06_DATE = date(2016, 4, 1)  # amended effective April 1, 2016

# code, value, unit, citation, summary, effective from
SEED = [
    ("prizes_over_gp.contact_days", 30, "days", "ND 99-01.3-08-01(3)",
     "Contact the attorney general within 30 days of the end of a quarter in which twenty-one prizes exceeded gross proceeds.", ND_08_01_DATE),
    ("prizes_over_gp.dealer_hold_weeks", 12, "weeks", "ND 99-01.3-08-01(3)",
     "Keep twenty-one percent-of-hold records for each dealer at the site for twelve continuous weeks.", ND_08_01_DATE),
    ("low_hold.ratio_21", Decimal("0.10"), "ratio", "ND 99-01.3-08-04(9)",
     "At a surveillance site, twenty-one percent-of-hold below ten percent for a quarter starts a video review.", ND_08_04_DATE),
    ("low_hold.ratio_pw", Decimal("0.15"), "ratio", "ND 99-01.3-08-04(9)",
     "At a surveillance site, paddlewheel percent-of-hold below fifteen percent for a quarter starts a video review.", ND_08_04_DATE),
    ("low_hold.review_weeks", 6, "weeks", "ND 99-01.3-08-04(9)",
     "The video review continues for six continuous weeks or until the reason is documented.", ND_08_04_DATE),
    ("low_hold.review_minutes_per_week", 60, "minutes", "ND 99-01.3-08-04(9)",
     "At least one hour per week of video for each active table is reviewed and documented.", ND_08_04_DATE),
    ("surveillance.gp_average_cents", 1_000_000, "cents", "ND 99-01.3-08-04",
     "Twenty-one gross proceeds averaging $10,000 or more per quarter for two entire consecutive quarters.", ND_08_04_DATE),
    ("surveillance.wager_above_cents", 200, "cents", "ND 99-01.3-08-04",
     "Surveillance is required only where wagers exceed two dollars.", ND_08_04_DATE),
    ("surveillance.operational_days", 45, "days", "ND 99-01.3-08-04",
     "The video surveillance system must be operational within 45 days from the end of the second quarter.", ND_08_04_DATE),
    ("outage.activity_hours", 48, "hours", "ND 99-01.3-08-04(7)",
     "Equipment not repaired within 48 hours of activity on the table ...", ND_08_04_DATE),
    ("outage.calendar_days", 4, "days", "ND 99-01.3-08-04(7)",
     "... or four calendar days: close the table or limit wagers to two dollars.", ND_08_04_DATE),
    ("outage.wager_cap_cents", 200, "cents", "ND 99-01.3-08-04(7)",
     "The wager limit on a table whose surveillance equipment is past its repair deadline.", ND_08_04_DATE),
    ("sample.due_days", 14, "days", "ND 99-01.3-08-04(11)",
     "A sample recorded video is due to the attorney general within 14 days of an equipment change.", ND_08_04_DATE),
    ("deposit.banking_days", 3, "days", "ND 99-01.3-03-10(1)",
     "The bank deposit is due by the third banking day after the activity.", ND_03_10_DATE),
    ("discontinued.redeem_days", 30, "days", "ND 99-01.3-08-06(2)",
     "After twenty-one is discontinued at a site, its chips are redeemed at the business office or an active site for thirty days.",
     ND_08_06_DATE),
    ("reminder.days_before_due", 7, "days", "House control",
     "Send a reminder this many days before an alert's due date.", date(2000, 1, 1)),
]


@dataclass(frozen=True)
class ThresholdValue:
    code: str
    value: Decimal
    citation: str
    effective_from: date

    def __int__(self) -> int:
        return int(self.value)


class ThresholdBook:
    """All thresholds in force on one date, loaded with one query."""

    def __init__(self, on: date):
        from .models import Threshold

        self.on = on
        self._values: dict[str, ThresholdValue] = {}
        for row in Threshold.objects.filter(effective_from__lte=on).order_by("code", "effective_from"):
            self._values[row.code] = ThresholdValue(row.code, Decimal(row.value), row.citation, row.effective_from)

    def __getitem__(self, code: str) -> ThresholdValue:
        try:
            return self._values[code]
        except KeyError as exc:
            raise ImproperlyConfigured(f"No threshold {code!r} is in force on {self.on}") from exc

    def int(self, code: str) -> int:
        return int(self[code].value)

    def decimal(self, code: str) -> Decimal:
        return self[code].value


def ensure_seeded() -> None:
    """Load any missing seed row (the data migration does this; a flushed test database or a
    new seed added later needs it again)."""
    from .models import Threshold

    for code, value, unit, citation, summary, effective_from in SEED:
        Threshold.objects.get_or_create(
            code=code, effective_from=effective_from,
            defaults={"value": value, "unit": unit, "citation": citation, "summary": summary},
        )


LOW_HOLD_CODES = {"21": "low_hold.ratio_21", "PW": "low_hold.ratio_pw"}


def hold_threshold_schedule() -> dict:
    """Every low-hold threshold row by game ({"21": (...), "PW": (...)}), in one query: the
    books' summaries show each game beside its own (accounting.games, registered at start-up)."""
    from accounting.games import HoldThreshold

    from .models import Threshold

    games = {code: game for game, code in LOW_HOLD_CODES.items()}
    schedule: dict[str, list] = {game: [] for game in LOW_HOLD_CODES}
    for row in Threshold.objects.filter(code__in=list(games)):
        schedule[games[row.code]].append(HoldThreshold(Decimal(row.value), row.citation, row.effective_from))
    return {game: tuple(rows) for game, rows in schedule.items()}
