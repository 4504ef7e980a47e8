"""A tournament fee or prize found after the books of its tournament's day closed (tournaments.models:
`corrects_date`): it counts on the open day it is entered on (closed books stay closed), names the
closed day it belongs to with the reason it comes late, and both days' daily page and daily report
(PDF and CSV) say so: the later day lists it as belonging to the closed day, the closed day lists it
as found later and not counted again there, as they list an adjusting entry (accounting.Adjustment).
Where the closed day is on a filed return, that return is amended beside it, as a void amends it."""

# ruff: noqa: F811  (pytest fixtures imported from the filing tests are redefined as arguments)

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounting import summaries
from accounting.amendments import entry_text
from accounting.models import FilingAmendment
from cardroom.models import Role
from core.models import AuditEvent
from core.moments import gaming_date_of
from core.money import format_money
from statefiling.services import amendment_figures
from tests.accounting.test_filing_amendments import a_tournament_on_the_return, table  # noqa: F401
from tests.accounting.test_quarter_filing import DAY
from tests.reports.test_kind_daily import auditor_api, csv_rows, download, pdf_tables, pdf_text, run_report  # noqa: F401
from tournaments import services
from tournaments.models import FeeKind, TournamentFee

pytestmark = pytest.mark.django_db

REASON = "Envelope of entry fees found in the cage drawer the next week."


@pytest.fixture(autouse=True)
def _after_the_quarter():
    with time_machine.travel(datetime(2026, 11, 20, 18, tzinfo=UTC), tick=True):
        yield


@pytest.fixture
def closed(site, people, cast, table, manager):
    """DAY's tournament (Ann Lee's $100.00 entry fee, her $50.00 prize), its books closed, the quarter not filed."""
    _, fee, _ = a_tournament_on_the_return(site, people, cast, table, manager, filed=False)
    return fee.tournament


def today(site):
    return gaming_date_of(site, timezone.now())


def late_fee(cast, tournament, reason=REASON, **extra):
    return services.collect_fee(
        acting_user=cast[Role.CASHIER].user,
        tournament=tournament,
        kind=FeeKind.ENTRY,
        player_name="Bob Ray",
        reason=reason,
        **extra,
    )


def test_a_later_nights_fee_without_a_reason_is_that_nights_own(cast, site, closed):
    """A tournament played over more than one night takes a later night's fee on its own day: only the
    reason it comes late says a fee belongs to the closed day (a reason asked of every later fee
    listed a second night's rebuys as found later on the first night)."""
    fee = late_fee(cast, closed, reason="  ")
    assert (fee.gaming_date, fee.corrects_date, fee.reason) == (today(site), None, "")
    assert summaries.daily_summary(site, DAY).tournament_late_to_this_day == ()


def test_a_fee_found_late_counts_on_the_day_entered_and_names_the_closed_day(cast, site, closed):
    before = summaries.daily_summary(site, DAY).tournaments
    fee = late_fee(cast, closed)
    assert (fee.gaming_date, fee.corrects_date, fee.reason) == (today(site), DAY, REASON)
    assert summaries.daily_summary(site, DAY).tournaments == before  # the closed day's figures stand
    later = summaries.daily_summary(site, today(site))
    assert later.tournaments.gross_proceeds_cents == 10_000
    assert [(t.record, t.record_id, t.corrects_date) for t in later.tournament_late_recorded] == [("fee", fee.pk, DAY)]
    listed = summaries.daily_summary(site, DAY).tournament_late_to_this_day
    assert [(t.counted_on, t.amount_cents, t.reason) for t in listed] == [(today(site), 10_000, REASON)]
    event = AuditEvent.objects.filter(action="tournament.fee.entry", object_id=str(fee.pk)).get()
    assert event.after["corrects_date"] == str(DAY) and event.after["reason"] == REASON


def test_a_fee_of_an_open_day_names_no_closed_day_and_keeps_no_reason(cast, site, manager):
    from tests.tournaments.conftest import announce

    open_day = announce(cast[Role.SHIFT_MANAGER], site, gaming_date=today(site))
    fee = late_fee(cast, open_day, reason="typed anyway")
    assert (fee.corrects_date, fee.reason) == (None, "")


def test_a_time_on_the_closed_day_is_refused_saying_how_a_fee_found_late_is_entered(cast, site, closed):
    with pytest.raises(ValidationError) as refused:
        late_fee(cast, closed, at=datetime(DAY.year, DAY.month, DAY.day, 20, tzinfo=ZoneInfo("America/Chicago")))
    message = refused.value.message_dict["collected_at"][0]
    assert message.startswith("House control (closed books, ND 99-01.3-08-16(1)(g))")
    assert "entered on a gaming day whose books are open" in message and "the reason it comes late" in message


def test_the_database_refuses_a_row_found_late_without_its_reason(cast, site, closed):
    fee = late_fee(cast, closed)
    with pytest.raises(IntegrityError), transaction.atomic():
        TournamentFee.objects.create(
            tournament=closed, player=fee.player, kind=FeeKind.REBUY, fee_cents=9_999, chips=500,
            gaming_date=fee.gaming_date, collected_at=fee.collected_at, collected_by=fee.collected_by,
            corrects_date=DAY, reason="",
        )  # fmt: skip


def test_the_api_takes_the_reason_and_answers_the_closed_day(client_for, cast, site, closed):
    api = client_for(cast[Role.CASHIER])
    path = f"/api/v1/tournaments/{closed.pk}/entries/"
    answer = api.post(path, {"kind": "entry", "player_name": "Bob Ray", "reason": REASON}, format="json")
    assert answer.status_code == 201, answer.content
    assert (answer.json()["corrects_date"], answer.json()["gaming_date"]) == (str(DAY), str(today(site)))

    boss = client_for(cast[Role.SHIFT_MANAGER])
    ann = closed.players.get(name="Ann Lee")
    prize = {"player": ann.pk, "round_name": "Side pot", "kind": "cash", "amount_cents": 2_500}
    own = boss.post(f"/api/v1/tournaments/{closed.pk}/prizes/", prize, format="json")
    assert own.status_code == 201 and own.json()["corrects_date"] is None  # a later night's own prize
    answer = boss.post(f"/api/v1/tournaments/{closed.pk}/prizes/", {**prize, "reason": REASON}, format="json")
    assert answer.status_code == 201 and answer.json()["corrects_date"] == str(DAY)
    assert summaries.daily_summary(site, today(site)).tournaments.prizes_cents == 5_000  # both count on today


def test_both_days_pages_say_it_and_the_tournament_page_marks_it(client, cast, site, closed):
    fee = late_fee(cast, closed)
    client.force_login(cast[Role.AUDITOR].user)
    page = client.get(f"/dashboard/daily/?site={site.pk}&date={DAY}").content.decode()
    assert 'id="tournament-late-to-this-day"' in page and f'data-fee="{fee.pk}"' in page
    assert f"counted on {today(site)}: Tournament entry fee: Bob Ray ({closed.name}) {format_money(10_000)}" in page
    assert "(ND 99-01.3-08-16(1)(e))" in page
    later = client.get(f"/dashboard/daily/?site={site.pk}&date={today(site)}").content.decode()
    assert 'id="tournament-late-recorded"' in later
    assert f"belongs to {DAY}, whose books are closed: Tournament entry fee: Bob Ray" in later and REASON in later
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    detail = client.get(f"/tournaments/{closed.pk}/").content.decode()
    assert f"found later, of {DAY}" in detail


def test_the_page_form_asks_the_reason_and_records_it(client, cast, site, closed):
    client.force_login(cast[Role.CASHIER].user)
    assert (
        "Reason, if found after the day&#x27;s books closed"
        in client.get(f"/tournaments/{closed.pk}/").content.decode()
    )
    done = client.post(f"/tournaments/{closed.pk}/entries/", {"player_name": "Bob Ray", "reason": REASON})
    assert done.status_code == 302
    assert TournamentFee.objects.get(player__name="Bob Ray").corrects_date == DAY


RECORD, MONEY = "Tournament entry fee: Bob Ray ({}; ND 99-01.3-08-16(1)(e))", format_money(10_000)


def printed_rows(content: bytes) -> list[list[str]]:
    """The PDF's rows of tournament records found late: belongs to, counted on, record, amount, AGP effect."""
    rows = [row for grid in pdf_tables(content) for row in grid if row and "Bob Ray" in " ".join(map(str, row))]
    return [[row[0], row[1], " ".join(row[2].split()), row[3], row[4]] for row in rows]


def csv_late(api, run: dict, kind: str) -> list[tuple[str, str]]:
    """The CSV's rows of `kind` (its Table cell): their Figure and Amount."""
    header, *rows = csv_rows(api, run)
    figure, amount = header.index("Figure"), header.index("Amount")
    return [(row[figure], row[amount]) for row in rows if row[1] == kind]


def test_both_days_daily_reports_say_it_in_the_pdf_and_the_csv(auditor_api, cast, site, closed):
    late_fee(cast, closed)
    on_closed = run_report(auditor_api, kind="daily", site=site.pk, start=str(DAY), end=str(DAY))
    content = download(auditor_api, on_closed)
    text = " ".join(pdf_text(content).split())
    assert "Tournament fees and prizes found later (counted on the day entered, not counted again here)" in text
    assert "1 record of this closed day, not in its figures." in text
    assert printed_rows(content) == [[str(DAY), str(today(site)), RECORD.format(closed.name), MONEY, MONEY]]
    assert csv_late(auditor_api, on_closed, "tournament_found_later") == [
        (f"counted on {today(site)}: Tournament entry fee: Bob Ray ({closed.name}; ND 99-01.3-08-16(1)(e)) "
         f"({REASON}; {cast[Role.CASHIER].initials})", "100.00")
    ]  # fmt: skip

    later = run_report(auditor_api, kind="daily", site=site.pk, start=str(today(site)), end=str(today(site)))
    content = download(auditor_api, later)
    text = " ".join(pdf_text(content).split())
    assert "Tournament fees and prizes found later for a closed day (counted in this day's tournament figures)" in text
    assert printed_rows(content) == [[str(DAY), str(today(site)), RECORD.format(closed.name), MONEY, MONEY]]
    [(figure, amount)] = csv_late(auditor_api, later, "tournament_found_late")
    assert figure.startswith(f"belongs to {DAY}: Tournament entry fee: Bob Ray") and amount == "100.00"


def test_a_fee_found_late_for_a_day_of_a_filed_quarter_amends_the_return(site, people, cast, table, manager):
    filing, fee, _ = a_tournament_on_the_return(site, people, cast, table, manager)
    late = late_fee(cast, fee.tournament)
    amendment = FilingAmendment.objects.get()
    assert (amendment.filing, amendment.source, amendment.figure, amendment.delta_cents) == (
        filing,
        "tournament_late",
        "tournament_agp_cents",
        10_000,
    )
    assert amendment.tournament_fee == late
    expected = f"tournament fee {late.pk} of {DAY} found later, counted on gaming day {today(site)}"
    assert entry_text(amendment, site) == expected
    # What the amendment files with the state: the fee, the filed day it belongs to and the day it counts on.
    assert amendment_figures(amendment)["amendment"]["entry"] == {
        "tournament_fee": late.pk,
        "kind": "entry",
        "fee_cents": 10_000,
        "tournament": late.tournament_id,
        "corrects_date": str(DAY),
        "entered_on": str(today(site)),
        "reason": REASON,
    }


def test_a_fee_found_late_of_a_quarter_not_filed_amends_nothing(cast, site, closed):
    late_fee(cast, closed)
    assert not FilingAmendment.objects.exists()
