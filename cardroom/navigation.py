"""The navigation menu: each app registers its entries with the roles that may use them."""

from dataclasses import dataclass

from django.urls import reverse

from .models import Role


@dataclass(frozen=True)
class MenuItem:
    section: str
    label: str
    url_name: str
    roles: frozenset[str]
    kwargs: tuple = ()

    @property
    def url(self) -> str:
        return reverse(self.url_name, kwargs=dict(self.kwargs))


MENU: list[MenuItem] = []


def register(section: str, label: str, url_name: str, roles, **kwargs) -> None:
    MENU.append(MenuItem(section, label, url_name, frozenset(roles), tuple(sorted(kwargs.items()))))


def menu_for(roles: set[str]) -> dict[str, list[MenuItem]]:
    sections: dict[str, list[MenuItem]] = {}
    for item in MENU:
        if item.roles & roles:
            sections.setdefault(item.section, []).append(item)
    return sections


SETUP_ROLES = {Role.GAMING_MANAGER, Role.AUDITOR}
register("Setup", "Sites", "setup_list", SETUP_ROLES, kind="sites")
register("Setup", "Tables", "setup_list", SETUP_ROLES, kind="tables")
register("Setup", "Chip denominations", "setup_list", SETUP_ROLES, kind="chips")
register("Setup", "Employees", "setup_list", SETUP_ROLES, kind="employees")

# A gaming manager's administration pages; the other apps add theirs (slip books, drop boxes and
# count settings, thresholds) from their menus.
ADMINISTRATION = "Administration"
register(ADMINISTRATION, "Locked accounts", "locked_accounts", {Role.GAMING_MANAGER})
register(ADMINISTRATION, "Stations (shared terminals)", "stations", {Role.GAMING_MANAGER})
