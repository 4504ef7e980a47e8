"""Bounds on what any input may say: amounts, quantities, printed numbers, ids, dates, text,
request bodies and lists.

House controls: the regulations set none of these. They keep every figure inside what the
database columns, the period arithmetic and the reports can hold, and far above anything a
card room records, so that bad input is a 400 naming the field instead of a server error.
One constant per kind, here; the API fields (cardroom.api), the filters (core.api_filters),
the parsers and the services' line parsers all read them from this module.
"""

import re
from datetime import date, datetime, time

from django.core.exceptions import ValidationError
from django.utils import timezone

from .rules import HOUSE_CONTROL as CITED_HOUSE_CONTROL

HOUSE_CONTROL = "house control"

# One amount of money (an IOU, a deposit, an ideal bank, an adjustment, a price):
# $10,000,000.00, inside every money column (the narrowest is a 32-bit integer of cents).
MAX_AMOUNT_CENTS = 1_000_000_000
# Pieces (chips, notes or coins) on one line of a count, a slip, a movement or a redemption.
MAX_QUANTITY = 1_000_000
# A printed form number (fill and credit slips, slip books, forms found in a drop box).
MAX_FORM_NUMBER = 99_999_999
# A record id (a 64-bit key on SQLite and PostgreSQL alike).
MAX_ID = 2**63 - 1
# Dates and quarters: the books this system keeps start in 2000 and end in 2100.
FIRST_DATE = date(2000, 1, 1)
LAST_DATE = date(2100, 12, 31)
# A note, reason, description, explanation or finding.
MAX_TEXT_LENGTH = 2000
# What no database keeps in text: a NUL character, or half of a UTF-16 surrogate pair (JSON's
# "\ud800" escape alone is no character of UTF-8). PostgreSQL refuses a NUL (SQLite keeps it), and
# neither database, nor the JSON of an answer quoting it, encodes half a pair: a server error.
UNKEEPABLE = re.compile("[\x00\ud800-\udfff]")
UNKEEPABLE_TEXT = "give text a database keeps: no NUL character and no half of a UTF-16 surrogate pair."
# A request body, and how deeply its JSON may nest.
MAX_BODY_BYTES = 1024 * 1024
MAX_JSON_DEPTH = 32
# Lists: rows per page by default and at most, and how far a page may start.
DEFAULT_PAGE_SIZE = 100
MAX_PAGE_SIZE = 500
MAX_OFFSET = 10_000_000

# Idempotency-Key: its length, and how long a key's answer is kept for a retry.
MAX_IDEMPOTENCY_KEY_LENGTH = 255
IDEMPOTENCY_KEY_HOURS = 24

DATE_RANGE_TEXT = f"between {FIRST_DATE.isoformat()} and {LAST_DATE.isoformat()}"


def digits(text: str) -> bool:
    """Whether `text` is written in ASCII digits only: "12", not "", "-1", "1.5", nor "²" or "1²",
    which str.isdigit() accepts and int() refuses (a 500 where a 4xx was meant)."""
    return text.isascii() and text.isdigit()


def record_id(text) -> int | None:
    """A record's id as a form posts it ("12"), or None for anything that is not one (blank, a
    word, a negative or past the largest id): the caller answers "no such record", never a 500."""
    text = str(text or "").strip()
    if not digits(text) or len(text) > 19:
        return None
    value = int(text)
    return value if 0 < value <= MAX_ID else None


def unkeepable_text(value) -> str | None:
    """Where JSON `value` (a request's body, a filing package, an anchor, an alert) holds text no
    database keeps (`UNKEEPABLE`): the path of the value holding it ("site.name", "dealers[0].name",
    "" for `value` itself; for a key, the object holding it, as the key cannot be shown), or None."""
    stack = [("", value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, str) and UNKEEPABLE.search(item):
            return path
        if isinstance(item, dict):
            if any(isinstance(key, str) and UNKEEPABLE.search(key) for key in item):
                return path
            stack.extend((f"{path}.{key}" if path else str(key), child) for key, child in item.items())
        elif isinstance(item, list):
            stack.extend((f"{path}[{index}]", child) for index, child in enumerate(item))
    return None


def unkeepable_message() -> str:
    """The refusal of text no database keeps, wherever it is sent (a body's field, a query
    parameter, a header), keyed by where it is: "House control: give text a database keeps: ..."."""
    return f"{CITED_HOUSE_CONTROL}: {UNKEEPABLE_TEXT}"


def amount_message(label: str = "The amount") -> str:
    return f"{label} must be at most {MAX_AMOUNT_CENTS:,} cents ($10,000,000.00; {HOUSE_CONTROL})."


def minimum_amount_message(label: str = "The amount") -> str:
    """The floor a serializer puts under an amount (no negative deposit, fee or price): a house
    control the refusal names, as the ceiling's does; `{min_value}` is left for DRF to fill."""
    return f"{label} must be at least {{min_value}} cents ({HOUSE_CONTROL})."


def quantity_message(label: str = "A quantity") -> str:
    return f"{label} must be at most {MAX_QUANTITY:,} ({HOUSE_CONTROL})."


def text_message(label: str = "The text") -> str:
    return f"{label} is at most {MAX_TEXT_LENGTH:,} characters ({HOUSE_CONTROL})."


def date_message(label: str = "The date") -> str:
    return f"{label} must be {DATE_RANGE_TEXT} ({HOUSE_CONTROL})."


def date_in_range(value: date) -> bool:
    if isinstance(value, datetime):
        value = value.date()
    return FIRST_DATE <= value <= LAST_DATE


def check_date(value: date, field: str) -> date:
    """`value`, or ValidationError naming `field` when it falls outside the books' range."""
    if not date_in_range(value):
        raise ValidationError({field: date_message(f"{field} ({value.isoformat()})")})
    return value


_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def shown(text) -> str:
    """What was written, as a refusal quotes it: "nothing" where nothing was (a parameter left
    out and one left empty read alike), else its repr."""
    return "nothing" if text is None or (isinstance(text, str) and not text.strip()) else repr(text)


def impossible_date(text) -> bool:
    """Written as YYYY-MM-DD but no day of the calendar (2026-02-30, 2026-13-01)."""
    if not isinstance(text, str) or not _ISO_DATE.match(text.strip()):
        return False
    try:
        date.fromisoformat(text.strip())
    except ValueError:
        return True
    return False


def no_such_date_message(text: str, field: str) -> str:
    """The refusal of a date written as YYYY-MM-DD that is no day of the calendar, named by its
    field (a house control): one wording for the API's fields, its query parameters and the pages'
    forms ("House control: date names no day of the calendar (2026-02-30 is not a date).")."""
    return f"{CITED_HOUSE_CONTROL}: {field} names no day of the calendar ({text.strip()} is not a date)."


def date_text_message(text, field: str) -> str:
    """Why `text` is not a date: well formed but no day (`no_such_date_message`), or not written
    as YYYY-MM-DD (`format_message`)."""
    if impossible_date(text):
        return no_such_date_message(text, field)
    return format_message(field, "YYYY-MM-DD", text)


def format_message(field: str, form: str, text, example: str = "") -> str:
    """The refusal of `text` written in no form `field` reads, naming the field and its house
    control: one wording for the API's fields and query parameters, the pages' forms and the
    commands' arguments ("House control: write quarter as YYYYQn, for example 2026Q3 (got '2026Q5').")."""
    example = f", for example {example}" if example else ""
    return f"{CITED_HOUSE_CONTROL}: write {field} as {form}{example} (got {shown(text)})."


def parse_date(text, field: str) -> date:
    """A YYYY-MM-DD query parameter within the books' range; ValidationError naming `field`."""
    try:
        value = date.fromisoformat(text.strip() if isinstance(text, str) else "")
    except ValueError:
        raise ValidationError({field: date_text_message(text, field)}) from None
    return check_date(value, field)


def aware_bounds() -> tuple[datetime, datetime]:
    """The first and last moments of the books' range, in the project's time zone."""
    zone = timezone.get_default_timezone()
    return (
        datetime.combine(FIRST_DATE, time.min, tzinfo=zone),
        datetime.combine(LAST_DATE, time.max, tzinfo=zone),
    )
