"""Every input that feeds a filed or closed figure, tried through every interface that writes it.

A quarter is filed at an ND site (2026Q3: a day played, its books closed, the summary filed).
Each row below is one interface (the API, the browser pages, the Django admin as a gaming manager
and as a superuser, a management command) writing one input that feeds the day's or the
quarter's figures, the tax, the dealers' hold or the filed package, for a date of that quarter.
Each must be either refused (a 4xx or an inline error naming the closed-books or filed rule, and
nothing written) or recorded as an amendment (a `FilingAmendment` with its audit event), and the
filed return must still read "equal" beside its figures now in every case: a path that moved a
filed figure silently is a bug (README, "Closed books and filed quarters")."""

from dataclasses import dataclass
from datetime import UTC, date, datetime

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from accounting import books, services, summaries
from accounting.models import BooksClose, FilingAmendment, QuarterFiling
from cage.models import BankCount, IdealBank
from cardroom.models import Role
from core.audit import AuditEvent
from core.periods import Quarter
from counts.models import CountSession, DropBox
from floor.models import Slip, SlipStep
from tests.accounting.scenario import Scenario
from tests.core.test_site_books_fields import form_data
from tests.factories import SiteFactory, TableFactory

Q3 = Quarter(2026, 3)
DAY = date(2026, 8, 14)  # played, closed, filed
QUIET = date(2026, 9, 20)  # nothing recorded: closed by the filing alone
LATER = date(2026, 11, 20)  # the clock's day, in 2026Q4 (books open)
TOURNAMENT = {
    "name": "Fall Classic",
    "entry_fee_cents": 10_000,
    "chips_per_entry": 500,
    "minimum_bet_chips": 10,
    "length_of_play": "Three shoes",
    "prizes_offered": "$150 to the winner",
}
FILED_RULE = "quarterly summary of 2026Q3 is filed"
CLOSED_RULE = "the books of 2026-08-14 are closed"


@pytest.fixture(autouse=True)
def _after_the_quarter(time_machine):
    time_machine.move_to(datetime(2026, 11, 20, 18, tzinfo=UTC), tick=True)


@dataclass
class World:
    site: object
    table: object
    cast: dict
    people: dict
    filing: QuarterFiling
    slip: Slip
    credit: Slip
    api: object

    def as_(self, employee):
        self.api.force_authenticate(employee.user)
        return self.api

    @property
    def manager(self):
        return self.cast[Role.GAMING_MANAGER]


@pytest.fixture
def world(site, cast, people, api_client):
    table = TableFactory(site=site, number=1)
    scenario = Scenario(site, people)
    scenario.tray(table, DAY, "opener", 200_000)
    scenario.tray(table, DAY, "closer", 185_000)
    slip = scenario.slip(table, DAY, "fill", 20_000, number=41)
    credit = scenario.slip(table, DAY, "credit", 5_000, number=42)
    scenario.drop(table, DAY, 100_000)
    scenario.bank(DAY, "start", 500_000, 300_000)
    scenario.bank(DAY, "end", 600_000, 280_000)
    manager = cast[Role.GAMING_MANAGER]
    services.close_books(acting_user=manager.user, site=site, gaming_date=DAY)
    filing = services.file_quarter(acting_user=manager.user, site=site, quarter=Q3, reference="GT-2026Q3-7")
    return World(site, table, cast, people, filing, slip, credit, api_client)


def filed_return(world: World) -> books.QuarterBooks:
    return books.quarter_books(summaries.quarter_summary(world.site, Q3), world.filing, world.site.time_zone)


def written(world: World) -> tuple:
    """What a refused write must leave as it was: the audit log's length and the books' rows."""
    return (
        AuditEvent.objects.count(),
        BooksClose.objects.count(),
        FilingAmendment.objects.count(),
        SlipStep.objects.count(),
        IdealBank.objects.count(),
    )


# --- The API ------------------------------------------------------------------------------------------
# Each: (id, who, method, path, body, the field the refusal names, words it says).


def _api_rows():
    cash = [{"value_cents": 10_000, "quantity": 1}]
    chips = [{"value_cents": 2_500, "quantity": 2}]
    return [
        ("gaming day opened", Role.SHIFT_MANAGER, "post", "/api/v1/gaming-days/",
         lambda w: {"site": w.site.pk, "gaming_date": str(QUIET)}, "gaming_date", FILED_RULE),
        ("day sheet from paper", Role.SHIFT_MANAGER, "post", "/api/v1/sites/{site}/day-sheets/",
         lambda w: {"gaming_date": str(QUIET),
                    "open": {"opened_at": "2026-09-20T17:55", "opened_by": w.cast[Role.SHIFT_MANAGER].pk}},
         "open.opened_at", FILED_RULE),
        ("tray count from paper", Role.SHIFT_MANAGER, "post", "/api/v1/table-inventories/",
         lambda w: {"table": w.table.pk, "kind": "closer", "counted_at": "2026-08-14T23:00",
                    "chips": [{"denomination": 2_500, "quantity": 4}]}, "counted_at", CLOSED_RULE),
        ("dealer shift from paper", Role.SHIFT_MANAGER, "post", "/api/v1/dealer-shifts/",
         lambda w: {"table": w.table.pk, "dealer": w.cast[Role.DEALER].pk, "started_at": "2026-08-14T20:00"},
         "started_at", CLOSED_RULE),
        ("bank count", Role.CASHIER, "post", "/api/v1/cage/bank-counts/",
         lambda w: {"site": w.site.pk, "gaming_date": str(DAY), "kind": "end", "cash": cash, "chips": []},
         "gaming_date", CLOSED_RULE),
        ("bank count correction", Role.CASHIER, "post", "/api/v1/cage/bank-counts/",
         lambda w: {"site": w.site.pk, "gaming_date": str(DAY), "kind": "end", "cash": cash, "chips": [],
                    "corrects": BankCount.objects.get(site=w.site, gaming_date=DAY, kind="end").pk, "reason": "miscounted"},
         "gaming_date", CLOSED_RULE),
        ("IOU lent", Role.CASHIER, "post", "/api/v1/cage/ious/",
         lambda w: {"site": w.site.pk, "gaming_date": str(DAY), "amount_cents": 5_000, "source": "bank",
                    "destination": "reserve"}, "gaming_date", CLOSED_RULE),
        ("chip redemption", Role.CASHIER, "post", "/api/v1/cage/chip-redemptions/",
         lambda w: {"site": w.site.pk, "gaming_date": str(DAY), "chips": chips}, "gaming_date", CLOSED_RULE),
        ("tips declared", Role.DEALER, "post", "/api/v1/cage/tip-declarations/",
         lambda w: {"site": w.site.pk, "gaming_date": str(DAY), "chips": chips}, "gaming_date", CLOSED_RULE),
        ("count session", Role.COUNT_TEAM, "post", "/api/v1/count-sessions/",
         lambda w: {"site": w.site.pk, "gaming_date": str(DAY),
                    "members": [w.people["count1"].pk, w.people["count2"].pk]}, "gaming_date", CLOSED_RULE),
        ("drop box placed", Role.SHIFT_MANAGER, "post", "/api/v1/drop-boxes/{box}/placements/",
         lambda w: {"gaming_date": str(DAY)}, "gaming_date", CLOSED_RULE),
        ("count corrected", Role.GAMING_MANAGER, "post", "/api/v1/count-sessions/{session}/adjustments/",
         lambda w: {"box": DropBox.objects.get(table=w.table).pk, "reason": "A $20 found in the box lid.",
                    "currency": [{"denomination_cents": 2_000, "form": "bill", "quantity": 51}]},
         "session", CLOSED_RULE),
        ("tournament", Role.SHIFT_MANAGER, "post", "/api/v1/tournaments/",
         lambda w: {"site": w.site.pk, "gaming_date": str(QUIET), **TOURNAMENT}, "gaming_date", FILED_RULE),
        ("adjustment entered in the filed quarter", Role.GAMING_MANAGER, "post", "/api/v1/adjustments/",
         lambda w: {"books_close": BooksClose.objects.get(site=w.site, gaming_date=DAY).pk, "table": w.table.pk,
                    "field": "drop", "amount_cents": 100, "reason": "late find", "recorded_on": str(QUIET)},
         "recorded_on", FILED_RULE),
        ("slip voided", Role.SHIFT_MANAGER, "post", "/api/v1/fill-slips/{slip}/void/",
         lambda w: {"reason": "wrong table"}, "slip", "can no longer be voided"),
        ("site's time zone", Role.GAMING_MANAGER, "patch", "/api/v1/sites/{site}/",
         lambda w: {"time_zone": "America/Denver"}, "time_zone", "cannot be changed"),
        ("site's business day", Role.GAMING_MANAGER, "patch", "/api/v1/sites/{site}/",
         lambda w: {"business_day_start_hour": 10}, "business_day_start_hour", "cannot be changed"),
        ("site's jurisdiction", Role.GAMING_MANAGER, "patch", "/api/v1/sites/{site}/",
         lambda w: {"jurisdiction": "WA-HB"}, "jurisdiction", "cannot be changed"),
        ("table's game", Role.GAMING_MANAGER, "patch", "/api/v1/tables/{table}/",
         lambda w: {"game": "PW"}, "game", "cannot be changed"),
        ("table's number", Role.GAMING_MANAGER, "patch", "/api/v1/tables/{table}/",
         lambda w: {"number": 9}, "number", "cannot be changed"),
        ("chip's value", Role.GAMING_MANAGER, "patch", "/api/v1/chip-denominations/{chip}/",
         lambda w: {"value_cents": 700}, "value_cents", "cannot change"),
        ("ideal bank from a closed day", Role.GAMING_MANAGER, "post", "/api/v1/cage/ideal-banks/",
         lambda w: {"site": w.site.pk, "amount_cents": 900_000, "effective_on": str(DAY)},
         "effective_on", CLOSED_RULE),
        ("ideal bank from an open day before a closed one", Role.GAMING_MANAGER, "post", "/api/v1/cage/ideal-banks/",
         lambda w: {"site": w.site.pk, "amount_cents": 900_000, "effective_on": "2026-06-01"},
         "effective_on", CLOSED_RULE),
    ]  # fmt: skip


API_ROWS = _api_rows()


@pytest.mark.parametrize("row", API_ROWS, ids=[row[0] for row in API_ROWS])
def test_the_api_refuses_every_write_into_a_filed_quarter_naming_the_rule(world, chips, row):
    _, role, method, path, body, field, words = row
    chip = chips[2_500]
    url = path.format(
        slip=world.slip.pk,
        credit=world.credit.pk,
        site=world.site.pk,
        table=world.table.pk,
        chip=chip.pk,
        box=DropBox.objects.get(table=world.table).pk,
        session=CountSession.objects.get(site=world.site, gaming_date=DAY).pk,
    )
    before = written(world)
    answer = getattr(world.as_(world.cast[role]), method)(url, body(world), format="json")
    assert answer.status_code == 400, answer.content
    assert field in answer.json(), answer.json()
    message = " ".join(answer.json()[field])
    assert words in message, message
    assert message.startswith("House control"), message
    assert written(world) == before  # nothing written, not even an audit event
    assert filed_return(world).state == "equal"


# --- The browser pages --------------------------------------------------------------------------------
# Each: (id, who, path, form, the words the page shows at the refusal).


PAGE_ROWS = [
    ("slip voided on its page", Role.SHIFT_MANAGER, "/floor/slips/{slip}/void/", {"reason": "wrong table"},
     "can no longer be voided"),
    ("site's time zone on its set-up page", Role.GAMING_MANAGER, "/setup/sites/{site}/",
     {"time_zone": "America/Denver"}, "its time zone cannot be changed"),
]  # fmt: skip


@pytest.mark.parametrize("row", PAGE_ROWS, ids=[row[0] for row in PAGE_ROWS])
def test_the_pages_refuse_every_write_into_a_filed_quarter_at_the_form(world, row):
    _, role, path, form, words = row
    browser = Client()
    browser.force_login(world.cast[role].user)
    url = path.format(slip=world.slip.pk, credit=world.credit.pk, site=world.site.pk)
    data = form_data(world.site, **form) if path.startswith("/setup/sites/") else form
    before = written(world)
    page = browser.post(url, data)
    assert page.status_code in (200, 400), page.status_code  # the form again, not a redirect: nothing saved
    assert words in page.content.decode().replace("&#x27;", "'")
    assert written(world) == before
    assert filed_return(world).state == "equal"


# --- The Django admin, as a gaming manager and as a superuser ----------------------------------------


def admin_form(browser, url: str, **changes) -> dict:
    """The admin change form as it is shown, with `changes`: what a user posting it sends."""
    form = browser.get(url).context["adminform"].form
    data = {}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if value is None or value is False:
            continue
        data[name] = getattr(value, "pk", value)
    return {**data, **changes}


ADMIN_CHANGES = [
    ("site's time zone", "cardroom/site/{site}", {"time_zone": "America/Denver"}, "cannot be changed"),
    ("site's business day", "cardroom/site/{site}", {"business_day_start_hour": 10}, "cannot be changed"),
    ("table's game", "cardroom/table/{table}", {"game": "PW"}, "cannot be changed"),
    ("chip's value", "cardroom/chipdenomination/{chip}", {"value_cents": 700}, "cannot change"),
]


@pytest.mark.parametrize("superuser", [False, True], ids=["gaming manager", "superuser"])
@pytest.mark.parametrize("row", ADMIN_CHANGES, ids=[row[0] for row in ADMIN_CHANGES])
def test_the_admin_refuses_a_change_of_what_the_filed_figures_read(world, chips, django_user_model, row, superuser):
    _, path, changes, words = row
    browser = Client()
    user = (
        django_user_model.objects.create_superuser("root", password="Ochre-Lantern-Drift-58")
        if superuser
        else world.manager.user
    )
    browser.force_login(user)
    url = "/admin/" + path.format(site=world.site.pk, table=world.table.pk, chip=chips[2_500].pk) + "/change/"
    before = written(world)
    page = browser.post(url, admin_form(browser, url, **changes))
    assert page.status_code == 400, page.status_code  # refused: the form again with its error
    assert words in page.content.decode().replace("&#x27;", "'")
    assert written(world) == before
    assert filed_return(world).state == "equal"


@pytest.mark.parametrize("superuser", [False, True], ids=["gaming manager", "superuser"])
@pytest.mark.parametrize("view", ["change", "delete"])
def test_the_admin_neither_changes_nor_deletes_a_slip_of_a_filed_quarter(world, django_user_model, view, superuser):
    browser = Client()
    user = django_user_model.objects.create_superuser("root", password="x") if superuser else world.manager.user
    browser.force_login(user)
    url = f"/admin/floor/slip/{world.slip.pk}/{view}/"
    body = {"post": "yes"} if view == "delete" else {"total_cents": 1, "number": 99}
    before = written(world)
    answer = browser.post(url, body)
    assert answer.status_code == 403, answer.status_code
    assert Slip.objects.get(pk=world.slip.pk).total_cents == 20_000
    assert written(world) == before
    assert filed_return(world).state == "equal"


# --- Management commands --------------------------------------------------------------------------------


@pytest.mark.unshared  # a command closes the connection it ran on (tests/shared_world.py)
def test_the_demo_loader_writes_nothing_into_a_database_with_a_filed_quarter(world):
    before = written(world)
    with pytest.raises(CommandError, match="nothing was written"):
        call_command("load_demo")
    assert written(world) == before
    assert filed_return(world).state == "equal"


# --- What may change a filed return: recorded as amendments, audited ---------------------------------


def test_a_correction_of_a_filed_day_entered_later_is_an_amendment_audited(world):
    answer = world.as_(world.manager).post(
        "/api/v1/adjustments/",
        {
            "books_close": BooksClose.objects.get(site=world.site, gaming_date=DAY).pk,
            "table": world.table.pk,
            "field": "drop",
            "amount_cents": 2_000,
            "reason": "A $20 bill found in the box's slot.",
            "recorded_on": str(LATER),
        },
        format="json",
    )
    assert answer.status_code == 201, answer.content
    amendment = FilingAmendment.objects.get(filing=world.filing)
    assert (amendment.figure, amendment.delta_cents, amendment.adjustment_id) == (
        "agp_cents",
        2_000,
        answer.json()["id"],
    )
    assert set(AuditEvent.objects.values_list("action", flat=True)) >= {"books.adjusted", "alert.opened"}
    assert AuditEvent.objects.filter(
        action="row.created", object_type__icontains="filingamendment", object_id=str(amendment.pk)
    ).exists()
    now = filed_return(world)
    assert now.state == "equal"  # the filed figures stand; the amendment is beside them
    assert len(now.filing_amendments) == 1


def test_the_other_games_agp_of_a_filed_quarter_is_an_amendment_audited(world, org):
    answer = world.as_(world.manager).post(
        f"/api/v1/organizations/{org.pk}/other-games-agp/",
        {"quarter": "2026Q3", "agp_cents": 5_000_000, "note": "Pull tabs and bingo, from the ledger."},
        format="json",
    )
    assert answer.status_code == 201, answer.content
    amendment = FilingAmendment.objects.get(filing=world.filing)
    assert (amendment.figure, amendment.delta_cents) == ("other_games_agp_cents", 5_000_000)
    assert set(AuditEvent.objects.values_list("action", flat=True)) >= {"other_games_agp.recorded", "alert.opened"}
    assert AuditEvent.objects.filter(
        action="row.created", object_type__icontains="filingamendment", object_id=str(amendment.pk)
    ).exists()
    assert filed_return(world).state == "equal"


# --- Written after the close by design, outside the filed figures --------------------------------------


def test_a_filed_days_deposit_is_recorded_after_the_close_and_moves_no_filed_figure(world):
    """The cage records a day's deposit once its books are closed (ND 99-01.3-03-10): the closed
    and filed figures leave the deposit out, so the return still reads as filed."""
    answer = world.as_(world.cast[Role.CASHIER]).post(
        "/api/v1/cage/deposits/",
        {"site": world.site.pk, "gaming_date": str(DAY), "amount_cents": 100_000, "deposited_on": str(LATER)},
        format="json",
    )
    assert answer.status_code == 201, answer.content
    assert AuditEvent.objects.filter(action="deposit.recorded").exists()
    now = filed_return(world)
    assert now.state == "equal" and {check.state for _, check in now.days} == {"equal"}


def test_a_filed_days_deposit_is_corrected_by_a_row_pointing_back_and_moves_no_filed_figure(world):
    """A correction of that deposit is a new row pointing back at it (cage.services.correct_deposit),
    as the deposit was recorded after the close: the deposit is no figure of the closed books or the
    return, so no amendment is due and the return still reads as filed."""
    from cage.models import BankDeposit, DepositCorrection

    cashier = world.as_(world.cast[Role.CASHIER])
    body = {"site": world.site.pk, "gaming_date": str(DAY), "amount_cents": 100_000, "deposited_on": str(LATER)}
    assert cashier.post("/api/v1/cage/deposits/", body, format="json").status_code == 201
    deposit = BankDeposit.objects.get()
    answer = cashier.post(
        f"/api/v1/cage/deposits/{deposit.pk}/correct/",
        {"amount_cents": 100_200, "reason": "A $2 roll of coin left off the slip."},
        format="json",
    )
    assert answer.status_code == 201, answer.content
    assert DepositCorrection.objects.get().deposit_id == deposit.pk
    assert BankDeposit.objects.get().amount_cents == 100_000  # as recorded
    assert AuditEvent.objects.filter(action="deposit.corrected").exists()
    assert not FilingAmendment.objects.exists()
    now = filed_return(world)
    assert now.state == "equal" and {check.state for _, check in now.days} == {"equal"}


def test_a_dealers_state_identifier_changed_after_the_filing_leaves_the_filed_dealers_as_filed(world):
    """The identifier keys the dealers' hold the filing froze (statefiling's FiledDealers): a
    later correction of it is master data, audited, and changes no filed figure or package. North
    Dakota's texts name none (ND 99-01.3-08-05(3)): the organization also runs a Washington site,
    whose law names one (WAC 230-03-265), so its employees may hold one."""
    SiteFactory(organization=world.site.organization, jurisdiction="WA-HB", name="Spokane Card Room")
    dealer = world.cast[Role.DEALER]
    answer = world.as_(world.manager).patch(
        f"/api/v1/employees/{dealer.pk}/", {"state_identifier": "B-0042"}, format="json"
    )
    assert answer.status_code == 200, answer.content
    assert AuditEvent.objects.filter(action="employee.updated", object_id=str(dealer.pk)).exists()
    assert filed_return(world).state == "equal"


@pytest.mark.parametrize("superuser", [False, True], ids=["gaming manager", "superuser"])
def test_the_admins_history_revert_refuses_a_tables_game_its_filed_records_were_read_under(
    world, django_user_model, superuser
):
    """django-simple-history's "Revert" form saves an old version through the admin's save: a
    table set up as paddlewheel, made twenty-one before play, then corrected on a filed day by an
    adjustment (a record of it), keeps its game when its first version is posted back."""
    from cardroom import services as cardroom_services

    spare = cardroom_services.create_table(
        acting_user=world.manager.user, site=world.site, number=2, game="PW", min_wager_cents=100, max_wager_cents=500
    )
    cardroom_services.update_table(acting_user=world.manager.user, table=spare, game="21")
    services.record_adjustment(
        acting_user=world.manager.user,
        books_close=BooksClose.objects.get(site=world.site, gaming_date=DAY),
        table=spare,
        field="drop",
        amount_cents=5_000,
        reason="A $50 bill found in the box of table 2.",
        recorded_on=LATER,
    )
    first = spare.history.order_by("history_id").first()
    browser = Client()
    user = django_user_model.objects.create_superuser("root", password="x") if superuser else world.manager.user
    browser.force_login(user)
    url = f"/admin/cardroom/table/{spare.pk}/history/{first.history_id}/"
    before = written(world)
    page = browser.post(url, admin_form(browser, url))
    assert page.status_code == 400, page.status_code  # refused: the revert form again with its error
    assert "its game cannot be changed" in page.content.decode().replace("&#x27;", "'")
    assert type(spare).objects.get(pk=spare.pk).game == "21"
    assert written(world) == before


# --- A day whose books are closed in a quarter not yet filed ------------------------------------------

CLOSED_DAY = date(2026, 11, 2)  # 2026Q4: open, its day's books closed


@pytest.fixture
def closed_day(world):
    """A day of 2026Q4 played (a fill and a credit issued) and its books closed."""
    scenario = Scenario(world.site, world.people)
    scenario.tray(world.table, CLOSED_DAY, "opener", 200_000)
    scenario.tray(world.table, CLOSED_DAY, "closer", 185_000)
    fill = scenario.slip(world.table, CLOSED_DAY, "fill", 20_000, number=51)
    credit = scenario.slip(world.table, CLOSED_DAY, "credit", 5_000, number=52)
    scenario.drop(world.table, CLOSED_DAY, 100_000)
    scenario.bank(CLOSED_DAY, "start", 500_000, 300_000)
    scenario.bank(CLOSED_DAY, "end", 600_000, 280_000)
    close = services.close_books(acting_user=world.manager.user, site=world.site, gaming_date=CLOSED_DAY)
    return close, fill, credit


def test_a_closed_day_of_an_open_quarter_takes_no_ideal_bank_from_before_it(world, closed_day):
    close, fill, credit = closed_day
    attempts = [
        (
            Role.GAMING_MANAGER,
            "/api/v1/cage/ideal-banks/",
            {"site": world.site.pk, "amount_cents": 900_000, "effective_on": "2026-10-20"},
            "effective_on",
        ),
    ]
    before = written(world)
    for role, url, body, field in attempts:
        answer = world.as_(world.cast[role]).post(url, body, format="json")
        assert answer.status_code == 400, answer.content
        assert "the books of 2026-11-02 are closed" in answer.json()[field][0], answer.json()
    assert written(world) == before
    days = summaries.daily_summaries([world.site], CLOSED_DAY, CLOSED_DAY)
    assert books.day_checks(days)[(world.site.pk, CLOSED_DAY)].state == "equal"


@pytest.mark.parametrize("where", ["filed quarter", "closed day"])
def test_a_slip_left_waiting_at_the_close_is_still_verified_and_received_after_its_books_close(
    world, closed_day, where
):
    """A slip carried past the close (floor.open_items) is completed at its paper's time: each
    step is a new append-only row, audited, and moves no figure of the closed books or the filed
    return (a slip's amount is its preparation's; the scan judges a receipt after the close as
    such, compliance's SLIP_RECEIVED bits). Refusing it would leave the slip unreceived forever."""
    _, fill, credit = closed_day
    if where == "filed quarter":
        fill, credit = world.slip, world.credit
    events, steps = AuditEvent.objects.count(), SlipStep.objects.count()
    verified = world.as_(world.cast[Role.PIT_BOSS]).post(f"/api/v1/fill-slips/{fill.pk}/verify/", {}, format="json")
    assert verified.status_code in (200, 201), verified.content
    received = world.as_(world.cast[Role.CASHIER]).post(
        f"/api/v1/credit-slips/{credit.pk}/receive/", {"unverified_reason": "nobody on duty"}, format="json"
    )
    assert received.status_code in (200, 201), received.content
    assert SlipStep.objects.count() == steps + 2
    assert AuditEvent.objects.count() > events
    assert filed_return(world).state == "equal"
    days = summaries.daily_summaries([world.site], CLOSED_DAY, CLOSED_DAY)
    assert books.day_checks(days)[(world.site.pk, CLOSED_DAY)].state == "equal"


# --- No update or delete of a record of the filed quarter through the API ----------------------------

RECORD_URLS = [
    ("fill slip", "/api/v1/fill-slips/{slip}/"),
    ("bank count", "/api/v1/cage/bank-counts/{bank}/"),
    ("count session", "/api/v1/count-sessions/{session}/"),
    ("gaming day", "/api/v1/gaming-days/{day}/"),
]
# Master data is changed through its service (refused above where the figures read it), never deleted.
WRITES = [(kind, path, method) for kind, path in RECORD_URLS for method in ("put", "patch", "delete")] + [
    ("table", "/api/v1/tables/{table}/", "delete"),
    ("site", "/api/v1/sites/{site}/", "delete"),
]


@pytest.mark.parametrize("kind, path, method", WRITES, ids=[f"{m} {k}" for k, _, m in WRITES])
def test_no_record_of_a_filed_quarter_is_updated_or_deleted_through_the_api(world, kind, path, method):
    url = path.format(
        slip=world.slip.pk,
        bank=BankCount.objects.filter(site=world.site, gaming_date=DAY).first().pk,
        session=CountSession.objects.get(site=world.site, gaming_date=DAY).pk,
        day=world.slip.gaming_day_id,
        table=world.table.pk,
        site=world.site.pk,
    )
    before = written(world)
    answer = getattr(world.as_(world.manager), method)(url, {"total_cents": 1}, format="json")
    assert answer.status_code == 405, answer.content
    assert written(world) == before
    assert filed_return(world).state == "equal"


def test_the_admin_adds_no_low_hold_threshold_in_force_inside_the_filed_quarter(world, django_user_model):
    """The low-hold threshold stands beside each game on the filed return (ND 99-01.3-08-04(9)):
    a new one in force from a date of the filed quarter is refused at its date, even to a superuser."""
    from compliance.models import Threshold

    browser = Client()
    browser.force_login(django_user_model.objects.create_superuser("root", password="x"))
    rows = Threshold.objects.count()
    page = browser.post(
        "/admin/compliance/threshold/add/",
        {
            "code": "low_hold.ratio_21",
            "value": "0.05",
            "unit": "ratio",
            "citation": "ND 99-01.3-08-04(9)",
            "summary": "Twenty-one low hold",
            "effective_from": str(DAY),
        },
    )
    assert page.status_code == 400
    assert "would judge a filed quarter" in page.content.decode()
    assert Threshold.objects.count() == rows
    assert filed_return(world).state == "equal"
