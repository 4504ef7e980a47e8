"""The audit log page reads a closed day's figures (the `books.closed` event, stored under the
records' own keys, North Dakota's names: `gross_proceeds_cents`, `prizes_cents`, `agp_cents`,
`twenty_one`) in the words of the site's pack, as the books' differences name them
(`packs.RevenueWords.stored_names`): at a Washington or New York site the drop, paid out and win,
the gross proceeds left out beside the drop (one figure), blackjack's name for game 21; in North
Dakota its own words. The full detail below keeps every key as stored. Before, the page wrote
"Gross proceeds", "Prizes" and "Agp" at every site (found walking the demo as wagm and nygm)."""

import re
from datetime import date

import pytest

from cardroom.models import Role
from core.models import AuditEvent
from tests.accounting.books_days import closed_day
from tests.conformance.words import find, foreign_marks

URL = "/dashboard/audit/"
DAY = date(2026, 11, 3)
# The closed day's total in words: (drop, what the tray paid out, win), each $0.00 on an empty day.
WORDS = {
    "ND": ("Gross proceeds: $0.00", "Prizes: $0.00", "AGP: $0.00", "Twenty-one: "),
    "WA-HB": ("Drop: $0.00", "Paid out: $0.00", "Win: $0.00", "Blackjack: "),
    "NY": ("Drop: $0.00", "Paid out: $0.00", "Win: $0.00", "Black Jack: "),
}


@pytest.mark.parametrize("code", sorted(WORDS))
def test_a_closed_days_figures_read_in_the_words_of_the_sites_pack(client, site, cast, code):
    site.jurisdiction = code
    site.save()
    closed_day(cast, site, DAY)
    event = AuditEvent.objects.get(action="books.closed", site=site)
    client.force_login(cast[Role.AUDITOR].user)
    html = client.get(URL).content.decode()
    row = html.split(f'data-seq="{event.seq}"')[1].split("</tr>\n")[0]
    shown = row.split("<pre")[0]  # the fields in words, above the stored detail
    for words in WORDS[code]:
        assert words in shown, words
    assert not find(shown, foreign_marks(code))
    if code != "ND":
        # (a session site's own block keeps its prizes: `test_a_session_block_keeps_its_own_words...`)
        tables = re.sub(r"Sessions: [^<]*?Sessions: \d+", "", shown)
        assert "Gross proceeds" not in tables and "Agp" not in tables and "Prizes" not in tables
        # nor the books' empty paddlewheel line, a game these packs do not deal ("Paddlewheel: Win: $0.00")
        assert "addlewheel" not in shown
    else:
        assert "Paddlewheel: " in shown  # North Dakota's second game, named as its pack names it
    assert "gross_proceeds_cents" in row  # the detail as stored, every key kept


def test_a_session_block_keeps_its_own_words_and_game_21_reads_as_the_pack_names_it():
    """At Kingston a closed day's sessions read "Paid out: $1,011.00" for their prizes (the tables'
    word at New York), and each table "Game: 21" (North Dakota's code) at Washington and New York."""
    from dashboard.audit import readable
    from tests.factories import SiteFactory

    kingston, spokane = SiteFactory.build(jurisdiction="NY"), SiteFactory.build(jurisdiction="WA-HB")
    stored = {"sessions": {"sessions": 1, "receipts_cents": 115800, "prizes_cents": 101100, "net_cents": 14700}}
    said = readable(stored, kingston, "pack")
    assert "Prizes: $1,011.00" in said and "Receipts: $1,158.00" in said and "Paid out" not in said
    assert readable("21", spokane, "game") == "blackjack" and readable("21", kingston, "game") == "Black Jack"
    assert readable("21", SiteFactory.build(jurisdiction="ND"), "game") == "twenty-one"
