"""A rule cited on a page at the page's site: `{% load pack_rules %}`, then
`{{ "surveillance.outage_deadline"|cite:current_site }}` ("ND 99-01.3-08-04(7)" at an ND site,
"House control" elsewhere) and `{% if "surveillance.system"|states:current_site %}` (does the
site's pack state the rule, so that its obligation applies there); `{{ "21"|game_label:site }}`
and `{{ "21"|game_word:site }}`, the game as the site's pack names it ("Blackjack", "blackjack")."""

from django import template

from packs import game_label as label_of
from packs import game_name
from packs.base import Rule

register = template.Library()


@register.filter
def cite(key: str, site) -> str:
    return Rule(key).at(site)


@register.filter
def states(key: str, site) -> bool:
    return site is not None and Rule(key).applies(site)


@register.filter
def game_label(code: str, where) -> str:
    """The game `code` ("21") as the pack of `where` (a Site, a Table, a code) names it on a label:
    "Twenty-one", "Blackjack", "Black Jack" (`Pack.game_names`)."""
    return label_of(where, code)


@register.filter
def game_word(code: str, where) -> str:
    """The game `code` in a sentence at `where`: "twenty-one", "blackjack", "Black Jack"."""
    return game_name(where, code)
