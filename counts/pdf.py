"""The count sheet of a session (ND 99-01.3-08-14(4)): each box, each member's count, the
differences and how they were resolved, the agreed drop, the forms found, both members'
initials with dates. `build_count_sheet` queries; `render_count_sheet` only draws."""

from dataclasses import dataclass
from datetime import datetime

from reportlab.platypus import KeepTogether, Spacer

from cardroom.money import format_money
from cardroom.pdf import Provenance, ReportDocument, TitleBlock, data_digest, data_table, para

from . import queries
from .rules import COUNT_CITATION, CURRENCY


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
    signatures: tuple[str, ...]


def _resolution(box: queries.BoxCount) -> str:
    if box.agreement is None:
        return "Difference not resolved" if box.status == "difference" else "Not agreed"
    text = box.agreement.get_source_display()
    if box.agreement.source != "match" and box.original_agreement is not None:
        if box.original_agreement.pk != box.agreement.pk:
            original = format_money(box.original_agreement.total_cents)
            text += f" (replaces {original}; approved by {box.agreement.approved_by.initials})"
    return f"{text}: {box.agreement.reason}" if box.agreement.reason else text


def _forms_exceptions(box: queries.BoxCount) -> tuple[str, ...]:
    rec = box.reconciliation
    if not rec or not rec["available"]:
        return ()
    rows = []
    for e in rec["exceptions"]:
        what = "issued, not in the box" if e["problem"] == "missing" else "in the box, not issued"
        note = f" - explained: {e['explanation'].explanation}" if e["explanation"] else " - NOT EXPLAINED"
        rows.append(f"{e['kind'].capitalize()} slip #{e['number']}: {what}{note}")
    return tuple(rows)


def _box(box: queries.BoxCount) -> SheetBox:
    lines = []
    for d in CURRENCY:
        key = (d.cents, d.form)
        quantities = tuple(m.lines.get(key, 0) for m in box.visible)
        agreed = box.agreed_lines.get(key, 0)
        if any(quantities) or agreed:
            lines.append(SheetLine(d.label, quantities, agreed, agreed * d.cents))
    drop = box.drop
    shift = f", dealer shift {drop.dealer_shift_id}" if drop.dealer_shift_id else ""
    return SheetBox(
        title=f"{drop.drop_box} - table {drop.table.number}{shift}",
        status=box.status,
        members=tuple(m.initials for m in box.visible),
        member_totals=tuple(m.total_cents for m in box.visible),
        lines=tuple(lines),
        agreed_cents=box.agreed_cents,
        resolution=_resolution(box),
        forms_found=", ".join(f"{k} #{n}" for k, n in box.agreed_forms) or "none",
        forms_exceptions=_forms_exceptions(box),
    )


def build_count_sheet(session) -> CountSheet:
    boxes = tuple(_box(b) for b in queries.session_board(session, None))
    signatures = tuple(
        f"{s.initials} ({s.member}) {s.signed_at:%Y-%m-%d %H:%M} UTC"
        for s in session.signatures.select_related("member__user").order_by("signed_at")
    )
    return CountSheet(
        organization=session.site.organization.name,
        site=session.site.name,
        gaming_date=str(session.gaming_date),
        team=f"{session.first_member} ({session.first_member.initials}) and {session.second_member} ({session.second_member.initials})",
        boxes=boxes,
        total_agreed_cents=sum(b.agreed_cents or 0 for b in boxes),
        signatures=signatures,
    )


def render_count_sheet(sheet: CountSheet, *, generated_at: datetime, generated_by: str) -> bytes:
    title = TitleBlock(
        sheet.organization, sheet.site, f"Gaming day {sheet.gaming_date}", "Drop box count sheet", COUNT_CITATION
    )
    doc = ReportDocument(title, Provenance(generated_at, generated_by, data_digest(sheet)))
    story = [para(f"Count team: {sheet.team}")]
    for box in sheet.boxes:
        header = ["Denomination", *[f"Count {m}" for m in box.members], "Agreed qty", "Agreed amount"]
        rows = [(line.label, *line.quantities, line.agreed, line.agreed_cents) for line in box.lines]
        total = ("Total", *(format_money(t) for t in box.member_totals), "", box.agreed_cents)
        table = data_table(header, rows, money_columns=[len(header) - 1], total_row=total)
        parts = [Spacer(1, 6), para(f"{box.title} ({box.status})", "heading"), table]
        parts.append(para(f"Resolution: {box.resolution}"))
        parts.append(para(f"Forms found: {box.forms_found}"))
        parts += [para(f"Forms exception: {text}") for text in box.forms_exceptions]
        story.append(KeepTogether(parts))
    story += [Spacer(1, 8), para(f"Agreed drop, all boxes: {format_money(sheet.total_agreed_cents)}", "heading")]
    story.append(para("Initialed and dated by both count team members:", "heading"))
    story += [para(s) for s in sheet.signatures] or [para("NOT SIGNED")]
    if len(sheet.signatures) < 2:
        story.append(para("This count is not signed by both members yet."))
    return doc.build(story)
