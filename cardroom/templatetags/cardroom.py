from django import template

from cardroom.money import format_money, format_ratio

register = template.Library()


@register.filter
def money(cents):
    return format_money(cents)


@register.filter
def ratio(value):
    return format_ratio(value)


@register.filter
def known_money(cents):
    """A cash figure: money, or "not known" (never $0.00) where no count exists."""
    return "not known" if cents is None else format_money(cents)
