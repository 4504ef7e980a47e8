"""The numbers of a pack's law are its own, effective-dated data (issue 32): surveillance, tournaments
and the cage ask the site's pack for the value in force on the date of the act."""

import dataclasses
from datetime import UTC, date, datetime, timedelta

import pytest

from cage.calculations import deposit_due_on
from packs import Limit, get_pack
from packs.base import PACKS
from packs.nd.compliance import THRESHOLDS
from surveillance import special_events
from surveillance.deadlines import outage_deadline
from tournaments.rules import MAX_CUMULATIVE_FEE

AMENDED = date(2030, 1, 1)


@pytest.fixture
def amended_nd(monkeypatch):
    """North Dakota's pack with each limit amended from 2030 (a later row of the same key)."""
    nd = get_pack("ND")
    later = (
        Limit("cage.deposit_banking_days", 5, "the fifth banking day", "ND 99-01.3-03-10(1)", AMENDED),
        Limit("tournaments.max_cumulative_fee_cents", 30_000, "$300.00 per player", "ND 99-01.3-08-15(1)", AMENDED),
        Limit("surveillance.outage_calendar", timedelta(days=2), "2 calendar days", "ND 99-01.3-08-04(7)", AMENDED),
        Limit("surveillance.special_event_max_days", 3, "3 or fewer consecutive days", "ND 99-01.3-08-04", AMENDED),
    )
    monkeypatch.setitem(PACKS, "ND", dataclasses.replace(nd, limits=nd.limits + later))


def test_the_nd_limits_are_the_packs_with_their_sections():
    nd = get_pack("ND")
    assert nd.limit_on("cage.deposit_banking_days", date(2026, 1, 5)).value == 3
    assert nd.limit_on("tournaments.max_cumulative_fee_cents", date(2026, 1, 5)).citation == "ND 99-01.3-08-15(1)"
    assert nd.limit_on("surveillance.recorder_overlap", date(2026, 1, 5)).value == timedelta(minutes=10)
    assert nd.limit_on("surveillance.outage_activity", date(2018, 6, 30)) is None  # before 08-04's amendment
    assert get_pack("WA-BJ").limit_on("tournaments.max_cumulative_fee_cents") is None


def test_the_deposit_days_have_one_source_the_threshold_reads_the_packs_limit():
    (row,) = [t for t in THRESHOLDS if t[0] == "deposit.banking_days"]
    limit = get_pack("ND").limit_on("cage.deposit_banking_days", date(2026, 1, 5))
    assert (row[1], row[3], row[5]) == (limit.value, limit.citation, limit.effective_from)


def test_an_amended_limit_is_in_force_from_its_date_only(amended_nd):
    friday_before, friday_after = date(2029, 12, 28), date(2030, 1, 4)
    assert deposit_due_on("ND", friday_before) == date(2030, 1, 3)  # third banking day (Jan 1 a holiday)
    assert deposit_due_on("ND", friday_after) == date(2030, 1, 11)  # fifth
    assert MAX_CUMULATIVE_FEE.on("ND", friday_before).value == 20_000
    assert MAX_CUMULATIVE_FEE.on("ND", friday_after).value == 30_000
    began = datetime(2030, 1, 2, 18, tzinfo=UTC)
    deadline = outage_deadline(began, [], "UTC", "ND")
    assert (deadline.at, deadline.basis) == (began + timedelta(days=2), "2 calendar days")
    refused = special_events.exemption([(date(2030, 2, 1), date(2030, 2, 4))], date(2030, 2, 2), "ND")
    assert not refused.exempt and "3 or fewer consecutive days" in refused.reason


def test_a_pack_without_the_deposit_deadline_keeps_the_house_control():
    assert get_pack("WA-BJ").limit_on("cage.deposit_banking_days") is None
    from cage.rules import DEPOSIT_DAYS

    assert DEPOSIT_DAYS.on("WA-BJ", date(2026, 1, 5)).citation == "House control"


def test_the_outage_and_system_thresholds_of_the_checks_are_the_surveillance_limits():
    nd, day = get_pack("ND"), date(2026, 1, 5)
    seeded = {t[0]: (t[1], t[3]) for t in THRESHOLDS}
    activity, calendar = (
        nd.limit_on("surveillance.outage_activity", day),
        nd.limit_on("surveillance.outage_calendar", day),
    )
    assert seeded["outage.activity_hours"] == (activity.value // timedelta(hours=1), activity.citation)
    assert seeded["outage.calendar_days"] == (calendar.value.days, calendar.citation)
    cap = nd.limit_on("surveillance.outage_wager_cap_cents", day)
    assert seeded["outage.wager_cap_cents"] == (cap.value, cap.citation)
    assert seeded["surveillance.operational_days"][0] == nd.limit_on("surveillance.operational_within", day).value.days


def test_the_review_programs_numbers_are_the_packs_and_an_amendment_holds_from_its_date(amended_nd, monkeypatch):
    """ND 99-01.3-08-04(9)'s six weeks and hour a week, and 08-16(1)(h)'s year, are the ND pack's
    limits (the compliance thresholds read them); a later row of the same key is in force only
    from its date, and a site whose pack states none keeps the house's own values."""
    from surveillance.rules import REVIEW_DOCUMENT_RETENTION, REVIEW_MIN_FOOTAGE, REVIEW_PROGRAM_LENGTH

    nd = get_pack("ND")
    monkeypatch.setitem(PACKS, "ND", dataclasses.replace(nd, limits=nd.limits + (
        Limit("surveillance.review_min_footage", timedelta(hours=2), "at least two hours per week",
              "ND 99-01.3-08-04(9)", AMENDED),
    )))  # fmt: skip
    before, after = date(2029, 12, 28), date(2030, 1, 4)
    assert REVIEW_MIN_FOOTAGE.on("ND", before).value == timedelta(hours=1)
    assert REVIEW_MIN_FOOTAGE.on("ND", after).value == timedelta(hours=2)
    length = REVIEW_PROGRAM_LENGTH.on("ND", before)
    assert (length.value, length.citation) == (timedelta(weeks=6), "ND 99-01.3-08-04(9)")
    assert REVIEW_DOCUMENT_RETENTION.on("ND", before).citation == "ND 99-01.3-08-16(1)(h)"
    house = REVIEW_PROGRAM_LENGTH.on("WA-HB", before)
    assert (house.value, house.citation) == (timedelta(weeks=6), "House control")
    weeks = {t[0]: t for t in THRESHOLDS}
    assert (weeks["low_hold.review_weeks"][1], weeks["low_hold.review_minutes_per_week"][1]) == (6, 60)
    assert weeks["low_hold.review_minutes_per_week"][3] == "ND 99-01.3-08-04(9)"


def test_an_act_before_the_first_text_held_is_refused_not_judged_by_a_later_one():
    """ND 99-01.3-08-15 as held is in force from 2006-10-01: a tournament dated in 2000 cannot be
    judged by it (nor by a house control), and is refused naming the section and the date."""
    from packs.base import LawNotHeld

    with pytest.raises(LawNotHeld) as refused:
        MAX_CUMULATIVE_FEE.on("ND", date(2000, 2, 1))
    assert "ND 99-01.3-08-15(1)" in refused.value.messages[0] and "2006-10-01" in refused.value.messages[0]
    assert refused.value.message_dict.keys() == {"non_field_errors"}
    assert MAX_CUMULATIVE_FEE.on("ND", date(2006, 10, 1)).value == 20_000
