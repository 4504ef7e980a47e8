"""The register page and a table's game page: the same refusal as the API's, shown on the form."""

import pytest

from approvals.forms import SETTINGS
from approvals.services import LINK_SETTINGS
from cardroom.models import Role


def test_the_gaming_manager_sees_approvals_controls_and_the_ddm_table(client, manager, ddm_table, house_controls):
    client.force_login(manager.user)
    page = client.get("/approvals/").content.decode()
    assert "Double Down Madness Blackjack" in page and "submission #3172" in page
    assert f'id="table-{ddm_table.pk}"' in page and "House-banked blackjack" in page


def test_an_approvals_conditions_read_in_the_table_forms_words(client, manager, ddm_table):
    client.force_login(manager.user)
    page = client.get("/approvals/").content.decode()
    conditions = page.split('id="approvals"')[1].split("</table>")[0]
    assert "Dealer hits soft 17: yes" in conditions and "Even money offered: no" in conditions
    assert "dealer_hits_soft_17" not in conditions and "True" not in conditions and "any_two" not in conditions
    # Double Down Madness: "each Player receives a single card initially, with the ability to
    # continually double down", each "up to the total amount already in play" (the approval letter):
    # never the standard game's "any first two cards" and "up to the original wager".
    assert "Double on: Any card, again after each card received" in conditions
    assert "Double down: Double-down wager up to the total amount already in play" in conditions
    assert "up to the original wager" not in conditions and "Any first two cards" not in conditions


def test_switching_surrender_on_at_the_ddm_table_shows_the_approvals_refusal(client, manager, ddm_table):
    client.force_login(manager.user)
    page = client.get(f"/approvals/tables/{ddm_table.pk}/").content.decode()
    assert "WSGC approval of 2024-08-08, submission #3172" in page and "Push 22 pay table 1 (this table)" in page
    form = {
        "decks": 6,
        "dealt_from": "shuffler",
        "dealer_hits_soft_17": "on",
        "split_pairs": "none",
        "double_on": "any_card",
        "double_down": "total",
        "surrender": "late",
        "insurance_allowed": "on",
        "blackjack_payout": "3:2",
        "payout_rounding": "down",
    }
    answer = client.post(f"/approvals/tables/{ddm_table.pk}/", form)
    assert answer.status_code == 400
    assert "needs a new approval" in answer.content.decode()
    ddm_table.refresh_from_db()
    assert ddm_table.surrender == "none"


def test_the_game_page_edits_every_setting_a_link_may_change(client, manager, ddm_table):
    """Every option the internal controls document and every setting an approval may fix (the
    immaterial modifications among them: resplitting, split aces, doubling after a split, even
    money) is offered on the game page, not only on the table form: the page's list is checked
    against the services' (`approvals.services.LINK_SETTINGS`), so an option added to the rules and
    not to the page fails here."""
    assert set(LINK_SETTINGS) == set(SETTINGS) and len(SETTINGS) == len(set(SETTINGS))
    client.force_login(manager.user)
    page = client.get(f"/approvals/tables/{ddm_table.pk}/").content.decode()
    for name in LINK_SETTINGS:
        assert f'name="{name}"' in page, name


@pytest.mark.parametrize("role", [Role.SHIFT_MANAGER, Role.DEALER])
def test_site_roles_are_refused_the_register(client, cast, role):
    client.force_login(cast[role].user)
    assert client.get("/approvals/").status_code == 403


def test_the_internal_controls_register_states_each_documented_option_in_words(client, manager, site, today):
    """It printed the stored codes ("False, True", "any_pair, identical", "none, late")."""
    import re
    from datetime import timedelta
    from html import unescape

    from approvals import services

    services.record_internal_controls(
        acting_user=manager.user, site=site, effective_on=today - timedelta(days=30),
        approved_on=today - timedelta(days=40), approved_by="B. Lane, WSGC", dealer_hits_soft_17=[False, True],
        split_pairs=["any_pair", "identical"], double_on=["any_two", "ten_eleven"], insurance_allowed=[True],
        surrender=["none", "late"], blackjack_payout=["3:2", "6:5"], payout_rounding=["down"],
        resplit_allowed=[True], split_aces_one_card=[False, True], double_after_split=[False],
        double_down=["equal", "up_to"], even_money_offered=[False],
    )  # fmt: skip
    client.force_login(manager.user)
    page = unescape(client.get("/approvals/").content.decode())
    register = page[page.index('id="internal-controls"') :]
    row = re.findall(r"<td>(.*?)</td>", register[register.index("<tbody>") :])[5:17]
    assert row == [
        "Stands on soft 17; Hits soft 17",
        "Identical cards and any two ten-valued cards; Identical cards only",
        "Any first two cards; First two cards totalling 10 or 11",
        "Insurance offered",
        "No surrender; Surrender after the dealer checks for blackjack",
        "3 to 2; 6 to 5",
        "Rounded down to the table's lowest chip",
        "Pairs may be split again",
        "Split aces drawn to as any hand; One card to each split ace",
        "No doubling after a split",
        "Double-down wager must equal the original wager; Double-down wager up to the original wager",
        "No even money",
    ], row
    assert "False" not in register and "any_pair" not in register and "up_to" not in register


def test_a_tables_approved_game_is_dated_in_its_sites_time(client, manager, ddm_table):
    """The register is read at a Washington site: the moment a table took its approved game is
    written in the site's time with its zone, not the server's."""
    from zoneinfo import ZoneInfo

    from approvals.queries import current_link

    client.force_login(manager.user)
    page = client.get("/approvals/").content.decode()
    row = page.split(f'id="table-{ddm_table.pk}"')[1].split("</tr>")[0]
    linked = current_link(ddm_table.pk).linked_at.astimezone(ZoneInfo(ddm_table.site.time_zone))
    assert f"{linked:%Y-%m-%d %H:%M} {linked.tzname()}" in row, row
