"""The floor's rule on giving the dealer role (the `role_grants` hook, `cardroom.role_grants`).

Where the game is dealt and banked by a player (WA-BJ, WAC 230-40-125(2): `rules.PLAYER_DEALER`)
the house seats no dealer, and a dealer shift there is refused (`services.dealer_shifts`). Giving
the dealer's role at such a site is refused too, in the same words, wherever a role is given (the
employee pages, the admin, the memberships API): no one holds a role that nothing there lets them
act in. (A dealer's role is always at a site: only managers and auditors hold one at every site.)
"""

from cardroom.models import Role

from . import rules


def no_dealer_where_players_deal(membership) -> dict[str, str]:
    """{"role": refusal} when `membership` gives the dealer's role at a site whose player deals."""
    if membership.role != Role.DEALER or membership.site_id is None:
        return {}
    site = membership.site
    return {} if rules.house_dealers(site) else {"role": rules.no_house_dealer(site)}
