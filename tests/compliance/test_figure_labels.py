"""Every figure key a rule emits has a human label and a format (compliance.labels.FIGURES).

Each rule of compliance.rules is run here on inputs that make it fire; a rule added without a
case here fails `test_every_rule_has_a_case`. The providers' own keys (a provider that builds
its finding itself) are walked by tests/compliance/conftest.py, which checks the figures of
every alert that any compliance test opened through the providers."""

import inspect
from datetime import UTC, date, datetime, timedelta

import pytest

from cardroom.models import Site
from compliance import rules
from compliance.labels import FIGURES, figure_rows
from core.periods import Quarter
from floor.queries import TablePlay

Q3 = Quarter(2026, 3)
NOW = datetime(2026, 11, 18, 12, tzinfo=UTC)


def quarter(gp, prizes, game="21"):
    return rules.QuarterFigures(1, Q3, game, gp, prizes)


CASES = {
    "prizes_over_gross_proceeds": lambda book: rules.prizes_over_gross_proceeds(quarter(100_00, 200_00), book),
    "dealer_shifts_without_figures": lambda book: rules.dealer_shifts_without_figures(
        [rules.ShiftRecord(7, 1, "Pat Dealer", 3, NOW, has_own_drop=False)],
        (date(2026, 11, 1), date(2026, 11, 30)),
        "ND 99-01.3-08-01(3)",
    ),
    "low_hold": lambda book: rules.low_hold(quarter(100_000_00, 95_000_00), surveillance_required=True, book=book),
    "surveillance_required": lambda book: rules.surveillance_required(
        [rules.QuarterFigures(1, Q3.previous(), "21", 1_200_000, 0), quarter(1_000_000, 0)],
        seasonal=False,
        wagers_above_cents=2500,
        already_required=False,
        book=book,
        at="ND",
    ),
    "outage_past_deadline": lambda book: rules.outage_past_deadline(
        rules.OutageRecord(4, 1, 2, NOW - timedelta(days=3), NOW - timedelta(days=1), None, 2500), now=NOW, book=book
    ),
    "missing_review_logs": lambda book: rules.missing_review_logs(1, {date(2026, 11, 3): [1, 2]}, at="ND"),
    "missing_card_checks": lambda book: rules.missing_card_checks(
        1, "shoe_inspected", {date(2026, 11, 3): [1, 2]}, at="ND"
    ),
    "slip_exceptions": lambda book: rules.slip_exceptions(
        [rules.SlipException(1, date(2026, 11, 3), "fill", 12, problem) for problem in rules._SLIP_TEXT], at={1: "ND"}
    ),
    "count_exceptions": lambda book: rules.count_exceptions(
        [rules.CountException(1, date(2026, 11, 3), "T1-A", problem) for problem in rules._COUNT_TEXT], at={1: "ND"}
    ),
    "late_deposit": lambda book: rules.late_deposit(1, date(2026, 11, 2), None, today=date(2026, 11, 18), book=book),
    "sample_resubmission_owed": lambda book: rules.sample_resubmission_owed(
        1, 7, "Equipment installed", date(2026, 11, 5), date(2026, 11, 9), table=2, findings="Dark", at="ND"
    ),
    "late_video_sample": lambda book: rules.late_video_sample(
        1, 5, date(2026, 10, 1), None, today=date(2026, 11, 18), book=book
    ),
    "system_not_operational": lambda book: rules.system_not_operational(
        1, date(2026, 11, 1), [1, 3], on=date(2026, 11, 18), citation="ND 99-01.3-08-04", cap_cents=200
    ),
    "special_event_over_limit": lambda book: rules.special_event_over_limit(
        1, 9, 9, date(2026, 11, 1), date(2026, 11, 18), "ND 99-01.3-08-04", "ND 99-01.3-08-04"
    ),
    "recording_gaps": lambda book: rules.recording_gaps(
        1,
        2,
        2,
        date(2026, 11, 3),
        [(NOW, NOW + timedelta(minutes=35))],
        citation="ND 99-01.3-08-04(5)(b)",
        time_zone="America/Chicago",
    ),
    "discontinued_twenty_one": lambda book: rules.discontinued_twenty_one(1, "Elks Lodge", date(2026, 11, 1), book),
    "chip_colours": lambda book: rules.chip_colours(
        1, date(2026, 11, 18), ["$5 chips are not red."], trigger="surveillance is installed", at="ND"
    ),
    "tips_not_redeemed": lambda book: rules.tips_not_redeemed(
        rules.TipsAtLeaving(1, date(2026, 11, 3), 8, "Pat Dealer", True, 1500, "closer"), at="ND"
    ),
    "chip_float_short": lambda book: rules.chip_float_short(
        rules.ChipFloatShort(1, date(2026, 11, 18), date(2026, 11, 17), 2500, 600, 3000, 3919, 1500, 3919), at="ND"
    ),
    "dealer_hold_untracked": lambda book: rules.dealer_hold_untracked(
        1, date(2026, 11, 3), exchange="Once per gaming day", at="ND"
    ),
    "chip_redemption_procedure_missing": lambda book: rules.chip_redemption_procedure_missing(
        1, date(2026, 11, 3), at="ND"
    ),
    "shuffle_procedure_missing": lambda book: rules.shuffle_procedure_missing(
        1, date(2026, 11, 3), trigger="the site requires video surveillance", at="ND"
    ),
    "chip_marking_missing": lambda book: rules.chip_marking_missing(1, date(2026, 11, 3), ["$5.00 (red)"], at="ND"),
    "irregularities_undocumented": lambda book: rules.irregularities_undocumented(
        1, date(2026, 11, 3), game="House-banked blackjack", version=2, key="house", at="WA-HB"
    ),
    "table_out_of_line": lambda book: rules.table_out_of_line(
        1,
        date(2026, 11, 3),
        7,
        1,
        {"tie_option": "9 NYCRR 4620.5(h): ..."},
        citation="9 NYCRR 4620.5(h)",
        settings=["Tie option"],
    ),
    "low_table_closings": lambda book: rules.low_table_closings(
        1,
        date(2026, 11, 3),
        [
            TablePlay(1, 1, 300, (NOW,), (NOW + timedelta(hours=3),), ((NOW, NOW + timedelta(hours=3)),)),
            TablePlay(2, 2, 500, (NOW,), (), ((NOW, None),)),
            TablePlay(3, 3, 100, (NOW,), (), ((NOW, NOW + timedelta(hours=4)),)),  # its dealer relieved, no one after
        ],
        book=book,
        time_zone="America/Chicago",
    ),
    "filed_return_amended": lambda book: rules.filed_return_amended(
        rules.FiledReturnAmended(
            1,
            "Elks Lodge",
            "2026Q3",
            Q3.start,
            Q3.end,
            4,
            date(2026, 10, 5),
            "ab" * 32,
            9,
            "Other games' AGP",
            80_000_00,
            "other games' AGP entry 3, recorded 2026-11-02",
        ),
        citation="ND 99-01.3-08-16(1)(g)",
    ),
    "tournament_fee_before_announcement": lambda book: rules.tournament_fee_before_announcement(
        rules.EarlyTournamentFee(
            1,
            "America/Chicago",
            3,
            "Friday Blackjack",
            12,
            "entry fee",
            "Ann Lee",
            10_000,
            date(2026, 11, 3),
            NOW - timedelta(hours=2),
            NOW - timedelta(hours=1),
        ),
        disclosure="ND 99-01.3-08-15",
    ),
}


def _rules_that_find() -> set[str]:
    """The public functions of compliance.rules that return findings (by their annotation)."""
    return {
        name
        for name, function in inspect.getmembers(rules, inspect.isfunction)
        if function.__module__ == rules.__name__
        and not name.startswith("_")
        and "Finding" in str(inspect.signature(function).return_annotation)
    }


def test_every_rule_has_a_case():
    assert _rules_that_find() == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_figure_a_rule_emits_has_a_label(name, book):
    found = CASES[name](book)
    findings = found if isinstance(found, list) else [found]
    assert findings and all(findings), f"{name} did not fire on its case"
    for finding in findings:
        missing = set(finding.figures) - set(FIGURES)
        assert not missing, f"{name} emits figures without a label in compliance.labels.FIGURES: {sorted(missing)}"
        for label, value in figure_rows(finding.figures):
            assert "_" not in label and value, (name, label, value)


@pytest.mark.parametrize(
    "figures,expected",
    [
        ({"hold_ratio": "0.078157"}, [("Hold", "7.82%")]),
        ({"hold_ratio": None}, [("Hold", "n/a (no gross proceeds)")]),
        ({"gross_proceeds_cents": 123456}, [("Gross proceeds", "$1,234.56")]),
        ({"agp_cents": -100}, [("Adjusted gross proceeds", "-$1.00")]),
        ({"gross_proceeds_cents": [1200000, 800000]}, [("Gross proceeds", "$12,000.00, $8,000.00")]),
        ({"average_cents": "1000000.5"}, [("Average gross proceeds per quarter", "$10,000.00")]),
        ({"reviewed_minutes": 20}, [("Video reviewed", "20 minutes")]),
        ({"number": 1234}, [("Slip number", "1,234")]),
        ({"tables": [1, 4]}, [("Tables", "1, 4")]),
        ({"deposited_on": None}, [("Deposited on", "not recorded")]),
        ({"seasonal": False}, [("Seasonal site", "no")]),
        ({"some_new_cents": 5}, [("Some new", "5")]),  # never a raw key, even unmapped
    ],
)
def test_figures_are_formatted_by_kind(figures, expected):
    assert figure_rows(figures) == expected


def test_a_moment_reads_at_the_sites_time_as_the_alerts_text_says_it():
    figures = {"closed_at": "2026-11-21T02:30:00+00:00", "relieved_at": "2026-07-01T01:45:00+00:00"}
    assert figure_rows(figures, Site(time_zone="America/Chicago")) == [
        ("Low table closed at", "2026-11-20 20:30 CST"),
        ("Low table left without a dealer at", "2026-06-30 20:45 CDT"),
    ]
    assert figure_rows(figures) == [
        ("Low table closed at", "2026-11-21 02:30 UTC"),
        ("Low table left without a dealer at", "2026-07-01 01:45 UTC"),
    ]
