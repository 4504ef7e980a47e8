"""Citing a rule in a template at a site: `{% load packs %}{% cite "counts.removal" site %}` gives
the site's pack's citation ("ND 99-01.3-08-14(1)") or "House control" (`packs.base.Rule.at`)."""

from django import template

from ..base import Rule

register = template.Library()


@register.simple_tag
def cite(key: str, where) -> str:
    """The citation of the rule `key` at `where` (a Site, a Table, a jurisdiction code or a Pack)."""
    return Rule(key).at(where)


@register.simple_tag
def cite_organization(key: str, organization) -> str:
    """The citation of the rule `key` for a record of the whole organization (`Rule.at_organization`)."""
    return Rule(key).at_organization(getattr(organization, "pk", organization))


@register.simple_tag
def states(key: str, where) -> bool:
    """Does the law of `where`'s pack state the rule `key` (so that its obligation applies there)?"""
    return Rule(key).applies(where)


@register.simple_tag
def employee_identifiers(organization_id) -> list[str]:
    """What each pack of the organization's sites calls the state-issued identifier of a gaming
    employee, with its citation, or that its texts name none (`Pack.employee_identifier`)."""
    from cardroom.models import Site

    from ..base import get_pack

    if not organization_id:
        return []
    codes = sorted(set(Site.objects.filter(organization_id=organization_id).values_list("jurisdiction", flat=True)))
    lines = []
    for pack in (get_pack(code) for code in codes):
        named = pack.employee_identifier
        lines.append(f"{pack.name}: {named.label} ({named.citation})" if named else pack.identifier_absent_reason())
    return lines
