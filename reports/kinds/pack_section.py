"""The pack's own figures in the daily and quarterly reports (accounting.pack_figures): WA-BJ
table fees collected, counted and over/short (no drop-based hold); NY games-of-chance sessions'
receipts, prizes and net. Nothing for a drop pack, whose figures are the report itself."""

from reportlab.platypus import Spacer

from accounting.rules import SESSION_GAME, TABLE_FEES
from core.pdf import data_table, para


def _grid(title: str, rows: list, total: list | None = None) -> list:
    table = data_table(["", "Amount"], rows, col_widths=[400, 125], money_columns=[1], total_row=total)
    return [Spacer(1, 4), para(title, "cell_bold"), table]


def pack_section(pack: dict | None) -> list:
    if pack and "fees" in pack:
        f = pack["fees"]
        rows = [
            [f"Fees collected ({f['collections']} collections)", f["fees_collected_cents"]],
            ["Fee cash counted", f["fees_counted_cents"]],
            ["Over/short (counted days)", f["over_short_cents"]],
        ]
        title = f"Table fees ({pack['name']}; {TABLE_FEES.at(pack['code'])}: fees on a time basis, no drop-based hold)"
        return [*_grid(title, rows), para(f"Days with fees not counted: {f['days_not_counted']}.", "small")]
    if pack and "sessions" in pack:
        s = pack["sessions"]
        rows = [[f"Receipts ({s['sessions']} sessions)", s["receipts_cents"]], ["Prizes paid", s["prizes_cents"]]]
        title = (
            f"Games-of-chance sessions ({pack['name']}; the session record is an assumption: "
            f"{SESSION_GAME.at(pack['code'])} defines the game)"
        )
        return _grid(title, rows, ["Net", s["net_cents"]])
    return []
