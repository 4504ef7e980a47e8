"""The fast paths of the shared PDF furniture: the data digest without `dataclasses.asdict`, and
table cells drawn as plain strings where a Paragraph is not needed. Both must give what the slow
paths gave: the same digest text, and cells that read back the same."""

import dataclasses
import hashlib
import io
import json
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from decimal import Decimal

import pdfplumber
import pytest
from reportlab.platypus import Paragraph

from core.pdf import Line, Provenance, ReportDocument, TitleBlock, data_digest, data_table, para, styles


def asdict_digest(data) -> str:
    """The digest as computed before: every dataclass deep-copied by `dataclasses.asdict`."""

    def default(value):
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return dataclasses.asdict(value)
        if isinstance(value, datetime | date):
            return value.isoformat()
        if isinstance(value, Decimal):
            return str(value)
        if isinstance(value, set | frozenset):
            return sorted(value)
        raise TypeError(type(value).__name__)

    if dataclasses.is_dataclass(data) and not isinstance(data, type):
        data = dataclasses.asdict(data)
    text = json.dumps(data, default=default, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Leg:
    label: str
    amount_cents: int | None
    ratio: Decimal | None
    on: date


@dataclass(frozen=True)
class Slotted:
    __slots__ = ("name", "at")
    name: str
    at: datetime


@dataclass(frozen=True)
class Trip:
    legs: tuple[Leg, ...]
    by_table: dict
    tags: frozenset
    started_at: datetime
    nothing: None = None
    extra: list = field(default_factory=list)


TRIP = Trip(
    legs=(Leg("Fill \u00e9", 12_345, Decimal("0.1250"), date(2026, 7, 1)), Leg("Credit", None, None, date(2026, 7, 2))),
    by_table={"t1": Leg("nested", -5, Decimal("1"), date(2026, 1, 1)), "t2": [1, (2, 3)], "t3": {"deep": {3, 1, 2}}},
    tags=frozenset({"b", "a"}),
    started_at=datetime(2026, 7, 1, 20, 5, tzinfo=UTC),
    extra=[Slotted("slots", datetime(2026, 7, 1, 8, 0)), {"x": None}],
)


@pytest.mark.parametrize(
    "data",
    [
        TRIP,
        [TRIP, TRIP],
        (TRIP, {"trip": TRIP}),
        {"plain": 1, "when": date(2026, 1, 1)},
        {1: "int keys become strings", 2: Decimal("2.50")},
        Leg("top-level", 1, None, date(2026, 1, 1)),
        None,
    ],
)
def test_the_digest_is_the_one_asdict_gave(data):
    assert data_digest(data) == asdict_digest(data)


def test_a_dataclass_with_extra_attributes_digests_only_its_fields():
    leg = Leg("Fill", 1, None, date(2026, 1, 1))
    object.__setattr__(leg, "cached_note", "not a field")
    assert data_digest(leg) == asdict_digest(leg) == data_digest(Leg("Fill", 1, None, date(2026, 1, 1)))


@pytest.mark.parametrize("data", [{date(2026, 1, 1): 1}, {"ok": {Decimal("1"): 1}}, {"x": object()}])
def test_what_json_cannot_key_or_hold_is_refused_as_before(data):
    with pytest.raises(TypeError):
        asdict_digest(data)
    with pytest.raises(TypeError):
        data_digest(data)


def cells(table) -> list[list]:
    return table._cellvalues


def test_money_and_text_that_fit_their_column_are_plain_strings():
    table = data_table(
        ["Date", "Amount", "Hold"],
        [["2026-07-01", 12_345, "12.50%"], ["2026-07-02", None, "n/a"]],
        col_widths=[80, 80, 60],
        money_columns=[1],
        right_columns=[2],
        total_row=["Quarter", 12_345, "12.50%"],
    )
    assert cells(table) == [
        ["Date", "Amount", "Hold"],
        ["2026-07-01", "$123.45", "12.50%"],
        ["2026-07-02", "\u2014", "n/a"],
        ["Quarter", "$123.45", "12.50%"],
    ]


def test_text_too_wide_for_its_column_or_needing_whitespace_collapsed_stays_a_paragraph():
    long_text = "a much longer text that must wrap in its narrow column"
    table = data_table(
        ["A header too long for the column", "B"],
        [[long_text, "ok"], ["two  spaces", "line\nbreak"]],
        col_widths=[60, 60],
    )
    (header, first, second) = cells(table)
    assert isinstance(header[0], Paragraph) and header[1] == "B"
    assert isinstance(first[0], Paragraph) and first[1] == "ok"
    assert all(isinstance(c, Paragraph) for c in second)


def test_without_column_widths_only_money_is_plain_so_columns_size_as_before():
    table = data_table(["Line", "Amount"], [["Fill", 100]], money_columns=[1])
    (header, row) = cells(table)
    assert all(isinstance(c, Paragraph) for c in header)
    assert isinstance(row[0], Paragraph) and row[1] == "$1.00"


def test_prebuilt_flowable_cells_are_kept():
    ready = para("given", "money")
    table = data_table(["A"], [[ready]], col_widths=[100])
    assert cells(table)[1][0] is ready


TITLE = TitleBlock("Prairie Charities", "Elks Lodge", "2026Q3", "Test grid", "ND 99-01.3-08-16")


def render(*flowables) -> bytes:
    provenance = Provenance(datetime(2026, 11, 14, 8, 5, tzinfo=UTC), "the auditor", "0" * 64)
    return ReportDocument(TITLE, provenance).build(list(flowables))


def words_of(pdf: bytes) -> list[dict]:
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        return document.pages[0].extract_words(extra_attrs=["fontname"])


def test_plain_cells_print_right_aligned_in_money_and_right_columns_and_bold_in_the_total_row():
    table = data_table(
        ["Dealer", "AGP", "Hold"],
        [["Pat", 12_345, "7.25%"], ["Lee", 1_000_000, "n/a"]],
        col_widths=[150, 100, 80],
        money_columns=[1],
        right_columns=[2],
        total_row=["Site", 1_012_345, "15.00%"],
    )
    words = {w["text"]: w for w in words_of(render(table))}
    money = [words[t] for t in ("$123.45", "$10,000.00", "$10,123.45")]
    ratios = [words[t] for t in ("7.25%", "n/a", "15.00%")]
    for column in (money, ratios):
        assert max(w["x1"] for w in column) - min(w["x1"] for w in column) < 0.5
    assert abs(words["Pat"]["x0"] - words["Site"]["x0"]) < 0.5
    assert all("Bold" in words[t]["fontname"] for t in ("Dealer", "AGP", "Site", "$10,123.45", "15.00%"))
    assert not any("Bold" in words[t]["fontname"] for t in ("Pat", "$123.45", "7.25%"))


def test_a_grid_of_plain_cells_runs_over_pages_with_its_header_and_only_the_last_row_bold():
    rows = [[f"Line {n}", n * 100] for n in range(1, 60)]
    table = data_table(["Line", "Amount"], rows, col_widths=[200, 100], money_columns=[1], total_row=["Total", 1])
    pdf = render(table)
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        pages = [page.extract_words(extra_attrs=["fontname"]) for page in document.pages]
    assert len(pages) == 2, "the test wants a table split once"
    for words in pages:
        header = [w for w in words if w["text"] == "Amount"]
        assert header and "Bold" in header[0]["fontname"]
    first_page_cells = [w for w in pages[0] if w["text"].startswith("$")]
    assert first_page_cells and not any("Bold" in w["fontname"] for w in first_page_cells)
    total = next(w for w in pages[1] if w["text"] == "Total")
    assert "Bold" in total["fontname"]
    assert render(table) == pdf


LINES = [
    ("Resolution: Difference resolved by recount: A $20 stuck & <kept>", "body"),
    ("Box 3 - table 2 (agreed)", "heading"),
    ("Prepared and reviewed", "small"),
    ("Forms exception: " + ("a long explanation that goes on " * 6).strip(), "body"),  # wraps: drawn as its lines
    ("two  spaces collapse", "body"),  # whitespace a Paragraph collapses: a Paragraph
]


def test_a_line_prints_its_words_where_the_paragraph_would_and_wraps_as_one():
    as_lines = words_of(render(*[Line(text, style) for text, style in LINES]))
    as_paragraphs = words_of(render(*[para(text, style) for text, style in LINES]))
    key = ("text", "fontname", "x0", "top")
    assert [[w[k] for k in key] for w in as_lines] == [[w[k] for k in key] for w in as_paragraphs]
    assert max(w["top"] for w in as_lines) > min(w["top"] for w in as_lines if w["text"] == "Forms") + 10


def test_a_line_too_wide_for_its_frame_becomes_the_paragraph():
    one, wide = Line("short"), Line("word " * 200)
    assert one.wrap(500, 1000) == (500, styles()["body"].leading)
    width, height = wide.wrap(500, 1000)
    assert height > 5 * styles()["body"].leading and wide.split(500, 30)


def pages_of(pdf: bytes) -> list[list[list]]:
    key = ("text", "fontname", "x0", "top")
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        return [[[w[k] for k in key] for w in page.extract_words(extra_attrs=["fontname"])] for page in document.pages]


def test_lines_that_wrap_and_run_over_a_page_read_back_as_their_paragraphs_on_every_page():
    texts = [(f"Rule {n}: " + ("the dealer settles every wager in turn before the next round " * (n % 4 + 1)).strip(),
              "small" if n % 5 == 0 else "body") for n in range(70)]  # fmt: skip
    as_lines = pages_of(render(*[Line(text, style) for text, style in texts]))
    assert len(as_lines) >= 3, "the test wants lines that wrap over several pages"
    assert as_lines == pages_of(render(*[para(text, style) for text, style in texts]))


@pytest.mark.django_db
def test_the_house_rules_read_back_as_their_paragraphs_did_on_every_page(site):
    from reports.kinds import house_rules
    from reports.registry import ReportContext
    from tests.factories import TableFactory

    for number in range(1, 7):
        TableFactory(site=site, number=number, game="21")
    end = date(2026, 11, 20)
    data = house_rules.build(ReportContext(site.organization, site, end, end, str(end), end))
    story = house_rules.render(data)
    assert len(story) > 100 and all(isinstance(line, Line) for line in story)
    as_lines = pages_of(render(*story))
    assert len(as_lines) >= 2
    assert as_lines == pages_of(render(*[para(line.text, line.style_name) for line in story]))
