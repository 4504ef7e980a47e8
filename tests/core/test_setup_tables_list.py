"""The tables' setup list gives a card game's decks and blackjack payout, and a dash for a
paddlewheel, which deals no cards (it showed "6" and "3:2" for the wheel, the form's defaults)."""

import re

from tests.core.test_table_options import body


def test_a_paddlewheel_row_has_no_decks_nor_blackjack_payout(client, client_for, manager, pack_site):
    site = pack_site("ND")
    api = client_for(manager)
    for number, game in ((1, "21"), (2, "PW")):
        made = api.post("/api/v1/tables/", body(site, "ND", number=number, game=game), format="json")
        assert made.status_code == 201, made.json()
    client.force_login(manager.user)
    page = client.get("/setup/tables/").content.decode()
    headers = re.findall(r"<th[^>]*>([^<]*)</th>", page)
    rows = [re.findall(r"<td>(.*?)</td>", row) for row in re.findall(r"<tr>(.*?)</tr>", page, re.S)]
    rows = {r[headers.index("Number")]: r for r in rows if r}
    decks, pays = headers.index("Decks"), headers.index("Blackjack pays")
    assert (rows["1"][decks], rows["1"][pays]) == ("6", "3:2")
    assert (rows["2"][decks], rows["2"][pays]) == ("—", "—")
