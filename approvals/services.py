"""Every write of approvals and internal controls: permission-checked, validated, audited, in
one transaction. The API, the pages and the demo call these and nothing else."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from cardroom import services as cardroom_services
from cardroom.access import require_gaming_manager
from cardroom.models import Game, Organization, Site, Table
from core import acts, moments
from core.audit import record_event, record_site_event
from core.limits import MAX_TEXT_LENGTH, check_date
from packs import all_packs

from . import rules
from .checks import controls_errors, missing_controls_message
from .models import GameApproval, InternalControls, Licence, PayTable, TableGame, WrittenProcedure
from .queries import controls_in_effect, current_link, site_today


def _text(value, field: str, *, required: bool, max_length: int) -> str:
    value = (value or "").strip()
    if required and not value:
        raise ValidationError({field: f"{rules.HOUSE_CONTROL}: {field} is required."})
    if len(value) > max_length:
        raise ValidationError({field: f"{field} is at most {max_length} characters ({rules.HOUSE_CONTROL})."})
    return value


def _values(field: str, given, allowed: tuple, *, rule: str, what: str) -> list:
    """A de-duplicated list of permitted values, each one the field takes; a refusal cites `rule`."""
    if not isinstance(given, list | tuple) or not given:
        raise ValidationError({field: f"{rule}: {what} list at least one value for {field}."})
    wrong = [v for v in given if v not in allowed or (isinstance(v, bool) != isinstance(allowed[0], bool))]
    if wrong:
        raise ValidationError(
            {field: f"{rule}: {field} takes {', '.join(map(repr, allowed))}; not {', '.join(map(repr, wrong))}."}
        )
    return [v for v in allowed if v in given]


# --- Game approvals --------------------------------------------------------------------------


def _conditions(conditions) -> dict:
    if not isinstance(conditions, dict):
        raise ValidationError(
            {"conditions": f"{rules.HOUSE_CONTROL}: conditions map table settings to the values they may take."}
        )
    unknown = sorted(set(conditions) - set(rules.CONDITION_FIELDS))
    if unknown:
        raise ValidationError(
            {
                "conditions": f"{rules.HOUSE_CONTROL}: an approval's conditions fix {', '.join(rules.CONDITION_FIELDS)}; not {', '.join(unknown)}."
            }
        )
    return {
        field: _values(
            field, conditions[field], rules.CONDITION_VALUES[field], rule=rules.HOUSE_CONTROL, what="a condition must"
        )
        for field in rules.CONDITION_FIELDS
        if field in conditions
    }


def _pay_table(row: dict) -> dict:
    side_bet = _text(row.get("side_bet"), "pay_tables", required=False, max_length=rules.MAX_SHORT_TEXT)
    code = _text(row.get("code"), "pay_tables", required=True, max_length=20)
    payout = row.get("natural_payout") or ""
    if side_bet and payout:
        raise ValidationError(
            {"pay_tables": f"{rules.HOUSE_CONTROL}: side bet pay table {code}: a side bet has no blackjack payout."}
        )
    if not side_bet and payout not in Table.BlackjackPayout.values:
        raise ValidationError(
            {
                "pay_tables": f"{rules.HOUSE_CONTROL}: blackjack pay table {code}: natural_payout (the unsuited "
                f"blackjack payout the table posts) is one of {', '.join(Table.BlackjackPayout.values)}."
            }
        )
    lines = row.get("lines") or []
    if not lines or len(lines) > rules.MAX_PAY_TABLE_LINES:
        raise ValidationError(
            {"pay_tables": f"{rules.HOUSE_CONTROL}: pay table {code} has 1 to {rules.MAX_PAY_TABLE_LINES} lines."}
        )
    lines = [
        {
            "hand": _text(line.get("hand"), "pay_tables", required=True, max_length=rules.MAX_SHORT_TEXT),
            "pays": _text(line.get("pays"), "pay_tables", required=True, max_length=rules.MAX_SHORT_TEXT),
        }
        for line in lines
    ]
    return {"side_bet": side_bet, "code": code, "natural_payout": payout, "lines": lines}


def _rules_of_play(lines) -> list[str]:
    """The approval's enclosed rules of play, one printed line each: blank lines dropped, each line
    and their number bounded (a house control: the handout prints every line)."""
    if isinstance(lines, str) or not isinstance(lines, list | tuple):
        raise ValidationError(
            {"rules_of_play": f"{rules.HOUSE_CONTROL}: rules_of_play is a list of lines, one rule each."}
        )
    if not all(isinstance(line, str) for line in lines):
        raise ValidationError({"rules_of_play": f"{rules.HOUSE_CONTROL}: each line of rules_of_play is text."})
    kept = [line.strip() for line in lines if line.strip()]
    if len(kept) > rules.MAX_RULES_OF_PLAY:
        raise ValidationError(
            {
                "rules_of_play": f"At most {rules.MAX_RULES_OF_PLAY} rules of play, not {len(kept)} ({rules.HOUSE_CONTROL})."
            }
        )
    for number, line in enumerate(kept, 1):
        if len(line) > rules.MAX_RULE_OF_PLAY_LENGTH:
            raise ValidationError(
                {
                    "rules_of_play": f"Rule of play {number} is {len(line)} characters; each is at most "
                    f"{rules.MAX_RULE_OF_PLAY_LENGTH} ({rules.HOUSE_CONTROL})."
                }
            )
    return kept


def _approval_jurisdiction(organization: Organization, jurisdiction: str | None) -> str:
    """The pack the approval is for: given, or the one pack of the organization's sites whose law
    has game approvals (`rules.GAME_APPROVAL`). An organization with sites, none of whose packs
    has them (a New York games-of-chance organization), records none: the approval would be another
    state's law in its records, for no table of its to offer (before, it was recorded as a
    Washington approval). An organization with no site yet may record one for a pack that has them."""
    site_codes = set(organization.sites.values_list("jurisdiction", flat=True))
    codes = sorted(code for code in site_codes if rules.GAME_APPROVAL.applies(code))
    if not site_codes:
        codes = [pack.code for pack in all_packs() if rules.GAME_APPROVAL.applies(pack)]
    if jurisdiction is None and len(codes) == 1:
        return codes[0]
    if jurisdiction is None or jurisdiction not in codes:
        raise ValidationError(
            {
                "jurisdiction": f"{rules.HOUSE_CONTROL}: a game approval is recorded for the jurisdiction of one of "
                f"the organization's sites whose law has the state's game approvals ({', '.join(codes) or 'none'})."
            }
        )
    return jurisdiction


def record_game_approval(
    *,
    acting_user,
    organization: Organization,
    game_name: str,
    agency: str,
    approved_on: date,
    submission_number: str,
    conditions: dict,
    pay_tables: list[dict] = (),
    manufacturer: str = "",
    conditions_text: str = "",
    rules_of_play: list[str] = (),
    shuffler_must_be_approved: bool = False,
    internal_controls_required: bool = False,
    jurisdiction: str | None = None,
    supersedes: GameApproval | None = None,
) -> GameApproval:
    """Record a game approval as the agency granted it, with its conditions on the table settings
    and its selectable pay tables (of the blackjacks and of each side bet), and the rules of play it
    encloses (one line each, printed on the players' handout). A modified game is a new approval,
    which may supersede this one; this one never changes."""
    access = require_gaming_manager(acting_user, organization.pk, action="record a game approval")
    jurisdiction = _approval_jurisdiction(organization, jurisdiction)
    values = {
        "game_name": _text(game_name, "game_name", required=True, max_length=rules.MAX_NAME_LENGTH),
        "agency": _text(agency, "agency", required=True, max_length=rules.MAX_NAME_LENGTH),
        "submission_number": _text(
            submission_number, "submission_number", required=True, max_length=rules.MAX_SHORT_TEXT
        ),
        "manufacturer": _text(manufacturer, "manufacturer", required=False, max_length=rules.MAX_NAME_LENGTH),
        "conditions_text": _text(conditions_text, "conditions_text", required=False, max_length=MAX_TEXT_LENGTH),
        "rules_of_play": _rules_of_play(rules_of_play),
        "approved_on": check_date(approved_on, "approved_on"),
        "conditions": _conditions(conditions),
    }
    if len(pay_tables) > rules.MAX_PAY_TABLES:
        raise ValidationError({"pay_tables": f"At most {rules.MAX_PAY_TABLES} pay tables ({rules.HOUSE_CONTROL})."})
    rows = [_pay_table(dict(row)) for row in pay_tables]
    if len({(r["side_bet"], r["code"]) for r in rows}) != len(rows):
        raise ValidationError(
            {"pay_tables": f"{rules.HOUSE_CONTROL}: each of pay_tables has its own code (per side bet)."}
        )
    if supersedes is not None and supersedes.organization_id != organization.pk:
        raise ValidationError(
            {"supersedes": f"{rules.HOUSE_CONTROL}: supersedes names another organization's approval."}
        )
    with transaction.atomic():
        approval = GameApproval.objects.create(
            organization=organization,
            jurisdiction=jurisdiction,
            shuffler_must_be_approved=shuffler_must_be_approved,
            internal_controls_required=internal_controls_required,
            supersedes=supersedes,
            recorded_by=access.employee,
            recorded_at=timezone.now(),
            **values,
        )
        PayTable.objects.bulk_create([PayTable(approval=approval, **row) for row in rows])
        record_event(
            actor=acting_user,
            action="game_approval.recorded",
            obj=approval,
            organization_id=organization.pk,
            after={"reference": approval.reference, "game_name": approval.game_name, "conditions": approval.conditions},
        )
    return approval


# --- Internal controls -----------------------------------------------------------------------


def record_internal_controls(
    *,
    acting_user,
    site: Site,
    effective_on: date,
    approved_on: date,
    approved_by: str,
    game_approval: GameApproval | None = None,
    approval_reference: str = "",
    irregularities: str = "",
    **options,
) -> InternalControls:
    """Record a new version of the site's internal controls for a game: the values each option
    the WSGC rules require documented may take. Versions are never changed: the next version
    takes effect on its own date. A version in effect today must document what the site's
    active tables of that game use. `irregularities`: how the card room addresses misdeals, exposed
    cards and the like (`rules.IRREGULARITIES`); a version without them is recorded, and flagged
    each night while in force."""
    access = require_gaming_manager(acting_user, site.organization_id, action="record internal controls")
    if not rules.INTERNAL_CONTROLS.applies(site):
        raise ValidationError(
            {
                "site": f"{rules.HOUSE_CONTROL}: the law of {site}'s jurisdiction keeps no internal controls of "
                "table options in this record."
            }
        )
    if game_approval is not None and game_approval.organization_id != site.organization_id:
        raise ValidationError(
            {"game_approval": f"{rules.HOUSE_CONTROL}: game_approval names another organization's approval."}
        )
    unknown = sorted(set(options) - set(rules.DOCUMENTED_FIELDS))
    if unknown:
        raise ValidationError({unknown[0]: f"Internal controls document {', '.join(rules.DOCUMENTED_FIELDS)}."})
    documented = {}
    for option in rules.DOCUMENTED_OPTIONS:  # split_pairs before the options of split hands
        given = options.get(option.field)
        if option.after_split and not given and option.moot_in(documented["split_pairs"]):
            documented[option.field] = []  # no pair is split: nothing of split hands to document
            continue
        documented[option.field] = _values(
            option.field,
            given,
            rules.OPTION_VALUES[option.field],
            rule=option.rule.at(site),
            what="the internal controls must",
        )
    check_date(effective_on, "effective_on")
    check_date(approved_on, "approved_on")
    if approved_on > effective_on:
        raise ValidationError(
            {
                "approved_on": f"{rules.HOUSE_CONTROL}: internal controls take effect once approved: approved_on is "
                "not after effective_on."
            }
        )
    approved_by = _text(approved_by, "approved_by", required=True, max_length=rules.MAX_NAME_LENGTH)
    approval_reference = _text(
        approval_reference, "approval_reference", required=False, max_length=rules.MAX_NAME_LENGTH
    )
    irregularities = _text(irregularities, "irregularities", required=False, max_length=MAX_TEXT_LENGTH)
    with transaction.atomic():
        list(Site.objects.select_for_update().filter(pk=site.pk).values_list("pk", flat=True))  # one version at a time
        versions = InternalControls.objects.filter(site=site, game_approval=game_approval)
        latest = versions.order_by("-version").first()
        controls = InternalControls(
            site=site,
            game_approval=game_approval,
            version=(latest.version + 1) if latest else 1,
            effective_on=effective_on,
            approved_on=approved_on,
            approved_by=approved_by,
            approval_reference=approval_reference,
            irregularities=irregularities,
            supersedes=latest,
            recorded_by=access.employee,
            recorded_at=timezone.now(),
            **documented,
        )
        if effective_on <= site_today(site):
            _check_tables_documented(controls)
        controls.save()
        record_site_event(acting_user, "internal_controls.recorded", controls, site)
    return controls


def _check_tables_documented(controls: InternalControls) -> None:
    """A version in effect today may not leave an active table of its game using an option it
    does not document (the table would break its internal controls)."""
    tables = Table.objects.filter(site=controls.site, active=True, game=Game.TWENTY_ONE).select_related("site")
    for table in tables.order_by("number"):
        link = current_link(table.pk)
        if (link.approval_id if link else None) != controls.game_approval_id:
            continue
        errors = controls_errors(table, controls)
        if errors:
            field, message = next(iter(errors.items()))
            raise ValidationError(
                {field: f"Table {table.number} uses an option these controls do not document. {message}"}
            )


# --- Which approved game a table offers ---------------------------------------------------

# The table settings a link may change in the same step: what an approval may fix and what the
# internal controls document.
LINK_SETTINGS = tuple(dict.fromkeys((*rules.CONDITION_FIELDS, *rules.DOCUMENTED_FIELDS)))


def _pay_table_choice(approval, pay_table, field: str, *, side_bet: bool, site):
    """The pay table a table offering `approval`'s game posts: one of the approval's own (`GAME_APPROVAL`:
    the game is played under the rules of play approved, their pay tables included)."""
    cite = f"{rules.GAME_APPROVAL.at(site)}: {approval.game_name} ({approval.reference})"
    choices = [p for p in approval.pay_tables.all() if bool(p.side_bet) == side_bet]
    if pay_table is None:
        if choices and not side_bet:
            raise ValidationError(
                {field: f"{cite}: choose one of its blackjack pay tables: {', '.join(p.code for p in choices)}."}
            )
        return None
    if pay_table not in choices:
        offered = ", ".join(f"{p.side_bet} {p.code}".strip() for p in choices) or "none"
        raise ValidationError(
            {field: f"{cite}: pay table {pay_table} is not among the approval's selectable pay tables ({offered})."}
        )
    return pay_table


def link_table_game(
    *,
    acting_user,
    table: Table,
    approval: GameApproval | None,
    blackjack_pay_table: PayTable | None = None,
    side_bet_pay_table: PayTable | None = None,
    shuffler_model: str = "",
    settings: dict | None = None,
    linked_at: datetime | None = None,
) -> TableGame:
    """The table offers `approval`'s game from now (None: standard blackjack), with the pay
    tables it posts. `settings` changes table settings in the same step (what the new approval
    permits and the old one did not). The table is then checked against the approval's
    conditions and the internal controls in effect for the game; any refusal changes nothing.
    `linked_at`: when the table began offering it, where that is recorded afterwards (the time
    on the floor's note; the audit event keeps when it was entered): not in the future, not
    before the table's current link (its links stay in order), not before the approval, and
    within the internal controls in effect for the game on that day."""
    access = require_gaming_manager(acting_user, table.site.organization_id, action="change the game a table offers")
    site = table.site
    if not rules.GAME_APPROVAL.applies(site):
        raise ValidationError(
            {"table": f"{rules.HOUSE_CONTROL}: the law of {site}'s jurisdiction has no game approvals to offer."}
        )
    shuffler_model = _text(shuffler_model, "shuffler_model", required=False, max_length=rules.MAX_SHORT_TEXT)
    unknown = sorted(set(settings or {}) - set(LINK_SETTINGS))
    if unknown:
        raise ValidationError(
            {
                "settings": f"{rules.HOUSE_CONTROL}: a link's settings change only {', '.join(LINK_SETTINGS)}; not {', '.join(unknown)}."
            }
        )
    if approval is not None:
        if approval.organization_id != site.organization_id:
            raise ValidationError(
                {"approval": f"{rules.HOUSE_CONTROL}: approval names another organization's approval."}
            )
        blackjack_pay_table = _pay_table_choice(
            approval, blackjack_pay_table, "blackjack_pay_table", side_bet=False, site=site
        )
        side_bet_pay_table = _pay_table_choice(
            approval, side_bet_pay_table, "side_bet_pay_table", side_bet=True, site=site
        )
    elif blackjack_pay_table or side_bet_pay_table:
        raise ValidationError(
            {"approval": f"{rules.HOUSE_CONTROL}: pay tables are chosen with an approved game (give approval)."}
        )
    with transaction.atomic():
        table = Table.objects.select_for_update().select_related("site").get(pk=table.pk)
        linked_at = _link_moment(table, approval, linked_at)
        link = TableGame.objects.create(
            table=table,
            approval=approval,
            blackjack_pay_table=blackjack_pay_table,
            side_bet_pay_table=side_bet_pay_table,
            shuffler_model=shuffler_model,
            linked_by=access.employee,
            linked_at=linked_at,
        )
        if settings:
            cardroom_services.update_table(acting_user=acting_user, table=table, **settings)
        else:
            table.full_clean()
        record_site_event(acting_user, "table_game.linked", link, site)
    return link


def _link_moment(table: Table, approval: GameApproval | None, at: datetime | None) -> datetime:
    """When a link takes effect: now, or the earlier moment given, checked (`link_table_game`)."""
    site, given = table.site, at is not None
    at = acts.moment(at, "linked_at", site=site, books=False, what="a table's game")
    if not given:
        return at  # now: after every link; the table's check asks for the controls in effect today
    current = current_link(table.pk)
    if current is not None and at < current.linked_at:
        raise ValidationError(
            {
                "linked_at": f"{rules.HOUSE_CONTROL}: a table's games are kept in the order they were offered; table "
                f"{table.number} offers {current.approval or 'standard blackjack'} since "
                f"{moments.shown(site, current.linked_at)}, so a new link takes effect no earlier."
            }
        )
    day = at.astimezone(ZoneInfo(site.time_zone)).date()
    if approval is not None and day < approval.approved_on:
        raise ValidationError(
            {
                "linked_at": f"{rules.GAME_APPROVAL.at(site)}: {approval.game_name} ({approval.reference}) was approved on "
                f"{approval.approved_on.isoformat()}: a table offers it from then on, not on {day.isoformat()}."
            }
        )
    needed = approval is not None and approval.internal_controls_required and rules.INTERNAL_CONTROLS.applies(site)
    if needed and controls_in_effect(site, approval, on=day) is None:
        raise ValidationError({"linked_at": missing_controls_message(approval, on=day)})
    return at


# --- Licences ----------------------------------------------------------------------------------


def record_licence(
    *,
    acting_user,
    organization: Organization,
    licence_number: str,
    tie_option: int,
    effective_on: date,
    jurisdiction: str | None = None,
) -> Licence:
    """Record the organization's licence as issued, with the tie option it reflects (9 NYCRR
    4620.5(h) where the site's pack says so). A licence is never changed: a new option is a new
    licence from its own date, superseding the latest. Each table then follows the licence in
    force (approvals.checks.licence_errors): a table keeping another option is refused at its
    next change until it follows."""
    access = require_gaming_manager(acting_user, organization.pk, action="record a licence")
    codes = sorted(
        {code for code in organization.sites.values_list("jurisdiction", flat=True) if rules.LICENCE.applies(code)}
    )
    if jurisdiction is None and len(codes) == 1:
        jurisdiction = codes[0]
    if jurisdiction is None or not rules.LICENCE.applies(jurisdiction):
        raise ValidationError(
            {
                "jurisdiction": f"{rules.HOUSE_CONTROL}: a licence's table terms are recorded for a jurisdiction whose "
                f"law puts them on the licence ({', '.join(codes) or 'none of this organization'})."
            }
        )
    cite = rules.LICENCE.at(jurisdiction)
    if tie_option not in Licence.TieOption.values:
        raise ValidationError({"tie_option": f"{cite}: the licence reflects one of the options 1, 2 or 3."})
    licence_number = _text(licence_number, "licence_number", required=True, max_length=rules.MAX_SHORT_TEXT)
    check_date(effective_on, "effective_on")
    with transaction.atomic():
        list(Organization.objects.select_for_update().filter(pk=organization.pk).values_list("pk", flat=True))
        latest = (
            Licence.objects.filter(organization=organization, jurisdiction=jurisdiction)
            .order_by("-effective_on", "-id")
            .first()
        )
        if latest is not None and effective_on < latest.effective_on:
            raise ValidationError(
                {
                    "effective_on": f"{rules.HOUSE_CONTROL}: a new licence takes effect on or after the one it "
                    f"supersedes ({latest.effective_on.isoformat()})."
                }
            )
        licence = Licence.objects.create(
            organization=organization,
            jurisdiction=jurisdiction,
            licence_number=licence_number,
            tie_option=tie_option,
            effective_on=effective_on,
            supersedes=latest,
            recorded_by=access.employee,
            recorded_at=timezone.now(),
        )
        record_event(
            actor=acting_user,
            action="licence.recorded",
            obj=licence,
            organization_id=organization.pk,
            after={
                "licence_number": licence_number,
                "tie_option": tie_option,
                "effective_on": effective_on.isoformat(),
            },
        )
    return licence


# --- Written procedures ------------------------------------------------------------------------


def procedure_jurisdictions(organization: Organization, kind: str) -> list[str]:
    """The jurisdictions of the organization's sites whose law states the procedure of `kind`."""
    rule = rules.PROCEDURES[kind]
    return sorted({code for code in organization.sites.values_list("jurisdiction", flat=True) if rule.applies(code)})


def _procedure_kind(organization: Organization, kind) -> tuple[str, list[str]]:
    """(the kind, the jurisdictions of the organization's sites whose law states it): one read of the
    sites, which the idle minutes' citation uses too."""
    if kind not in rules.PROCEDURES:
        raise ValidationError(
            {"kind": f"{rules.HOUSE_CONTROL}: kind is one of {', '.join(WrittenProcedure.Kind.values)}."}
        )
    codes = procedure_jurisdictions(organization, kind)
    if not codes:
        raise ValidationError(
            {
                "kind": f"{rules.HOUSE_CONTROL}: the law of this organization's sites states no written procedure "
                f"of {WrittenProcedure.Kind(kind).label.lower()} to record here."
            }
        )
    return kind, codes


def _idle_minutes(codes: list[str], kind: str, minutes) -> int | None:
    """The shuffle procedure's idle period (ND 99-01.3-08-08(2)), whole minutes; no other kind has one.
    `codes`: the jurisdictions stating the kind (`_procedure_kind`), the first cited."""
    if minutes is None:
        return None
    code = codes[0]
    if kind != WrittenProcedure.Kind.SHUFFLE_AND_CUT:
        raise ValidationError(
            {
                "reshuffle_idle_minutes": f"{rules.RESHUFFLE_IDLE.at(code)}: the idle period after which a dealer "
                "may reshuffle is set in the procedure for shuffling and cutting cards."
            }
        )
    if (
        isinstance(minutes, bool)
        or not isinstance(minutes, int)
        or not 1 <= minutes <= rules.MAX_RESHUFFLE_IDLE_MINUTES
    ):
        raise ValidationError(
            {
                "reshuffle_idle_minutes": f"{rules.RESHUFFLE_IDLE.at(code)}: the period of no activity after which a "
                f"dealer may reshuffle is a whole number of minutes from 1 to {rules.MAX_RESHUFFLE_IDLE_MINUTES} "
                f"({rules.HOUSE_CONTROL})."
            }
        )
    return minutes


def record_written_procedure(
    *,
    acting_user,
    organization: Organization,
    kind: str,
    text: str,
    effective_on: date,
    document_reference: str = "",
    reshuffle_idle_minutes: int | None = None,
) -> WrittenProcedure:
    """Record a new version of one of the organization's written procedures, adopted by the acting
    gaming manager, in force from `effective_on` (where its sites' pack states it: ND 99-01.3-08-08(1)
    shuffling and cutting, 08-06(2) chip redemption, 08-12 an alternative policy for dealing
    mistakes). `text`: the procedure, or its summary with the document holding it named in
    `document_reference`. Versions are never changed: a new one supersedes the latest from its own
    date, which is not before the latest's."""
    access = require_gaming_manager(acting_user, organization.pk, action="record a written procedure")
    kind, codes = _procedure_kind(organization, kind)
    text = _text(text, "text", required=True, max_length=MAX_TEXT_LENGTH)
    document_reference = _text(
        document_reference, "document_reference", required=False, max_length=rules.MAX_NAME_LENGTH
    )
    check_date(effective_on, "effective_on")
    reshuffle_idle_minutes = _idle_minutes(codes, kind, reshuffle_idle_minutes)
    with transaction.atomic():
        list(Organization.objects.select_for_update().filter(pk=organization.pk).values_list("pk", flat=True))
        latest = WrittenProcedure.objects.filter(organization=organization, kind=kind).order_by("-version").first()
        if latest is not None and effective_on < latest.effective_on:
            raise ValidationError(
                {
                    "effective_on": f"{rules.HOUSE_CONTROL}: a new version takes effect on or after the one it "
                    f"supersedes (version {latest.version}, from {latest.effective_on.isoformat()}), as a licence "
                    "does; the law sets no order of versions."
                }
            )
        procedure = WrittenProcedure.objects.create(
            organization=organization,
            kind=kind,
            version=(latest.version + 1) if latest else 1,
            text=text,
            document_reference=document_reference,
            effective_on=effective_on,
            reshuffle_idle_minutes=reshuffle_idle_minutes,
            supersedes=latest,
            adopted_by=access.employee,
            recorded_at=timezone.now(),
        )
        record_event(
            actor=acting_user,
            action="written_procedure.recorded",
            obj=procedure,
            organization_id=organization.pk,
            after={
                "kind": kind,
                "version": procedure.version,
                "effective_on": effective_on.isoformat(),
                "document_reference": document_reference,
                "reshuffle_idle_minutes": reshuffle_idle_minutes,
            },
        )
    return procedure
