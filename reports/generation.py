"""Generating a requested report: claimed once, built, drawn and stored as an immutable
ReportFile (at once from `reports.services`, or by a worker from `reports.tasks`)."""

import hashlib

from django.db import transaction
from django.utils import timezone

from accounting.published import closed_books_of
from cardroom.retention import retention_notice
from core.audit import ChainHead, chain_head
from core.moments import site_zone
from core.pdf import Provenance, ReportDocument, TitleBlock, audit_head_text, data_digest

from .catalogue import load_kinds
from .exports import stored_table
from .models import ReportFile, ReportRun
from .registry import ReportContext


def claim(run_id: int) -> bool:
    """Only one worker generates a run: a conditional update from queued to running."""
    return (
        ReportRun.objects.filter(pk=run_id, status=ReportRun.Status.QUEUED).update(
            status=ReportRun.Status.RUNNING, progress=5
        )
        == 1
    )


def _progress(run_id: int, percent: int) -> None:
    ReportRun.objects.filter(pk=run_id).update(progress=percent)


def generate_report(run_id: int) -> bool:
    """Build the data, draw the PDF, store both as an immutable ReportFile."""
    if not claim(run_id):
        return False
    run = ReportRun.objects.select_related("organization", "site", "requested_by__employee").get(pk=run_id)
    try:
        # The footer prints the organization's audit chain head now; the file keeps it for re-renders.
        head = chain_head(run.organization_id)
        pdf, data_sha256, (columns, rows) = render_run(run, audit_head=audit_head_text(head))
        _progress(run_id, 90)
        _store(run, pdf, data_sha256, columns, rows, head)
    except Exception as exc:
        ReportRun.objects.filter(pk=run_id).update(status=ReportRun.Status.FAILED, error=str(exc)[:2000])
        raise
    return True


def _stored_audit_head(run: ReportRun) -> str:
    stored = ReportFile.objects.filter(run=run).values_list("audit_chain", "audit_seq", "audit_hash").first()
    return f"{stored[0]} #{stored[1]} {stored[2]}" if stored and stored[1] is not None else ""


def render_run(run: ReportRun, *, audit_head: str | None = None):
    """The PDF, the SHA-256 of the data it was drawn from, and the data's (header, rows).
    `audit_head` is the footer's audit chain head; by default the one stored with the run's
    file, so a re-render gives the stored bytes."""
    if audit_head is None:
        audit_head = _stored_audit_head(run)
    kind = load_kinds()[run.kind]
    # The request time is an input: the same run always renders to the same bytes. It prints in
    # the site's time zone (the server's for an all-sites report), with the zone named, and the
    # report's "as of" day (what is overdue, what is outstanding) is that zone's date.
    moment = run.requested_at.astimezone(site_zone(run.site)) if run.site else timezone.localtime(run.requested_at)
    context = ReportContext(run.organization, run.site, run.start, run.end, run.period_label, moment.date())
    data = kind.build(context)
    _progress(run.pk, 50)
    title = TitleBlock(
        run.organization.name,
        run.site.name if run.site else "All sites",
        run.period_label,
        kind.title_at(run.site),
        kind.rule_at(run.site),
        run.organization.licence_number,
        run.site.time_zone if run.site else "",
        _in_progress(run, kind, moment.date()),
    )
    requester = run.requested_by
    employee = getattr(requester, "employee", None)
    provenance = Provenance(
        moment,
        requester.get_full_name() or requester.username,
        data_digest(data),
        audit_head,
        _retention(run),
        generated_by_initials=employee.initials if employee else "",
    )
    pdf = ReportDocument(title, provenance, landscape=kind.landscape).build(kind.render(data))
    return pdf, provenance.data_sha256, kind.table(data)


def _in_progress(run: ReportRun, kind, requested_on) -> str:
    """Said beside a period that had not ended when the report was requested (house control): a
    quarter still under way printed "Period: 2026Q4" and "Books closed for 6 of 6 days" under its
    sign-off, as if final. `requested_on` is the site's date of the request, so a re-render says
    the same. An as-of report is a snapshot of its date already. A period ending on the day of the
    request whose last day's books had closed before it was requested is over: its figures are final
    (closed books stay closed, so a re-render says the same)."""
    if kind.period == "as_of" or run.end < requested_on:
        return ""
    if run.site is not None and run.end == requested_on:
        closed = closed_books_of(run.site, run.end)
        if closed is not None and closed.closed_at <= run.requested_at:
            return ""
    return (
        f"The period is in progress: its figures are those through {requested_on}, the date the report was requested."
    )


def _retention(run) -> str:
    """The report's retention line, cited by the site's pack (ND 99-01.3-08-16 at an ND site) or,
    where the pack states no period, "House control" (`cardroom.retention`)."""
    return retention_notice(run)


def _store(run: ReportRun, pdf: bytes, data_sha256: str, columns, rows, head: ChainHead | None) -> None:
    with transaction.atomic():
        ReportFile.objects.create(
            audit_chain=head.chain if head else "",
            audit_seq=head.seq if head else None,
            audit_hash=head.hash if head else "",
            run=run,
            generated_at=timezone.now(),
            generated_by=run.requested_by.username,
            parameters={"kind": run.kind, "site": run.site_id, "start": str(run.start), "end": str(run.end)},
            pdf=pdf,
            pdf_sha256=hashlib.sha256(pdf).hexdigest(),
            data_sha256=data_sha256,
            table=stored_table(columns, rows),
        )
        ReportRun.objects.filter(pk=run.pk).update(status=ReportRun.Status.DONE, progress=100)
