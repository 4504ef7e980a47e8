from django import template

from cardroom.money import format_money, format_ratio

register = template.Library()


@register.filter
def money(cents):
    return format_money(cents)


@register.filter
def ratio(value):
    return format_ratio(value)
