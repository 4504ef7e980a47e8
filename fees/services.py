"""Recording table fees, their count, and games-of-chance sessions: each write checks the site's
pack, the role (house controls), the bounds and the closed books, and is audited."""

from datetime import date, datetime

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max

from cardroom import pins
from cardroom.access import require_role
from cardroom.models import Employee, Site, Table
from core import acts, moments
from core.audit import record_site_event
from core.limits import MAX_TEXT_LENGTH
from core.money import format_money
from core.plurals import plural
from core.rules import HOUSE_CONTROL
from floor.calculations import business_date
from packs import RevenueModel, pack_for

from . import rules
from .models import FeeBasis, FeeCollection, FeeCount, GameSession


def _gaming_date(site: Site, at: datetime) -> date:
    return business_date(at, site.time_zone, site.business_day_start_hour)


# The revenue each pack's model keeps, in words (a refusal at a site of another model says it).
_REVENUE_WORDS = {
    RevenueModel.DROP: "its tables' drop",
    RevenueModel.FEES: "the fees collected at its tables",
    RevenueModel.SESSION: "its games-of-chance sessions",
}


def _require_revenue(site: Site, keeps: bool, field: str, what: str, rule: str) -> None:
    """Refuse `what` at a site whose pack's revenue model does not keep it (the pack is asked,
    never a pack code), citing the rule at the site ("House control" where its pack has none)."""
    if not keeps:
        pack = pack_for(site)
        revenue = _REVENUE_WORDS.get(pack.revenue_model, pack.revenue_model)
        raise ValidationError(
            {field: f"{rule}: {what} are not kept at {site}: it runs the {pack.name} pack, whose revenue is {revenue}."}
        )


def _bounds(words: str, low: int, high: int, unit=format_money) -> str:
    return f"{words} is from {unit(low)} to {unit(high)} (House control)"


def _bounded(field: str, value: int, low: int, high: int, *, words: str, unit=format_money) -> None:
    """Refuse a value out of its house bounds on `field` (the API's key); `words` name the value as
    the user reads it ("A session's receipts total"), never the field's internal name."""
    if not low <= value <= high:
        raise ValidationError({field: f"{_bounds(words, low, high, unit)}; got {unit(value)}."})


RATE_WORDS = "The rate per seat or player"


def rate_bounds() -> str:
    """The bounds of a fee's rate with their rule, as `record_fee` refuses them (the pit terminal
    says them of a rate it cannot read as money, before anything is sent)."""
    return _bounds(RATE_WORDS, 1, rules.MAX_RATE_CENTS)


def record_fee(
    *,
    acting_user,
    table: Table,
    basis: str,
    period_minutes: int,
    rate_cents: int,
    count: int,
    amount_cents: int | None = None,
    collected_at: datetime | None = None,
) -> FeeCollection:
    """A fee collected at a table of a fees pack (Washington blackjack: on a time basis by direct
    collection, WAC 230-40-125(1)): the rate times the seats or players charged. `amount_cents`
    is that product when not given (the cashier does no arithmetic); given, from a paper or an
    integrator, it is the cross-check and must equal it."""
    site = table.site
    fees_rule = rules.TABLE_FEES.at(site)
    _require_revenue(site, rules.keeps_table_fees(site), "table", "table fees collected on a time basis", fees_rule)
    access = require_role(acting_user, site, *rules.COLLECTORS, action="collect a table fee", rule=rules.ROLE_RULE)
    employee = acts.acting_employee(access)
    if basis not in FeeBasis.values:
        raise ValidationError({"basis": f"{fees_rule}: a fee is charged per seat or per player per period."})
    _bounded(
        "period_minutes",
        period_minutes,
        1,
        rules.MAX_PERIOD_MINUTES,
        words="The period",
        unit=lambda m: plural(m, "minute"),
    )
    _bounded("rate_cents", rate_cents, 1, rules.MAX_RATE_CENTS, words=RATE_WORDS)
    most = table.betting_spaces if basis == FeeBasis.PER_SEAT else table.max_players
    if not 1 <= count <= min(most, rules.MAX_COUNT):
        unit = "seat" if basis == FeeBasis.PER_SEAT else "player"
        raise ValidationError(
            {
                "count": f"{HOUSE_CONTROL}: a fee charges 1 to {plural(min(most, rules.MAX_COUNT), unit)} "
                f"at table {table.number}; got {count}."
            }
        )
    if amount_cents is None:
        amount_cents = rate_cents * count
    if amount_cents != rate_cents * count:
        raise ValidationError(
            {
                "amount_cents": f"{fees_rule}: the fee is assessed on a time basis at the posted rate: "
                f"{count} x {format_money(rate_cents)} = {format_money(rate_cents * count)}, "
                f"not {format_money(amount_cents)}."
            }
        )
    if not table.active:
        raise ValidationError(
            {
                "table": f"{HOUSE_CONTROL}: a fee is collected at one of {site}'s active tables; table {table.number} is not."
            }
        )
    at = acts.moment(collected_at, "collected_at", site=site, what="a table fee")  # core.moments' paper-first rules
    gaming_date = _gaming_date(site, at)
    acts.refuse_closed_books(site, gaming_date, "a table fee")
    with transaction.atomic():
        acts.hold_books_open(site, gaming_date, "a table fee")
        fee = FeeCollection.objects.create(
            site=site,
            table=table,
            gaming_date=gaming_date,
            basis=basis,
            period_minutes=period_minutes,
            rate_cents=rate_cents,
            count=count,
            amount_cents=amount_cents,
            collected_at=at,
            collected_by=employee,
        )
        record_site_event(acting_user, "fee.collected", fee, site)
    return fee


def void_fee(*, acting_user, fee: FeeCollection, reason: str, voided_at: datetime | None = None) -> FeeCollection:
    """A fee recorded by mistake: a new row with the opposite amount pointing back, dated when it
    was voided (now, or the time on its paper; its `collected_at`), with the time it was entered
    beside it. Not dated before the fee it voids (house control)."""
    site = fee.site
    access = require_role(acting_user, site, *rules.VOIDERS, action="void a table fee", rule=rules.ROLE_RULE)
    employee = acts.acting_employee(access)
    reason = (reason or "").strip()
    if not reason or len(reason) > MAX_TEXT_LENGTH:
        raise ValidationError(
            {"reason": f"{HOUSE_CONTROL}: a void states its reason (at most {MAX_TEXT_LENGTH} characters)."}
        )
    if fee.voids_id is not None:
        raise ValidationError({"fee": f"{HOUSE_CONTROL}: a void is not voided again; record the fee anew."})
    acts.refuse_closed_books(site, fee.gaming_date, "a table fee")  # "... so a table fee of <date> cannot be changed"
    at = acts.moment(voided_at, "voided_at", site=site, what="a table fee", books_date=fee.gaming_date)
    moments.refuse_before(
        site,
        at,
        fee.collected_at,
        field="voided_at",
        rule=HOUSE_CONTROL,
        why="a void corrects a fee already collected",
        what="the fee was collected",
    )
    with transaction.atomic():
        acts.hold_books_open(site, fee.gaming_date, "a table fee")
        list(
            FeeCollection.objects.select_for_update().filter(pk=fee.pk).values_list("pk", flat=True)
        )  # one void at a time
        if FeeCollection.objects.filter(voids=fee).exists():
            raise ValidationError({"fee": f"{HOUSE_CONTROL}: this fee is voided already."})
        void = FeeCollection.objects.create(
            site=site,
            table_id=fee.table_id,
            gaming_date=fee.gaming_date,
            basis=fee.basis,
            period_minutes=fee.period_minutes,
            rate_cents=fee.rate_cents,
            count=fee.count,
            amount_cents=-fee.amount_cents,
            collected_at=at,
            collected_by=employee,
            voids=fee,
            reason=reason,
        )
        record_site_event(acting_user, "fee.voided", void, site)
    return void


def _refuse_counting_before_collection(site: Site, gaming_date: date, counted_at: datetime) -> None:
    """House control: the day's fee cash is counted once it is collected, so a count is not dated
    before the last fee of the day it counts."""
    last = FeeCollection.objects.filter(site=site, gaming_date=gaming_date).aggregate(last=Max("collected_at"))["last"]
    if last is not None and counted_at < last:
        zone = moments.site_zone(site)
        shown = [m.astimezone(zone).strftime("%Y-%m-%d %H:%M %Z") for m in (counted_at, last)]
        raise ValidationError(
            {
                "counted_at": f"{HOUSE_CONTROL}: the fee cash of {gaming_date} is counted once it is collected; "
                f"{shown[0]} is before the last fee collected ({shown[1]})."
            }
        )


def count_fees(
    *,
    acting_user,
    site: Site,
    gaming_date: date,
    counted_cents: int,
    witness: Employee,
    witness_pin: str,
    counted_at: datetime | None = None,
) -> FeeCount:
    """The day's fee cash counted by two people (house control), the witness confirming it with
    their own signing PIN (`cardroom.pins.witnessed_by`: a wrong PIN counts towards its lock); a
    recount corrects the last count."""
    _require_revenue(site, rules.keeps_table_fees(site), "site", "fee cash counts", rules.TABLE_FEES.at(site))
    access = require_role(acting_user, site, *rules.COUNTERS, action="count the fee cash", rule=rules.ROLE_RULE)
    employee = acts.acting_employee(access)
    _bounded("counted_cents", counted_cents, 0, rules.MAX_DAY_CENTS, words="The fee cash counted")
    if witness.pk == employee.pk or witness.organization_id != site.organization_id:
        raise ValidationError(
            {
                "witness": "House control: the fee cash is counted by two people of the organization; "
                "the witness is someone other than the counter."
            }
        )
    # House control: a day's fee cash is counted after it is collected, so never for a gaming day
    # after the site's current one (saved, its over/short would show on the daily page ahead of time).
    moments.refuse_day_not_begun(
        site, gaming_date, rule=HOUSE_CONTROL, why="its fee cash is counted once it is collected"
    )
    acts.refuse_closed_books(site, gaming_date, "a fee cash count")
    at = acts.moment(counted_at, "counted_at", site=site, what="a fee cash count", books_date=gaming_date)
    _refuse_counting_before_collection(site, gaming_date, at)
    _witness_confirms(acting_user, witness, witness_pin)  # last: a count refused for another reason spends no PIN
    with transaction.atomic():
        acts.hold_books_open(site, gaming_date, "a fee cash count")
        last = (
            FeeCount.objects.select_for_update(of=("self",))
            .filter(site=site, gaming_date=gaming_date, corrected_by__isnull=True)
            .order_by("-id")
            .first()
        )
        count = FeeCount.objects.create(
            site=site,
            gaming_date=gaming_date,
            counted_cents=counted_cents,
            counted_at=at,
            counted_by=employee,
            witness=witness,
            corrects=last,
        )
        record_site_event(acting_user, "fee.counted", count, site)
    return count


def _witness_confirms(acting_user, witness: Employee, pin: str) -> None:
    """The witness of a fee cash count confirms it with their signing PIN (house control: a
    witness only named has attested nothing); refused at the `witness_pin` field."""
    try:
        pins.witnessed_by(acting_user, witness, pin)
    except PermissionDenied as refused:
        said = str(refused)
        if said == pins.WRONG_PIN_HOUSE_CONTROL:  # else the PIN's lock, in its own words
            said = (
                f"{HOUSE_CONTROL}: the witness confirms the fee cash count with their own signing PIN, and that is "
                f"not {witness.initials}'s PIN (a wrong PIN counts towards its lock; a witness with none sets one "
                "first). Nothing is recorded."
            )
        raise ValidationError({"witness_pin": said}) from refused


def _refuse_past_its_day(site: Site, gaming_date: date, ended_at: datetime) -> None:
    """A session is one gaming day's record (house control): it ends within the business hours of
    the gaming day it starts in, so it neither reaches into another day's books (closed ones
    among them) nor stands for days of play."""
    day_end = moments.gaming_day_bounds(site, gaming_date)[1]
    if ended_at >= day_end:
        raise ValidationError(
            {
                "ended_at": f"{HOUSE_CONTROL}: a session is one gaming day's record and ends within its business "
                f"hours: {moments.shown(site, ended_at)} is after the gaming day {gaming_date} ends "
                f"({moments.shown(site, day_end)}). Record play after that as a session of its own gaming day."
            }
        )


def _refuse_licence_not_on_file(site: Site, licence_number: str, gaming_date: date) -> None:
    """House control (9 NYCRR 4620.5 states none): where the organization has licences on file for
    the site's jurisdiction, a session names the one in force on its gaming date; where none is
    on file, the number as written stands."""
    on_file, in_force = rules.session_licences(site, gaming_date)
    if not on_file or licence_number == in_force:
        return
    listed = ", ".join(f"{number} (from {effective_on.isoformat()})" for number, effective_on in on_file)
    held = f"is {in_force}" if in_force else "is none: no licence on file had taken effect"
    raise ValidationError(
        {
            "licence_number": f"{HOUSE_CONTROL}: a session names the organization's licence in force on its gaming "
            f"date; on {gaming_date.isoformat()} that {held}. Licences on file: {listed} (got {licence_number!r})."
        }
    )


def _refuse_twice(site: Site, licence_number: str, started_at: datetime, ended_at: datetime, corrects) -> None:
    """House control (9 NYCRR 4620.5 states no session record): a session is recorded once. The
    same licence's session with the same start and end, as it stands, is the same session
    entered again (a form sent twice, a sheet typed twice) and would count twice in the day's
    total; a wrong one is corrected. Sessions that only overlap (two games at once) stand."""
    same = GameSession.objects.filter(
        site=site,
        licence_number=licence_number,
        started_at=started_at,
        ended_at=ended_at,
        corrected_by__isnull=True,
        is_void=False,
    )
    if corrects is not None:
        same = same.exclude(pk=corrects.pk)
    if same.exists():
        raise ValidationError(
            {
                "started_at": f"{HOUSE_CONTROL}: a session is recorded once; {licence_number}'s session "
                f"{moments.shown(site, started_at)} to {moments.shown(site, ended_at)} is recorded already. "
                "Correct it rather than record it again."
            }
        )


# House control (no pack's text says how a session is corrected): a correction replaces the session
# as it stands, so one correcting an older one, or another site's, would count a session twice.
AS_IT_STANDS = f"{HOUSE_CONTROL}: a correction points at this site's session as it stands (its latest correction)."


def _refuse_replaced(corrects: GameSession) -> None:
    if GameSession.objects.filter(corrects=corrects).exists():
        raise ValidationError({"corrects": AS_IT_STANDS})


def record_session(
    *,
    acting_user,
    site: Site,
    licence_number: str,
    started_at: datetime,
    ended_at: datetime,
    receipts_cents: int,
    prizes_cents: int,
    corrects: GameSession | None = None,
) -> GameSession:
    """A games-of-chance session at a site of a session pack (New York; the record is an
    assumption: fees.rules)."""
    _require_revenue(site, rules.keeps_sessions(site), "site", "games-of-chance sessions", rules.SESSION_GAME.at(site))
    access = require_role(
        acting_user, site, *rules.SESSION_RECORDERS, action="record a games-of-chance session", rule=rules.ROLE_RULE
    )
    employee = acts.acting_employee(access)
    licence_number = (licence_number or "").strip()
    if not licence_number or len(licence_number) > rules.MAX_LICENCE_LENGTH:
        raise ValidationError({"licence_number": rules.SESSION_LICENCE})
    started_at = acts.moment(started_at, "started_at", site=site, what="a games-of-chance session")
    ended_at = acts.moment(ended_at, "ended_at", site=site, what="a games-of-chance session", books=False)
    if ended_at <= started_at:
        raise ValidationError({"ended_at": f"{HOUSE_CONTROL}: a session ends after it starts."})
    _bounded("receipts_cents", receipts_cents, 0, rules.MAX_DAY_CENTS, words="A session's receipts total")
    _bounded("prizes_cents", prizes_cents, 0, rules.MAX_DAY_CENTS, words="A session's prizes total")
    if corrects is not None and (corrects.site_id != site.pk or hasattr(corrects, "corrected_by")):
        raise ValidationError({"corrects": AS_IT_STANDS})
    if corrects is not None and corrects.is_void:
        raise ValidationError(
            {
                "corrects": f"{HOUSE_CONTROL}: session {corrects.corrects_id} is voided; a void is not corrected. "
                "Record the session anew if it took place."
            }
        )
    gaming_date = _gaming_date(site, started_at)
    _refuse_past_its_day(site, gaming_date, ended_at)
    _refuse_licence_not_on_file(site, licence_number, gaming_date)
    _refuse_twice(site, licence_number, started_at, ended_at, corrects)
    acts.refuse_closed_books(site, gaming_date, "a games-of-chance session")
    if corrects is not None:  # the correction replaces it in its own day's total: that day's books too
        acts.refuse_closed_books(site, corrects.gaming_date, "a games-of-chance session", field="corrects")
    with transaction.atomic():
        # The books' close and the same session sent from another terminal wait; read again here.
        acts.hold(site)
        acts.refuse_closed_books(site, gaming_date, "a games-of-chance session")
        if corrects is not None:
            acts.refuse_closed_books(site, corrects.gaming_date, "a games-of-chance session", field="corrects")
        _refuse_twice(site, licence_number, started_at, ended_at, corrects)
        if corrects is not None:  # corrected or voided meanwhile from another terminal: no longer as it stands
            _refuse_replaced(corrects)
        session = GameSession.objects.create(
            site=site,
            gaming_date=gaming_date,
            licence_number=licence_number,
            started_at=started_at,
            ended_at=ended_at,
            receipts_cents=receipts_cents,
            prizes_cents=prizes_cents,
            recorded_by=employee,
            corrects=corrects,
        )
        record_site_event(acting_user, "game_session.recorded", session, site)
    return session


def void_session(*, acting_user, session: GameSession, reason: str) -> GameSession:
    """A session recorded that did not take place (a sheet of another organization's, a test entry):
    its void is a correction of the session as it stands, with no receipts or prizes and its reason
    (house control: 9 NYCRR 4620.5 states no session record), which the day's total no longer
    counts as a session (fees.queries.current_sessions). The session and the void stay on record.
    Its gaming day's books must be open; a void is not corrected or voided again."""
    site = session.site
    _require_revenue(site, rules.keeps_sessions(site), "site", "games-of-chance sessions", rules.SESSION_GAME.at(site))
    access = require_role(
        acting_user, site, *rules.SESSION_RECORDERS, action="void a games-of-chance session", rule=rules.ROLE_RULE
    )
    employee = acts.acting_employee(access)
    reason = (reason or "").strip()
    if not reason or len(reason) > MAX_TEXT_LENGTH:
        raise ValidationError(
            {"reason": f"{HOUSE_CONTROL}: a void states its reason (at most {MAX_TEXT_LENGTH} characters)."}
        )
    if session.is_void:
        raise ValidationError({"session": f"{HOUSE_CONTROL}: a void is not voided again."})
    with transaction.atomic():
        acts.hold(site)  # the books' close and a second void wait
        acts.refuse_closed_books(site, session.gaming_date, "a games-of-chance session", field="session")
        replacing = GameSession.objects.filter(corrects=session).values_list("pk", flat=True).first()
        if replacing is not None:
            raise ValidationError(
                {
                    "session": f"{HOUSE_CONTROL}: session {session.pk} is corrected already, by session {replacing}; "
                    f"void session {replacing}, the session as it stands, instead."
                }
            )
        void = GameSession.objects.create(
            site=site,
            gaming_date=session.gaming_date,
            licence_number=session.licence_number,
            started_at=session.started_at,
            ended_at=session.ended_at,
            receipts_cents=0,
            prizes_cents=0,
            recorded_by=employee,
            corrects=session,
            is_void=True,
            reason=reason,
        )
        record_site_event(acting_user, "game_session.voided", void, site)
    return void
