"""The register page and a table's game page: the same refusal as the API's, shown on the form."""

import pytest

from approvals.forms import SETTINGS
from approvals.queries import current_link
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


def _game_fields(table) -> dict:
    """The game form's fields as the page fills them: the table's current link."""
    link = current_link(table.pk)
    if link is None:
        return {"approval": "", "blackjack_pay_table": "", "side_bet_pay_table": "", "shuffler_model": ""}
    return {
        "approval": link.approval_id or "",
        "blackjack_pay_table": link.blackjack_pay_table_id or "",
        "side_bet_pay_table": link.side_bet_pay_table_id or "",
        "shuffler_model": link.shuffler_model,
    }


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
        **_game_fields(ddm_table),
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
    # the version's own cell (site, game, dates) is its row's header; the options follow it
    row = re.findall(r"<td>(.*?)</td>", register[register.index("<tbody") :])[:12]
    assert row == [
        "Stands on soft 17; Hits soft 17",
        "Identical cards and any two ten-valued cards; Identical cards only",
        "Any first two cards; First two cards totalling 10 or 11",
        "Insurance offered",
        "No surrender; Surrender after the dealer checks for blackjack",
        "3 to 2; 6 to 5",
        "Rounded down to the table's lowest chip",
        "Pairs may be split again",
        "Split aces played as any other hand; One card to each split ace",
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


@pytest.mark.parametrize("code", ["ND", "WA-BJ", "NY"])
def test_a_table_whose_site_approves_no_games_has_no_game_page(client, manager, other_site, code):
    """It said "House-banked blackjack (no approved game)" of a North Dakota twenty-one table, a
    Washington player-banked table and a New York one, and offered to save their settings outside
    their own setup form: only a pack that approves games (WA-HB) has the page."""
    from tests.factories import TableFactory

    other_site.jurisdiction = code
    other_site.save()
    table = TableFactory(site=other_site, number=7)
    client.force_login(manager.user)
    answer = client.get(f"/approvals/tables/{table.pk}/")
    assert answer.status_code == 404
    assert b"House-banked blackjack" not in answer.content


def _page_form(table, **changes) -> dict:
    """The game page's form as the browser posts it: the table's settings and game as they are,
    then `changes` (a checkbox left out is unticked)."""
    from approvals.forms import TableSettingsForm

    form = TableSettingsForm(instance=table)
    values = {name: form.initial[name] for name in form.fields}
    posted = {**values, **_game_fields(table), **changes}
    return {name: ("on" if value is True else value) for name, value in posted.items() if value is not False}


def test_a_gaming_manager_moves_a_table_to_the_approved_game_on_its_page(client, manager, wa_table, ddm, ddm_controls):
    """In one step, as the API's link does: the game, its pay tables, the approved shuffler, and the
    settings its conditions ask (no splitting, doubling on any card up to the total in play)."""
    from approvals.models import PayTable, TableGame

    pay_tables = PayTable.objects.filter(approval=ddm)
    client.force_login(manager.user)
    page = client.get(f"/approvals/tables/{wa_table.pk}/").content.decode()
    assert 'name="approval"' in page and "Double Down Madness Blackjack: Blackjack pay table 01" in page
    form = _page_form(
        wa_table,
        approval=ddm.pk,
        blackjack_pay_table=pay_tables.get(side_bet="", code="01").pk,
        side_bet_pay_table=pay_tables.get(side_bet="Push 22", code="1").pk,
        shuffler_model="Shuffle Master i-DealPlus",
        dealt_from="shuffler",
        dealer_hits_soft_17=True,
        split_pairs="none",
        double_on="any_card",
        double_down="total",
    )
    answer = client.post(f"/approvals/tables/{wa_table.pk}/", form)
    assert answer.status_code == 302, answer.content.decode()[-3000:]
    link = TableGame.objects.filter(table=wa_table).latest("linked_at")
    assert (link.approval_id, link.shuffler_model, link.blackjack_pay_table.code) == (
        ddm.pk,
        "Shuffle Master i-DealPlus",
        "01",
    )
    wa_table.refresh_from_db()
    assert (wa_table.split_pairs, wa_table.double_on, wa_table.double_down) == ("none", "any_card", "total")
    page = client.get(f"/approvals/tables/{wa_table.pk}/").content.decode()
    assert "Blackjack pay table 01 (this table)" in page and "Shuffler: Shuffle Master i-DealPlus" in page


def test_back_to_standard_blackjack_keeping_the_approved_play_is_refused_on_the_page(client, manager, ddm_table):
    """Standard blackjack's controls document no doubling on any card: the page says so, in the
    rule's words, and changes nothing (it was a server error when the link had no approval)."""
    from html import unescape

    from approvals.models import TableGame

    links = TableGame.objects.filter(table=ddm_table).count()
    client.force_login(manager.user)
    form = _page_form(ddm_table, approval="", blackjack_pay_table="", side_bet_pay_table="", shuffler_model="")
    answer = client.post(f"/approvals/tables/{ddm_table.pk}/", form)
    assert answer.status_code == 400
    assert "not Any card, again after each card received" in unescape(answer.content.decode())
    assert TableGame.objects.filter(table=ddm_table).count() == links


def test_an_auditor_reads_the_game_page_and_may_not_change_the_game(client, cast, ddm_table):
    client.force_login(cast[Role.AUDITOR].user)
    page = client.get(f"/approvals/tables/{ddm_table.pk}/")
    assert page.status_code == 200 and 'id="save"' not in page.content.decode()
    assert client.post(f"/approvals/tables/{ddm_table.pk}/", _page_form(ddm_table, approval="")).status_code == 403


def test_the_register_lists_every_blackjack_table_with_its_game_and_page(client, manager, wa_table, ddm_table):
    """A standard table too (it listed only tables offering an approved game, so a standard table's
    page, where it moves to one, was reached by no link)."""
    client.force_login(manager.user)
    page = client.get("/approvals/").content.decode()
    listed = page[page.index('id="table-games"') : page.index("</table>", page.index('id="table-games"'))]
    assert (
        f'href="/approvals/tables/{wa_table.pk}/"' in listed and f'href="/approvals/tables/{ddm_table.pk}/"' in listed
    )
    assert "Standard house-banked blackjack (no approved game)" in listed and "Double Down Madness Blackjack" in listed


def test_a_table_moved_to_an_approved_game_takes_the_settings_its_approval_fixes(
    client, manager, wa_table, ddm, ddm_controls
):
    """The game and its pay table chosen, nothing else touched: the settings Double Down Madness's
    approval fixes to one value (no splitting, the dealer hits soft 17, doubling on any card up to
    the total in play) follow it, in the same step."""
    from approvals.models import PayTable

    client.force_login(manager.user)
    form = _page_form(wa_table, approval=ddm.pk,
                      blackjack_pay_table=PayTable.objects.get(approval=ddm, side_bet="", code="02").pk)  # fmt: skip
    answer = client.post(f"/approvals/tables/{wa_table.pk}/", form)
    assert answer.status_code == 302, answer.content.decode()[-3000:]
    wa_table.refresh_from_db()
    assert (wa_table.split_pairs, wa_table.dealer_hits_soft_17, wa_table.double_on, wa_table.double_down) == (
        "none",
        True,
        "any_card",
        "total",
    )
    assert current_link(wa_table.pk).approval_id == ddm.pk
