"""Each rule at, just below and just above its threshold (pure functions, seeded thresholds)."""

from datetime import UTC, date, datetime, timedelta

import pytest

from compliance import rules
from compliance.rules import OutageRecord, QuarterFigures, ShiftRecord
from core.periods import Quarter

Q3 = Quarter(2026, 3)


def fig(gp, prizes, game="21", quarter=Q3, site_id=1):
    return QuarterFigures(site_id, quarter, game, gp, prizes)


@pytest.mark.parametrize(
    "gp,prizes,fires", [(100_000, 100_001, True), (100_000, 100_000, False), (100_000, 99_999, False), (0, 1, True)]
)
def test_prizes_over_gross_proceeds_fires_exactly_when_agp_is_negative(book, gp, prizes, fires):
    finding = rules.prizes_over_gross_proceeds(fig(gp, prizes), book)
    assert (finding is not None) == fires
    if fires:
        assert finding.citation == "ND 99-01.3-08-01(3)"
        assert finding.due_date == date(2026, 10, 30)  # 30 days after September 30
        assert finding.figures["agp_cents"] == gp - prizes
        assert "ND 99-01.3-08-01(3)" in finding.action_required
        # the twelve continuous weeks start the day after the quarter: October 1 to December 23
        assert finding.figures["dealer_hold_from"] == "2026-10-01"
        assert finding.figures["dealer_hold_until"] == str(date(2026, 9, 30) + timedelta(weeks=12))


def test_prizes_over_gross_proceeds_is_a_twenty_one_rule(book):
    assert rules.prizes_over_gross_proceeds(fig(100, 200, game="PW"), book) is None


@pytest.mark.parametrize(
    "game,gp,agp,fires",
    [
        ("21", 1_000_000, 99_999, True),  # 9.9999%
        ("21", 1_000_000, 100_000, False),  # exactly 10%
        ("21", 1_000_000, 100_001, False),
        ("PW", 1_000_000, 149_999, True),
        ("PW", 1_000_000, 150_000, False),
        ("PW", 1_000_000, 150_001, False),
    ],
)
def test_low_hold_compares_exact_ratios_against_the_game_threshold(book, game, gp, agp, fires):
    finding = rules.low_hold(fig(gp, gp - agp, game=game), surveillance_required=True, book=book)
    assert (finding is not None) == fires
    if fires:
        assert finding.citation == "ND 99-01.3-08-04(9)"
        assert finding.due_date == Q3.end + timedelta(weeks=6)


def test_low_hold_needs_a_surveillance_site_and_gross_proceeds(book):
    assert rules.low_hold(fig(1_000_000, 990_000), surveillance_required=False, book=book) is None
    assert rules.low_hold(fig(0, 0), surveillance_required=True, book=book) is None


def history(*gps, start=Quarter(2026, 1)):
    quarter, out = start, []
    for gp in gps:
        out.append(fig(gp, gp // 2, quarter=quarter))
        quarter = quarter.next()
    return out


@pytest.mark.parametrize(
    "gps,fires",
    [
        ((1_000_000, 1_000_000), True),  # averaging exactly $10,000
        ((1_000_000, 999_999), False),  # a cent short on average
        ((1_500_000, 600_000), True),  # average $10,500
        ((900_000, 1_100_001), True),
    ],
)
def test_surveillance_required_at_the_two_quarter_average(book, gps, fires):
    finding = rules.surveillance_required(
        history(*gps), seasonal=False, wagers_above_cents=500, already_required=False, book=book, at="ND"
    )
    assert (finding is not None) == fires
    if fires:
        assert finding.due_date == Quarter(2026, 2).end + timedelta(days=45)
        assert "08-03(3)" in finding.action_required


@pytest.mark.parametrize("max_wager,fires", [(200, False), (300, True)])
def test_surveillance_is_required_only_with_wagers_above_two_dollars(book, max_wager, fires):
    finding = rules.surveillance_required(
        history(2_000_000, 2_000_000),
        seasonal=False,
        wagers_above_cents=max_wager,
        already_required=False,
        book=book,
        at="ND",
    )
    assert (finding is not None) == fires


def test_surveillance_needs_two_consecutive_quarters(book):
    one = history(5_000_000)
    assert (
        rules.surveillance_required(
            one, seasonal=False, wagers_above_cents=500, already_required=False, book=book, at="ND"
        )
        is None
    )
    gap = [fig(2_000_000, 0, quarter=Quarter(2026, 1)), fig(2_000_000, 0, quarter=Quarter(2026, 3))]
    assert (
        rules.surveillance_required(
            gap, seasonal=False, wagers_above_cents=500, already_required=False, book=book, at="ND"
        )
        is None
    )


def test_a_seasonal_site_averages_its_active_quarters_of_the_fiscal_year(book):
    # Fiscal year 2027: 2026Q3..2027Q2. Active only in 2026Q3 ($15,000) and 2027Q2 ($6,000): average $10,500.
    seasonal = [
        fig(1_500_000, 0, quarter=Quarter(2026, 3)),
        fig(0, 0, quarter=Quarter(2026, 4)),
        fig(0, 0, quarter=Quarter(2027, 1)),
        fig(600_000, 0, quarter=Quarter(2027, 2)),
    ]
    finding = rules.surveillance_required(
        seasonal, seasonal=True, wagers_above_cents=500, already_required=False, book=book, at="ND"
    )
    assert finding is not None and finding.figures["quarters"] == ["2026Q3", "2027Q2"]
    assert (
        rules.surveillance_required(
            seasonal, seasonal=False, wagers_above_cents=500, already_required=False, book=book, at="ND"
        )
        is None
    )
    seasonal[-1] = fig(400_000, 0, quarter=Quarter(2027, 2))  # average $9,500
    assert (
        rules.surveillance_required(
            seasonal, seasonal=True, wagers_above_cents=500, already_required=False, book=book, at="ND"
        )
        is None
    )


def test_a_site_already_under_surveillance_is_not_flagged_again(book):
    assert (
        rules.surveillance_required(
            history(5_000_000, 5_000_000),
            seasonal=False,
            wagers_above_cents=500,
            already_required=True,
            book=book,
            at="ND",
        )
        is None
    )


NOW = datetime(2026, 11, 20, 12, tzinfo=UTC)


def outage(deadline_offset_hours, repaired_offset_hours=None, max_wager=500):
    deadline = NOW + timedelta(hours=deadline_offset_hours)
    repaired = None if repaired_offset_hours is None else deadline + timedelta(hours=repaired_offset_hours)
    return OutageRecord(7, 1, 3, deadline - timedelta(days=3), deadline, repaired, max_wager)


@pytest.mark.parametrize(
    "record,fires",
    [
        (outage(-1), True),  # deadline passed, not repaired, ran at $5
        (outage(+1), False),  # deadline not reached
        (outage(-5, repaired_offset_hours=-1), False),  # repaired before the deadline
        (outage(-5, repaired_offset_hours=+1), True),  # repaired after the deadline
        (outage(-1, max_wager=200), False),  # limited to $2: allowed
        (outage(-1, max_wager=None), False),  # closed after the deadline
        (outage(0), True),  # at the deadline itself: the floor caps the table from this moment
        (outage(-5, repaired_offset_hours=0), False),  # repaired at the deadline itself: within 48 hours
    ],
)
def test_outage_past_deadline_while_operating_above_two_dollars(book, record, fires):
    finding = rules.outage_past_deadline(record, now=NOW, book=book)
    assert (finding is not None) == fires
    if fires:
        assert finding.citation == "ND 99-01.3-08-04(7)" and finding.subject == "outage:7"


def test_each_activity_day_without_a_review_log_is_flagged():
    missing = {date(2026, 11, 1): [1, 3], date(2026, 11, 2): [], date(2026, 11, 3): [2]}
    findings = rules.missing_review_logs(1, missing, at="ND")
    assert [(f.period_key, f.figures["tables"]) for f in findings] == [("2026-11-01", [1, 3]), ("2026-11-03", [2])]
    assert all(f.citation == "ND 99-01.3-08-04(7)" for f in findings)


def test_dealer_shifts_without_their_own_drop_are_flagged_inside_the_window():
    window = (date(2026, 10, 1), date(2026, 12, 23))
    shifts = [
        ShiftRecord(1, 1, "Dana", 2, datetime(2026, 10, 5, 20, tzinfo=UTC), False),
        ShiftRecord(2, 1, "Drew", 2, datetime(2026, 10, 5, 23, tzinfo=UTC), True),
        ShiftRecord(3, 1, "Dana", 2, datetime(2027, 1, 5, 20, tzinfo=UTC), False),
        ShiftRecord(4, 1, "Dana", 2, datetime(2026, 12, 23, 20, tzinfo=UTC), False),  # the window's last day
        ShiftRecord(5, 1, "Dana", 2, datetime(2026, 9, 30, 20, tzinfo=UTC), False),  # the day before it
    ]
    findings = rules.dealer_shifts_without_figures(shifts, window, "ND 99-01.3-08-01(3)")
    assert [f.subject for f in findings] == ["shift:1", "shift:4"]


@pytest.mark.parametrize("deposited,fires", [(date(2026, 12, 1), False), (date(2026, 12, 2), True), (None, True)])
def test_a_deposit_after_the_third_banking_day_is_late(book, deposited, fires):
    finding = rules.late_deposit(1, date(2026, 11, 25), deposited, today=date(2026, 12, 10), book=book)
    assert (finding is not None) == fires
    if fires:
        assert finding.due_date == date(2026, 12, 1) and finding.citation == "ND 99-01.3-03-10(1)"


def test_an_unrecorded_deposit_is_not_late_before_its_due_date(book):
    assert rules.late_deposit(1, date(2026, 11, 25), None, today=date(2026, 11, 30), book=book) is None


@pytest.mark.parametrize("submitted,fires", [(date(2026, 11, 15), False), (date(2026, 11, 16), True)])
def test_a_video_sample_is_due_within_fourteen_days(book, submitted, fires):
    finding = rules.late_video_sample(1, 9, date(2026, 11, 1), submitted, today=date(2026, 12, 1), book=book)
    assert (finding is not None) == fires


@pytest.mark.parametrize("on,fires", [(date(2026, 11, 14), False), (date(2026, 11, 15), True)])
def test_the_system_is_late_only_after_its_forty_fifth_day(on, fires):
    """ND 99-01.3-08-04: operational within 45 days; `due` is day 45, which is still in time."""
    finding = rules.system_not_operational(
        1, date(2026, 11, 14), [2, 3], on=on, citation="ND 99-01.3-08-04", cap_cents=200
    )
    assert (finding is not None) == fires
    if fires:
        assert finding.figures == {"tables": [2, 3], "due": "2026-11-14"}
        assert finding.due_date == date(2026, 11, 15)


def test_slip_and_count_exceptions_cite_their_rules():
    slips = rules.slip_exceptions(
        [
            rules.SlipException(1, date(2026, 11, 1), "fill", 12, "missing"),
            rules.SlipException(1, date(2026, 11, 1), "credit", 4, "unreceived"),
        ],
        at={1: "ND"},
    )
    assert [(f.citation, f.subject) for f in slips] == [
        ("ND 99-01.3-08-05(2)", "fill:12"),
        ("ND 99-01.3-08-05(6)", "credit:4"),
    ]
    counts = rules.count_exceptions([rules.CountException(1, date(2026, 11, 1), "3", "not_removed")], at={1: "ND"})
    assert counts[0].citation == "ND 99-01.3-08-14(1)"


def test_a_new_threshold_row_takes_effect_from_its_date(db):
    from decimal import Decimal

    from compliance.models import Threshold
    from compliance.thresholds import ThresholdBook

    Threshold.objects.create(
        code="low_hold.ratio_21",
        value=Decimal("0.12"),
        unit="ratio",
        citation="ND 99-01.3-08-04(9)",
        summary="hypothetical amendment",
        effective_from=date(2027, 1, 1),
    )
    assert ThresholdBook(date(2026, 12, 31))["low_hold.ratio_21"].value == Decimal("0.10")
    assert ThresholdBook(date(2027, 1, 1))["low_hold.ratio_21"].value == Decimal("0.12")
