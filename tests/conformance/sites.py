"""A site of each pack with a realistic stretch of activity, made through the services and the API
as the people of the site would (never rows written to the database): the demo's master data
(`cardroom.demo`, `cardroom.pack_demo`, `approvals.demo`), the people the demo lacks, then days of
play entered as day sheets (`POST /api/v1/sites/{id}/day-sheets/`: opener, dealers, fills and
credits, closers, the drop and its count), tips, the bank's counts, IOUs and deposits, the closed
books and, where the pack files one, the filed quarter, then an adjusting entry of its first day
entered today (the quarter's amendment); a WA-BJ site's fees and their count, a NY
site's games-of-chance sessions; then the compliance scan as the schedule runs it.

Each pack has one builder (the table `PACKS` of the test lists them); a builder returns a `BuiltSite` naming the site, its
people by kind of user, and the objects the walk fills addresses with. Adding a pack is adding
its builder and its words to that table.
"""

from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.utils import timezone
from rest_framework.test import APIClient

from cardroom import services as cardroom_services
from cardroom.chips import default_spec
from cardroom.demo import DEMO_PASSWORD
from cardroom.models import ChipDenomination, Employee, Organization, Role, Site, Table
from core.periods import Quarter
from floor.calculations import site_today
from packs.nd.chips import SPECS as CHIP_SPECS
from tests.factories import witness_pin

HOUSE_COLOURS = ("yellow", "white", "pink", "red", "green", "black")

# The kinds of user who walk a site: the demo's logins where it has them, else made here. A site
# whose player deals and banks (floor.rules.PLAYER_DEALER) has no dealer: the house seats none.
USER_KINDS = ("gaming_manager", "auditor", "shift_manager", "pit_boss", "cashier", "dealer", "count_team")

TRAY = [{"denomination": 2500, "quantity": 40}, {"denomination": 500, "quantity": 100}]
FILL = [{"denomination": 2500, "quantity": 20}]
CREDIT = [{"denomination": 500, "quantity": 20}]
CLOSERS = (
    [{"denomination": 2500, "quantity": 45}, {"denomination": 500, "quantity": 80}],
    [{"denomination": 2500, "quantity": 38}, {"denomination": 500, "quantity": 70}],
)
BOXES = (
    [{"denomination_cents": 10000, "quantity": 12}, {"denomination_cents": 2000, "quantity": 15}],
    [{"denomination_cents": 10000, "quantity": 7}],
)
BANK_CASH = {10000: 30, 2000: 150, 500: 80, 100: 100}
BANK_CHIPS = {2500: 600, 500: 200, 100: 1500}


@dataclass
class BuiltSite:
    pack: str  # the site's jurisdiction code
    site: Site
    users: dict[str, Employee]  # kind of user (USER_KINDS; no dealer where the player deals) -> employee
    days: list[date]  # the gaming dates played
    quarter: Quarter  # the quarter the activity is in (the last ended one)
    objects: dict[str, object] = field(default_factory=dict)  # what the walk fills addresses with
    refusals: dict[str, tuple[int, str]] = field(default_factory=dict)  # bad input -> (status, text)

    @property
    def organization(self) -> Organization:
        return self.site.organization


def api_as(employee: Employee) -> APIClient:
    client = APIClient()
    client.force_authenticate(employee.user)
    return client


def posted(client: APIClient, path: str, body: dict, status: int = 201) -> dict:
    response = client.post(path, body, format="json")
    assert response.status_code == status, f"POST {path}: {response.status_code} {response.content[:2000]!r}"
    return response.json() if response.content else {}


def played_days(site: Site) -> tuple[Quarter, list[date]]:
    """The last two days of the quarter that ended last (the quarter is filed where the pack files
    one) and a day a few days ago (this quarter's figures, unless the quarter has just begun)."""
    today = site_today(site)  # the site's gaming date: behind UTC's date in the hours after midnight UTC
    quarter = Quarter.containing(today).previous()
    recent = today - timedelta(days=4)
    days = [quarter.end - timedelta(days=1), quarter.end]
    if recent > quarter.end:
        days.append(recent)
    return quarter, days


def local(site: Site, day: date, hh_mm: str, next_day: bool = False) -> datetime:
    hour, minute = map(int, hh_mm.split(":"))
    return datetime.combine(day + timedelta(days=int(next_day)), time(hour, minute), tzinfo=ZoneInfo(site.time_zone))


def iso(site: Site, day: date, hh_mm: str, next_day: bool = False) -> str:
    return local(site, day, hh_mm, next_day).isoformat()


# --- master data: the demo's, and the people it lacks ----------------------------------------------


def demo_master_data() -> dict:
    """The demo's organizations, sites, tables and people (ND, WA and NY), its Washington game
    approval and internal controls; all through the services, as `make run` loads them."""
    from approvals.demo import extend_demo as approvals
    from cardroom.demo import load_demo, secrets_hashed_once
    from cardroom.pack_demo import extend_demo as packs

    with secrets_hashed_once():
        demo = load_demo()
        packs(demo)
        approvals(demo)
    return demo


def reread(demo: dict) -> dict:
    """The demo with its sites read again from the database: a pack's builder starts from the
    rows, not from instances an earlier pack's builder used (its writes rolled back since)."""
    again = {key: {k: Site.objects.get(pk=site.pk) for k, site in demo[key].items()} for key in ("sites", "pack_sites")}
    return {**demo, **again}


def person(manager: Employee, site: Site, login: str, role: str, initials: str, kind: str = "gaming") -> Employee:
    """An employee of the site's organization holding `role` there (org-wide for a gaming manager
    or an auditor), made by the gaming manager through the services."""
    employee = Employee.objects.filter(user__username=login).first()
    if employee is None:
        employee = cardroom_services.create_employee(
            acting_user=manager.user,
            organization=site.organization,
            username=login,
            password=DEMO_PASSWORD,
            first_name=login.capitalize(),
            last_name="Conformance",
            initials=initials,
            employment_type=kind,
        )
    where = None if role in (Role.GAMING_MANAGER, Role.AUDITOR) else site
    if not employee.memberships.filter(site=where, role=role).exists():
        cardroom_services.add_membership(acting_user=manager.user, employee=employee, role=role, site=where)
    return employee


def chip_set(manager: Employee, organization: Organization) -> None:
    """The organization's chip values (a Washington or New York organization of the demo has none)."""
    have = set(ChipDenomination.objects.filter(organization=organization).values_list("value_cents", flat=True))
    for number, value in enumerate(CHIP_SPECS):
        if value not in have:
            # Where no pack of the organization prescribes chip colours, the house chooses its own.
            colours = (
                {}
                if default_spec(organization.pk, value)
                else {"primary_colour": HOUSE_COLOURS[number], "edge_spots": "four solid edge spots"}
            )
            cardroom_services.create_chip_denomination(
                acting_user=manager.user,
                organization=organization,
                value_cents=value,
                marking=organization.name,
                **colours,
            )


def login(username: str) -> Employee:
    return Employee.objects.select_related("user", "organization").get(user__username=username)


# --- activity ------------------------------------------------------------------------------------


def register_custody_books(manager: Employee, site: Site, tables: list[Table]) -> None:
    """Slip books (fills 1001-1100, credits 501-600) and a drop box per table."""
    from counts import services as counts
    from floor import services as floor

    floor.register_slip_book(acting_user=manager.user, site=site, kind="fill", first_number=1001, last_number=1100)
    floor.register_slip_book(acting_user=manager.user, site=site, kind="credit", first_number=501, last_number=600)
    for table in tables:
        counts.register_drop_box(acting_user=manager.user, table=table)


def day_sheet(site: Site, day: date, n: int, tables: list[Table], u: dict[str, Employee], dealers) -> dict:
    """A night of play on two tables: openers, a dealer each, a fill and a credit, closers, the
    drop removed, counted blind by two and signed, the day closed."""
    i = {key: person.initials for key, person in u.items()}
    t1, t2 = (t.number for t in tables[:2])
    fill, credit = 1001 + n, 501 + n
    return {
        "gaming_date": day.isoformat(),
        "open": {"opened_at": iso(site, day, "17:55"), "opened_by": i["shift_manager"]},
        "openers": [
            {
                "table": t,
                "counted_at": iso(site, day, f"18:0{k}"),
                "counted_by": i["shift_manager"],
                "chips": CLOSERS[k] if n else TRAY,
            }  # the last night's closer
            for k, t in enumerate((t1, t2))
        ],
        "dealer_shifts": [
            {
                "table": t,
                "dealer": dealer.initials,
                "started_at": iso(site, day, "18:05"),
                "started_by": i["shift_manager"],
            }
            for t, dealer in zip((t1, t2), dealers, strict=True)
        ],
        "slips": [
            {
                "kind": "fill",
                "number": fill,
                "table": t1,
                "chips": FILL,
                "prepared_at": iso(site, day, "20:00"),
                "prepared_by": i["cashier"],
                "verified_at": iso(site, day, "20:01"),
                "verified_by": i["pit_boss"],
                "received_at": iso(site, day, "20:02"),
                "received_by": dealers[0].initials,
            },
            {
                "kind": "credit",
                "number": credit,
                "table": t2,
                "chips": CREDIT,
                "prepared_at": iso(site, day, "23:00"),
                "prepared_by": i["pit_boss"],
                "verified_at": iso(site, day, "23:01"),
                "verified_by": i["shift_manager"],
                "received_at": iso(site, day, "23:02"),
                "received_by": i["cashier"],
            },
        ],
        "closers": [
            {
                "table": t,
                "counted_at": iso(site, day, f"01:0{k}", True),
                "counted_by": i["shift_manager"],
                "chips": CLOSERS[k],
            }
            for k, t in enumerate((t1, t2))
        ],
        "drops": [
            {
                "box": t,
                "removed_at": iso(site, day, "01:10", True),
                "removed_by": i["shift_manager"],
                "escorted_by": i["pit_boss"],
                "storage_place": "office safe",
                "key_holder": i["count_team"],
            }
            for t in (t1, t2)
        ],
        "close": {"closed_at": iso(site, day, "01:30", True), "closed_by": i["shift_manager"]},
        "count": {
            "opened_at": iso(site, day, "02:00", True),
            "opened_by": i["count_team"],
            "members": [i["count_team"], i["count_team_2"]],
            "entries": [  # each box holds its table's slip: the fill's copy, the credit's original (08-05(4), (6))
                {
                    "box": t,
                    "counted_at": iso(site, day, "02:10", True),
                    "counted_by": i[who],
                    "currency": cash,
                    "forms": [form],
                }
                for t, cash, form in zip(
                    (t1, t2),
                    BOXES,
                    ({"kind": "fill", "number": fill}, {"kind": "credit", "number": credit}),
                    strict=True,
                )
                for who in ("count_team", "count_team_2")
            ],
            "signatures": [
                {"signed_at": iso(site, day, "02:30", True), "signed_by": i["count_team"]},
                {"signed_at": iso(site, day, "02:31", True), "signed_by": i["count_team_2"]},
            ],
        },
    }


def tips_of_the_night(site: Site, day: date, dealer: Employee, cashier: Employee) -> None:
    """One dealer declares and redeems their tips before the closers; the other declares none
    (where the law says a dealer redeems tips before leaving, that is flagged)."""
    from cage import services as cage

    declaration = cage.declare_tips(
        acting_user=dealer.user, site=site, gaming_date=day, chips={100: 14, 500: 2}, at=local(site, day, "00:40", True)
    )
    cage.redeem_tips(
        acting_user=cashier.user, declaration=declaration, dealer=dealer, at=local(site, day, "00:45", True)
    )


def bank_of_the_day(site: Site, day: date, cashier: Employee, n: int) -> None:
    """The bank's starting and ending counts (one a few dollars short); the first day an IOU lent
    and repaid and a player's chips redeemed at the window. Where the house's revenue is its fees
    (WA-BJ) it holds no chips: the bank is cash only and no chips are redeemed."""
    from cage import services as cage
    from floor.rules import house_chips

    chips = BANK_CHIPS if house_chips(site) else {}
    for kind, cash in (("start", BANK_CASH), ("end", {**BANK_CASH, 100: BANK_CASH[100] - 3 * (n % 2)})):
        cage.record_bank_count(acting_user=cashier.user, site=site, gaming_date=day, kind=kind, cash=cash, chips=chips)
    if n == 0:
        iou = cage.lend_iou(
            acting_user=cashier.user,
            site=site,
            gaming_date=day,
            source="bank",
            destination="reserve",  # a fund every pack's site keeps (the pull-tab bank is North Dakota's)
            amount_cents=20000,
            note="Cash to the safe overnight",
        )
        cage.repay_iou(acting_user=cashier.user, iou=iou, gaming_date=day)
    if n == 0 and chips:
        cage.redeem_chips(
            acting_user=cashier.user,
            site=site,
            gaming_date=day,
            chips={2500: 4, 500: 6},
            at=local(site, day, "23:30"),
        )


def cage_setup(manager: Employee, site: Site, first_day: date) -> None:
    from cage import services as cage
    from cage.models import ChipMovement, TipPolicy

    cage.set_ideal_bank(
        acting_user=manager.user, site=site, amount_cents=800000, effective_on=first_day - timedelta(days=30)
    )
    if not ChipMovement.objects.filter(organization=site.organization).exists():
        cage.receive_chips(
            acting_user=manager.user,
            organization=site.organization,
            received_on=first_day - timedelta(days=60),
            reference="Manufacturer invoice 2026-0412",
            chips={100: 2000, 500: 2000, 2500: 600, 10000: 100},
        )
    if not TipPolicy.objects.filter(organization=site.organization).exists():
        cage.record_tip_policy(
            acting_user=manager.user,
            organization=site.organization,
            pooled=False,
            effective_on=first_day - timedelta(days=30),
            description="Each dealer keeps and redeems their own tips at the end of the shift.",
        )


def close_the_books(site: Site, days: list[date], manager: Employee, cashier: Employee) -> None:
    """Each day's books closed through the API, then its deposit recorded (the next day); the first
    deposit corrected by the gaming manager (a correction pointing back at it, with its reason)."""
    from cage import services as cage
    from floor.models import GamingDay

    client = api_as(manager)
    corrected = False
    for day in days:
        posted(client, f"/api/v1/sites/{site.pk}/close-books/", {"gaming_date": day.isoformat()})
        gaming_day = GamingDay.objects.get(site=site, gaming_date=day)
        if day + timedelta(days=1) <= site_today(site):
            deposit = cage.record_deposit(
                acting_user=cashier.user,
                gaming_day=gaming_day,
                amount_cents=52500,
                deposited_on=day + timedelta(days=1),
                reference=f"Deposit {day:%Y%m%d}",
            )
            if not corrected:  # the first deposit corrected: its pages and reports list the correction
                cage.correct_deposit(
                    acting_user=manager.user, deposit=deposit, amount_cents=52000, reason="A $5 bill counted twice."
                )
                corrected = True


def drop_based_stretch(built: BuiltSite, tables: list[Table], *, files_quarter: bool, each_day=None) -> BuiltSite:
    """The days of a drop-based site (ND, WA house-banked, NY): custody, count, cage, tips, books."""
    site, u = built.site, built.users
    manager = u["gaming_manager"]
    register_custody_books(manager, site, tables)
    cage_setup(manager, site, built.days[0])
    client = api_as(manager)
    for n, day in enumerate(built.days):
        tips_of_the_night(site, day, u["dealer"], u["cashier"])
        sheet = day_sheet(site, day, n, tables, u, (u["dealer"], u["dealer_2"]))
        posted(client, f"/api/v1/sites/{site.pk}/day-sheets/", sheet)
        bank_of_the_day(site, day, u["cashier"], n)
        if each_day is not None:
            each_day(day)
    close_the_books(site, built.days, manager, u["cashier"])
    cameras(built)
    if files_quarter:
        posted(
            client,
            f"/api/v1/sites/{site.pk}/quarter-filing/",
            {"quarter": str(built.quarter), "reference": "Filed by mail"},
        )
    correct_the_quarter_later(built, tables[0])
    return built


def correct_the_quarter_later(built: BuiltSite, table: Table) -> None:
    """A drop found after the quarter's books closed, entered today as an adjusting entry of its
    first day: the played quarter's pages and reports list an amendment (of its filing, where it
    is filed: the 'filed quarter amended' alert) and this quarter's a correction of an earlier one."""
    from accounting.models import BooksClose
    from accounting.rules import adjustment_fields

    close = BooksClose.objects.get(site=built.site, gaming_date=built.days[0])
    # a table's drop where the pack's figures are the drop; else (a session pack) the cash
    what = {"table": table.pk, "field": "drop"} if "drop" in adjustment_fields(built.site) else {"field": "cash"}
    built.objects["adjustment"] = posted(
        api_as(built.users["gaming_manager"]),
        "/api/v1/adjustments/",
        {
            "books_close": close.pk,
            **what,
            "amount_cents": 2_000,
            "reason": "A $20 bill found after the count",
            "recorded_on": str(site_today(built.site)),
        },
    )["id"]


def cameras(built: BuiltSite) -> None:
    """The surveillance of the demo's busy site, built the same way here (`surveillance.demo`): the
    system's status, a camera and a dome per table and a recorder with their approved samples,
    the review log and recordings of the days played, two outages repaired, a review program."""
    from surveillance import services
    from surveillance.demo import build_demo_surveillance
    from surveillance.rules import FIELD_OF_VIEW

    build_demo_surveillance(
        built.site, people={"gm": built.users["gaming_manager"], "shift": built.users["shift_manager"]}
    )
    # The demo logs the days its floor built; the days played here are logged as a manager would,
    # so the surveillance log of the walked period has rows (their review times) to read.
    for table in built.site.tables.filter(number__in=(1, 2)):
        for day in built.days[:2]:
            services.add_review_log_entry(
                acting_user=built.users["gaming_manager"].user,
                table=table,
                gaming_date=day,
                camera_recording=True,
                unobstructed_view=True,
                clear_picture=True,
                field_of_view=True if FIELD_OF_VIEW.applies(built.site) else None,
                notes="",
            )


def _users(site: Site, demo_logins: dict[str, str], made: dict[str, tuple[str, str, str, str]]) -> dict:
    """The site's people by kind: the demo's logins, and the others made by its gaming manager
    (login, role, initials, employment type)."""
    users = {kind: login(name) for kind, name in demo_logins.items()}
    manager = users["gaming_manager"]
    for kind, (name, role, initials, employment) in made.items():
        users[kind] = person(manager, site, name, role, initials, employment)
    return users


# --- one builder per pack ------------------------------------------------------------------------


def build_nd(demo: dict, night=None) -> BuiltSite:
    """The demo's Bismarck Elks Lodge (ND 99-01.3-08): tables 1 and 2, quarter filed; `night(built,
    day)`, if given, runs after each night's day sheet (before the books close)."""
    site = demo["sites"]["busy"]
    users = _users(
        site,
        {
            "gaming_manager": "gm",
            "auditor": "auditor",
            "shift_manager": "shift",
            "pit_boss": "pitboss",
            "cashier": "cashier",
            "dealer": "dealer4",
            "dealer_2": "dealer5",
            "count_team": "count1",
            "count_team_2": "count2",
        },
        {},
    )
    quarter, days = played_days(site)
    tables = list(site.tables.filter(number__in=(1, 2)).order_by("number"))
    built = BuiltSite("ND", site, users, days, quarter)
    drop_based_stretch(built, tables, files_quarter=True, each_day=night and (lambda day: night(built, day)))
    tournament(built)
    return built


def tournament(built: BuiltSite) -> None:
    """A twenty-one tournament announced for tonight (ND 99-01.3-08-15) with a player entered."""
    from tournaments import services as tournaments

    site, shift = built.site, built.users["shift_manager"]
    event = tournaments.announce_tournament(
        acting_user=shift.user,
        site=site,
        name="Friday Blackjack Tournament",
        gaming_date=site_today(site),
        entry_fee_cents=10000,
        rebuy_fee_cents=5000,
        add_on_fee_cents=2500,
        chips_per_entry=500,
        chips_per_rebuy=500,
        chips_per_add_on=100,
        minimum_bet_chips=10,
        maximum_bet_chips=200,
        betting_spaces=1,
        rotating_button=True,
        length_of_play="30 hands per round",
        prizes_offered="First place $150 cash.",
        advancement="The two players with the most chips at each table advance to the final.",
    )
    built.objects["tournament"] = event.pk


WA_PEOPLE = {
    "auditor": ("waauditor", Role.AUDITOR, "WAU", "non_gaming"),
    "pit_boss": ("wapit", Role.PIT_BOSS, "WPB", "gaming"),
    "dealer_2": ("wadealer2", Role.DEALER, "WD2", "gaming"),
    "count_team": ("wacount1", Role.COUNT_TEAM, "WK1", "non_gaming"),
    "count_team_2": ("wacount2", Role.COUNT_TEAM, "WK2", "non_gaming"),
}
WA_LOGINS = {"gaming_manager": "wagm", "shift_manager": "washift", "cashier": "wacashier", "dealer": "wadealer"}


def build_wa_hb(demo: dict) -> BuiltSite:
    """The demo's Spokane Card Room (WSGC house-banked blackjack): its table 1 and the Double Down
    Madness table 2 under the internal controls and the game approval; drop-based, no filing."""
    site = demo["pack_sites"]["spokane"]
    chip_set(login("wagm"), site.organization)
    users = _users(site, WA_LOGINS, WA_PEOPLE)
    quarter, days = played_days(site)
    tables = list(site.tables.filter(number__in=(1, 2)).order_by("number"))
    built = BuiltSite("WA-HB", site, users, days, quarter)
    return drop_based_stretch(built, tables, files_quarter=False)


def build_wa_bj(demo: dict) -> BuiltSite:
    """The demo's Tacoma Blackjack Room (WAC 230-40-125, player-banked): the house's revenue is
    the fees it collects on a time basis, counted each day by two; no drop, no fills or credits.
    The gaming day is opened and closed, the bank counted and the books closed."""

    site = demo["pack_sites"]["tacoma"]
    chip_set(login("wagm"), site.organization)
    # No dealer: the player deals and banks (WAC 230-40-125(2)), the house seats none.
    logins = {kind: name for kind, name in WA_LOGINS.items() if kind != "dealer"}
    users = _users(site, logins, {kind: made for kind, made in WA_PEOPLE.items() if kind != "dealer_2"})
    quarter, days = played_days(site)
    table = site.tables.get(number=1)
    manager, cashier, shift = users["gaming_manager"], users["cashier"], users["shift_manager"]
    built = BuiltSite("WA-BJ", site, users, days, quarter)
    cage_setup(manager, site, days[0])
    for n, day in enumerate(days):
        posted(
            api_as(manager),
            f"/api/v1/sites/{site.pk}/day-sheets/",
            {
                "gaming_date": day.isoformat(),
                "open": {"opened_at": iso(site, day, "13:30"), "opened_by": shift.initials},
                "close": {"closed_at": iso(site, day, "23:30"), "closed_by": shift.initials},
            },
        )
        collected = 0
        for hour, players in ((14, 4), (15, 6), (16, 7), (17, 5)):
            fee = {
                "table": table.pk,
                "basis": "per_player",
                "period_minutes": 30,
                "rate_cents": 200,
                "count": players,
                "amount_cents": 200 * players,
                "collected_at": iso(site, day, f"{hour}:00"),
            }
            built.objects["fee"] = posted(api_as(cashier), "/api/v1/fee-collections/", fee)["id"]
            collected += 200 * players
        short = 500 if n == 1 else 0
        posted(
            api_as(cashier),
            "/api/v1/fee-counts/",
            {
                "site": site.pk,
                "gaming_date": day.isoformat(),
                "counted_cents": collected - short,
                "witness": shift.pk,
                "witness_pin": witness_pin(shift),
                "counted_at": iso(site, day, "22:00"),
            },
        )
        bank_of_the_day(site, day, cashier, n)
    close_the_books(site, days, manager, cashier)
    correct_the_quarter_later(built, table)
    return built


NY_PEOPLE = {
    "auditor": ("nyauditor", Role.AUDITOR, "NAU", "non_gaming"),
    "pit_boss": ("nypit", Role.PIT_BOSS, "NPB", "gaming"),
    "cashier": ("nycashier", Role.CASHIER, "NCA", "gaming"),
    "dealer_2": ("nydealer2", Role.DEALER, "ND2", "gaming"),
    "count_team": ("nycount1", Role.COUNT_TEAM, "NK1", "non_gaming"),
    "count_team_2": ("nycount2", Role.COUNT_TEAM, "NK2", "non_gaming"),
}


def build_ny(demo: dict) -> BuiltSite:
    """The demo's Kingston Fire Hall (9 NYCRR 4620.5): the organization banks the game (its chips
    on two tables, fills, credits and the drop), and each night is a licensed games-of-chance
    session with its receipts and prizes."""
    site = demo["pack_sites"]["kingston"]
    manager = login("nygm")
    chip_set(manager, site.organization)
    if not site.tables.filter(number=2).exists():
        first = site.tables.get(number=1)
        options = {
            f: getattr(first, f)
            for f in (
                "game",
                "min_wager_cents",
                "max_wager_cents",
                "decks",
                "max_players",
                "betting_spaces",
                "double_on",
                "double_after_split",
                "split_pairs",
                "tie_option",
                "blackjack_payout",
            )
        }
        cardroom_services.create_table(acting_user=manager.user, site=site, number=2, **options)
    users = _users(site, {"gaming_manager": "nygm", "shift_manager": "nyshift", "dealer": "nydealer"}, NY_PEOPLE)
    quarter, days = played_days(site)
    tables = list(site.tables.filter(number__in=(1, 2)).order_by("number"))
    built = BuiltSite("NY", site, users, days, quarter)

    def session(day):
        built.objects["game_session"] = posted(
            api_as(users["shift_manager"]),
            "/api/v1/game-sessions/",
            {
                "site": site.pk,
                "licence_number": site.organization.licence_number,
                "started_at": iso(site, day, "18:00"),
                "ended_at": iso(site, day, "23:00"),
                "receipts_cents": 184_000,
                "prizes_cents": 121_500,
            },
        )["id"]

    return drop_based_stretch(built, tables, files_quarter=False, each_day=session)


def request_a_report(built) -> None:
    """Each site's gaming manager asks for the daily report of its last day through the API
    (the reports list and a report's page then have a row to link to)."""
    for b in built:
        posted(
            api_as(b.users["gaming_manager"]),
            "/api/v1/reports/",
            {"kind": "daily", "site": b.site.pk, "start": str(b.days[-1]), "end": str(b.days[-1])},
        )


def run_the_compliance_scan(built: list[BuiltSite]) -> None:
    """The scheduled jobs, called as the schedule calls them: the quarter rules for the quarter
    that ended and this one so far, the day rules for the week ending on each day played."""
    from compliance.tasks import run_daily_checks, run_quarter_checks

    quarters = {b.quarter for b in built} | {Quarter.containing(timezone.localdate())}
    for quarter in sorted(quarters, key=str):
        run_quarter_checks(str(quarter))
    for day in sorted({d for b in built for d in b.days}):
        run_daily_checks(day.isoformat())
