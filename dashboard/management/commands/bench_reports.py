"""`python manage.py bench_reports [--pdf]`: a quarter of play at a busy site (benchmarks/data.py,
bulk inserts, in a scratch organization, rolled back at the end), then the time to compute the
quarterly summary and every dealer's percent-of-hold beside one raw SQL query fetching the same
rows; with --pdf, the time to produce both PDFs beside the raw fetch plus a bare ReportLab table
of the same size. Target: within 3x of the baseline."""

import gc
import io
import time
from datetime import UTC, datetime

from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from reportlab.lib.pagesizes import letter
from reportlab.platypus import LongTable, SimpleDocTemplate

from accounting import dealer_hold, summaries
from benchmarks.data import build
from cardroom.pdf import Provenance, ReportDocument, TitleBlock, data_digest
from cardroom.periods import Quarter
from reports.registry import ReportContext, load_kinds

TARGET = 3.0

CUSTODY_SQL = """
SELECT 'drop', d.table_id, d.gaming_date, d.dealer_shift_id, NULL, a.total_cents
  FROM counts_countagreement a JOIN counts_drop d ON d.id = a.drop_id
 WHERE d.site_id = %(site)s AND d.gaming_date BETWEEN %(start)s AND %(end)s
   AND NOT EXISTS (SELECT 1 FROM counts_countagreement n WHERE n.supersedes_id = a.id)
   AND (SELECT COUNT(*) FROM counts_countsignature g WHERE g.session_id = a.session_id) >= 2
UNION ALL
SELECT s.kind, s.table_id, gd.gaming_date, NULL, s.prepared_at, s.total_cents
  FROM accounting_slip s JOIN accounting_gamingday gd ON gd.id = s.gaming_day_id
 WHERE s.site_id = %(site)s AND gd.gaming_date BETWEEN %(start)s AND %(end)s
   AND NOT EXISTS (SELECT 1 FROM accounting_slipstep v WHERE v.slip_id = s.id AND v.kind = 'void')
UNION ALL
SELECT t.kind, t.table_id, gd.gaming_date, t.dealer_shift_id, t.counted_at, t.total_cents
  FROM accounting_tableinventory t JOIN accounting_gamingday gd ON gd.id = t.gaming_day_id
 WHERE gd.site_id = %(site)s AND gd.gaming_date BETWEEN %(start)s AND %(end)s
"""
QUARTER_SQL = (
    CUSTODY_SQL
    + """
UNION ALL
SELECT b.kind, NULL, b.gaming_date, NULL, b.counted_at, b.cash_cents
  FROM cage_bankcount b WHERE b.site_id = %(site)s AND b.gaming_date BETWEEN %(start)s AND %(end)s
"""
)
DEALER_SQL = (
    CUSTODY_SQL
    + """
UNION ALL
SELECT 'shift', ds.table_id, gd.gaming_date, ds.dealer_id, ds.started_at, ds.id
  FROM accounting_dealershift ds JOIN accounting_gamingday gd ON gd.id = ds.gaming_day_id
  JOIN cardroom_table tb ON tb.id = ds.table_id
 WHERE tb.site_id = %(site)s AND gd.gaming_date BETWEEN %(start)s AND %(end)s
"""
)


class Rollback(Exception):
    pass


def paired(repeat: int, work, baseline) -> tuple[float, float, object]:
    """The fastest of `repeat` runs of `work` and of `baseline`, run in turn so that a machine
    slowing down or speeding up weighs on both alike; and the last result of `work`."""
    best_work, best_base, result = float("inf"), float("inf"), None
    for _ in range(repeat):
        gc.collect()  # each run starts from the same collector state, as timeit does
        started = time.perf_counter()
        baseline()
        best_base = min(best_base, time.perf_counter() - started)
        gc.collect()
        started = time.perf_counter()
        result = work()
        best_work = min(best_work, time.perf_counter() - started)
    return best_work, best_base, result


def raw_fetch(sql: str, params: dict) -> list:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def bare_pdf(rows: int, columns: int) -> bytes:
    """A plain ReportLab table of `rows` x `columns` strings: the floor for any PDF report."""
    buffer = io.BytesIO()
    data = [[f"h{c}" for c in range(columns)]] + [
        [f"{r * 7919 % 100000:,}.00" for _ in range(columns)] for r in range(rows)
    ]
    SimpleDocTemplate(buffer, pagesize=letter, invariant=1).build([LongTable(data, repeatRows=1)])
    return buffer.getvalue()


class Command(BaseCommand):
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

    def _line(self, label: str, seconds: float, baseline: float, queries: int | None = None) -> None:
        ratio = seconds / baseline if baseline else float("inf")
        verdict = "ok" if ratio <= TARGET else f"OVER {TARGET:g}x"
        extra = f", {queries} queries" if queries is not None else ""
        self.stdout.write(
            f"  {label:<38} {seconds * 1000:9.1f} ms{extra}; baseline {baseline * 1000:8.1f} ms; "
            f"ratio {ratio:5.2f} ({verdict})"
        )

    def _figures(self, busy) -> None:
        site, q = busy.site, busy.quarter
        params = {"site": site.pk, "start": q.start, "end": q.end}
        rows_q, rows_d = raw_fetch(QUARTER_SQL, params), raw_fetch(DEALER_SQL, params)
        with CaptureQueriesContext(connection) as captured_q:
            summary_s, raw_q, summary = paired(
                self.repeat, lambda: summaries.quarter_summary(site, q), lambda: raw_fetch(QUARTER_SQL, params)
            )
        with CaptureQueriesContext(connection) as captured_d:
            dealers_s, raw_d, found = paired(
                self.repeat,
                lambda: dealer_hold.dealer_summaries([site.pk], q.start, q.end),
                lambda: raw_fetch(DEALER_SQL, params),
            )
        queries_q = (len(captured_q) - self.repeat) // self.repeat  # less the raw fetch of each turn
        queries_d = (len(captured_d) - self.repeat) // self.repeat
        self.stdout.write(
            f"figures ({len(summary.days)} days, {len(found)} dealers, {len(rows_q)} / {len(rows_d)} raw rows):"
        )
        self._line("quarterly summary", summary_s, raw_q, queries_q)
        self._line("dealer percent-of-hold, every dealer", dealers_s, raw_d, queries_d)

    def _produce(self, busy, code: str, context: ReportContext) -> tuple[bytes, int, int]:
        kind = load_kinds()[code]
        data = kind.build(context)
        title = TitleBlock(busy.site.organization.name, busy.site.name, context.period_label, kind.title, kind.rule)
        provenance = Provenance(datetime(2026, 1, 1, tzinfo=UTC), "bench", data_digest(data))
        pdf = ReportDocument(title, provenance, landscape=kind.landscape).build(kind.render(data))
        header, rows = kind.table(data)
        return pdf, len(rows), len(header)

    def _pdfs(self, busy) -> None:
        site, q = busy.site, busy.quarter
        context = ReportContext(site.organization, site, q.start, q.end, str(q), q.end)
        params = {"site": site.pk, "start": q.start, "end": q.end}
        self.stdout.write("PDFs (kind build + render, beside raw fetch + bare ReportLab table of the same size):")
        for code, sql in (("quarterly", QUARTER_SQL), ("dealer_hold", DEALER_SQL)):
            if code not in load_kinds():
                self.stdout.write(f"  {code}: report kind not registered; skipped")
                continue
            _pdf, rows, columns = self._produce(busy, code, context)

            def floor(s=sql, r=rows, c=columns):
                raw_fetch(s, params)
                bare_pdf(r, c)

            seconds, baseline, (pdf, rows, columns) = paired(
                self.repeat, lambda c=code: self._produce(busy, c, context), floor
            )
            self._line(f"{code} PDF ({rows} rows, {len(pdf) // 1024} KiB)", seconds, baseline)
