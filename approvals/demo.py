"""The Washington house-banked demo's approved game: the Double Down Madness Blackjack approval
(WSGC, 8 August 2024, submission #3172) with its blackjack and Push 22 pay tables, the internal
controls of "Spokane Card Room" (house-banked blackjack, two versions, and the approved game),
then its tables: table 1 regular house-banked blackjack and table 2 offering the game (the WSGC
rules: the internal controls come first). Written through the services, as the demo's `wagm`.
North Dakota's organization adopts its written procedures (the dealers' shuffle and cut, ND
99-01.3-08-08(1), with the idle period of 08-08(2); chip redemption, 08-06(2)), as `gm`.
And New York's: the licence of "Hudson Valley Volunteer Fire Company" (tie option 1, 9 NYCRR
4620.5(h)), then table 1 at "Kingston Fire Hall" following it, as `nygm`.

    extend_demo(demo)

Runs after `cardroom.pack_demo` (which creates the Washington and New York organizations, sites
and people); when the Washington ones are missing it creates the minimum itself, with the same
names (New York's part waits for the pack demo). Idempotent.
"""

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.db import transaction

from cardroom import services as cardroom_services
from cardroom.demo import DEMO_PASSWORD
from cardroom.models import Employee, Organization, Site, Table
from cardroom.pack_demo import NIGHTS_AGO

from . import services
from .models import GameApproval, InternalControls, Licence, PayTable, TableGame, WrittenProcedure
from .queries import site_today

ORGANIZATION = "Evergreen Gaming Club"
LICENCE = "WSGC-00-12345"
SITE = "Spokane Card Room"
MANAGER = "wagm"
DDM = "Double Down Madness Blackjack"
DDM_TABLE = 2

# The approval letter of 8 August 2024 and its enclosed rules of play (approvals.rules: the
# conditions a table's settings must meet).
DDM_APPROVAL = dict(
    game_name=DDM,
    manufacturer="Light and Wonder",
    agency="Washington State Gambling Commission",
    approved_on=date(2024, 8, 8),
    submission_number="3172",
    conditions={
        "decks": [6, 8],  # "featuring 6 or 8 decks"
        "dealer_hits_soft_17": [True],  # "The Dealer will hit soft 17."
        "split_pairs": ["none"],  # "No splitting or surrender is allowed."
        "surrender": ["none"],
        # "each Player receives a single card initially, with the ability to continually double down or hit"
        "double_on": ["any_card"],
        "double_down": ["total"],  # "each double down can be up to the total amount already in play"
        "insurance_allowed": [True],  # "Insurance is offered anytime the Dealer's up card is an Ace."
        "even_money_offered": [False],  # "No second card or even money is allowed."
    },
    conditions_text=(
        "Played under the Double Down Madness rules of play as submitted. Commercial card room operators must "
        "first submit their internal controls and receive approval from the Commission prior to implementing. "
        "Wagering limits may not exceed those authorized by WAC 230-15-040 and WAC 230-15-140. Any automatic "
        "shuffle machine used must be a WSGC approved model, manufactured by a WSGC licensed manufacturer. "
        "Any modifications to this game may affect this approval."
    ),
    # The enclosed Rules of Play and Recommended Dealing Procedures, in short lines for the handout.
    rules_of_play=[
        "Standard house-banked blackjack with an optional Push 22 bonus wager; the WSGC's standard blackjack "
        "rules are otherwise not altered.",
        "Played with 6 or 8 decks.",
        "Each player places the mandatory main wager and may place the optional Push 22 bonus wager.",
        "Each player is dealt one face-up card; the dealer receives two cards.",
        "The dealer checks for blackjack when the face-up card is an Ace or a 10-value card.",
        "Insurance is offered when the dealer's face-up card is an Ace and pays 2 to 1; no even money.",
        "If the dealer has blackjack, all main wagers lose and no second card is dealt to the players.",
        "On each card a player may stand, hit or double down, until standing or going over 21.",
        # (the State's single-wager limit on a double is the handout's line of the approved game, in dollars)
        "Each double down may be up to the total amount already in play.",
        "No splitting or surrender.",
        "A player whose first card is an Ace receives only one more card, whether hitting or doubling down.",
        "A player who doubles down and receives a blackjack is paid the posted blackjack odds on the main wager "
        "and the double down.",
        "A player blackjack is paid at once; no doubling down again after a blackjack.",
        "A hand over 21 loses its main wager and its doubles; its Push 22 wager stays in play until the dealer acts.",
        "The dealer hits soft 17.",
        "A hand higher than the dealer's is paid 1 to 1 on the main wager and its doubles; a lower hand loses "
        "them; equal totals push.",
        "If the dealer's total is 22, main wagers and doubles push; blackjacks, paid before, are not affected.",
        "The Push 22 bonus wager wins when the dealer's total is 22, paid by the posted pay table; otherwise it loses.",
    ],
    shuffler_must_be_approved=True,
    internal_controls_required=True,
    pay_tables=[
        {
            "code": "01",
            "natural_payout": "3:2",
            "lines": [{"hand": "Suited Blackjack", "pays": "2 to 1"}, {"hand": "Unsuited Blackjack", "pays": "3 to 2"}],
        },
        {
            "code": "02",
            "natural_payout": "3:2",
            "lines": [{"hand": "Suited Blackjack", "pays": "3 to 2"}, {"hand": "Unsuited Blackjack", "pays": "3 to 2"}],
        },
        {
            "code": "03",
            "natural_payout": "1:1",
            "lines": [{"hand": "Suited Blackjack", "pays": "3 to 1"}, {"hand": "Unsuited Blackjack", "pays": "1 to 1"}],
        },
        {
            "side_bet": "Push 22",
            "code": "1",
            "lines": [
                {"hand": "Dealer Same Suit 22", "pays": "50 to 1"},
                {"hand": "Dealer Same Color 22", "pays": "20 to 1"},
                {"hand": "Dealer Other 22", "pays": "8 to 1"},
                {"hand": "Dealer Bust Not 22", "pays": "Lose"},
            ],
        },
        {
            "side_bet": "Push 22",
            "code": "2",
            "lines": [
                {"hand": "Dealer Same Suit 22", "pays": "50 to 1"},
                {"hand": "Dealer Same Color 22", "pays": "20 to 1"},
                {"hand": "Dealer Other 22", "pays": "7 to 1"},
                {"hand": "Dealer Bust Not 22", "pays": "Lose"},
            ],
        },
        {
            "side_bet": "Push 22",
            "code": "3",
            "lines": [{"hand": "Dealer 22", "pays": "11 to 1"}, {"hand": "Dealer Bust Not 22", "pays": "Lose"}],
        },
    ],
)

# How the card room addresses irregularities (the WSGC rules' "Irregularities"), in every version.
IRREGULARITIES = (
    "Misdeal (a card dealt face up in error or out of order before the first hit): the round is void and every "
    "wager returned. An exposed card in the shoe is burned. An incorrect number of cards (a missing or extra card "
    "found at the reshuffle): the floor supervisor stops the game, the decks are replaced and the surveillance "
    "department reviews the round. Every irregularity is entered in the shift's floor log."
)

DDM_CONTROLS = dict(
    irregularities=IRREGULARITIES,
    dealer_hits_soft_17=[True],
    split_pairs=["none"],
    double_on=["any_card"],
    insurance_allowed=[True],
    surrender=["none"],
    blackjack_payout=["3:2"],
    payout_rounding=["down"],
    # No pair is split: resplitting, split aces and doubling after a split do not arise, so listed none.
    double_down=["total"],  # the approved rules' "up to the total amount already in play"
    even_money_offered=[False],
)
DDM_TABLE_SETTINGS = dict(
    decks=6,
    dealt_from="shuffler",
    dealer_hits_soft_17=True,
    split_pairs="none",
    resplit_allowed=False,
    split_aces_one_card=False,
    surrender="none",
    double_on="any_card",
    double_down="total",
    insurance_allowed=True,
    even_money_offered=False,
    blackjack_payout="3:2",
    payout_rounding="down",
)
# House-banked blackjack at Spokane: version 1 in effect; version 2 (late surrender) from next month.
HOUSE_CONTROLS = dict(
    irregularities=IRREGULARITIES,
    dealer_hits_soft_17=[False, True],
    split_pairs=["identical", "any_pair"],
    double_on=["any_two", "ten_eleven"],
    insurance_allowed=[True],
    surrender=["none"],
    blackjack_payout=["3:2"],
    payout_rounding=["down"],
    # The rules' own play of the options their Irregularities leave to immaterial modifications
    # (Spokane's tables make none), and no even money (the Insurance note).
    resplit_allowed=[True],
    split_aces_one_card=[False],
    double_after_split=[True],
    double_down=["equal"],
    even_money_offered=[False],
)
SHUFFLER = "Shuffle Master i-DealPlus (WSGC approved model)"
# WSGC Blackjack Game Rules (rev. April 2018): six decks from a shoe, 3:2 posted with rounding down;
# the maximum within WAC 230-15-140's $300 single wager.
SPOKANE_TABLE = dict(
    game="21",
    min_wager_cents=500,
    max_wager_cents=30000,
    decks=6,
    max_players=7,
    dealt_from="shoe",
    blackjack_payout="3:2",
    payout_rounding="down",
)

# New York: the licence reflects tie option 1 (all ties push, naturals 3 to 2), and table 1 follows it.
NY_SITE = "Kingston Fire Hall"
NY_MANAGER = "nygm"
NY_LICENCE = dict(licence_number="NY-GC-4620", tie_option=1, effective_on=date(2024, 1, 1))
# 9 NYCRR 4620.5: four decks, $5 maximum, tie option 1 (naturals 3 to 2), double on 10 or 11.
KINGSTON_TABLE = dict(
    game="21",
    min_wager_cents=100,
    max_wager_cents=500,
    decks=4,
    max_players=7,
    betting_spaces=7,
    double_on="ten_eleven",
    double_after_split=False,
    split_pairs="any_pair",
    tie_option=1,
    blackjack_payout="3:2",
)


def extend_demo(demo: dict) -> None:
    """The hook `manage.py load_demo` calls after the jurisdiction packs' demo."""
    with transaction.atomic():
        manager, site = _washington(demo)
        acting = manager.user
        approval = GameApproval.objects.filter(organization=site.organization, game_name=DDM).first()
        if approval is None:
            approval = services.record_game_approval(acting_user=acting, organization=site.organization, **DDM_APPROVAL)
        today = site_today(site)
        if not InternalControls.objects.filter(site=site, game_approval=approval).exists():
            services.record_internal_controls(
                acting_user=acting,
                site=site,
                game_approval=approval,
                effective_on=date(2024, 10, 1),
                approved_on=date(2024, 9, 20),
                approved_by="Brian Lane, Special Agent, WSGC Regulation Unit",
                approval_reference="WSGC internal controls approval (demo)",
                **DDM_CONTROLS,
            )
        if not InternalControls.objects.filter(site=site, game_approval=None).exists():
            _house_controls(acting, site, today)
        if not Table.objects.filter(site=site, number=1).exists():
            cardroom_services.create_table(acting_user=acting, site=site, number=1, **SPOKANE_TABLE)
        _ddm_table(acting, site, approval)
        _new_york()
        _north_dakota_procedures(demo)


# North Dakota's written procedures, as the demo organization adopted them.
ND_PROCEDURES = (
    dict(
        kind=WrittenProcedure.Kind.SHUFFLE_AND_CUT,
        text="Dealers riffle the cards three times, strip once and riffle once more, box the deck, then offer the cut "
        "to the player on the dealer's left, who cuts with the cut card at least ten cards from either end; the "
        "shuffle and cut are done in view of the table's camera.",
        document_reference="Dealer procedures manual, section 3",
        reshuffle_idle_minutes=30,
    ),
    dict(
        kind=WrittenProcedure.Kind.CHIP_REDEMPTION,
        text="The cashier takes the player's chips, separates them by value in the rack, counts each stack down in "
        "view of the player and pays the total; the chips redeemed are entered by value on the day's redemption log.",
        document_reference="Cage procedures manual, section 2",
    ),
)


def _north_dakota_procedures(demo) -> None:
    """The ND organization's written procedures, in force since before the demo's first night."""
    organization, manager = demo.get("organization"), demo.get("people", {}).get("gm")
    if organization is None or manager is None:
        return
    site = organization.sites.order_by("pk").first()
    for values in ND_PROCEDURES:
        if not WrittenProcedure.objects.filter(organization=organization, kind=values["kind"]).exists():
            services.record_written_procedure(
                acting_user=manager.user,
                organization=organization,
                effective_on=site_today(site) - timedelta(days=400),
                **values,
            )


def _new_york() -> None:
    """The New York organization's licence, then Kingston's table 1 under it (after the pack demo)."""
    site = Site.objects.filter(name=NY_SITE).select_related("organization").first()
    manager = Employee.objects.filter(user__username=NY_MANAGER).select_related("user").first()
    if site is None or manager is None:
        return
    if not Licence.objects.filter(organization=site.organization).exists():
        services.record_licence(acting_user=manager.user, organization=site.organization, **NY_LICENCE)
    if not Table.objects.filter(site=site, number=1).exists():
        cardroom_services.create_table(acting_user=manager.user, site=site, number=1, **KINGSTON_TABLE)


def _washington(demo) -> tuple[Employee, Site]:
    """The Washington organization, its gaming manager and the Spokane site (made here only if the
    jurisdiction packs' demo has not made them)."""
    manager = Employee.objects.filter(user__username=MANAGER).select_related("user").first()
    if manager is None:
        _, manager = cardroom_services.create_organization(
            acting_user=None,
            name=ORGANIZATION,
            licence_number=LICENCE,
            manager_username=MANAGER,
            manager_password=DEMO_PASSWORD,
            manager_initials="WG",
            manager_first_name="Wanda",
            manager_last_name="Gill",
        )
    organization = Organization.objects.get(pk=manager.organization_id)
    site = Site.objects.filter(organization=organization, name=SITE).first() or cardroom_services.create_site(
        acting_user=manager.user,
        organization=organization,
        name=SITE,
        jurisdiction="WA-HB",
        time_zone="America/Los_Angeles",
    )
    return manager, site


def _ddm_table(acting, site, approval) -> Table:
    table = Table.objects.filter(site=site, number=DDM_TABLE).first()
    if table is None:
        table = cardroom_services.create_table(
            acting_user=acting,
            site=site,
            number=DDM_TABLE,
            game="21",
            min_wager_cents=1000,
            max_wager_cents=20000,
            payout_rounding="down",  # WSGC rule 7: a 3:2 payout is posted with its rounding
        )
    if not TableGame.objects.filter(table=table).exists():
        pay_tables = PayTable.objects.filter(approval=approval)
        # Offered since before the demo's first night at Spokane (its play is built after this,
        # cardroom.pack_demo.NIGHTS_AGO): the register dates the game from then, not from the load.
        first_night = site_today(site) - timedelta(days=max(NIGHTS_AGO["spokane"]))
        services.link_table_game(
            linked_at=datetime.combine(first_night, time(12), tzinfo=ZoneInfo(site.time_zone)),
            acting_user=acting,
            table=table,
            approval=approval,
            blackjack_pay_table=pay_tables.get(side_bet="", code="01"),
            side_bet_pay_table=pay_tables.get(side_bet="Push 22", code="1"),
            shuffler_model=SHUFFLER,
            settings=DDM_TABLE_SETTINGS,
        )
    return table


def _house_controls(acting, site, today) -> None:
    """Version 1 documents what the site's house-banked tables use (recorded before the tables);
    version 2 adds late surrender from next month."""
    first = dict(approved_by="Brian Lane, Special Agent, WSGC Regulation Unit", approval_reference="Demo")
    services.record_internal_controls(
        acting_user=acting,
        site=site,
        effective_on=today - timedelta(days=400),
        approved_on=today - timedelta(days=410),
        **first,
        **HOUSE_CONTROLS,
    )
    services.record_internal_controls(
        acting_user=acting,
        site=site,
        effective_on=today + timedelta(days=30),
        approved_on=today,
        **first,
        **{**HOUSE_CONTROLS, "surrender": ["none", "late"]},
    )
