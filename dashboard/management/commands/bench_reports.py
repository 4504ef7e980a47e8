"""`python manage.py bench_reports [--pdf]`: a quarter of play at a busy site (benchmarks/data.py,
bulk inserts, in a scratch organization, rolled back at the end), the tables analysed, then the
time to compute the quarterly summary and every dealer's percent-of-hold, cold and warm
(benchmarks/db.py), beside their floor: exactly the statements the work sends (its own
aggregating SQL, the cheapest SQL that returns what it needs), sent raw with every row
fetched. Fetching every raw row instead would be a slower floor and flatter the ratio. With
--pdf, the time to produce the PDF of every report kind offered at the site beside its floor: the
work's own statements plus the same document furniture (title block, sign-off, page X of Y, the
same fonts: core.pdf.ReportDocument) around a bare table of the same rows and columns, so
the ratio measures the report's work, not the furniture (issue 37). The furniture's own time is
printed. Target: within 2x of the floor for every figure and every kind; the last lines are the
machine reading and `ratio to floor: X (target 2)`, the worst of them."""

import time
from datetime import UTC, datetime

from django.db import connection, transaction
from reportlab.platypus import LongTable, TableStyle

from accounting import published
from benchmarks import db, floors
from benchmarks.data import build
from core.management.base import DatabaseCommand
from core.pdf import FONT, Provenance, ReportDocument, TitleBlock, data_digest
from core.periods import Quarter
from reports.catalogue import load_kinds
from reports.registry import ReportContext

TARGET = 2.0


class Rollback(Exception):
    pass


def furnished_bare_pdf(title: TitleBlock, provenance: Provenance, landscape: bool, header, rows) -> bytes:
    """The floor of a report kind's PDF: the same furniture (title block, sign-off, page X of Y,
    the report fonts) around a bare table of the same rows and columns as plain strings."""
    data = [[str(getattr(column, "title", column)) for column in header]]
    data += [["" if value is None else str(value) for value in row] for row in rows]
    table = LongTable(data, repeatRows=1)
    table.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), FONT), ("FONTSIZE", (0, 0), (-1, -1), 8)]))
    return ReportDocument(title, provenance, landscape=landscape).build([table])


class Command(DatabaseCommand):
    help = "Time the quarterly summary and dealer percent-of-hold (and their PDFs) against raw SQL and bare ReportLab."

    def add_arguments(self, parser):
        parser.add_argument("--quarter", default="2026Q3")
        parser.add_argument("--tables", type=int, default=6)
        parser.add_argument("--days", type=int, default=92)
        parser.add_argument("--shifts", type=int, default=3, help="dealer shifts per table-day")
        parser.add_argument("--slips", type=int, default=3, help="fill and credit slips per table-day")
        parser.add_argument("--dealers", type=int, default=12)
        parser.add_argument("--repeat", type=int, default=7)
        parser.add_argument("--pdf", action="store_true")
        parser.add_argument("--kinds", default="", help="with --pdf, only these report kinds (comma-separated codes)")

    def handle(self, *args, quarter, tables, days, shifts, slips, dealers, repeat, pdf, kinds, **options):
        self.repeat = repeat
        self.kinds = {code.strip() for code in kinds.split(",") if code.strip()}
        self.ratios: list[float] = []
        machine = floors.Machine().start()
        try:
            with db.frozen_heap(), transaction.atomic():
                started = time.perf_counter()
                busy = build(
                    quarter=Quarter.parse(quarter),
                    tables=tables,
                    days=days,
                    shifts=shifts,
                    slips=slips,
                    dealers=dealers,
                )
                self.stdout.write(
                    f"database: {connection.vendor}; built in {time.perf_counter() - started:.1f} s: "
                    + ", ".join(f"{n} {k}" for k, n in busy.rows.items())
                )
                self._figures(busy)
                if pdf:
                    self._pdfs(busy)
                raise Rollback
        except Rollback:
            self.stdout.write("Scratch organization and its data rolled back.")
        machine.stop()
        self.stdout.write(machine.line())
        worst = max(self.ratios)
        self.stdout.write(f"ratio to floor: {worst:.2f} (target {TARGET:g}){'' if worst <= TARGET else ' - MISSED'}")

    def _line(self, label: str, work: db.Timing, floor: db.Timing, queries: int | None = None) -> None:
        ratio = work.warm / floor.warm if floor.warm else float("inf")
        self.ratios.append(ratio)
        verdict = "ok" if ratio <= TARGET else f"OVER {TARGET:g}x"
        extra = f", {queries} queries" if queries is not None else ""
        self.stdout.write(
            f"  {label:<38} warm {work.warm * 1000:8.1f} ms, cold {work.cold * 1000:8.1f} ms{extra}; "
            f"floor warm {floor.warm * 1000:8.1f} ms, cold {floor.cold * 1000:8.1f} ms; "
            f"ratio warm {ratio:5.2f} ({verdict}), cold {work.cold / floor.cold if floor.cold else float('inf'):5.2f}"
        )

    def _figures(self, busy) -> None:
        site, q = busy.site, busy.quarter
        db.analyze()
        self.stdout.write(f"tables analysed; {db.COLD_NOTE}")
        work_q = lambda: published.quarter_summary(site, q)  # noqa: E731
        work_d = lambda: published.live_dealer_summaries([site.pk], q.start, q.end)  # noqa: E731
        sent_q, _ = db.statements(work_q)
        sent_d, _ = db.statements(work_d)
        summary_t, floor_q, summary = db.paired(work_q, lambda: db.replay(sent_q), self.repeat)
        dealers_t, floor_d, found = db.paired(work_d, lambda: db.replay(sent_d), self.repeat)
        self.stdout.write(
            f"figures ({len(summary.days)} days, {len(found)} dealers; floor: the work's own "
            f"{len(sent_q)} / {len(sent_d)} statements, {db.replay(sent_q)} / {db.replay(sent_d)} rows fetched):"
        )
        self._line("quarterly summary", summary_t, floor_q, len(sent_q))
        self._line("dealer percent-of-hold, every dealer", dealers_t, floor_d, len(sent_d))

    def _title(self, busy, kind, context) -> tuple[TitleBlock, Provenance]:
        site = busy.site
        title = TitleBlock(
            site.organization.name, site.name, context.period_label, kind.title_at(site), kind.rule_at(site)
        )
        return title, Provenance(datetime(2026, 1, 1, tzinfo=UTC), "bench", "0" * 64)

    def _produce(self, busy, kind, context: ReportContext) -> tuple[bytes, list, list]:
        data = kind.build(context)
        title, provenance = self._title(busy, kind, context)
        provenance = Provenance(provenance.generated_at, provenance.generated_by, data_digest(data))
        pdf = ReportDocument(title, provenance, landscape=kind.landscape).build(kind.render(data))
        header, rows = kind.table(data)
        return pdf, header, rows

    def _context(self, busy, kind) -> ReportContext:
        site, q = busy.site, busy.quarter
        return ReportContext(site.organization, site, q.start, q.end, str(q), q.end)

    def _pdfs(self, busy) -> None:
        site = busy.site
        kinds = [kind for kind in load_kinds().values() if kind.applies_to(site)]
        if self.kinds:
            kinds = [kind for kind in kinds if kind.code in self.kinds]
        some = kinds[0]
        title, provenance = self._title(busy, some, self._context(busy, some))
        furniture, _ = db.timed(lambda: furnished_bare_pdf(title, provenance, False, ["-"], [["-"]]), self.repeat)
        self.stdout.write(
            f"PDFs of {len(kinds)} report kinds offered at the site (kind build + render, beside the work's own "
            f"statements + the same furniture around a bare table of the same rows); the furniture alone (title "
            f"block, sign-off, page 1 of 1, fonts, a one-cell table): warm {furniture.warm * 1000:.1f} ms, cold "
            f"{furniture.cold * 1000:.1f} ms"
        )
        for kind in kinds:
            context = self._context(busy, kind)
            # Warm first: closed days are read from their snapshots (accounting.day_figures), which
            # the first build writes; the floor is the statements of a build that only reads.
            self._produce(busy, kind, context)
            sent, (_pdf, header, rows) = db.statements(lambda k=kind, c=context: self._produce(busy, k, c))
            title, provenance = self._title(busy, kind, context)

            def floor(s=sent, h=header, r=rows, t=title, p=provenance, landscape=kind.landscape):
                db.replay(s)
                furnished_bare_pdf(t, p, landscape, h, r)

            work, baseline, (pdf, header, rows) = db.paired(
                lambda k=kind, c=context: self._produce(busy, k, c), floor, self.repeat
            )
            self._line(f"{kind.code} PDF ({len(rows)} rows, {len(pdf) // 1024} KiB)", work, baseline)
