"""Count sheets for a date range (ND 99-01.3-08-14(4)) read back against the count-session API,
and the batched builder against the one-session sheet."""

# ruff: noqa: F811  (pytest fixtures imported from test_kind_daily are redefined as arguments)

from datetime import timedelta

import pytest
import time_machine

from cardroom.models import Role
from core.money import format_money
from counts import pdf, services
from counts.models import CountSession
from reports.columns import headings
from reports.kinds import count_sheets
from tests.accounting.scenario import Scenario
from tests.counts.conftest import COUNT_TIME, GAMING_DATE, cash, remove_box
from tests.factories import TableFactory, make_person
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


@pytest.fixture
def counters(org, site):
    return (
        make_person(org, Role.COUNT_TEAM, site, employment_type="independent", initials="IC"),
        make_person(org, Role.COUNT_TEAM, site, employment_type="gaming", initials="NG"),
    )


@pytest.fixture
def counted(site, manager, cast, counters):
    """Two boxes on GAMING_DATE: box 1 matched with fill #101 found (fill #102 issued, not in
    the box); box 2 counted $100 and $80, resolved by recount at $100. Both members signed."""
    shift_manager = cast[Role.SHIFT_MANAGER]
    tables = [TableFactory(site=site, number=n) for n in (1, 2)]
    boxes = [services.register_drop_box(acting_user=manager.user, table=t) for t in tables]
    for box in boxes:
        remove_box(shift_manager, box, counters[0])
    slips = Scenario(site, {"shift": shift_manager})
    slips.slip(tables[0], GAMING_DATE, "fill", 20_000, number=101)
    slips.slip(tables[0], GAMING_DATE, "fill", 5_000, number=102)
    first, second = counters
    with time_machine.travel(COUNT_TIME, tick=False):
        session = services.open_count_session(
            acting_user=first.user, site=site, gaming_date=GAMING_DATE, members=counters, at=COUNT_TIME
        )
        for member in counters:
            services.record_blind_count(
                acting_user=member.user,
                session=session,
                drop_box=boxes[0],
                currency=cash(b100=3, b20=5, c25=4),
                forms=[{"kind": "fill", "number": 101}],
            )
        services.record_blind_count(acting_user=first.user, session=session, drop_box=boxes[1], currency=cash(b20=5))
        services.record_blind_count(acting_user=second.user, session=session, drop_box=boxes[1], currency=cash(b20=4))
        services.resolve_difference(
            acting_user=first.user, session=session, drop_box=boxes[1], currency=cash(b20=5), note="A $20 stuck"
        )
        for member in counters:
            services.sign_count(acting_user=member.user, session=session)
    return session


def test_the_count_sheets_show_each_box_both_counts_the_resolution_and_the_drop_as_the_api_does(
    auditor_api, site, counted
):
    run = run_report(auditor_api, kind="count_sheets", site=site.pk, start=str(GAMING_DATE), end=str(GAMING_DATE))
    content = download(auditor_api, run)
    api = auditor_api.get(f"/api/v1/count-sessions/{counted.pk}/").json()
    grids = [g for g in pdf_tables(content) if g[0][0] == "Denomination"]
    assert len(grids) == len(api["boxes"]) == 2
    for grid, box in zip(grids, api["boxes"], strict=True):
        assert grid[0] == ["Denomination", "Count IC", "Count NG", "Agreed qty", "Agreed amount"]
        totals = [format_money(c["total_cents"]) for c in box["counts"]]
        assert grid[-1] == ["Total", *totals, "", format_money(box["agreed_drop_cents"])]
    assert grids[1][1] == ["$20 bill", "5", "4", "5", "$100.00"]
    text = pdf_text(content)
    total = sum(b["agreed_drop_cents"] for b in api["boxes"])
    assert f"Agreed drop, all boxes: {format_money(total)}" in text
    assert "Resolution: Difference resolved by recount: A $20 stuck" in text
    assert "Forms found: fill #101" in text
    assert "Fill slip #102: issued, not in the box - NOT EXPLAINED" in text
    for signature in api["signatures"]:
        assert f"{signature['initials']} (" in text
    assert "This count is not signed by both members yet." not in text
    sheet = pdf.build_count_sheet(counted)
    assert f"Count sheet, gaming day {GAMING_DATE}" in text
    assert f"Count team: {sheet.team}" in text
    for box in sheet.boxes:
        assert f"{box.title} ({box.status})" in text


def test_the_batched_sheet_is_the_one_session_sheet_and_the_csv_has_its_rows(auditor_api, site, counted):
    sheets = pdf.build_count_sheets(site, GAMING_DATE - timedelta(days=3), GAMING_DATE + timedelta(days=3))
    assert sheets == [pdf.build_count_sheet(counted)]
    run = run_report(auditor_api, kind="count_sheets", site=site.pk, start=str(GAMING_DATE), end=str(GAMING_DATE))
    rows = csv_rows(auditor_api, run)
    assert rows[0] == headings(count_sheets.COLUMNS)
    totals = [dict(zip(rows[0], r, strict=True)) for r in rows[1:] if r[3] == "Total"]
    assert [r["Agreed amount"] for r in totals] == [dollars(b.agreed_cents) for b in sheets[0].boxes]
    assert totals[1]["Resolution"] == "Difference resolved by recount: A $20 stuck"


def test_a_box_removed_but_not_counted_shows_as_awaiting_without_figures(site, manager, cast, counters):
    table = TableFactory(site=site, number=5)
    box = services.register_drop_box(acting_user=manager.user, table=table)
    remove_box(cast[Role.SHIFT_MANAGER], box, counters[0])
    with time_machine.travel(COUNT_TIME, tick=False):
        services.open_count_session(
            acting_user=counters[0].user, site=site, gaming_date=GAMING_DATE, members=counters, at=COUNT_TIME
        )
    (sheet,) = count_sheets.build(context(site, GAMING_DATE, GAMING_DATE)).sheets
    assert [(b.status, b.members, b.agreed_cents) for b in sheet.boxes] == [("awaiting", (), None)]
    count_sheets.render(count_sheets.build(context(site, GAMING_DATE, GAMING_DATE)))


def test_a_period_without_a_count_says_so(auditor_api, site):
    run = run_report(auditor_api, kind="count_sheets", site=site.pk, start="2026-01-01", end="2026-01-02")
    assert "No count session at this site in the period." in pdf_text(download(auditor_api, run))


def test_building_the_count_sheets_takes_bounded_queries_whatever_the_period(
    site, counted, counters, django_assert_max_num_queries
):
    scenario = Scenario(site, {"shift": counters[0], "count1": counters[0], "count2": counters[1]})
    for n in range(1, 30):
        for number in (1, 2, 3):
            table = TableFactory(site=site, number=10 + number) if n == 1 else site.tables.get(number=10 + number)
            scenario.drop(table, GAMING_DATE + timedelta(days=n), 10_000 * number)
    for start, end in ((GAMING_DATE, GAMING_DATE), (GAMING_DATE, GAMING_DATE + timedelta(days=60))):
        with django_assert_max_num_queries(12):
            data = count_sheets.build(context(site, start, end))
        count_sheets.render(data)
    assert len(data.sheets) == CountSession.objects.filter(site=site).count() == 30


def test_the_batched_figures_and_relations_are_each_entrys_own(site, counted):
    """The batch reads each entry's lines and forms as values and shares one instance of each
    employee, box and table (counts.pdf, issue 37): each entry's figures equal
    `queries.member_figures_of` of the entry as the ORM reads it, and each entry names the same
    person, box, table and site."""
    from counts import queries
    from counts.models import CountEntry

    sessions = list(CountSession.objects.filter(site=site))
    batch = pdf._Batch.load(site, sessions, GAMING_DATE, GAMING_DATE)
    loaded = [entry for entries in batch.entries.values() for entry in entries]
    fresh = {e.pk: e for e in CountEntry.objects.filter(session__in=sessions)}
    assert len(loaded) == len(fresh) >= 5  # both members' counts of both boxes, and the recount
    assert batch.figures == {pk: queries.member_figures_of(entry) for pk, entry in fresh.items()}
    assert any(f.forms for f in batch.figures.values()) and all(f.lines for f in batch.figures.values())
    for entry in loaded:
        own = fresh[entry.pk]
        assert (entry.entered_by, str(entry.entered_by), entry.drop.drop_box, entry.drop.table, entry.drop.site) == (
            own.entered_by,
            str(own.entered_by),
            own.drop.drop_box,
            own.drop.table,
            own.drop.site,
        )
    assert len({id(entry.drop.table) for entry in loaded}) == 2  # one instance a table, shared
