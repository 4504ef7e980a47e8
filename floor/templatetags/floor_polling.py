from django import template
from django.conf import settings

register = template.Library()


@register.simple_tag
def pit_refresh_seconds() -> int:
    """How often the pit board polls for a fresh copy (`settings.PIT_REFRESH_SECONDS`): the home
    page's panel has none of the pit view's context to read it from."""
    return settings.PIT_REFRESH_SECONDS
