"""Long text wraps in every PDF and no value can make a report impossible to lay out: every
string in every report kind's data, made 10,240 characters long, still renders (a row taller
than a page continues on the next; a cell is cut at MAX_CELL_CHARACTERS with a note), and the
CSV keeps the full text.

The PDFs are read back with PDFium (pypdfium2), not pdfplumber: the eleven kinds' long-text PDFs
come to about 510 pages of dense text, which pdfplumber took 140 s to extract (its per-character
objects), PDFium about 1 s; building and drawing them takes about 6 s. Every page of every kind
is still read."""

import dataclasses
from datetime import timedelta

import pypdfium2
import pytest
from django.urls import reverse
from django.utils import timezone

from cardroom.models import Employee, Site
from compliance import services as compliance
from core import limits
from core.pdf import MAX_CELL_CHARACTERS, Provenance, ReportDocument, TitleBlock, clip_text, data_digest
from core.periods import Quarter
from floor.models import Slip, SlipStep
from reports.catalogue import load_kinds
from reports.registry import ReportContext
from surveillance import services as surveillance
from surveillance.models import ReviewLogEntry
from tests.api.demo import load_short_demo
from tests.compliance.test_alerts import finding

pytestmark = pytest.mark.django_db

LONG = 10_240
ROWS = 4
CODES = {"time_zone", "where", "pack_code"}  # validated names the report looks up (a zone, a pack), not text it prints


def lengthen(value, seen=0):
    """`value` with every non-empty string made LONG characters long (words of the original)."""
    if isinstance(value, str):
        return (value + " ") * (LONG // (len(value) + 1)) + "end" if value.strip() else value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = [f for f in dataclasses.fields(value) if f.init and f.name not in CODES]
        changes = {f.name: lengthen(getattr(value, f.name)) for f in fields}
        return dataclasses.replace(value, **changes)
    if isinstance(value, list | tuple):
        if value and all(dataclasses.is_dataclass(v) for v in value):
            value = value[:ROWS]  # a few rows of each list are enough, and quick to lay out
        return type(value)(lengthen(v) for v in value)
    if isinstance(value, dict):
        return {k: lengthen(v) for k, v in value.items()}
    return value


def render(kind, data, where="ND") -> bytes:
    title = TitleBlock("Prairie Charities", "Bismarck Elks Lodge", "period", kind.title_at(where), kind.rule_at(where))
    provenance = Provenance(timezone.now(), "gm", data_digest(data))
    return ReportDocument(title, provenance, landscape=kind.landscape).build(kind.render(data))


def text_of(pdf: bytes) -> str:
    """The text of every page, its words separated by single spaces."""
    document = pypdfium2.PdfDocument(pdf)
    try:
        return " ".join(" ".join(page.get_textpage().get_text_range().split()) for page in document)
    finally:
        document.close()


def test_every_report_kind_renders_with_every_text_field_10240_characters_long():
    load_short_demo(weeks=1)
    site = Site.objects.get(name="Bismarck Elks Lodge")
    today = timezone.localdate()
    alert = finding(site, period_key=str(Quarter.containing(today)), due_date=today, subject="t1")
    compliance.open_alert(alert, organization_id=site.organization_id)
    quarter = Quarter.containing(today)
    cut = []
    for code, kind in sorted(load_kinds().items()):
        if not kind.applies_to(site):  # another pack's handout: one line per rule, no free text
            continue
        start, end = (quarter.start, quarter.end) if kind.period == "quarter" else (today - timedelta(days=14), today)
        data = kind.build(ReportContext(site.organization, site, start, end, "period", today))
        long_data = lengthen(data)
        assert long_data != data, code  # the kind has text to lengthen
        pdf = render(kind, long_data)
        assert pdf.startswith(b"%PDF"), code
        if "[cut:" in text_of(pdf):
            cut.append(code)
        header, rows = kind.table(long_data)
        assert any(isinstance(v, str) and len(v) > LONG // 2 for row in rows for v in row) or not rows, code
    assert {"slip_register", "surveillance_log"} <= set(cut)


def test_clip_text_cuts_only_beyond_the_maximum_and_says_where_the_rest_is():
    exact = "x" * MAX_CELL_CHARACTERS
    assert clip_text(exact) == exact
    cut = clip_text(exact + "y" * 8)
    assert cut.startswith(exact) and "8 more characters" in cut and "CSV" in cut


def test_a_10240_character_void_reason_and_review_note_leave_the_reports_generatable(client_for, client):
    load_short_demo(weeks=1)
    gm = Employee.objects.get(user__username="gm")
    site = Site.objects.get(name="Bismarck Elks Lodge")
    reason = ("Torn in the printer; " * 600)[:LONG]
    # A slip the demo did not void already (one void per slip: slip_step_once_per_kind).
    slip = Slip.objects.filter(site=site, kind="fill").exclude(steps__kind="void").order_by("pk").first()
    # A row written before text had a maximum length (the books are closed: no service voids it now).
    SlipStep.objects.create(
        slip=slip,
        kind="void",
        employee=slip.prepared_by,
        initials=slip.prepared_by.initials,
        at=slip.prepared_at + timedelta(minutes=5),
        reason=reason,
    )
    entry = ReviewLogEntry.objects.filter(site=site, gaming_date=slip.gaming_day.gaming_date).order_by("pk").first()
    surveillance.add_review_log_entry(
        acting_user=gm.user,
        table=entry.table,
        gaming_date=entry.gaming_date,
        camera_recording=True,
        unobstructed_view=True,
        clear_picture=True,
        field_of_view=True,
        notes=reason,
        corrects=entry,
    )
    api = client_for(gm)
    day = str(slip.gaming_day.gaming_date)
    for kind in ("slip_register", "surveillance_log"):
        run = api.post("/api/v1/reports/", {"kind": kind, "site": site.pk, "start": day, "end": day}, format="json")
        assert run.status_code == 201 and run.json()["status"] == "done", run.json()
        pdf = api.get(f"/api/v1/reports/{run.json()['id']}/download/").content
        assert "more characters; the full text is in the CSV" in text_of(pdf)
        csv_text = api.get(f"/api/v1/reports/{run.json()['id']}/download/", {"format": "csv"}).content.decode()
        assert reason in csv_text
    client.force_login(gm.user)
    slip_form = client.get(reverse("floor:slip_pdf", args=[slip.pk]))
    assert slip_form.status_code == 200 and "[cut:" in text_of(slip_form.content)
    assert limits.MAX_TEXT_LENGTH < LONG  # the API refuses such text today; older rows may hold it
