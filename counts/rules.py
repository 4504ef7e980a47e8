"""The drop box count's rules as data and one pure-ish function: who may count together.

The site's pack states who may open a drop box (North Dakota's law lists four teams). The
function below is the only place that decides it; the service calls it before anything is
counted, and its refusal (the citation at the site and a message naming the rule) is what the
API and the count page show.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from django.core.exceptions import ValidationError

from cardroom.access import ReadRule
from cardroom.models import EmploymentType, Role, role_label
from core.hooks import COUNT_SETTINGS_WARNINGS
from core.rules import HOUSE_CONTROL
from packs import RevenueModel, Rule, game_name, pack_for

# The drop box and its count, cited at a site by its pack (`Rule.at`). House controls where the
# pack does not state them: the texts we hold for Washington and New York state the games, not
# how a drop box is kept and counted, and a WA or NY gaming manager (and their state's auditor)
# still expects a box numbered to its table, removed by the shift manager under escort to safe
# storage, its keys with the count team, and its cash counted blind by two independent people
# who sign the sheet. So these rules keep applying at every site, cited "House control" there.
COUNT_TEAM = Rule("counts.count_team")  # who may count together (the team's independence)
REMOVAL = Rule("counts.removal")  # removal by the shift manager, escorted, to safe storage
KEYS = Rule("counts.keys")  # the keys to the box's contents with the count team
COUNT = Rule("counts.count")  # each member counts independently, differences recounted, both sign
BOX_NUMBER = Rule("counts.box_number")  # a drop box carries its table's number
# A house whose revenue is its fees alone keeps no drop box: a drop box, its placing and its count
# are refused there, citing the pack's rule (`refuse_drop_boxes`).
FEES_ONLY = Rule("counts.fees_only")


def keeps_drop_boxes(where) -> bool:
    """Does a site of `where` (a Site or a jurisdiction code) keep drop boxes and count a drop?
    Not where its pack's revenue is fees only (menus omit the count pages there)."""
    return pack_for(where).revenue_model != RevenueModel.FEES


def fees_only_notice(site) -> str | None:
    """At a site that keeps no drop box, why (what the count pages show instead of their forms);
    None where it keeps them."""
    if keeps_drop_boxes(site):
        return None
    return (
        f"{FEES_ONLY.at(site)}: the house's revenue here is the fees collected at the table; "
        "it keeps no drop box and counts no drop."
    )


def dealer_hold_absent(site) -> str:
    """Why a box is not exchanged at each dealer change at `site`, cited, naming the setting: where its
    pack's revenue is not a drop (a New York session, Washington's fees) no dealer has a hold, so a
    drop per dealer shift separates nothing (house control). "" where the pack's revenue is a drop."""
    pack = pack_for(site)
    if pack.revenue_model == RevenueModel.DROP:
        return ""
    return (
        f"{HOUSE_CONTROL}: no dealer has a {pack.revenue_words.hold_name} at {site.name} (its revenue is not a drop), "
        'so the drop box is exchanged once per gaming day (the "Drop box exchanged" setting), not at each dealer change.'
    )


def refuse_drop_boxes(site, field: str = "box") -> None:
    """Refuse a drop box, its use or its count at a site whose pack's revenue is fees only."""
    if notice := fees_only_notice(site):
        raise ValidationError({field: notice})


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


# Kinds of persons for the count-team rule (`COUNT_TEAM`).
REPRESENTATIVE_TYPES = frozenset(
    {
        EmploymentType.FINANCIAL_INSTITUTION,
        EmploymentType.ACCOUNTING_FIRM,
        EmploymentType.SECURITY_COMPANY,
    }
)

# Roles that make a person a gaming employee whatever their record says: they conduct, run or
# supervise the games or the chip bank. A person holding one is checked as a gaming employee.
GAMING_ROLES = frozenset(
    {Role.GAMING_MANAGER, Role.SHIFT_MANAGER, Role.PIT_BOSS, Role.CASHIER, Role.DEALER, Role.WHEEL_OPERATOR}
)

# House control everywhere (North Dakota's list of teams does not say it): the person the site names as auditing game 21
# (counts.models.CountSettings.twenty_one_auditor) is kept off its count team, so whoever
# checks the count's figures afterwards did not make them.
AUDITOR_BAR = f"{HOUSE_CONTROL} (separation of audit and count)"


def auditor_bar_message(member, site, site_name: str = "this site") -> str:
    """The AUDITOR_BAR refusal, in one wording wherever the two meet: a count team formed, the
    count-team role given (counts.role_grants), the auditor named (CountSettings.clean); the game
    as `site`'s pack names it ("twenty-one", "blackjack", "Black Jack")."""
    return f"{member} audits {game_name(site, '21')} at {site_name} and may not be on its count team."


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
    site,
) -> Refusal | None:
    """The first count-team rule (`COUNT_TEAM`, cited at `site`) that the two employees fail, or None.

    `relation_kinds(a, b)` gives the family/household kinds recorded between them in either
    direction; `dealt_on(employee, day)` whether the employee conducted games at the site on
    that gaming day. Checked in this order:

    1. two different persons;
    2. neither is the person who audits game 21 at the site (house control, AUDITOR_BAR:
       no pack's text says it);
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
    citation = COUNT_TEAM.at(site)
    if first.pk == second.pk:
        return Refusal(citation, "a count team is two different persons.")
    for member in (first, second):
        if twenty_one_auditor_id is not None and member.pk == twenty_one_auditor_id:
            return Refusal(AUDITOR_BAR, auditor_bar_message(member, site))
    for member in (first, second):
        held = (roles_of(member) if roles_of else set()) & GAMING_ROLES
        if held and member.employment_type != EmploymentType.GAMING:
            names = ", ".join(sorted(role_label(r, site).lower() for r in held))
            return Refusal(
                citation,
                f"{member} holds a gaming role ({names}) and so is a gaming employee, not "
                f"{EmploymentType(member.employment_type).label.lower()}; correct their record.",
            )
    if first.supervisor_id == second.pk or second.supervisor_id == first.pk:
        return Refusal(
            citation,
            f"{first} and {second} are supervisor and subordinate; the count team must be independent.",
        )
    kinds = relation_kinds(first, second)
    if kinds and not (first.independent_contractor or second.independent_contractor):
        names = ", ".join(sorted(kinds))
        return Refusal(
            citation,
            f"{first} and {second} are related ({names}); family or household members may not count "
            "together unless one is an independent contractor.",
        )
    return _composition_refusal(
        first, second, dealt_on=dealt_on, activity_date=activity_date, count_date=count_date, citation=citation
    )


def _composition_refusal(first, second, *, dealt_on, activity_date, count_date, citation) -> Refusal | None:
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
            citation,
            "two gaming employees may count only if one of them conducted no games at this site on the "
            f"activity day ({activity_date}) and the count day ({count_date}); both did.",
        )
    labels = " and ".join(EmploymentType(t).label.lower() for t in types)
    return Refusal(
        citation,
        f"a count team of {labels} is not one the rule lists: an independent person and a gaming employee; "
        "two representatives of a financial institution, accounting firm, security agency or security company; "
        "two nongaming employees; or two gaming employees, one of whom conducted no games here on the activity "
        "and count days.",
    )


def settings_warnings(site, box_exchange: str) -> list[str]:
    """What the site's rules say of its count settings as saved, each message citing its rule
    (the hook `count_settings_warnings`, answered by compliance: a surveillance site exchanging
    its boxes once a gaming day tracks no dealer's percent-of-hold, ND 99-01.3-08-04(8)). Nothing
    is refused: the pages show them as warnings, the API answers them in `warnings`."""
    return [warning for answer in COUNT_SETTINGS_WARNINGS.answers() for warning in answer(site, box_exchange)]


def register_settings_warnings(answer) -> None:
    """Compliance registers `answer(site, box_exchange) -> [str]` when its app is ready."""
    COUNT_SETTINGS_WARNINGS.register(answer)
