"""The regulator's menu entries, and its staff as a party of their own (no organization)."""

from cardroom.navigation import register
from core import hooks

from .models import Regulator, RegulatorRole

STAFF = set(RegulatorRole.values)
SECTION = "State registry"

register(SECTION, "Licensees", "registry:home", STAFF)
register(SECTION, "Filings received", "registry:filings", STAFF)
register(SECTION, "A quarter across licensees", "registry:quarter", STAFF)
register(SECTION, "Alerts shared", "registry:alerts", STAFF)
register(SECTION, "A dealer across licensees", "registry:dealers", STAFF)
register(SECTION, "Register a licensee", "registry:register_licensee", {RegulatorRole.STATE_SUPERVISOR})


def _party(user):
    role = Regulator.objects.filter(user_id=user.pk).values_list("role", flat=True).first() if user.pk else None
    return ({role}, "registry:home") if role else None


hooks.PARTY.register(_party)
