"""Every citation points at text that says what the message says (issue 14's audit).

Each ND 99-01.3-08 section and subsection cited anywhere in the code exists in the chapter;
the citations the audit found wrong are house controls now; Washington's house-banked limit
is WAC 230-15-140's, never a rule of the player-banked game."""

import re
from pathlib import Path

import pytest

from accounting import rules as accounting_rules
from cage import rules as cage_rules
from core.rules import HOUSE_CONTROL, joined_citations
from floor import rules as floor_rules
from packs import get_pack

ROOT = Path(__file__).resolve().parents[2]

# Chapter 99-01.3-08: the number of numbered subsections of each section.
SUBSECTIONS = {1: 3, 2: 4, 3: 4, 4: 11, 5: 6, 6: 3, 7: 3, 8: 2, 9: 3, 10: 3, 11: 17, 12: 15, 13: 3, 14: 4, 15: 4, 16: 6}
CITATION = re.compile(r"(?:99-01\.3-)?\b08-(\d{2})(?:\((\d+)\))?")


def cited():
    for path in ROOT.glob("*/**/*.py"):
        parts = path.relative_to(ROOT).parts
        if parts[0] in {".venv", "tests", "benchmarks"} or "migrations" in parts:
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            for match in CITATION.finditer(line):
                yield f"{path.relative_to(ROOT)}:{number}", int(match[1]), match[2] and int(match[2])


def test_every_cited_section_and_subsection_exists():
    wrong = [
        (where, section, sub)
        for where, section, sub in cited()
        if section not in SUBSECTIONS or (sub is not None and not 1 <= sub <= SUBSECTIONS[section])
    ]
    assert wrong == []


def test_the_controls_the_text_does_not_state_say_house_control():
    for name in ("TRAY_COUNT", "DEALER_SHIFTS", "RECORD_TIME", "TABLE_STATE", "GAMING_DAY_STATE"):
        assert getattr(floor_rules, name) == HOUSE_CONTROL, name
    assert accounting_rules.CLOSED_BOOKS.startswith(HOUSE_CONTROL)
    assert accounting_rules.FILED_QUARTER.startswith(HOUSE_CONTROL)
    for name in ("DEPOSIT_SEGREGATION", "TIP_SEGREGATION", "DEPOSIT_AFTER_CLOSE", "GAMING_DAY_STATE"):
        assert getattr(cage_rules, name) == HOUSE_CONTROL, name


def test_washington_house_banked_limits_cite_wac_230_15_140_effective_dated():
    """WAC 230-15-140's $300 single wager (WSR 16-20-098; the start date assumed), never the
    player-banked game's WAC 230-40-125; a later row takes over from its own date."""
    from dataclasses import replace
    from datetime import date

    from packs import WagerLimits

    pack = get_pack("WA-HB")
    limits = pack.wager_limits_on()
    assert "WAC 230-40-125" not in limits.citation
    assert limits.citation.startswith("WAC 230-15-140") and "WSR 16-20-098" in limits.citation
    assert "assumed" in limits.citation and limits.max_cents == 30_000
    later = WagerLimits("WAC 230-15-140 (a later amendment)", 100, 40_000, 100, effective_from=date(2030, 1, 1))
    amended = replace(pack, wager_limits=(*pack.wager_limits, later))
    assert amended.wager_limits_on(date(2029, 12, 31)).max_cents == 30_000
    assert amended.wager_limits_on(date(2030, 1, 1)).max_cents == 40_000


@pytest.mark.parametrize(
    "citations,joined",
    [
        (
            ["ND 99-01.3-08-14(1)", "ND 99-01.3-08-14", "ND 99-01.3-08-14(4)"],
            "ND 99-01.3-08-14(1), ND 99-01.3-08-14(4)",
        ),
        (["ND 99-01.3-08-04", "ND 99-01.3-08-04"], "ND 99-01.3-08-04"),
        (["ND 99-01.3-08-04(7)", "ND 99-01.3-08-16(1)(d)"], "ND 99-01.3-08-04(7), ND 99-01.3-08-16(1)(d)"),
        (["ND 99-01.3-08-16(1)", "ND 99-01.3-08-16(1)(d)"], "ND 99-01.3-08-16(1)(d)"),
        # a section number that only begins like another is not refined by it
        (["ND 99-01.3-08-1", "ND 99-01.3-08-14(1)"], "ND 99-01.3-08-1, ND 99-01.3-08-14(1)"),
        ([HOUSE_CONTROL, "9 NYCRR 4620.5(h)", HOUSE_CONTROL], "House control, 9 NYCRR 4620.5(h)"),
        ([], ""),
    ],
)
def test_joined_citations_say_each_once_and_drop_a_bare_section_another_refines(citations, joined):
    """Several citations of one rule list (a compliance check's, an alert's, the approvals page's):
    each said once, in the order given, with no bare section beside a citation of its subsection."""
    assert joined_citations(citations) == joined
    assert joined_citations(citations, "; ") == joined.replace(", ", "; ")
