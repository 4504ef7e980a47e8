"""ND 99-01.3-08-14(2), branch by branch: the one function that decides who may count together."""

from datetime import date
from types import SimpleNamespace

import pytest

from counts.rules import AUDITOR_BAR, count_team_refusal

# Cited at a North Dakota site (the pure function is given the jurisdiction code).
COUNT_TEAM_CITATION = "ND 99-01.3-08-14(2)"

ACTIVITY, COUNT_DAY = date(2026, 11, 13), date(2026, 11, 14)


def person(pk, kind="gaming", supervisor=None, contractor=False):
    return SimpleNamespace(pk=pk, employment_type=kind, supervisor_id=supervisor, independent_contractor=contractor)


def refusal(first, second, *, relations=(), dealt=frozenset(), auditor=None, roles=None):
    """`dealt`: {(employee pk, day)} when the employee conducted games at the site."""
    return count_team_refusal(
        first,
        second,
        relation_kinds=lambda a, b: set(relations),
        dealt_on=lambda e, day: (e.pk, day) in dealt,
        activity_date=ACTIVITY,
        count_date=COUNT_DAY,
        twenty_one_auditor_id=auditor,
        roles_of=lambda e: set((roles or {}).get(e.pk, ())),
        site="ND",
    )


def test_the_same_person_twice_is_not_a_team():
    result = refusal(person(1, "independent"), person(1, "independent"))
    assert result.citation == COUNT_TEAM_CITATION
    assert "two different persons" in result.message


@pytest.mark.parametrize("which", [1, 2])
def test_the_person_who_audits_twenty_one_at_the_site_may_not_count_there_a_house_control(which):
    """08-14(2) does not say it: the refusal names it a house control, not the section."""
    result = refusal(person(1, "independent"), person(2, "gaming"), auditor=which)
    assert "audits twenty-one" in result.message
    assert result.citation == AUDITOR_BAR and str(result).startswith("House control")


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


def test_an_independent_person_may_count_with_a_gaming_employee_even_one_who_dealt():
    assert refusal(person(1, "independent"), person(2, "gaming"), dealt={(2, ACTIVITY), (2, COUNT_DAY)}) is None


@pytest.mark.parametrize("representative", ["financial_institution", "accounting_firm", "security_company"])
def test_a_representative_is_not_an_independent_person_and_does_not_count_with_a_gaming_employee(representative):
    """08-14(2) lists "an independent person and a gaming employee" and, separately, "two
    representatives of a financial institution, accounting firm, security agency, or security
    company": a representative with a gaming employee is neither."""
    result = refusal(person(1, representative), person(2, "gaming"))
    assert result.citation == COUNT_TEAM_CITATION and "is not one the rule lists" in result.message


@pytest.mark.parametrize(
    "first,second",
    [
        ("financial_institution", "financial_institution"),
        ("accounting_firm", "accounting_firm"),
        ("security_company", "security_company"),
        ("financial_institution", "security_company"),
    ],
)
def test_two_representatives_may_count(first, second):
    assert refusal(person(1, first), person(2, second)) is None


@pytest.mark.parametrize(
    "first,second",
    [
        ("independent", "non_gaming"),
        ("independent", "independent"),
        ("independent", "accounting_firm"),
        ("accounting_firm", "non_gaming"),
        ("security_company", "gaming"),
    ],
)
def test_a_pair_the_rule_does_not_list_may_not_count(first, second):
    for a, b in ((first, second), (second, first)):
        result = refusal(person(1, a), person(2, b))
        assert result is not None and "is not one the rule lists" in result.message


@pytest.mark.parametrize("role", ["dealer", "wheel_operator", "pit_boss", "shift_manager", "cashier", "gaming_manager"])
def test_a_person_holding_a_gaming_role_is_a_gaming_employee_whatever_the_record_says(role):
    result = refusal(person(1, "non_gaming"), person(2, "non_gaming"), roles={2: {role, "count_team"}})
    assert result.citation == COUNT_TEAM_CITATION and "holds a gaming role" in result.message
    assert refusal(person(1, "non_gaming"), person(2, "non_gaming"), roles={2: {"count_team", "auditor"}}) is None
    # Recorded as a gaming employee, the same person counts with an independent person.
    assert refusal(person(1, "independent"), person(2, "gaming"), roles={2: {role}}) is None


def test_two_non_gaming_employees_may_count():
    assert refusal(person(1, "non_gaming"), person(2, "non_gaming")) is None


def test_a_gaming_employee_may_not_count_with_a_non_gaming_employee():
    result = refusal(person(1, "gaming"), person(2, "non_gaming"))
    assert "is not one the rule lists" in result.message


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
