"""`python manage.py bench_reports [--pdf]`: a quarter of play at a busy site (benchmarks/data.py,
bulk inserts, in a scratch organization, rolled back at the end), the tables analysed, then the
time to compute the quarterly summary and every dealer's percent-of-hold, cold and warm
(benchmarks/db.py), beside their floor: exactly the statements the work sends (its own
aggregating SQL, the cheapest SQL that returns what it needs), sent raw with every row
fetched. Fetching every raw row instead would be a slower floor and flatter the ratio. With
--pdf, the time to produce both PDFs beside that floor plus a bare ReportLab table of the same
size. Target: within 2x of the floor."""

import io
import time
from datetime import UTC, datetime

from django.db import connection, transaction
from reportlab.lib.pagesizes import letter
from reportlab.platypus import LongTable, SimpleDocTemplate

from accounting import published
from benchmarks import db
from benchmarks.data import build
from core.management.base import DatabaseCommand
from core.pdf import Provenance, ReportDocument, TitleBlock, data_digest
from core.periods import Quarter
from reports.catalogue import load_kinds
from reports.registry import ReportContext

TARGET = 2.0


class Rollback(Exception):
    pass


def bare_pdf(rows: int, columns: int) -> bytes:
    """A plain ReportLab table of `rows` x `columns` strings: the floor for any PDF report."""
    buffer = io.BytesIO()
    data = [[f"h{c}" for c in range(columns)]] + [
        [f"{r * 7919 % 100000:,}.00" for _ in range(columns)] for r in range(rows)
    ]
    SimpleDocTemplate(buffer, pagesize=letter, invariant=1).build([LongTable(data, repeatRows=1)])
    return buffer.getvalue()


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

    def handle(self, *args, quarter, tables, days, shifts, slips, dealers, repeat, pdf, **options):
        self.repeat = repeat
        try:
            with transaction.atomic():
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

    def _line(self, label: str, work: db.Timing, floor: db.Timing, queries: int | None = None) -> None:
        ratio = work.warm / floor.warm if floor.warm else float("inf")
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

    def _produce(self, busy, code: str, context: ReportContext) -> tuple[bytes, int, int]:
        kind = load_kinds()[code]
        data = kind.build(context)
        title = TitleBlock(busy.site.organization.name, busy.site.name, context.period_label, kind.title_at(busy.site), kind.rule_at(busy.site))
        provenance = Provenance(datetime(2026, 1, 1, tzinfo=UTC), "bench", data_digest(data))
        pdf = ReportDocument(title, provenance, landscape=kind.landscape).build(kind.render(data))
        header, rows = kind.table(data)
        return pdf, len(rows), len(header)

    def _pdfs(self, busy) -> None:
        site, q = busy.site, busy.quarter
        context = ReportContext(site.organization, site, q.start, q.end, str(q), q.end)
        self.stdout.write(
            "PDFs (kind build + render, beside the work's own statements + bare ReportLab table of the same size):"
        )
        for code in ("quarterly", "dealer_hold"):
            if code not in load_kinds():
                self.stdout.write(f"  {code}: report kind not registered; skipped")
                continue
            # Warm first: closed days are read from their snapshots (accounting.day_figures), which
            # the first build writes; the floor is the statements of a build that only reads.
            self._produce(busy, code, context)
            sent, (_pdf, rows, columns) = db.statements(lambda c=code: self._produce(busy, c, context))

            def floor(s=sent, r=rows, c=columns):
                db.replay(s)
                bare_pdf(r, c)

            work, baseline, (pdf, rows, columns) = db.paired(
                lambda c=code: self._produce(busy, c, context), floor, self.repeat
            )
            self._line(f"{code} PDF ({rows} rows, {len(pdf) // 1024} KiB)", work, baseline)
