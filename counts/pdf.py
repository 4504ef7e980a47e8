"""The count sheet of a session (ND 99-01.3-08-14(4)): each box, each member's count, the
differences and how they were resolved, the agreed drop, the forms found, both members'
initials with dates. `build_count_sheet` queries; `render_count_sheet` only draws."""

from dataclasses import dataclass
from datetime import date, datetime
from zoneinfo import ZoneInfo

from django.db.models import Exists, OuterRef
from reportlab.platypus import KeepTogether, Spacer

from cardroom.models import Employee, Table
from core.money import format_money
from core.pdf import (
    Line,
    Preparer,
    Provenance,
    ReportDocument,
    TitleBlock,
    content_width,
    data_digest,
    data_table,
    format_generated_at,
)

from . import queries, slips
from .models import (
    CountAgreement,
    CountEntry,
    CountSession,
    CountSignature,
    Drop,
    DropBox,
)
from .rules import COUNT, CURRENCY


@dataclass(frozen=True)
class SheetLine:
    label: str
    quantities: tuple[int, ...]
    agreed: int
    agreed_cents: int


@dataclass(frozen=True)
class SheetBox:
    title: str
    status: str
    members: tuple[str, ...]
    member_totals: tuple[int, ...]
    lines: tuple[SheetLine, ...]
    agreed_cents: int | None
    resolution: str
    forms_found: str
    forms_exceptions: tuple[str, ...]


@dataclass(frozen=True)
class CountSheet:
    organization: str
    site: str
    gaming_date: str
    team: str
    boxes: tuple[SheetBox, ...]
    total_agreed_cents: int
    signatures: tuple[str, ...]  # initials, name, date and time in the site's time zone, zone named
    licence_number: str = ""
    time_zone: str = "UTC"
    citation: str = ""  # the count's rule as the site's pack cites it (`COUNT`), or "House control"
    # Who prepared the sheet: the count team, on the day its last member signed (else the day the
    # session opened), in the site's time zone; the sign-off block names them, not the downloader.
    prepared_by: str = ""
    prepared_initials: str = ""
    prepared_on: str = ""  # YYYY-MM-DD


def _times(occurred: datetime, entered: datetime | None, zone: ZoneInfo) -> str:
    """When a correction happened, and when it was entered where that is kept (core.moments)."""
    text = format_generated_at(occurred.astimezone(zone))
    return f"{text}, entered {format_generated_at(entered.astimezone(zone))}" if entered is not None else text


def _resolution(box: queries.BoxCount, zone: ZoneInfo) -> str:
    if box.agreement is None:
        return "Difference not resolved" if box.status == "difference" else "Not agreed"
    text = box.agreement.get_source_display()
    if box.agreement.source != "match" and box.original_agreement is not None:
        if box.original_agreement.pk != box.agreement.pk:
            original = format_money(box.original_agreement.total_cents)
            text += f" (replaces {original}; approved by {box.agreement.approved_by.initials}"
            text += f", {_times(box.agreement.agreed_at, box.agreement.entry.recorded_at, zone)})"
    return f"{text}: {box.agreement.reason}" if box.agreement.reason else text


def _forms_exceptions(box: queries.BoxCount, zone: ZoneInfo) -> tuple[str, ...]:
    rec = box.reconciliation
    if not rec or not rec["available"]:
        return ()
    rows = []
    for e in rec["exceptions"]:
        what = "issued, not in the box" if e["problem"] == "missing" else "in the box, not issued"
        explained = e["explanation"]
        note = (
            f" - explained {_times(explained.explained_at, explained.entered_at, zone)}: {explained.explanation}"
            if explained
            else " - NOT EXPLAINED"
        )
        rows.append(f"{e['kind'].capitalize()} slip #{e['number']}: {what}{note}")
    return tuple(rows)


def _box(box: queries.BoxCount, zone: ZoneInfo, shifts: dict[int, str]) -> SheetBox:
    lines = []
    for d in CURRENCY:
        key = (d.cents, d.form)
        quantities = tuple(m.lines.get(key, 0) for m in box.visible)
        agreed = box.agreed_lines.get(key, 0)
        if any(quantities) or agreed:
            lines.append(SheetLine(d.label, quantities, agreed, agreed * d.cents))
    drop = box.drop
    shift = f", dealer shift: {shifts[drop.dealer_shift_id]}" if drop.dealer_shift_id in shifts else ""
    return SheetBox(
        title=f"{drop.drop_box} - table {drop.table.number}{shift}",
        status=box.status,
        members=tuple(m.initials for m in box.visible),
        member_totals=tuple(m.total_cents for m in box.visible),
        lines=tuple(lines),
        agreed_cents=box.agreed_cents,
        resolution=_resolution(box, zone),
        forms_found=", ".join(f"{k} #{n}" for k, n in box.agreed_forms) or "none",
        forms_exceptions=_forms_exceptions(box, zone),
    )


def build_count_sheet(session) -> CountSheet:
    return build_count_sheets(session.site, session.gaming_date, session.gaming_date)[0]


def build_count_sheets(site, start: date, end: date) -> list[CountSheet]:
    """The count sheet of every session at `site` with a gaming date in [start, end], in date
    order, as `build_count_sheet` draws one: loaded in a fixed number of queries whatever the
    number of sessions and boxes."""
    sessions = list(
        CountSession.objects.filter(site=site, gaming_date__gte=start, gaming_date__lte=end)
        .select_related("site__organization", "first_member__user", "second_member__user")
        .order_by("gaming_date")
    )
    if not sessions:
        return []
    batch = _Batch.load(site, sessions, start, end)
    return [_sheet(session, batch) for session in sessions]


@dataclass(frozen=True)
class _Batch(queries.BoxReads):
    """Everything the sheets of several sessions show, grouped for lookups without queries: each
    box's reads (`queries.BoxReads`, its entries with who entered them), and the sheets' own."""

    counted: dict  # session id -> {drop id: Drop} counted in it
    signatures: dict  # session id -> [CountSignature] by time
    awaiting: dict  # gaming date -> [Drop] removed and never agreed
    shifts: dict  # dealer shift id -> its label (queries.shift_labels), for a box covering one

    @classmethod
    def load(cls, site, sessions, start: date, end: date) -> "_Batch":
        entries = list(
            CountEntry.objects.filter(session__in=sessions)
            .select_related("drop")
            .order_by("drop_id", "entered_at", "pk")
        )
        agreements = list(
            CountAgreement.objects.filter(session__in=sessions).select_related("entry").order_by("agreed_at", "pk")
        )
        _share_relations(site, entries, agreements)
        awaiting = list(
            Drop.objects.filter(site=site, gaming_date__gte=start, gaming_date__lte=end, removal__isnull=False)
            .exclude(Exists(CountAgreement.objects.filter(drop=OuterRef("pk"))))
            .select_related("drop_box", "table", "site")
        )
        drops = {e.drop_id: e.drop for e in entries} | {d.pk: d for d in awaiting}
        counted: dict = {}
        for entry in entries:
            counted.setdefault(entry.session_id, {}).setdefault(entry.drop_id, entry.drop)
        return cls(
            entries=queries.grouped(entries, lambda e: (e.session_id, e.drop_id)),
            figures=queries.entry_figures(sessions, entries),
            agreements=queries.grouped(agreements, lambda a: (a.session_id, a.drop_id)),
            explanations=queries.forms_explanations(drops),
            issued=slips.issued_for_drops(site, list(drops.values()), start, end),
            counted=counted,
            signatures=queries.grouped(
                CountSignature.objects.filter(session__in=sessions)
                .select_related("member__user")
                .order_by("signed_at"),
                lambda s: s.session_id,
            ),
            awaiting=queries.grouped(awaiting, lambda d: d.gaming_date),
            shifts=queries.shift_labels(site, drops.values()),
        )


def _share_relations(site, entries: list, agreements: list) -> None:
    """The employees, boxes and tables the sheets name, each read once and one instance shared
    by every entry and agreement pointing to it, and the site's own instance for its drops:
    joined into each row, every row made its own six (a quarter's sheets: 1,656 entries, 7
    models each, most of the time building them took)."""
    people = Employee.objects.select_related("user").in_bulk(
        {e.entered_by_id for e in entries} | {a.approved_by_id for a in agreements if a.approved_by_id}
    )
    boxes = DropBox.objects.in_bulk({e.drop.drop_box_id for e in entries})
    tables = Table.objects.in_bulk({e.drop.table_id for e in entries})
    for entry in entries:
        entry.entered_by, drop = people[entry.entered_by_id], entry.drop
        drop.drop_box, drop.table = boxes[drop.drop_box_id], tables[drop.table_id]
        if drop.site_id == site.pk:
            drop.site = site
    for agreement in agreements:
        if agreement.approved_by_id:
            agreement.approved_by = people[agreement.approved_by_id]


def _sheet(session, batch: _Batch) -> CountSheet:
    zone = ZoneInfo(session.site.time_zone)
    counted = batch.counted.get(session.pk, {})
    awaiting = [d for d in batch.awaiting.get(session.gaming_date, []) if d.pk not in counted]
    drops = sorted([*counted.values(), *awaiting], key=lambda d: (d.table.number, d.placed_at, d.pk))
    boxes = tuple(_box(batch.box_count(session, d, None), zone, batch.shifts) for d in drops)
    return CountSheet(
        organization=session.site.organization.name,
        site=session.site.name,
        gaming_date=str(session.gaming_date),
        team=(
            f"{session.first_member} ({session.first_member.initials}) and "
            f"{session.second_member} ({session.second_member.initials})"
        ),
        boxes=boxes,
        total_agreed_cents=sum(b.agreed_cents or 0 for b in boxes),
        signatures=tuple(
            f"{s.initials} ({s.member}) {format_generated_at(s.signed_at.astimezone(zone))}"
            for s in batch.signatures.get(session.pk, [])
        ),
        licence_number=session.site.organization.licence_number,
        time_zone=session.site.time_zone,
        citation=COUNT.at(session.site),
        prepared_by=f"{session.first_member} and {session.second_member}",
        prepared_initials=f"{session.first_member.initials}, {session.second_member.initials}",
        prepared_on=_prepared_on(session, batch.signatures.get(session.pk, []), zone),
    )


def _prepared_on(session, signatures: list, zone: ZoneInfo) -> str:
    moment = signatures[-1].signed_at if signatures else session.opened_at
    return moment.astimezone(zone).date().isoformat()


def render_count_sheet(
    sheet: CountSheet,
    *,
    generated_at: datetime,
    generated_by: str,
    generated_by_initials: str = "",
    audit_head: str = "",
) -> bytes:
    """The sheet's PDF, its generation time printed in the site's time zone; `audit_head` is the
    organization's audit chain head when it was generated (`core.pdf.audit_head_text`)."""
    title = TitleBlock(
        sheet.organization,
        sheet.site,
        f"Gaming day {sheet.gaming_date}",
        "Drop box count sheet",
        sheet.citation,
        sheet.licence_number,
        sheet.time_zone,
    )
    moment = generated_at.astimezone(ZoneInfo(sheet.time_zone))
    preparer = (
        Preparer(sheet.prepared_by, sheet.prepared_initials, date.fromisoformat(sheet.prepared_on),
                 "the day the count team signed the count")
        if sheet.prepared_by
        else None
    )  # fmt: skip
    provenance = Provenance(moment, generated_by, data_digest(sheet), audit_head,
                            generated_by_initials=generated_by_initials, preparer=preparer)  # fmt: skip
    doc = ReportDocument(title, provenance)
    return doc.build(count_sheet_story(sheet))


def count_sheet_story(sheet: CountSheet, *, width: float | None = None) -> list:
    """The sheet's flowables, for its own PDF and for the count-sheets report, on a portrait page
    (`width` for another). Each box's columns share the width equally, as ReportLab spreads
    columns it is not given, so every cell fits on one line and prints as a plain string; the
    lines around the tables are `Line`s (a Paragraph only where one wraps)."""
    width = content_width() if width is None else width
    story: list = [Line(f"Count team: {sheet.team}")]
    for box in sheet.boxes:
        header = ["Denomination", *[f"Count {m}" for m in box.members], "Agreed qty", "Agreed amount"]
        rows = [(line.label, *line.quantities, line.agreed, line.agreed_cents) for line in box.lines]
        total = ("Total", *(format_money(t) for t in box.member_totals), "", box.agreed_cents)
        table = data_table(
            header,
            rows,
            col_widths=[width / len(header)] * len(header),
            money_columns=[len(header) - 1],
            right_columns=range(1, len(header) - 1),
            total_row=total,
        )
        parts = [Spacer(1, 6), Line(f"{box.title} ({box.status})", "heading"), table]
        parts.append(Line(f"Resolution: {box.resolution}"))
        parts.append(Line(f"Forms found: {box.forms_found}"))
        parts += [Line(f"Forms exception: {text}") for text in box.forms_exceptions]
        story.append(KeepTogether(parts))
    story += [Spacer(1, 8), Line(f"Agreed drop, all boxes: {format_money(sheet.total_agreed_cents)}", "heading")]
    story.append(Line("Initialed and dated by both count team members:", "heading"))
    story += [Line(s) for s in sheet.signatures] or [Line("NOT SIGNED")]
    if len(sheet.signatures) < 2:
        story.append(Line("This count is not signed by both members yet."))
    return story
