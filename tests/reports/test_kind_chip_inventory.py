"""The casino chips inventory log (SFN 17930) read back against the cage's book and counts."""

# ruff: noqa: F811  (pytest fixtures imported from test_kind_daily are redefined as arguments)

from datetime import date

import pytest

from cage import queries, services
from core.money import format_money
from reports.kinds import chip_inventory
from tests.reports.test_kind_daily import (  # noqa: F401  (fixtures)
    auditor_api,
    context,
    csv_rows,
    dollars,
    download,
    pdf_tables,
    pdf_text,
    run_report,
)

AS_OF = date(2026, 11, 5)


@pytest.fixture
def inventory(org, site, chips, manager, time_machine):
    time_machine.move_to("2026-12-01")
    services.receive_chips(
        acting_user=manager.user,
        organization=org,
        received_on=date(2026, 10, 1),
        reference="Invoice 4471",
        chips={500: 1000, 2500: 200},
    )
    services.destroy_chips(
        acting_user=manager.user,
        organization=org,
        destroyed_on=date(2026, 10, 15),
        reference="Witness: AT",
        chips={500: 40},
    )
    services.record_chip_inventory_count(
        acting_user=manager.user,
        organization=org,
        counted_on=date(2026, 11, 1),
        note="Quarterly count",
        locations=[
            {"location": "bank", "site": site.pk, "chips": {500: 700, 2500: 150}},
            {"location": "storage", "chips": {2500: 45}},
        ],
    )
    services.receive_chips(
        acting_user=manager.user,
        organization=org,
        received_on=date(2026, 11, 20),
        reference="Invoice 5000",
        chips={10000: 50},
    )  # after the report's date


def test_the_log_lists_receipts_destruction_and_counts_with_the_book_after_each(auditor_api, site, org, inventory):
    run = run_report(auditor_api, kind="chip_inventory", site=site.pk, end=str(AS_OF))
    content = download(auditor_api, run)
    grid = next(g for g in pdf_tables(content) if g[0][0] == "Date")
    assert grid[0] == ["Date", "Event", "Reference", "Initials", "$25", "$5", "Value", "Book after", "Outstanding"]
    dates = [row[0] for row in grid[1:]]
    assert dates == ["2026-10-01", "2026-10-15", "2026-11-01"]  # the receipt of 2026-11-20 is after the date
    for row, day in zip(grid[1:], dates, strict=True):
        book = queries.chip_book(org, date.fromisoformat(day))
        assert row[7] == format_money(sum(v * q for v, q in book.items()))
    assert grid[2][4:7] == ["", "-40", format_money(-40 * 500)]
    assert grid[3][1] == "Physical count" and grid[3][4:6] == ["195", "700"]


def test_chips_outstanding_are_the_book_minus_every_location_counted(auditor_api, site, org, inventory):
    run = run_report(auditor_api, kind="chip_inventory", site=site.pk, end=str(AS_OF))
    content = download(auditor_api, run)
    outstanding = queries.chips_outstanding(org, AS_OF)
    grid = next(g for g in pdf_tables(content) if g[0][0] == "Chip")
    assert grid[1:-1] == [
        [
            label,
            str(outstanding.book[v]),
            str(outstanding.counted[v]),
            str(outstanding.outstanding[v]),
            format_money(v * outstanding.outstanding[v]),
        ]
        for label, v in (("$25", 2500), ("$5", 500))
    ]
    assert grid[-1][4] == format_money(outstanding.outstanding_cents) == format_money(5 * 2500 + 260 * 500)
    text = " ".join(pdf_text(content).split())
    assert "Chips outstanding as of 2026-11-05 (book minus the physical count of 2026-11-01)" in text
    rows = csv_rows(auditor_api, run)
    assert rows[0] == ["Date", "Event", "Reference", "Initials", "$25.00 chips", "$5.00 chips", "Value", "Book after",
                       "Outstanding"] and len(rows) == 5  # fmt: skip
    assert rows[-1] == ["2026-11-05", "outstanding", "", "", "5", "260", "", dollars(outstanding.book_cents),
                        dollars(outstanding.outstanding_cents)]  # fmt: skip


def test_building_the_chip_log_takes_bounded_queries_however_long_the_history(
    site, org, manager, inventory, django_assert_max_num_queries
):
    with django_assert_max_num_queries(13):  # the log's reads and the chip float's three
        chip_inventory.build(context(site, AS_OF, AS_OF))
    for n in range(20):
        services.receive_chips(
            acting_user=manager.user,
            organization=org,
            received_on=date(2026, 9, 1 + n),
            reference=f"Invoice {n}",
            chips={500: 10, 100: 5},
        )
    with django_assert_max_num_queries(13):
        data = chip_inventory.build(context(site, AS_OF, AS_OF))
    assert len(data.lines) == 23


def test_the_chip_float_exist_banks_trays_outstanding_is_read_back_from_the_pdf(
    auditor_api, site, org, table, cast, inventory, time_machine
):
    """Issue 36: the report's float as of its date: exist (the log) = the bank's last count + the
    trays' last counts + outstanding; a value the banks and trays hold more of than exist is marked."""
    from cardroom.models import Role
    from floor import services as floor

    time_machine.move_to("2026-11-04T20:00:00-06:00")
    shift = cast[Role.SHIFT_MANAGER]
    floor.open_gaming_day(acting_user=shift.user, site=site, gaming_date=date(2026, 11, 4))
    services.record_bank_count(acting_user=cast[Role.CASHIER].user, site=site, gaming_date=date(2026, 11, 4),
                               kind="start", cash={2000: 50}, chips={2500: 150, 500: 700})  # fmt: skip
    floor.record_table_inventory(acting_user=shift.user, table=table, kind="opener",
                                 chips=[{"denomination": 2500, "quantity": 60}, {"denomination": 500, "quantity": 100}])  # fmt: skip
    time_machine.move_to("2026-12-01")
    run = run_report(auditor_api, kind="chip_inventory", site=site.pk, end=str(AS_OF))
    content = download(auditor_api, run)
    grid = next(g for g in pdf_tables(content) if g[0][:5] == ["Chip", "Exist (log)", "Banks", "Trays", "Elsewhere"])
    assert grid[1:] == [
        ["$25", "200", "150", "60", "-10", "more than exist"],
        ["$5", "960", "700", "100", "160", ""],
    ]
    text = " ".join(pdf_text(content).split())
    assert "Chip float as of 2026-11-05: exist = banks + trays + elsewhere" in text
    assert (
        f"Exist {format_money(200 * 2500 + 960 * 500)}; banks {format_money(150 * 2500 + 700 * 500)}; trays "
        f"{format_money(60 * 2500 + 100 * 500)}; elsewhere {format_money(-10 * 2500 + 160 * 500)}."
    ) in text
    assert "The banks and trays hold more chips than exist." in text
    # Asked at a site and headed with its name, it reconciles the organization's chips, and says so.
    assert (
        f"The chips of {org.name}: one inventory log and one float for all its sites, every site's bank and "
        "tables, whichever site the report is requested at."
    ) in text


def test_before_any_physical_count_no_chips_outstanding_are_known_and_it_says_so(auditor_api, site, inventory):
    run = run_report(auditor_api, kind="chip_inventory", site=site.pk, end="2026-10-20")
    text = " ".join(pdf_text(download(auditor_api, run)).split())
    assert "Chips outstanding as of 2026-10-20: no physical count yet" in text
    assert f"Book {format_money(960 * 500 + 200 * 2500)}. No physical count of the chips on or before" in text
    assert "book minus no physical count" not in text and "counted $0.00" not in text


def test_a_quarter_still_running_is_reconciled_as_of_the_day_asked_not_its_end(
    auditor_api, site, inventory, time_machine
):
    """Asked on 2026-11-20 for 2026Q4, the log's chips outstanding and float are as of 2026-11-20:
    a report does not date figures on a day still to come (2026-12-31)."""
    time_machine.move_to("2026-11-20T12:00:00-06:00")
    run = run_report(auditor_api, kind="chip_inventory", site=site.pk, quarter="2026Q4")
    text = " ".join(pdf_text(download(auditor_api, run)).split())
    assert "Chips outstanding as of 2026-11-20" in text and "Chip float as of 2026-11-20" in text
    assert "as of 2026-12-31" not in text


def test_with_no_physical_count_yet_the_report_says_so_and_prints_no_counted_or_outstanding_figure(
    auditor_api, site, org, chips, manager, time_machine
):
    """Outstanding is what a physical count finds missing from the book: before any count it is
    not known, never the whole book "outstanding" against a "counted $0.00"."""
    time_machine.move_to("2026-12-01")
    services.receive_chips(acting_user=manager.user, organization=org, received_on=date(2026, 10, 1),
                           reference="Invoice 4471", chips={500: 1000, 2500: 200})  # fmt: skip
    run = run_report(auditor_api, kind="chip_inventory", site=site.pk, end=str(AS_OF))
    content = download(auditor_api, run)
    text = " ".join(pdf_text(content).split())
    book = format_money(1000 * 500 + 200 * 2500)
    assert f"Chips outstanding as of {AS_OF}: no physical count yet" in text
    assert f"Book {book}. No physical count of the chips on or before {AS_OF}, so no chips outstanding" in text
    assert "counted $0.00" not in text and f"outstanding {book}" not in text
    grid = next(g for g in pdf_tables(content) if g[0][0] == "Chip")
    assert grid == [["Chip", "Book quantity", "Book value"], ["$25", "200", format_money(200 * 2500)],
                    ["$5", "1000", format_money(1000 * 500)], ["Total", "", book]]  # fmt: skip
    rows = csv_rows(auditor_api, run)
    # An empty cell is a figure not known (reports.exports): the outstanding quantities and value.
    assert rows[-1] == [str(AS_OF), "outstanding", "", "", "", "", "", dollars(1000 * 500 + 200 * 2500), ""]
