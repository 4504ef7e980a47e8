"""The count's rule on giving the count-team role (the `role_grants` hook, `cardroom.role_grants`).

The person a site names as auditing twenty-one is never on its count team (`AUDITOR_BAR`, a
house control): the count refuses them (`count_team_refusal`), naming them refuses a member of
the team (`CountSettings.clean`), and giving them the count-team role is refused here, in the
count's words, wherever a role is given (the employee pages, the admin, the memberships API).
"""

from cardroom.models import Role
from packs import game_name

from .models import CountSettings
from .rules import AUDITOR_BAR, auditor_bar_message


def auditor_kept_off_count_team(membership) -> dict[str, str]:
    """{"role": refusal} when `membership` gives the count-team role to a site's twenty-one
    auditor (at that site; a role at every site: at any site of the organization)."""
    if membership.role != Role.COUNT_TEAM:
        return {}
    named = CountSettings.objects.filter(twenty_one_auditor_id=membership.employee_id)
    if membership.site_id is not None:
        named = named.filter(site_id=membership.site_id)
    settings = named.select_related("site").order_by("site_id").first()
    if settings is None:
        return {}
    message = auditor_bar_message(membership.employee, settings.site, str(settings.site))
    game = game_name(settings.site, "21")
    return {"role": f"{AUDITOR_BAR}: {message} Name another {game} auditor for the site first."}
