"""The figures API gives a custody block only where the site's pack has such custody: a fees site
(WA-BJ: its tables take none of the house's chips, its revenue is its time fees, WAC 230-40-125(1))
has no drop, win or hold at all, so its `total`, `twenty_one` and `paddlewheel` are null and it has
no game lines; a pack whose tables deal no paddlewheel (Washington, New York) has a null
`paddlewheel`. They read as blocks of $0.00 before: a night that took nothing, in North Dakota's
shape. North Dakota keeps every block."""

import pytest

from cardroom.models import Role
from tests.factories import OrganizationFactory, SiteFactory, make_person

pytestmark = pytest.mark.django_db

BLOCKS = ("total", "twenty_one", "paddlewheel")
# Each pack: the blocks it gives (the others null), and whether it has game lines.
GIVEN = {
    "ND": (("total", "twenty_one", "paddlewheel"), True),
    "WA-HB": (("total", "twenty_one"), True),
    "NY": (("total", "twenty_one"), True),
    "WA-BJ": ((), False),
}


@pytest.mark.parametrize("code", list(GIVEN))
def test_a_custody_block_is_given_only_where_the_pack_has_such_custody(client_for, code):
    org = OrganizationFactory(name=f"House of {code}")
    site = SiteFactory(organization=org, name=f"Hall {code}", jurisdiction=code)
    api = client_for(make_person(org, Role.AUDITOR, None))
    given, has_games = GIVEN[code]
    day = api.get(f"/api/v1/sites/{site.pk}/daily-summary/?date=2026-08-14")
    quarter = api.get(f"/api/v1/sites/{site.pk}/quarter-summary/?quarter=2026Q3")
    assert day.status_code == 200 and quarter.status_code == 200, (day.content, quarter.content)
    for body in (day.json(), quarter.json(), *quarter.json()["days"]):
        assert {b for b in BLOCKS if body[b] is not None} == set(given), body
        assert all(body[b]["agp_cents"] == 0 for b in given)
        assert bool(body["games"]) == has_games
    filed = api.get(f"/api/v1/sites/{site.pk}/quarter-filing/?quarter=2026Q3")
    assert filed.status_code == 200, filed.content
    assert (filed.json()["amended_total"] is None) == ("total" not in given)
