"""A Washington blackjack site whose table fees are recorded keeps its pack: moved to New York's,
its fees would no longer be its figures (cardroom.services.update_site)."""

import pytest
from django.utils.html import escape

from cardroom.models import Role, Site
from fees import services

pytestmark = pytest.mark.django_db


def test_a_site_with_a_fee_recorded_keeps_its_jurisdiction_through_the_form_and_the_api(
    cast, client, client_for, site, bj_table
):
    services.record_fee(
        acting_user=cast[Role.PIT_BOSS].user,
        table=bj_table,
        basis="per_seat",
        period_minutes=30,
        rate_cents=300,
        count=5,
    )
    manager = cast[Role.GAMING_MANAGER]
    refused = client_for(manager).patch(f"/api/v1/sites/{site.pk}/", {"jurisdiction": "NY"}, format="json")
    assert refused.status_code == 400, refused.content
    message = refused.json()["jurisdiction"][0]
    assert message.startswith(
        f"House control: {site.name} has records under Washington blackjack (player-banked)'s law"
    )
    client.force_login(manager.user)
    form = {"name": site.name, "jurisdiction": "NY", "time_zone": site.time_zone, "business_day_start_hour": 6,
            "late_entry_minutes": site.late_entry_minutes, "active": "on"}  # fmt: skip
    page = client.post(f"/setup/sites/{site.pk}/", form)
    assert page.status_code == 400 and 'id="error-jurisdiction"' in page.content.decode()
    assert escape(message) in page.content.decode()  # the API's words, at the field
    assert Site.objects.get(pk=site.pk).jurisdiction == "WA-BJ"
