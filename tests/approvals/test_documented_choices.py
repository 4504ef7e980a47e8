"""Found walking the demo at Spokane (WA-HB): the table's setup page and its game page offered every
payout (3 to 2, 6 to 5, 2 to 1, even money), every way of splitting, surrender..., and saving 6 to 5
was refused: the internal controls in effect (version 1) document blackjack payout: 3 to 2. Where
the controls in effect document an option's values, the table forms offer those alone (with the
table's own where it was recorded with another), saying so in the refusal's words; the game page
also offers what another game's controls in effect document, for a move to that game."""

import re

from django.utils.html import escape

from cardroom.models import Table
from tests.factories import TableFactory

PAYOUT_NOTE = "document blackjack payout: 3 to 2; a table may be set to any one of them."


def offered(page: str, name: str) -> list[str]:
    found = re.search(f'<select name="{name}".*?</select>', page, re.S)
    assert found, f"no {name} on the page"
    return re.findall(r'<option value="([^"]*)"', found.group(0))


def test_the_table_forms_offer_only_what_the_internal_controls_in_effect_document(
    client, manager, site, house_controls
):
    table = TableFactory(site=site, number=1, payout_rounding="down")
    client.force_login(manager.user)
    for path in ("/setup/tables/new/", f"/setup/tables/{table.pk}/", f"/approvals/tables/{table.pk}/"):
        answer = client.get(path)
        page = answer.content.decode()
        assert offered(page, "blackjack_payout") == ["3:2"], path
        assert offered(page, "surrender") == ["none"], path
        assert sorted(offered(page, "split_pairs")) == ["any_pair", "identical"], path
        note = answer.context["form"].fields["blackjack_payout"].help_text
        assert f"The internal controls in effect at {site} for House-banked blackjack (version 1, effective " in note
        assert note.endswith(PAYOUT_NOTE) and escape(note) in page, path


def test_a_table_recorded_with_another_value_keeps_showing_it(client, manager, site, house_controls):
    table = TableFactory(site=site, number=1, payout_rounding="down")
    Table.objects.filter(pk=table.pk).update(blackjack_payout="6:5")
    client.force_login(manager.user)
    for path in (f"/setup/tables/{table.pk}/", f"/approvals/tables/{table.pk}/"):
        page = client.get(path).content.decode()
        assert offered(page, "blackjack_payout") == ["3:2", "6:5"], path
        assert '<option value="6:5" selected>' in page, path


def test_the_game_page_offers_another_games_documented_values_for_a_move_to_it(
    client, manager, site, house_controls, ddm_controls
):
    """Double Down Madness's controls document doubling on any card: the standard table's game page,
    where the table may move to it in the same step, offers it and says why; its setup page does not."""
    table = TableFactory(site=site, number=1, payout_rounding="down")
    client.force_login(manager.user)
    game_page = client.get(f"/approvals/tables/{table.pk}/")
    assert offered(game_page.content.decode(), "double_on") == ["any_two", "any_card"]
    assert "Another game's internal controls in effect here document Any card, again after each card received" in (
        game_page.context["form"].fields["double_on"].help_text
    )
    assert offered(client.get(f"/setup/tables/{table.pk}/").content.decode(), "double_on") == ["any_two"]


def test_with_no_internal_controls_in_effect_nothing_is_narrowed(client, manager, site):
    client.force_login(manager.user)
    assert len(offered(client.get("/setup/tables/new/").content.decode(), "blackjack_payout")) == 4
