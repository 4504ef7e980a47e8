"""Closing the books of a gaming day: refused until the day is closed, counted and the bank
counted; the figures are snapshotted and locked; a correction is a separate adjustment."""

import re
from datetime import date, timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import DatabaseError, connection, transaction

from accounting import frozen, rules, services, summaries
from accounting.models import Adjustment, BooksClose
from cage.queries import books_closed as cage_books_closed
from cardroom.models import Role
from core.audit import AuditEvent
from core.periods import Quarter
from tests.accounting.scenario import at
from tests.factories import TableFactory

DAY = date(2026, 8, 14)
NEXT = DAY + timedelta(days=1)


@pytest.fixture
def t1(site):
    return TableFactory(site=site, number=1)


def play(scenario, table, *, signed=True, bank=("start", "end")):
    """A day of play: tray $2,000 -> $1,850, a $200 fill, a $50 credit, $1,000 dropped."""
    scenario.tray(table, DAY, "opener", 200_000)
    scenario.tray(table, DAY, "closer", 185_000)
    scenario.slip(table, DAY, "fill", 20_000, number=1)
    scenario.slip(table, DAY, "credit", 5_000, number=1)
    scenario.drop(table, DAY, 100_000, signed=signed)
    for kind in bank:
        scenario.bank(DAY, kind, 500_000, 300_000)


def close(employee, site, gaming_date=DAY):
    return services.close_books(acting_user=employee.user, site=site, gaming_date=gaming_date)


@pytest.fixture
def closed_books(scenario, t1, cast, site):
    play(scenario, t1)
    return close(cast[Role.SHIFT_MANAGER], site)


def adjust(employee, books, **values):
    values = {
        "field": "drop",
        "amount_cents": 5_000,
        "reason": "Box 1 recounted: $50 stuck in the slot.",
        "recorded_on": NEXT,
        **values,
    }
    return services.record_adjustment(acting_user=employee.user, books_close=books, **values)


# --- Closing ------------------------------------------------------------------------------------


def test_the_snapshot_equals_the_apis_daily_summary(closed_books, client_for, cast, site):
    body = client_for(cast[Role.AUDITOR]).get(f"/api/v1/sites/{site.pk}/daily-summary/?date={DAY}").json()
    assert body["books_closed"] is True
    books = body.pop("books")  # the API says how the figures stand against the snapshot; the snapshot is the figures
    assert body.pop("figure_names")["agp_cents"] == "Adjusted gross proceeds (AGP)"  # the keys' words, not figures
    # Each game beside its threshold: the snapshot's own per-game figures, with compliance's thresholds.
    lines = {line["game"]: line for line in body.pop("games")}
    for game, key in (("21", "twenty_one"), ("PW", "paddlewheel"), ("total", "total")):
        assert {k: lines[game][k] for k in body[key]} == body[key]
    assert closed_books.figures == body
    assert closed_books.figures["total"]["agp_cents"] == 70_000
    assert closed_books.figures_sha256 == frozen.digest(body)
    assert books["state"] == "equal" and books["figures_sha256"] == closed_books.figures_sha256
    assert AuditEvent.objects.filter(action="books.closed").count() == 1


def test_the_cage_sees_the_books_closed(closed_books, site):
    assert cage_books_closed(site, DAY) and not cage_books_closed(site, NEXT)


def test_the_gaming_manager_closes_books_through_the_api(scenario, t1, client_for, manager, site):
    play(scenario, t1)
    response = client_for(manager).post(f"/api/v1/sites/{site.pk}/close-books/", {"date": str(DAY)}, format="json")
    assert response.status_code == 201
    assert response.json()["figures"]["books_closed"] is True
    assert BooksClose.objects.get().closed_by == manager


@pytest.mark.parametrize(
    "body", [{"gaming_date": str(DAY)}, {"date": str(DAY)}, {"gaming_date": str(DAY), "date": str(DAY)}]
)
def test_the_close_books_endpoint_reads_gaming_date_as_every_endpoint_does(
    scenario, t1, client_for, manager, site, body
):
    """Before, `gaming_date` was refused ("unknown field 'gaming_date'; this endpoint reads date");
    `date`, its former name, is still read."""
    play(scenario, t1)
    response = client_for(manager).post(f"/api/v1/sites/{site.pk}/close-books/", body, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["gaming_date"] == str(DAY)


@pytest.mark.parametrize("body", [{"gaming_date": str(DAY), "date": str(NEXT)}, {}])
def test_close_books_without_one_gaming_date_is_a_bad_request_naming_gaming_date(
    scenario, t1, client_for, manager, site, body
):
    play(scenario, t1)
    response = client_for(manager).post(f"/api/v1/sites/{site.pk}/close-books/", body, format="json")
    assert response.status_code == 400 and list(response.json()) == ["gaming_date"]
    if body:
        assert response.json()["gaming_date"] == [
            f"House control: gaming_date ({DAY}) and date ({NEXT}), its former name, name two days; "
            "give gaming_date alone."
        ]
    assert not BooksClose.objects.exists()


def test_a_cashier_does_not_close_books(scenario, t1, cast, site):
    play(scenario, t1)
    with pytest.raises(PermissionDenied):
        close(cast[Role.CASHIER], site)


def refusal(employee, site, gaming_date=DAY) -> str:
    with pytest.raises(ValidationError) as caught:
        close(employee, site, gaming_date)
    return caught.value.message_dict["gaming_date"][0]


def test_books_without_a_gaming_day_are_refused(cast, site):
    assert refusal(cast[Role.SHIFT_MANAGER], site).startswith(rules.GAMING_DAY_STATE)


def test_books_of_a_day_with_an_open_table_are_refused(scenario, t1, cast, site):
    scenario.day(DAY, closed=False)
    scenario.tray(t1, DAY, "opener", 200_000)
    message = refusal(cast[Role.SHIFT_MANAGER], site)
    assert message.startswith(rules.TRAY_COUNT) and "table 1 has no closer" in message


def test_books_of_a_day_with_two_open_tables_name_both(scenario, t1, cast, site):
    scenario.day(DAY, closed=False)
    scenario.tray(t1, DAY, "opener", 200_000)
    scenario.tray(TableFactory(site=site, number=2), DAY, "opener", 200_000)
    assert "tables 1, 2 have no closer" in refusal(cast[Role.SHIFT_MANAGER], site)


def test_books_with_an_unsigned_count_are_refused(scenario, t1, cast, site):
    play(scenario, t1, signed=False)
    message = refusal(cast[Role.SHIFT_MANAGER], site)
    assert message.startswith(rules.DROP_COUNT.at(site)) and "the drop of table 1 has no signed count" in message


def test_books_with_a_slip_not_in_its_box_and_not_explained_are_refused_until_explained(scenario, t1, cast, site):
    """ND 99-01.3-08-05(2): the slips all accounted for. A fill issued after the box was counted
    is not among the forms found; the books close once a manager explained it on the count."""
    from counts import services as counts
    from counts.models import Drop
    from floor.models import Slip

    play(scenario, t1)
    late = Slip.objects.create(  # written after the count, so its box never held it
        site=site,
        kind="fill",
        number=7,
        table=t1,
        gaming_day=scenario.day(DAY),
        game=t1.game,
        table_number=t1.number,
        prepared_at=at(DAY, 22),
        prepared_by=cast[Role.SHIFT_MANAGER],
        total_cents=1_000,
    )
    with pytest.raises(ValidationError) as refused:
        close(cast[Role.SHIFT_MANAGER], site)
    message = refused.value.message_dict["gaming_date"][0]
    assert message.startswith("ND 99-01.3-08-05(2): fill and credit slips are all accounted for")
    assert "table 1: fill slip #7 issued, not in the box, not explained" in message
    assert not BooksClose.objects.exists()
    counts.explain_forms_exception(
        acting_user=cast[Role.SHIFT_MANAGER].user,
        drop=Drop.objects.get(table=t1, gaming_date=DAY),
        kind=late.kind,
        number=late.number,
        explanation="Prepared in error after the drop; the copy is filed with the daily records.",
    )
    assert close(cast[Role.SHIFT_MANAGER], site).gaming_date == DAY


def test_books_without_the_ending_bank_count_are_refused(scenario, t1, cast, site):
    play(scenario, t1, bank=("start",))
    message = refusal(cast[Role.SHIFT_MANAGER], site)
    assert message.startswith(rules.BANK_RECORDS.at(site)) and "ending cash bank count" in message


def test_books_close_once_and_the_api_names_the_rule(closed_books, client_for, cast, site):
    response = client_for(cast[Role.SHIFT_MANAGER]).post(
        f"/api/v1/sites/{site.pk}/close-books/", {"date": str(DAY)}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["gaming_date"][0].startswith(rules.CLOSED_BOOKS)
    assert BooksClose.objects.count() == 1


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE accounting_booksclose SET figures_sha256 = 'x'",
        "DELETE FROM accounting_booksclose",
        "UPDATE accounting_adjustment SET amount_cents = 1",
        "DELETE FROM accounting_adjustment",
    ],
)
def test_closed_books_and_adjustments_are_append_only_in_the_database(closed_books, manager, t1, sql):
    adjust(manager, closed_books, table=t1)
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql)
    closed_books.refresh_from_db()
    assert closed_books.figures_sha256 == frozen.digest(closed_books.figures)
    assert Adjustment.objects.get().amount_cents == 5_000


# --- Adjustments ---------------------------------------------------------------------------------


def test_an_adjustment_is_listed_on_both_days_and_counts_once_in_the_quarter(closed_books, manager, t1, site):
    adjust(manager, closed_books, table=t1)
    corrected, entered = summaries.daily_summary(site, DAY), summaries.daily_summary(site, NEXT)
    assert corrected.total.drop_cents == 100_000  # the closed day keeps its figures
    assert [a.amount_cents for a in corrected.adjustments_to_this_day] == [5_000]
    assert corrected.adjustments_recorded == ()
    assert [a.corrected_date for a in entered.adjustments_recorded] == [DAY]
    assert entered.total.drop_cents == 5_000 and entered.twenty_one.agp_cents == 5_000
    quarter = summaries.quarter_summary(site, Quarter(2026, 3))
    assert quarter.total.gross_proceeds_cents == 105_000 and quarter.total.agp_cents == 75_000
    assert BooksClose.objects.get().figures["total"]["drop_cents"] == 100_000


def test_adjustments_through_the_api_appear_on_both_days_reports(closed_books, client_for, manager, t1, site):
    api = client_for(manager)
    values = {"books_close": closed_books.pk, "table": t1.pk, "field": "fills", "amount_cents": -2_000}
    response = api.post(
        "/api/v1/adjustments/",
        {**values, "reason": "Fill 1 keyed as $200, slip says $180.", "recorded_on": str(NEXT)},
        format="json",
    )
    assert response.status_code == 201 and response.json()["corrected_date"] == str(DAY)
    day = api.get(f"/api/v1/sites/{site.pk}/daily-summary/?date={DAY}").json()
    later = api.get(f"/api/v1/sites/{site.pk}/daily-summary/?date={NEXT}").json()
    assert [a["amount_cents"] for a in day["adjustments_to_this_day"]] == [-2_000]
    assert [a["reason"] for a in later["adjustments_recorded"]] == ["Fill 1 keyed as $200, slip says $180."]
    assert later["total"]["agp_cents"] == 2_000
    listed = api.get(f"/api/v1/adjustments/?site={site.pk}&corrected_date={DAY}").json()
    assert [a["field"] for a in listed["results"]] == ["fills"]


@pytest.mark.parametrize("role", [Role.SHIFT_MANAGER, Role.AUDITOR, Role.CASHIER])
def test_only_a_gaming_manager_adjusts_closed_books(closed_books, cast, client_for, t1, role):
    with pytest.raises(PermissionDenied):
        adjust(cast[role], closed_books, table=t1)
    values = {
        "books_close": closed_books.pk,
        "table": t1.pk,
        "field": "drop",
        "amount_cents": 100,
        "reason": "x",
        "recorded_on": str(NEXT),
    }
    assert client_for(cast[role]).post("/api/v1/adjustments/", values, format="json").status_code == 403
    assert not Adjustment.objects.exists()


@pytest.mark.parametrize(
    "values,field",
    [
        ({"recorded_on": DAY}, "recorded_on"),
        ({"reason": "  "}, "reason"),
        ({"amount_cents": 0}, "amount_cents"),
        ({"field": "tips"}, "field"),
        ({"field": "cash"}, "table"),  # cash is the site's, not a table's
        ({"table": None}, "table"),
    ],
)
def test_an_adjustment_needs_a_later_day_a_reason_an_amount_and_its_table(closed_books, manager, t1, values, field):
    with pytest.raises(ValidationError) as caught:
        adjust(manager, closed_books, **{"table": t1, **values})
    assert caught.value.message_dict[field][0].startswith(rules.CLOSED_BOOKS)


def test_books_closed_on_their_own_gaming_day_say_when_an_adjustment_can_be_entered(
    closed_books, manager, t1, time_machine
):
    """Closed before their gaming day is over, the books have no later gaming day to enter an
    adjustment on yet: the refusal says which day that is and when it begins, where it read "after
    2026-08-14, up to today (2026-08-14)", a range with no day in it."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    time_machine.move_to(datetime(2026, 8, 14, 23, 30, tzinfo=ZoneInfo("America/Chicago")), tick=False)
    for recorded_on in (DAY, NEXT):
        with pytest.raises(ValidationError) as caught:
            adjust(manager, closed_books, table=t1, recorded_on=recorded_on)
        assert caught.value.message_dict["recorded_on"] == [
            f"{rules.CLOSED_BOOKS}: an adjustment is entered on a gaming day after 2026-08-14, the day whose books it "
            "corrects; the first, 2026-08-15, begins at 2026-08-15 06:00 CDT: enter it then."
        ]
    assert not Adjustment.objects.exists()


def test_a_cash_adjustment_corrects_the_cash_profit_of_the_day_entered(closed_books, scenario, manager, site):
    scenario.day(NEXT, closed=False)
    scenario.bank(NEXT, "start", 500_000, 300_000)
    scenario.bank(NEXT, "end", 500_000, 300_000)
    before = summaries.daily_summary(site, NEXT).cash.cash_profit_cents
    adjust(manager, closed_books, field="cash", amount_cents=-1_000, reason="Counterfeit $10 bill found in the bank.")
    assert summaries.daily_summary(site, NEXT).cash.cash_profit_cents == before - 1_000


def test_at_a_fees_only_site_an_adjusting_entry_corrects_the_fees_or_the_cash(closed_books, manager, t1, site):
    """A Washington player-banked room's revenue is its fees: it records no drop, fill, credit or
    tray count of the house (floor's and counts' fees-only rule), so the books are corrected in
    the fees collected (WAC 230-40-125(1)) or in cash, in the service, the API and the daily page's
    form (the books closed before the site's pack changed, so that there is a closed day to correct).
    Before, the fees collected could not be corrected at all."""
    from django.test import Client

    site.jurisdiction = "WA-BJ"
    site.save()
    for field, table in (*((f, t1) for f in ("drop", "fills", "credits", "opener", "closer")), ("receipts", None)):
        with pytest.raises(ValidationError) as caught:
            adjust(manager, closed_books, table=table, field=field)
        assert caught.value.message_dict["field"] == [
            f"WAC 230-40-125(1) (1999 proposed amendment): the house's revenue at {site} is the fees collected at "
            "its tables; no drop, fill, credit, tray count or session of the house is recorded there, so an "
            "adjusting entry corrects the fees collected or the cash."
        ]
    with pytest.raises(ValidationError) as caught:
        adjust(manager, closed_books, table=t1, field="fees")
    assert caught.value.message_dict["table"] == [
        "WAC 230-40-125(1) (1999 proposed amendment): a fees adjustment is the site's; give no table."
    ]
    assert not Adjustment.objects.exists()
    assert adjust(manager, closed_books, field="cash", amount_cents=-1_000).field == "cash"
    assert adjust(manager, closed_books, field="fees", amount_cents=800).field == "fees"
    page = Client()
    page.force_login(manager.user)
    form = page.get(f"/dashboard/daily/?site={site.pk}&date={DAY}").content.decode()
    form = form[form.index('id="adjust-form"') : form.index("</form>", form.index('id="adjust-form"'))]
    assert re.findall(r'<option value="(\w+)"', form) == ["fees", "cash"] and 'name="table_number"' not in form


def _refused_field(api, closed_books, field: str, table=None) -> list[str]:
    """The API's refusal of an adjusting entry of `field` (a 400), its messages on `field`."""
    payload = {
        "books_close": closed_books.pk,
        **({"table": table.pk} if table is not None else {}),
        "field": field,
        "amount_cents": 5_000,
        "reason": "Recounted.",
        "recorded_on": str(NEXT),
    }
    response = api.post("/api/v1/adjustments/", payload, format="json")
    assert response.status_code == 400, response.content
    return response.json()["field"]


def test_at_a_session_site_an_adjusting_entry_corrects_the_receipts_prizes_or_cash(
    closed_books, manager, t1, site, client_for
):
    """A New York games-of-chance site's day is its sessions: no table's drop, fill, credit or tray
    count enters its figures, so the books are corrected in the sessions' receipts or prizes, or in
    cash, in the service, the API and the daily page's form. Before, a drop adjustment was taken
    (201) and listed as counted in the day's totals, while it was counted in none; then only the cash
    was (the books closed before the site's pack changed, so that there is a closed day to correct)."""
    from django.test import Client

    site.jurisdiction = "NY"
    site.save()
    api = client_for(manager)
    for field in ("drop", "fills", "credits", "opener", "closer", "fees"):
        assert _refused_field(api, closed_books, field, table=t1) == [
            "9 NYCRR 4620.5 sets the game; recording it a session at a time is House control: the day's figures at "
            f"{site} are its games-of-chance sessions, not a drop; no table's drop, fill, credit or tray count and "
            "no table fee enters them, so an adjusting entry corrects the sessions' receipts or prizes, or the cash."
        ]
    assert not Adjustment.objects.exists()
    assert adjust(manager, closed_books, field="cash", amount_cents=-1_000).field == "cash"
    assert adjust(manager, closed_books, field="prizes", amount_cents=-1_000).field == "prizes"
    page = Client()
    page.force_login(manager.user)
    form = page.get(f"/dashboard/daily/?site={site.pk}&date={DAY}").content.decode()
    form = form[form.index('id="adjust-form"') : form.index("</form>", form.index('id="adjust-form"'))]
    assert re.findall(r'<option value="(\w+)"', form) == ["receipts", "prizes", "cash"]
    assert 'name="table_number"' not in form


def test_at_a_drop_site_an_adjusting_entry_of_the_receipts_or_fees_is_refused_by_its_rule(
    closed_books, manager, site, client_for
):
    """North Dakota's day is its tables' drop: a session's receipts or prizes or a table fee is no
    figure of it, so the API refuses such a correction with a 400 naming the field and the rule."""
    api = client_for(manager)
    for field in ("receipts", "prizes", "fees"):
        assert _refused_field(api, closed_books, field) == [
            f"ND 99-01.3-08-16(1)(g): the day's figures at {site} are its tables' drop, fills, credits and tray "
            "counts; no games-of-chance session's receipts or prizes and no table fee enters them, so an adjusting "
            "entry corrects one of drop, fills, credits, opener, closer or cash."
        ]
    assert not Adjustment.objects.exists()


def test_summaries_with_adjustments_take_bounded_queries(
    closed_books, manager, t1, site, other_site, django_assert_max_num_queries
):
    for n in range(3):
        adjust(manager, closed_books, table=t1, amount_cents=100 + n, recorded_on=NEXT + timedelta(days=n))
    # 14 + the tournaments' fees and prizes + those found after their day's books closed (one query)
    with django_assert_max_num_queries(17):
        result = summaries.quarter_summaries([site, other_site], Quarter(2026, 3))
    assert len(result[0].days) == 4


def test_initials_changed_after_the_close_leave_the_closed_day_equal(closed_books, cast, site, t1, client_for):
    """A closed day keeps the initials its adjustments were signed with; an employee whose initials
    change later (a new name) changes no figure of it: the day still reads equal to its books."""
    from accounting import books

    manager = cast[Role.GAMING_MANAGER]
    adjust(manager, closed_books, table=t1)
    entered = close(manager, site, NEXT)
    signed = entered.figures["adjustments_recorded"][0]
    assert signed["approved_by_initials"] == manager.initials
    response = client_for(manager).patch(f"/api/v1/employees/{manager.pk}/", {"initials": "ZQ"}, format="json")
    assert response.status_code == 200, response.json()
    check = books.day_checks([summaries.daily_summary(site, NEXT)])[(site.pk, NEXT)]
    assert check.state == "equal", check.differences
    assert BooksClose.objects.get(pk=entered.pk).figures["adjustments_recorded"][0]["approved_by_initials"] != "ZQ"
