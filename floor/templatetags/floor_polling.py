from django import template
from django.conf import settings

register = template.Library()


@register.simple_tag
def pit_refresh_seconds() -> int:
    """How often the pit board and the slip queues poll for a fresh copy
    (`settings.PIT_REFRESH_SECONDS`): read where each of their templates polls, the home page's
    panel as the pit page."""
    return settings.PIT_REFRESH_SECONDS
