"""Every PDF an auditor files, rendered from the demo and read back: each report kind, the count
sheet and a slip carry the organization's licence number, the site, the period, "Page X of Y"
on every page and (reports) the prepared-by and reviewed-by block; every money value prints
whole on one line inside the page; each page renders to a PNG of the page's size that is not
blank; and the PDF's creation date is the generation time."""

import io
import os
import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pdfplumber
import pypdfium2
import pytest
from django.utils import timezone
from pypdf import PdfReader

from accounting import dealer_hold
from cardroom.demo import LICENCE
from cardroom.models import Site
from core.pdf import Provenance, ReportDocument, TitleBlock, format_clock, format_generated_at
from core.periods import Quarter
from counts.models import CountSession
from counts.pdf import build_count_sheet, render_count_sheet
from floor.models import Slip
from floor.pdf_slips import build_slip_document, render_slip_pdf
from reports.catalogue import load_kinds
from reports.generation import render_run
from reports.kinds import chip_inventory, dealer_shifts
from reports.models import ReportRun
from reports.registry import ReportContext

# A week of the demo, built once for the module on one process (pytest.ini: --dist loadgroup).
pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("reports-pdf-render")]

# A money value as the shared formatter writes it ("$1,387.00", "-$5.00", "+$5.00"), or a chip
# value as a column header writes it ("$1,000"). Any other word with a dollar sign, or a word
# that is the tail of a value ("387.00", ",000"), is a value wrapped or cut mid-number.
MONEY = re.compile(r"^[-+]?\$\d{1,3}(,\d{3})*(\.\d\d)?$")
# A tail starts at a comma group or the cents: a plain decimal ("0.01", a z-score) is not one.
TAIL = re.compile(r"^(,\d{3})+(\.\d\d)?$|^\d{3}(,\d{3})*\.\d\d$|^\.\d\d$")
PUNCTUATION = ".,;:()"
SCALE = 1  # 72 dpi: one pixel per point, so the PNG is the page's size in points
PNG_DIR = os.environ.get("PDF_PNG_DIR")  # set to keep the PNGs for a look


# A value cut after its decimal point ("$283,896." over "00"): no sentence of a report ends on a
# money value.
CUT_AT_POINT = re.compile(r"[-+]?\$[\d,]*\d\.$")


def money_fragments(words: list[dict]) -> list[str]:
    """Words that are part of a money value but not a whole one (a value wrapped mid-number)."""
    bad = []
    for word in words:
        values = [found.rstrip(PUNCTUATION) for found in re.findall(r"[-+]?\$\S*", word["text"])]
        if (
            any(not MONEY.match(value) for value in values)
            or TAIL.match(word["text"].strip(PUNCTUATION))
            or CUT_AT_POINT.search(word["text"])
        ):
            bad.append(word["text"])
    return bad


def outside_the_page(page) -> list[str]:
    return [
        c["text"]
        for c in page.chars
        if c["x0"] < 0 or c["x1"] > page.width + 0.5 or c["top"] < 0 or c["bottom"] > page.height + 0.5
    ]


def check_pdf(name: str, pdf: bytes, *, landscape: bool, licence: str = LICENCE, signoff: bool = True) -> str:
    """Read back `pdf`; returns its text. Fails naming the document and page."""
    width, height = (792, 612) if landscape else (612, 792)
    render_png(name, pdf, width, height)
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        total = len(document.pages)
        texts = []
        for number, page in enumerate(document.pages, start=1):
            where = f"{name}, page {number}"
            assert (round(page.width), round(page.height)) == (width, height), where
            text = page.extract_text() or ""
            assert f"Page {number} of {total}" in text, where
            assert f"Licence No. {licence}" in text, where
            assert money_fragments(page.extract_words()) == [], where
            assert outside_the_page(page) == [], where
            texts.append(text)
    text = "\n".join(texts)
    if signoff:
        assert "Prepared by" in texts[-1] and "Reviewed by" in texts[-1], name
    return text


def render_png(name: str, pdf: bytes, width: int, height: int) -> None:
    document = pypdfium2.PdfDocument(pdf)
    try:
        for index in range(len(document)):
            image = document[index].render(scale=SCALE).to_pil().convert("L")
            assert image.size == (width, height), f"{name}, page {index + 1}"
            dark = sum(image.histogram()[:128])
            assert dark > 500, f"{name}, page {index + 1} renders blank"
            if PNG_DIR:
                Path(PNG_DIR).mkdir(parents=True, exist_ok=True)
                document[index].render(scale=2).to_pil().save(Path(PNG_DIR) / f"{name}-{index + 1}.png")
    finally:
        document.close()


def creation_date(pdf: bytes) -> datetime:
    return PdfReader(io.BytesIO(pdf)).metadata.creation_date


def run_for(kind, site, requester) -> ReportRun:
    today = timezone.localdate()
    quarter = Quarter.containing(today)
    if kind.period == "quarter":
        start, end, label = quarter.start, quarter.end, str(quarter)
    elif kind.period == "as_of":
        start = end = today
        label = f"as of {today}"
    else:
        start, end = today - timedelta(days=14), today
        label = f"{start} to {end}"
    return ReportRun(
        kind=kind.code,
        organization=site.organization,
        site=site,
        start=start,
        end=end,
        period_label=label,
        requested_by=requester,
        requested_at=REQUESTED_AT,
    )


def chip_values_print_whole(data, pdf: bytes) -> None:
    """Each chip value's column header prints on one line ("$1,000", never "$1,0" over "00")."""
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        words = {w["text"] for w in document.pages[0].extract_words()}
    labels = chip_inventory.log_header(data.values)[4:-3]
    assert labels and all(label in words for label in labels)


def reasons_print_once(data, pdf: bytes) -> None:
    """A shift that cannot be separated points to a note; each reason prints once."""
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        text = " ".join(" ".join((page.extract_text() or "").split()) for page in document.pages)
    reasons = dealer_shifts.not_separable_notes(data)
    assert reasons, "the demo has shifts that cannot be separated"
    for reason, number in reasons.items():
        assert text.count(" ".join(reason.split())) == 1
        assert text.count(f"See note {number}") == sum(
            1 for line in data.shifts if line.figures.custody is None and line.figures.not_separable_because == reason
        )


LEGIBLE = {"chip_inventory": chip_values_print_whole}


@pytest.fixture
def gm(a_week_of_the_demo):
    return a_week_of_the_demo["people"]["gm"]


REQUESTED_AT = datetime(2026, 11, 14, 8, 5, tzinfo=UTC)


def test_every_report_kind_prints_the_furniture_an_auditor_files_and_no_money_is_cut_or_wrapped(gm):
    sites = list(Site.objects.select_related("organization").order_by("pk"))
    for code, kind in sorted(load_kinds().items()):
        site = next((s for s in sites if kind.applies_to(s)), None)
        if site is None:
            continue
        run = run_for(kind, site, gm.user)
        pdf, _, _ = render_run(run, audit_head="")
        licence = site.organization.licence_number
        text = check_pdf(code, pdf, landscape=kind.landscape, licence=licence)
        assert site.name in text and run.period_label in text, code
        assert f"times in {site.time_zone}" in text, code
        if code in LEGIBLE:
            LEGIBLE[code](kind.build(ReportContext(site.organization, site, run.start, run.end, "", run.end)), pdf)
        # Prepared by the requester, dated in the site's time zone, the zone named.
        local = REQUESTED_AT.astimezone(ZoneInfo(site.time_zone))
        assert f"Prepared by {gm.name} {gm.initials} {local:%Y-%m-%d}" in text, code
        assert f"Generated {format_generated_at(local)}" in text, code
        assert creation_date(pdf) == REQUESTED_AT, code


def test_the_dealer_shifts_report_points_each_shift_that_cannot_be_separated_to_its_note_once(gm):
    """A shift that cannot be separated (its box not exchanged, its tray not counted at the dealer
    change) prints no figures but a pointer to a note, each reason printed once. The demo's ND sites
    exchange their boxes at each dealer change (ND 99-01.3-08-04(8)), so its shifts all separate:
    some of the demo's week are taken as not separable here, for two reasons, as the shift figures
    give them (custody None and the reason)."""
    kind = load_kinds()["dealer_shifts"]
    site = Site.objects.select_related("organization").filter(jurisdiction="ND").order_by("pk").first()
    run = run_for(kind, site, gm.user)
    data = kind.build(ReportContext(site.organization, site, run.start, run.end, "", run.end))
    assert len(data.shifts) >= 6, "the demo's week has dealer shifts"
    reasons = [dealer_hold.NO_BOX_EXCHANGE, dealer_hold.NO_TRAY_COUNT]
    lines = tuple(
        replace(line, figures=replace(line.figures, custody=None, not_separable_because=reasons[n % 2]))
        if n % 3 == 0 else line
        for n, line in enumerate(data.shifts)
    )  # fmt: skip
    data = replace(data, shifts=lines)
    title = TitleBlock(site.organization.name, site.name, run.period_label, kind.title_at(site), kind.rule_at(site),
                       site.organization.licence_number, site.time_zone)  # fmt: skip
    provenance = Provenance(REQUESTED_AT, gm.name, "0" * 64, "", "", generated_by_initials=gm.initials)
    pdf = ReportDocument(title, provenance, landscape=kind.landscape).build(kind.render(data))
    check_pdf("dealer_shifts", pdf, landscape=kind.landscape, licence=site.organization.licence_number)
    assert set(dealer_shifts.not_separable_notes(data)) == set(reasons)
    reasons_print_once(data, pdf)


def test_the_count_sheet_and_the_slip_print_the_licence_and_times_in_the_site_time_zone(gm):
    session = CountSession.objects.filter(signatures__isnull=False).select_related("site").first()
    zone = ZoneInfo(session.site.time_zone)
    pdf = render_count_sheet(
        build_count_sheet(session), generated_at=REQUESTED_AT, generated_by="Pat Auditor", generated_by_initials="PA"
    )
    text = check_pdf("count-sheet", pdf, landscape=False)
    assert " UTC" not in text
    for signature in session.signatures.all():
        assert format_generated_at(signature.signed_at.astimezone(zone)) in text
    # Prepared by the count team, dated when they signed; whoever downloaded it is in the footer.
    signed_on = session.signatures.order_by("signed_at").last().signed_at.astimezone(zone)
    team = f"{session.first_member} and {session.second_member}"
    initials = f"{session.first_member.initials}, {session.second_member.initials}"
    assert f"Prepared by {team} {initials} {signed_on:%Y-%m-%d}" in " ".join(text.split())
    assert "by Pat Auditor" in text
    assert creation_date(pdf) == REQUESTED_AT

    # The slip: one page, the licence, signature times in the site's zone with the zone named.
    slip = Slip.objects.filter(steps__kind="receive").select_related("site").first()
    document = build_slip_document(slip, generated_by="Pat Auditor", generated_at=REQUESTED_AT)
    pdf = render_slip_pdf(document)
    text = check_pdf("slip", pdf, landscape=False, signoff=False)
    assert len(PdfReader(io.BytesIO(pdf)).pages) == 1
    received = next(s for s in document.signatures if s.role.startswith("Received"))
    at = slip.steps.get(kind="receive").at.astimezone(ZoneInfo(slip.site.time_zone))
    assert received.time == f"{format_clock(at)} {at.tzname()}" and received.time in text
    assert creation_date(pdf) == REQUESTED_AT


def test_the_dealer_shifts_report_keeps_the_wheel_operators_apart(gm):
    """A paddlewheel's shifts are its wheel operators' (ND 99-01.3-08-04(8)), under their own heading
    as the dealer hold summary keeps them: a wheel operator listed under "Dealer" among the
    twenty-one tables read as a dealer of twenty-one, the wheel's hold beside theirs. Some of the
    demo week's shifts are taken as a wheel's here; the CSV names each row's game."""
    kind = load_kinds()["dealer_shifts"]
    site = Site.objects.select_related("organization").filter(jurisdiction="ND").order_by("pk").first()
    run = run_for(kind, site, gm.user)
    data = kind.build(ReportContext(site.organization, site, run.start, run.end, "", run.end))
    lines = tuple(
        replace(line, figures=replace(line.figures, game="PW", dealer_name="Wes Wheel")) if n % 3 == 0 else line
        for n, line in enumerate(data.shifts)
    )
    data = replace(data, shifts=lines)
    title = TitleBlock(site.organization.name, site.name, run.period_label, kind.title_at(site), kind.rule_at(site),
                       site.organization.licence_number, site.time_zone)  # fmt: skip
    provenance = Provenance(REQUESTED_AT, gm.name, "0" * 64, "", "", generated_by_initials=gm.initials)
    pdf = ReportDocument(title, provenance, landscape=kind.landscape).build(kind.render(data))
    text = " ".join(
        check_pdf("dealer_shifts", pdf, landscape=kind.landscape, licence=site.organization.licence_number).split()
    )
    heading = text.index("Wheel operators (paddlewheel), ND 99-01.3-08-04(8)")
    assert text.index("Table Dealer Start") < heading < text.index("Table Wheel operator Start")
    # (a name may wrap in its cell: its first word counts the rows)
    assert "Wes" not in text[:heading] and text[heading:].count("Wes") == sum(
        1 for line in lines if line.figures.game == "PW"
    )
    _, rows = kind.table(data)
    assert {row[-1] for row in rows} == {"21", "PW"}  # floor.rules.game_column: ND asks for the reference
