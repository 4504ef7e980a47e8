"""The dashboard's chart data (`/dashboard/data.json`) speaks each site's pack: a week's figures are
keyed in its own words (`packs.RevenueWords.gross_key`, `net_key`), so a Washington house-banked
site's weeks carry "drop_cents" and "win_cents", never North Dakota's "gross_proceeds_cents" and
"agp_cents", which a North Dakota site's keep (tests/dashboard/test_overview.py)."""

import pytest

from cardroom.models import Role
from tests.factories import SiteFactory

pytestmark = pytest.mark.django_db

ND_KEYS = {"gross_proceeds_cents", "agp_cents"}


def test_a_washington_sites_weeks_are_keyed_in_its_own_words(client, cast, org, site):
    washington = SiteFactory(organization=org, name="Spokane Card Room", jurisdiction="WA-HB")
    client.force_login(cast[Role.AUDITOR].user)  # organization-wide
    data = client.get(f"/dashboard/data.json?site={washington.pk}").json()
    by_site = {s["name"]: s for s in data["sites"]}
    for point in by_site[washington.name]["points"]:
        assert set(point) == {"start", "end", "drop_cents", "win_cents", "hold_percent"}, point
    assert ND_KEYS <= set(by_site[site.name]["points"][0])  # North Dakota's own, as before
    assert data["site"]["id"] == washington.pk and not ND_KEYS & {k for t in data["tables"] for k in t["points"][0]}
