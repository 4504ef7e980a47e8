"""The drop box count's rules as data and one pure-ish function: who may count together.

ND 99-01.3-08-14(2) lists the teams that may open a drop box. The function below is the only
place that decides it; the service calls it before anything is counted, and its refusal (the
citation and a message naming the rule) is what the API and the count page show.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from cardroom.access import ReadRule
from cardroom.models import EmploymentType, Role
from cardroom.rules import HOUSE_CONTROL

COUNT_TEAM_CITATION = "ND 99-01.3-08-14(2)"
REMOVAL_CITATION = "ND 99-01.3-08-14(1)"
KEY_CITATION = "ND 99-01.3-08-14(3)"
COUNT_CITATION = "ND 99-01.3-08-14(4)"
BOX_NUMBER_CITATION = "ND 99-01.3-08-02(2)"

# Who reads the count sessions and sheets at a site: the count team, who manages, transports or
# audits (house control: 08-14(4) says the count is documented, not who reads it).
COUNT_RECORDS = ReadRule(
    frozenset({Role.COUNT_TEAM, Role.SHIFT_MANAGER, Role.GAMING_MANAGER, Role.AUDITOR}),
    HOUSE_CONTROL,
    "see a site's drop box counts",
)


@dataclass(frozen=True)
class Denomination:
    cents: int
    form: str  # "bill" or "coin"
    label: str

    @property
    def key(self) -> str:
        return f"{self.form}_{self.cents}"


# United States currency a drop box may hold, in the order the count sheet prints it.
CURRENCY: tuple[Denomination, ...] = (
    Denomination(10000, "bill", "$100 bill"),
    Denomination(5000, "bill", "$50 bill"),
    Denomination(2000, "bill", "$20 bill"),
    Denomination(1000, "bill", "$10 bill"),
    Denomination(500, "bill", "$5 bill"),
    Denomination(200, "bill", "$2 bill"),
    Denomination(100, "bill", "$1 bill"),
    Denomination(100, "coin", "$1 coin"),
    Denomination(50, "coin", "50\u00a2 coin"),
    Denomination(25, "coin", "25\u00a2 coin"),
    Denomination(10, "coin", "10\u00a2 coin"),
    Denomination(5, "coin", "5\u00a2 coin"),
    Denomination(1, "coin", "1\u00a2 coin"),
)
CURRENCY_BY_KEY = {d.key: d for d in CURRENCY}
BILL_CENTS = frozenset(d.cents for d in CURRENCY if d.form == "bill")
COIN_CENTS = frozenset(d.cents for d in CURRENCY if d.form == "coin")


def default_form(cents: int) -> str | None:
    """A $1 entry without a form is a bill; amounts that exist only as coins are coins."""
    if cents in BILL_CENTS:
        return "bill"
    if cents in COIN_CENTS:
        return "coin"
    return None


def currency_list_text() -> str:
    return ", ".join(d.label for d in CURRENCY)


# Kinds of persons for the count-team rule.
OUTSIDE_TYPES = frozenset(
    {
        EmploymentType.INDEPENDENT,
        EmploymentType.FINANCIAL_INSTITUTION,
        EmploymentType.ACCOUNTING_FIRM,
        EmploymentType.SECURITY_COMPANY,
    }
)


@dataclass(frozen=True)
class Refusal:
    """Why a count team may not count: the rule, in words, and the input field it concerns."""

    citation: str
    message: str
    field: str = "members"

    def __str__(self) -> str:
        return f"{self.citation}: {self.message}"


def count_team_refusal(
    first,
    second,
    *,
    relation_kinds: Callable[[object, object], set[str]],
    dealt_on: Callable[[object, date], bool],
    activity_date: date,
    count_date: date,
    twenty_one_auditor_id: int | None,
) -> Refusal | None:
    """The first rule of ND 99-01.3-08-14(2) that the two employees fail, or None.

    `relation_kinds(a, b)` gives the family/household kinds recorded between them in either
    direction; `dealt_on(employee, day)` whether the employee conducted games at the site on
    that gaming day. Checked in this order:

    1. two different persons;
    2. neither is the person who audits twenty-one at the site (the site's count settings);
    3. no direct supervisor and subordinate;
    4. no household member, spouse, parent, child, brother or sister, unless one of them is
       an independent contractor;
    5. the pair is one of the listed teams. *Assumed* (the rule lists examples of
       independence, not an exhaustive grid): a representative of a financial institution,
       accounting firm or security company counts as an independent person; so an outside
       person (independent or representative) may count with anyone; two non-gaming
       employees may count; a gaming employee may not count with a non-gaming employee;
       two gaming employees only if one of them conducted no games at the site on the
       activity day and on the count day.
    """
    if first.pk == second.pk:
        return Refusal(COUNT_TEAM_CITATION, "a count team is two different persons.")
    for member in (first, second):
        if twenty_one_auditor_id is not None and member.pk == twenty_one_auditor_id:
            return Refusal(
                COUNT_TEAM_CITATION,
                f"{member} audits twenty-one at this site and may not be on its count team.",
            )
    if first.supervisor_id == second.pk or second.supervisor_id == first.pk:
        return Refusal(
            COUNT_TEAM_CITATION,
            f"{first} and {second} are supervisor and subordinate; the count team must be independent.",
        )
    kinds = relation_kinds(first, second)
    if kinds and not (first.independent_contractor or second.independent_contractor):
        names = ", ".join(sorted(kinds))
        return Refusal(
            COUNT_TEAM_CITATION,
            f"{first} and {second} are related ({names}); family or household members may not count "
            "together unless one is an independent contractor.",
        )
    return _composition_refusal(first, second, dealt_on=dealt_on, activity_date=activity_date, count_date=count_date)


def _composition_refusal(first, second, *, dealt_on, activity_date, count_date) -> Refusal | None:
    types = {first.employment_type, second.employment_type}
    if types & OUTSIDE_TYPES:
        return None
    if types == {EmploymentType.NON_GAMING}:
        return None
    if types == {EmploymentType.GAMING}:
        days = {activity_date, count_date}
        if any(not any(dealt_on(member, day) for day in days) for member in (first, second)):
            return None
        return Refusal(
            COUNT_TEAM_CITATION,
            "two gaming employees may count only if one of them conducted no games at this site on the "
            f"activity day ({activity_date}) and the count day ({count_date}); both did.",
        )
    return Refusal(
        COUNT_TEAM_CITATION,
        "a gaming employee may count with an independent person or, under conditions, another gaming "
        "employee; not with a non-gaming employee.",
    )
