"""Steps the cage's services share: the acting employee by role, the audit event, the gaming
date, and parsing amounts, cash and chips. The time of an act and the refusal of a day whose
books are closed are the platform's (core.acts)."""

from datetime import date, datetime

from django.core.exceptions import PermissionDenied, ValidationError

from cardroom.access import access_for, refusal, require_role
from cardroom.chips import not_a_chip_value
from cardroom.models import ChipDenomination, Employee, Organization, Site
from core import acts, limits, moments
from core.audit import record_event, snapshot
from core.money import format_money
from core.rules import HOUSE_CONTROL
from floor import rules as floor_rules

from .. import rules
from ..calculations import lines_total_cents


def acting_at_site(acting_user, site: Site, roles, action: str, rule: str = HOUSE_CONTROL) -> Employee:
    return acts.acting_employee(require_role(acting_user, site, *roles, action=action, rule=rule))


def acting_in_organization(acting_user, organization: Organization, roles, action: str) -> Employee:
    access = access_for(acting_user)
    if access.organization_id != organization.pk:
        raise PermissionDenied(f"{HOUSE_CONTROL}: only the organization's own employees may {action}.")
    if not access.has_role(None, *roles):
        raise PermissionDenied(refusal(HOUSE_CONTROL, roles, action))
    return acts.acting_employee(access)


def record_audit(acting_user, action: str, obj, *, organization_id: int, site_id: int | None, after=None) -> None:
    record_event(
        actor=acting_user,
        action=action,
        obj=obj,
        organization_id=organization_id,
        site_id=site_id,
        after=after if after is not None else snapshot(obj),
    )


def refuse_house_chips(site: Site, consequence: str) -> None:
    """Where the house's revenue is its fees (floor.rules.FEES_ONLY) it holds no chips: a record of
    house chips at its cage (a redemption, chips in a bank count, tip chips) is refused on `chips`,
    citing the rule the floor refuses fills by; `consequence` ends the sentence."""
    if floor_rules.house_chips(site):
        return
    raise ValidationError({"chips": floor_rules.no_house_chips(site, consequence)})


def checked_gaming_date(site: Site, value, field: str = "gaming_date") -> date:
    if not isinstance(value, date) or isinstance(value, datetime):
        raise ValidationError({field: f"{HOUSE_CONTROL}: give {field} as a date (YYYY-MM-DD)."})
    moments.refuse_day_not_begun(site, value, field=field, rule=rules.GAMING_DAY_STATE)
    return value


def checked_amount(value, field: str, citation: str, *, allow_zero: bool = False) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValidationError({field: f"{citation}: give the amount as a whole number of cents."})
    if value < 0 or (value == 0 and not allow_zero):
        raise ValidationError(
            {field: f"{citation}: the amount must be {'zero or more' if allow_zero else 'more than zero'}."}
        )
    if value > limits.MAX_AMOUNT_CENTS:
        raise ValidationError({field: limits.amount_message()})
    return value


def _quantity(raw, label: str, field: str, citation: str) -> int:
    """A whole, non-negative number of chips or notes; a string of digits is accepted."""
    if isinstance(raw, str) and limits.digits(raw.strip().lstrip("-")):
        raw = int(raw.strip())
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise ValidationError({field: f"{citation}: the quantity of {label} must be a whole number (got {raw!r})."})
    if raw < 0:
        raise ValidationError({field: f"{citation}: the quantity of {label} cannot be negative (got {raw})."})
    if raw > rules.MAX_QUANTITY_PER_LINE:
        raise ValidationError({field: f"{citation}: {raw} of {label} is more than a bank holds."})
    return raw


LINE_KEYS = frozenset({"value_cents", "denomination", "quantity"})  # `denomination`: the value in cents


def _items(raw, field: str, citation: str) -> list[tuple[object, object]]:
    """[(value, quantity)] from {value_cents: quantity} or [{"value_cents": v, "quantity": q}, ...]."""
    if raw is None:
        return []
    if isinstance(raw, dict):
        return list(raw.items())
    if not isinstance(raw, list | tuple):
        raise ValidationError(
            {
                field: f"{citation}: {field} is a list of lines, each naming value_cents and quantity, or quantities by value."
            }
        )
    items = []
    for item in raw:
        if (
            not isinstance(item, dict)
            or "quantity" not in item
            or set(item) - LINE_KEYS
            or LINE_KEYS - {"quantity"} <= set(item)
        ):
            raise ValidationError(
                {
                    field: f"{citation}: each line of {field} names value_cents (or denomination, not both) "
                    f"and quantity, and nothing else."
                }
            )
        items.append((item.get("value_cents", item.get("denomination")), item["quantity"]))
    return items


def _value_key(raw):
    if isinstance(raw, ChipDenomination):
        return raw.value_cents
    if isinstance(raw, str) and limits.digits(raw.strip()):
        return int(raw.strip())
    return raw if isinstance(raw, int) and not isinstance(raw, bool) else None


def parse_chip_lines(raw, organization_id: int, *, field: str = "chips", citation: str) -> dict[ChipDenomination, int]:
    """{chip: quantity} for the organization's active chips, by value in cents; zero lines
    dropped. An unknown value, a negative or fractional quantity, or a value twice is refused.
    No line (tips declared as none): no chips are read."""
    items = _items(raw, field, citation)
    active = ChipDenomination.objects.filter(organization_id=organization_id, active=True) if items else ()
    chips = {c.value_cents: c for c in active}
    parsed: dict[ChipDenomination, int] = {}
    for value, quantity in items:
        chip = chips.get(_value_key(value))
        if chip is None:
            citation = rules.at_organization(rules.CHIP_VALUES, organization_id)
            raise ValidationError({field: not_a_chip_value(citation, value, chips)})
        if chip in parsed:
            raise ValidationError({field: f"{citation}: {format_money(chip.value_cents)} chips are listed twice."})
        parsed[chip] = _quantity(quantity, f"{format_money(chip.value_cents)} chips", field, citation)
    return {chip: q for chip, q in parsed.items() if q}


def parse_cash_lines(raw, *, field: str = "cash", citation: str) -> dict[int, int]:
    """{value_cents: quantity} of currency and coin (rules.CASH_VALUES_CENTS); zero lines dropped."""
    parsed: dict[int, int] = {}
    for value, quantity in _items(raw, field, citation):
        key = _value_key(value)
        if key not in rules.CASH_VALUES_CENTS:
            raise ValidationError({field: f"{citation}: {value!r} is not a denomination of US currency or coin."})
        if key in parsed:
            raise ValidationError({field: f"{citation}: {format_money(key)} is listed twice."})
        parsed[key] = _quantity(quantity, f"{format_money(key)} in cash", field, citation)
    return {value: q for value, q in parsed.items() if q}


def chip_total_cents(chips: dict[ChipDenomination, int]) -> int:
    return lines_total_cents((chip.value_cents, quantity) for chip, quantity in chips.items())


def require_chips(chips: dict, field: str, citation: str) -> None:
    if not chips:
        raise ValidationError({field: f"{citation}: give at least one denomination and its quantity."})
