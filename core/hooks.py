"""Hooks: answers a lower layer needs and only a higher one has, in one registry.

A lower layer asks a hook; the app that knows the answer registers it when it loads (its
`AppConfig.ready`), so imports keep pointing down (`.importlinter`). Within one app the same
holds between its modules (`row_events`: the append-only base below the audit chain whose
events are themselves append-only rows), so no module of an app imports one that imports it. Every hook is declared
here, with who asks, who answers and what the answer is: `HOOKS` lists them all. Asking a hook
whose answer is not registered raises ImproperlyConfigured: no hook allows everything (open
books, no wager cap, nothing to flag) by default. A system check (`core.checks`) fails
`manage.py check`, `migrate` and `runserver` when one is missing, and the WSGI application
refuses to start (`config.wsgi`).

A hook is asked through its module's own function (`core.closing.closed_reason`,
`cardroom.wager_caps.check_max_wager`...) and answered through its `register_*` function;
`Hook.register` and `Hook.__call__` are what those use.
"""

from collections.abc import Callable
from dataclasses import dataclass, field

from django.core.exceptions import ImproperlyConfigured


@dataclass(eq=False)
class Hook:
    """One answer asked from below. `many`: several apps may each register an answer, and the
    asker combines them (every registered provider is asked)."""

    name: str
    asked_by: str
    answered_by: str
    answer: str  # what the registered callable takes and returns
    many: bool = False
    _answers: list[Callable] = field(default_factory=list, repr=False)

    def register(self, answer: Callable) -> None:
        if self.many:
            if answer not in self._answers:
                self._answers.append(answer)
        else:
            self._answers[:] = [answer]

    @property
    def registered(self) -> bool:
        return bool(self._answers)

    def _missing(self) -> ImproperlyConfigured:
        return ImproperlyConfigured(
            f"The hook {self.name!r} ({self.asked_by}) has no answer: {self.answered_by} registers it when its app "
            "loads. Is that app in INSTALLED_APPS?"
        )

    def __call__(self, *args, **kwargs):
        """The registered answer to this question (a hook with one answer)."""
        if not self._answers:
            raise self._missing()
        return self._answers[0](*args, **kwargs)

    def answers(self) -> list[Callable]:
        """Every registered answer (a hook with many); refuses while there is none."""
        if not self._answers:
            raise self._missing()
        return list(self._answers)


HOOKS: dict[str, Hook] = {}


def declare(name: str, *, asked_by: str, answered_by: str, answer: str, many: bool = False) -> Hook:
    if name in HOOKS:
        raise ImproperlyConfigured(f"The hook {name!r} is declared twice.")
    HOOKS[name] = Hook(name, asked_by, answered_by, answer, many)
    return HOOKS[name]


def missing() -> list[Hook]:
    """The hooks no app has answered."""
    return [hook for hook in HOOKS.values() if not hook.registered]


def require_answers() -> None:
    """Refuse to serve while a hook has no answer (`config.wsgi`)."""
    if missing():
        raise missing()[0]._missing()


# --- The hooks ------------------------------------------------------------------------------

ROW_EVENTS = declare(
    "row_events",
    asked_by="core.appendonly (AppendOnlyModel.save and bulk_create, in the insert's transaction)",
    answered_by="core (core.audit_rows, from core.apps)",
    answer="record(rows) -> None: appends each new append-only row's `row.created` event to its chain",
)
ACCESS = declare(
    "access",
    asked_by="core.scoping (the API toolkit's scoped querysets and fields)",
    answered_by="cardroom (cardroom.apps)",
    answer="access(user) -> the user's Access: their employee, roles and the sites they may see",
)
SITE_JURISDICTION = declare(
    "site_jurisdiction",
    asked_by="core.citations (retention, closed books)",
    answered_by="cardroom (cardroom.apps)",
    answer="site_jurisdiction(site_id) -> the jurisdiction code of the site's pack",
)
JURISDICTIONS = declare(
    "jurisdictions",
    asked_by="cardroom.models (Site.jurisdiction's choices, validated by the model, its forms and the API)",
    answered_by="packs (packs.apps)",
    answer="jurisdictions() -> [(code, name)] of the packs of the registry, in its order",
)
CITATIONS = declare(
    "citations",
    asked_by="core.citations",
    answered_by="packs (packs.apps)",
    answer="cite(rule key, jurisdiction) -> the citation of the pack's text stating the rule, or None",
)
TABLE_RULES = declare(
    "table_rules",
    asked_by="cardroom.table_rules (Table.clean)",
    answered_by="packs (packs.apps)",
    answer="validate(table) -> None, raising ValidationError naming each field the site's pack refuses",
)
TABLE_OPTIONS = declare(
    "table_options",
    asked_by="cardroom.table_rules (the table form, the admin, the tables API, create_table and update_table)",
    answered_by="packs (packs.apps)",
    answer="fields(jurisdiction) -> the Table fields a site of the pack sets: the common ones, then its options",
)
TABLE_DEFAULTS = declare(
    "table_defaults",
    asked_by="cardroom.table_rules (create_table: a new table's options not given)",
    answered_by="packs (packs.apps)",
    answer="defaults(jurisdiction, given) -> {field: value} of the pack's options a new table was not given, where "
    "its text fixes the value, or a table_rules.Required refusal where it sets no single value",
)
LICENSED_TABLE_VALUES = declare(
    "licensed_table_values",
    asked_by="cardroom.table_rules (create_table and the table forms: the options a licence sets, read-only)",
    answered_by="approvals (approvals.apps)",
    answer="licensed(site) -> {field: table_rules.LicensedOption(value, note)} of the options the site's law puts "
    "on the organization's licence for every table under it (New York's tie option, 9 NYCRR 4620.5(h)): the value "
    "the licence in force reflects (None where none is), and the table form's cited note; {} where the law puts none",
)
TABLE_GAMES = declare(
    "table_games",
    asked_by="cardroom.table_rules (the table form's games)",
    answered_by="packs (packs.apps)",
    answer="games(jurisdiction) -> [(Game code, the pack's name for it)] of the games a site of the pack deals",
)
CHIP_LAW = declare(
    "chip_law",
    asked_by="cardroom.chip_rules (chips, forms)",
    answered_by="packs (packs.apps)",
    answer="law_of(jurisdiction) -> the pack's ChipLaw, or None where its law states none",
)
ROLE_GRANTS = declare(
    "role_grants",
    asked_by="cardroom.role_grants (Membership.clean: the employee pages, the admin, the memberships API)",
    answered_by="counts (counts.apps), floor (floor.apps)",
    answer="check(membership) -> {field: message} of what the app refuses in giving that role there",
    many=True,
)
FIXED_TABLE_OPTIONS = declare(
    "fixed_table_options",
    asked_by="cardroom.table_rules (the table form: a choice the pack's text fixes offers no other value)",
    answered_by="packs (packs.apps)",
    answer="fixed(jurisdiction) -> {field: value} of the table options whose value the pack's text fixes (WA-BJ's "
    "player dealer/banker and shoe, WAC 230-40-125(2)); {} where it fixes none",
)
DOCUMENTED_TABLE_VALUES = declare(
    "documented_table_values",
    asked_by="cardroom.table_rules (the table forms: a setting offers only the values the internal controls document)",
    answered_by="approvals (approvals.apps)",
    answer="documented(table) -> {field: table_rules.DocumentedValues(values, note)} of the table options the "
    "internal controls in effect at its site for its game list (the WSGC house-banked rules); {} where the site's "
    "law asks for none or none are in effect",
)
EMPLOYEE_IDENTIFIER = declare(
    "employee_identifier",
    asked_by="cardroom.site_keeps (the employee form: the state-issued identifier shown only where a pack names one)",
    answered_by="packs (packs.apps)",
    answer="named(jurisdiction) -> (label, citation) of the state-issued identifier of a gaming employee the pack's "
    "law names (WAC 230-03-265(3)), or None where it names none",
)
EMPLOYEE_IDENTIFIER_ABSENT = declare(
    "employee_identifier_absent",
    asked_by="cardroom.site_keeps (Employee.clean: a state-issued identifier is refused where no pack of the "
    "organization's sites names one, from the employee pages, the admin and the employees API alike)",
    answered_by="packs (packs.apps)",
    answer="absent(jurisdiction) -> the pack's sentence saying, citing its text, that its law names no state-issued "
    'identifier of a gaming employee (9 NYCRR 4620.5); "" where it names one',
)
HOUSE_CHIPS = declare(
    "house_chips",
    asked_by="cardroom.site_keeps (cardroom.models.role_label: a role's name at a site, on the navigation, the home "
    "page, the employee pages and in the refusals naming roles)",
    answered_by="floor (floor.apps)",
    answer="house_chips(site) -> whether the house's chips move between its chip bank and the site's tables "
    "(floor.rules.house_chips): not at a fees room",
)
DROP_BOXES = declare(
    "drop_boxes",
    asked_by="cardroom.site_keeps (the stations page: a count tablet offered only where the site keeps drop boxes)",
    answered_by="counts (counts.apps)",
    answer="keeps(site) -> whether the site keeps drop boxes and counts a drop (counts.rules.keeps_drop_boxes): "
    "not at a fees room",
)
TABLE_CHECKS = declare(
    "table_checks",
    asked_by="packs.validate_table",
    answered_by="approvals (approvals.apps)",
    answer="check(table) -> {field: message} of what the house's approvals refuse",
    many=True,
)
BOOKS_CLOSED = declare(
    "books_closed",
    asked_by="core.closing (the cage, counts, tournaments, fees, the floor, core.moments)",
    answered_by="accounting (accounting.apps)",
    answer="reason(site_id, gaming_date) -> why the day's books are closed, or None while they are open",
)
TOURNAMENT_VOID = declare(
    "tournament_void",
    asked_by="tournaments.services.void_fee and void_prize (inside the void's transaction); collect_fee and "
    "award_prize for a record found after its day's books closed",
    answered_by="accounting (accounting.apps)",
    answer="amend(VoidOfRecord) -> the FilingAmendment written beside the filing of the quarter the voided fee's "
    "or prize's day is on (the void counts on its own day), or None where that quarter is not filed",
)
CLOSED_DATES = declare(
    "closed_dates",
    asked_by="core.closing (pages listing records of several dates: the fees page)",
    answered_by="accounting (accounting.apps)",
    answer="closed(site_id, gaming_dates) -> the set of those dates whose books are closed, in a fixed number "
    "of queries however many dates",
)
CLOSED_DAYS = declare(
    "closed_days",
    asked_by="core.closing (the cage's deposit service: a deposit of a closed day of the books)",
    answered_by="accounting (accounting.apps)",
    answer="closed(site_ids, start, end) -> the set of (site_id, date) in [start, end] whose own books were closed "
    "with no gaming day opened on them (a day of the books each, an adjustment's day too), in one query",
)
COLLECTING_DAYS = declare(
    "collecting_days",
    asked_by="core.closing (the cage's days that take a deposit: its deposits page and the late-deposit check)",
    answered_by="accounting (accounting.apps)",
    answer="collecting(site_ids, start, end) -> the set of (site_id, date) in [start, end] whose own books were "
    "closed with no gaming day opened and that took cash (table fees, sessions or tournament play; not a day whose "
    "only records are adjusting entries or voided fees, sessions or tournament fees), in a fixed number of queries",
)
CLOSED_ON = declare(
    "closed_on",
    asked_by="core.closing (the cage's ideal bank: the latest of the bank's days from a date whose books are closed)",
    answered_by="accounting (accounting.apps)",
    answer="closed() -> a condition, true where the books of the outer row's site_id and gaming_date are closed "
    "(its own books, or its quarter's summary filed), filtered on in the asker's own query",
)
BOOKS_DAY = declare(
    "books_day",
    asked_by="core.closing (the cage's deposit of a date with no gaming day)",
    answered_by="accounting (accounting.apps)",
    answer="is_day(site_id, date) -> whether the date is a day of the site's books (a gaming day opened, an "
    "adjustment, tournament play, a fees or session pack's records)",
)
EXPECTED_DEPOSIT = declare(
    "expected_deposit",
    asked_by="core.closing (the cage's deposits: their API and page say what the closed books expect)",
    answered_by="accounting (accounting.apps)",
    answer="expected() -> an expression of the deposit (cents) a day's closed books expect for the outer row's "
    "site_id and gaming_date (null where no day's books were closed), annotated on the deposits in their query",
)
BOOKS_CLOSERS = declare(
    "books_closers",
    asked_by="core.closing (the fees page's next step after the fee cash is counted)",
    answered_by="accounting (accounting.apps)",
    answer="closers() -> the roles that may close a gaming day's books (accounting.rules.BOOKS_CLOSERS)",
)
DAY_CHANGED = declare(
    "day_changed",
    asked_by="core.figure_days (writes that bypass save())",
    answered_by="accounting (accounting.day_figures, from accounting.apps)",
    answer="changed(site_id, gaming_date) -> None: the day's figure snapshot is stale",
)
DAY_CHANGED_SQL = declare(
    "day_changed_sql",
    asked_by="core.figure_days (a slip's insert, floor.services.slips)",
    answered_by="accounting (accounting.day_figures, from accounting.apps)",
    answer="statement(site_id, gaming_date) -> (sql, params) that marks the day's snapshot stale, sent in the "
    "caller's own message, or None when there is nothing to send",
)
WAGER_CAP = declare(
    "wager_cap",
    asked_by="cardroom.wager_caps (Table.clean, the floor's services)",
    answered_by="surveillance (surveillance.apps)",
    answer="check(table, max_wager_cents, at) -> None, raising ValidationError over a surveillance cap",
)
TIP_STATUS = declare(
    "tip_status",
    asked_by="floor.tips (a dealer's last shift)",
    answered_by="cage (cage.apps)",
    answer="lookup(dealer, site, since) -> what the dealer declared and still holds (TipStatus)",
)
CHIPS_EXIST = declare(
    "chips_exist",
    asked_by="floor.chip_log (a bank count, a tray count, a tip declaration: no more chips of a value than exist)",
    answered_by="cage (cage.apps)",
    answer="exist(organization_id, on_date) -> {value_cents: chips} the chip inventory log says exist (received "
    "minus destroyed by that date), or None where the organization keeps no log yet",
)
CHIPS_EXIST_SQL = declare(
    "chips_exist_sql",
    asked_by="floor.chip_log (a slip's context, floor.queries.slip_context, read in its one statement)",
    answered_by="cage (cage.apps)",
    answer="expression(vendor) -> an SQL scalar subquery of `chips_exist` for %(organization)s on the open day's "
    "d.gaming_date: a JSON array of [value_cents, chips], NULL where the organization keeps no log",
)
TIPS_FLAG = declare(
    "tips_flag",
    asked_by="floor.tips (a dealer leaving with tips not in order)",
    answered_by="compliance (compliance.apps)",
    answer="flag(TipsAtLeaving) -> None: opens the alert",
    many=True,
)
DEALER_SEATED = declare(
    "dealer_seated",
    asked_by="floor.seating (start_dealer_shift, before a dealer is seated)",
    answered_by="counts (counts.apps), surveillance (surveillance.apps)",
    answer="refusal(dealer, site, gaming_date, started_at) -> str | None: why seating the dealer at the site at "
    "started_at on that gaming day is refused (a count team of two gaming employees, ND 99-01.3-08-14(2); the "
    "reviewer of a video review of the shift started in, ND 99-01.3-08-04(9)), or None",
    many=True,
)
DEALER_SHIFT_ENDING = declare(
    "dealer_shift_ending",
    asked_by="floor.seating (floor.services.steps.end_shift: a shift ended, relieved or closed with its table)",
    answered_by="surveillance (surveillance.apps), counts (counts.apps)",
    answer="refusal(dealer, site, started_at, ended_at) -> str | None: why the dealer dealing at the site from "
    "started_at to ended_at is refused (the reviewer of a video review of a shift it runs into, ND "
    "99-01.3-08-04(9); a drop box removed unescorted meanwhile, its transporter the only employee on duty, "
    "ND 99-01.3-08-14(1)), or None",
    many=True,
)
TABLE_SHIFT_RECORDED = declare(
    "table_shift_recorded",
    asked_by="floor.seating (start_dealer_shift, a dealer seated at a table; floor.services.steps.end_shift: a "
    "shift ended, relieved or closed with its table)",
    answered_by="surveillance (surveillance.apps)",
    answer="refusal(table, dealer, started_at, ended_at) -> str | None: why recording the dealer's shift at the "
    "table from started_at to ended_at (None: seated, running) is refused (it widens the shift reviewed of a video "
    "review of the table's footage onto a dealer shift of that review's reviewer at the site, ND "
    "99-01.3-08-04(9)), or None",
    many=True,
)
DUTY_PERIOD_ENDING = declare(
    "duty_period_ending",
    asked_by="floor.seating (floor.services.duty.end_duty: a duty period signed out)",
    answered_by="counts (counts.apps)",
    answer="refusal(employee, site, started_at, ended_at) -> str | None: why the employee on duty at the site "
    "from started_at to ended_at is refused (a drop box removed unescorted meanwhile, its transporter the only "
    "employee on duty, ND 99-01.3-08-14(1)), or None",
    many=True,
)
OPEN_ITEMS = declare(
    "open_items",
    asked_by="floor.open_items (a gaming day's close)",
    answered_by="counts (counts.apps)",
    answer="provider(gaming_day) -> [OpenItem]: the app's items still open at the day's close",
    many=True,
)

CARRIED_NOW = declare(
    "carried_now",
    asked_by="floor.queries.carried_items (what became of an item carried past a close)",
    answered_by="counts (counts.apps)",
    answer="provider([Carried]) -> {(gaming_date, key): 'since counted, $420.00 signed 2026-12-08 03:10'}: the "
    "items of the app resolved since carried, in a fixed number of queries",
    many=True,
)
HOLD_THRESHOLDS = declare(
    "hold_thresholds",
    asked_by="accounting.games (percent-of-hold reviews)",
    answered_by="compliance (compliance.apps)",
    answer="source() -> {game: (HoldThreshold, ...)}: every threshold row, loaded once per summary",
)
QUARTER_FILED = declare(
    "quarter_filed",
    asked_by="accounting.services.file_quarter (inside the filing's transaction)",
    answered_by="statefiling (statefiling.apps)",
    answer="filed(quarter_filing) -> None: freezes the dealers' hold as filed and queues the filing package for "
    "the state's registry",
    many=True,
)
CHAINS_ANCHORED = declare(
    "chains_anchored",
    asked_by="core.audit_anchors.anchor_chains (the nightly anchor)",
    answered_by="statefiling (statefiling.apps)",
    answer="anchored(heads) -> None: queues the heads for the state registries",
    many=True,
)
REGISTRY_CHECK = declare(
    "registry_check",
    asked_by="core.audit_anchors.check_against_registries (verify_audit_log --registry)",
    answered_by="statefiling (statefiling.apps)",
    answer="check(organization_id or None) -> RegistryCheck: every head the state registries hold still in the chain",
)
REGISTRY_ANCHORS = declare(
    "registry_anchors",
    asked_by="core.audit_anchors.registry_anchors (core.audit_verify.verify_rows: a filing's rows about to be sent, "
    "their events read against the registries' heads of their chain, once a package)",
    answered_by="statefiling (statefiling.apps)",
    answer="anchors(organization_id, chain, seq) -> [Anchor]: of each state registry the organization files with, "
    "the first head of the chain it holds at or after seq (one request a registry; none where it holds none or "
    "does not answer)",
)
PARTY = declare(
    "party",
    asked_by="cardroom.navigation.party_of (the home page and the menu of a login with no employee)",
    answered_by="registry (registry.menu, from registry.apps)",
    answer="party(user) -> ({roles}, home url name, {jurisdictions whose entries the menu offers}) of a "
    "regulator's login, or None",
    many=True,
)
REPORT_DIGESTS = declare(
    "report_digests",
    asked_by="statefiling.services.build_package (a filed quarter's package)",
    answered_by="reports (reports.apps)",
    answer="digests(site_id, start, end) -> [{kind, start, end, generated_at, pdf_sha256, data_sha256}]",
    many=True,
)
TOURNAMENT_FEE_FLAG = declare(
    "tournament_fee_flag",
    asked_by="tournaments.services.collect_fee (a fee dated before its tournament's announcement)",
    answered_by="compliance (compliance.apps)",
    answer="flag(FeeBeforeAnnouncement) -> None: opens the alert (house control)",
)
COUNT_SETTINGS_WARNINGS = declare(
    "count_settings_warnings",
    asked_by="counts.rules.settings_warnings (counts.services.update_count_settings: its pages, admin and API)",
    answered_by="compliance (compliance.apps)",
    answer="warnings(site, box_exchange) -> [str]: what the site's rules say of the setting now, each message "
    "citing its rule (nothing refused)",
    many=True,
)
FILING_AMENDED = declare(
    "filing_amended",
    asked_by="accounting.amendments (an entry after a quarter was filed changed its return)",
    answered_by="compliance (compliance.apps)",
    answer="flag(FilingAmendment) -> None: opens the alert for the gaming manager",
)
AMENDMENT_RECORDED = declare(
    "amendment_recorded",
    asked_by="accounting.amendments (inside the amending entry's transaction)",
    answered_by="statefiling (statefiling.apps)",
    answer="recorded(FilingAmendment) -> None: queues the amendment's package for the state's registry",
    many=True,
)
REPORT_PDF = declare(
    "report_pdf",
    asked_by="statefiling.delivery (the filed quarter's PDF sent with its package)",
    answered_by="reports (reports.apps)",
    answer="pdf(site_id, pdf_sha256) -> bytes | None: the stored report's PDF of the site with that digest",
)
SESSION_LICENCES = declare(
    "session_licences",
    asked_by="fees.rules.session_licences (record_session: the licence a games-of-chance session names)",
    answered_by="approvals (approvals.apps)",
    answer="licences(site, day) -> ([(licence_number, effective_on)] the organization has on file for the site's "
    "jurisdiction, oldest first; the number in force on the day, or None)",
)
PIT_FEE_STEP = declare(
    "pit_fee_step",
    asked_by="floor.pit_terminal (a station's pit: a fee collected at a table, with a badge and PIN)",
    answered_by="fees (fees.apps)",
    answer="step(site) -> None where the site's revenue is not its table fees; else a step with `roles` (who may "
    "collect) and `data()` (the terminal's JSON-safe fee data: the rule, the bases, each table's last fee)",
)
DEALER_CHANGE_BOX = declare(
    "dealer_change_box",
    asked_by="floor.seating (changing a table's dealer: the pit terminal's panel, the dealer page, and "
    "floor.services.dealer_shifts.start_dealer_shift inside the change's transaction, before the outgoing shift ends)",
    answered_by="counts (counts.apps)",
    answer="step(site) -> None where the site does not exchange its drop boxes at each dealer change (one drop per "
    "dealer shift, house control: counts.models.BoxExchange); else a step with `data(gaming_date)` (the terminal's "
    "JSON-safe removal fields: the note citing the rules, escorts, key holders, the storage place, each table's box "
    "or why none is left) and `remove(acting_user=, table=, shift=, removed_at=, **custody)` (the table's box removed, "
    "credited to the outgoing `shift`, in the caller's transaction; a refusal is a ValidationError keyed by the "
    "change's own fields: box_escorted_by, box_key_holder, box_second_key_holder, box_storage_place, remove_box)",
)
THRESHOLD_DATED = declare(
    "threshold_dated",
    asked_by="compliance.models.Threshold (its clean and save, and its queryset's bulk_create and update: every "
    "write of a threshold row but the data migrations' historical models)",
    answered_by="compliance (compliance.thresholds.refuse_backdating, from compliance.apps)",
    answer="refuse(code, effective_from) -> None: raises ValidationError on `effective_from` where the date falls "
    "inside a quarter filed at a site whose pack reads the threshold (house control)",
)
