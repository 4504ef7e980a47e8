"""A site's jurisdiction, time zone and business day start hour give its records their meaning
(the pack's revenue model reads its figures; the zone and the hour draw its gaming days), so
once it has a record of its books or floor they cannot be changed (house control,
cardroom.services.update_site), through the setup form, the API or the service. A
site with only set-up events may still fix them."""

import re

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from cardroom import services
from cardroom.models import Role, Site
from floor import services as floor_services
from floor.calculations import business_date

pytestmark = pytest.mark.django_db

CHANGES = {"jurisdiction": "NY", "time_zone": "America/New_York", "business_day_start_hour": 9}


def form_data(site: Site, **changes) -> dict:
    data = {
        "name": site.name,
        "jurisdiction": site.jurisdiction,
        "time_zone": site.time_zone,
        "business_day_start_hour": site.business_day_start_hour,
        "late_entry_minutes": site.late_entry_minutes,
        "active": "on",
        **changes,
    }
    return data


def open_a_day(site, cast):
    today = business_date(timezone.now(), site.time_zone, site.business_day_start_hour)
    floor_services.open_gaming_day(acting_user=cast[Role.SHIFT_MANAGER].user, site=site, gaming_date=today)
    return today


def as_it_was(site: Site) -> tuple:
    again = Site.objects.get(pk=site.pk)
    return again.jurisdiction, again.time_zone, again.business_day_start_hour


@pytest.mark.parametrize("field", CHANGES)
def test_the_form_refuses_the_change_once_a_gaming_day_is_opened_naming_the_field(
    field, day_under_way, client, cast, site
):
    today = open_a_day(site, cast)
    before = as_it_was(site)
    client.force_login(cast[Role.GAMING_MANAGER].user)
    response = client.post(f"/setup/sites/{site.pk}/", form_data(site, **{field: CHANGES[field]}))
    assert response.status_code == 400
    inline = re.search(rf'<ul class="errorlist" id="error-{field}">(.*?)</ul>', response.content.decode(), re.S)
    assert inline, "the refusal is shown at the field"
    assert "House control" in inline.group(1) and f"first on {today:%Y-%m-%d}" in inline.group(1)
    assert "cannot be changed" in inline.group(1) and "Open a new site" in inline.group(1)
    assert as_it_was(site) == before


@pytest.mark.parametrize("field", CHANGES)
def test_the_api_refuses_the_change_once_a_gaming_day_is_opened_with_a_400_naming_the_field(
    field, day_under_way, client_for, cast, site
):
    open_a_day(site, cast)
    before = as_it_was(site)
    response = client_for(cast[Role.GAMING_MANAGER]).patch(
        f"/api/v1/sites/{site.pk}/", {field: CHANGES[field]}, format="json"
    )
    assert response.status_code == 400, response.content
    message = response.json()[field][0]
    assert message.startswith(f"House control: {site.name} has records under North Dakota's law")
    assert "cannot be changed" in message
    assert as_it_was(site) == before


def test_the_jurisdiction_refusal_says_past_figures_would_be_read_under_another_law(day_under_way, cast, site):
    open_a_day(site, cast)
    with pytest.raises(ValidationError) as refused:
        services.update_site(acting_user=cast[Role.GAMING_MANAGER].user, site=site, jurisdiction="NY")
    message = refused.value.message_dict["jurisdiction"][0]
    assert "its jurisdiction cannot be changed, or past figures would be read under another law" in message
    assert "Open a new site for play under New York games of chance." in message


def test_the_other_fields_still_change_at_a_site_with_records(day_under_way, client_for, cast, site):
    open_a_day(site, cast)
    jurisdiction, time_zone, hour = as_it_was(site)  # the same values sent again are no change
    body = {
        "late_entry_minutes": 90,
        "jurisdiction": jurisdiction,
        "time_zone": time_zone,
        "business_day_start_hour": hour,
    }
    response = client_for(cast[Role.GAMING_MANAGER]).patch(f"/api/v1/sites/{site.pk}/", body, format="json")
    assert response.status_code == 200, response.content
    assert Site.objects.get(pk=site.pk).late_entry_minutes == 90


def test_a_site_only_set_up_still_changes_through_the_form_and_the_api(client, client_for, cast, site, table):
    manager = cast[Role.GAMING_MANAGER]
    services.update_table(acting_user=manager.user, table=table, max_wager_cents=2000)  # set-up, not a record
    # Set-up too; an active North Dakota table would break New York's 4620.5 and hold the site's
    # jurisdiction (test_a_site_whose_active_table_would_break_the_new_law_keeps_its_jurisdiction).
    services.update_table(acting_user=manager.user, table=table, active=False)
    client.force_login(manager.user)
    response = client.post(f"/setup/sites/{site.pk}/", form_data(site, time_zone="America/Denver"))
    assert response.status_code == 302, response.content.decode()
    response = client_for(manager).patch(
        f"/api/v1/sites/{site.pk}/", {"jurisdiction": "NY", "business_day_start_hour": 9}, format="json"
    )
    assert response.status_code == 200, response.content
    assert as_it_was(site) == ("NY", "America/Denver", 9)


def test_the_admin_refuses_the_change_at_the_field_not_with_a_500(day_under_way, client, cast, site):
    # The Django admin (a gaming manager's user is staff) saves through the same service; its form
    # now asks the same question, so the refusal is shown at the field, not raised past the form.
    open_a_day(site, cast)
    before = as_it_was(site)
    client.force_login(cast[Role.GAMING_MANAGER].user)
    data = form_data(site, time_zone="America/New_York") | {"organization": site.organization_id}
    response = client.post(f"/admin/cardroom/site/{site.pk}/change/", data)
    assert response.status_code == 400
    assert "its time zone cannot be changed" in response.content.decode().replace("&#x27;", "'")
    assert as_it_was(site) == before


# A site only set up may change its jurisdiction, but its active tables then follow the new pack's
# law: a North Dakota table ($1-$25, six decks, the house banking) moved under New York's 9 NYCRR
# 4620.5 ($5 maximum bet, one to four decks, the licence's tie option) or Washington blackjack's
# WAC 230-40-125 (a player dealer/banker) would be a table no form, API or admin would let anyone
# create there. Before, the change was saved and the table stayed as it was, unjudged.


def test_a_site_whose_active_table_would_break_the_new_law_keeps_its_jurisdiction(cast, site, table):
    manager = cast[Role.GAMING_MANAGER]
    with pytest.raises(ValidationError) as refused:
        services.update_site(acting_user=manager.user, site=Site.objects.get(pk=site.pk), jurisdiction="NY")
    message = refused.value.message_dict["jurisdiction"][0]
    assert "table 1" in message.lower()
    assert "9 NYCRR 4620.5(f)(2)" in message and "9 NYCRR 4620.5(a)(2)" in message
    assert "ND 99-01.3" not in message
    with pytest.raises(ValidationError) as refused:
        services.update_site(acting_user=manager.user, site=Site.objects.get(pk=site.pk), jurisdiction="WA-BJ")
    assert "WAC 230-40-125(2) (1999 proposed amendment)" in refused.value.message_dict["jurisdiction"][0]
    assert as_it_was(site)[0] == "ND"


def test_the_api_form_and_admin_refuse_a_jurisdiction_its_tables_break_at_the_field(
    client, client_for, cast, site, table
):
    manager = cast[Role.GAMING_MANAGER]
    response = client_for(manager).patch(f"/api/v1/sites/{site.pk}/", {"jurisdiction": "NY"}, format="json")
    assert response.status_code == 400, response.content
    assert "9 NYCRR 4620.5(f)(2)" in response.json()["jurisdiction"][0]
    client.force_login(manager.user)
    response = client.post(f"/setup/sites/{site.pk}/", form_data(site, jurisdiction="NY"))
    assert response.status_code == 400
    assert "9 NYCRR 4620.5(f)(2)" in response.content.decode()
    data = form_data(site, jurisdiction="NY") | {"organization": site.organization_id}
    response = client.post(f"/admin/cardroom/site/{site.pk}/change/", data)
    assert response.status_code == 400
    assert "9 NYCRR 4620.5(f)(2)" in response.content.decode()
    assert as_it_was(site)[0] == "ND"


def test_a_site_whose_tables_are_inactive_still_changes_its_jurisdiction(cast, site, table):
    manager = cast[Role.GAMING_MANAGER]
    services.update_table(acting_user=manager.user, table=table, active=False)
    services.update_site(acting_user=manager.user, site=Site.objects.get(pk=site.pk), jurisdiction="NY")
    assert as_it_was(site)[0] == "NY"


def test_a_site_moved_to_north_dakotas_rules_is_refused_while_its_tables_break_them(client_for, cast, site):
    """A site with only its set-up may move to another pack (a set-up mistake fixed), but its tables
    are then tables of that pack: a blackjack table set up under Washington's house-banked rules
    ($300 maximum wager, nine players, 6 to 5) breaks North Dakota's 99-01.3-08-09(1), 08-01(2) and
    08-02(1). The move is refused naming the table and the rules it breaks, and nothing changes."""
    from cardroom.models import Table
    from tests.factories import TableFactory

    Site.objects.filter(pk=site.pk).update(jurisdiction="WA-HB")
    table = TableFactory(
        site=site, number=1, max_wager_cents=30000, decks=8, max_players=9, betting_spaces=9, blackjack_payout="6:5"
    )
    answer = client_for(cast[Role.GAMING_MANAGER]).patch(
        f"/api/v1/sites/{site.pk}/", {"jurisdiction": "ND"}, format="json"
    )
    assert answer.status_code == 400, answer.content
    message = " ".join(answer.json()["jurisdiction"]).lower()
    for words in ("table 1", "nd 99-01.3-08-09(1)", "nd 99-01.3-08-01(2)", "nd 99-01.3-08-02(1)"):
        assert words in message, message
    assert Site.objects.get(pk=site.pk).jurisdiction == "WA-HB"
    assert Table.objects.get(pk=table.pk).max_wager_cents == 30000
