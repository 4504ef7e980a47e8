from django.utils.formats import localize
from django.utils.html import format_html_join

from cardroom.access import access_for
from cardroom.models import role_label
from cardroom.navigation import menu_for, menu_html, party_of


def navigation(request):
    if not getattr(request, "user", None) or not request.user.is_authenticated:
        return {}
    access = access_for(request.user)
    site = getattr(request, "site", None)
    roles = access.roles_at(site.pk if site else None)
    # The current site's pack's entries (an entry another of one's sites offers appears once one
    # switches to it: Tacoma, fees only, offers no slip books, though Spokane does); without a
    # current site, those of every site one sees.
    visible = getattr(request, "visible_sites", [])
    jurisdictions = {site.jurisdiction} if site is not None else {s.jurisdiction for s in visible}
    if access.employee is None and not access.station:  # a regulator's staff, say (no organization)
        party = party_of(request.user)
        if party:  # a regulator: the entries its agency's pack offers (no dealer view where it names no identifier)
            roles, jurisdictions = set(roles) | party[0], jurisdictions | party[2]
    return {
        "access": access,
        "current_site": site,
        "visible_sites": getattr(request, "visible_sites", []),
        # The site switcher's <option>s, written in Python rather than a template loop a site (a
        # callable: only when drawn).
        "site_options": lambda: site_options(getattr(request, "visible_sites", []), site),
        "current_roles": [role_label(r, site) for r in sorted(roles)],
        # Only the entries the packs of one's sites offer (an ND organization sees no WA entries).
        "menu": lambda: menu_for(roles, jurisdictions),  # the home page's panels (a callable: only when drawn)
        "menu_html": menu_html(roles, jurisdictions),  # the navigation bar's, written once per set of roles
    }


def site_options(sites, current) -> str:
    """`<option>`s of `sites`, the `current` one selected, as base.html's loop wrote them."""
    chosen = current.pk if current else None
    rows = ((localize(s.pk), "selected" if s.pk == chosen else "", s.name) for s in sites)
    return format_html_join("", '<option value="{}" {}>{}</option>', rows)
