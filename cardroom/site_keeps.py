"""What a site keeps, asked from above.

Whether the house's chips go to a site's tables is the floor's answer (`floor.rules.house_chips`),
whether it keeps drop boxes counts' (`counts.rules.keeps_drop_boxes`); a fees room keeps neither
(WA-BJ, where the house's revenue is the fees collected at its tables, WAC 230-40-125(1)). The core's
own pages ask here: a role's name (`models.role_label`: a fees room's cashier keeps fee cash, no
chip bank) and the stations page (no count tablet where no drop is counted). floor and counts
register their answers when their apps load (`floor.apps`, `counts.apps`): imports keep pointing
down. What a site's law names a gaming employee's state-issued identifier is its pack's
(`packs.apps`): the employee form shows the field only where one is named, and an employee is
refused one where none is (`models.Employee.clean`), in the pack's words saying why.
"""

from collections.abc import Callable

from core.hooks import DROP_BOXES, EMPLOYEE_IDENTIFIER, EMPLOYEE_IDENTIFIER_ABSENT, HOUSE_CHIPS


def register_house_chips(answer: Callable[[object], bool]) -> None:
    HOUSE_CHIPS.register(answer)


def register_drop_boxes(answer: Callable[[object], bool]) -> None:
    DROP_BOXES.register(answer)


def register_employee_identifier(answer: Callable[[str], tuple[str, str] | None]) -> None:
    EMPLOYEE_IDENTIFIER.register(answer)


def employee_identifier(jurisdiction: str) -> tuple[str, str] | None:
    """(label, citation) of the state-issued identifier of a gaming employee the jurisdiction's pack
    names (Washington's Class B licence number, WAC 230-03-265(3)); None where its law names none."""
    return EMPLOYEE_IDENTIFIER(jurisdiction)


def register_employee_identifier_absent(answer: Callable[[str], str]) -> None:
    EMPLOYEE_IDENTIFIER_ABSENT.register(answer)


def employee_identifier_absent(jurisdiction: str) -> str:
    """Why the jurisdiction's law names no state-issued identifier of a gaming employee, in its
    pack's words citing its text (9 NYCRR 4620.5); "" where it names one."""
    return EMPLOYEE_IDENTIFIER_ABSENT(jurisdiction)


def house_chips(site) -> bool:
    """Do the house's chips move between its chip bank and `site`'s tables?"""
    return HOUSE_CHIPS(site)


def keeps_drop_boxes(site) -> bool:
    """Does `site` keep drop boxes and count a drop?"""
    return DROP_BOXES(site)
