"""Every write to the core domain: validated, permission-checked, audited, in one transaction.

The API, the browser forms and the admin all call these; none of them validate on their own.
"""

from datetime import date

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q

from core.audit import record_event, snapshot
from core.database_refusals import database_refusal
from core.models import AuditEvent
from core.moments import gaming_date_of
from core.rules import HOUSE_CONTROL

from .access import forget_access, require_gaming_manager
from .chips import default_spec
from .models import (
    ORGANIZATION_NAME_TAKEN,
    ChipDenomination,
    Employee,
    EmployeeRelation,
    Game,
    Membership,
    Organization,
    Role,
    Site,
    Table,
    refuse_taken_login,
    refuse_weak_password,
)
from .table_limits import table_warnings
from .table_rules import licensed_values, option_errors, table_defaults, table_fields, validate_table

# What a save says of the row as saved, where its site's rules ask something of it (nothing is
# refused): (every warning, those said of the whole site), set as the instance's `warnings` for the
# form, the API's answer and the admin to show, and `site_notices` for a page that lists them itself.
_SAID_ON_SAVE = {Table: table_warnings}  # ND 99-01.3-08-09(1): limits posted, a plaque where they differ


def _save(instance, *, acting_user, organization_id: int, values: dict, noun: str):
    """Apply `values`, validate, save and audit: the one path for master-data writes."""
    creating = instance._state.adding
    require_gaming_manager(acting_user, organization_id, action=f"{'add' if creating else 'change'} {noun}")
    with transaction.atomic():
        current = None if creating else type(instance).objects.select_for_update().get(pk=instance.pk)
        before = None if current is None else snapshot(current)
        for name, value in values.items():
            setattr(instance, name, value)
        if isinstance(current, Site):
            refuse_moving_the_books(current, instance)
        if isinstance(current, Table):
            refuse_renaming_the_records(current, instance)
        if isinstance(current, ChipDenomination):
            refuse_revaluing(current, instance)
        instance.full_clean()
        instance._history_user = acting_user  # who, for the master-data history
        _save_checked_again(instance)
        record_event(
            actor=acting_user,
            action=f"{instance._meta.model_name}.{'created' if creating else 'updated'}",
            obj=instance,
            organization_id=organization_id,
            site_id=getattr(instance, "site_id", None),
            before=before,
            after=snapshot(instance),
        )
    if said := _SAID_ON_SAVE.get(type(instance)):
        instance.warnings, instance.site_notices = said(instance, current)
    return instance


def _save_checked_again(instance) -> None:
    """`instance.save()`; where the database refuses it (a copy sent at once by another terminal
    was written after this one's check looked), the model's check run again, which now sees that
    copy: the refusal is the check's own sentence, citing what the site's pack cites (a table's
    number: ND 99-01.3-08-02(1) in North Dakota, where the database's constraint, knowing no site,
    can only say House control). Where the check still finds nothing, the database's refusal
    stands (`core.database_refusals`). The save in a savepoint of its own, so the check can read."""
    try:
        with transaction.atomic():
            instance.save()
    except IntegrityError:
        instance.full_clean()
        raise


def save_master_data(instance, *, acting_user):
    """For the admin, whose form has already applied its values to `instance`."""
    organization_id = instance.pk if isinstance(instance, Organization) else getattr(instance, "organization_id", None)
    if organization_id is None:
        owner = getattr(instance, "site", None) or getattr(instance, "employee", None)
        organization_id = owner.organization_id
    return _save(
        instance, acting_user=acting_user, organization_id=organization_id, values={}, noun=instance._meta.verbose_name
    )


def _delete(instance, *, acting_user, organization_id: int, noun: str) -> None:
    require_gaming_manager(acting_user, organization_id, action=f"remove {noun}")
    with transaction.atomic():
        record_event(
            actor=acting_user,
            action=f"{instance._meta.model_name}.deleted",
            obj=instance,
            organization_id=organization_id,
            site_id=getattr(instance, "site_id", None),
            before=snapshot(instance),
        )
        instance._history_user = acting_user
        instance.delete()


def create_site(*, acting_user, organization: Organization, **values) -> Site:
    site = Site(organization=organization)
    return _save(site, acting_user=acting_user, organization_id=organization.pk, values=values, noun="a site")


# The audit actions that set a site up rather than record its books or floor: a site with only
# these may still change its jurisdiction, time zone and business day (a set-up mistake fixed).
# Any other event at the site is a record, so an action added later counts until listed here.
SET_UP_ACTIONS = (
    "site.", "table.", "chipdenomination.", "membership.", "employee.", "employeerelation.", "station.",
    "signing_pin.", "login.", "alert.", "compliance.", "report.", "registry.", "threshold.", "equipment.",
    "surveillance.equipment.", "count_settings.", "drop_box.", "slip_book.", "ideal_bank.", "tip_policy.",
    "internal_controls.", "table_game.", "game_approval.", "licence.",
)  # fmt: skip

# The site's fields that give its records their meaning, by the name a refusal gives them.
BOOKS_FIELDS = {
    "jurisdiction": "jurisdiction",
    "time_zone": "time zone",
    "business_day_start_hour": "business day start hour",
}


def _first_record_on(site: Site) -> date | None:
    """The gaming date of the first record of the site's books or floor in the audit log (a gaming
    day opened, a fee, a session, a tournament, an adjustment, a bank count, a drop box placed...),
    the day of the books it belongs to (after midnight, before the business day's start hour, the
    day before's), or None while it has only set-up events. One query."""
    set_up = Q()
    for prefix in SET_UP_ACTIONS:
        set_up |= Q(action__startswith=prefix)
    first = AuditEvent.objects.filter(site_id=site.pk).exclude(set_up).order_by("occurred_at").first()
    return None if first is None else gaming_date_of(site, first.occurred_at)


def refuse_moving_the_books(current: Site, site: Site) -> None:
    """House control: once a site has records, its jurisdiction, time zone and business day start
    hour stay as they were: the pack's revenue model reads its past figures and the two others
    draw its past gaming days' hours. A site with only set-up events may still change them."""
    changed = [name for name in BOOKS_FIELDS if getattr(current, name) != getattr(site, name)]
    first = _first_record_on(current) if changed else None
    if first is None:
        if "jurisdiction" in changed:
            refuse_tables_outside_the_law(current, site)
        return
    law = current.get_jurisdiction_display()
    kept = f"{HOUSE_CONTROL}: {current.name} has records under {law}'s law (first on {first:%Y-%m-%d})"
    days = f"past gaming days' hours (from {current.business_day_start_hour:02d}:00 {current.time_zone}) would move."
    reasons = {
        "jurisdiction": (
            "past figures would be read under another law. Open a new site for play under "
            f"{site.get_jurisdiction_display()}."
        ),
        "time_zone": f"{days} Open a new site for play in another time zone.",
        "business_day_start_hour": f"{days} Open a new site for gaming days that start at another hour.",
    }
    raise ValidationError(
        {name: f"{kept}; its {BOOKS_FIELDS[name]} cannot be changed, or {reasons[name]}" for name in changed}
    )


def refuse_tables_outside_the_law(current: Site, site: Site) -> None:
    """A site only set up may change its jurisdiction (a set-up mistake fixed), but its active
    tables then follow the new pack's law, as a table created there would (New York's 9 NYCRR
    4620.5: a $5 maximum bet, one to four decks, the licence's tie option; Washington blackjack's
    WAC 230-40-125(2): a player dealer/banker; the WSGC rules' internal controls...): each is
    judged as its save would judge it at the site under the new law, and the change is refused
    naming each table and the rules it would break. Before, the change was saved and the tables
    stayed as they were, unjudged. An inactive table is judged when it is made active again."""
    broken = []
    tables = Table.objects.filter(site_id=current.pk, active=True).order_by("number")
    for table in tables:
        table.site = site  # the site as it would be saved: its new pack judges the table
        try:
            validate_table(table)
        except ValidationError as refused:
            messages = [m for found in refused.message_dict.values() for m in found]
            broken.append(f"Table {table.number}: " + " ".join(messages))
    if broken:
        law = site.get_jurisdiction_display()
        raise ValidationError(
            {
                "jurisdiction": f"{current.name}'s active tables would break {law}'s rules, as a table created there "
                f"would be refused. {' '.join(broken)} Change or deactivate each table first, then the site's "
                "jurisdiction."
            }
        )


# The table's fields its records are read by (the figures' game lines, the forms' table number,
# ND 99-01.3-08-05(3)(a)), and the relations that set a table up rather than record its play.
TABLE_RECORD_FIELDS = {"game": "game", "number": "number"}
# A camera's changes and the game linked to a table (WA-HB's approvals) are set-up too.
TABLE_SET_UP = frozenset(
    {"counts.DropBox", "surveillance.Equipment", "surveillance.EquipmentChange", "approvals.TableGame"}
)


def _a_record_of(table: Table) -> str | None:
    """The kind of the first record found of the table's play (slips, tray counts, dealers'
    shifts, drops, fees, adjustments, recordings...), by its model's plural name, or None while it
    has only its set-up (a drop box registered, a camera). Every relation counts, those without a
    reverse name too (an adjustment's or a fee's table: `related_name="+"`), so a kind added later
    is a record until listed as set-up. One query a kind; the apps above name none of them here."""
    for relation in Table._meta.get_fields(include_hidden=True):
        if not (relation.auto_created and not relation.concrete and relation.is_relation):
            continue
        model = relation.related_model
        if getattr(model, "instance_type", model)._meta.label in TABLE_SET_UP:  # a history row: its model's
            continue
        if model._default_manager.filter(**{relation.field.name: table.pk}).exists():
            return str(model._meta.verbose_name_plural)
    return None


# House control (no pack's text moves a table between sites): a table's records, figures and filed
# quarters are its site's, so a table stays where it was added.
TABLE_STAYS_AT_ITS_SITE = f"{HOUSE_CONTROL}: a table cannot move to another site; add a new table there."


def refuse_renaming_the_records(current: Table, table: Table) -> None:
    """House control: once a table has records, its game and number stay as they were. The figures
    read each record's game from its table (a twenty-one table made paddlewheel would move its
    past drop, fills and credits, filed quarters included, to the other game's line, its hold
    threshold and its tax), and the paper forms name the table by its number: a number changed
    would make every past report disagree with the slips. A table with only its set-up may still
    change them; otherwise a new table is added for the other game or number. No table moves to
    another site, records or not (the admin's form moved one, its figures with it)."""
    if table.site_id != current.site_id:  # its records, figures and filed quarters would go with it
        raise ValidationError({"site": TABLE_STAYS_AT_ITS_SITE})
    changed = [name for name in TABLE_RECORD_FIELDS if getattr(current, name) != getattr(table, name)]
    kind = _a_record_of(current) if changed else None
    if kind is None:
        return
    kept = f"{HOUSE_CONTROL}: {current} has records ({kind} among them), read by its {{}}"
    reasons = {
        "game": "; its game cannot be changed: add a table for the other game (the figures of past days would move)",
        "number": "; its number cannot be changed: add a table with the new number (past slips and reports name it by its number)",
    }
    raise ValidationError({name: kept.format(TABLE_RECORD_FIELDS[name]) + reasons[name] + "." for name in changed})


def update_site(*, acting_user, site: Site, **values) -> Site:
    values.pop("organization", None)
    method = values.pop("dealing_method", None)
    with transaction.atomic():
        site = _save(site, acting_user=acting_user, organization_id=site.organization_id, values=values, noun="a site")
        if method is not None:
            set_site_dealing_method(acting_user=acting_user, site=site, method=method)
    return site


def set_site_dealing_method(*, acting_user, site: Site, method: str) -> list[Table]:
    """ND 99-01.3-08-10(1): one dealing method at a site, so the site's twenty-one tables
    change method together (each change validated and audited)."""
    _refuse_other_packs_options(site, {"dealing_method": method})
    if method not in Table.DealingMethod.values:
        raise ValidationError(
            {
                "dealing_method": f"{HOUSE_CONTROL}: unknown dealing method {method!r}; one of: {', '.join(Table.DealingMethod.values)}."
            }
        )
    changed = []
    with transaction.atomic():
        tables = Table.objects.select_for_update().filter(site=site, game=Game.TWENTY_ONE)
        for table in tables.order_by("number"):
            if table.card_reader_malfunction and method == Table.DealingMethod.CARD_READER:
                continue  # still on its 08-10(1)(c)(5) fallback until the reader is repaired
            if table.dealing_method == method and not table.card_reader_malfunction:
                continue
            table._site_dealing_method = method  # the whole site changes: the one-method check holds after
            changed.append(
                update_table(acting_user=acting_user, table=table, dealing_method=method, card_reader_malfunction=False)
            )
    return changed


def create_table(*, acting_user, site: Site, **values) -> Table:
    """Add a table with the settings of its site's pack; another pack's option is refused."""
    _refuse_other_packs_options(site, values)
    values = {**licensed_values(site), **values}  # the licence in force sets them for every table under it
    defaults, missing = table_defaults(site.jurisdiction, values)
    values = {**defaults, **values}  # the pack's, not the model's
    table = Table(site=site)
    if (
        "dealing_method" not in values
        and "dealing_method" in table_fields(site.jurisdiction)
        and (method := Table.site_dealing_method(site.pk))
    ):
        values["dealing_method"] = method  # ND 99-01.3-08-10(1): a new table takes the site's method
    if missing:
        _refuse_missing_options(table, acting_user=acting_user, values=values, missing=missing)
    return _save(
        table,
        acting_user=acting_user,
        organization_id=site.organization_id,
        values=values,
        noun="a table",
    )


def update_table(*, acting_user, table: Table, **values) -> Table:
    _refuse_other_packs_options(table.site, {name: value for name, value in values.items() if name != "site"})
    return _save(
        table,
        acting_user=acting_user,
        organization_id=table.site.organization_id,
        values=values,
        noun="a table",
    )


def _refuse_missing_options(table: Table, *, acting_user, values: dict, missing: dict[str, str]) -> None:
    """Refuse a new table not given an option its pack requires and sets no single value for, with
    every other refusal of the table at once: the option's own words replace its check's ("one to
    four decks (got 6)" of the model's default)."""
    require_gaming_manager(acting_user, table.site.organization_id, action="add a table")
    for name, value in values.items():
        setattr(table, name, value)
    errors: dict[str, list[str]] = {}
    try:
        table.full_clean()
    except ValidationError as refused:
        errors = refused.message_dict
    raise ValidationError({**errors, **{name: [message] for name, message in missing.items()}})


def _refuse_other_packs_options(site: Site, values: dict) -> None:
    if errors := option_errors(site, values):
        raise ValidationError(errors)


def create_chip_denomination(
    *, acting_user, organization: Organization, value_cents: int, **values
) -> ChipDenomination:
    """Add a chip value; colour and edge spots default to those the organization's chip law
    prescribes (`cardroom.chip_rules`; none where no pack of its sites states one)."""
    spec = default_spec(organization.pk, value_cents)
    if spec is not None:
        values.setdefault("primary_colour", spec.primary_colour)
        values.setdefault("edge_spots", spec.edge_spots)
        values.setdefault("edge_colour", spec.default_edge_colour)
    chip = ChipDenomination(organization=organization)
    return _save(
        chip,
        acting_user=acting_user,
        organization_id=organization.pk,
        values={"value_cents": value_cents, **values},
        noun="a chip denomination",
    )


def refuse_revaluing(current: ChipDenomination, chip: ChipDenomination) -> None:
    """A chip's value never changes (the tray counts, slips and inventories of its past are counted
    at it); a new value is a new denomination. The API, the setup page and the admin alike."""
    if chip.value_cents != current.value_cents:
        raise ValidationError(
            {
                "value_cents": f"{HOUSE_CONTROL}: a chip's value cannot change (the tray counts, slips and "
                "inventories of its past are counted at it); add the new value instead."
            }
        )


def update_chip_denomination(*, acting_user, chip: ChipDenomination, **values) -> ChipDenomination:
    values.pop("organization", None)
    return _save(
        chip, acting_user=acting_user, organization_id=chip.organization_id, values=values, noun="a chip denomination"
    )


def create_employee(
    *,
    acting_user,
    organization: Organization,
    username: str,
    password: str,
    first_name: str = "",
    last_name: str = "",
    email: str = "",
    roles=(),
    **values,
) -> Employee:
    """Create the login and the employee record together, with their first roles (`roles`: (role,
    site or None) pairs, each checked as `add_membership` checks it): one save, nothing half made."""
    require_gaming_manager(acting_user, organization.pk, action="add an employee")
    User = get_user_model()
    refuse_taken_login(username)
    user = User(username=username, first_name=first_name, last_name=last_name, email=email)
    user.full_clean(exclude=["password"])
    refuse_weak_password(password, user)
    with transaction.atomic():
        user.set_password(password)
        user.save()
        employee = Employee(organization=organization, user=user)
        employee = _save(
            employee, acting_user=acting_user, organization_id=organization.pk, values=values, noun="an employee"
        )
        for role, site in roles:
            add_membership(acting_user=acting_user, employee=employee, role=role, site=site)
        return employee


def update_employee(
    *, acting_user, employee: Employee, first_name=None, last_name=None, email=None, **values
) -> Employee:
    values.pop("organization", None)
    values.pop("user", None)
    with transaction.atomic():
        employee = _save(
            employee,
            acting_user=acting_user,
            organization_id=employee.organization_id,
            values=values,
            noun="an employee",
        )
        user_values = {
            k: v for k, v in {"first_name": first_name, "last_name": last_name, "email": email}.items() if v is not None
        }
        if user_values:
            for name, value in user_values.items():
                setattr(employee.user, name, value)
            employee.user.full_clean(exclude=["password"])
            employee.user.save(update_fields=list(user_values))
    forget_access(employee.user)
    return employee


def add_membership(*, acting_user, employee: Employee, role: str, site: Site | None = None) -> Membership:
    """Give a role at a site (or, for gaming managers and auditors, at every site)."""
    membership = Membership(employee=employee)
    with transaction.atomic():
        result = _save(
            membership,
            acting_user=acting_user,
            organization_id=employee.organization_id,
            values={"role": role, "site": site},
            noun="a role",
        )
        if role == Role.GAMING_MANAGER and not employee.user.is_staff:
            employee.user.is_staff = True  # gaming managers also set up through the Django admin
            employee.user.save(update_fields=["is_staff"])
    forget_access(employee.user)
    return result


def remove_membership(*, acting_user, membership: Membership) -> None:
    _delete(membership, acting_user=acting_user, organization_id=membership.employee.organization_id, noun="a role")
    forget_access(membership.employee.user)


def add_relation(*, acting_user, employee: Employee, relative: Employee, kind: str) -> EmployeeRelation:
    relation = EmployeeRelation(employee=employee)
    return _save(
        relation,
        acting_user=acting_user,
        organization_id=employee.organization_id,
        values={"relative": relative, "kind": kind},
        noun="a family or household relation",
    )


def remove_relation(*, acting_user, relation: EmployeeRelation) -> None:
    _delete(relation, acting_user=acting_user, organization_id=relation.employee.organization_id, noun="a relation")


# --- Organizations (the platform operator) ---------------------------------------------------


def platform_operator_refusal() -> str:
    return (
        f"{HOUSE_CONTROL}: only a platform operator (a superuser) may create an organization; "
        "its gaming managers then set it up."
    )


def _as_manager(refusal: ValidationError) -> ValidationError:
    """A refusal of the first gaming manager's login or employee, keyed by the organization
    form's fields (`username` is `manager_username` there)."""
    if not hasattr(refusal, "error_dict"):
        return refusal
    return ValidationError({f"manager_{k}": v for k, v in refusal.message_dict.items()})


def create_organization(
    *,
    acting_user,
    name: str,
    manager_username: str,
    manager_password: str,
    manager_initials: str,
    licence_number: str = "",
    manager_first_name: str = "",
    manager_last_name: str = "",
) -> tuple[Organization, Employee]:
    """A new organization and its first gaming manager (a login and an employee holding the
    gaming manager role at all sites). `acting_user` is a superuser, or None for the
    `create_organization` management command run on the server."""
    from django.core.exceptions import PermissionDenied

    if acting_user is not None and not acting_user.is_superuser:
        raise PermissionDenied(platform_operator_refusal())
    organization = Organization(name=name.strip(), licence_number=licence_number.strip())
    _refuse_organization_name_taken(organization.name)
    organization.full_clean(validate_constraints=False)  # its one constraint, the name's: read above and below
    User = get_user_model()
    refuse_taken_login(manager_username, "manager_username")
    user = User(username=manager_username, first_name=manager_first_name, last_name=manager_last_name, is_staff=True)
    try:
        user.full_clean(exclude=["password"])
    except ValidationError as exc:
        raise _as_manager(exc) from exc
    refuse_weak_password(manager_password, user, "manager_password")
    with transaction.atomic():
        # Read again: a name taken since (another terminal) is refused here in the same words, and
        # where both are written at once the database's constraint refuses the second in them
        # (models.ORGANIZATION_NAME_TAKEN, core.database_refusals).
        _refuse_organization_name_taken(organization.name)
        organization._history_user = acting_user
        organization.save()
        user.set_password(manager_password)
        try:
            with transaction.atomic():
                user.save()
        except IntegrityError as exc:
            # Another "jdoe" made since the look above (cardroom migration 0028's index): said at
            # the form's own field, as the look says it.
            raise _as_manager(database_refusal(exc)) from exc
        employee = Employee(organization=organization, user=user, initials=manager_initials)
        try:
            employee.full_clean()
        except ValidationError as exc:
            raise _as_manager(exc) from exc
        employee.save()
        Membership.objects.create(employee=employee, site=None, role=Role.GAMING_MANAGER)
        for obj in (organization, employee):
            record_event(
                actor=acting_user,
                action=f"{obj._meta.model_name}.created",
                obj=obj,
                organization_id=organization.pk,
                after=snapshot(obj),
            )
        record_event(
            actor=acting_user,
            action="membership.created",
            object_type="cardroom.membership",
            object_id=str(employee.memberships.get().pk),
            organization_id=organization.pk,
            after={"employee": employee.pk, "role": Role.GAMING_MANAGER, "site": None},
        )
    return organization, employee


def _refuse_organization_name_taken(name: str) -> None:
    if Organization.objects.filter(name__iexact=name).exists():
        raise ValidationError({"name": ORGANIZATION_NAME_TAKEN})
