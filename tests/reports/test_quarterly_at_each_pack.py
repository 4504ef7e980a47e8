"""The quarterly summary at a site of each pack, generated through the reports service and read
back (the PDF's grids with pdfplumber, the CSV and XLSX as exported): it shows only the games
the site's pack deals (`Pack.games`: no paddlewheel in Washington), each named in the pack's own
words (North Dakota's "21" and "PW" only at ND, ND 99-01.3-08-05(3)(a)), and its PDF and CSV
carry the same rows with the same figures, section by section (a fees or session pack has no
drop-based days or games in either).

The sites are the conformance test's (tests/conformance/sites.py): the demo's Bismarck (ND),
Spokane (WA-HB), Tacoma (WA-BJ, fees) and Kingston (NY, sessions), each with days of play entered
through the API, built once for the module in savepoints of the demo's master data; and Bismarck
again with a tournament played in the quarter before it was filed and a correction of a filed day
entered after (an amendment), so that the tournament lines, the amendment and the figures as
filed beside the figures now are rows of the CSV too."""

import csv
import io
from decimal import Decimal

import pdfplumber
import pytest
from django.utils import timezone
from django.utils.text import capfirst
from openpyxl import load_workbook

from core.money import format_money, format_ratio
from floor.calculations import business_date
from floor.rules import game_column
from packs import get_pack
from reports import services
from reports.columns import headings, in_words
from reports.exports import export_csv, export_xlsx
from reports.kinds import quarterly
from reports.models import ReportRun
from tests.conformance import sites
from tests.conftest import FAST_HASHERS
from tests.shared_world import rolled_back_after


def tournament_night(built: sites.BuiltSite, day) -> None:
    """On the quarter's first night played, a tournament through the services as the floor runs
    it: announced, two entries, a rebuy and an add-on collected, a cash prize awarded."""
    from tournaments import services as tournaments

    if day != built.days[0]:
        return
    site, shift, cashier = built.site, built.users["shift_manager"].user, built.users["cashier"].user
    event = tournaments.announce_tournament(
        acting_user=shift, site=site, name="Quarter's Blackjack Tournament", gaming_date=day, entry_fee_cents=10000,
        rebuy_fee_cents=5000, add_on_fee_cents=2500, chips_per_entry=500, chips_per_rebuy=500, chips_per_add_on=100,
        minimum_bet_chips=10, length_of_play="30 hands per round", prizes_offered="First place $150 cash.",
        at=sites.local(site, day, "18:30"),
    )  # fmt: skip
    fee = tournaments.collect_fee
    pat = fee(acting_user=cashier, tournament=event, kind="entry", player_name="Pat Olson",
              at=sites.local(site, day, "19:00")).player  # fmt: skip
    lee = fee(acting_user=cashier, tournament=event, kind="entry", player_name="Lee Berg",
              at=sites.local(site, day, "19:02")).player  # fmt: skip
    fee(acting_user=cashier, tournament=event, kind="rebuy", player=pat, at=sites.local(site, day, "20:00"))
    fee(acting_user=cashier, tournament=event, kind="add_on", player=lee, at=sites.local(site, day, "20:30"))
    tournaments.award_prize(acting_user=shift, tournament=event, player=pat, round_name="Championship", kind="cash",
                            amount_cents=15000, at=sites.local(site, day, "22:30"))  # fmt: skip


def build_nd_played_and_amended(demo: dict) -> sites.BuiltSite:
    """Bismarck (`sites.build_nd`) with a tournament on the quarter's first night, the quarter
    filed, then a $20 recount of a filed day's drop entered today through the API: an amendment."""
    from accounting.models import BooksClose

    built = sites.build_nd(demo, night=tournament_night)
    site, manager = built.site, built.users["gaming_manager"]
    corrected = BooksClose.objects.get(site=site, gaming_date=built.quarter.end)
    built.objects["amendment"] = sites.posted(
        sites.api_as(manager),
        "/api/v1/adjustments/",
        {
            "books_close": corrected.pk,
            "table": site.tables.get(number=1).pk,
            "field": "drop",
            "amount_cents": 2000,
            "reason": "Drop box recount after the count: a $20 bill found in the box.",
            "recorded_on": business_date(timezone.now(), site.time_zone, site.business_day_start_hour).isoformat(),
        },
    )
    return built


BUILDERS = {
    "ND": sites.build_nd,
    "ND-played-and-amended": build_nd_played_and_amended,
    "WA-HB": sites.build_wa_hb,
    "WA-BJ": sites.build_wa_bj,
    "NY": sites.build_ny,
}
pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("reports-quarterly-at-each-pack")]

# Grids of the PDF that are not figures of the CSV's rows: the signature block.
NOT_ROWS = ({"Name", "Signature"},)

# Where the PDF's sentence under the tax gives a tax_return row's figure ({} its amount, [] signed).
TAX_RETURN_WORDS = {
    "Amendments since: AGP": "Amendments since: AGP []",
    "Other games' AGP recorded after the filing": "other games' AGP []",
    "Other games' AGP now": "(now {})",
    "Tax as the return now stands": "Tax as the return now stands {} (on",
    "Tax on the filed figures": "on the filed figures {})",
}


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker) -> dict:
    with rolled_back_after(django_db_blocker, FAST_HASHERS):
        yield sites.demo_master_data()


@pytest.fixture(scope="module", params=list(BUILDERS))
def report(request, demo, django_db_blocker) -> dict:
    """The pack's site with its days, and its quarterly summary of the quarter played: the PDF's
    text and grids, the CSV's rows keyed by column name."""
    with rolled_back_after(django_db_blocker, FAST_HASHERS):
        built = BUILDERS[request.param](sites.reread(demo))
        run = services.request_report(
            acting_user=built.users["auditor"].user,
            kind="quarterly",
            site=built.site,
            quarter=str(built.quarter),
            at_once=True,
        )
        run.refresh_from_db()
        assert run.status == ReportRun.Status.DONE, run.error
        words = get_pack(built.site.jurisdiction).revenue_words
        gone = NOT_KEPT[built.site.jurisdiction]
        read = _read_back(bytes(run.file.pdf), export_csv(run.file.table), words, gone)
        yield {"built": built, "xlsx": _sheet_rows(export_xlsx(run.file.table, run.title)), **read}


# The CSV's columns a pack never fills are left out of its header (reports.kinds.quarterly): no
# low-hold threshold outside North Dakota, no tax column where the pack levies none, no
# drop-based column at a fees or session site, and no count but the fees pack's days not counted.
NOT_KEPT = {
    "ND": {"count"},
    "WA-HB": quarterly.THRESHOLD_COLUMNS | quarterly.TAX_COLUMNS | {"count"},
    "WA-BJ": quarterly.THRESHOLD_COLUMNS | quarterly.TAX_COLUMNS | quarterly.DROP_COLUMNS,
    "NY": quarterly.THRESHOLD_COLUMNS | quarterly.TAX_COLUMNS | quarterly.DROP_COLUMNS | {"count"},
}


def _read_back(pdf: bytes, csv_bytes: bytes, words, gone: set[str]) -> dict:
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        text = "\n".join(page.extract_text() or "" for page in document.pages)
        grids = [
            [[" ".join((cell or "").split()) for cell in row] for row in grid]
            for page in document.pages
            for grid in page.extract_tables()
        ]
    rows = list(csv.reader(io.StringIO(csv_bytes.decode())))
    # The header in the site's pack's words (reports.columns.in_words): ND's own, or the trade's.
    kept = [column for column in quarterly.COLUMNS if column.name not in gone]
    assert rows[0] == headings(in_words(kept, [], words)[0])
    if gone - {"count"}:
        assert not {"Tax", "Rate", "Low hold threshold"} & set(rows[0])
    names = [column.name for column in kept]
    # a column left out reads as an empty cell, as it read when the header carried it empty
    return {
        "text": text,
        "grids": grids,
        "rows": [dict.fromkeys(gone, "") | dict(zip(names, r, strict=True)) for r in rows[1:]],
    }


def _sheet_rows(xlsx: bytes) -> list[dict]:
    """The XLSX's rows keyed by its header (the same headings as the CSV's)."""
    rows = list(load_workbook(io.BytesIO(xlsx)).active.iter_rows(values_only=True))
    return [dict(zip(rows[0], row, strict=True)) for row in rows[1:]]


# --- how the PDF shows a CSV cell -------------------------------------------------------------------


def money(cell: str, empty: str = "not known") -> str:
    return empty if cell == "" else format_money(int(Decimal(cell) * 100))


def pct(cell: str) -> str:
    return format_ratio(Decimal(cell) if cell else None)


def game_label(cell: str, where: str) -> str:
    """The games grid's label of the CSV's Game cell at a site of the pack `where`: the cell holds
    the code where the pack asks for it (ND: "21", "PW"), else the pack's name ("Blackjack"),
    `floor.rules.game_column`; the grid names each game as the pack does ("Twenty-one")."""
    if cell == "total":
        return "Total"
    code = next(code for code in get_pack(where).games if game_column(where, code) == cell)
    return get_pack(where).game_names.label(code)


def shown(row: dict, where: str) -> list[dict[str, str]]:
    """Where the PDF shows a CSV row at a site of the pack `where`: cells of a grid, by the grid's
    column heading (the drop's and the win's named in the pack's words, packs.RevenueWords; a
    day's columns headed by the game as its Game cell names it, the games grid's rows by the
    name the pack gives it, `game_label`)."""
    words = get_pack(where).revenue_words
    kind, game = row["row"], row["game"]
    gross, net = capfirst(words.gross), capfirst(words.net_short)
    if kind == "day" and game == "total":
        return [{"Gaming date": row["gaming_date"], "Cash profit": money(row["cash_profit"]),
                 "Long (short)": money(row["long_short"])}]  # fmt: skip
    if kind == "day":
        return [{"Gaming date": row["gaming_date"], f"{game} {words.gross}": money(row["gross_proceeds"]),
                 f"{game} {words.net_short}": money(row["agp"]), f"{game} hold": pct(row["hold"])}]  # fmt: skip
    if kind == "quarter":
        line = {"Game": game_label(game, where), gross: money(row["gross_proceeds"]),
                words.paid_label: money(row["prizes"]), net: money(row["agp"]), "Hold": pct(row["hold"])}  # fmt: skip
        if row["low_hold_threshold"]:
            line |= {"Low-hold threshold": pct(row["low_hold_threshold"]), "Hold below it": row["below_threshold"]}
        if game != "total":
            return [line]
        quarter = {"Gaming date": "Quarter", "Cash profit": money(row["cash_profit"]),
                   "Long (short)": money(row["long_short"])}  # fmt: skip
        return [line, quarter]
    if kind == "pack" and row["count"]:
        return []  # a count beside the figures: a sentence of the text
    if kind in ("cash", "pack", "tax_line", "tournament") and row["label"]:
        value = row["note"] if row["note"] and not row["amount"] else money(row["amount"])
        return [{"": row["label"], "Amount": value}]
    if kind == "bank_allocation":
        return [{"Game": row["label"], "AGP": money(row["agp"]),
                 "Cash long (short) allocated": money(row["long_short"])}]  # fmt: skip
    if kind in ("tax_site", "tax_sites_total"):
        return [{"Site": row["label"], "Gross proceeds": money(row["gross_proceeds"]), "Prizes": money(row["prizes"]),
                 "AGP": money(row["agp"]), "Cash profit": money(row["cash_profit"])}]  # fmt: skip
    if kind == "tax_bracket":
        return [{"Effective from": row["gaming_date"], "AGP above": money(row["amount"]),
                 "Rate": f"{Decimal(row['rate']) * 100:.2f}% of the excess", "Plus": money(row["tax"]),
                 "Citation": row["note"]}]  # fmt: skip
    if kind in ("amendment", "amends_earlier"):
        return [{"Corrects": row["gaming_date"], "Counted on": row["counted_on"], "Quarter": row["label"],
                 "Figure": row["figure"], "Amount": money(row["correction"]), f"{net} effect": money(row["amount"], "\u2014"),
                 "Reason": row["note"]}]  # fmt: skip
    if kind == "filed_beside_now":  # a figure not known prints as an em dash
        return [{"": row["label"], "Filed": money(row["filed"], "\u2014"),
                 "Amendments since": money(row["amendments_since"], "\u2014"),
                 "Figures now": money(row["now"], "\u2014")}]  # fmt: skip
    return []  # a note, the books' statement, the tax: read in the text


def in_grid(cells: dict[str, str], grid: list[list[str]]) -> list[list[str]]:
    """The grid's rows holding `cells` under their headings (none if the grid lacks a heading)."""
    header = grid[0]
    if not set(cells) <= set(header):
        return []
    return [r for r in grid[1:] if all(r[header.index(name)] == value for name, value in cells.items())]


def flat(text: str) -> str:
    return " ".join(text.split())


# --- the tests --------------------------------------------------------------------------------------


def test_the_quarterly_shows_only_the_games_the_sites_pack_deals(report):
    built, rows, text = report["built"], report["rows"], report["text"]
    where = built.site.jurisdiction
    dealt = {game_column(where, code) for code in get_pack(where).games}
    games_in_csv = {r["game"] for r in rows if r["game"]} - {"total"}
    day_headers = [g[0] for g in report["grids"] if g[0][0] == "Gaming date"]
    if built.pack in ("WA-BJ", "NY"):  # fees or sessions: no drop-based days or games, in neither file
        assert not games_in_csv and not day_headers
        assert not {r["row"] for r in rows} & {"day", "quarter"}
    else:
        assert games_in_csv == dealt
        assert day_headers and all(h == quarterly.day_header(where) for h in day_headers)
    if built.pack == "WA-HB":  # the trade's words for the drop and the win, and its name for the game
        assert day_headers[0] == ["Gaming date", "Blackjack drop", "Blackjack win", "Blackjack hold", "Cash profit",
                                  "Long (short)"]  # fmt: skip
    if built.pack.startswith("WA"):  # Washington's card rooms deal blackjack only, by that name
        assert "PW" not in games_in_csv and "PW" not in text and "paddlewheel" not in text.lower()
        assert "twenty-one" not in text.lower()
    if built.pack == "WA-HB":  # its games table names game 21 as Washington's texts do
        assert "Blackjack" in text
    if built.pack == "ND":  # unchanged: both games apart, each with ND's threshold
        assert day_headers[0] == ["Gaming date", "21 gross proceeds", "21 AGP", "21 hold", "PW gross proceeds",
                                  "PW AGP", "PW hold", "Cash profit", "Long (short)"]  # fmt: skip
        assert games_in_csv == {"21", "PW"}
        assert "ND 99-01.3-08-04(9)" in text
        assert "Twenty-one" in text  # the chapter's name for game 21
        # under the games, whether a game below its threshold starts the video review here (08-04(9))
        (review,) = [r["note"] for r in rows if r["row"] == "low_hold_review"]
        assert review.startswith("ND 99-01.3-08-04(9): at a site that requires video surveillance") and (
            f"{built.site.name} does not require video surveillance (judged at the quarter's end, {built.quarter.end})"
            in review
            or f"{built.site.name} requires video surveillance (judged at the quarter's end, {built.quarter.end})"
            in review
        )
    else:  # nor North Dakota's statement of its review, in neither file
        assert "Low-hold" not in text and not any(r["low_hold_threshold"] for r in rows)
        assert not any(r["row"] == "low_hold_review" for r in rows) and "video surveillance" not in text


def test_every_csv_row_of_the_quarterly_has_its_figures_in_the_pdf(report):
    """Each row of the CSV is a row of one of the PDF's grids with the same figures (the PDF's
    days show each game's gross proceeds, AGP and hold; its prizes are their difference), or a
    sentence of its text."""
    grids, text = report["grids"], flat(report["text"])
    where = report["built"].site.jurisdiction
    for row in report["rows"]:
        for cells in shown(row, where):
            assert any(in_grid(cells, g) for g in grids), (row, cells)
        if row["row"] in ("books", "receipt", "low_hold_review") or (
            row["row"] in ("pack", "cash", "tax_return") and not row["label"]
        ):
            assert flat(row["note"]) in text, row
        if row["row"] == "pack" and row["count"]:
            assert f"{row['label']}: {row['count']}." in text, row
        if row["row"] == "tax_return" and row["label"]:
            said = TAX_RETURN_WORDS[row["label"]]
            cents = int(Decimal(row["amount"]) * 100)
            assert said.replace("{}", format_money(cents)).replace("[]", format_money(cents, signed=True)) in text, row
        if row["row"] == "tax":
            assert f"gaming tax on the AGP recorded here {money(row['tax'])}" in text, row


def test_every_figure_row_of_the_quarterly_pdf_is_a_row_of_its_csv(report):
    """The other way: each row of every grid of figures the PDF prints (the filed figures beside
    those now, the amendments, days, games, cash, the combined bank, the tournaments, the pack's
    own figures, the tax's sites and their total, its brackets and lines) is one the CSV carries,
    with the same figures and signs to the cent."""
    where = report["built"].site.jurisdiction
    expected = [cells for row in report["rows"] for cells in shown(row, where)]
    grids = [g for g in report["grids"] if not any(names <= set(g[0]) for names in NOT_ROWS)]
    assert grids, "the PDF has grids of figures"
    for grid in grids:
        for pdf_row in grid[1:]:
            assert any(in_grid(cells, [grid[0], pdf_row]) for cells in expected), (grid[0], pdf_row)


# Game 21 as each drop pack's quarterly names it, in the PDF's days (their headers and the sentence
# under them) and games, and in the Game column of the CSV and the XLSX: ND's code "21" (and "PW")
# is the reference its forms ask for (ND 99-01.3-08-05(3)(a)); Washington's house-banked room
# names the game "Blackjack", never "21".
GAME_WORDS = {
    "ND": {
        "headers": ["21 gross proceeds", "21 AGP", "21 hold", "PW gross proceeds", "PW AGP", "PW hold"],
        "sentence": "Twenty-one (21) and paddlewheel (PW) apart; hold is each game's AGP over its gross proceeds.",
        "games": ["Twenty-one", "Paddlewheel", "Total"],
        "column": {"21", "PW", "total"},
    },
    "WA-HB": {
        "headers": ["Blackjack drop", "Blackjack win", "Blackjack hold"],
        "sentence": "Blackjack; hold is its win over its drop.",
        "games": ["Blackjack", "Total"],
        "column": {"Blackjack", "total"},
    },
}


@pytest.mark.parametrize("report", list(GAME_WORDS), indirect=True)
def test_the_quarterly_names_game_21_in_its_packs_words_in_the_pdf_csv_and_xlsx(report):
    where = report["built"].site.jurisdiction
    said, text = GAME_WORDS[where], flat(report["text"])
    days = [g[0] for g in report["grids"] if g[0][0] == "Gaming date"]
    assert days and all(h[1:-2] == said["headers"] for h in days)
    assert said["sentence"] in text
    games = next(g for g in report["grids"] if g[0][0] == "Game" and g[0][1] != "AGP")  # not the combined bank's
    assert [r[0] for r in games[1:]] == said["games"]
    csv_games = {r["game"] for r in report["rows"] if r["row"] in ("day", "quarter")}
    xlsx_games = {r["Game"] for r in report["xlsx"] if r["Row"] in ("day", "quarter")}
    assert csv_games == xlsx_games == said["column"]
    if where != "ND":  # no North Dakota reference anywhere a game is named
        assert not any(h.startswith(("21 ", "PW ")) for h in days[0])
        assert "(21)" not in text and not {r["game"] for r in report["rows"]} & {"21", "PW"}
        assert not {r["Game"] for r in report["xlsx"]} & {"21", "PW"}


@pytest.mark.parametrize("report", ["ND-played-and-amended"], indirect=True)
def test_a_quarter_played_filed_and_amended_has_its_tournament_and_filed_figures_in_the_csv(report):
    """At the ND site whose quarter had a tournament and was amended after its filing, the CSV
    carries the PDF's tournament lines, the amendment and each figure as filed beside it now (a
    bug dropping a section would leave the grid test above nothing to find: this names them)."""
    rows = report["rows"]
    tournament = {r["label"]: r["amount"] for r in rows if r["row"] == "tournament"}
    assert tournament["Entry fees (2 players)"] == "200.00" and tournament["Rebuys"] == "50.00"
    assert tournament["Tournament gross proceeds (fees collected)"] == "275.00"
    assert tournament["Tournament adjusted gross proceeds"] == "125.00"
    beside = {r["label"]: (r["filed"], r["amendments_since"], r["now"]) for r in rows if r["row"] == "filed_beside_now"}
    filed_agp = Decimal(beside["AGP"][0])
    # Two $20 drops found after the filing: the conformance site's of its first day
    # (`sites.correct_the_quarter_later`) and this builder's of its last.
    assert beside["AGP"][1:] == ("40.00", f"{filed_agp + 40:.2f}")
    assert [(r["label"], r["figure"], r["correction"], r["amount"]) for r in rows if r["row"] == "amendment"] == [
        (f"{report['built'].quarter} (filed)", "drop table 1", "20.00", "20.00")
    ] * 2
    assert {"tax_sites_total", "tax_bracket", "tax_return"} <= {r["row"] for r in rows}
