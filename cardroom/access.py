"""Who may see and do what, where.

A person sees the sites they hold a role at; a gaming manager or auditor role held at
"all sites" (or at any site) extends to every site of their organization. Objects outside
that scope are filtered out of every queryset, so they answer 404; a visible object the
role may not act on answers 403.
"""

from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet

from .models import ORG_WIDE_ROLES, Employee, Membership, Role, Site

_CACHE_ATTR = "_cardroom_access"


class Access:
    """The roles of one user, loaded once per request."""

    def __init__(self, user):
        self.user = user
        self.employee: Employee | None = None
        self.org_roles: set[str] = set()
        self.site_roles: dict[int, set[str]] = {}
        if user is None or not user.is_authenticated:
            return
        self.employee = Employee.objects.select_related("organization", "user").filter(user=user, active=True).first()
        if self.employee is None:
            return
        for site_id, role in Membership.objects.filter(employee=self.employee).values_list("site_id", "role"):
            if role in ORG_WIDE_ROLES:
                self.org_roles.add(role)
            else:
                self.site_roles.setdefault(site_id, set()).add(role)

    def employee_org(self):
        if self.employee is None:
            raise PermissionDenied("You are not an employee of any organization.")
        return self.employee.organization

    @property
    def organization_id(self) -> int | None:
        return self.employee.organization_id if self.employee else None

    def sites(self) -> QuerySet[Site]:
        if self.employee is None:
            return Site.objects.none()
        qs = Site.objects.filter(organization_id=self.organization_id)
        return qs if self.org_roles else qs.filter(pk__in=list(self.site_roles))

    def roles_at(self, site_id: int | None) -> set[str]:
        return set(self.org_roles) | self.site_roles.get(site_id, set())

    def all_roles(self) -> set[str]:
        roles = set(self.org_roles)
        for site_roles in self.site_roles.values():
            roles |= site_roles
        return roles

    def has_role(self, site_id: int | None, *roles: str) -> bool:
        return bool(self.roles_at(site_id) & set(roles))

    def can_see_site(self, site: Site) -> bool:
        if self.employee is None or site.organization_id != self.organization_id:
            return False
        return bool(self.org_roles) or site.pk in self.site_roles

    @property
    def is_gaming_manager(self) -> bool:
        return Role.GAMING_MANAGER in self.org_roles


def access_for(user) -> Access:
    cached = getattr(user, _CACHE_ATTR, None)
    if cached is None:
        cached = Access(user)
        if user is not None:
            setattr(user, _CACHE_ATTR, cached)
    return cached


def forget_access(user) -> None:
    if hasattr(user, _CACHE_ATTR):
        delattr(user, _CACHE_ATTR)


def require_role(user, site: Site | None, *roles: str, action: str) -> Access:
    """Raise PermissionDenied naming the roles that may perform `action` at `site`."""
    access = access_for(user)
    site_id = site.pk if site is not None else None
    if site is not None and site.organization_id != access.organization_id:
        raise PermissionDenied(f"You may not {action}: the site belongs to another organization.")
    if not access.has_role(site_id, *roles):
        names = ", ".join(Role(r).label.lower() for r in roles)
        raise PermissionDenied(f"You may not {action}: only a {names} may.")
    return access


def require_gaming_manager(user, organization_id: int, *, action: str) -> Access:
    access = access_for(user)
    if access.organization_id != organization_id or not access.is_gaming_manager:
        raise PermissionDenied(f"You may not {action}: only a gaming manager of the organization may.")
    return access
