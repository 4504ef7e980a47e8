"""The navigation menu: each app registers its entries with the roles that may use them."""

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache

from django.urls import get_script_prefix, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from core import hooks

from .models import Role


@dataclass(frozen=True)
class MenuItem:
    section: str
    label: str
    url_name: str
    roles: frozenset[str]
    kwargs: tuple = ()
    # Whether a site of a jurisdiction (Site.jurisdiction) is offered the entry: the registering
    # app asks that site's pack (its revenue model, its rules). None: every site.
    offered: Callable[[str], bool] | None = None
    # The entry's label at a site of a jurisdiction, where its pack names it in its own words (the
    # dealers' "percent-of-hold" in North Dakota). None: the registered label everywhere.
    label_at: Callable[[str], str] | None = None

    def offered_at(self, jurisdictions) -> bool:
        return self.offered is None or jurisdictions is None or any(self.offered(j) for j in jurisdictions)

    @property
    def url(self) -> str:
        return _url(get_script_prefix(), self.url_name, self.kwargs)


@lru_cache(maxsize=512)
def _url(prefix: str, url_name: str, kwargs: tuple) -> str:
    """A menu entry's address, reversed once per process (every page draws the whole menu)."""
    return reverse(url_name, kwargs=dict(kwargs))


MENU: list[MenuItem] = []


def register(section: str, label: str, url_name: str, roles, offered=None, label_at=None, **kwargs) -> None:
    """An entry for `roles`; `offered(jurisdiction) -> bool`: only at sites whose pack offers it;
    `label_at(jurisdiction) -> str`: its label there, where the pack words it otherwise."""
    key = tuple(sorted(kwargs.items()))
    MENU.append(MenuItem(section, label, url_name, frozenset(roles), key, offered, label_at))


def offer_only_where(url_name: str, offered: Callable[[str], bool], **kwargs) -> None:
    """Narrow an entry registered here to the sites whose pack offers it, keeping its place in the
    menu: an app above this one asks the pack (cage: the chip denominations only where the house
    has chips, `floor.rules.house_chips`)."""
    key = tuple(sorted(kwargs.items()))
    at = next(n for n, item in enumerate(MENU) if item.url_name == url_name and item.kwargs == key)
    MENU[at] = replace(MENU[at], offered=offered)


def _labelled(item: MenuItem, jurisdictions) -> MenuItem:
    """The entry with its label at `jurisdictions` where they all agree on one; else as registered."""
    labels = {item.label_at(j) for j in jurisdictions} if item.label_at and jurisdictions else set()
    return replace(item, label=labels.pop()) if len(labels) == 1 else item


def menu_for(roles: set[str], jurisdictions=None) -> dict[str, list[MenuItem]]:
    """The entries for `roles`, keeping those offered at the user's sites (`jurisdictions`: their
    Site.jurisdiction values; None: every entry), each section and entry by its name there."""
    sections: dict[str, list[MenuItem]] = {}
    for item in MENU:
        if item.roles & roles and item.offered_at(jurisdictions):
            entry = _labelled(item, jurisdictions)
            sections.setdefault(item.section, []).append(entry)
    return sections


def menu_html(roles, jurisdictions) -> str:
    """The navigation bar's menu for `roles` at sites of `jurisdictions`, as base.html draws it:
    written once per process for each set of roles and jurisdictions (every page draws it; the
    entries are registered when the apps load and their addresses do not change)."""
    places = None if jurisdictions is None else frozenset(jurisdictions)
    return _menu_html(get_script_prefix(), frozenset(roles), places)


@lru_cache(maxsize=256)
def _menu_html(prefix: str, roles: frozenset, jurisdictions: frozenset | None) -> str:
    sections = []
    for section, items in menu_for(roles, jurisdictions).items():
        entries = format_html_join(
            "", '<li><a class="dropdown-item" href="{}">{}</a></li>', ((i.url, i.label) for i in items)
        )
        sections.append(
            format_html(
                '<li class="nav-item dropdown">\n'
                '<a class="nav-link dropdown-toggle" href="#" role="button" data-bs-toggle="dropdown" '
                'aria-expanded="false">{}</a>\n<ul class="dropdown-menu">\n{}\n</ul>\n</li>',
                section,
                entries,
            )
        )
    return mark_safe("\n".join(sections))  # noqa: S308 - every part went through format_html


@dataclass(frozen=True)
class HomePanel:
    template: str
    roles: frozenset[str]


HOME_PANELS: list[HomePanel] = []


def party_of(user) -> tuple[set[str], str, set[str]] | None:
    """(roles, home url name, jurisdictions) of a login that belongs to no organization, or None:
    the menu offers it the entries offered in those jurisdictions (a regulator: its agency's pack)."""
    for of_user in hooks.PARTY.answers():  # the registry answers for a regulator's staff
        found = of_user(user)
        if found:
            return found
    return None


def register_home_panel(template: str, roles) -> None:
    """A block an app shows on the home page to the roles that use it (above the menu)."""
    HOME_PANELS.append(HomePanel(template, frozenset(roles)))


def home_panels_for(roles: set[str]) -> list[str]:
    return [panel.template for panel in HOME_PANELS if panel.roles & roles]


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
