from django import template

from core.money import format_money, format_ratio

register = template.Library()


@register.filter
def money(cents):
    return format_money(cents)


@register.filter
def ratio(value):
    return format_ratio(value)


@register.filter
def retention(record) -> str:
    """'Retain until <date> (ND 99-01.3-08-16)' for a record with a retention date, else ''."""
    from cardroom.retention import retention_notice

    return retention_notice(record)


@register.filter
def known_money(cents):
    """A cash figure: money, or "not known" (never $0.00) where no count exists."""
    return "not known" if cents is None else format_money(cents)
