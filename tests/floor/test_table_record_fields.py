"""A table's game and number are what its records are read by: the figures put each record's
drop, fills and credits on its table's game line (its hold threshold, its tax), and the paper
forms name the table by its number (ND 99-01.3-08-05(3)(a)). Once the table has a record of its
play they stay (house control, cardroom.services.refuse_renaming_the_records), through the
service, the API, the setup page and the admin; a table with only its set-up may still fix them.
Before, a gaming manager could make a twenty-one table a paddlewheel and move its past figures,
filed quarters included, to the other game's line."""

import pytest
from django.core.exceptions import ValidationError

from cardroom import services
from cardroom.models import Game, Role, Table
from tests.core.test_table_options import as_posted

pytestmark = pytest.mark.django_db

CHANGES = {"game": Game.PADDLEWHEEL, "number": 7}


def as_it_was(table: Table) -> tuple:
    again = Table.objects.get(pk=table.pk)
    return again.game, again.number


@pytest.mark.parametrize("field", CHANGES)
def test_the_service_and_the_api_refuse_once_the_table_has_a_tray_count(field, open_table, cast, client_for):
    manager, name = cast[Role.GAMING_MANAGER], str(open_table)
    with pytest.raises(ValidationError) as refused:
        services.update_table(
            acting_user=manager.user, table=Table.objects.get(pk=open_table.pk), **{field: CHANGES[field]}
        )
    message = refused.value.message_dict[field][0]
    assert (
        message.startswith(f"House control: {name} has records (table inventories among them), read by its {field}")
        and "cannot be changed" in message
    )
    answer = client_for(manager).patch(f"/api/v1/tables/{open_table.pk}/", {field: CHANGES[field]}, format="json")
    assert answer.status_code == 400, answer.content
    assert f"its {field} cannot be changed" in answer.json()[field][0]
    assert as_it_was(open_table) == (Game.TWENTY_ONE, 1)


@pytest.mark.parametrize("field", CHANGES)
def test_the_setup_page_and_the_admin_show_the_refusal_at_the_field(field, open_table, cast, client):
    client.force_login(cast[Role.GAMING_MANAGER].user)
    url = f"/setup/tables/{open_table.pk}/"
    shown = client.get(url)
    form = as_posted({name: bound.value() for name, bound in shown.context["form"]._bound_items()})
    answer = client.post(url, {**form, field: CHANGES[field]})
    assert answer.status_code == 400  # refused: the page again with the message at the field
    assert f"its {field} cannot be changed" in " ".join(answer.context["form"].errors[field])
    assert f"its {field} cannot be changed" in answer.content.decode()
    assert as_it_was(open_table) == (Game.TWENTY_ONE, 1)
    admin = client.get(f"/admin/cardroom/table/{open_table.pk}/change/")
    data = as_posted({n: b.value() for n, b in admin.context["adminform"].form._bound_items()})
    refused = client.post(f"/admin/cardroom/table/{open_table.pk}/change/", {**data, field: CHANGES[field]})
    assert refused.status_code == 400
    assert f"its {field} cannot be changed" in refused.content.decode()
    assert as_it_was(open_table) == (Game.TWENTY_ONE, 1)


def test_the_other_fields_still_change_and_a_table_only_set_up_changes_its_game(open_table, site, cast):
    manager = cast[Role.GAMING_MANAGER]
    services.update_table(acting_user=manager.user, table=open_table, max_wager_cents=2000, game=Game.TWENTY_ONE)
    assert Table.objects.get(pk=open_table.pk).max_wager_cents == 2000  # the same game sent again is no change
    spare = Table.objects.create(site=site, number=2, min_wager_cents=100, max_wager_cents=2500)
    from counts import services as counts

    box = counts.register_drop_box(acting_user=manager.user, table=spare, number=2)  # set-up, not a record
    # ...but a box in use keeps its table's number (ND 99-01.3-08-02(2)): retired, the table renumbers.
    with pytest.raises(ValidationError) as refused:
        services.update_table(acting_user=manager.user, table=Table.objects.get(pk=spare.pk), number=3)
    assert refused.value.message_dict["number"][0].startswith("ND 99-01.3-08-02(2): ")
    counts.retire_drop_box(acting_user=manager.user, drop_box=box)
    services.update_table(acting_user=manager.user, table=Table.objects.get(pk=spare.pk), number=3)
    assert as_it_was(spare) == (Game.TWENTY_ONE, 3)


def test_no_table_moves_to_another_site_through_the_api_or_the_admin(open_table, org, cast, client, client_for):
    """Its records, its figures and the filed quarters they are in would go with it. The API's
    service refused; the admin's form moved it (a superuser's included, the field now fixed for
    the rest)."""
    from django.contrib.auth import get_user_model

    from tests.factories import SiteFactory

    manager, there = cast[Role.GAMING_MANAGER], SiteFactory(organization=org, name="Other Hall")
    answer = client_for(manager).patch(f"/api/v1/tables/{open_table.pk}/", {"site": there.pk}, format="json")
    assert answer.status_code == 400 and "cannot move to another site" in " ".join(answer.json()["site"])
    client.force_login(manager.user)
    url = f"/admin/cardroom/table/{open_table.pk}/change/"
    assert 'name="site"' not in client.get(url).content.decode()  # shown, not offered
    root = get_user_model().objects.create_superuser("root", password="x")
    client.force_login(root)
    form = client.get(url).context["adminform"].form
    data = as_posted({n: b.value() for n, b in form._bound_items()})
    refused = client.post(url, {**data, "site": there.pk})
    assert refused.status_code == 400 and "cannot move to another site" in refused.content.decode()
    assert Table.objects.get(pk=open_table.pk).site_id == open_table.site_id
