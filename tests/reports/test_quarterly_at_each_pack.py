"""The quarterly summary at a site of each pack, generated through the reports service and read
back (the PDF's grids with pdfplumber, the CSV as exported): it shows only the games the site's
pack deals (`Pack.games`: no paddlewheel in Washington), and its PDF and CSV carry the same rows
with the same figures, section by section (a fees or session pack has no drop-based days or
games in either).

The sites are the conformance test's (tests/conformance/sites.py): the demo's Bismarck (ND),
Spokane (WA-HB), Tacoma (WA-BJ, fees) and Kingston (NY, sessions), each with days of play entered
through the API, built once for the module in savepoints of the demo's master data."""

import csv
import io
from decimal import Decimal

import pdfplumber
import pytest
from django.db import transaction
from django.test import override_settings

from cardroom.models import Game
from core.money import format_money, format_ratio
from packs import get_pack
from reports import services
from reports.exports import export_csv
from reports.kinds import quarterly
from reports.models import ReportRun
from tests.conformance import sites

FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
BUILDERS = {"ND": sites.build_nd, "WA-HB": sites.build_wa_hb, "WA-BJ": sites.build_wa_bj, "NY": sites.build_ny}
pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("reports-quarterly-at-each-pack")]

# Grids of the PDF that are not figures of the CSV's rows: the signature block, the tax brackets in
# force (the law's data) and, where a quarter was filed, the filed figures beside those now.
NOT_ROWS = ({"Name", "Signature"}, {"Effective from"}, {"Filed", "Figures now"})


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker) -> dict:
    with django_db_blocker.unblock(), override_settings(PASSWORD_HASHERS=FAST_HASHERS):
        outer = transaction.atomic()
        outer.__enter__()
        try:
            yield sites.demo_master_data()
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


@pytest.fixture(scope="module", params=list(BUILDERS))
def report(request, demo, django_db_blocker) -> dict:
    """The pack's site with its days, and its quarterly summary of the quarter played: the PDF's
    text and grids, the CSV's rows keyed by column name."""
    with django_db_blocker.unblock(), override_settings(PASSWORD_HASHERS=FAST_HASHERS):
        savepoint = transaction.atomic()
        savepoint.__enter__()
        try:
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
            yield {"built": built, **_read_back(bytes(run.file.pdf), export_csv(run.file.table))}
        finally:
            transaction.set_rollback(True)
            savepoint.__exit__(None, None, None)


def _read_back(pdf: bytes, csv_bytes: bytes) -> dict:
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        text = "\n".join(page.extract_text() or "" for page in document.pages)
        grids = [
            [[" ".join((cell or "").split()) for cell in row] for row in grid]
            for page in document.pages
            for grid in page.extract_tables()
        ]
    rows = list(csv.reader(io.StringIO(csv_bytes.decode())))
    assert rows[0] == quarterly.HEADER
    names = [column.name for column in quarterly.COLUMNS]
    return {"text": text, "grids": grids, "rows": [dict(zip(names, r, strict=True)) for r in rows[1:]]}


# --- how the PDF shows a CSV cell -------------------------------------------------------------------


def money(cell: str, empty: str = "not known") -> str:
    return empty if cell == "" else format_money(int(Decimal(cell) * 100))


def pct(cell: str) -> str:
    return format_ratio(Decimal(cell) if cell else None)


def game_label(code: str) -> str:
    return "Total" if code == "total" else Game(code).label


def shown(row: dict) -> list[dict[str, str]]:
    """Where the PDF shows a CSV row: cells of a grid, by the grid's column heading."""
    kind, game = row["row"], row["game"]
    if kind == "day" and game == "total":
        return [{"Gaming date": row["gaming_date"], "Cash profit": money(row["cash_profit"]),
                 "Long (short)": money(row["long_short"])}]  # fmt: skip
    if kind == "day":
        return [{"Gaming date": row["gaming_date"], f"{game} gross proceeds": money(row["gross_proceeds"]),
                 f"{game} AGP": money(row["agp"]), f"{game} hold": pct(row["hold"])}]  # fmt: skip
    if kind == "quarter":
        line = {"Game": game_label(game), "Gross proceeds": money(row["gross_proceeds"]),
                "Prizes": money(row["prizes"]), "AGP": money(row["agp"]), "Hold": pct(row["hold"])}  # fmt: skip
        if row["low_hold_threshold"]:
            line |= {"Low-hold threshold": pct(row["low_hold_threshold"]), "Hold below it": row["below_threshold"]}
        if game != "total":
            return [line]
        quarter = {"Gaming date": "Quarter", "Cash profit": money(row["cash_profit"]),
                   "Long (short)": money(row["long_short"])}  # fmt: skip
        return [line, quarter]
    if kind in ("cash", "pack", "tax_line") and row["label"]:
        value = row["note"] if row["note"] and not row["amount"] else money(row["amount"])
        return [{"": row["label"], "Amount": value}]
    if kind == "bank_allocation":
        return [{"Game": row["label"], "AGP": money(row["agp"]),
                 "Cash long (short) allocated": money(row["long_short"])}]  # fmt: skip
    if kind == "tax_site":
        return [{"Site": row["label"], "Gross proceeds": money(row["gross_proceeds"]), "Prizes": money(row["prizes"]),
                 "AGP": money(row["agp"]), "Cash profit": money(row["cash_profit"])}]  # fmt: skip
    if kind in ("amendment", "amends_earlier"):
        return [{"Corrects": row["gaming_date"], "AGP effect": money(row["amount"])}]
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
    dealt = get_pack(built.site.jurisdiction).games
    games_in_csv = {r["game"] for r in rows if r["game"]} - {"total"}
    day_headers = [g[0] for g in report["grids"] if g[0][0] == "Gaming date"]
    if built.pack in ("WA-BJ", "NY"):  # fees or sessions: no drop-based days or games, in neither file
        assert not games_in_csv and not day_headers
        assert not {r["row"] for r in rows} & {"day", "quarter"}
    else:
        assert games_in_csv == set(dealt)
        assert day_headers and all(h == quarterly.day_header(tuple(dealt)) for h in day_headers)
    if built.pack.startswith("WA"):  # Washington's card rooms deal twenty-one only
        assert "PW" not in games_in_csv and "PW" not in text and "paddlewheel" not in text.lower()
    if built.pack == "ND":  # unchanged: both games apart, each with ND's threshold
        assert day_headers[0] == ["Gaming date", "21 gross proceeds", "21 AGP", "21 hold", "PW gross proceeds",
                                  "PW AGP", "PW hold", "Cash profit", "Long (short)"]  # fmt: skip
        assert games_in_csv == {"21", "PW"}
        assert "ND 99-01.3-08-04(9)" in text
    else:
        assert "Low-hold" not in text and not any(r["low_hold_threshold"] for r in rows)


def test_every_csv_row_of_the_quarterly_has_its_figures_in_the_pdf(report):
    """Each row of the CSV is a row of one of the PDF's grids with the same figures (the PDF's
    days show each game's gross proceeds, AGP and hold; its prizes are their difference), or a
    sentence of its text."""
    grids, text = report["grids"], flat(report["text"])
    for row in report["rows"]:
        for cells in shown(row):
            assert any(in_grid(cells, g) for g in grids), (row, cells)
        if row["row"] == "books" or (row["row"] == "pack" and not row["label"]):
            assert flat(row["note"]) in text, row
        if row["row"] == "tax":
            assert f"gaming tax on the AGP recorded here {money(row['tax'])}" in text, row


def test_every_figure_row_of_the_quarterly_pdf_is_a_row_of_its_csv(report):
    """The other way: each row of the PDF's grids of figures (days, games, cash, the pack's own
    figures, the combined bank, the tax) is one the CSV carries; the tax's sites are summed in
    the CSV's tax line "AGP recorded here", not a row of their own."""
    expected = [cells for row in report["rows"] for cells in shown(row)]
    grids = [g for g in report["grids"] if not any(names <= set(g[0]) for names in NOT_ROWS)]
    assert grids, "the PDF has grids of figures"
    for grid in grids:
        for pdf_row in grid[1:-1] if grid[0][0] == "Site" else grid[1:]:
            assert any(in_grid(cells, [grid[0], pdf_row]) for cells in expected), (grid[0], pdf_row)
