"""Who sees which figures page: the same rules as the figures API (accounting.rules)."""

from django.http import Http404
from django.shortcuts import get_object_or_404

from accounting.rules import DAILY_FIGURES, DEALER_FIGURES, QUARTER_FIGURES
from cardroom.access import ReadRule, access_for, current_site
from cardroom.models import Role
from core.limits import record_id
from core.rules import HOUSE_CONTROL
from floor.calculations import site_today

FIGURE_ROLES = tuple(DAILY_FIGURES.roles)
QUARTER_ROLES = tuple(QUARTER_FIGURES.roles)
DASHBOARD_ROLES = (Role.GAMING_MANAGER, Role.AUDITOR)

# Who reads the audit log in the browser (/dashboard/audit/): the gaming manager, who answers for
# every change, and the auditor, who audits them; both hold their roles organization-wide, so they
# read the whole organization's events, those of no site too. House control: no text states who
# reads the log.
AUDIT_LOG = ReadRule(frozenset({Role.GAMING_MANAGER, Role.AUDITOR}), HOUSE_CONTROL, "read the audit log")

__all__ = [
    "AUDIT_LOG",
    "DAILY_FIGURES",
    "DASHBOARD_ROLES",
    "DEALER_FIGURES",
    "FIGURE_ROLES",
    "QUARTER_FIGURES",
    "QUARTER_ROLES",
    "figure_site",
    "site_today",
]


def figure_site(request, rule: ReadRule):
    """The site whose figures are asked for: `?site=` among the user's sites (else 404), or
    the current site; a role the rule does not name at that site answers 403."""
    access = access_for(request.user)
    chosen = request.GET.get("site")
    if chosen:
        pk = record_id(chosen)
        if pk is None:
            raise Http404("No such site.")
        # The sites the site switcher read for this request (config.middleware), else read here.
        visible = getattr(request, "visible_sites", None)
        if visible is None:
            site = get_object_or_404(access.sites(), pk=pk)
        else:
            site = next((s for s in visible if s.pk == pk), None)
            if site is None:
                raise Http404("No such site.")
    else:
        site = current_site(request)
    rule.require(request.user, site)
    return site
