"""Parsing the count's figures, one path for the API and the browser."""

from django.core.exceptions import ValidationError

from core import limits
from core.rules import HOUSE_CONTROL

from ..models import CountEntry, SlipKind
from ..rules import COUNT, CURRENCY_BY_KEY, currency_list_text, default_form
from .steps import Figures, Forms


def _whole_number(value) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and limits.digits(value.strip().lstrip("-")):
        return int(value.strip())
    return None


CURRENCY_LINE_KEYS = frozenset({"denomination_cents", "quantity", "form"})
FORM_KEYS = frozenset({"kind", "number"})


def _keys(keys) -> str:
    return ", ".join(sorted(keys))


def parse_currency(raw, site) -> Figures:
    """[{"denomination_cents": n, "quantity": q, "form": "bill"|"coin"?}] -> {(n, form): q}.
    Quantities are whole numbers, never negative; only US bills and coins (the drop box cash the
    team counts); each once: the count rule at `site` (`COUNT`: ND 99-01.3-08-14(4), House control
    at a pack that does not state it), cited in each refusal."""
    if not isinstance(raw, list | tuple):
        raise ValidationError(
            {"currency": f"{HOUSE_CONTROL}: give currency as a list of denominations and quantities."}
        )
    figures: Figures = {}
    errors = []
    for item in raw:
        if not isinstance(item, dict):
            errors.append(f"{HOUSE_CONTROL}: each currency line needs a denomination_cents and a quantity.")
            continue
        unknown = sorted(set(item) - CURRENCY_LINE_KEYS)
        if unknown:
            errors.append(
                f"{HOUSE_CONTROL}: a currency line has no field {unknown[0]!r} (it has {_keys(CURRENCY_LINE_KEYS)})."
            )
            continue
        cents = _whole_number(item.get("denomination_cents"))
        form = item.get("form") or (default_form(cents) if cents is not None else None)
        denomination = CURRENCY_BY_KEY.get(f"{form}_{cents}")
        if denomination is None:
            errors.append(
                f"{COUNT.at(site)}: {item.get('denomination_cents')!r} cents is not a US bill or coin the count "
                f"records ({currency_list_text()})."
            )
            continue
        quantity = _whole_number(item.get("quantity"))
        if quantity is None or quantity < 0:
            errors.append(
                f"{COUNT.at(site)}: the quantity of {denomination.label}s must be a whole number, zero or more "
                f"(got {item.get('quantity')!r})."
            )
            continue
        if quantity > limits.MAX_QUANTITY:
            errors.append(limits.quantity_message(f"The quantity of {denomination.label}s ({quantity:,})"))
            continue
        if (cents, form) in figures:
            errors.append(f"{COUNT.at(site)}: {denomination.label} is listed twice; give one line per denomination.")
            continue
        figures[(cents, form)] = quantity
    if errors:
        raise ValidationError({"currency": errors})
    return {key: q for key, q in figures.items() if q > 0}


def parse_forms(raw, site) -> Forms:
    """[{"kind": "fill"|"credit", "number": n}] -> {(kind, n)}: fill-slip copies and
    credit-slip originals found in the box, each number once (the count rule at `site`, `COUNT`,
    cited in each refusal of a form)."""
    if raw in (None, ""):
        return set()
    if not isinstance(raw, list | tuple):
        raise ValidationError({"forms": f"{HOUSE_CONTROL}: give forms as a list of slip kinds and numbers."})
    forms: Forms = set()
    errors = []
    for item in raw:
        unknown = sorted(set(item) - FORM_KEYS) if isinstance(item, dict) else []
        if unknown:
            errors.append(f"{HOUSE_CONTROL}: a form found has no field {unknown[0]!r} (it has {_keys(FORM_KEYS)}).")
            continue
        kind = item.get("kind") if isinstance(item, dict) else None
        number = _whole_number(item.get("number")) if isinstance(item, dict) else None
        if kind not in SlipKind.values:
            errors.append(
                f"{COUNT.at(site)}: a form found is a fill slip copy or a credit slip original (kind 'fill' or "
                f"'credit'), not {kind!r}."
            )
        elif number is None or not 1 <= number <= limits.MAX_FORM_NUMBER:
            errors.append(
                f"A {kind} slip number is a whole number from 1 to {limits.MAX_FORM_NUMBER:,} "
                f"(got {item.get('number')!r}; {limits.HOUSE_CONTROL})."
            )
        elif (kind, number) in forms:
            errors.append(f"{COUNT.at(site)}: {kind} slip {number} is listed twice; give each form found once.")
        else:
            forms.add((kind, number))
    if errors:
        raise ValidationError({"forms": errors})
    return forms


def figures_total(figures: Figures) -> int:
    return sum(cents * quantity for (cents, _form), quantity in figures.items())


def entry_figures(entry: CountEntry) -> tuple[Figures, Forms]:
    lines = {(line.denomination_cents, line.form): line.quantity for line in entry.lines.all()}
    return lines, {(f.kind, f.number) for f in entry.forms.all()}
