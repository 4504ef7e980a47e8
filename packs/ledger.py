"""The law ledger: every number and word of law the packs hold as code, and the committed record of it.

Law held in code (a pack's thresholds, limits, wager limits, tax brackets, chips, the constants its
table rules read) is judged by date like the thresholds in the database: a day, a quarter or a
filed return is judged by the law in force on it. A release that edits a datum already in force
would judge the past by a rule it was not under, with no amendment and no trace. `law_data()` is
the inventory of every such datum; `packs/law_ledger.json` records each one with the date it was
recorded; `drift()` names each datum in force when recorded that no longer has its recorded value
or citation, or has gone (`tests/core/test_law_ledger.py` fails on any). A change of the law is a
new datum with a later `effective_from`; a correction of a mistranscribed value is a new ledger
entry with a note (`manage.py law_ledger --record --correct KEY@DATE --note ...`); new data is
added by `manage.py law_ledger --record`, never by editing the file's values.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

from .base import HOUSE_CONTROL, Limit, Pack, all_packs

LEDGER_PATH = Path(__file__).with_name("law_ledger.json")
WHAT_TO_DO = (
    "a law in force is never edited in place: add a new datum with a later effective_from (an amendment), "
    "or, where the recorded value was mistranscribed, restore it and record the correction as a new ledger "
    "entry with a note (manage.py law_ledger --record --correct {where} --note '...')"
)

RECORD = "record it (manage.py law_ledger --record)"


@dataclass(frozen=True)
class LawDatum:
    """One datum of a pack's law held in code: `key` ("ND/limit/surveillance.retention"), its value as
    JSON holds it, its unit, the section that sets it and the day it is in force from (None: from
    before any day the product records, so in force on every one)."""

    key: str
    value: object
    unit: str
    citation: str
    pack: str
    effective_from: date | None

    @property
    def where(self) -> str:
        """The datum's name in messages and on the command line: KEY@DATE ("@always" when undated)."""
        return f"{self.key}@{self.effective_from or 'always'}"


def _plain(value) -> tuple[object, str]:
    """A value as JSON holds it, with the unit its type implies (durations in seconds)."""
    if isinstance(value, timedelta):
        return int(value.total_seconds()), "seconds"
    if isinstance(value, Decimal):
        return str(value), "decimal"
    if isinstance(value, frozenset | set):
        return sorted(value), ""
    if isinstance(value, tuple | list):
        return [_plain(v)[0] for v in value], ""
    if isinstance(value, dict):
        return {str(k): _plain(v)[0] for k, v in value.items()}, ""
    return value, ""


def _datum(pack: Pack, key: str, value, unit: str, citation: str, effective_from: date | None) -> LawDatum:
    plain, implied = _plain(value)
    return LawDatum(f"{pack.code}/{key}", plain, unit or implied, citation, pack.code, effective_from)


def _thresholds(pack: Pack):
    for code, value, unit, citation, _summary, effective_from in pack.thresholds:
        yield _datum(pack, f"threshold/{code}", value, unit, citation, effective_from)


def _limits(pack: Pack, kind: str, limits: tuple[Limit, ...]):
    for limit in limits:
        unit = "cents" if limit.key.endswith("_cents") else ""
        yield _datum(pack, f"{kind}/{limit.key}", limit.value, unit, limit.citation, limit.effective_from)


def _wager_limits(pack: Pack):
    for w in pack.wager_limits:
        for name in ("min_cents", "max_cents", "step_cents", "low_minimum_ceiling_cents"):
            if getattr(w, name) is not None:
                yield _datum(pack, f"wager_limits/{name}", getattr(w, name), "cents", w.citation, w.effective_from)


def _tax_brackets(pack: Pack):
    for b in pack.tax_brackets:
        yield _datum(pack, f"tax_bracket/{b.lower_cents}/rate", b.rate, "ratio", b.citation, b.effective_from)
        yield _datum(
            pack, f"tax_bracket/{b.lower_cents}/base_cents", b.base_cents, "cents", b.citation, b.effective_from
        )


def _chips(pack: Pack):
    law = pack.chips
    if law is None:
        return
    yield _datum(pack, "chips/values_cents", sorted(law.specs), "cents", law.values_citation, None)
    for cents, spec in sorted(law.specs.items()):
        colours = [spec.primary_colour, spec.edge_spots, spec.edge_colour]
        yield _datum(pack, f"chips/colours/{cents}", colours, "", law.colours_citation, None)
    yield _datum(
        pack, "chips/twenty_five_dollars_cents", law.twenty_five_dollars_cents, "cents", law.twenty_five_citation, None
    )


def _return_due(pack: Pack):
    if pack.return_due_months is not None:
        # No text held names the due date: it is a house setting (`compliance.obligations.RETURN_DUE_NOTE`),
        # judging returns late all the same.
        yield _datum(pack, "return_due_months", pack.return_due_months, "months", HOUSE_CONTROL, None)


def pack_data(pack: Pack) -> list[LawDatum]:
    """Every datum of one pack's law held in code."""
    return [
        *_thresholds(pack),
        *_limits(pack, "limit", pack.limits),
        *_limits(pack, "constant", pack.constants),
        *_wager_limits(pack),
        *_tax_brackets(pack),
        *_chips(pack),
        *_return_due(pack),
    ]


def law_data() -> list[LawDatum]:
    """The inventory: every pack's law held in code, by key and then effective date."""
    data = [datum for pack in all_packs() for datum in pack_data(pack)]
    return sorted(data, key=lambda d: (d.key, d.effective_from or date.min))


@dataclass(frozen=True)
class Entry:
    """One line of the ledger: a datum as it was recorded on `recorded` (ISO dates; `effective_from`
    None: in force on every day). A later entry of the same datum is a correction, with its note."""

    key: str
    effective_from: str | None
    value: object
    unit: str
    citation: str
    recorded: str
    note: str = ""

    @property
    def where(self) -> str:
        return f"{self.key}@{self.effective_from or 'always'}"

    def in_force(self, today: date) -> bool:
        """Was the datum in force when recorded, or is it by `today`? Then its value is the law
        some day was under, and it never changes in place."""
        return self.effective_from is None or self.effective_from <= max(self.recorded, today.isoformat())

    def holds(self, datum: LawDatum) -> bool:
        return self.value == _json(datum.value) and self.citation == datum.citation


class LedgerRefused(Exception):
    """The packs' law differs from the ledger where it may not: each message names the datum."""

    def __init__(self, messages: list[str]):
        super().__init__("\n".join(messages))
        self.messages = messages


def _json(value):
    return json.loads(json.dumps(value))


def _entry(datum: LawDatum, today: date, note: str = "") -> Entry:
    since = datum.effective_from.isoformat() if datum.effective_from else None
    return Entry(datum.key, since, _json(datum.value), datum.unit, datum.citation, today.isoformat(), note)


def read_ledger(path: Path = LEDGER_PATH) -> list[Entry]:
    return [Entry(**row) for row in json.loads(path.read_text())]


def write_ledger(entries: list[Entry], path: Path = LEDGER_PATH) -> None:
    ordered = sorted(entries, key=lambda e: (e.key, e.effective_from or "", e.recorded))
    lines = ",\n".join(json.dumps(asdict(e), ensure_ascii=False) for e in ordered)  # one entry a line
    path.write_text(f"[\n{lines}\n]\n")


def _latest(entries: list[Entry]) -> dict[str, Entry]:
    """Each datum's entry in force: its last (a correction comes after what it corrects)."""
    return {e.where: e for e in sorted(entries, key=lambda e: e.recorded)}


def _changed(entry: Entry, datum: LawDatum) -> str:
    return (
        f"{entry.where}: in force from {entry.effective_from or 'before any day recorded'} and recorded on "
        f"{entry.recorded} as {entry.value!r} ({entry.citation}); the packs now hold {_json(datum.value)!r} "
        f"({datum.citation}): " + WHAT_TO_DO.format(where=entry.where)
    )


def _gone(entry: Entry) -> str:
    return (
        f"{entry.where}: in force from {entry.effective_from or 'before any day recorded'} and recorded on "
        f"{entry.recorded} as {entry.value!r} ({entry.citation}), but no longer in the packs: restore it; "
        "a law repealed or replaced stays in force on the days before the new datum's effective_from"
    )


def drift(entries: list[Entry], data: list[LawDatum], today: date) -> list[str]:
    """Every difference between the ledger and the packs' law, one message each naming the datum and
    what to do; empty when the ledger holds the packs' law as it is."""
    latest = _latest(entries)
    now = {d.where: d for d in data}
    messages = []
    for where, entry in sorted(latest.items()):
        datum = now.get(where)
        if datum is None:
            messages.append(_gone(entry) if entry.in_force(today) else f"{where}: no longer in the packs: {RECORD}")
        elif not entry.holds(datum):
            changed = entry.in_force(today)
            messages.append(_changed(entry, datum) if changed else f"{where}: changed before its date: {RECORD}")
    messages += [f"{where}: not in the law ledger: {RECORD}" for where in sorted(now.keys() - latest.keys())]
    return messages


def _bad_corrections(corrections: dict[str, str], latest: dict[str, Entry], now: dict[str, LawDatum]) -> list[str]:
    """What is wrong with the corrections asked for: each needs a note and a datum that differs from its entry."""
    unnoted = [
        f"{w}: a correction is recorded with a note saying what was wrong" for w, n in corrections.items() if not n
    ]
    idle = [w for w in corrections if w not in now or w not in latest or latest[w].holds(now[w])]
    return unnoted + [f"{w}: no datum of the packs differs from its entry; nothing to correct" for w in idle]


def record(entries: list[Entry], data: list[LawDatum], today: date, corrections: dict[str, str]) -> list[Entry]:
    """The ledger with the packs' new data recorded on `today` (and data not yet in force re-recorded
    as they now are); each datum of `corrections` (KEY@DATE -> its note) recorded again, as a new
    entry after the one it corrects. Refused (`LedgerRefused`) where a datum in force changed or went
    without a correction, or a correction has no note or nothing to correct."""
    latest = _latest(entries)
    now = {d.where: d for d in data}
    refused = _bad_corrections(corrections, latest, now)
    kept = [e for e in entries if e.where in now or latest[e.where].in_force(today)]
    kept += [_entry(now[w], today) for w in sorted(now.keys() - latest.keys())]
    for where in sorted(now.keys() & latest.keys()):
        entry, datum = latest[where], now[where]
        if entry.holds(datum):
            continue
        if not entry.in_force(today):
            kept = [e for e in kept if e.where != where] + [_entry(datum, today)]
        elif corrections.get(where):
            kept.append(_entry(datum, today, corrections[where]))
        else:
            refused.append(_changed(entry, datum))
    refused += [_gone(e) for w, e in sorted(latest.items()) if w not in now and e.in_force(today)]
    if refused:
        raise LedgerRefused(refused)
    return kept
