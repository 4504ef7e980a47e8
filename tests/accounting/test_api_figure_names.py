"""The figures API keeps one name for each custody key at every pack (`gross_proceeds_cents`,
`prizes_cents`, `agp_cents`, `hold_ratio`: North Dakota's, the primary specification's), and says
beside them what the site's pack calls each (`figure_names`), so a client shows a Washington or
New York site its own words, never North Dakota's."""

import pytest

from cardroom.models import Role
from tests.factories import SiteFactory

pytestmark = pytest.mark.django_db

ND_NAMES = {
    "gross_proceeds_cents": "Gross proceeds",
    "prizes_cents": "Prizes",
    "agp_cents": "Adjusted gross proceeds (AGP)",
    "hold_ratio": "Percent-of-hold (AGP / GP)",
}
TRADE_NAMES = {  # a pack whose texts name none of them: the trade's words
    "gross_proceeds_cents": "Drop",
    "prizes_cents": "Paid out",
    "agp_cents": "Win",
    "hold_ratio": "Hold (win / drop)",
}


@pytest.mark.parametrize(
    ("jurisdiction", "names"), [("ND", ND_NAMES), ("WA-HB", TRADE_NAMES), ("WA-BJ", TRADE_NAMES), ("NY", TRADE_NAMES)]
)
def test_the_daily_and_quarter_summaries_name_the_custody_keys_in_the_sites_pack(
    cast, client_for, org, jurisdiction, names
):
    site = SiteFactory(organization=org, name=f"A {jurisdiction} site", jurisdiction=jurisdiction)
    client = client_for(cast[Role.GAMING_MANAGER])  # organization-wide

    day = client.get(f"/api/v1/sites/{site.pk}/daily-summary/", {"date": "2026-07-01"})
    quarter = client.get(f"/api/v1/sites/{site.pk}/quarter-summary/", {"quarter": "2026Q3"})

    assert (day.status_code, quarter.status_code) == (200, 200)
    assert day.json()["figure_names"] == names
    assert quarter.json()["figure_names"] == names
    assert all("figure_names" not in d for d in quarter.json()["days"])  # once, at the quarter's top
    if day.json()["total"] is not None:  # the keys it names are the custody block's own
        assert set(names) <= set(day.json()["total"])
