"""The floor speaks the site's own law (issue 32): at a Washington house-banked (WA-HB) or New York
(NY) site every slip refusal, through the API and the pages, and the slip's PDF cite "House
control" (neither text states the slip rules) and never North Dakota's words; the tips a dealer
redeems before leaving (ND 99-01.3-08-06(3)) are neither checked nor flagged there; at a
Washington blackjack (WA-BJ) site, whose revenue is its fees, fills, credits and tray counts are
refused citing WAC 230-40-125(1). At a North Dakota site the words are what they always were.
Everything goes through the services, the API and the pages."""

import io
import re
from datetime import timedelta

import pytest
from pypdf import PdfReader

from cage import services as cage
from cardroom.models import Membership, Role
from compliance.models import Alert
from floor import rules, services
from floor.models import DealerShift, Slip, SlipBook, TableInventory
from floor.pdf_slips import build_slip_document, render_slip_pdf
from tests.conformance.words import ND_WORDS, OTHER_WORDS, law_words_in
from tests.factories import OrganizationFactory, SiteFactory, TableFactory, fees_site, make_person
from tests.page_support import as_user

from .conftest import FILL, TRAY, pack_site, pack_table, today

FEES_RULE = "WAC 230-40-125(1) (1999 proposed amendment)"
PLAYER_DEALER_RULE = "WAC 230-40-125(2) (1999 proposed amendment)"
NO_HOUSE_DEALER = (
    f"{PLAYER_DEALER_RULE}: the game at Tacoma Blackjack Room is played with a player who is both the dealer "
    "and banker (dealer/banker), so the house seats no dealer at its tables."
)


def foreign_at(code: str) -> list:
    return OTHER_WORDS if code == "ND" else ND_WORDS


def assert_own_law(text: str, code: str) -> None:
    found = law_words_in(text, foreign_at(code))
    assert found == [], f"{found} at a {code} site: {text[:600]}"


def post(client, url, data=None):
    return client.post(url, data or {}, format="json")


def refusal(response, field: str | None = None) -> str:
    """The refusal's words: a 400's message for `field` (the first field when None), a 403's detail."""
    body = response.json()
    if response.status_code == 403:
        return body["detail"]
    assert response.status_code == 400, body
    return body[field][0] if field else next(iter(body.values()))[0]


# --- WA-HB and NY: the slip rules are house controls ------------------------------------------------

PACKS = ["WA-HB", "NY"]


@pytest.fixture(params=PACKS)
def code(request):
    return request.param


@pytest.fixture
def site(org, code):
    return pack_site(org, code)


@pytest.fixture
def table(site, code):
    return pack_table(site, code)


def test_the_floor_cites_house_control_for_every_slip_rule_the_pack_does_not_state(site):
    cited = rules.citations_at(site)
    assert set(cited.values()) == {"House control"}, cited
    assert rules.unverified_note(site).endswith("(House control).")
    assert rules.step_citation("void", site) == "House control"


def test_a_preparer_refusal_cites_house_control(client_for, cast, open_table, code):
    dealer = client_for(cast[Role.DEALER])
    forbidden = post(dealer, "/api/v1/fill-slips/", {"table": open_table.pk, "chips": FILL})
    assert forbidden.status_code == 403 and refusal(forbidden).startswith("House control: only")
    boss = client_for(cast[Role.PIT_BOSS])
    no_cashier = post(boss, "/api/v1/fill-slips/", {"table": open_table.pk, "chips": FILL})
    assert refusal(no_cashier, "cashier").startswith("House control: a fill slip carries the initials")
    no_chips = post(boss, "/api/v1/credit-slips/", {"table": open_table.pk})
    assert refusal(no_chips).startswith("House control: ")
    between = post(boss, "/api/v1/fill-slips/", {"table": open_table.pk, "to_table": open_table.pk, "chips": FILL})
    assert refusal(between, "to_table").startswith("House control: chips never move directly between two tables")
    for response in (forbidden, no_cashier, no_chips, between):
        assert_own_law(str(response.json()), code)
    assert not Slip.objects.exists()


def test_a_verifier_refusal_cites_house_control(client_for, cast, fill, code):
    own = post(client_for(cast[Role.CASHIER]), f"/api/v1/fill-slips/{fill.pk}/verify/")
    assert own.status_code == 403 and refusal(own).startswith("House control: only")
    boss = make_person(fill.site.organization, Role.PIT_BOSS, fill.site)
    mine = services.prepare_fill(acting_user=boss.user, table=fill.table, chips=FILL, cashier=cast[Role.CASHIER])
    self_verify = post(client_for(boss), f"/api/v1/fill-slips/{mine.pk}/verify/")
    assert refusal(self_verify, "slip") == "House control: the preparer cannot verify their own slip."
    assert_own_law(str(own.json()) + str(self_verify.json()), code)


def test_a_receiver_refusal_cites_house_control(client_for, cast, fill, dealer_shift, code):
    unverified = post(client_for(cast[Role.DEALER]), f"/api/v1/fill-slips/{fill.pk}/receive/")
    assert refusal(unverified, "slip").startswith(f"House control: fill slip {fill.number} must be verified before")
    post(client_for(cast[Role.PIT_BOSS]), f"/api/v1/fill-slips/{fill.pk}/verify/")
    relief = make_person(fill.site.organization, Role.DEALER, fill.site)
    not_at_table = post(client_for(relief), f"/api/v1/fill-slips/{fill.pk}/receive/")
    assert refusal(not_at_table, "slip").startswith("House control: only the dealer on shift at")
    assert_own_law(str(unverified.json()) + str(not_at_table.json()), code)


def test_a_preparer_receiving_their_own_slip_is_refused_citing_house_control(client_for, cast, dealer_shift, code):
    boss = make_person(dealer_shift.table.site.organization, Role.PIT_BOSS, dealer_shift.table.site)
    Membership.objects.create(employee=boss, site=dealer_shift.table.site, role=Role.CASHIER)
    credit = services.prepare_credit(acting_user=boss.user, table=dealer_shift.table, chips=FILL)
    post(client_for(cast[Role.SHIFT_MANAGER]), f"/api/v1/credit-slips/{credit.pk}/verify/")
    own = post(client_for(boss), f"/api/v1/credit-slips/{credit.pk}/receive/")
    assert refusal(own, "slip") == (
        "House control: the preparer cannot receive their own slip; the receiving side verifies it."
    )
    assert_own_law(str(own.json()), code)


def test_with_nobody_on_duty_to_verify_the_receipt_says_so_citing_house_control(
    day_under_way, client_for, cast, fill, dealer_shift, shift_manager, site, code
):
    now = fill.prepared_at
    period = services.start_duty(acting_user=shift_manager.user, site=site, at=now - timedelta(minutes=30))
    services.end_duty(acting_user=shift_manager.user, period=period, at=now - timedelta(minutes=10))
    refused = post(client_for(cast[Role.DEALER]), f"/api/v1/fill-slips/{fill.pk}/receive/")
    assert refusal(refused, "unverified_reason").startswith("House control: nobody who could verify is on duty")
    received = post(
        client_for(cast[Role.DEALER]), f"/api/v1/fill-slips/{fill.pk}/receive/", {"unverified_reason": "Pit empty."}
    )
    assert received.status_code == 200, received.json()
    assert received.json()["receipt_note"] == (
        "Not verified: no shift manager or authorized employee was on duty who was not presently dealing "
        "(House control). Reason: Pit empty."
    )
    assert_own_law(str(received.json()), code)


def test_numbering_and_void_refusals_cite_house_control(client_for, cast, fill, code, site):
    def cashier():
        return client_for(cast[Role.CASHIER])  # one client, logged in again as the cashier

    not_in_a_book = post(cashier(), "/api/v1/fill-slips/", {"table": fill.table_id, "chips": FILL, "number": 9999})
    assert refusal(not_in_a_book, "number") == "House control: 9999 is not in a registered book of fill slips."
    book = post(client_for(cast[Role.SHIFT_MANAGER]), "/api/v1/slip-books/",
                {"site": site.pk, "kind": "fill", "first_number": 1, "last_number": 50})  # fmt: skip
    assert refusal(book, "kind").startswith("House control: ") and "numbers this series electronically" in str(
        book.json()
    )
    not_preparer = post(client_for(cast[Role.PIT_BOSS]), f"/api/v1/fill-slips/{fill.pk}/void/", {"reason": "x"})
    assert refusal(not_preparer, "slip").startswith("House control: a voided slip is initialed by its preparer")
    no_reason = post(cashier(), f"/api/v1/fill-slips/{fill.pk}/void/", {"reason": ""})
    assert refusal(no_reason, "reason") == "House control: say why the slip is void."
    assert post(cashier(), f"/api/v1/fill-slips/{fill.pk}/void/", {"reason": "wrong table"}).status_code == 200
    again = post(cashier(), f"/api/v1/fill-slips/{fill.pk}/void/", {"reason": "again"})
    assert refusal(again, "slip") == f"House control: fill slip {fill.number} is void."
    for response in (not_in_a_book, book, not_preparer, no_reason, again):
        assert_own_law(str(response.json()), code)


def test_a_closed_days_slip_refusals_cite_house_control(client_for, cast, fill, gaming_day, code):
    manager = cast[Role.SHIFT_MANAGER]
    services.carry_open_items(acting_user=manager.user, gaming_day=gaming_day, keys=[f"slip:{fill.pk}"], reason="x")
    services.record_table_inventory(acting_user=manager.user, table=fill.table, kind="closer", chips=TRAY)
    services.close_gaming_day(acting_user=manager.user, gaming_day=gaming_day)
    void = post(client_for(cast[Role.CASHIER]), f"/api/v1/fill-slips/{fill.pk}/void/", {"reason": "late"})
    text = refusal(void, "slip")
    assert text.startswith("House control (closed books): the gaming day") and "House control)." in text
    closed = post(client_for(cast[Role.CASHIER]), "/api/v1/fill-slips/", {"table": fill.table_id, "chips": FILL})
    assert refusal(closed, "table").startswith("House control: no gaming day is open")
    assert_own_law(str(void.json()) + str(closed.json()), code)


def test_the_slip_pages_and_their_refusals_cite_house_control(client, cast, fill, code):
    client.force_login(cast[Role.CASHIER].user)
    detail = client.get(f"/floor/slips/{fill.pk}/").content.decode()
    assert "Only its preparer voids a slip (House control)" not in detail  # the preparer may: the form shows
    own = client.post(f"/floor/slips/{fill.pk}/verify/")
    assert own.status_code == 403 and "House control: only" in own.content.decode()
    client.force_login(cast[Role.PIT_BOSS].user)
    detail = client.get(f"/floor/slips/{fill.pk}/").content.decode()
    # the row is the signer's initials, its capacity and citation beside it (the citation was the row's name)
    assert '<th>Initials <span class="small text-muted">(Chip bank cashier; House control)</span></th>' in detail
    assert (
        "Only its preparer voids a slip (House control), before it is received and while its gaming day is open."
        in detail
    )
    not_preparer = client.post(f"/floor/slips/{fill.pk}/void/", {"reason": "x"})
    assert not_preparer.status_code == 400
    assert "House control: a voided slip is initialed by its preparer" in not_preparer.content.decode()
    prepare = client.post("/floor/slips/new/fill/", {"table": fill.table_id, "purpose": "regular", "qty_500": "2"})
    assert prepare.status_code == 400
    assert "House control: a fill slip carries the initials" in prepare.content.decode()
    pages = [
        client.get("/floor/slips/new/fill/"),
        client.get("/floor/queues/"),
        client.get("/floor/queues/live/"),
        not_preparer,
        prepare,
    ]
    client.force_login(cast[Role.DEALER].user)
    pages += [client.get("/"), client.get("/floor/queues/to-receive/live/")]  # a dealer's fills to receive
    assert "(House control)" in pages[-1].content.decode()
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    pages.append(client.get("/floor/slip-books/"))
    for response in pages:
        assert_own_law(_floor_words(response.content.decode()), code)


def _floor_words(page: str) -> str:
    """The page's main part, without what other apps render on it: the menu, and the retention
    badge (cardroom.retention's, converted by its own area)."""
    start = page.find("<main")
    page = page[start:] if start >= 0 else page
    return re.sub(r'<span id="retention">[^<]*</span>', "", page)


def test_the_slip_pdf_cites_house_control(fill, cast, code):
    services.verify_slip(acting_user=cast[Role.PIT_BOSS].user, slip=fill)
    document = build_slip_document(fill)
    assert document.rule == "House control"
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(render_slip_pdf(document))).pages)
    assert "Initials (House control)" in " ".join(text.split())
    assert_own_law(text, code)


# --- Tips before leaving: ND's obligation only ------------------------------------------------------


def test_no_tips_alert_or_refusal_at_another_packs_site(client_for, cast, shift_manager, gaming_day, dealer_shift):
    table = dealer_shift.table
    # The dealer leaves the site with tips neither declared nor redeemed: accepted, nothing flagged.
    ended = post(client_for(shift_manager), f"/api/v1/dealer-shifts/{dealer_shift.pk}/end/", {"left_site": True})
    assert ended.status_code == 200, ended.json()
    services.start_dealer_shift(acting_user=shift_manager.user, table=table, dealer=cast[Role.DEALER])
    services.record_table_inventory(acting_user=shift_manager.user, table=table, kind="closer", chips=TRAY)
    services.close_gaming_day(acting_user=shift_manager.user, gaming_day=gaming_day)
    assert not Alert.objects.filter(rule="tips_before_leaving").exists()
    assert not Alert.objects.filter(citation__contains="99-01.3").exists()


# --- North Dakota: the words are what they always were ------------------------------------------------


@pytest.fixture
def nd_site(org):
    return SiteFactory(organization=org, name="Elks Lodge", jurisdiction="ND")


def test_at_a_north_dakota_site_the_rules_keep_their_words(nd_site):
    assert rules.citations_at(nd_site) == {
        "slip_form": "ND 99-01.3-08-05",
        "slip_numbering": "ND 99-01.3-08-05(2)",
        "slip_verification": "ND 99-01.3-08-05(5)",
        "slip_receipt": "ND 99-01.3-08-05(6)",
        "slip_initials": "ND 99-01.3-08-05(3)(c)",
        "slip_initials_short": "08-05(3)(c)",
    }
    assert rules.unverified_note(nd_site) == (
        "Not verified: no shift manager or authorized employee was on duty who was not presently dealing "
        "(ND 99-01.3-08-05(5))."
    )
    assert rules.TIPS_BEFORE_LEAVING.at(nd_site) == "ND 99-01.3-08-06(3)" and rules.TIPS_BEFORE_LEAVING.applies(nd_site)
    assert rules.BUSINESS_DAY.at(nd_site) == "ND 99-01.3-02-01"
    assert rules.DAILY_SUMMARY.at(nd_site) == "ND 99-01.3-08-16(1)(g)"
    assert not rules.FEES_ONLY.applies(nd_site)


@pytest.mark.parametrize("code", ["WA-HB", "NY", "WA-BJ"])
def test_tips_before_leaving_is_north_dakotas_obligation_only(org, code):
    assert not rules.TIPS_BEFORE_LEAVING.applies(SiteFactory(organization=org, jurisdiction=code))


# --- WA-BJ: the house's revenue is its fees -----------------------------------------------------------


@pytest.fixture
def bj_site(org):
    return SiteFactory(organization=org, name="Tacoma Blackjack Room", jurisdiction="WA-BJ",
                       time_zone="America/Los_Angeles")  # fmt: skip


@pytest.fixture
def bj_floor(bj_site, chips):
    """A WA-BJ site's open gaming day, its table 1 (a player dealer/banker, $25 maximum) and its people."""
    org = bj_site.organization
    people = {role: make_person(org, role, bj_site) for role in (Role.SHIFT_MANAGER, Role.CASHIER, Role.PIT_BOSS,
                                                                  Role.DEALER)}  # fmt: skip
    table = TableFactory(site=bj_site, number=1, decks=2, banker="player", min_bank_cents=30_000,
                         min_wager_cents=100, max_wager_cents=2500)  # fmt: skip
    day = services.open_gaming_day(acting_user=people[Role.SHIFT_MANAGER].user, site=bj_site,
                                   gaming_date=today(bj_site))  # fmt: skip
    return people, table, day


def test_a_fees_only_site_refuses_fills_credits_and_tray_counts_with_its_rule(client_for, bj_floor):
    people, table, _day = bj_floor

    def shift():
        return client_for(people[Role.SHIFT_MANAGER])  # one client, logged in again as the shift manager

    answers = {
        "opener": post(shift(), "/api/v1/table-inventories/", {"table": table.pk, "kind": "opener", "chips": TRAY}),
        "closer": post(shift(), "/api/v1/table-inventories/", {"table": table.pk, "kind": "closer", "chips": TRAY}),
        "fill": post(client_for(people[Role.CASHIER]), "/api/v1/fill-slips/", {"table": table.pk, "chips": FILL}),
        "credit": post(client_for(people[Role.PIT_BOSS]), "/api/v1/credit-slips/", {"table": table.pk, "chips": FILL}),
        "slip book": post(
            shift(),
            "/api/v1/slip-books/",
            {"site": table.site_id, "kind": "fill", "first_number": 1, "last_number": 50},
        ),
    }
    for what, response in answers.items():
        message = " ".join(str(m) for messages in response.json().values() for m in messages)
        assert response.status_code == 400, (what, response.json())
        assert message.startswith(f"{FEES_RULE}: the house's revenue at Tacoma Blackjack Room is the fees"), message
        assert_own_law(message, "WA-BJ")
    assert not Slip.objects.exists() and not TableInventory.objects.exists()
    assert not DealerShift.objects.exists() and not SlipBook.objects.exists()


@pytest.mark.parametrize("count", [None, TRAY], ids=["seated", "with a tray count"])
def test_a_player_dealt_site_seats_no_dealer_and_says_why(client_for, bj_floor, count):
    """WAC 230-40-125(2) as amended: Washington blackjack is played with a player who deals the
    cards and banks the game; the house dealer is struck. Seating a dealer (with or without a tray
    count at the change) is refused through the API with the rule, and nothing is recorded."""
    people, table, _day = bj_floor
    body = {"table": table.pk, "dealer": people[Role.DEALER].pk} | ({"chips": count} if count else {})
    seated = post(client_for(people[Role.SHIFT_MANAGER]), "/api/v1/dealer-shifts/", body)
    assert seated.status_code == 400 and seated.json() == {"table": [NO_HOUSE_DEALER]}
    assert_own_law(NO_HOUSE_DEALER, "WA-BJ")
    assert not DealerShift.objects.exists() and not TableInventory.objects.exists()


def test_the_dealer_page_of_a_player_dealt_table_offers_no_form_and_refuses_a_post(client, bj_floor):
    people, table, _day = bj_floor
    client.force_login(people[Role.SHIFT_MANAGER].user)
    text = client.get(f"/floor/tables/{table.pk}/dealer/").content.decode()
    assert NO_HOUSE_DEALER.replace("'", "&#x27;") in text and 'id="dealer-form"' not in text
    posted = client.post(f"/floor/tables/{table.pk}/dealer/", {"dealer": people[Role.DEALER].pk})
    assert posted.status_code == 400 and not DealerShift.objects.exists()


def test_the_wa_bj_pack_alone_states_the_player_dealer(bj_site, org):
    assert rules.PLAYER_DEALER.at(bj_site) == PLAYER_DEALER_RULE and not rules.house_dealers(bj_site)
    for code in ("ND", "WA-HB", "NY"):
        assert rules.house_dealers(SiteFactory(organization=org, jurisdiction=code))


def test_the_fill_page_of_a_fees_only_site_shows_the_same_refusal(client, bj_floor):
    people, table, _day = bj_floor
    client.force_login(people[Role.CASHIER].user)
    response = client.post("/floor/slips/new/fill/", {"table": table.pk, "purpose": "regular", "qty_500": "2"})
    assert response.status_code == 400
    assert f"{FEES_RULE}: the house&#x27;s revenue at Tacoma Blackjack Room" in response.content.decode()
    client.force_login(people[Role.SHIFT_MANAGER].user)
    opener = client.post(f"/floor/tables/{table.pk}/opener/", {"qty_500": "2"})
    assert opener.status_code == 400 and FEES_RULE in opener.content.decode()
    assert not Slip.objects.exists() and not TableInventory.objects.exists()


@pytest.mark.parametrize(("role", "kind"), [(Role.CASHIER, "fill"), (Role.PIT_BOSS, "credit")])
def test_the_slip_form_of_a_fees_only_site_says_why_before_it_is_filled_in(client, bj_floor, role, kind):
    people, _table, _day = bj_floor
    client.force_login(people[role].user)
    text = client.get(f"/floor/slips/new/{kind}/").content.decode()
    assert f"{FEES_RULE}: the house&#x27;s revenue at Tacoma Blackjack Room" in text
    assert 'id="slip-form"' not in text and "Jar bar" not in text and "/fees/" in text


def test_the_wa_bj_pack_cites_the_fees_rule_under_a_floor_key(bj_site):
    assert rules.FEES_ONLY.at(bj_site) == FEES_RULE and rules.FEES_ONLY.applies(bj_site)


def test_tips_are_checked_at_a_north_dakota_site_as_before(org, chips):
    site = SiteFactory(organization=org, name="Eagles Club", jurisdiction="ND")
    manager, dealer = make_person(org, Role.SHIFT_MANAGER, site), make_person(org, Role.DEALER, site)
    table = TableFactory(site=site, number=1, min_wager_cents=100, max_wager_cents=2500)
    services.open_gaming_day(acting_user=manager.user, site=site, gaming_date=today(site))
    services.record_table_inventory(acting_user=manager.user, table=table, kind="opener", chips=TRAY)
    shift = services.start_dealer_shift(acting_user=manager.user, table=table, dealer=dealer)
    with pytest.raises(Exception, match=r"ND 99-01\.3-08-06\(3\): .* has not declared the tips"):
        services.end_dealer_shift(acting_user=manager.user, shift=shift, left_site=True)
    cage.declare_tips(acting_user=dealer.user, site=site, gaming_date=shift.gaming_day.gaming_date,
                      chips=[{"denomination": 100, "quantity": 3}])  # fmt: skip
    services.record_table_inventory(acting_user=manager.user, table=table, kind="closer", chips=TRAY)
    (alert,) = Alert.objects.filter(rule="tips_before_leaving")
    assert alert.citation == "ND 99-01.3-08-06(3)" and "$3.00 of unredeemed tips" in alert.action_required


def test_the_floor_page_of_a_fees_only_site_offers_no_tray_counts_or_slips_and_says_why(client, bj_floor):
    people, table, _day = bj_floor
    client.force_login(people[Role.SHIFT_MANAGER].user)
    text = client.get("/floor/").content.decode()
    assert f'<div class="alert alert-info" id="fees-only">{FEES_RULE}: the house' in text
    tables = text[text.index('id="tables"') :]  # the floor's table actions (the menu is the navigation's)
    assert f"/floor/tables/{table.pk}/opener/" not in tables and "/floor/slips/new/" not in tables
    assert f"/floor/tables/{table.pk}/dealer/" not in tables  # a player deals (WAC 230-40-125(2))
    assert f'<div class="alert alert-info" id="player-dealer">{NO_HOUSE_DEALER}'.replace("'s", "&#x27;s") in text
    assert "<th>Dealer</th>" not in text
    assert_own_law(_floor_words(text), "WA-BJ")


def test_a_player_dealt_sites_tables_are_player_dealt_never_open_without_opener(
    client, bj_floor, django_assert_max_num_queries
):
    """No tray is counted where the house's revenue is its fees, and no dealer is seated where a
    player deals and banks the game, so each table is "player-dealt" (not "open without opener",
    the custody warning of a house-banked table, nor "not opened", with an Open table button the
    service refuses): on the floor page, without opener and closer columns, and on the pit board,
    which counts its active tables and offers no dealer to seat. The floor page reads its tables'
    states in a fixed number of queries whatever the number of tables."""
    from django.utils import timezone

    from floor.queries import pit_board

    people, table, _day = bj_floor
    TableFactory(site=table.site, number=2, decks=2, banker="player", min_bank_cents=30_000,
                 min_wager_cents=100, max_wager_cents=2500)  # fmt: skip
    client.force_login(people[Role.SHIFT_MANAGER].user)
    client.get("/floor/")
    with django_assert_max_num_queries(40) as first:
        text = client.get("/floor/").content.decode()
    two_tables = len(first.captured_queries)  # read before the next request resets the connection's log
    states = dict(re.findall(r'<tr id="table-(\d+)">.*?table-status">([^<]+)<', text, re.S))
    assert states == {"1": "player-dealt", "2": "player-dealt"}
    head = text[text.index('id="tables"') : text.index("</thead>", text.index('id="tables"'))]
    assert "Opener" not in head and "Closer" not in head
    board = pit_board(table.site, timezone.now())
    assert [(row.table.number, row.state, row.takes_slips) for row in board.rows] == [
        (1, "player-dealt", False),
        (2, "player-dealt", False),
    ]
    assert board.in_play_text == "2 active tables"
    pit = client.get("/floor/pit/").content.decode()
    assert "pit-dealer" not in pit and "Seat dealer" not in pit and "No dealer seated" not in pit
    assert 'id="player-dealer"' in pit
    assert "card-body" not in pit[pit.index('id="pit-tables"') :]  # neither dealer nor slip to say: no empty body
    for number in (3, 4, 5):
        TableFactory(site=table.site, number=number, decks=2, banker="player", min_bank_cents=30_000,
                     min_wager_cents=100, max_wager_cents=2500)  # fmt: skip
    with django_assert_max_num_queries(two_tables):
        assert client.get("/floor/").status_code == 200


def test_a_fees_only_table_with_a_house_dealer_is_dealing_or_has_no_dealer():
    """The states of a pack whose revenue is its fees but whose house seats the dealers (none of
    the packs held today): no tray is counted, so a table is dealing or has no dealer."""
    from floor.models import DealerShift as Shift
    from floor.queries import board_state

    assert board_state(set(), Shift(), house_chips=False) == "dealing"
    assert board_state(set(), None, house_chips=False) == "no dealer"
    assert board_state(set(), None, house_chips=False, house_dealers=False) == "player-dealt"
    assert board_state(set(), None) == "not opened"


def test_the_menu_is_the_current_sites_a_fees_only_site_offers_no_slip_books_or_drop_boxes(client, bj_site, cast):
    """A gaming manager of the cast's site (its pack keeps slips and drop boxes) and of a WA-BJ one:
    at the fees-only site the menu offers no slip books or drop boxes (WAC 230-40-125(1): no drop,
    no house chips); switched back, it offers them again."""
    from cardroom.models import Membership

    manager = cast[Role.GAMING_MANAGER]
    Membership.objects.create(employee=manager, site=bj_site, role=Role.GAMING_MANAGER)
    client.force_login(manager.user)

    def menu_at(where) -> str:
        client.post("/switch-site/", {"site": where.pk, "next": "/"})
        page = client.get("/floor/").content.decode()
        return page[: page.index("</nav>")]

    for entry in ("/floor/slip-books/", "/counts/drop-boxes/"):
        assert entry not in menu_at(bj_site), entry
        assert entry in menu_at(cast[Role.SHIFT_MANAGER].memberships.first().site), entry


def test_the_menu_of_a_fees_only_site_offers_no_chip_pages_and_names_the_floor_so(client, bj_site, cast):
    """At Tacoma (WA-BJ, fees only: no house chips, WAC 230-40-125(1)) the menu has no chip
    redemptions, tips or chip inventory log (their pages take nothing there) and its floor section is
    "Floor", as everywhere (it was "Chips"); at the cast's site (WA-HB or NY: house chips), for the same manager, all are
    there as before. The
    menu is written once per roles and jurisdictions, so switching back and forth keeps each right."""
    from cardroom.models import Membership

    manager = cast[Role.GAMING_MANAGER]
    Membership.objects.create(employee=manager, site=bj_site, role=Role.GAMING_MANAGER)
    client.force_login(manager.user)
    chips_site = cast[Role.SHIFT_MANAGER].memberships.first().site

    def menu_at(where) -> str:
        client.post("/switch-site/", {"site": where.pk, "next": "/"})
        page = client.get("/floor/").content.decode()
        return page[: page.index("</nav>")]

    chip_pages = ("/cage/redemptions/", "/cage/tips/", "/cage/inventory/")
    for _ in range(2):
        fees_menu, chips_menu = menu_at(bj_site), menu_at(chips_site)
        assert not [entry for entry in chip_pages if entry in fees_menu]
        assert all(entry in chips_menu for entry in chip_pages)
        assert ">Floor</a>" in fees_menu and "/floor/pit/" in fees_menu and ">Floor</a>" in chips_menu
        assert ">Chips</a>" not in fees_menu + chips_menu
        assert "/cage/" in fees_menu and "/cage/deposits/" in fees_menu  # the cash bank and its deposits stay


def test_a_fees_room_dealt_by_players_offers_no_gaming_day_to_open(client, org, bj_site, chips):
    """Nothing on a WA-BJ floor waits for an open gaming day (no tray, slip, dealer or duty), and a
    day opened would have to be closed before the books: its floor and pit offer none, and say why;
    a North Dakota site's still do."""
    manager = make_person(org, Role.SHIFT_MANAGER, bj_site)
    TableFactory(site=bj_site, number=1, decks=2, banker="player", min_bank_cents=30_000,
                 min_wager_cents=100, max_wager_cents=2500)  # fmt: skip
    client.force_login(manager.user)
    floor, pit = client.get("/floor/").content.decode(), client.get("/floor/pit/").content.decode()
    assert 'id="open-day-form"' not in floor and "No gaming day open" not in floor
    assert 'id="no-day-needed"' in floor and "/fees/" in floor
    assert "pit-open-day" not in pit and "No gaming day open" not in pit
    assert not rules.floor_needs_a_day(bj_site)

    nd = SiteFactory(organization=org, name="Eagles Club", jurisdiction="ND")
    nd_manager = make_person(org, Role.SHIFT_MANAGER, nd)
    TableFactory(site=nd, number=1, min_wager_cents=100, max_wager_cents=2500)
    client.force_login(nd_manager.user)
    floor, pit = client.get("/floor/").content.decode(), client.get("/floor/pit/").content.decode()
    assert 'id="open-day-form"' in floor and "No gaming day open" in floor and 'id="no-day-needed"' not in floor
    assert 'id="pit-open-day-link"' in pit and rules.floor_needs_a_day(nd)


def test_a_cashier_is_a_chip_bank_cashier_only_where_the_house_has_chips(client, bj_site, cast):
    """Tacoma's cashier keeps the fee cash (its chips are the players'): the home page and the
    navigation name the role "Cashier" there, and "Chip bank cashier" at the cast's site."""
    from cardroom.models import Membership

    cashier = cast[Role.CASHIER]
    Membership.objects.create(employee=cashier, site=bj_site, role=Role.CASHIER)
    client.force_login(cashier.user)
    chips_site = cashier.memberships.exclude(site=bj_site).first().site
    for where, named in ((bj_site, "Cashier"), (chips_site, "Chip bank cashier")):
        client.post("/switch-site/", {"site": where.pk, "next": "/"})
        page = client.get("/").content.decode()
        assert f"you act here as {named}</p>" in page, where.name
        assert f" · {named}</span>" in page, where.name


def test_the_employee_pages_name_a_cashier_as_each_site_does(client, bj_site, cast, stranger_site):
    """The employee pages say it too: the cashier's roles read "Cashier" at Tacoma and "Chip bank
    cashier" at the cast's site (and so in the admin's list of roles), and the role form offering
    both names each; a new employee's form offers a "Cashier" to an organization of a fees room
    alone, a "Chip bank cashier" to one of a North Dakota site."""
    cashier = cast[Role.CASHIER]
    Membership.objects.create(employee=cashier, site=bj_site, role=Role.CASHIER)
    chips_site = cashier.memberships.exclude(site=bj_site).first().site
    text = as_user(client, cast[Role.GAMING_MANAGER]).get(f"/setup/employees/{cashier.pk}/").content.decode()
    assert f"Cashier · {bj_site}" in text and f"Chip bank cashier · {chips_site}" in text
    assert f'<option value="cashier">Chip bank cashier (Cashier at {bj_site})</option>' in text
    listed = client.get("/admin/cardroom/membership/").content.decode()
    assert all(f'<td class="field-role_name">{named}</td>' in listed for named in ("Cashier", "Chip bank cashier"))
    for where, named in ((fees_site(OrganizationFactory()), "Cashier"), (stranger_site, "Chip bank cashier")):
        manager = make_person(where.organization, Role.GAMING_MANAGER)
        new = as_user(client, manager).get("/setup/employees/new/").content.decode()
        assert f'<option value="cashier">{named}</option>' in new, where
