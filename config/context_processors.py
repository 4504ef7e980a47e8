from cardroom.access import access_for
from cardroom.models import Role
from cardroom.navigation import menu_for


def navigation(request):
    if not getattr(request, "user", None) or not request.user.is_authenticated:
        return {}
    access = access_for(request.user)
    site = getattr(request, "site", None)
    roles = access.roles_at(site.pk if site else None)
    return {
        "access": access,
        "current_site": site,
        "visible_sites": getattr(request, "visible_sites", []),
        "current_roles": [Role(r).label for r in sorted(roles)],
        # Only the entries the packs of one's sites offer (an ND organization sees no WA entries).
        "menu": menu_for(roles, {s.jurisdiction for s in getattr(request, "visible_sites", [])}),
    }
