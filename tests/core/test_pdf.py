"""Shared PDF furniture, read back from the PDF itself."""

import io
from dataclasses import dataclass
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pdfplumber
from pypdf import PdfReader

from core.pdf import (
    Line,
    Provenance,
    ReportDocument,
    TitleBlock,
    data_digest,
    data_table,
    format_generated_at,
    money_cell,
    para,
)

TITLE = TitleBlock(
    organization="Prairie Charities",
    site="Elks Lodge",
    period="2026-11-01 to 2026-11-30",
    report_name="Test register",
    rule="ND 99-01.3-08-05(2)",
    licence_number="ND-GC-0417",
    time_zone="America/Chicago",
)


@dataclass(frozen=True)
class Row:
    label: str
    amount_cents: int


@dataclass(frozen=True)
class Figures:
    rows: tuple[Row, ...]


def render(figures: Figures, generated_at=datetime(2026, 11, 14, 8, 5, tzinfo=UTC)) -> bytes:
    provenance = Provenance(
        generated_at=generated_at,
        generated_by="Pat Manager",
        data_sha256=data_digest(figures),
        generated_by_initials="PM",
    )
    doc = ReportDocument(TITLE, provenance)
    table = data_table(
        ["Line", "Amount"],
        [(r.label, r.amount_cents) for r in figures.rows],
        money_columns=[1],
        total_row=("Total", sum(r.amount_cents for r in figures.rows)),
    )
    return doc.build([para("Every line of the test."), table])


def text_of(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


FEW = Figures(rows=(Row("Fill 1", 12_345), Row("Fill 2", 100_000_00)))
MANY = Figures(rows=tuple(Row(f"Line {n}", n * 100) for n in range(1, 80)))


def test_title_block_names_organization_site_period_report_and_rule():
    first = text_of(render(FEW))[0]
    for text in ("Test register", "Prairie Charities", "Elks Lodge", "2026-11-01 to 2026-11-30", "ND 99-01.3-08-05(2)"):
        assert text in first


def test_money_prints_with_the_shared_formatter():
    first = text_of(render(FEW))[0]
    assert "$123.45" in first and "$100,000.00" in first and "$100,123.45" in first


def test_money_cells_are_right_aligned():
    with pdfplumber.open(io.BytesIO(render(FEW))) as pdf:
        words = pdf.pages[0].extract_words()
    small, large = (next(w for w in words if w["text"] == text) for text in ("$123.45", "$100,000.00"))
    assert abs(small["x1"] - large["x1"]) < 1
    assert small["x0"] > large["x0"]


def test_a_long_table_runs_over_pages_counted_page_x_of_y_and_repeats_its_header():
    pages = text_of(render(MANY))
    # The table runs over the pages; its last rows go on with the prepared/reviewed block, which
    # is never alone on a page (issue 33: an auditor signs under the figures).
    assert len(pages) == 3
    assert all(f"Page {n} of 3" in page for n, page in enumerate(pages, start=1))
    assert "Line\nAmount" in pages[1] or "Line Amount" in pages[1]
    assert "Line 79" in pages[2] and "Prepared" in pages[2]


def test_a_long_table_ending_in_the_sign_off_prints_its_header_once_at_the_top_of_each_page():
    """The table's end travels with the sign-off (WithTail), but the rest of the table is laid out
    as the page holds it: the header never repeats mid-page above a second piece of the table
    (it printed the header, rows, then the header again on the same page)."""
    for figures in (MANY, Figures(rows=tuple(Row(f"Line {n}", n * 100) for n in range(1, 45)))):
        with pdfplumber.open(io.BytesIO(render(figures))) as pdf:
            pages = [page.extract_text().splitlines() for page in pdf.pages]
        for number, lines in enumerate(pages, start=1):
            headers = [i for i, line in enumerate(lines) if line == "Line Amount"]
            assert len(headers) == 1, (len(figures.rows), number, headers)
            assert lines[headers[0] + 1].startswith("Line "), (len(figures.rows), number)
            assert not any(line.startswith("Line ") for line in lines[: headers[0]]), (len(figures.rows), number)


def test_a_heading_and_its_explanation_stay_on_the_page_of_their_tables_first_rows():
    """Wherever the figures before it end, a section's heading is never the last line of a page
    whose next one starts its table: it printed at a page's foot, its table on the next page."""
    provenance = Provenance(datetime(2026, 11, 14, 8, 5, tzinfo=UTC), "Pat Manager", "0" * 64)
    for filler in range(30, 48):
        story = [
            data_table(["Line", "Amount"], [(f"Line {n}", n * 100) for n in range(filler)], money_columns=[1]),
            Line("Chip float as of 2026-09-30", "heading"),
            Line("The chips the log says exist against the banks and trays at their last counts.", "small"),
            data_table(["Chip", "Exist"], [(f"Chip {n}", n) for n in range(1, 30)], right_columns=[1]),
        ]
        with pdfplumber.open(io.BytesIO(ReportDocument(TITLE, provenance).build(story))) as pdf:
            pages = [page.extract_text() for page in pdf.pages]
        page = next(page for page in pages if "Chip float as of" in page)
        assert "The chips the log says exist" in page, filler
        assert "Chip Exist" in page and "Chip 1 1" in page and "Chip 2 2" in page, filler


def test_footer_says_when_by_whom_and_the_digest_of_the_data():
    pdf = render(FEW)
    for page in text_of(render(MANY)):
        assert "Generated 2026-11-14 8:05 a.m. UTC by Pat Manager" in page
    assert data_digest(FEW) in text_of(pdf)[0]


def test_equal_inputs_give_byte_identical_pdfs():
    assert render(FEW) == render(FEW)
    assert render(MANY) == render(MANY)


def test_different_data_or_time_gives_a_different_pdf():
    assert render(FEW) != render(MANY)
    assert render(FEW) != render(FEW, generated_at=datetime(2026, 11, 14, 20, 5, tzinfo=UTC))


def test_fonts_are_embedded_truetype():
    reader = PdfReader(io.BytesIO(render(FEW)))
    fonts = reader.pages[0]["/Resources"]["/Font"]
    descriptors = [
        font.get_object()["/FontDescriptor"].get_object()
        for font in fonts.values()
        if "/FontDescriptor" in font.get_object()
    ]
    assert descriptors and all("/FontFile2" in d for d in descriptors)


def test_digest_is_stable_and_sensitive_to_every_figure():
    assert data_digest(FEW) == data_digest(Figures(rows=(Row("Fill 1", 12_345), Row("Fill 2", 100_000_00))))
    assert data_digest(FEW) != data_digest(Figures(rows=(Row("Fill 1", 12_346), Row("Fill 2", 100_000_00))))


def test_times_print_with_a_m_and_p_m():
    assert format_generated_at(datetime(2026, 1, 2, 0, 7, tzinfo=UTC)) == "2026-01-02 12:07 a.m. UTC"
    assert format_generated_at(datetime(2026, 1, 2, 13, 30, tzinfo=UTC)) == "2026-01-02 1:30 p.m. UTC"


def test_money_cell_prints_none_as_a_dash():
    assert money_cell(None).text == "\u2014"


def test_every_page_names_the_licence_and_the_title_block_the_time_zone():
    pages = text_of(render(MANY))
    assert all("Prairie Charities (Licence No. ND-GC-0417)" in page for page in pages)
    assert "Prairie Charities \u00b7 Licence No. ND-GC-0417 \u00b7 Elks Lodge" in pages[0]
    assert "times in America/Chicago" in pages[0]


def test_an_organization_without_a_licence_number_is_named_as_such():
    title = TitleBlock("Prairie Charities", "Elks Lodge", "2026Q3", "Test", "ND 99-01.3-08-16")
    provenance = Provenance(datetime(2026, 11, 14, 8, 5, tzinfo=UTC), "Pat Manager", "0" * 64)
    text = text_of(ReportDocument(title, provenance).build([para("x")]))[0]
    assert "Licence No. not recorded" in text


def test_the_last_page_ends_with_prepared_by_filled_and_reviewed_by_blank():
    chicago = datetime(2026, 11, 14, 8, 5, tzinfo=UTC).astimezone(ZoneInfo("America/Chicago"))
    with pdfplumber.open(io.BytesIO(render(MANY, generated_at=chicago))) as pdf:
        last = pdf.pages[-1].extract_text()
    assert "Prepared and reviewed" in last
    assert "Name Initials Date Signature" in last
    assert "Prepared by Pat Manager PM 2026-11-14" in last  # 2:05 a.m. in Chicago: still the 14th
    reviewed = next(line for line in last.splitlines() if line.startswith("Reviewed by"))
    assert reviewed.strip() == "Reviewed by"  # blank for the reviewer to complete by hand
    assert "in America/Chicago" in last
    assert "Prepared and reviewed" not in text_of(render(MANY))[0]


def test_a_form_with_its_own_signature_lines_can_leave_the_block_out():
    provenance = Provenance(datetime(2026, 11, 14, 8, 5, tzinfo=UTC), "Pat Manager", "0" * 64)
    text = text_of(ReportDocument(TITLE, provenance, with_signoff=False).build([para("x")]))[0]
    assert "Prepared by" not in text and "Reviewed by" not in text


def test_the_creation_date_is_the_generation_time_not_the_invariant_2000_01_01():
    chicago = datetime(2026, 11, 14, 2, 5, tzinfo=ZoneInfo("America/Chicago"))
    info = PdfReader(io.BytesIO(render(FEW, generated_at=chicago))).metadata
    assert info["/CreationDate"] == "D:20261114020500-06'00'" == info["/ModDate"]
    assert info.creation_date == chicago
    assert "ND-GC-0417" in info["/Author"]


def test_a_half_hour_zone_west_of_greenwich_keeps_its_sign():
    newfoundland = datetime(2026, 11, 14, 2, 5, tzinfo=ZoneInfo("America/St_Johns"))
    assert PdfReader(io.BytesIO(render(FEW, generated_at=newfoundland))).metadata["/CreationDate"].endswith("-03'30'")


def test_a_money_column_too_narrow_for_its_figures_borrows_from_the_text_columns():
    table = data_table(
        ["Line", "Amount", "Tabled"],
        [("A fill for the table", 1_234_567_89, "x"), ("Another", -5_00, "y")],
        col_widths=[300, 30, 20],
        money_columns=[1],
        total_row=("Total", 1_234_562_89, ""),
    )
    assert sum(table._colWidths) == 350 and table._colWidths[0] < 300
    pdf = ReportDocument(TITLE, Provenance(datetime(2026, 11, 14, 8, 5, tzinfo=UTC), "Pat", "0" * 64)).build([table])
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        words = {w["text"] for w in document.pages[0].extract_words()}
    assert {"$1,234,567.89", "-$5.00", "$1,234,562.89", "Tabled"} <= words


def test_the_sign_off_reads_back_after_the_figures_it_signs():
    """The sign-off travels with the story's end (WithTail): read back, the text comes in the
    order it reads on the page, the last figures first, then the block (a reader's copy, or an
    auditor's search, found the block above them)."""
    provenance = Provenance(datetime(2026, 11, 14, 8, 5, tzinfo=UTC), "Pat Manager", "0" * 64)
    story = [para("First figures"), para("The last line of the figures")]
    text = text_of(ReportDocument(TITLE, provenance).build(story))[-1]
    assert (
        text.index("First figures") < text.index("The last line of the figures") < text.index("Prepared and reviewed")
    )


def test_a_time_in_a_wrapping_cell_keeps_its_a_m_or_p_m_on_its_line():
    prepared = ["CO 2026-11-03 6:50 p.m. (entered late 2026-12-05 9:30 p.m.)", "CO 2026-11-04 11:21 a.m."]
    table = data_table(["Slip", "Prepared"], [(n, text) for n, text in enumerate(prepared)], col_widths=[40, 110])
    pdf = ReportDocument(TITLE, Provenance(datetime(2026, 11, 14, 8, 5, tzinfo=UTC), "Pat", "0" * 64)).build([table])
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        lines = [" ".join(line.split()) for line in document.pages[0].extract_text().splitlines()]
    assert not [line for line in lines if line.startswith(("a.m.", "p.m."))], lines
    assert all(clock in " ".join(lines) for clock in ("6:50 p.m.", "9:30 p.m.", "11:21 a.m."))
