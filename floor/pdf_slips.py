"""A fill or credit slip as a PDF: the ORIGINAL and the COPY of the two-part form.

Each part carries what the slip rules require (rules.SLIP_CONTENT; in North Dakota 08-05(3)):
the game (in North Dakota its reference, 21 or PW, beside its name, 08-05(3)(a); elsewhere the
site's pack's name only, `rules.slip_game`), the site, the date and the time with a.m. or p.m. in
the site's time zone, the table number, the quantity and value of chips by value and the grand
total, and the initials (with times) of the preparer, the verifier (rules.SLIP_VERIFICATION) and
the receiver (rules.SLIP_RECEIPT). A voided slip prints VOID across both parts with the void
initials and reason (rules.SLIP_NUMBERING). The form cites the rules of the slip's site's pack,
or "House control" where that pack does not state them.

`build_slip_document` queries; `render_slip_pdf` only draws.
"""

from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from django.utils import timezone
from reportlab.lib import colors
from reportlab.lib.units import inch
from reportlab.platypus import Flowable, Spacer, Table, TableStyle

from cardroom.models import ChipDenomination
from core.pdf import (
    FONT_BOLD,
    GRID_GREY,
    HEADER_FILL,
    Provenance,
    ReportDocument,
    TitleBlock,
    clip_text,
    data_digest,
    format_clock,
    money_cell,
    para,
)
from packs import game_label

from .models import Slip, SlipKind, SlipStep
from .rules import SLIP_FORM, SLIP_GAME_REFERENCE, SLIP_INITIALS_SHORT, SignedAs, is_unverified_note, slip_game_text

SLIP_REASON_CHARACTERS = 600  # a slip part must fit its half page: a longer reason is cut with a note

# Where each part of the form ends up (rules.SLIP_DEPOSIT, SLIP_RECEIPT; a house control where
# the site's pack does not state them).
PART_DESTINATIONS = {
    (SlipKind.FILL, "ORIGINAL"): "Retained by the chip bank cashier with the daily records",
    (SlipKind.FILL, "COPY"): "Goes with the chips to the table; the dealer initials it and deposits it in the drop box",
    (SlipKind.CREDIT, "ORIGINAL"): "Deposited by the dealer in the drop box",
    (
        SlipKind.CREDIT,
        "COPY",
    ): "Goes with the chips to the cashier, who initials it and keeps it with the daily records",
}
# Each signature line is labelled with the capacity its signer acted in (rules.SignedAs),
# recorded when they signed: "Prepared by: Pit boss", "Received (copy): Dealer acting as cashier".
PREPARED, VERIFIED, RECEIVED = "Prepared by", "Verified by (original)", "Received (copy)"


def initials_required(where) -> str:
    """The line of the initials the form must carry (rules.SLIP_INITIALS): a fill's cashier (or
    dealer acting as cashier), a credit's dealer or wheel operator; the capacity after the
    colon says which. "Initials (08-05(3)(c))" in North Dakota."""
    return f"Initials ({SLIP_INITIALS_SHORT.at(where)})"


def _label(base: str, signed_as: str) -> str:
    """`base`, then the capacity that signed, when it was recorded."""
    return f"{base}: {SignedAs(signed_as).label}" if signed_as in SignedAs.values else base


@dataclass(frozen=True)
class SlipLineFigures:
    value_cents: int
    quantity: int
    amount_cents: int


@dataclass(frozen=True)
class Signature:
    role: str
    initials: str  # blank while not yet signed
    name: str
    date: str
    time: str


@dataclass(frozen=True)
class VoidMark:
    initials: str
    name: str
    date: str
    time: str
    reason: str


@dataclass(frozen=True)
class SlipDocument:
    organization: str
    site: str
    time_zone: str
    kind: str  # "fill" or "credit"
    kind_label: str  # "FILL SLIP"
    number: int
    series: str
    game: str  # "21" or "PW" where the pack asks for the reference (ND 08-05(3)(a)), else ""
    game_label: str  # as the site's pack names it
    table_number: int
    gaming_date: str
    date: str
    time: str
    purpose: str
    lines: tuple[SlipLineFigures, ...]
    total_cents: int
    signatures: tuple[Signature, ...]
    void: VoidMark | None
    generated_at: datetime
    generated_by: str
    licence_number: str = ""
    rule: str = ""  # the slip rules as the site's pack cites them (rules.SLIP_FORM), or "House control"


def _local(moment: datetime, zone: ZoneInfo) -> datetime:
    return moment.astimezone(zone)


def _clock_with_zone(local: datetime) -> str:
    """`3:10 a.m. CST`: a signature's time in the site's time zone, the zone named."""
    return f"{format_clock(local)} {local:%Z}"


def _signature(role: str, employee, moment: datetime | None, zone: ZoneInfo, initials: str = "") -> Signature:
    if employee is None or moment is None:
        return Signature(role=role, initials="", name="", date="", time="")
    local = _local(moment, zone)
    return Signature(
        role=role,
        initials=initials or employee.initials,
        name=employee.name,
        date=f"{local:%Y-%m-%d}",
        time=_clock_with_zone(local),
    )


def _lines(slip: Slip) -> tuple[SlipLineFigures, ...]:
    """Every active chip value of the organization, so no line is left blank to fill in later."""
    quantities = {line.value_cents: line.quantity for line in slip.lines.all()}
    values = set(quantities) | set(
        ChipDenomination.objects.filter(organization_id=slip.site.organization_id, active=True).values_list(
            "value_cents", flat=True
        )
    )
    return tuple(SlipLineFigures(v, quantities.get(v, 0), v * quantities.get(v, 0)) for v in sorted(values))


def build_slip_document(slip: Slip, *, generated_by: str = "", generated_at: datetime | None = None) -> SlipDocument:
    """The figures and signatures printed on a slip, with times in the site's time zone."""
    slip = Slip.objects.select_related(
        "site__organization", "prepared_by__user", "signed_by__user", "slip_book", "gaming_day"
    ).get(pk=slip.pk)
    zone = ZoneInfo(slip.site.time_zone)
    steps = {s.kind: s for s in SlipStep.objects.filter(slip=slip).select_related("employee__user")}

    def step_signature(kind, base):
        step = steps.get(kind)
        role = _label(base, step.signed_as if step else "")
        return _signature(role, step and step.employee, step and step.at, zone, step.initials if step else "")

    receipt = steps.get(SlipStep.Kind.RECEIVE)
    if SlipStep.Kind.VERIFY not in steps and receipt is not None and is_unverified_note(receipt.reason):
        verification = Signature(role=VERIFIED, initials="", name=receipt.reason, date="", time="")
    else:
        verification = step_signature(SlipStep.Kind.VERIFY, VERIFIED)

    void_step = steps.get(SlipStep.Kind.VOID)
    void = None
    if void_step is not None:
        at = _local(void_step.at, zone)
        void = VoidMark(
            initials=void_step.initials,
            name=void_step.employee.name,
            date=f"{at:%Y-%m-%d}",
            time=_clock_with_zone(at),
            reason=void_step.reason,
        )
    local = _local(slip.prepared_at, zone)
    book = f" \u00b7 book {slip.slip_book.first_number}\u2013{slip.slip_book.last_number}" if slip.slip_book else ""
    return SlipDocument(
        organization=slip.site.organization.name,
        licence_number=slip.site.organization.licence_number,
        site=slip.site.name,
        time_zone=slip.site.time_zone,
        kind=slip.kind,
        kind_label=slip.get_kind_display().upper(),
        number=slip.number,
        series=f"{slip.get_kind_display()} series, {slip.site.name}{book}",
        game=slip.game if SLIP_GAME_REFERENCE.applies(slip.site) else "",
        game_label=game_label(slip.site, slip.game),
        table_number=slip.table_number,
        gaming_date=f"{slip.gaming_day.gaming_date:%Y-%m-%d}",
        date=f"{local:%Y-%m-%d}",
        time=format_clock(local),
        purpose=slip.get_purpose_display(),
        lines=_lines(slip),
        total_cents=slip.total_cents,
        signatures=(
            _signature(_label(PREPARED, slip.prepared_as), slip.prepared_by, slip.prepared_at, zone),
            _signature(
                _label(initials_required(slip.site), slip.signed_as),
                slip.signed_by,
                slip.prepared_at if slip.signed_by_id else None,
                zone,
                slip.signed_initials,
            ),
            verification,
            step_signature(SlipStep.Kind.RECEIVE, RECEIVED),
        ),
        void=void,
        generated_at=(generated_at or timezone.now()).astimezone(zone),
        generated_by=generated_by,
        rule=SLIP_FORM.at(slip.site),
    )


# --- Drawing ----------------------------------------------------------------------------------


class VoidOverlay(Flowable):
    """Draws its content, then VOID diagonally across it (rules.SLIP_NUMBERING)."""

    def __init__(self, content: Flowable, void: VoidMark | None):
        super().__init__()
        self.content = content
        self.void = void

    def wrap(self, avail_width, avail_height):
        self.width, self.height = self.content.wrap(avail_width, avail_height)
        return self.width, self.height

    def draw(self):
        self.content.drawOn(self.canv, 0, 0)
        if self.void is None:
            return
        canv = self.canv
        canv.saveState()
        canv.setFillColor(colors.Color(0.8, 0, 0, alpha=0.35))
        canv.setFont(FONT_BOLD, 96)
        canv.translate(self.width / 2, self.height / 2)
        canv.rotate(28)
        canv.drawCentredString(0, -34, "VOID")
        canv.restoreState()


def _fields(doc: SlipDocument, part: str) -> Table:
    rows = [
        [para(f"{doc.kind_label} No. {doc.number}", "title"), para(part, "title")],
        [para(doc.series, "small"), para(PART_DESTINATIONS[(doc.kind, part)], "small")],
    ]
    header = Table(rows, colWidths=[3.9 * inch, 3.4 * inch])
    header.setStyle(TableStyle([("ALIGN", (1, 0), (1, -1), "RIGHT"), ("VALIGN", (0, 0), (-1, -1), "TOP")]))
    facts = [
        ["Game", slip_game_text(doc.game, doc.game_label), "Site", doc.site],
        ["Date", doc.date, "Time", f"{doc.time} ({doc.time_zone})"],
        ["Table number", str(doc.table_number), "Gaming day", doc.gaming_date],
        ["Purpose", doc.purpose, "Organization", doc.organization],
    ]
    facts_table = Table(
        [[para(c, "cell_bold" if i % 2 == 0 else "cell") for i, c in enumerate(r)] for r in facts],
        colWidths=[1.1 * inch, 2.55 * inch, 1.1 * inch, 2.55 * inch],
    )
    facts_table.setStyle(_grid())
    return header, facts_table


def _grid() -> TableStyle:
    return TableStyle(
        [
            ("GRID", (0, 0), (-1, -1), 0.4, GRID_GREY),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("TOPPADDING", (0, 0), (-1, -1), 1),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
        ]
    )


def _chips(doc: SlipDocument) -> Table:
    rows = [[para("Chip value", "cell_bold"), para("Quantity", "cell_bold"), para("Total value", "cell_bold")]]
    for line in doc.lines:
        rows.append([money_cell(line.value_cents), para(str(line.quantity), "money"), money_cell(line.amount_cents)])
    rows.append(
        [
            para("Grand total", "cell_bold"),
            para(str(sum(li.quantity for li in doc.lines)), "money_bold"),
            money_cell(doc.total_cents, bold=True),
        ]
    )
    table = Table(rows, colWidths=[2.4 * inch, 2.4 * inch, 2.5 * inch])
    style = _grid()
    style.add("BACKGROUND", (0, 0), (-1, 0), HEADER_FILL)
    style.add("LINEABOVE", (0, -1), (-1, -1), 1, colors.black)
    table.setStyle(style)
    return table


def _signatures(doc: SlipDocument) -> Table:
    rows = [[para(h, "cell_bold") for h in ("Signature", "Initials", "Name", "Date", "Time")]]
    for s in doc.signatures:
        rows.append(
            [
                para(s.role, "cell"),
                para(s.initials, "cell_bold"),
                para(s.name, "cell"),
                para(s.date, "cell"),
                para(s.time, "cell"),
            ]
        )
    if doc.void is not None:
        v = doc.void
        rows.append(
            [
                para("VOID initialed by", "cell_bold"),
                para(v.initials, "cell_bold"),
                para(v.name, "cell"),
                para(v.date, "cell"),
                para(v.time, "cell"),
            ]
        )
        reason = clip_text(v.reason, SLIP_REASON_CHARACTERS, "the slip register's CSV download")
        rows.append([para("Void reason", "cell_bold"), para(reason, "cell"), "", "", ""])
    table = Table(rows, colWidths=[2.6 * inch, 0.7 * inch, 2.0 * inch, 0.9 * inch, 1.1 * inch])
    style = _grid()
    style.add("BACKGROUND", (0, 0), (-1, 0), HEADER_FILL)
    if doc.void is not None:
        style.add("SPAN", (1, -1), (-1, -1))
    table.setStyle(style)
    return table


def _part(doc: SlipDocument, part: str) -> Flowable:
    header, facts = _fields(doc, part)
    body = Table(
        [[header], [facts], [Spacer(1, 4)], [_chips(doc)], [Spacer(1, 4)], [_signatures(doc)]], colWidths=[7.3 * inch]
    )
    body.setStyle(
        TableStyle(
            [
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 1),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
            ]
        )
    )
    return VoidOverlay(body, doc.void)


class CutLine(Flowable):
    def wrap(self, avail_width, avail_height):
        self.width = avail_width
        return avail_width, 22

    def draw(self):
        self.canv.saveState()
        self.canv.setDash(4, 3)
        self.canv.setStrokeColor(GRID_GREY)
        self.canv.line(0, 11, self.width, 11)
        self.canv.restoreState()


def render_slip_pdf(doc: SlipDocument, *, audit_head: str = "") -> bytes:
    """Both parts of the form on one page (ORIGINAL above, COPY below), the footer naming the
    organization's audit chain head when it was printed (`audit_head`). Drawing only."""
    title = TitleBlock(
        organization=doc.organization,
        site=doc.site,
        period=f"Gaming day {doc.gaming_date}",
        report_name=f"{doc.kind_label.title()} No. {doc.number}",
        rule=doc.rule,
        licence_number=doc.licence_number,
        time_zone=doc.time_zone,
    )
    provenance = Provenance(
        generated_at=doc.generated_at,
        generated_by=doc.generated_by or "\u2014",
        data_sha256=data_digest(_data_for_digest(doc)),
        audit_head=audit_head,
    )
    # The slip is a form whose signature lines are its initials (rules.SLIP_INITIALS, SLIP_VERIFICATION,
    # SLIP_RECEIPT): no
    # prepared/reviewed block, and both parts stay on one page. The running header names the
    # organization's licence.
    report = ReportDocument(title, provenance, with_title_block=False, with_signoff=False)
    return report.build([_part(doc, "ORIGINAL"), CutLine(), _part(doc, "COPY")])


def _data_for_digest(doc: SlipDocument) -> dict:
    """The slip's figures and signatures; when and by whom it was printed is not slip data."""
    from dataclasses import asdict

    data = asdict(doc)
    data.pop("generated_at")
    data.pop("generated_by")
    return data
