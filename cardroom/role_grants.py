"""Checks on giving a role, set from above.

Who may hold a role is sometimes another app's rule: the person a site names as auditing
twenty-one is never on its count team (`counts.rules.AUDITOR_BAR`), and the count settings are
counts' (an app above the core). `Membership.clean` asks here, so the employee pages, the admin
and the memberships API refuse the same grant with the same words; counts registers its check
when its app loads (`counts.apps`): imports keep pointing down.
"""

from collections.abc import Callable

from django.core.exceptions import ValidationError

from core.hooks import ROLE_GRANTS


def register_role_check(check: Callable[[object], dict[str, str]]) -> Callable:
    """An upper app registers `check(membership) -> {field: message}` once, when it is ready."""
    ROLE_GRANTS.register(check)
    return check


def check_role_grant(membership) -> None:
    """Refuse a role that a registered check refuses, naming each field and its rule."""
    errors: dict[str, str] = {}
    for check in ROLE_GRANTS.answers():
        for name, message in check(membership).items():
            errors.setdefault(name, message)
    if errors:
        raise ValidationError(errors)
