from django import template

from compliance import labels

register = template.Library()


@register.filter
def alert_table(alert) -> str:
    return labels.table_of(alert)


@register.filter
def alert_period(alert) -> str:
    return labels.period_of(alert)


@register.filter
def alert_subject(alert) -> str:
    return labels.subject_of(alert)
