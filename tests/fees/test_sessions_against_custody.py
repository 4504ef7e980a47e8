"""A New York (session) site's day sets its sessions' typed receipts and prizes against the floor's
custody of the same day: the receipts against the drop counted (once the two-person count is
signed), the prizes against what the tables paid out in chips (fills - credits + opener - closer),
each difference said in plain words and cited as a house control, on the daily page and in the
day's section of the daily report, PDF and CSV. Before, a night whose receipts were typed $1,906
for $1,096 passed silently. A drop or fees site's page shows no such block. Driven through the
floor's, the count's and the sessions' services; read back from the page, the PDF and the CSV."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from cardroom.models import Role
from counts import services as counts
from fees import services
from floor import services as floor
from tests.factories import SiteFactory, TableFactory, make_chips, make_person
from tests.page_support import at_site, page
from tests.reports.test_kind_daily import csv_rows, download, pdf_text, run_report

DAY = date(2026, 8, 14)
EASTERN = ZoneInfo("America/New_York")

OPENER = [{"denomination": 100, "quantity": 300}, {"denomination": 500, "quantity": 200}]  # $1,300
FILL = [{"denomination": 500, "quantity": 100}]  # $500
CREDIT = [{"denomination": 100, "quantity": 100}]  # $100
CLOSER = [{"denomination": 100, "quantity": 208}, {"denomination": 500, "quantity": 100}]  # $708
# Kingston's night: $1,096 in the box; the tables paid out 500 - 100 + 1,300 - 708 = $992.
BOX = [
    {"denomination_cents": 10000, "quantity": 10},
    {"denomination_cents": 2000, "quantity": 4},
    {"denomination_cents": 1000, "quantity": 1},
    {"denomination_cents": 500, "quantity": 1},
    {"denomination_cents": 100, "quantity": 1},
]
RECEIPTS, PRIZES = 109_600, 99_200

pytestmark = pytest.mark.django_db


def at(hh_mm: str) -> datetime:
    hour, minute = map(int, hh_mm.split(":"))
    return datetime(DAY.year, DAY.month, DAY.day, hour, minute, tzinfo=EASTERN)


def floor_day(org, site, *, counted: bool = True, max_wager_cents: int = 500, forms=None) -> None:
    """One table's night at `site` through the floor's and the count's services: opener $1,300, a
    $500 fill, a $100 credit, closer $708; its box ($1,096) counted blind by two and signed (`forms`:
    the slips found in it, as `counts.services.record_blind_count` takes them)."""
    make_chips(org)
    people = {role: make_person(org, role, site) for role in (Role.SHIFT_MANAGER, Role.PIT_BOSS, Role.CASHIER)}
    manager, dealer = make_person(org, Role.GAMING_MANAGER, site), make_person(org, Role.DEALER, site)
    team = [make_person(org, Role.COUNT_TEAM, site, employment_type="non_gaming") for _ in range(2)]
    table = TableFactory(site=site, number=1, max_wager_cents=max_wager_cents, decks=2, tie_option=1)
    floor.register_slip_book(acting_user=manager.user, site=site, kind="fill", first_number=1, last_number=50)
    floor.register_slip_book(acting_user=manager.user, site=site, kind="credit", first_number=1, last_number=50)
    box = counts.register_drop_box(acting_user=manager.user, table=table)
    shift, boss, cashier = (people[r].user for r in (Role.SHIFT_MANAGER, Role.PIT_BOSS, Role.CASHIER))
    floor.open_gaming_day(acting_user=shift, site=site, gaming_date=DAY, at=at("17:55"))
    floor.record_table_inventory(acting_user=shift, table=table, kind="opener", chips=OPENER, at=at("18:00"))
    floor.start_dealer_shift(acting_user=shift, table=table, dealer=dealer, started_at=at("18:05"))
    fill = floor.prepare_fill(acting_user=cashier, table=table, chips=FILL, number=1, at=at("20:00"))
    floor.verify_slip(acting_user=boss, slip=fill, at=at("20:01"))
    floor.receive_slip(acting_user=dealer.user, slip=fill, at=at("20:02"))
    credit = floor.prepare_credit(acting_user=boss, table=table, chips=CREDIT, number=1, at=at("21:00"))
    floor.verify_slip(acting_user=shift, slip=credit, at=at("21:01"))
    floor.receive_slip(acting_user=cashier, slip=credit, at=at("21:02"))
    floor.record_table_inventory(acting_user=shift, table=table, kind="closer", chips=CLOSER, at=at("23:00"))
    counts.remove_drop_box(
        acting_user=shift, drop_box=box, gaming_date=DAY, removed_at=at("23:10"), storage_place="office safe",
        key_holder=team[0], escorted_by=people[Role.PIT_BOSS],
    )  # fmt: skip
    if not counted:
        return
    session = counts.open_count_session(
        acting_user=team[0].user, site=site, gaming_date=DAY, members=team, at=at("23:20")
    )
    for member in team:
        counts.record_blind_count(
            acting_user=member.user, session=session, drop_box=box, currency=BOX, forms=forms, at=at("23:30")
        )
    for member, signed in zip(team, ("23:40", "23:41"), strict=True):
        counts.sign_count(acting_user=member.user, session=session, at=at(signed))


def typed_session(ny_shift, ny_site, receipts: int, prizes: int = PRIZES) -> None:
    services.record_session(
        acting_user=ny_shift.user, site=ny_site, licence_number="NY-1", started_at=at("19:00"),
        ended_at=at("22:00"), receipts_cents=receipts, prizes_cents=prizes,
    )  # fmt: skip


def _flat(text: str) -> str:
    return " ".join(text.split())


def _daily_page(client, cast, site) -> str:
    return _flat(page(at_site(client, cast[Role.AUDITOR], site).get(f"/dashboard/daily/?date={DAY}")))


def _report(client_for, cast, site) -> tuple[str, list[list[str]]]:
    api = client_for(cast[Role.AUDITOR])
    run = run_report(api, kind="daily", site=site.pk, start=str(DAY), end=str(DAY))
    return _flat(pdf_text(download(api, run))), csv_rows(api, run)


def _check_rows(rows: list[list[str]]) -> dict[str, str]:
    header, *rows = rows
    figure, amount = header.index("Figure"), header.index("Amount")
    return {r[figure]: r[amount] for r in rows if r[0] == str(DAY) and r[1] == "sessions_against_custody"}


def test_a_night_whose_sessions_agree_with_its_custody_shows_both_equal(
    client, client_for, cast, org, ny_site, ny_shift
):
    floor_day(org, ny_site)
    typed_session(ny_shift, ny_site, RECEIPTS)
    shown = _daily_page(client, cast, ny_site)
    assert 'id="sessions-against-custody"' in shown and "House control" in shown
    assert '<th>Drop counted</th><td class="text-end">$1,096.00</td>' in shown
    assert "Receipts equal the drop counted: difference $0.00." in shown
    assert "Prizes paid equal what the tables paid out: difference $0.00." in shown
    text, rows = _report(client_for, cast, ny_site)
    assert "Sessions against the floor's custody (House control" in text
    assert "Receipts $1,096.00 Drop counted $1,096.00 Difference (receipts - drop counted) $0.00" in text
    assert "Prizes paid $992.00 Paid out at the tables (fills - credits + opener - closer) $992.00" in text
    assert "Receipts equal the drop counted: difference $0.00." in text
    assert _check_rows(rows) == {
        "Receipts": "1096.00",
        "Drop counted": "1096.00",
        "Difference (receipts - drop counted)": "0.00",
        "Prizes paid": "992.00",
        "Paid out at the tables (fills - credits + opener - closer)": "992.00",
        "Difference (prizes paid - paid out at the tables)": "0.00",
        "Receipts equal the drop counted: difference $0.00.": "",
        "Prizes paid equal what the tables paid out: difference $0.00.": "",
    }


def test_receipts_typed_ten_dollars_over_the_drop_counted_are_said_on_the_page_the_pdf_and_the_csv(
    client, client_for, cast, org, ny_site, ny_shift
):
    floor_day(org, ny_site)
    typed_session(ny_shift, ny_site, RECEIPTS + 1_000)
    said = "Receipts $10.00 more than the drop counted (House control)."
    shown = _daily_page(client, cast, ny_site)
    assert said in shown and "Prizes paid equal what the tables paid out: difference $0.00." in shown
    text, rows = _report(client_for, cast, ny_site)
    assert said in text and "Difference (receipts - drop counted) $10.00" in text
    check = _check_rows(rows)
    assert check["Difference (receipts - drop counted)"] == "10.00" and said in check


def test_prizes_typed_under_the_tables_payout_are_said_as_less(client, cast, org, ny_site, ny_shift):
    floor_day(org, ny_site)
    typed_session(ny_shift, ny_site, RECEIPTS, prizes=PRIZES - 2_500)
    assert "Prizes paid $25.00 less than what the tables paid out (House control)." in _daily_page(
        client, cast, ny_site
    )


def test_a_night_whose_drop_is_not_counted_yet_says_so(client, client_for, cast, org, ny_site, ny_shift):
    floor_day(org, ny_site, counted=False)
    typed_session(ny_shift, ny_site, RECEIPTS)
    said = (
        "The drop is not counted yet (1 drop box without a signed count): the receipts are set against it once its "
        "count is signed."
    )
    shown = _daily_page(client, cast, ny_site)
    assert said in shown and '<th>Drop counted</th><td class="text-end">not counted yet</td>' in shown
    assert "Prizes paid equal what the tables paid out: difference $0.00." in shown  # the trays are counted
    text, rows = _report(client_for, cast, ny_site)
    assert said in text and "Drop counted not counted yet" in text
    check = _check_rows(rows)
    assert check["Drop counted"] == "" and check["Difference (receipts - drop counted)"] == "" and said in check


def test_a_drop_site_and_a_fees_site_show_no_sessions_against_custody(client, cast, org, ny_site, ny_shift, site):
    floor_day(org, ny_site)
    typed_session(ny_shift, ny_site, RECEIPTS)
    assert 'id="sessions-against-custody"' in _daily_page(client, cast, ny_site)
    north_dakota = SiteFactory(organization=org, name="Minot Lodge")
    floor_day(org, north_dakota, max_wager_cents=2500)
    for elsewhere in (north_dakota, site):  # `site`: the Washington blackjack (fees) site
        shown = _daily_page(client, cast, elsewhere)
        assert "Sessions against the floor's custody" not in shown and 'id="sessions-against-custody"' not in shown


def test_a_second_box_of_the_table_not_counted_leaves_the_drop_not_counted(client, cast, org, ny_site, ny_shift):
    """The drop is known once every box of the day is in a signed count, as closing the books asks:
    a table with one box counted and a second placed is not counted yet (it said "$500.00 more")."""
    floor_day(org, ny_site)
    typed_session(ny_shift, ny_site, RECEIPTS + 50_000)
    table = ny_site.tables.get(number=1)
    second = counts.register_drop_box(
        acting_user=make_person(org, Role.GAMING_MANAGER, ny_site).user, table=table, label="B"
    )
    counts.place_drop_box(
        acting_user=make_person(org, Role.SHIFT_MANAGER, ny_site).user, drop_box=second, gaming_date=DAY, at=at("20:00")
    )
    shown = _daily_page(client, cast, ny_site)
    assert "The drop is not counted yet (1 drop box without a signed count)" in shown
    assert "more than the drop counted" not in shown


def test_a_table_with_no_drop_box_adds_nothing_to_the_drop_counted(client, cast, org, ny_site, ny_shift):
    """A table whose box was never placed leaves no count to wait for: the drop counted is known
    ($0.00 from it), not "not counted yet" for ever once the day's books are closed."""
    make_chips(org)
    shift = make_person(org, Role.SHIFT_MANAGER, ny_site).user
    table = TableFactory(site=ny_site, number=1, max_wager_cents=500, decks=2, tie_option=1)
    floor.open_gaming_day(acting_user=shift, site=ny_site, gaming_date=DAY, at=at("17:55"))
    floor.record_table_inventory(acting_user=shift, table=table, kind="opener", chips=OPENER, at=at("18:00"))
    floor.record_table_inventory(acting_user=shift, table=table, kind="closer", chips=OPENER, at=at("23:00"))
    typed_session(ny_shift, ny_site, 0, prizes=0)
    shown = _daily_page(client, cast, ny_site)
    assert "not counted yet" not in shown
    assert "Receipts equal the drop counted: difference $0.00." in shown
