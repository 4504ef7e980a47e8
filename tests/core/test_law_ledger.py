"""Law held in code, once in force, never silently changes with a release. The packs' thresholds,
limits, wager limits, tax brackets, chips and table constants are recorded in `packs/law_ledger.json`
with the day each was recorded; a datum in force whose value or citation changed, or that went, fails
here naming it and saying what to do (a new dated datum, or a noted correction), and the data
migrations only ever add threshold rows."""

import dataclasses
import json
import re
import shutil
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from compliance import thresholds
from compliance.models import Threshold
from packs import Limit, get_pack
from packs.base import PACKS
from packs.ledger import LEDGER_PATH, drift, law_data, read_ledger

DEPOSIT = "ND/limit/cage.deposit_banking_days@2016-04-01"  # ND 99-01.3-03-10(1): the third banking day


@pytest.fixture
def ledger(tmp_path) -> Path:
    """A temporary copy of the committed ledger, for the command to check and record in."""
    return Path(shutil.copy(LEDGER_PATH, tmp_path / "law_ledger.json"))


def nd_with(monkeypatch, *, limits):
    nd = get_pack("ND")
    monkeypatch.setitem(PACKS, "ND", dataclasses.replace(nd, limits=limits(nd.limits)))


def deposit_days(value, effective_from=date(2016, 4, 1)):
    return Limit("cage.deposit_banking_days", value, "banking days", "ND 99-01.3-03-10(1)", effective_from)


def without_deposit(limits):
    return tuple(x for x in limits if x.key != "cage.deposit_banking_days")


def check(path: Path) -> str:
    with pytest.raises(CommandError) as refused:
        call_command("law_ledger", "--ledger", str(path))
    return str(refused.value)


def entries_of(path: Path, where: str) -> list[dict]:
    return [e for e in json.loads(path.read_text()) if f"{e['key']}@{e['effective_from'] or 'always'}" == where]


def test_the_committed_ledger_holds_the_packs_law_as_it_is():
    assert drift(read_ledger(), law_data(), date.today()) == []


def test_the_inventory_holds_each_packs_law_once_each_cited_by_its_own_law():
    data = law_data()
    assert len({d.where for d in data}) == len(data)
    own = {"ND": r"^(ND |N\.D\.C\.C\.|SFN|House control)", "WA-HB": r"^(WAC|WSGC)", "WA-BJ": r"^WAC", "NY": r"^9 NYCRR"}
    assert {d.pack for d in data} == set(own)
    assert [d.where for d in data if not re.match(own[d.pack], d.citation)] == []
    found = {d.where: d for d in data}
    assert (found[DEPOSIT].value, found[DEPOSIT].citation) == (3, "ND 99-01.3-03-10(1)")
    assert found["ND/threshold/low_hold.ratio_21@2018-07-01"].value == "0.10"  # exact, never a float
    assert found["ND/limit/surveillance.retention@2018-07-01"].value == 30 * 86400
    assert (found["ND/tax_bracket/5000000/rate@2021-07-01"].value, found["NY/wager_limits/max_cents@always"].value) == (
        "0.12",
        500,
    )
    assert found["WA-HB/constant/table.players_max@always"].citation.endswith("rule 1")


def test_a_value_in_force_edited_in_the_packs_fails_naming_it_and_what_to_do(monkeypatch, ledger):
    nd_with(monkeypatch, limits=lambda limits: (*without_deposit(limits), deposit_days(4)))
    message = check(ledger)
    assert f"{DEPOSIT}: in force from 2016-04-01 and recorded on" in message
    assert "as 3 (ND 99-01.3-03-10(1)); the packs now hold 4 (ND 99-01.3-03-10(1))" in message
    assert "add a new datum with a later effective_from" in message
    assert f"--correct {DEPOSIT} --note" in message


def test_a_value_changed_in_a_copy_of_the_ledger_fails_the_check(ledger):
    rows = json.loads(ledger.read_text())
    row = next(r for r in rows if r["key"] == "ND/threshold/low_hold.ratio_21")
    row["value"] = "0.12"
    ledger.write_text(json.dumps(rows))
    message = check(ledger)
    assert "ND/threshold/low_hold.ratio_21@2018-07-01: in force from 2018-07-01" in message
    assert "as '0.12' (ND 99-01.3-08-04(9)); the packs now hold '0.10'" in message
    assert "add a new datum with a later effective_from" in message


def test_a_citation_changed_fails_as_a_value_does(monkeypatch, ledger):
    moved = deposit_days(3)
    nd_with(monkeypatch, limits=lambda limits: (*without_deposit(limits), dataclasses.replace(moved, citation="ND 3")))
    assert f"{DEPOSIT}: in force from 2016-04-01" in check(ledger)


def test_a_datum_in_force_that_went_fails_saying_to_restore_it(monkeypatch, ledger):
    nd_with(monkeypatch, limits=without_deposit)
    message = check(ledger)
    assert f"{DEPOSIT}: in force from 2016-04-01 and recorded on" in message
    assert "no longer in the packs: restore it" in message


def test_an_amendment_is_a_new_dated_datum_recorded_beside_the_old(monkeypatch, ledger):
    amended = "ND/limit/cage.deposit_banking_days@2030-01-01"
    nd_with(monkeypatch, limits=lambda limits: (*limits, deposit_days(5, date(2030, 1, 1))))
    assert check(ledger) == f"{amended}: not in the law ledger: record it (manage.py law_ledger --record)"
    call_command("law_ledger", "--record", "--ledger", str(ledger))
    call_command("law_ledger", "--ledger", str(ledger))  # now holds it
    assert [e["value"] for e in entries_of(ledger, amended)] == [5]
    assert [e["value"] for e in entries_of(ledger, DEPOSIT)] == [3]


def test_recording_refuses_a_value_in_force_edited_and_writes_nothing(monkeypatch, ledger):
    before = ledger.read_text()
    nd_with(monkeypatch, limits=lambda limits: (*without_deposit(limits), deposit_days(4)))
    with pytest.raises(CommandError, match=re.escape(f"{DEPOSIT}: in force from 2016-04-01")):
        call_command("law_ledger", "--record", "--ledger", str(ledger))
    assert ledger.read_text() == before


def test_a_correction_is_a_new_entry_with_its_note_and_never_without_one(monkeypatch, ledger):
    nd_with(monkeypatch, limits=lambda limits: (*without_deposit(limits), deposit_days(4)))
    with pytest.raises(CommandError, match="a correction is recorded with a note"):
        call_command("law_ledger", "--record", "--correct", DEPOSIT, "--ledger", str(ledger))
    note = "03-10(1) was mistranscribed: the text held says the fourth banking day"
    call_command("law_ledger", "--record", "--correct", DEPOSIT, "--note", note, "--ledger", str(ledger))
    rows = entries_of(ledger, DEPOSIT)
    assert [(r["value"], r["note"]) for r in rows] == [(3, ""), (4, note)]
    call_command("law_ledger", "--ledger", str(ledger))  # the correction is the datum's entry now


def test_a_datum_recorded_ahead_of_its_date_may_change_until_then_and_never_after(monkeypatch, ledger):
    later = date.today() + timedelta(days=400)
    where = f"ND/limit/cage.deposit_banking_days@{later}"
    nd_with(monkeypatch, limits=lambda limits: (*limits, deposit_days(5, later)))
    call_command("law_ledger", "--record", "--ledger", str(ledger))
    nd_with(monkeypatch, limits=lambda limits: (*limits[:-1], deposit_days(6, later)))
    assert check(ledger) == f"{where}: changed before its date: record it (manage.py law_ledger --record)"
    call_command("law_ledger", "--record", "--ledger", str(ledger))
    assert [e["value"] for e in entries_of(ledger, where)] == [6]
    changed = [dataclasses.replace(d, value=7) if d.where == where else d for d in law_data()]
    assert drift(read_ledger(ledger), changed, later)[0].startswith(f"{where}: in force from {later}")


def test_a_correction_of_a_datum_that_did_not_change_is_refused(ledger):
    with pytest.raises(CommandError, match=re.escape(f"{DEPOSIT}: no datum of the packs differs")):
        call_command("law_ledger", "--record", "--correct", DEPOSIT, "--note", "n", "--ledger", str(ledger))


@pytest.mark.django_db
def test_reseeding_never_overwrites_a_threshold_row_held_and_only_adds(monkeypatch):
    code = "low_hold.ratio_21"
    held = Threshold.objects.get(code=code, effective_from=date(2018, 7, 1))
    edited = [
        (c, Decimal("0.99"), *rest) if c == code else (c, v, *rest) for c, v, *rest in thresholds.SEED
    ]  # a release that edited the 2018 value in place...
    amendment = (code, Decimal("0.08"), "ratio", "ND 99-01.3-08-04(9)", "amended", date(2031, 1, 1))
    monkeypatch.setattr(thresholds, "SEED", [*edited, amendment])
    assert thresholds.add_seed_rows(Threshold) == 1  # ...adds only the new dated row
    held.refresh_from_db()
    assert held.value == Decimal("0.10")
    assert list(Threshold.objects.filter(code=code).values_list("value", flat=True).order_by("effective_from")) == [
        Decimal("0.10"),
        Decimal("0.08"),
    ]


def test_every_migration_that_seeds_thresholds_loads_through_the_add_only_loader():
    root = Path(__file__).resolve().parents[2]
    seeding = [p for p in root.glob("*/migrations/0*.py") if "compliance.thresholds" in p.read_text()]
    assert len(seeding) == 4
    for path in seeding:
        text = path.read_text()
        assert "add_seed_rows(" in text and "import SEED" not in text and "update_or_create" not in text, path
