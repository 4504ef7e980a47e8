from datetime import timedelta

import pytest
from django.utils import timezone

from cardroom.models import Role
from core.moments import gaming_date_of
from tournaments import services


def announce(person, site, **overrides):
    """A tournament at `site` announced by `person`: $100 entry, $99.99 rebuy, $0.01 add-on,
    so the cumulative fee can be brought to $199.99, $200.00 and $200.01 exactly."""
    fields = {
        "name": "Friday Blackjack Tournament",
        # the site's gaming date now (after midnight, before the day's start hour, the day before's)
        "gaming_date": gaming_date_of(site, timezone.now()),
        "entry_fee_cents": 10000,
        "rebuy_fee_cents": 9999,
        "add_on_fee_cents": 1,
        "chips_per_entry": 500,
        "chips_per_rebuy": 500,
        "chips_per_add_on": 100,
        "minimum_bet_chips": 10,
        "maximum_bet_chips": 200,
        "betting_spaces": 1,
        "rotating_button": True,
        "length_of_play": "30 hands per round",
        "prizes_offered": "First place $150 cash; second place a jacket.",
        "advancement": "The two players with the most chips at each table advance to the final.",
    }
    fields.update(overrides)
    return services.announce_tournament(acting_user=person.user, site=site, **fields)


@pytest.fixture
def tournament(cast, site):
    return announce(cast[Role.SHIFT_MANAGER], site, gaming_date=timezone.localdate() - timedelta(days=0))


@pytest.fixture
def cashier(cast):
    return cast[Role.CASHIER]
