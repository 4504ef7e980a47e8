"""Celery tasks: load by id or period, call one function, idempotent, retried on failure.

The nightly rules fan out by organization: the sites in scope are packed, whole organizations
at a time, into chunks of about `COMPLIANCE_CHUNK_SITES` sites; each chunk is one task
(`scan_organizations`) and a chord gathers their results (`gather_scan`), so N workers divide
the time; with fewer sites than `COMPLIANCE_WORKERS` full chunks, the chunks are an equal share
for each worker. An install whose sites fit in one chunk runs the rules in the nightly task itself."""

import logging
import math
import time
from contextlib import contextmanager
from datetime import date, timedelta

from celery import chord, shared_task
from django.conf import settings
from django.db import connection
from django.db.models import Count, Q
from django.utils import timezone

from core.periods import Quarter

# The e-mail tasks are registered with the worker from here (Celery finds `tasks` modules).
from .mail import RETRY, notify_alert, notify_alerts  # noqa: F401

# Sites per chunk when no setting says otherwise: small enough that two or more workers share
# a state's sites evenly, large enough that each provider's fixed queries are shared by many.
DEFAULT_CHUNK_SITES = 50

log = logging.getLogger(__name__)


def organization_chunks(chunk_sites: int | None = None, workers: int | None = None) -> list[list[int]]:
    """The organizations with sites in scope (active, or where twenty-one was discontinued),
    in id order, packed into chunks of about `chunk_sites` sites: an organization that would
    overfill the chunk starts the next one, so no chunk is much bigger than the size or the
    largest organization (the largest chunk sets the tail of a fanned-out run). An
    organization is never split (its alerts and audit chain stay with one worker).

    With no more sites than `workers` (COMPLIANCE_WORKERS) chunks of that size hold, there is a
    chunk for each worker instead, the organizations dealt out the largest first to the chunk
    with the fewest sites: every worker has work, and no more chunks than workers (each chunk
    pays its rules' fixed queries). 50 sites on two workers were one chunk of 50, scanned by one
    worker while the other waited."""
    return [chunk for chunk, _ in _packed(chunk_sites, workers)]


def chunk_size(sites: int, chunk_sites: int | None = None, workers: int | None = None) -> int:
    """Sites per chunk: `chunk_sites` (COMPLIANCE_CHUNK_SITES), or a `workers`' (COMPLIANCE_WORKERS)
    equal share of `sites` where that is smaller."""
    return max(1, min(_size(chunk_sites), math.ceil(sites / _workers(workers))))


def _size(chunk_sites: int | None) -> int:
    return chunk_sites or getattr(settings, "COMPLIANCE_CHUNK_SITES", DEFAULT_CHUNK_SITES)


def _workers(workers: int | None) -> int:
    return max(1, workers or getattr(settings, "COMPLIANCE_WORKERS", 1))


def _packed(chunk_sites: int | None, workers: int | None = None) -> list[tuple[list[int], int]]:
    """`organization_chunks`, each with its number of sites."""
    from cardroom.models import Site

    in_scope = Site.objects.filter(Q(active=True) | Q(twenty_one_discontinued_on__isnull=False))
    organizations = list(
        in_scope.values("organization_id")
        .annotate(n=Count("pk"))
        .values_list("organization_id", "n")
        .order_by("organization_id")
    )
    size, workers = _size(chunk_sites), _workers(workers)
    if sum(n for _, n in organizations) <= size * workers:
        return _dealt(organizations, workers)
    chunks, current, filled = [], [], 0
    for organization_id, sites in organizations:
        if current and filled + sites > size:
            chunks.append((current, filled))
            current, filled = [], 0
        current.append(organization_id)
        filled += sites
        if filled >= size:
            chunks.append((current, filled))
            current, filled = [], 0
    return chunks + ([(current, filled)] if current else [])


def _dealt(organizations: list[tuple[int, int]], workers: int) -> list[tuple[list[int], int]]:
    """A chunk for each worker: the organizations the most sites first, each to the chunk with
    the fewest sites so far (ties: the first); each chunk's organizations in id order, the
    chunks in the order of their first organization."""
    chunks: list[tuple[list[int], int]] = [([], 0) for _ in range(workers)]
    for organization_id, sites in sorted(organizations, key=lambda o: (-o[1], o[0])):
        index = min(range(workers), key=lambda i: chunks[i][1])
        chunks[index] = (chunks[index][0] + [organization_id], chunks[index][1] + sites)
    return sorted(((sorted(ids), filled) for ids, filled in chunks if ids), key=lambda chunk: chunk[0][0])


def largest_first(chunk_sites: int | None = None, workers: int | None = None) -> list[list[int]]:
    """`organization_chunks` in the order a fanned-out run queues them: the most sites first
    (ties in id order). The workers take them in that order, so the last ones taken, which
    set how long the run waits for its slowest worker, are the smallest (longest first is the
    classic rule for dividing jobs between machines)."""
    return [chunk for chunk, _ in sorted(_packed(chunk_sites, workers), key=lambda packed: -packed[1])]


@contextmanager
def scan_settings():
    """PostgreSQL: the scan's statements run without JIT compilation, without parallel workers
    and with random reads costed as cached; the settings are the session's and are reset after.

    - JIT: the statements' row estimates cross the server's jit_above_cost, and compiling cost
      more than running: the slip-series read of one quarter of 60 sites took 2.2 s with JIT
      (4.6 s of compiling across its parallel workers) and 0.4 s without.
    - Parallel workers: the scan is already divided between Celery workers, one chunk each,
      as many as the cores; a statement's own workers only compete with the other chunks
      for the cores (the slip-series read of one chunk: 450 ms with two workers, 326 ms without).
    - random_page_cost 1.1 (4 by default, a spinning disk's): the scan reads a chunk's rows by
      index where the default cost chose a full scan of the table (a chunk's openers and
      closers over nine quarters: 978 ms reading all 3.2M tray counts, 139 ms by gaming day)."""
    if connection.vendor != "postgresql":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("SET jit = off")
        cursor.execute("SET max_parallel_workers_per_gather = 0")
        cursor.execute("SET random_page_cost = 1.1")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET jit")
            cursor.execute("RESET max_parallel_workers_per_gather")
            cursor.execute("RESET random_page_cost")


def scan_chunk(organization_ids: list[int] | None, quarters: list[str], day_ranges: list[list[str]]) -> dict:
    """One chunk's rules, run in this process: its result with the queries it took and its time
    (the body of `scan_organizations`; the compliance benchmark calls it directly)."""
    from .engine import run_scan

    counted = [0]

    def count(execute, sql, params, many, context):
        counted[0] += 1
        return execute(sql, params, many, context)

    started = time.perf_counter()
    with scan_settings(), connection.execute_wrapper(count):
        result = run_scan(
            organization_ids=organization_ids,
            quarters=[Quarter.parse(q) for q in quarters],
            day_ranges=[(date.fromisoformat(a), date.fromisoformat(b)) for a, b in day_ranges],
        )
    return {**result.as_dict(), "queries": counted[0], "seconds": round(time.perf_counter() - started, 3), "chunks": 1}


@shared_task(ignore_result=False, **RETRY)
def scan_organizations(organization_ids: list[int], quarters: list[str], day_ranges: list[list[str]]) -> dict:
    """One chunk of a fanned-out run: the quarter rules of `quarters` and the day rules of
    `day_ranges` for the sites of these organizations. Idempotent (alerts open once)."""
    return scan_chunk(organization_ids, quarters, day_ranges)


@shared_task(ignore_result=False)
def gather_scan(parts: list[dict], run_id: int | None = None) -> dict:
    """The chord's callback: the chunks' results added up (and logged); the run it finishes."""
    total = {key: sum(part[key] for part in parts) for key in ("opened", "already_open", "queries", "chunks")}
    total["seconds"] = round(max((part["seconds"] for part in parts), default=0.0), 3)  # the slowest chunk
    log.info("compliance scan: %s", total)
    if run_id is not None:
        from .services import finish_run

        finish_run(run_id, result=total)
    return total


def fan_out(
    *,
    quarters: list[str] = (),
    day_ranges: list[list[str]] = (),
    chunk_sites: int | None = None,
    workers: int | None = None,
    in_process_if_one_chunk: bool = True,
    run_id: int | None = None,
):
    """Run the rules for every site in scope: in this process when the sites fit in one chunk
    (returns the result dict), else as a chord of chunk tasks (returns the chord's AsyncResult,
    whose value is `gather_scan`'s dict), the chunks sized for `workers` (`organization_chunks`)."""
    quarters, day_ranges = [str(q) for q in quarters], [[str(a), str(b)] for a, b in day_ranges]
    chunks = largest_first(chunk_sites, workers)
    if len(chunks) <= 1 and in_process_if_one_chunk:
        return scan_chunk(None, quarters, day_ranges)
    return chord(scan_organizations.s(chunk, quarters, day_ranges) for chunk in chunks)(gather_scan.s(run_id=run_id))


def _summary(outcome) -> dict:
    return outcome if isinstance(outcome, dict) else {"fanned_out": True, "gather": outcome.id}


def _scheduled_run(*, quarters=(), day_ranges=()) -> dict:
    """A run over every site, kept as a ComplianceRun started by the schedule; a fanned-out
    run is finished by its chord's callback."""
    from .models import ComplianceRun
    from .services import finish_run, start_run

    scope = {"quarters": [str(q) for q in quarters], "day_ranges": [[str(a), str(b)] for a, b in day_ranges]}
    run = start_run(trigger=ComplianceRun.Trigger.SCHEDULE, scope=scope)
    try:
        outcome = fan_out(quarters=quarters, day_ranges=day_ranges, run_id=run.pk)
    except Exception as exc:
        finish_run(run.pk, error=f"{type(exc).__name__}: {exc}")
        raise
    if isinstance(outcome, dict):
        finish_run(run.pk, result=outcome)
    return _summary(outcome)


@shared_task(**RETRY)
def run_daily_checks(day: str | None = None) -> dict:
    """Nightly: the day-level rules for the last week of gaming days at every site."""
    last = date.fromisoformat(day) if day else timezone.localdate() - timedelta(days=1)
    return _scheduled_run(day_ranges=[(last - timedelta(days=6), last)])


@shared_task(**RETRY)
def run_quarter_checks(quarter: str | None = None) -> dict:
    """After a quarter ends: the quarter rules for that quarter at every site."""
    target = Quarter.parse(quarter) if quarter else Quarter.containing(timezone.localdate()).previous()
    return _scheduled_run(quarters=[target])


@shared_task(**RETRY)
def send_due_reminders() -> int:
    from .engine import send_reminders

    return send_reminders(today=timezone.localdate())
