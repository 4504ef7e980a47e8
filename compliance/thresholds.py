"""The thresholds and deadlines of the rules, as data with citation and effective date.

Each pack states the thresholds of its flag rules (`Pack.thresholds`, in its compliance module);
`SEED` gathers them with the house's own and is loaded by a data migration; a later change of regulation is a new row with a later
`effective_from` (through the admin or a migration), and the rules pick the row in force on
the date they judge."""

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from django.core.exceptions import ImproperlyConfigured, ValidationError

from core.rules import HOUSE_CONTROL
from packs import all_packs, get_pack

# The house's own thresholds (every pack): code, value, unit, citation, summary, effective from.
HOUSE_SEED = [
    (
        "reminder.days_before_due",
        7,
        "days",
        "House control",
        "Send a reminder this many days before an alert's due date.",
        date(2000, 1, 1),
    ),
]


def pack_seeds() -> dict[str, list[tuple]]:
    """Each pack's threshold rows (`Pack.thresholds`, in the pack's compliance module) by pack code."""
    return {pack.code: list(pack.thresholds) for pack in all_packs()}


def codes_of(packs) -> set[str]:
    """The threshold codes of some packs, and the house's own (shown to everyone)."""
    return {row[0] for row in HOUSE_SEED} | {row[0] for pack in packs for row in pack.thresholds}


def readers_of(code: str) -> list[str]:
    """The codes of the packs whose rules read threshold `code` (none for the house's own, which
    judges no period: when a reminder is sent)."""
    return [pack.code for pack in all_packs() if code in {row[0] for row in pack.thresholds}]


def refuse_backdating(code: str, effective_from: date | None) -> None:
    """House control: a change of regulation takes effect after the last quarter filed at a site
    whose pack reads the threshold. Dated inside it, the new row would judge a filed quarter by
    another rule than the one it was filed under (its quarter page, API and report would print
    another low-hold threshold beside its game, and another verdict) with no amendment. A day
    closed but not yet filed may still be judged by a change of the law in force on it, as its
    nightly checks would judge it on a later run."""
    from accounting.published import last_filed_date

    packs = readers_of(code)
    if not packs or effective_from is None:
        return
    last = last_filed_date(packs)
    if last is None or effective_from > last:
        return
    where = f"a site of {', '.join(get_pack(p).name for p in packs)}"
    raise ValidationError(
        {
            "effective_from": f"{HOUSE_CONTROL}: quarters are filed at {where} through {last.isoformat()}; a "
            f"threshold in force from {effective_from.isoformat()} would judge a filed quarter by another rule "
            f"than it was filed under. Give a date from {(last + timedelta(days=1)).isoformat()} on."
        }
    )


# Every seed row: the house's and each pack's (the data migrations load these).
SEED = [*HOUSE_SEED, *(row for rows in pack_seeds().values() for row in rows)]


@dataclass(frozen=True)
class ThresholdValue:
    code: str
    value: Decimal
    citation: str
    effective_from: date

    def __int__(self) -> int:
        return int(self.value)


class ThresholdBook:
    """All thresholds in force on one date, loaded with one query (none when given `rows`, every
    threshold row as `rows()` reads them: a run builds the books of its dates from one read)."""

    def __init__(self, on: date, rows: list[ThresholdValue] | None = None):
        self.on = on
        self._values: dict[str, ThresholdValue] = {}
        for row in self.rows(on) if rows is None else rows:
            if row.effective_from <= on:  # in (code, effective_from) order: the last in force wins
                self._values[row.code] = row

    @staticmethod
    def rows(on: date | None = None) -> list[ThresholdValue]:
        """The threshold rows (those in force by `on`), by code and then effective date."""
        from .models import Threshold

        found = Threshold.objects.order_by("code", "effective_from")
        if on is not None:
            found = found.filter(effective_from__lte=on)
        return [ThresholdValue(r.code, Decimal(r.value), r.citation, r.effective_from) for r in found]

    def __getitem__(self, code: str) -> ThresholdValue:
        try:
            return self._values[code]
        except KeyError as exc:
            raise ImproperlyConfigured(f"No threshold {code!r} is in force on {self.on}") from exc

    def int(self, code: str) -> int:
        return int(self[code].value)


def add_seed_rows(model, codes: set[str] | None = None) -> int:
    """Add each seed row (of `codes`, or every one) not yet held, by code and effective date, and
    return how many were added. A row held is never touched, whatever the seed now says of it: the
    days and quarters judged by it keep the law they were under (a change of the law is a new row
    with a later date; `packs.ledger` refuses a seed edited in place). `model` is the Threshold
    model, or a data migration's historical one (every seeding migration loads through this)."""
    added = 0
    for code, value, unit, citation, summary, effective_from in SEED:
        if codes is None or code in codes:
            _, created = model.objects.get_or_create(
                code=code,
                effective_from=effective_from,
                defaults={"value": value, "unit": unit, "citation": citation, "summary": summary},
            )
            added += created
    return added


def ensure_seeded() -> None:
    """Load any missing seed row (the data migrations do this; a flushed test database or a
    new seed added later needs it again)."""
    from .models import Threshold

    add_seed_rows(Threshold)


def judged_from(jurisdictions) -> tuple[date, str]:
    """The first day the rules can judge at sites of these packs (codes), and the citation of the
    text that sets it: the latest of the first days of the thresholds they use (each code's
    earliest row, as held in the database, the house's and each pack's). Before it a rule's law of
    the day is not held: a run over it would have nothing to judge by, so it is refused (the
    quarter is named), not stopped half way."""
    codes = codes_of([get_pack(code) for code in set(jurisdictions)])
    first: dict[str, ThresholdValue] = {}
    for row in ThresholdBook.rows():  # by code, then date: a code's first row is its earliest
        if row.code in codes:
            first.setdefault(row.code, row)
    latest = max(first.values(), key=lambda row: row.effective_from)
    return latest.effective_from, latest.citation


LOW_HOLD_CODES = {"21": "low_hold.ratio_21", "PW": "low_hold.ratio_pw"}


def hold_threshold_schedule() -> dict:
    """Every low-hold threshold row by game ({"21": (...), "PW": (...)}), in one query: the
    books' summaries show each game beside its own (accounting.games, registered at start-up)."""
    from accounting.published import HoldThreshold

    from .models import Threshold

    games = {code: game for game, code in LOW_HOLD_CODES.items()}
    schedule: dict[str, list] = {game: [] for game in LOW_HOLD_CODES}
    for row in Threshold.objects.filter(code__in=list(games)):
        schedule[games[row.code]].append(HoldThreshold(Decimal(row.value), row.citation, row.effective_from))
    return {game: tuple(rows) for game, rows in schedule.items()}
