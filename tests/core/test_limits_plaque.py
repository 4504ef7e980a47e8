"""ND 99-01.3-08-09(1): "If all the tables at a site do not have the same betting limit, a plaque
must be placed on top of a table indicating the minimum and maximum wager for the table. [...] An
organization shall post and announce a change in the minimum and maximum wager at a table with
adequate notice to a player."

The tables' setup page says, for each North Dakota site whose active twenty-one tables do not all
have the same limits, that each table needs its plaque, naming every table's limits; changing a
table's limits says to post and announce the change, in the setup form, the API's answer and the
admin alike (the service's `warnings`). Nothing at a site whose pack does not state it. Tables
made and changed through the API, the setup form and the admin."""

import pytest

from cardroom.models import Table

from .test_table_options import PACKS, as_posted, body

PLAQUE = "ND 99-01.3-08-09(1): the twenty-one tables at {site} do not all have the same betting limits"


def notices(client) -> list[str]:
    page = client.get("/setup/tables/")
    assert page.status_code == 200
    return page.context["notices"]


def test_differing_limits_are_said_with_each_tables_until_they_are_the_same_again(client, client_for, manager, site):
    api = client_for(manager)
    client.force_login(manager.user)
    first = api.post("/api/v1/tables/", body(site, "ND", number=1), format="json").json()["id"]
    second = api.post("/api/v1/tables/", body(site, "ND", number=2), format="json").json()["id"]
    assert notices(client) == []  # $1.00 to $25.00 at both: one limit, no plaque asked
    raised = api.patch(f"/api/v1/tables/{second}/", {"min_wager_cents": 500}, format="json")
    plaque = (
        PLAQUE.format(site=site.name) + " (table 1 $1.00 to $25.00; table 2 $5.00 to $25.00): a plaque on top of "
        "each table must show its minimum and maximum wager."
    )
    assert raised.status_code == 200 and raised.json()["warnings"] == [
        "ND 99-01.3-08-09(1): table 2's limits are now $5.00 to $25.00 (were $1.00 to $25.00): post and announce the "
        "change at the table with adequate notice to the players.",
        plaque,  # the save that makes them differ says so at once, not only the setup page
    ]
    said = notices(client)
    assert said == [plaque]
    assert said[0] in client.get("/setup/tables/").content.decode()  # on the page, as said
    renamed = api.patch(f"/api/v1/tables/{second}/", {"number": 2}, format="json")
    assert renamed.status_code == 200 and renamed.json()["warnings"] == []  # nothing about its limits changed
    # A table out of service is not one of the site's tables in play: the one left has one limit.
    retired = api.patch(f"/api/v1/tables/{second}/", {"active": False}, format="json")
    assert retired.status_code == 200 and retired.json()["warnings"] == []  # out of play: nothing to post
    assert notices(client) == []
    back = api.patch(f"/api/v1/tables/{second}/", {"active": True}, format="json")
    assert back.status_code == 200 and back.json()["warnings"] == [plaque]  # in play again, its limits differ
    evened = api.patch(f"/api/v1/tables/{first}/", {"min_wager_cents": 500}, format="json")
    assert evened.status_code == 200 and evened.json()["warnings"] == [
        "ND 99-01.3-08-09(1): table 1's limits are now $5.00 to $25.00 (were $1.00 to $25.00): post and announce the "
        "change at the table with adequate notice to the players."
    ]  # the same again: $5.00 to $25.00 at both, no plaque asked
    assert notices(client) == []
    third = api.post("/api/v1/tables/", body(site, "ND", number=3, min_wager_cents=200), format="json")
    assert third.status_code == 201 and third.json()["warnings"] == [
        PLAQUE.format(site=site.name) + " (table 1 $5.00 to $25.00; table 2 $5.00 to $25.00; table 3 $2.00 to "
        "$25.00): a plaque on top of each table must show its minimum and maximum wager."
    ]  # a new table with limits of its own: said in the answer that made it


def edit_form(client, table_id: int) -> dict:
    answer = client.get(f"/setup/tables/{table_id}/")
    form = as_posted({name: bound.value() for name, bound in answer.context["form"]._bound_items()})
    form["min_wager_cents"], form["max_wager_cents"] = "1", "25"  # the form takes dollars
    return form


def test_saving_changed_limits_says_to_post_and_announce_the_change(client, client_for, manager, site):
    table_id = client_for(manager).post("/api/v1/tables/", body(site, "ND", number=3), format="json").json()["id"]
    client.force_login(manager.user)
    unchanged = client.post(f"/setup/tables/{table_id}/", edit_form(client, table_id), follow=True)
    assert unchanged.status_code == 200 and not list(unchanged.context["messages"])
    changed = client.post(
        f"/setup/tables/{table_id}/", {**edit_form(client, table_id), "min_wager_cents": "5"}, follow=True
    )
    assert [str(m) for m in changed.context["messages"]] == [
        "ND 99-01.3-08-09(1): table 3's limits are now $5.00 to $25.00 (were $1.00 to $25.00): post and announce the "
        "change at the table with adequate notice to the players."
    ]
    assert Table.objects.get(pk=table_id).min_wager_cents == 500
    # The save that makes the site's limits differ: the plaque is said once, by the tables' page the
    # form goes back to, not again as the form's message.
    client_for(manager).post("/api/v1/tables/", body(site, "ND", number=4), format="json")
    lowered = client.post(
        f"/setup/tables/{table_id}/", {**edit_form(client, table_id), "min_wager_cents": "2"}, follow=True
    )
    assert [str(m) for m in lowered.context["messages"]] == [
        "ND 99-01.3-08-09(1): table 3's limits are now $2.00 to $25.00 (were $5.00 to $25.00): post and announce the "
        "change at the table with adequate notice to the players."
    ]
    assert lowered.content.decode().count(PLAQUE.format(site=site.name)) == 1


@pytest.mark.parametrize("code", ["WA-HB", "WA-BJ", "NY"])
def test_nothing_is_said_where_the_pack_does_not_state_it(client, client_for, manager, pack_site, code):
    site = pack_site(code)
    api = client_for(manager)
    client.force_login(manager.user)
    high = PACKS[code][0]["max_wager_cents"]
    for number, minimum in ((1, 100), (2, 200)):
        made = api.post("/api/v1/tables/", body(site, code, number=number, min_wager_cents=minimum), format="json")
        assert made.status_code == 201, made.json()
    assert {(t.min_wager_cents, t.max_wager_cents) for t in Table.objects.filter(site=site)} == {
        (100, high),
        (200, high),
    }
    assert notices(client) == []
    table_id = Table.objects.get(site=site, number=1).pk
    form = edit_form(client, table_id)
    form["max_wager_cents"] = str(high // 100)
    if "min_bank_cents" in PACKS[code][0]:
        form["min_bank_cents"] = str(PACKS[code][0]["min_bank_cents"] // 100)
    changed = client.post(f"/setup/tables/{table_id}/", {**form, "min_wager_cents": "3"}, follow=True)
    assert changed.redirect_chain, changed.context["form"].errors
    assert Table.objects.get(pk=table_id).min_wager_cents == 300
    assert not list(changed.context["messages"])


def test_the_admin_says_it_too(client, client_for, manager, site):
    table_id = client_for(manager).post("/api/v1/tables/", body(site, "ND", number=4), format="json").json()["id"]
    client.force_login(manager.user)
    address = f"/admin/cardroom/table/{table_id}/change/"
    answer = client.get(address)
    form = as_posted({name: bound.value() for name, bound in answer.context["adminform"].form._bound_items()})
    saved = client.post(address, {**form, "max_wager_cents": "1000"}, follow=True)
    assert saved.redirect_chain, saved.context["adminform"].form.errors
    assert Table.objects.get(pk=table_id).max_wager_cents == 1000
    assert "ND 99-01.3-08-09(1): table 4&#x27;s limits are now $1.00 to $10.00 (were $1.00 to $25.00)" in (
        saved.content.decode()
    )
