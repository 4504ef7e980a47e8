"""Core domain: organizations, sites, tables, chips, people and roles."""

from datetime import date
from zoneinfo import ZoneInfo, available_timezones

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone
from simple_history.models import HistoricalRecords

from core import limits
from core.citations import stated
from core.database_refusals import LOGIN_NAME_UNIQUE
from core.hooks import JURISDICTIONS
from core.pins import PinLock
from core.rules import HOUSE_CONTROL, lower_first

from .chip_colours import colours_of, reversed_pair, reversed_pair_message
from .chip_rules import law_at, laws_of
from .role_grants import check_role_grant
from .site_keeps import employee_identifier, employee_identifier_absent, house_chips
from .table_rules import DISCONTINUED_REDEMPTION, game_label, game_word, table_label, validate_table
from .wager_caps import check_max_wager  # surveillance registers the outage cap

STATE_IDENTIFIER = RegexValidator(
    r"^[A-Za-z0-9][A-Za-z0-9-]*$", "Give the state-issued identifier as letters, digits and hyphens."
)


class Jurisdiction(models.TextChoices):
    """The jurisdiction pack a site runs under (packs: one folder per pack)."""

    ND = "ND", "North Dakota (chapter 99-01.3-08, charitable twenty-one)"
    WA_HB = "WA-HB", "Washington house-banked blackjack (WSGC rules rev. April 2018)"
    WA_BJ = "WA-BJ", "Washington blackjack (WAC 230-40-125, player-banked)"
    NY = "NY", "New York games of chance (9 NYCRR 4620.5)"


def jurisdiction_choices() -> list[tuple[str, str]]:
    """A site's jurisdiction choices: the packs of the registry (`packs.registry`, the
    `jurisdictions` hook), so adding a pack is its folder and its registry line, with no choice to
    add here and no migration. The model, its forms and the API validate against it."""
    return JURISDICTIONS()


def register_jurisdictions(answer) -> None:
    """packs answers `jurisdiction_choices` when it loads (`packs.apps`)."""
    JURISDICTIONS.register(answer)


class Game(models.TextChoices):
    TWENTY_ONE = "21", "Twenty-one"
    PADDLEWHEEL = "PW", "Paddlewheel"


class Role(models.TextChoices):
    GAMING_MANAGER = "gaming_manager", "Gaming manager"
    SHIFT_MANAGER = "shift_manager", "Shift manager"
    PIT_BOSS = "pit_boss", "Pit boss"
    CASHIER = "cashier", "Chip bank cashier"
    DEALER = "dealer", "Dealer"
    WHEEL_OPERATOR = "wheel_operator", "Wheel operator"
    COUNT_TEAM = "count_team", "Count team member"
    AUDITOR = "auditor", "Auditor"


ROLE_VALUES = frozenset(Role.values)  # Role.values builds its list at every access

# A role's name where the house keeps no chips at its tables (a fees room, `site_keeps.house_chips`):
# its cashier keeps the fee cash, no chip bank.
WITHOUT_HOUSE_CHIPS = {Role.CASHIER: "Cashier"}


def role_label(role: str, site) -> str:
    """`role` as it is named at `site` (None: as the roles are named): "Chip bank cashier", but
    "Cashier" at a fees room. A role that is none of `Role` (a regulator's party role, the
    navigation's) in words."""
    if role not in ROLE_VALUES:
        return role.replace("_", " ")
    if site is not None and role in WITHOUT_HOUSE_CHIPS and not house_chips(site):
        return WITHOUT_HOUSE_CHIPS[role]
    return Role(role).label


# Gaming managers and auditors act across their whole organization.
ORG_WIDE_ROLES = frozenset({Role.GAMING_MANAGER, Role.AUDITOR})


class EmploymentType(models.TextChoices):
    GAMING = "gaming", "Gaming employee"
    NON_GAMING = "non_gaming", "Non-gaming employee"
    INDEPENDENT = "independent", "Independent person"
    FINANCIAL_INSTITUTION = "financial_institution", "Representative of a financial institution"
    ACCOUNTING_FIRM = "accounting_firm", "Representative of an accounting firm"
    SECURITY_COMPANY = "security_company", "Representative of a security company"


def validate_time_zone(value: str) -> None:
    if value not in available_timezones():
        raise ValidationError(f"{HOUSE_CONTROL}: {value!r} is not a known time zone (for example America/Chicago).")


def refuse_weak_password(password: str, user, field: str = "password") -> None:
    """Refuse (a 400 on `field`) a password the site's validators refuse (settings'
    AUTH_PASSWORD_VALIDATORS): each of their sentences under House control, no pack's text
    setting how a login's password is chosen."""
    try:
        validate_password(password, user)
    except ValidationError as refused:
        said = [f"{HOUSE_CONTROL}: {lower_first(message)}" for message in refused.messages]
        raise ValidationError({field: said}) from refused


# House control: one organization of a name, whatever its case ("Jane Roe" and "jane roe" are one).
ORGANIZATION_NAME_TAKEN = f"{HOUSE_CONTROL}: an organization of this name already exists."


def refuse_taken_login(username: str, field: str = "username") -> None:
    """Refuse (a 400 on `field`) a new login whose name another has in any case ("JDoe" beside
    "jdoe"), in the words of the database's index (`LOGIN_NAME_UNIQUE`, migration 0028), which
    refuses the second of two made at once: both pass this look."""
    if get_user_model().objects.filter(username__iexact=username).exists():
        raise ValidationError({field: f"{LOGIN_NAME_UNIQUE}; the login {username!r} already exists."})


class Organization(models.Model):
    name = models.CharField(max_length=200)
    licence_number = models.CharField(max_length=50, blank=True)
    history = HistoricalRecords()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                Lower("name"), name="organization_name_unique_any_case", violation_error_message=ORGANIZATION_NAME_TAKEN
            )
        ]

    def __str__(self):
        return self.name

    def today(self) -> date:
        """The latest of its sites' dates today, each in its own time zone (the server's where it
        has no site): a date after it is in the future at every one of its sites, whose zones
        may differ (an organization-level record, the chip inventory, is dated at any of them)."""
        zones = set(self.sites.values_list("time_zone", flat=True))
        return max((timezone.localdate(timezone=ZoneInfo(zone)) for zone in zones), default=timezone.localdate())


# House control: one site of a name in an organization, whatever its case ("Main Hall" and "main
# hall" are one site to the people who pick it from a list, and to a report that names it).
SITE_NAME_TAKEN = f"{HOUSE_CONTROL}: a site of this name already exists in the organization."


class Site(models.Model):
    organization = models.ForeignKey(Organization, on_delete=models.PROTECT, related_name="sites")
    name = models.CharField(max_length=200)
    jurisdiction = models.CharField(
        max_length=5,
        choices=jurisdiction_choices,
        default=Jurisdiction.ND,
        help_text="The jurisdiction pack whose rules, figures and reports apply to the site.",
    )
    time_zone = models.CharField(max_length=64, default="America/Chicago", validators=[validate_time_zone])
    # ND 99-01.3-02-01 "business day": a gaming day may run past midnight.
    business_day_start_hour = models.PositiveSmallIntegerField(
        default=6, validators=[MaxValueValidator(23)], help_text="Hour (0-23) at which a new gaming day begins."
    )
    # House control (late entry, core.moments): a record entered more than this many minutes
    # after the moment it happened is marked "entered late" and listed as such on the reports.
    late_entry_minutes = models.PositiveIntegerField(
        default=60,
        validators=[MinValueValidator(1), MaxValueValidator(10_080)],
        verbose_name="late entry threshold (minutes)",
        help_text="A record entered more than this many minutes after it happened is marked 'entered late'.",
    )
    seasonal = models.BooleanField(default=False)
    active = models.BooleanField(default=True)
    # ND 99-01.3-08-06(2): the day the organization discontinued twenty-one at the site; its
    # chips are then redeemed at the business office or an active site for thirty days.
    # Named game 21 here: each pack's pages call it by its own name (`SiteForm`, `packs.game_names`).
    twenty_one_discontinued_on = models.DateField(
        "game 21 discontinued on",
        null=True,
        blank=True,
        help_text="Day game 21 was discontinued at this site (chips redeemable 30 days after).",
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["organization_id", "name"]
        constraints = [
            # Whatever its case, as `clean` reads it: two sites written at once, or past the
            # service, would otherwise be "Main Hall" and "main hall".
            models.UniqueConstraint(
                "organization",
                Lower("name"),
                name="site_name_unique_in_org_any_case",
                violation_error_message=SITE_NAME_TAKEN,
            )
        ]

    def __str__(self):
        return self.name

    def today(self) -> date:
        """Today's date in the site's own time zone: not the server's (settings.TIME_ZONE), which
        is the zone of an API request and of a Celery task (config.middleware activates the
        site's only for its pages)."""
        return timezone.localdate(timezone=ZoneInfo(self.time_zone))

    def clean(self):
        duplicates = Site.objects.filter(organization_id=self.organization_id, name__iexact=self.name)
        if self.organization_id and self.name and duplicates.exclude(pk=self.pk).exists():
            raise ValidationError({"name": SITE_NAME_TAKEN})
        self._check_chips_of_the_law()
        stopped = self.twenty_one_discontinued_on
        if stopped is not None and not limits.date_in_range(stopped):
            raise ValidationError({"twenty_one_discontinued_on": limits.date_message()})
        if stopped is not None and self.jurisdiction and not stated(DISCONTINUED_REDEMPTION, self.jurisdiction):
            # kept only where the pack states the redemption after it (the page, the API and the admin alike)
            raise ValidationError(
                {
                    "twenty_one_discontinued_on": f"{HOUSE_CONTROL}: a site of {self.get_jurisdiction_display()} "
                    f"rules records no day {game_word(self.jurisdiction)} was discontinued; leave it blank."
                }
            )

    def _check_chips_of_the_law(self):
        """A site that comes under a pack's chip law (new, moved to the pack, or made active again)
        is refused while the organization's active chips include a value that law does not issue
        (ND 99-01.3-08-03(1)): chips are the organization's, checked against the packs of its sites
        when a chip is saved (`ChipDenomination.clean`), so a site added afterwards is checked here."""
        law = law_at(self.jurisdiction) if self.organization_id and self.active and self.jurisdiction else None
        if law is None:
            return
        stored = Site.objects.filter(pk=self.pk).values_list("jurisdiction", "active").first() if self.pk else None
        if stored is not None and stored[1] and law_at(stored[0]) == law:
            return  # already under this law: its chips were checked when saved
        chips = ChipDenomination.objects.filter(organization_id=self.organization_id, active=True)
        outside = sorted(chips.exclude(value_cents__in=list(law.specs)).values_list("value_cents", flat=True))
        if outside:
            allowed = ", ".join(f"${v / 100:.2f}" for v in law.specs)
            named = ", ".join(f"${v / 100:.2f}" for v in outside)
            raise ValidationError(
                {
                    "jurisdiction": f"{law.values_citation}: chips may be issued only in values of {allowed}; the "
                    f"organization's active chips include {named}. Retire {'it' if len(outside) == 1 else 'them'} "
                    "first."
                }
            )

    @classmethod
    def jurisdictions_of(cls, organization_id: int) -> set[str]:
        """The packs of an organization's active sites (the chip law it is held to)."""
        sites = cls.objects.filter(organization_id=organization_id, active=True)
        return set(sites.values_list("jurisdiction", flat=True))


# A table's number is its own at its site: North Dakota states it (99-01.3-08-02(1)); elsewhere a
# house control (every count, slip and recording names its table by number). Rule key `table.number`.
TABLE_NUMBER_TAKEN = "Each table at a site must have its own number."


# A field's own sanity bounds (MinValueValidator / MaxValueValidator) and list of values (its
# choices: a tie option 4, which New York's rule refuses citing 9 NYCRR 4620.5(h)), below the pack's rules.
BOUND_CODES = frozenset({"min_value", "max_value", "invalid_choice"})


def _law_over_bounds(errors: list[ValidationError]) -> list[ValidationError]:
    """A field's refusals less its sanity bounds when a rule refuses it too (the rule cites)."""
    cited = [error for error in errors if error.code not in BOUND_CODES]
    return cited or errors


class Table(models.Model):
    class Location(models.TextChoices):
        REGULAR = "regular", "Regularly located"
        SPECIAL_EVENT = "special_event", "Temporary special-event table"

    class DoubleDown(models.TextChoices):
        EQUAL = "equal", "Double-down wager must equal the original wager"
        UP_TO = "up_to", "Double-down wager up to the original wager"
        # An approved game's rules only (approvals.checks.approved_play_errors): Double Down
        # Madness, "up to the total amount already in play".
        TOTAL = "total", "Double-down wager up to the total amount already in play"

    class TipDoubleDown(models.TextChoices):
        EQUAL = "equal", "Doubling-down on tip bets permitted - must equal the original tip bet"
        UP_TO = "up_to", "Doubling-down on tip bets permitted - may be equal to or less than the original tip bet"
        NOT_PERMITTED = "not_permitted", "Doubling-down on tip bets not permitted"

    class DealingMethod(models.TextChoices):  # ND 99-01.3-08-10(1)(a)-(c); disclosed, 08-13(1)
        NO_PEEK = "no_peek", "Hole-Card-No-Peek"
        CARD_READER = "card_reader", "Hole-Card-with-Card-Reading-Device"
        NO_HOLE_CARD = "no_hole_card", "No-Hole-Card"

    class DealtFrom(models.TextChoices):
        SHOE = "shoe", "Dealing shoe"
        SHUFFLER = "shuffler", "Approved shuffling device"
        HAND = "hand", "Hand-dealt"

    class DoubleOn(models.TextChoices):
        ANY_TWO = "any_two", "Any first two cards"
        TEN_ELEVEN = "ten_eleven", "First two cards totalling 10 or 11"
        NINE_TO_ELEVEN = "nine_to_eleven", "First two cards totalling 9, 10 or 11"
        # An approved game's rules only (approvals.checks.approved_play_errors): Double Down
        # Madness, a single card dealt first, "the ability to continually double down or hit".
        ANY_CARD = "any_card", "Any card, again after each card received"
        NONE = "none", "No doubling down"

    class SplitPairs(models.TextChoices):
        ANY_PAIR = "any_pair", "Identical cards and any two ten-valued cards"
        IDENTICAL = "identical", "Identical cards only"
        ACES_EIGHTS = "aces_eights", "Aces and eights only"
        NONE = "none", "No splitting"

    class Surrender(models.TextChoices):
        NONE = "none", "No surrender"
        LATE = "late", "Surrender after the dealer checks for blackjack"

    class BlackjackPayout(models.TextChoices):
        THREE_TO_TWO = "3:2", "3 to 2"
        SIX_TO_FIVE = "6:5", "6 to 5"
        TWO_TO_ONE = "2:1", "2 to 1"
        EVEN = "1:1", "Even money"

    class PayoutRounding(models.TextChoices):
        DOWN = "down", "Rounded down to the table's lowest chip"
        UP = "up", "Rounded up to the table's lowest chip"

    class Banker(models.TextChoices):
        HOUSE = "house", "The house banks"
        PLAYER = "player", "A player-dealer banks"

    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="tables")
    number = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])
    game = models.CharField(max_length=2, choices=Game.choices, default=Game.TWENTY_ONE)
    min_wager_cents = models.PositiveIntegerField()
    max_wager_cents = models.PositiveIntegerField()
    location = models.CharField(max_length=20, choices=Location.choices, default=Location.REGULAR)
    active = models.BooleanField(default=True)
    # House rules (ND 99-01.3-08-02, 08-09, 08-13), printed on the rules handout.
    # The pack (packs) validates the deck count and every option below against its rules.
    decks = models.PositiveSmallIntegerField(default=6, validators=[MinValueValidator(1), MaxValueValidator(8)])
    max_players = models.PositiveSmallIntegerField(default=7, validators=[MinValueValidator(1), MaxValueValidator(9)])
    betting_spaces = models.PositiveSmallIntegerField(
        default=7, validators=[MinValueValidator(1), MaxValueValidator(9)]
    )
    dealt_from = models.CharField(max_length=10, choices=DealtFrom.choices, default=DealtFrom.SHOE)
    dealer_hits_soft_17 = models.BooleanField(default=False)
    double_on = models.CharField(max_length=15, choices=DoubleOn.choices, default=DoubleOn.ANY_TWO)
    double_after_split = models.BooleanField(default=True)  # ND 99-01.3-08-09(2)(d) permits it; NY (k)(6) does not
    split_pairs = models.CharField(max_length=15, choices=SplitPairs.choices, default=SplitPairs.ANY_PAIR)
    resplit_allowed = models.BooleanField(default=True)
    split_aces_one_card = models.BooleanField(default=True)
    surrender = models.CharField(max_length=10, choices=Surrender.choices, default=Surrender.NONE)
    blackjack_payout = models.CharField(
        max_length=5, choices=BlackjackPayout.choices, default=BlackjackPayout.THREE_TO_TWO
    )
    payout_rounding = models.CharField(max_length=15, choices=PayoutRounding.choices, blank=True, default="")
    # 9 NYCRR 4620.5(h): the organization's tie option (1 all ties push, 2 push on naturals only,
    # 3 house wins all ties); None outside New York.
    tie_option = models.PositiveSmallIntegerField(null=True, blank=True, choices=[(1, "1"), (2, "2"), (3, "3")])
    # WAC 230-40-125 (Washington blackjack, player-banked): who banks and the minimum bank.
    banker = models.CharField(max_length=15, choices=Banker.choices, default=Banker.HOUSE)
    min_bank_cents = models.PositiveIntegerField(null=True, blank=True, validators=[MaxValueValidator(100_000_000)])
    insurance_allowed = models.BooleanField(default=True)
    even_money_offered = models.BooleanField(default=False)
    tip_betting_allowed = models.BooleanField(default=True)
    # The organization's lower limit of a tip bet, where its site's pack has one (ND 99-01.3-08-09(2)(a));
    # None: a tip bet up to the table's maximum wager.
    tip_bet_max_cents = models.PositiveIntegerField(
        null=True, blank=True, help_text="The largest tip bet; blank: up to the table's maximum wager."
    )
    double_down = models.CharField(max_length=10, choices=DoubleDown.choices, default=DoubleDown.EQUAL)
    tip_double_down = models.CharField(
        max_length=15, choices=TipDoubleDown.choices, default=TipDoubleDown.NOT_PERMITTED
    )
    dealing_method = models.CharField(max_length=15, choices=DealingMethod.choices, default=DealingMethod.NO_PEEK)
    # ND 99-01.3-08-10(1)(c)(5): while the table's card-reading device is out of order, the table
    # deals by the hole-card-no-peek or no-hole-card method although the site uses the reader.
    card_reader_malfunction = models.BooleanField(
        default=False, help_text="The card-reading device is out of order: deal no-peek or no-hole-card here."
    )
    # Where its site's pack asks jumbo-faced cards (ND 99-01.3-08-02(3)): cards that are not
    # jumbo-faced, with a hole card reader and the approval the organization received for them.
    jumbo_faced_cards = models.BooleanField(default=True, help_text="The table's cards are jumbo-faced.")
    non_jumbo_approval = models.CharField(
        max_length=120,
        blank=True,
        default="",
        help_text="The approval of the table's cards that are not jumbo-faced: its reference and date, as recorded.",
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["site_id", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["site", "number"],
                name="table_number_unique_in_site",
                # Cited at the site's pack when validated (`validate_constraints`); neutral here.
                violation_error_message=TABLE_NUMBER_TAKEN,
            ),
            models.CheckConstraint(
                condition=Q(min_wager_cents__lte=models.F("max_wager_cents")),
                name="table_min_wager_not_above_max",
                violation_error_message="The minimum wager cannot be above the maximum wager.",
            ),
        ]

    def __str__(self):
        return f"{self.game_label} table {self.number}"

    @property
    def game_label(self) -> str:
        """The table's game as its site's pack names it ("Twenty-one", "Blackjack", "Black Jack"),
        never the model's fixed label; the model's label for a table of no site yet (or of a game its
        pack does not deal)."""
        if self.site_id is None:
            return self.get_game_display()
        from core.citations import jurisdiction_of

        return game_label(jurisdiction_of(self), self.game) or self.get_game_display()

    @property
    def label(self) -> str:
        """The table in a list (the surveillance pages) in its site's pack's words: "21 #1" where
        forms reference the game by its code (ND 99-01.3-08-05(3)(a)), "Blackjack #1" elsewhere."""
        if self.site_id is None:
            return f"{self.game} #{self.number}"
        from core.citations import jurisdiction_of

        return table_label(jurisdiction_of(self), self.game, self.number)

    def full_clean(self, *args, **kwargs):
        """Where a value is refused both by its field's sanity bound ("Ensure this value is less
        than or equal to 8.") and by the site's pack's rule, the rule's words alone: one refusal
        that cites its section (the API's and the service's, as the forms' `law_over_bounds`)."""
        try:
            super().full_clean(*args, **kwargs)
        except ValidationError as refused:
            if not hasattr(refused, "error_dict"):
                raise
            raise ValidationError(
                {name: _law_over_bounds(errors) for name, errors in refused.error_dict.items()}
            ) from None

    def clean(self):
        if self.min_wager_cents is not None and self.max_wager_cents is not None:
            if self.min_wager_cents > self.max_wager_cents:
                raise ValidationError(
                    {"min_wager_cents": f"{HOUSE_CONTROL}: the minimum wager cannot be above the maximum wager."}
                )
        if self.site_id is not None:
            # The site's pack (packs): its table numbering, wager limits, table rules and (where
            # its law says so) the one dealing method of a site.
            validate_table(self)
        self._check_outage_limit()

    def validate_constraints(self, exclude=None):
        """The table-number constraint's refusal cites the site's pack (`table.number`), never
        one jurisdiction's words."""
        try:
            super().validate_constraints(exclude=exclude)
        except ValidationError as error:
            if self.site_id is None or not hasattr(error, "error_dict"):
                raise
            from core.citations import cite, jurisdiction_of

            cited = f"{cite('table.number', jurisdiction_of(self.site_id))}: {lower_first(TABLE_NUMBER_TAKEN)}"
            raise ValidationError(
                {
                    name: [cited if m == TABLE_NUMBER_TAKEN else m for m in messages]
                    for name, messages in error.message_dict.items()
                }
            ) from None

    @classmethod
    def site_dealing_method(cls, site_id: int) -> str | None:
        """The dealing method of a site's active twenty-one tables (None: no such table)."""
        row = (
            cls.objects.filter(site_id=site_id, game=Game.TWENTY_ONE, active=True)
            .order_by("number")
            .values_list("dealing_method", "card_reader_malfunction")
            .first()
        )
        if row is None:
            return None
        return cls.DealingMethod.CARD_READER if row[1] else row[0]

    def _check_outage_limit(self):
        """ND 99-01.3-08-04(7): past an unrepaired surveillance outage's deadline, the maximum
        wager may not be raised above $2 (in every interface: API, pages and admin)."""
        if self.pk is None or self.max_wager_cents is None:
            return
        previous = Table.objects.filter(pk=self.pk).values_list("max_wager_cents", flat=True).first()
        if previous is not None and self.max_wager_cents > previous:
            check_max_wager(self, self.max_wager_cents)


def validate_chip_value(value_cents: int) -> None:
    """Kept for the migrations that name it: the values a chip may have are checked in
    `ChipDenomination.clean`, where the organization (and so its chip law) is known."""


def validate_chip_colour(value: str) -> None:
    """Kept for the migrations that name it: any colour is accepted here; a pack's chip law lists
    the colours a chip may be recorded in (`ChipDenomination.clean`)."""


# House control: one chip of a value in an organization (its clean and its constraint say it alike).
CHIP_VALUE_TAKEN = f"{HOUSE_CONTROL}: this chip value is already defined for the organization."


class ChipDenomination(models.Model):
    organization = models.ForeignKey(Organization, on_delete=models.PROTECT, related_name="chip_denominations")
    value_cents = models.PositiveIntegerField(validators=[validate_chip_value])
    primary_colour = models.CharField(max_length=40, validators=[validate_chip_colour])
    edge_spots = models.CharField(max_length=80)
    # One or two contrasting secondary colours as edge spots (a pack's chip law may prescribe them).
    edge_colour = models.CharField(max_length=40, blank=True, default="", validators=[validate_chip_colour])
    second_edge_colour = models.CharField(max_length=40, blank=True, default="", validators=[validate_chip_colour])
    # Required where a pack's chip law asks for it (`ChipLaw.marking_citation`); rows made before
    # it was recorded stay blank until a gaming manager gives it.
    marking = models.CharField(
        max_length=80,
        blank=True,
        default="",
        help_text="The organization's name or unique identification on one side of the chip (its value is on "
        "the other).",
    )
    active = models.BooleanField(default=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["organization_id", "value_cents"]
        constraints = [
            models.UniqueConstraint(
                fields=["organization", "value_cents"],
                name="chip_value_unique_in_org",
                violation_error_message=CHIP_VALUE_TAKEN,
            )
        ]

    def __str__(self):
        return f"${self.value_cents / 100:.2f} {self.primary_colour}"

    @property
    def unmarked(self) -> bool:
        """In use with no marking recorded (a chip retired is not issued): what a pack's marking rule
        refuses on a save and the nightly check and the chips' page name (`cardroom.chips`)."""
        return self.active and not self.marking.strip()

    def clean(self):
        others = ChipDenomination.objects.filter(organization_id=self.organization_id, value_cents=self.value_cents)
        if self.organization_id and others.exclude(pk=self.pk).exists():
            raise ValidationError({"value_cents": CHIP_VALUE_TAKEN})
        if not self.organization_id:
            return
        # Chips are the organization's: held to the chip law of every pack of its active sites
        # (none: any value above zero, any colour; house control). One query for the packs.
        codes = Site.jurisdictions_of(self.organization_id)
        laws = laws_of(codes)
        if not laws and self.value_cents is not None and self.value_cents <= 0:
            raise ValidationError({"value_cents": f"{HOUSE_CONTROL}: a chip's value is more than $0.00."})
        for law in laws:
            self._check_law(law)
            if self.active:
                self._check_reversed_pairs(law)
            if not self.active and self.value_cents == law.twenty_five_dollars_cents:
                self._check_twenty_five_chips_still_needed(law, {c for c in codes if law_at(c) == law})

    def _check_law(self, law):
        """The values chips may be issued in, the marking, and the colours a chip is recorded in,
        under `law`."""
        if self.value_cents not in law.specs:
            allowed = ", ".join(f"${v / 100:.2f}" for v in law.specs)
            raise ValidationError(
                {"value_cents": f"{law.values_citation}: chips may be issued only in values of {allowed}."}
            )
        for name in ("primary_colour", "edge_colour", "second_edge_colour"):
            value = getattr(self, name)
            if value and value not in law.colours:
                raise ValidationError(
                    {
                        name: f"{law.colour_list_citation}: a chip colour is one of {', '.join(law.colours)} "
                        f"(got {value!r}), so that the colours of {law.colours_citation} can be checked."
                    }
                )
        if law.marking_citation and self.unmarked:
            raise ValidationError(
                {
                    "marking": f"{law.marking_citation}: each chip bears the organization's name, or a unique "
                    "identification that differentiates its chips from all other organizations' chips, on one "
                    "side and the chip's value on the other: record the name or identification the chips bear."
                }
            )

    def _check_reversed_pairs(self, law):
        """No secondary colour identical to another value's primary colour that makes a reversed
        combination of primary and secondary colours (where the law says so)."""
        mine = colours_of(self)
        siblings = ChipDenomination.objects.filter(organization_id=self.organization_id, active=True).exclude(
            pk=self.pk
        )
        for other in siblings.exclude(value_cents=self.value_cents):
            if reversed_pair(mine, colours_of(other)):
                raise ValidationError({"edge_colour": reversed_pair_message(mine, colours_of(other), law)})

    def _check_twenty_five_chips_still_needed(self, law, jurisdictions):
        """The $25 chip cannot be withdrawn while a table of the organization, at a site whose pack
        states the rule, accepts $25 wagers."""
        twenty_five = law.twenty_five_dollars_cents
        tables = (
            Table.objects.filter(
                site__organization_id=self.organization_id,
                site__jurisdiction__in=jurisdictions,
                site__active=True,
                active=True,
                game=Game.TWENTY_ONE,
                max_wager_cents__gte=twenty_five,
            )
            .select_related("site")
            .order_by("site__name", "number")
        )
        table = tables.first()
        if table is not None:
            raise ValidationError(
                {
                    "active": f"{law.twenty_five_citation}: {table} at {table.site} accepts $25.00 wagers, so the "
                    "$25.00 chip must stay available to players; lower the tables' maximum first."
                }
            )


# House control (no pack's text says it): initials sign the forms and look up a badge (cardroom.pins)
# whatever their case, so two people of one organization never share them.
INITIALS_TAKEN = f"{HOUSE_CONTROL}: initials are unique in the organization whatever their case: they sign forms."


class Employee(models.Model):
    organization = models.ForeignKey(Organization, on_delete=models.PROTECT, related_name="employees")
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="employee")
    initials = models.CharField(max_length=4)
    employment_type = models.CharField(max_length=30, choices=EmploymentType.choices, default=EmploymentType.GAMING)
    supervisor = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="subordinates")
    # The number the state issued the employee (a dealer's licence), as the site's pack names it
    # (`Pack.employee_identifier`); optional. Filed quarters send dealers' hold under it.
    state_identifier = models.CharField(
        max_length=40,
        blank=True,
        validators=[STATE_IDENTIFIER],
        verbose_name="state-issued identifier",
        help_text="The licence or registration number the state issued this employee, where the law of the "
        "organization's sites names one (letters, digits and hyphens).",
    )
    # ND 99-01.3-08-14(2): family and household relations do not disqualify an independent contractor.
    independent_contractor = models.BooleanField(default=False)
    active = models.BooleanField(default=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["organization_id", "user__last_name", "user__first_name"]
        constraints = [
            # Whatever their case, as `clean` reads them and a badge is looked up (cardroom.pins):
            # "JR" and "jr" would be one badge for two people.
            models.UniqueConstraint(
                "organization",
                Lower("initials"),
                name="employee_initials_unique_in_org_any_case",
                violation_error_message=INITIALS_TAKEN,
            )
        ]

    def __str__(self):
        return self.name

    @property
    def name(self) -> str:
        return self.user.get_full_name() or self.user.get_username()

    def clean(self):
        others = Employee.objects.filter(organization_id=self.organization_id, initials__iexact=self.initials)
        if self.organization_id and self.initials and others.exclude(pk=self.pk).exists():
            raise ValidationError({"initials": INITIALS_TAKEN})
        if self.state_identifier and (unnamed := self._identifier_unnamed()):
            raise ValidationError({"state_identifier": unnamed})
        if self.state_identifier:
            same = Employee.objects.filter(organization_id=self.organization_id, state_identifier=self.state_identifier)
            if same.exclude(pk=self.pk).exists():
                raise ValidationError(
                    {
                        "state_identifier": f"{HOUSE_CONTROL}: another employee of the organization holds this identifier."
                    }
                )
        if self.supervisor_id and self.supervisor_id == self.pk:
            raise ValidationError({"supervisor": f"{HOUSE_CONTROL}: an employee cannot be their own supervisor."})
        if self.supervisor_id and self.supervisor.organization_id != self.organization_id:
            raise ValidationError(
                {"supervisor": f"{HOUSE_CONTROL}: the supervisor must belong to the same organization."}
            )

    def _identifier_unnamed(self) -> str:
        """Why this employee's state-issued identifier is refused: the law of none of the
        organization's sites names one (`state_identifier_absent`, each pack citing its text, as
        the employee page's notes say it). "" where one does, or where it is the identifier the
        employee was recorded with earlier: a record keeps what it holds and stays editable."""
        unnamed = state_identifier_absent(self.organization_id)
        kept = Employee.objects.filter(pk=self.pk, state_identifier=self.state_identifier)
        return "" if not unnamed or (self.pk and kept.exists()) else unnamed


def site_jurisdictions(organization_id) -> list[str]:
    """The codes of the packs of the organization's sites, each once, in order."""
    return sorted(set(Site.objects.filter(organization_id=organization_id).values_list("jurisdiction", flat=True)))


def state_identifier_absent(organization_id) -> str:
    """Why no employee of the organization holds a state-issued identifier: the law of none of its
    sites names one (New York: 9 NYCRR 4620.5 names none), in each pack's words; "" where one does
    (Washington's card room employee licence, WAC 230-03-265). The employee form leaves the field
    out there (`cardroom.forms.EmployeeForm`), and `Employee.clean` refuses one given anyway."""
    codes = site_jurisdictions(organization_id)
    if any(employee_identifier(code) for code in codes):
        return ""
    said = " ".join(employee_identifier_absent(code) for code in codes) or (
        f"{HOUSE_CONTROL}: the organization has no site yet, so no law names a state-issued identifier."
    )
    return f"{said} No state-issued identifier is recorded for this organization's employees."


class Station(models.Model):
    """A shared pit terminal or count tablet: a login that stays signed in at one site and only
    presents forms. It is no employee and holds no role, so it can do nothing itself; each step
    taken on it is initialled by the person doing it with their badge (initials) and PIN
    (cardroom.pins), checked and recorded as theirs.

    Its `kind` says which forms it presents (house control, `cardroom.access.station_refusal`):
    a pit terminal the pit's (tables, fill and credit slips, table fees), a count tablet the count
    room's (count sessions), or both where one terminal serves a small site; every kind the drop
    boxes' custody; no kind the work no station's page offers (the fee cash count, a count
    adjustment: a person's, at their own login)."""

    class Kind(models.TextChoices):
        PIT = "pit", "Pit terminal"
        COUNT = "count", "Count tablet"
        BOTH = "both", "Pit terminal and count tablet"

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="station")
    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="stations")
    name = models.CharField(max_length=60)
    kind = models.CharField(max_length=5, choices=Kind.choices, default=Kind.BOTH)
    active = models.BooleanField(default=True)

    class Meta:
        ordering = ["site_id", "name"]

    def __str__(self):
        return f"{self.name} ({self.site})"

    def clean(self):
        if self.user_id and Employee.objects.filter(user_id=self.user_id).exists():
            raise ValidationError(
                {"user": f"{HOUSE_CONTROL}: a station login is no employee's login: it signs nothing itself."}
            )

    def presents(self, work: str) -> bool:
        """Does the station present the forms of `work` (a `Kind`: PIT or COUNT)?"""
        return self.kind in (work, self.Kind.BOTH)


class SigningPin(PinLock):
    """An employee's PIN for initialling steps on a station: the hash, wrong entries and lock are
    the platform's mechanism (`core.pins.PinLock`); who holds it and who signs with it, cardroom's
    (cardroom.pins)."""

    employee = models.OneToOneField(Employee, on_delete=models.CASCADE, related_name="signing_pin")

    def __str__(self):
        return f"PIN of {self.employee}"


class EmployeeRelation(models.Model):
    """A family or household tie between two employees (ND 99-01.3-08-14(2) count-team rule)."""

    class Kind(models.TextChoices):
        HOUSEHOLD = "household", "Member of the same household"
        SPOUSE = "spouse", "Spouse"
        PARENT = "parent", "Parent"
        CHILD = "child", "Child"
        SIBLING = "sibling", "Brother or sister"

    employee = models.ForeignKey(Employee, on_delete=models.CASCADE, related_name="relations")
    relative = models.ForeignKey(Employee, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    history = HistoricalRecords()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["employee", "relative", "kind"], name="relation_unique"),
            models.CheckConstraint(
                condition=~Q(employee=models.F("relative")),
                name="relation_not_self",
                violation_error_message=f"{HOUSE_CONTROL}: an employee cannot be related to themselves.",
            ),
        ]

    def __str__(self):
        return f"{self.employee} - {self.get_kind_display()} - {self.relative}"

    def clean(self):
        if self.relative_id and self.employee_id and self.relative.organization_id != self.employee.organization_id:
            raise ValidationError(
                {"relative": f"{HOUSE_CONTROL}: the relative must be an employee of the same organization."}
            )


class Membership(models.Model):
    """A role held by an employee at a site; no site means every site of the organization."""

    employee = models.ForeignKey(Employee, on_delete=models.CASCADE, related_name="memberships")
    site = models.ForeignKey(Site, null=True, blank=True, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=20, choices=Role.choices)
    history = HistoricalRecords()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["employee", "site", "role"],
                name="membership_unique",
                violation_error_message=f"{HOUSE_CONTROL}: the employee already has this role at this site.",
            ),
            models.UniqueConstraint(
                fields=["employee", "role"],
                condition=Q(site__isnull=True),
                name="org_membership_unique",
                violation_error_message=f"{HOUSE_CONTROL}: the employee already has this role across the organization.",
            ),
        ]

    def __str__(self):
        return f"{self.employee} - {self.role_label} @ {self.site or 'all sites'}"

    @property
    def role_label(self) -> str:
        """The role as its site names it (`role_label`: "Cashier" at a fees room)."""
        return role_label(self.role, self.site)

    def clean(self):
        if self.site_id is None and self.role not in ORG_WIDE_ROLES:
            raise ValidationError(
                {"site": f"{HOUSE_CONTROL}: only gaming managers and auditors may hold a role at all sites."}
            )
        if self.site_id and self.employee_id and self.site.organization_id != self.employee.organization_id:
            raise ValidationError({"site": f"{HOUSE_CONTROL}: the site belongs to another organization."})
        if (
            self.role == Role.WHEEL_OPERATOR
            and self.site_id
            and game_label(self.site.jurisdiction, Game.PADDLEWHEEL) is None
        ):
            # A wheel operator runs a paddlewheel: a site whose pack deals none has no such role.
            raise ValidationError(
                {
                    "role": f"{HOUSE_CONTROL}: {self.site.name} deals no paddlewheel (its law's games), so it has no "
                    "wheel operator."
                }
            )
        if self.employee_id:
            check_role_grant(self)  # another app's rule on who holds the role (counts: AUDITOR_BAR)


def site_jurisdiction(site_id: int) -> str:
    """The jurisdiction code of a site (the `site_jurisdiction` hook's answer, `core.citations`)."""
    return Site.objects.values_list("jurisdiction", flat=True).get(pk=site_id)
