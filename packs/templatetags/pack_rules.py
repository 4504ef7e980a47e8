"""A rule cited on a page at the page's site: `{% load pack_rules %}`, then
`{{ "surveillance.outage_deadline"|cite:current_site }}` ("ND 99-01.3-08-04(7)" at an ND site,
"House control" elsewhere) and `{% if "surveillance.system"|states:current_site %}` (does the
site's pack state the rule, so that its obligation applies there)."""

from django import template

from packs.base import Rule

register = template.Library()


@register.filter
def cite(key: str, site) -> str:
    return Rule(key).at(site)


@register.filter
def states(key: str, site) -> bool:
    return site is not None and Rule(key).applies(site)
