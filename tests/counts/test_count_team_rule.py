"""ND 99-01.3-08-14(2), branch by branch: the one function that decides who may count together."""

from datetime import date
from types import SimpleNamespace

import pytest

from counts.rules import COUNT_TEAM_CITATION, count_team_refusal

ACTIVITY, COUNT_DAY = date(2026, 11, 13), date(2026, 11, 14)


def person(pk, kind="gaming", supervisor=None, contractor=False):
    return SimpleNamespace(pk=pk, employment_type=kind, supervisor_id=supervisor, independent_contractor=contractor)


def refusal(first, second, *, relations=(), dealt=frozenset(), auditor=None):
    """`dealt`: {(employee pk, day)} when the employee conducted games at the site."""
    return count_team_refusal(
        first,
        second,
        relation_kinds=lambda a, b: set(relations),
        dealt_on=lambda e, day: (e.pk, day) in dealt,
        activity_date=ACTIVITY,
        count_date=COUNT_DAY,
        twenty_one_auditor_id=auditor,
    )


def test_the_same_person_twice_is_not_a_team():
    result = refusal(person(1, "independent"), person(1, "independent"))
    assert result.citation == COUNT_TEAM_CITATION
    assert "two different persons" in result.message


@pytest.mark.parametrize("which", [1, 2])
def test_the_person_who_audits_twenty_one_at_the_site_may_not_count_there(which):
    result = refusal(person(1, "independent"), person(2, "gaming"), auditor=which)
    assert "audits twenty-one" in result.message


@pytest.mark.parametrize(
    "first,second",
    [
        (person(1, "non_gaming", supervisor=2), person(2, "non_gaming")),
        (person(1, "non_gaming"), person(2, "non_gaming", supervisor=1)),
    ],
)
def test_a_supervisor_and_a_direct_subordinate_may_not_count_together_either_way(first, second):
    assert "supervisor and subordinate" in refusal(first, second).message


@pytest.mark.parametrize("kind", ["household", "spouse", "parent", "child", "sibling"])
def test_relatives_and_household_members_may_not_count_together(kind):
    result = refusal(person(1, "non_gaming"), person(2, "non_gaming"), relations=[kind])
    assert kind in result.message and result.citation == COUNT_TEAM_CITATION


@pytest.mark.parametrize("contractor", [1, 2])
def test_relatives_may_count_together_when_one_is_an_independent_contractor(contractor):
    first = person(1, "independent", contractor=contractor == 1)
    second = person(2, "gaming", contractor=contractor == 2)
    assert refusal(first, second, relations=["spouse"]) is None


@pytest.mark.parametrize("outside", ["independent", "financial_institution", "accounting_firm", "security_company"])
def test_an_independent_person_or_outside_representative_may_count_with_a_gaming_employee(outside):
    assert refusal(person(1, outside), person(2, "gaming"), dealt={(2, ACTIVITY), (2, COUNT_DAY)}) is None


@pytest.mark.parametrize(
    "first,second",
    [
        ("financial_institution", "financial_institution"),
        ("accounting_firm", "accounting_firm"),
        ("security_company", "security_company"),
        ("independent", "non_gaming"),
    ],
)
def test_two_representatives_or_an_outside_person_with_a_non_gaming_employee_may_count(first, second):
    assert refusal(person(1, first), person(2, second)) is None


def test_two_non_gaming_employees_may_count():
    assert refusal(person(1, "non_gaming"), person(2, "non_gaming")) is None


def test_a_gaming_employee_may_not_count_with_a_non_gaming_employee():
    result = refusal(person(1, "gaming"), person(2, "non_gaming"))
    assert "not with a non-gaming employee" in result.message


def test_two_gaming_employees_may_count_when_one_dealt_on_neither_day():
    assert refusal(person(1), person(2), dealt={(1, ACTIVITY), (1, COUNT_DAY)}) is None


@pytest.mark.parametrize(
    "dealt",
    [
        {(1, ACTIVITY), (2, ACTIVITY)},
        {(1, ACTIVITY), (2, COUNT_DAY)},
        {(1, COUNT_DAY), (2, COUNT_DAY)},
        {(1, ACTIVITY), (1, COUNT_DAY), (2, COUNT_DAY)},
    ],
)
def test_two_gaming_employees_who_each_dealt_on_the_activity_or_count_day_may_not_count(dealt):
    result = refusal(person(1), person(2), dealt=dealt)
    assert "two gaming employees" in result.message and str(ACTIVITY) in result.message


def test_the_refusal_reads_as_the_rule_then_the_reason():
    text = str(refusal(person(1), person(1)))
    assert text.startswith("ND 99-01.3-08-14(2): ")


def test_rules_are_checked_before_the_team_composition():
    # related and supervisor: the supervisor rule is named first
    first, second = person(1, "non_gaming", supervisor=2), person(2, "non_gaming")
    assert "supervisor" in refusal(first, second, relations=["sibling"]).message
