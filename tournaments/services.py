"""Every write of a tournament: permission-checked, validated, audited, in one transaction.

The API, the pages and the admin call these and nothing else; bad input raises
ValidationError naming the field and the rule, and changes nothing.
"""

from dataclasses import dataclass
from datetime import date, datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Sum

from cardroom.access import require_role
from cardroom.models import Employee, Site
from core import acts, closing, moments
from core.audit import record_site_event
from core.hooks import TOURNAMENT_FEE_FLAG, TOURNAMENT_VOID
from core.limits import MAX_TEXT_LENGTH, check_date
from core.money import format_money
from core.rules import HOUSE_CONTROL
from floor.calculations import business_date
from packs import game_name, pack_for

from . import rules
from .calculations import fee_within_cap, name_key
from .models import FeeKind, PrizeKind, Tournament, TournamentFee, TournamentPlayer, TournamentPrize


def _gaming_date(site: Site, at: datetime) -> date:
    return business_date(at, site.time_zone, site.business_day_start_hour)


def _refuse_prize_before_entry(player: TournamentPlayer, awarded_at: datetime) -> None:
    """ND 99-01.3-08-15(4): a prize goes to a player of the tournament, who entered by paying the
    entry fee (08-15(1)); so it is not dated before the player's entry fee was collected."""
    entered = (
        player.fees.filter(voids__isnull=True).order_by("collected_at").values_list("collected_at", flat=True).first()
    )
    if entered is not None and awarded_at < entered:
        zone = moments.site_zone(player.tournament.site)
        shown = [m.astimezone(zone).strftime("%Y-%m-%d %H:%M %Z") for m in (awarded_at, entered)]
        raise ValidationError(
            {
                "awarded_at": f"{rules.PRIZES.at(player.tournament.site)}: a prize goes to a player who has entered; "
                f"{shown[0]} is before {player.name}'s entry fee was collected ({shown[1]})."
            }
        )


def _text(value: str, field: str, *, required: bool, max_length: int = MAX_TEXT_LENGTH) -> str:
    value = (value or "").strip()
    if required and not value:
        raise ValidationError({field: f"{HOUSE_CONTROL}: {field} is required."})
    if len(value) > max_length:
        raise ValidationError({field: f"{field} is at most {max_length} characters (House control)."})
    return value


def _money(cents: int) -> str:
    return format_money(cents)


# --- Announcing a tournament -------------------------------------------------------------------


def _check_fees(site, gaming_date, entry_fee_cents, rebuy_fee_cents, add_on_fee_cents, chips) -> None:
    cap = rules.MAX_CUMULATIVE_FEE.on(site, gaming_date).value
    if entry_fee_cents is None or entry_fee_cents < rules.MIN_ENTRY_FEE_CENTS:
        raise ValidationError(
            {"entry_fee_cents": f"{rules.FEES.at(site)}: the organization shall charge a player an entry fee."}
        )
    if entry_fee_cents > cap:
        raise ValidationError(
            {
                "entry_fee_cents": f"{rules.FEES.at(site)}: the cumulative entry fee for a tournament cannot exceed "
                f"{_money(cap)} per player; an entry fee of {_money(entry_fee_cents)} does."
            }
        )
    for field, fee, chips_field in (
        ("rebuy_fee_cents", rebuy_fee_cents, "chips_per_rebuy"),
        ("add_on_fee_cents", add_on_fee_cents, "chips_per_add_on"),
    ):
        if fee is None:
            if chips.get(chips_field) is not None:
                raise ValidationError({chips_field: f"{rules.FEES.at(site)}: chips for a {field[:-10]} need its fee."})
            continue
        if fee < rules.MIN_ENTRY_FEE_CENTS or fee > entry_fee_cents:
            raise ValidationError(
                {
                    field: f"{rules.FEES.at(site)}: a rebuy or add-on is an additional amount less than or equal to the "
                    f"original entry fee ({_money(entry_fee_cents)}); {_money(fee)} is not."
                }
            )
        if not chips.get(chips_field):
            raise ValidationError(
                {chips_field: f"{rules.FEES.at(site)}: a rebuy or add-on gives a fixed number of chips."}
            )


def _check_chips(chips: dict) -> None:
    for field, value in chips.items():
        if value is None:
            continue
        if value < 1 or value > rules.MAX_TOURNAMENT_CHIPS:
            raise ValidationError(
                {field: f"{field} is a number of chips from 1 to {rules.MAX_TOURNAMENT_CHIPS:,} (House control)."}
            )


def no_tournament_here(site: Site) -> str:
    """Why a site whose pack states no tournament (`rules.TOURNAMENT`) announces none."""
    return (
        f"{HOUSE_CONTROL}: {site.name}'s rules ({pack_for(site).name}) define no {game_name(site, '21')} tournament; "
        "the tournament register is kept only where they do."
    )


def announce_tournament(
    *,
    acting_user,
    site: Site,
    name: str,
    gaming_date: date,
    entry_fee_cents: int,
    chips_per_entry: int,
    minimum_bet_chips: int,
    length_of_play: str,
    prizes_offered: str,
    rebuy_fee_cents: int | None = None,
    chips_per_rebuy: int | None = None,
    add_on_fee_cents: int | None = None,
    chips_per_add_on: int | None = None,
    maximum_bet_chips: int | None = None,
    betting_spaces: int = 1,
    rotating_button: bool = False,
    advancement: str = "",
    at: datetime | None = None,
) -> Tournament:
    """Announce a tournament's rules, which are disclosed to players (`rules.DISCLOSURE`): its
    fees and chips (08-15(1)), spaces, button and length of play (08-15(2)), bet limits in
    chips (08-15(3)) and prizes (08-15(4)). Once announced the rules do not change."""
    access = require_role(acting_user, site, *rules.DIRECTORS, action="announce a tournament", rule=rules.DIRECTOR_RULE)
    if not rules.TOURNAMENT.applies(site):
        # The register holds one state's tournament rules (fees capped, no-value chips, disclosed
        # rules); a site whose rules define no tournament records none rather than be held to them.
        raise ValidationError({"site": no_tournament_here(site)})
    employee = acts.acting_employee(access)
    check_date(gaming_date, "gaming_date")
    name = _text(name, "name", required=True, max_length=rules.MAX_NAME_LENGTH)
    length_of_play = _text(length_of_play, "length_of_play", required=True, max_length=rules.MAX_NAME_LENGTH)
    if not length_of_play:
        raise ValidationError({"length_of_play": f"{rules.PLAY.at(site)}: set the time or number of shoes or hands."})
    prizes_offered = _text(prizes_offered, "prizes_offered", required=True)
    advancement = _text(advancement, "advancement", required=False)
    chips = {
        "chips_per_entry": chips_per_entry,
        "chips_per_rebuy": chips_per_rebuy,
        "chips_per_add_on": chips_per_add_on,
        "minimum_bet_chips": minimum_bet_chips,
        "maximum_bet_chips": maximum_bet_chips,
    }
    if not chips_per_entry:
        raise ValidationError(
            {"chips_per_entry": f"{rules.FEES.at(site)}: the entry fee buys a fixed number of chips."}
        )
    if not minimum_bet_chips:
        raise ValidationError(
            {"minimum_bet_chips": f"{rules.BETTING.at(site)}: the organization shall set a minimum bet."}
        )
    _check_chips(chips)
    _check_fees(site, gaming_date, entry_fee_cents, rebuy_fee_cents, add_on_fee_cents, chips)
    if maximum_bet_chips is not None and maximum_bet_chips < minimum_bet_chips:
        raise ValidationError(
            {"maximum_bet_chips": f"{rules.BETTING.at(site)}: the maximum bet is at least the minimum bet."}
        )
    if betting_spaces not in rules.BETTING_SPACES:
        raise ValidationError(
            {"betting_spaces": f"{rules.PLAY.at(site)}: a player may be assigned one or two betting spaces."}
        )
    acts.refuse_closed_books(site, gaming_date, "a tournament")
    # Announced from paper keeps its time (the entry time is kept beside it); never in the future.
    announced_at = acts.moment(at, "announced_at", site=site, books=False, what="a tournament")
    with transaction.atomic():
        acts.hold(site)  # two announcements of one name: one waits
        acts.refuse_closed_books(site, gaming_date, "a tournament")  # as does the books' close
        _refuse_same_name(site, gaming_date, name)
        tournament = Tournament.objects.create(
            site=site,
            name=name,
            gaming_date=gaming_date,
            entry_fee_cents=entry_fee_cents,
            rebuy_fee_cents=rebuy_fee_cents,
            add_on_fee_cents=add_on_fee_cents,
            betting_spaces=betting_spaces,
            rotating_button=rotating_button,
            length_of_play=length_of_play,
            maximum_bet_chips=maximum_bet_chips,
            advancement=advancement,
            prizes_offered=prizes_offered,
            announced_at=announced_at,
            announced_by=employee,
            **{k: v for k, v in chips.items() if k != "maximum_bet_chips"},
        )
        record_site_event(acting_user, "tournament.announced", tournament, site)
    return tournament


def _refuse_same_name(site: Site, gaming_date: date, name: str) -> None:
    """A tournament is named once a day at a site (house control): its fees, prizes and disclosure
    are found by that name, and the same form loaded twice would otherwise announce it twice.
    Case and runs of spaces do not make another name."""
    key = name_key(name)
    for other in Tournament.objects.filter(site=site, gaming_date=gaming_date).only("name", "announced_at"):
        if name_key(other.name) == key:
            raise ValidationError(
                {
                    "name": f"{HOUSE_CONTROL}: {other.name} is already announced for {gaming_date} at {site.name} "
                    f"({moments.shown(site, other.announced_at)}); give another tournament of that day another name."
                }
            )


# --- A fee or prize found after its tournament's day's books closed ---------------------------------

FOUND_LATE_INSTEAD = (
    "A tournament fee or prize found after the books of its day closed is entered on a gaming day whose books are "
    "open (now, or a time of that day), with the reason it comes late: it counts on that day, and the closed "
    "day's summary lists it as found later, not counted again there."
)


def _refuse_closed_day(site: Site, gaming_date: date, what: str, field: str) -> None:
    """`acts.refuse_closed_books` in a tournament's words: a record dated on a closed day is refused
    (closed books stay closed), saying how one found late is entered instead (`_found_late`)."""
    why = closing.closed_reason(site.pk, gaming_date)
    if why is not None:
        raise ValidationError(
            {
                field: f"{closing.closed_books_control(site)}: {why}, so {what} of {gaming_date} cannot be entered. "
                f"{FOUND_LATE_INSTEAD}"
            }
        )


def _found_late(tournament: Tournament, gaming_date: date, reason: str) -> tuple[date | None, str]:
    """(the closed day the record belongs to, its reason), or (None, "") for a record of the day it
    is entered on.

    A fee or prize found after the books of its tournament's day closed belongs to that day
    (`Tournament.gaming_date`) but cannot change its closed figures: entered with the reason it comes
    late, it counts on the day it is entered, like an adjusting entry (accounting.Adjustment), and
    names the closed day, which lists it as found later. The reason is what says so: a tournament
    played over more than one night takes its later nights' fees and prizes on their own days, with
    none, and a record of the closed day's own time is refused saying to give it (`_refuse_closed_day`)."""
    site, day = tournament.site, tournament.gaming_date
    reason = _text(reason, "reason", required=False)
    if not reason or gaming_date <= day or not closing.books_closed(site.pk, day):
        return None, ""
    return day, reason


def _amend_for_late(record: "TournamentFee | TournamentPrize", agp_effect_cents: int, employee: Employee) -> None:
    """A record found late for a day of a filed quarter amends that return as a void of one does
    (`_amend_a_filed_return`): the filed figures stay, the amendment is written beside them."""
    if record.corrects_date is None:
        return
    site = record.tournament.site
    fee, prize = (record, None) if isinstance(record, TournamentFee) else (None, record)
    late = VoidOfRecord(site, record.corrects_date, agp_effect_cents, employee, fee=fee, prize=prize, found_late=True)
    _amend_a_filed_return(late)


# --- Fees: entry, rebuy, add-on --------------------------------------------------------------


FEE_FIELDS = {
    FeeKind.ENTRY: ("entry_fee_cents", "chips_per_entry"),
    FeeKind.REBUY: ("rebuy_fee_cents", "chips_per_rebuy"),
    FeeKind.ADD_ON: ("add_on_fee_cents", "chips_per_add_on"),
}


def _hold_register(tournament: Tournament) -> None:
    """One writer at a time per tournament: its row locked to the end of the transaction, so a fee,
    a prize's void and a fee's void read the register as the one before left it (two voids of one
    fee, a rebuy while its entry fee is voided: the second reads the first)."""
    acts.hold(tournament)


def paid_cents(player: TournamentPlayer) -> int:
    """The player's cumulative fee so far: entry fee, rebuys and add-ons, net of voids."""
    return TournamentFee.objects.filter(player=player).aggregate(total=Sum("fee_cents"))["total"] or 0


def _player_for(tournament, kind, player, player_name, employee, at) -> TournamentPlayer:
    site = tournament.site
    if kind == FeeKind.ENTRY:
        name = _text(player_name, "player_name", required=True, max_length=rules.MAX_NAME_LENGTH)
        key = name_key(name)
        existing = TournamentPlayer.objects.filter(tournament=tournament, name_key=key).first()
        if existing is not None and paid_cents(existing) > 0:
            raise ValidationError(
                {
                    "player_name": f"{rules.FEES.at(site)}: {name} has paid the entry fee of this tournament already; "
                    "further chips are a rebuy or an add-on."
                }
            )
        if existing is not None:
            return existing  # the entry fee was voided: the player enters again on the same line
        return TournamentPlayer.objects.create(
            tournament=tournament, name=name, name_key=key, registered_at=at, registered_by=employee
        )
    if player is None or player.tournament_id != tournament.pk:
        raise ValidationError(
            {"player": f"{rules.FEES.at(site)}: a rebuy or add-on is for a player on this tournament's register."}
        )
    _refuse_not_entered(player)
    return player


def _refuse_not_entered(player: TournamentPlayer) -> None:
    if paid_cents(player) <= 0:
        site = player.tournament.site
        raise ValidationError({"player": f"{rules.FEES.at(site)}: {player.name} has not paid the entry fee."})


def collect_fee(
    *,
    acting_user,
    tournament: Tournament,
    kind: str,
    player: TournamentPlayer | None = None,
    player_name: str = "",
    at: datetime | None = None,
    reason: str = "",
) -> TournamentFee:
    """Collect an entry fee (registering the player), a rebuy or an add-on, at the fee the
    tournament announced, and issue its fixed number of chips (ND 99-01.3-08-15(1)). Refused
    when the player's cumulative fee would exceed $200 (08-15(1)). The row records the player,
    the fee, the date and the collecting employee's initials (08-16(1)(e)). Entered after the
    books of the tournament's day closed, it counts on the day entered and names that closed day,
    with `reason` (`_found_late`)."""
    site = tournament.site
    access = require_role(
        acting_user, site, *rules.COLLECTORS, action="collect a tournament fee", rule=rules.COLLECTOR_RULE
    )
    employee = acts.acting_employee(access)
    if kind not in FEE_FIELDS:
        raise ValidationError({"kind": f"{rules.FEES.at(site)}: a fee is an entry fee, a rebuy or an add-on."})
    fee_field, chips_field = FEE_FIELDS[FeeKind(kind)]
    fee_cents, chips = getattr(tournament, fee_field), getattr(tournament, chips_field)
    if fee_cents is None:
        raise ValidationError(
            {"kind": f"{rules.FEES.at(site)}: this tournament does not allow a {FeeKind(kind).label.lower()}."}
        )
    # core.moments: paper-first rules; a time on a closed day is refused below, in a tournament's words
    at = acts.moment(at, "collected_at", site=site, books=False, what="a tournament fee")
    gaming_date = _gaming_date(site, at)
    _refuse_closed_day(site, gaming_date, "a tournament fee", "collected_at")
    corrects_date, reason = _found_late(tournament, gaming_date, reason)
    with transaction.atomic():
        acts.key_share(site)  # the books' close waits, as `acts.hold_books_open`
        _refuse_closed_day(site, gaming_date, "a tournament fee", "collected_at")
        corrects_date, reason = _found_late(tournament, gaming_date, reason)  # a close since
        _hold_register(tournament)  # two fees cannot both pass the cap
        player = _player_for(tournament, kind, player, player_name, employee, at)
        paid = paid_cents(player)
        cap = rules.MAX_CUMULATIVE_FEE.on(site, tournament.gaming_date)
        if not fee_within_cap(paid, fee_cents, cap.value):
            raise ValidationError(
                {
                    "kind": f"{cap.citation}: the cumulative entry fee, including rebuys or add-ons, cannot exceed "
                    f"{_money(cap.value)} per player; {player.name} has paid {_money(paid)} "
                    f"and this {FeeKind(kind).label.lower()} of {_money(fee_cents)} would make "
                    f"{_money(paid + fee_cents)}."
                }
            )
        fee = TournamentFee.objects.create(
            tournament=tournament,
            player=player,
            kind=kind,
            fee_cents=fee_cents,
            chips=chips,
            gaming_date=gaming_date,
            collected_at=at,
            collected_by=employee,
            corrects_date=corrects_date,
            reason=reason,
        )
        record_site_event(acting_user, f"tournament.fee.{kind}", fee, site)
        _amend_for_late(fee, fee.fee_cents, employee)
        flag_fee_before_announcement(tournament, fee)
    return fee


@dataclass(frozen=True)
class FeeBeforeAnnouncement:
    """A fee dated before its tournament was announced (`flag_fee_before_announcement`)."""

    site: Site
    tournament: Tournament
    fee: TournamentFee


def register_fee_flag(flag) -> None:
    """Compliance registers `flag(FeeBeforeAnnouncement)` once, when its app is ready: it opens the alert."""
    TOURNAMENT_FEE_FLAG.register(flag)


def flag_fee_before_announcement(tournament: Tournament, fee: TournamentFee) -> bool:
    """House control: a fee dated before its tournament's announcement is recorded and flagged,
    not refused. ND 99-01.3-08-15 requires the rules (the entry fee and its chips among them) to
    be disclosed to players but states no time for it, and 08-15(1) and 08-16(1)(e) require every
    fee collected on the register: refusing a fee collected on paper would leave the register
    short, and an announcement entered without its paper time (now) cannot be re-dated (its rules
    do not change once announced). The gaming manager checks the paper instead."""
    if fee.collected_at >= tournament.announced_at:
        return False
    TOURNAMENT_FEE_FLAG(FeeBeforeAnnouncement(site=tournament.site, tournament=tournament, fee=fee))
    return True


@dataclass(frozen=True)
class VoidOfRecord:
    """A void of a fee or prize (`void_fee`, `void_prize`), as the books are asked of it: the void
    row (`fee` or `prize`), the day of the row it voids (`day`) and what voiding it takes off that
    day's tournament AGP (`agp_effect_cents`: a fee's opposite, a prize's amount back). Or, where
    `found_late`, a fee or prize entered after the books of its day (`day`, its `corrects_date`)
    closed: what it adds to that day's tournament AGP (a fee's amount, a prize's opposite)."""

    site: Site
    day: date
    agp_effect_cents: int
    recorded_by: Employee  # who voided it (or entered the record found late)
    fee: TournamentFee | None = None
    prize: TournamentPrize | None = None
    found_late: bool = False


def register_void_amendment(amend) -> None:
    """The books register `amend(VoidOfRecord) -> FilingAmendment | None` once, when their app is ready."""
    TOURNAMENT_VOID.register(amend)


def _amend_a_filed_return(void: VoidOfRecord) -> None:
    """A void counts on the day it is made; where the row it voids is on a filed quarterly summary
    (ND 99-01.3-08-16(1)(g): its tournament figures), the books write the amendment of that return
    beside it in the void's transaction (`accounting.amendments.amend_with_tournament_void`), and
    the gaming manager and the state's registry hear of it; an unfiled quarter is not amended."""
    TOURNAMENT_VOID(void)


def void_fee(*, acting_user, fee: TournamentFee, reason: str, at: datetime | None = None) -> TournamentFee:
    """Void a fee recorded by mistake: a new row pointing back with the opposite amount and
    chips, dated when it was voided (now, or the time on its paper), the entry time beside it;
    not before the fee it voids (`rules.FEE_RECORD`). The original stays on the register. The
    void counts on its own day; a fee on a filed return is voided too, and that return amended
    (`_amend_a_filed_return`)."""
    site = fee.tournament.site
    access = require_role(acting_user, site, *rules.DIRECTORS, action="void a tournament fee", rule=rules.DIRECTOR_RULE)
    employee = acts.acting_employee(access)
    reason = _text(reason, "reason", required=True)
    if fee.kind == FeeKind.VOID:
        raise ValidationError({"fee": f"{HOUSE_CONTROL}: a void is not voided again; collect the fee anew."})
    at = acts.moment(at, "voided_at", site=site, what="a tournament fee")
    moments.refuse_before(
        site,
        at,
        fee.collected_at,
        field="voided_at",
        rule=rules.FEE_RECORD.at(site),
        why="a void corrects a fee already on the register",
        what="the fee was collected",
    )
    gaming_date = _gaming_date(site, at)
    acts.refuse_closed_books(site, gaming_date, "a tournament fee")
    with transaction.atomic():
        acts.hold_books_open(site, gaming_date, "a tournament fee")
        _hold_register(fee.tournament)
        if TournamentFee.objects.filter(voids=fee).exists():
            raise ValidationError({"fee": f"{HOUSE_CONTROL}: this fee is voided already."})
        if fee.kind == FeeKind.ENTRY and paid_cents(fee.player) > fee.fee_cents:
            raise ValidationError(
                {"fee": f"{HOUSE_CONTROL}: void the player's rebuys and add-ons before the entry fee."}
            )
        void = TournamentFee.objects.create(
            tournament=fee.tournament,
            player=fee.player,
            kind=FeeKind.VOID,
            fee_cents=-fee.fee_cents,
            chips=-fee.chips,
            gaming_date=gaming_date,
            collected_at=at,
            collected_by=employee,
            voids=fee,
            reason=reason,
        )
        record_site_event(acting_user, "tournament.fee.void", void, site)
        _amend_a_filed_return(VoidOfRecord(site, fee.gaming_date, -fee.fee_cents, employee, fee=void))
    return void


# --- Prizes ---------------------------------------------------------------------------------------


def award_prize(
    *,
    acting_user,
    tournament: Tournament,
    player: TournamentPlayer,
    round_name: str,
    kind: str,
    amount_cents: int,
    description: str = "",
    split: bool = False,
    at: datetime | None = None,
    reason: str = "",
) -> TournamentPrize:
    """Record a prize on the prize register (ND 99-01.3-08-16(1)(f)): a cash or merchandise
    prize (08-15(4)) to a player of the tournament for a preliminary or championship round,
    with its value; `split` when the last two players agreed to split the prize (08-15(4)).
    Entered after the books of the tournament's day closed, it counts on the day entered and names
    that closed day, with `reason` (`_found_late`)."""
    site = tournament.site
    access = require_role(
        acting_user, site, *rules.DIRECTORS, action="award a tournament prize", rule=rules.DIRECTOR_RULE
    )
    employee = acts.acting_employee(access)
    if player is None or player.tournament_id != tournament.pk:
        raise ValidationError({"player": f"{rules.PRIZES.at(site)}: a prize goes to a player of this tournament."})
    _refuse_not_entered(player)
    if kind not in PrizeKind.values:
        raise ValidationError({"kind": f"{rules.PRIZES.at(site)}: a cash or merchandise prize may be awarded."})
    round_name = _text(round_name, "round_name", required=True, max_length=rules.MAX_NAME_LENGTH)
    description = _text(description, "description", required=kind == PrizeKind.MERCHANDISE)
    if amount_cents is None or amount_cents < 1:
        raise ValidationError(
            {
                "amount_cents": f"{rules.PRIZE_RECORD.at(site)}: the prize register records the prize's value, "
                "an amount of more than $0.00."
            }
        )
    at = acts.moment(at, "awarded_at", site=site, books=False, what="a tournament prize")
    _refuse_prize_before_entry(player, at)
    gaming_date = _gaming_date(site, at)
    _refuse_closed_day(site, gaming_date, "a tournament prize", "awarded_at")
    corrects_date, reason = _found_late(tournament, gaming_date, reason)
    with transaction.atomic():
        acts.key_share(site)  # the books' close waits, as `acts.hold_books_open`
        _refuse_closed_day(site, gaming_date, "a tournament prize", "awarded_at")
        corrects_date, reason = _found_late(tournament, gaming_date, reason)  # a close since
        _hold_register(tournament)  # not while the player's entry fee is voided
        _refuse_not_entered(player)
        prize = TournamentPrize.objects.create(
            tournament=tournament,
            player=player,
            round_name=round_name,
            kind=kind,
            description=description,
            amount_cents=amount_cents,
            split=split,
            gaming_date=gaming_date,
            awarded_at=at,
            awarded_by=employee,
            corrects_date=corrects_date,
            reason=reason,
        )
        record_site_event(acting_user, "tournament.prize.awarded", prize, site)
        _amend_for_late(prize, -amount_cents, employee)
    return prize


def void_prize(*, acting_user, prize: TournamentPrize, reason: str, at: datetime | None = None) -> TournamentPrize:
    """Void a prize recorded by mistake: a new row pointing back with the opposite amount, dated
    when it was voided (now, or the time on its paper), the entry time beside it; not before the
    prize it voids (`rules.PRIZE_RECORD`). The void counts on its own day; a prize on a filed
    return is voided too, and that return amended (`_amend_a_filed_return`)."""
    site = prize.tournament.site
    access = require_role(
        acting_user, site, *rules.DIRECTORS, action="void a tournament prize", rule=rules.DIRECTOR_RULE
    )
    employee = acts.acting_employee(access)
    reason = _text(reason, "reason", required=True)
    if prize.voids_id is not None:
        raise ValidationError({"prize": f"{HOUSE_CONTROL}: a void is not voided again; award the prize anew."})
    at = acts.moment(at, "voided_at", site=site, what="a tournament prize")
    moments.refuse_before(
        site,
        at,
        prize.awarded_at,
        field="voided_at",
        rule=rules.PRIZE_RECORD.at(site),
        why="a void corrects a prize already on the register",
        what="the prize was awarded",
    )
    gaming_date = _gaming_date(site, at)
    acts.refuse_closed_books(site, gaming_date, "a tournament prize")
    with transaction.atomic():
        acts.hold_books_open(site, gaming_date, "a tournament prize")
        _hold_register(prize.tournament)
        if TournamentPrize.objects.filter(voids=prize).exists():
            raise ValidationError({"prize": f"{HOUSE_CONTROL}: this prize is voided already."})
        void = TournamentPrize.objects.create(
            tournament=prize.tournament,
            player=prize.player,
            round_name=prize.round_name,
            kind=prize.kind,
            description=prize.description,
            amount_cents=-prize.amount_cents,
            split=prize.split,
            gaming_date=gaming_date,
            awarded_at=at,
            awarded_by=employee,
            voids=prize,
            reason=reason,
        )
        record_site_event(acting_user, "tournament.prize.void", void, site)
        _amend_a_filed_return(VoidOfRecord(site, prize.gaming_date, prize.amount_cents, employee, prize=void))
    return void
