"""The day sheet as a CSV file, for the browser: one row per thing on the paper, its kind in
the `section` column. `to_sheet` turns the rows into the same sheet the API takes (then parsed
by accounting.api_day_sheets and applied by accounting.day_sheets), remembering which row each
item came from, so every error is shown at its row.

Cells: times as `HH:MM` at the site (before the business day's start hour: the morning
after), or a full date and time; chips and cash as `value x quantity` in dollars
(`25x40 5x100 0.50x10`); a session's receipts and prizes in dollars (`1096.50`, `$1,096.50`);
forms found as `fill:1001 credit:501`; people by their initials;
count team members as `AB CD`; yes/no for `sole_employee_on_duty`. Written by `to_csv`: dates
and times in ISO 8601 (`2026-07-01T22:05:00-05:00`), UTF-8 without a byte order mark (read
with or without one), as the report exports (reports.exports)."""

import csv
import io
import re
from datetime import date, datetime, time, timedelta
from decimal import Decimal, InvalidOperation
from zoneinfo import ZoneInfo

from core import limits
from floor.calculations import last_begun_by

COLUMNS = [
    "section",
    "gaming_date",
    "table",
    "kind",
    "number",
    "purpose",
    "dealer",
    "box",
    "label",
    "at",
    "by",
    "chips",
    "currency",
    "forms",
    "members",
    "verified_at",
    "verified_by",
    "received_at",
    "received_by",
    "cashier",
    "ended_at",
    "ended_by",
    "escorted_by",
    "sole_employee_on_duty",
    "storage_place",
    "key_holder",
    "second_key_holder",
    "note",
    "licence",
    "receipts",
    "prizes",
]
# A games-of-chance session's own columns: a sheet written for a site whose pack keeps no sessions
# (North Dakota, Washington) leaves them out.
SESSION_COLUMNS = ("licence", "receipts", "prizes")

# A drop row's dealer and table, read only to find the dealer shift the box served (`_drops_to_shifts`).
DROP_TABLE, DROP_DEALER = "_table", "_dealer"

# section -> (list in the sheet or None for a single object, {column: sheet field}); `at` and
# `by` are the time and the signer of the section's own step.
SECTIONS = {
    "open": ("open", {"at": "opened_at", "by": "opened_by"}),
    "opener": (
        "openers",
        {"table": "table", "at": "counted_at", "by": "counted_by", "chips": "chips", "note": "variance_reason"},
    ),
    "dealer_shift": (
        "dealer_shifts",
        {
            "table": "table",
            "dealer": "dealer",
            "at": "started_at",
            "by": "started_by",
            "chips": "chips",
            "ended_at": "ended_at",
            "ended_by": "ended_by",
        },
    ),
    "slip": (
        "slips",
        {
            "kind": "kind",
            "number": "number",
            "table": "table",
            "purpose": "purpose",
            "chips": "chips",
            "at": "prepared_at",
            "by": "prepared_by",
            "verified_at": "verified_at",
            "verified_by": "verified_by",
            "received_at": "received_at",
            "received_by": "received_by",
            "cashier": "cashier",
        },
    ),
    "session": (
        "sessions",
        {
            "licence": "licence_number",
            "at": "started_at",
            "ended_at": "ended_at",
            "by": "recorded_by",
            "receipts": "receipts_cents",
            "prizes": "prizes_cents",
        },
    ),
    "closer": ("closers", {"table": "table", "at": "counted_at", "by": "counted_by", "chips": "chips"}),
    "drop": (
        "drops",
        {
            # At a site exchanging boxes at each dealer change, the dealer (and table) whose shift the
            # box served: read into the sheet's `dealer_shift`, the index of that dealer_shift row.
            "table": DROP_TABLE,
            "dealer": DROP_DEALER,
            "box": "box",
            "label": "label",
            "at": "removed_at",
            "by": "removed_by",
            "escorted_by": "escorted_by",
            "sole_employee_on_duty": "sole_employee_on_duty",
            "storage_place": "storage_place",
            "key_holder": "key_holder",
            "second_key_holder": "second_key_holder",
        },
    ),
    "count_open": ("count", {"at": "opened_at", "by": "opened_by", "members": "members"}),
    "count": (
        "count.entries",
        {
            "box": "box",
            "label": "label",
            "at": "counted_at",
            "by": "counted_by",
            "currency": "currency",
            "forms": "forms",
        },
    ),
    "recount": (
        "count.recounts",
        {
            "box": "box",
            "label": "label",
            "at": "counted_at",
            "by": "counted_by",
            "currency": "currency",
            "forms": "forms",
            "note": "note",
        },
    ),
    "count_sign": ("count.signatures", {"at": "signed_at", "by": "signed_by"}),
    "close": ("close", {"at": "closed_at", "by": "closed_by"}),
}
SINGLE = {"open", "count_open", "close"}
# The sheet's list (or object) -> {its field: the CSV column it is read from}: an error at
# "openers[0].variance_reason" is shown at the row's column "note".
COLUMN_OF_FIELD = {name: {field: column for column, field in fields.items()} for name, fields in SECTIONS.values()}
COLUMN_OF_FIELD["drops"]["dealer_shift"] = "dealer"  # the shift is named by its dealer (`_drops_to_shifts`)
TIME_FIELDS = {"at", "verified_at", "received_at", "ended_at"}
MONEY_FIELDS = {"receipts", "prizes"}
NUMBER_FIELDS = {"table", "number", "box"}
MAX_ROWS = 2000  # house control: a day sheet is a day's paper, not a history

TEMPLATE_ROWS = [
    {"section": "# One row per thing on the paper. Times HH:MM at the site; chips value x quantity in dollars."},
    {"section": "day", "gaming_date": "2026-11-13"},
    {"section": "open", "at": "17:55", "by": "SM"},
    {"section": "opener", "table": "1", "at": "18:00", "by": "SM", "chips": "25x40 5x100"},
    {"section": "dealer_shift", "table": "1", "dealer": "DL", "at": "18:05", "by": "SM"},
    {
        "section": "slip",
        "kind": "fill",
        "number": "1001",
        "table": "1",
        "chips": "25x20",
        "at": "20:00",
        "by": "CA",
        "verified_at": "20:01",
        "verified_by": "PB",
        "received_at": "20:02",
        "received_by": "DL",
    },
    {
        "section": "session",
        "licence": "",
        "at": "19:00",
        "ended_at": "23:00",
        "by": "SM",
        "receipts": "1096.00",
        "prizes": "992.00",
    },
    {"section": "closer", "table": "1", "at": "01:00", "by": "SM", "chips": "25x45 5x80"},
    {
        "section": "drop",
        "box": "1",
        "at": "01:10",
        "by": "SM",
        "escorted_by": "PB",
        "storage_place": "office safe",
        "key_holder": "CT",
    },
    {"section": "close", "at": "01:30", "by": "SM"},
    {"section": "count_open", "at": "02:00", "by": "CT", "members": "CT IP"},
    {"section": "count", "box": "1", "at": "02:10", "by": "CT", "currency": "100x12 20x15", "forms": "fill:1001"},
    {"section": "count", "box": "1", "at": "02:15", "by": "IP", "currency": "100x12 20x15", "forms": "fill:1001"},
    {"section": "count_sign", "at": "02:30", "by": "CT"},
    {"section": "count_sign", "at": "02:31", "by": "IP"},
]


def chips_example(values_cents) -> dict[str, str]:
    """The template's chips in a site's own denominations (`values_cents`, its active chips): an
    opener of 40 and 100 of its two largest, a fill of 20 of the largest, a closer of 45 and 80;
    the template's own ($25 and $5) where none is given. A Kingston clerk, whose chips are $5 and
    $1, read an example in $25 chips the site does not have."""
    largest = sorted(set(values_cents), reverse=True)[:2] or [2500, 500]
    first, second = _dollars(largest[0]), _dollars(largest[-1]) if len(largest) > 1 else None
    both = lambda a, b: f"{first}x{a} {second}x{b}" if second else f"{first}x{a + b}"  # noqa: E731
    return {"opener": both(40, 100), "fill": f"{first}x20", "closer": both(45, 80)}


# The count's sections: those read into the sheet's `count` (its opening, entries, recounts, signatures).
COUNT_SECTIONS = {section for section, (name, _) in SECTIONS.items() if name.split(".")[0] == "count"}


def template_csv(
    values_cents=(),
    gaming_date: date | None = None,
    *,
    with_count: bool = True,
    session_licence: str | None = None,
    printed_numbers: bool = True,
    box_per_shift: bool = False,
) -> str:
    """The template (`TEMPLATE_ROWS`), its chips in the site's denominations (`chips_example`) and
    its gaming date the site's today, where given; without the count's rows for who may not enter
    them (`with_count` false: a shift manager, `day_sheets.COUNT_ENTERERS`); with a session's row
    and columns only where the site's pack keeps sessions (`session_licence` given: the licence
    in force, "" where none is on file), its figures reconciling with the sheet's drop and payout;
    a slip's printed number only where the site keeps registered books (`printed_numbers`: a site
    numbered electronically refuses a number typed); a drop's dealer and table where the site
    exchanges boxes at each dealer change (`box_per_shift`)."""
    chips = chips_example(values_cents)
    sessions = session_licence is not None
    drop = sum(cents * quantity for row in TEMPLATE_ROWS if row["section"] == "count" and row["by"] == "CT"
               for cents, quantity in _pairs(row["currency"], "cash"))  # fmt: skip
    paid = {section: sum(c * q for c, q in _pairs(chips[section], "chips")) for section in chips}
    # The session's example reconciles with the sheet's own (the house control of
    # accounting.pack_figures.sessions_against_custody): receipts the drop counted, prizes the
    # tables' payout (fills - credits + opener - closer); a clerk copying it reads no difference.
    session_figures = {"receipts": _written("receipts", drop),
                       "prizes": _written("prizes", paid["fill"] + paid["opener"] - paid["closer"])}  # fmt: skip
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=_columns(sessions), lineterminator="\r\n")
    writer.writeheader()
    for row in TEMPLATE_ROWS:
        section = row["section"]
        if (section in COUNT_SECTIONS and not with_count) or (section == "session" and not sessions):
            continue
        if section == "session":
            row = {**row, "licence": session_licence, **session_figures}
        if section == "slip" and not printed_numbers:  # the electronic series numbers it: no number typed
            row = {**row, "number": ""}
        if section == "drop" and box_per_shift:  # one drop per dealer shift: the dealer whose shift it served
            row = {**row, "table": "1", "dealer": "DL"}
        if section in chips and "chips" in row:
            row = {**row, "chips": chips[section]}
        elif section == "slip":
            row = {**row, "chips": chips["fill"]}
        elif section == "day" and gaming_date is not None:
            row = {**row, "gaming_date": gaming_date.isoformat()}
        writer.writerow(row)
    return out.getvalue()


def to_csv(sheet: dict) -> str:
    """The API's sheet as the CSV the page takes (`to_sheet` reads it back to the same sheet):
    for an integrator holding JSON who wants the file a clerk can check. People are written as
    given, so name them by initials for the file to read back the same."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=_columns(bool(sheet.get("sessions"))), lineterminator="\r\n")
    writer.writeheader()
    writer.writerow({"section": "day", "gaming_date": str(sheet["gaming_date"])})
    for section, (target, columns) in SECTIONS.items():
        owner, _, key = target.rpartition(".")
        found = (sheet.get(owner) or {}).get(key) if owner else sheet.get(key)
        if not found:
            continue
        items = [found] if section in SINGLE else found
        for item in items:
            row = {"section": section}
            if section == "drop" and item.get("dealer_shift") is not None:
                shift = sheet["dealer_shifts"][item["dealer_shift"]]
                item = {**item, DROP_TABLE: shift["table"], DROP_DEALER: shift["dealer"]}
            for column, name in columns.items():
                if item.get(name) not in (None, "", []):
                    row[column] = _written(column, item[name])
            writer.writerow(row)
    return out.getvalue()


def _columns(sessions: bool) -> list[str]:
    return COLUMNS if sessions else [column for column in COLUMNS if column not in SESSION_COLUMNS]


def _dollars(cents: int) -> str:
    """2500 -> '25', 10000 -> '100', 50 -> '0.5', 25 -> '0.25'."""
    text = f"{Decimal(cents) / 100:f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def _written(column: str, value) -> str:
    if column in ("chips", "currency"):
        key = "denomination" if column == "chips" else "denomination_cents"
        return " ".join(f"{_dollars(line[key])}x{line['quantity']}" for line in value)
    if column == "forms":
        return " ".join(f"{form['kind']}:{form['number']}" for form in value)
    if column == "members":
        return " ".join(str(member) for member in value)
    if column == "sole_employee_on_duty":
        return "yes" if value else "no"
    if column in MONEY_FIELDS:
        return f"{Decimal(value) / 100:.2f}"
    if isinstance(value, date | datetime):  # ISO 8601, as the exports write them (with the offset)
        return value.isoformat()
    return str(value)


class CsvSheet:
    """The sheet built from the rows, and the row each item came from."""

    def __init__(self, site):
        self.site = site
        self.sheet: dict = {}
        self.rows: dict[str, int] = {}  # "slips[1]" -> 7
        self.errors: dict[str, list[str]] = {}
        self.gaming_date: date | None = None

    def where(self, path: str) -> str:
        """'row 7, column chips (slips[1].chips[0].quantity)' for an error path of the sheet: the row
        and the CSV's own column the error is in ('row 4, column note', where the sheet's field is
        an opener's variance_reason), the sheet's path beside it where it says more."""
        best = ""
        for prefix in self.rows:
            if (path == prefix or path.startswith(prefix + ".") or path.startswith(prefix + "[")) and len(prefix) > len(
                best
            ):
                best = prefix
        if not best:
            return path
        rest = path[len(best) :].lstrip(".")
        field = re.split(r"[.\[]", rest, maxsplit=1)[0]
        column = COLUMN_OF_FIELD.get(re.sub(r"\[\d+\]$", "", best), {}).get(field)
        if column is None:
            return f"row {self.rows[best]}, {path}"
        return f"row {self.rows[best]}, column {column}" + ("" if rest == field else f" ({path})")

    def located(self, errors: dict[str, list[str]]) -> list[tuple[str, list[str]]]:
        return [(self.where(path), messages) for path, messages in errors.items()]

    def error(self, path: str, message: str) -> None:
        self.errors.setdefault(path, []).append(message)


def to_sheet(text: str, site) -> CsvSheet:
    """Rows -> CsvSheet; `errors` holds what the cells themselves got wrong (located)."""
    result = CsvSheet(site)
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    try:
        rows = [(reader.line_num, row) for row in reader]  # the line a row ends on, as a spreadsheet shows it
    except csv.Error as wrong:
        result.error("sheet", f"The file is not a readable CSV: {wrong}.")
        return result
    if not rows:
        result.error("sheet", "The file has no rows under its header.")
        return result
    missing = {"section"} - set(rows[0][1].keys())
    if missing:
        result.error(
            "sheet", f"The header has no 'section' column; download the template (columns: {', '.join(COLUMNS)})."
        )
        return result
    if len(rows) > MAX_ROWS:
        result.error("sheet", f"A day sheet has at most {MAX_ROWS} rows ({limits.HOUSE_CONTROL}).")
        return result
    for number, row in rows:
        row = {key.strip(): (value or "").strip() for key, value in row.items() if key}
        section = row.get("section", "")
        if not section or section.startswith("#") or not any(v for k, v in row.items() if k != "section"):
            continue
        if section == "day":
            result.gaming_date = _date(row.get("gaming_date", ""))
            result.sheet["gaming_date"] = row.get("gaming_date", "")
            result.rows["gaming_date"] = number
            continue
        if section not in SECTIONS:
            result.error(f"row {number}", f"Unknown section {section!r}: one of day, {', '.join(SECTIONS)}.")
            continue
        _add_row(result, section, row, number)
    if "gaming_date" not in result.sheet:
        result.error("gaming_date", "Give the gaming date on a row whose section is 'day'.")
    _drops_to_shifts(result)
    return result


def _drops_to_shifts(result: CsvSheet) -> None:
    """Each drop row naming a dealer (a site exchanging boxes at each dealer change: one drop per
    dealer shift) gets the dealer shift it served: the last dealer_shift row of that dealer (at the
    row's table, where it names one) that started before the box's removal."""
    shifts = result.sheet.get("dealer_shifts") or []
    for index, drop in enumerate(result.sheet.get("drops") or []):
        table, dealer = drop.pop(DROP_TABLE, None), drop.pop(DROP_DEALER, None)
        if dealer is None:
            continue
        removed = _when(drop.get("removed_at"))
        theirs = [
            n for n, shift in enumerate(shifts)
            if str(shift.get("dealer", "")).lower() == dealer.lower()
            and (table is None or str(shift.get("table")) == str(table))
        ]  # fmt: skip
        served = last_begun_by([_when(shifts[n].get("started_at")) for n in theirs], removed)
        if served is not None:
            drop["dealer_shift"] = theirs[served]
        else:
            at_table = f" at table {table}" if table is not None else ""
            result.error(
                f"drops[{index}].dealer_shift",
                f"{limits.CITED_HOUSE_CONTROL}: no dealer_shift row of {dealer}{at_table} starts before this box's "
                "removal; name the dealer whose shift the box served.",
            )


def _when(value) -> datetime | None:
    try:
        return datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        return None


def _add_row(result: CsvSheet, section: str, row: dict, number: int) -> None:
    target, columns = SECTIONS[section]
    if section in SINGLE:
        path = target
        if path in result.rows:
            result.error(f"row {number}", f"Only one '{section}' row in a sheet (row {result.rows[path]} is one).")
            return
        item = result.sheet.setdefault(target, {})
    else:
        parent = result.sheet
        if target.startswith("count."):
            parent = result.sheet.setdefault("count", {})
            target = target.split(".", 1)[1]
        items = parent.setdefault(target, [])
        path = f"{SECTIONS[section][0]}[{len(items)}]"
        item = {}
        items.append(item)
    result.rows[path] = number
    for column, name in columns.items():
        value = row.get(column, "")
        if not value:
            continue
        try:
            item[name] = _cell(result, column, value)
        except ValueError as wrong:  # House control: a cell reads only as its column is written
            result.error(f"{path}.{name}", f"{limits.CITED_HOUSE_CONTROL}: {column}: {wrong}")


def _cell(result: CsvSheet, column: str, value: str):
    if column in TIME_FIELDS:
        return _moment(result, value)
    if column in NUMBER_FIELDS:
        if not limits.digits(value):
            raise ValueError(f"{value!r} is not a whole number.")
        return int(value)
    if column == "chips":
        return [{"denomination": cents, "quantity": q} for cents, q in _pairs(value, "chips")]
    if column == "currency":
        return [{"denomination_cents": cents, "quantity": q} for cents, q in _pairs(value, "cash")]
    if column == "forms":
        return _forms(value)
    if column == "members":
        return value.split()
    if column in MONEY_FIELDS:
        return _cents(value)
    if column == "sole_employee_on_duty":
        if value.lower() not in {"yes", "no", "true", "false", "y", "n", "1", "0"}:
            raise ValueError("write yes or no.")
        return value.lower() in {"yes", "true", "y", "1"}
    return value


PAIR = re.compile(r"^\$?(\d+(?:\.\d{1,2})?)\s*[xX×]\s*(\d+)$")


def _pairs(value: str, what: str) -> list[tuple[int, int]]:
    pairs = []
    for token in value.replace(",", " ").replace(";", " ").split():
        match = PAIR.match(token)
        if match is None:
            raise ValueError(f"write {what} as value x quantity in dollars, e.g. 25x40 5x100 0.50x10 (not {token!r}).")
        try:
            cents = int(Decimal(match.group(1)) * 100)
        except InvalidOperation as wrong:  # pragma: no cover - the pattern admits only numbers
            raise ValueError(f"{token!r} is not an amount.") from wrong
        pairs.append((cents, int(match.group(2))))
    return pairs


AMOUNT = re.compile(r"^\$?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$")


def _cents(value: str) -> int:
    """'1096', '1096.5', '$1,096.50' -> 109650: an amount in dollars, to the cent."""
    match = AMOUNT.match(value)
    if match is None:
        raise ValueError(f"write an amount in dollars, e.g. 1096.50 (not {value!r}).")
    return int(match.group(1).replace(",", "")) * 100 + int((match.group(2) or "0").ljust(2, "0"))


def _forms(value: str) -> list[dict]:
    forms = []
    for token in value.replace(",", " ").replace(";", " ").split():
        kind, _, number = token.partition(":")
        if kind.lower() not in {"fill", "credit"} or not limits.digits(number):
            raise ValueError(f"write forms found as fill:1001 credit:501 (not {token!r}).")
        forms.append({"kind": kind.lower(), "number": int(number)})
    return forms


def _date(value: str) -> date | None:
    try:
        return date.fromisoformat(value)
    except ValueError:
        return None


def _moment(result: CsvSheet, value: str) -> str:
    """HH:MM at the site in the sheet's business day, or a date and time (at the site unless
    it gives its offset); as ISO text for the API's parser."""
    zone = ZoneInfo(result.site.time_zone)
    if re.fullmatch(r"\d{1,2}:\d{2}", value):
        if result.gaming_date is None:
            raise ValueError("put the 'day' row (the gaming date) before rows with times of day.")
        hour, minute = map(int, value.split(":"))
        if hour > 23 or minute > 59:
            raise ValueError(f"{value!r} is not a time of day.")
        on = result.gaming_date
        if hour < result.site.business_day_start_hour:
            on += timedelta(days=1)  # the business day runs past midnight (ND 99-01.3-02-01)
        return datetime.combine(on, time(hour, minute), tzinfo=zone).isoformat()
    try:
        moment = datetime.fromisoformat(value)
    except ValueError as wrong:
        raise ValueError(f"{value!r} is not a time: write HH:MM or YYYY-MM-DD HH:MM.") from wrong
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=zone)
    return moment.isoformat()
