"""Money: integer cents in storage, Decimal in Python, one formatter for pages, API and PDFs."""

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

CENT = Decimal("0.01")


def cents_to_decimal(cents: int) -> Decimal:
    return (Decimal(int(cents)) / 100).quantize(CENT)


def decimal_to_cents(amount: Decimal | str | int) -> int:
    """Exact conversion; refuses fractions of a cent rather than rounding them away."""
    try:
        value = Decimal(str(amount).strip().replace(",", "").lstrip("$"))
    except InvalidOperation as exc:
        raise ValueError(f"{amount!r} is not an amount of money") from exc
    if not value.is_finite():
        raise ValueError(f"{amount!r} is not an amount of money")
    cents = value * 100
    if cents != cents.to_integral_value():
        raise ValueError(f"{amount!r} has a fraction of a cent")
    return int(cents)


def format_money(cents: int | None, *, signed: bool = False) -> str:
    """`123450` -> `$1,234.50`; negatives as `-$12.00`; None as an em dash."""
    if cents is None:
        return "\u2014"
    amount = cents_to_decimal(abs(cents))
    sign = "-" if cents < 0 else ("+" if signed and cents > 0 else "")
    return f"{sign}${amount:,.2f}"


def deposit_text(cents: int | None) -> str | None:
    """A day's expected bank deposit where it is not money to deposit: "not known" without a
    count; "none" with how much the bank's cash fell on a losing day (its bank is made up, not
    deposited: a fall, not a cash short); None where it is money (format it as such)."""
    if cents is None:
        return "not known"
    if cents < 0:
        return f"none: the bank's cash fell by {format_money(-cents)} (a losing day; not a cash short)"
    return None


def deposit_cents(cents: int | None) -> int | None:
    """A day's expected bank deposit as an amount to deposit, for a file of data (CSV, XLSX): none,
    0, on a losing day (what `deposit_text` writes "none": its bank is made up, not deposited; the
    fall is the day's negative cash profit beside it); None when not known."""
    return None if cents is None else max(cents, 0)


def format_ratio(ratio: Decimal | None, places: int = 2) -> str:
    """A ratio as a percentage rounded half-up for display only: Decimal('0.12345') -> '12.35%'."""
    if ratio is None:
        return "n/a"
    quantum = Decimal(1).scaleb(-places)
    return f"{(ratio * 100).quantize(quantum, rounding=ROUND_HALF_UP)}%"
