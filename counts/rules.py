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


# Kinds of persons for the count-team rule (ND 99-01.3-08-14(2)).
REPRESENTATIVE_TYPES = frozenset(
    {
        EmploymentType.FINANCIAL_INSTITUTION,
        EmploymentType.ACCOUNTING_FIRM,
        EmploymentType.SECURITY_COMPANY,
    }
)
OUTSIDE_TYPES = REPRESENTATIVE_TYPES | {EmploymentType.INDEPENDENT}

# Roles that make a person a gaming employee whatever their record says: they conduct, run or
# supervise the games or the chip bank. A person holding one is checked as a gaming employee.
GAMING_ROLES = frozenset(
    {Role.GAMING_MANAGER, Role.SHIFT_MANAGER, Role.PIT_BOSS, Role.CASHIER, Role.DEALER, Role.WHEEL_OPERATOR}
)

# House control (not in 08-14(2)): the person the site names as auditing twenty-one
# (counts.models.CountSettings.twenty_one_auditor) is kept off its count team, so whoever
# checks the count's figures afterwards did not make them.
AUDITOR_BAR = f"{HOUSE_CONTROL} (separation of audit and count)"


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
    roles_of: Callable[[object], set[str]] | None = None,
) -> Refusal | None:
    """The first rule of ND 99-01.3-08-14(2) that the two employees fail, or None.

    `relation_kinds(a, b)` gives the family/household kinds recorded between them in either
    direction; `dealt_on(employee, day)` whether the employee conducted games at the site on
    that gaming day. Checked in this order:

    1. two different persons;
    2. neither is the person who audits twenty-one at the site (house control, AUDITOR_BAR:
       08-14(2) does not say it);
    3. each person's employment type agrees with the roles they hold (`roles_of`): a person
       holding a gaming role (GAMING_ROLES) is a gaming employee;
    4. no direct supervisor and subordinate;
    5. no household member, spouse, parent, child, brother or sister, unless one of them is
       an independent contractor;
    6. the pair is one of the four teams the rule lists, and only those: an independent
       person and a gaming employee; two representatives of a financial institution,
       accounting firm, security agency or security company; two nongaming employees; two
       gaming employees provided one of them conducted no games at the site on the activity
       day and on the count day.
    """
    if first.pk == second.pk:
        return Refusal(COUNT_TEAM_CITATION, "a count team is two different persons.")
    for member in (first, second):
        if twenty_one_auditor_id is not None and member.pk == twenty_one_auditor_id:
            return Refusal(AUDITOR_BAR, f"{member} audits twenty-one at this site and may not be on its count team.")
    for member in (first, second):
        held = (roles_of(member) if roles_of else set()) & GAMING_ROLES
        if held and member.employment_type != EmploymentType.GAMING:
            names = ", ".join(sorted(Role(r).label.lower() for r in held))
            return Refusal(
                COUNT_TEAM_CITATION,
                f"{member} holds a gaming role ({names}) and so is a gaming employee, not "
                f"{EmploymentType(member.employment_type).label.lower()}; correct their record.",
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
    types = sorted([first.employment_type, second.employment_type])
    if types == sorted([EmploymentType.GAMING, EmploymentType.INDEPENDENT]):
        return None
    if all(t in REPRESENTATIVE_TYPES for t in types):
        return None
    if types == [EmploymentType.NON_GAMING, EmploymentType.NON_GAMING]:
        return None
    if types == [EmploymentType.GAMING, EmploymentType.GAMING]:
        days = {activity_date, count_date}
        if any(not any(dealt_on(member, day) for day in days) for member in (first, second)):
            return None
        return Refusal(
            COUNT_TEAM_CITATION,
            "two gaming employees may count only if one of them conducted no games at this site on the "
            f"activity day ({activity_date}) and the count day ({count_date}); both did.",
        )
    labels = " and ".join(EmploymentType(t).label.lower() for t in types)
    return Refusal(
        COUNT_TEAM_CITATION,
        f"a count team of {labels} is not one the rule lists: an independent person and a gaming employee; "
        "two representatives of a financial institution, accounting firm, security agency or security company; "
        "two nongaming employees; or two gaming employees, one of whom conducted no games here on the activity "
        "and count days.",
    )
