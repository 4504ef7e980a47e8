"""A fill or credit slip PDF, read back: every item ND 99-01.3-08-05(3) asks for, on both parts."""

import io
from datetime import UTC, date, datetime

import pytest
from pypdf import PdfReader

from cardroom.models import Role
from floor.models import GamingDay, Slip, SlipLine, SlipStep
from floor.pdf_slips import build_slip_document, render_slip_pdf

PRINTED_AT = datetime(2026, 11, 14, 9, 0, tzinfo=UTC)
# 02:05 and 03:10 a.m. in Chicago (CST, UTC-6).
PREPARED_AT = datetime(2026, 11, 14, 8, 5, tzinfo=UTC)
VERIFIED_AT = datetime(2026, 11, 14, 8, 9, tzinfo=UTC)
RECEIVED_AT = datetime(2026, 11, 14, 9, 10, tzinfo=UTC)


@pytest.fixture
def day(site, cast):
    return GamingDay.objects.create(
        site=site, gaming_date=date(2026, 11, 13), opened_at=PREPARED_AT, opened_by=cast[Role.SHIFT_MANAGER]
    )


def make_slip(kind, number, table, day, preparer, chips, quantities, prepared_as="", signer=None, signed_as=""):
    slip = Slip.objects.create(
        prepared_as=prepared_as,
        signed_by=signer,
        signed_initials=signer.initials if signer else "",
        signed_as=signed_as,
        site=table.site,
        kind=kind,
        number=number,
        table=table,
        gaming_day=day,
        game=table.game,
        table_number=table.number,
        prepared_at=PREPARED_AT,
        prepared_by=preparer,
        total_cents=sum(value * qty for value, qty in quantities.items()),
    )
    for value, qty in quantities.items():
        SlipLine.objects.create(slip=slip, denomination=chips[value], value_cents=value, quantity=qty)
    return slip


def sign(slip, kind, employee, at, reason="", signed_as=""):
    SlipStep.objects.create(
        slip=slip, kind=kind, employee=employee, initials=employee.initials, at=at, reason=reason, signed_as=signed_as
    )


@pytest.fixture
def fill(table, day, cast, chips):
    cashier = cast[Role.CASHIER]
    slip = make_slip(
        "fill", 101, table, day, cashier, chips, {100: 40, 500: 20, 2500: 4}, "cashier", cashier, "cashier"
    )
    sign(slip, SlipStep.Kind.VERIFY, cast[Role.SHIFT_MANAGER], VERIFIED_AT, signed_as="shift_manager")
    sign(slip, SlipStep.Kind.RECEIVE, cast[Role.DEALER], RECEIVED_AT, signed_as="dealer")
    return slip


def pages_of(slip, **kwargs) -> list[str]:
    pdf = render_slip_pdf(build_slip_document(slip, generated_by="Pat Manager", generated_at=PRINTED_AT, **kwargs))
    return [" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf)).pages]


def parts_of(text: str) -> tuple[str, str]:
    """The ORIGINAL (printed first) and the COPY."""
    start = text.rindex("SLIP No.", 0, text.index(" COPY "))
    return text[:start], text[start:]


def test_fill_slip_prints_both_parts_with_every_required_item(fill, cast, site):
    (text,) = pages_of(fill)
    original, copy = parts_of(text)
    assert "FILL SLIP No. 101 ORIGINAL" in original and copy.startswith("SLIP No. 101 COPY")
    for part in (original, copy):
        assert "21 (Twenty-one)" in part
        assert site.name in part
        # ISO dates; the time with a.m. or p.m. as ND 99-01.3-08-05(3)(a) writes it
        assert "2026-11-14" in part and "2:05 a.m." in part and "11/14/2026" not in part
        assert "Table number 1" in part
        # quantity and value by denomination, and the grand total
        assert "$1.00 40 $40.00" in part
        assert "$5.00 20 $100.00" in part
        assert "$25.00 4 $100.00" in part
        assert "$100.00 0 $0.00" in part
        assert "Grand total 64 $240.00" in part
        # 08-05(3)(c) and each set of initials labelled with the capacity that signed
        assert f"Prepared by: Chip bank cashier {cast[Role.CASHIER].initials}" in part
        assert f"Initials (08-05(3)(c)): Chip bank cashier {cast[Role.CASHIER].initials}" in part
        assert f"Verified by (original): Shift manager {cast[Role.SHIFT_MANAGER].initials}" in part
        assert "2:09 a.m." in part
        assert f"Received (copy): Dealer {cast[Role.DEALER].initials}" in part and "3:10 a.m." in part
    assert "VOID" not in text


def test_the_series_and_where_each_part_goes_are_printed(fill):
    (text,) = pages_of(fill)
    assert "Fill slip series, Elks Lodge" in text
    assert "Retained by the chip bank cashier" in text
    assert "the dealer initials it and deposits it in the drop box" in text


def test_credit_slip_names_the_dealer_as_preparer_and_the_cashier_as_receiver(table, day, cast, chips):
    dealer = cast[Role.DEALER]
    slip = make_slip("credit", 7, table, day, dealer, chips, {2500: 10}, "dealer", dealer, "dealer")
    (text,) = pages_of(slip)
    assert "CREDIT SLIP No. 7" in text
    assert f"Prepared by: Dealer {dealer.initials}" in text
    assert f"Initials (08-05(3)(c)): Dealer {dealer.initials}" in text
    assert "Received (copy)" in text
    assert "Grand total 10 $250.00" in text


def test_a_voided_slip_prints_void_with_initials_and_reason(table, day, cast, chips):
    slip = make_slip("fill", 102, table, day, cast[Role.CASHIER], chips, {500: 3})
    sign(slip, SlipStep.Kind.VOID, cast[Role.CASHIER], VERIFIED_AT, reason="Wrong table")
    (text,) = pages_of(slip)
    assert text.count("VOID initialed by") == 2
    assert f"VOID initialed by {cast[Role.CASHIER].initials}" in text
    assert text.count("Wrong table") == 2
    assert text.count("VOID") >= 4  # the diagonal mark and the signature line, on both parts


def test_times_are_in_the_site_time_zone(fill, site):
    site.time_zone = "America/Denver"
    site.save()
    (text,) = pages_of(fill)
    assert "1:05 a.m. (America/Denver)" in text


def test_unsigned_steps_print_blank(table, day, cast, chips):
    slip = make_slip("fill", 103, table, day, cast[Role.PIT_BOSS], chips, {100: 1})
    doc = build_slip_document(slip, generated_by="x", generated_at=PRINTED_AT)
    assert [s.initials for s in doc.signatures] == [cast[Role.PIT_BOSS].initials, "", "", ""]


def test_the_same_slip_prints_byte_identical(fill):
    build = lambda: render_slip_pdf(build_slip_document(fill, generated_by="P", generated_at=PRINTED_AT))  # noqa: E731
    assert build() == build()
