from django import template

from core.money import format_money

register = template.Library()


@register.filter
def money(cents):
    return format_money(cents)


@register.filter
def getfield(form, name):
    return form[name]


@register.filter
def split(text):
    return text.split()


@register.filter
def get(mapping, key):
    return (mapping or {}).get(key, "")
