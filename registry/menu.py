"""The regulator's menu entries, and its staff as a party of their own (no organization)."""

from cardroom.navigation import register
from core import hooks
from packs import get_pack

from .models import Regulator, RegulatorRole

STAFF = set(RegulatorRole.values)
SECTION = "State registry"

register(SECTION, "Licensees", "registry:home", STAFF)
register(SECTION, "Filings received", "registry:filings", STAFF)
register(SECTION, "A quarter across licensees", "registry:quarter", STAFF)
register(SECTION, "Alerts shared", "registry:alerts", STAFF)


def _dealer_view_offered(jurisdiction: str) -> bool:
    """Only to an agency whose pack names a state-issued employee identifier (the view is keyed
    by it, `Pack.dealer_view_absent`); the page, opened by address elsewhere, says why not."""
    return not get_pack(jurisdiction).dealer_view_absent()


register(SECTION, "A dealer across licensees", "registry:dealers", STAFF, offered=_dealer_view_offered)
register(SECTION, "Register a licensee", "registry:register_licensee", {RegulatorRole.STATE_SUPERVISOR})


def _party(user):
    """The regulator's role, home page and its agency's pack (the menu's entries are those offered there)."""
    if not user.pk:
        return None
    found = Regulator.objects.filter(user_id=user.pk).values_list("role", "agency__jurisdiction").first()
    return ({found[0]}, "registry:home", {found[1]}) if found else None


hooks.PARTY.register(_party)
