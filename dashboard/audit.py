"""The audit log as a reader sees it in the browser (/dashboard/audit/): the events of the
reader's organization at the sites `AUDIT_LOG` lets them read (and, for an organization-wide
role, the events of no site), newest first, filtered by site, local dates, action prefix and
person. Reads core.models.AuditEvent with its actor, the actor's employee and the site in one
query a page, a page found from its neighbour's last event (`page_of`), not by counting, and the
records its events name by id (a table, closed books...) in one query a kind (`names_on`)."""

import json
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import cache, partial
from zoneinfo import ZoneInfo

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db.models import Manager, Model, Q, QuerySet

from accounting import published
from cardroom.access import Access
from cardroom.models import Employee, Game, Site, Table
from core import limits
from core.models import AuditEvent
from core.moments import shown
from core.money import format_money
from counts.models import DropBox
from floor.models import GamingDay, Slip
from packs import game_names, pack_for, revenue_words

from .access import AUDIT_LOG

EVENTS_PER_PAGE = 100
ACTION_PREFIX = re.compile(r"[a-z0-9_.]{1,80}")  # the shape of every action code ("fill_slip.", "gaming_day.opened")


@dataclass(frozen=True)
class Filters:
    site: Site | None = None
    start: date | None = None
    end: date | None = None
    action: str = ""
    person: Employee | None = None


def people(access: Access) -> QuerySet[Employee]:
    """The organization's employees, whom the person filter offers."""
    return (
        Employee.objects.filter(organization_id=access.organization_id)
        .select_related("user")
        .order_by("user__last_name", "user__first_name", "initials")
    )


def _chosen(value: str, among, errors: dict, field: str, what: str):
    """The object of id `value` among `among` (None when blank); a malformed or unknown id is
    refused in `errors` and ignored."""
    if not value:
        return None
    found = [o for o in among if str(o.pk) == value.strip()]
    if not found:
        errors[field] = f"{value!r} is not {what} of yours; the filter is ignored."
        return None
    return found[0]


def _date(value: str, errors: dict, field: str) -> date | None:
    if not value:
        return None
    try:
        return limits.parse_date(value, field)
    except ValidationError as exc:
        errors[field] = " ".join(exc.messages) + " The filter is ignored."
        return None


def parse_filters(params, sites: list[Site], employees: list[Employee]) -> tuple[Filters, dict]:
    """The filters asked for in `params`, and the refusal of each one that is ignored."""
    errors: dict = {}
    start = _date(params.get("start", ""), errors, "start")
    end = _date(params.get("end", ""), errors, "end")
    if start and end and end < start:
        errors["end"] = f"The end ({end}) is before the start ({start}); the end is ignored."
        end = None
    action = params.get("action", "").strip()
    if action and not ACTION_PREFIX.fullmatch(action):
        errors["action"] = "An action is lower-case letters, digits, '_' and '.' (for example slip.); ignored."
        action = ""
    return Filters(
        site=_chosen(params.get("site", ""), sites, errors, "site", "a site"),
        start=start,
        end=end,
        action=action,
        person=_chosen(params.get("person", ""), employees, errors, "person", "a person"),
    ), errors


def _local_bounds(zone_name: str, start: date | None, end: date | None) -> Q:
    """The moments from `start`'s midnight to the midnight after `end` in the zone `zone_name`."""
    zone = ZoneInfo(zone_name)
    bounds = Q()
    if start:
        bounds &= Q(occurred_at__gte=datetime.combine(start, time.min, tzinfo=zone))
    if end:
        bounds &= Q(occurred_at__lt=datetime.combine(end + timedelta(days=1), time.min, tzinfo=zone))
    return bounds


def events(access: Access, sites: list[Site], filters: Filters) -> QuerySet[AuditEvent]:
    """The events `access` reads, filtered, newest first. Dates are each site's local dates; an
    event of no site is dated in UTC."""
    chosen = [filters.site] if filters.site else sites
    scope = Q()
    for site in chosen:
        scope |= Q(site_id=site.pk) & _local_bounds(site.time_zone, filters.start, filters.end)
    if filters.site is None and AUDIT_LOG.allows(access, None):
        scope |= Q(site__isnull=True) & _local_bounds("UTC", filters.start, filters.end)
    found = (
        AuditEvent.objects.filter(scope, organization_id=access.organization_id) if scope else AuditEvent.objects.none()
    )
    if filters.action:
        found = found.filter(action__startswith=filters.action)
    if filters.person:
        found = found.filter(actor_id=filters.person.user_id)
    return found.select_related("actor__employee", "site").order_by("-pk")


@dataclass(frozen=True)
class Page:
    """A page of events, newest first, found from a place in the log (`?older=<id>`: the events
    before that one; `?newer=<id>`: the page of events after it) by the events' ids, the order in
    which the organization's chain took them, never by counting or skipping the events before
    it: a page costs the same on the first day as with years of events behind it."""

    events: list
    older: int | None  # the id the next page (older events) starts before, or None at the log's start
    newer: int | None  # the id the previous page (newer events) starts after, or None at the newest


def page_of(events: QuerySet[AuditEvent], params) -> Page:
    """The page `params` asks for (`older` or `newer`, an event's id; neither or a malformed one:
    the newest), each side's link found with one more row than the page shows."""
    size = EVENTS_PER_PAGE
    newer_than = limits.record_id(params.get("newer"))
    older_than = None if newer_than is not None else limits.record_id(params.get("older"))
    if newer_than is not None:
        found = list(events.filter(pk__gt=newer_than).order_by("pk")[: size + 1])
        more_newer = len(found) > size
        shown = found[:size][::-1]
        return Page(shown, shown[-1].pk if shown else None, shown[0].pk if shown and more_newer else None)
    if older_than is not None:
        events = events.filter(pk__lt=older_than)
    found = list(events[: size + 1])
    shown = found[:size]
    more_older = len(found) > size
    return Page(shown, shown[-1].pk if more_older else None, shown[0].pk if shown and older_than is not None else None)


@dataclass(frozen=True)
class Change:
    field: str  # the stored key, as the full detail writes it
    before: str
    after: str
    label: str = ""  # the key in words (`field_words`)


@dataclass(frozen=True)
class Row:
    event: AuditEvent
    when: str
    who: str
    initials: str
    action_words: str
    changes: list[Change]
    what: str = ""  # the record in words (`record_name`), its id beside it
    detail: str = ""  # the event's before and after as stored (JSON), under its readable fields


@cache
def _related_by_type() -> dict[str, dict[str, type[Model]]]:
    """{an event's object type (a model's label, a service's event; its table, a row's event):
    {a stored key holding a record's id (a foreign key as a row's snapshot writes it:
    `table_id`, `recorded_by_id`): the record's model}}."""
    found: dict[str, dict[str, type[Model]]] = {}
    for model in apps.get_models():
        keys = {f.attname: f.related_model for f in model._meta.concrete_fields if f.many_to_one}
        found[model._meta.label_lower] = found[model._meta.db_table] = keys
    return found


@cache
def _related_anywhere() -> dict[str, type[Model]]:
    """{a stored key: the record's model} for the keys that name the same model in every model
    (`table_id`, never `recorded_by_id`: an employee in the floor's records, a login in
    surveillance's)."""
    models: dict[str, set] = defaultdict(set)
    for keys in _related_by_type().values():
        for key, model in keys.items():
            models[key].add(model)
    return {key: found.pop() for key, found in models.items() if len(found) == 1}


def related_model(object_type: str, key: str) -> type[Model] | None:
    """The model whose record a stored key holds the id of: the event's own model's foreign key,
    else the one model the key names everywhere (a service's detail beside its record's fields)."""
    own = _related_by_type().get(object_type, {})
    return own[key] if key in own else _related_anywhere().get(key)


def _is_id(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def people_named(employees) -> dict[int, str]:
    """{employee id: "First Last (FL)"} of the reader's organization's employees (`people`, the
    page's list of whom to filter by, read once a page)."""
    return {employee.pk: f"{employee} ({employee.initials})" for employee in employees}


def _at_sites(records: Manager, ids: set[int], sites: list[Site]) -> QuerySet:
    return records.filter(pk__in=ids, site__in=sites).select_related("site")


# The records of a site a stored id may name, each read in one query a page at the reader's sites
# (`names_on`), and named as the app names them (`str`: "Blackjack table 3", "Books of Elks
# 2026-11-03", "Fill slip #12", "Drop box 3A", "Elks 2026-11-03" for a gaming day).
SITE_RECORDS: dict[str, Callable[[set[int], list[Site]], Iterable[Model]]] = {
    "cardroom.table": partial(_at_sites, Table.objects),
    "accounting.booksclose": published.closed_books_among,
    "floor.gamingday": partial(_at_sites, GamingDay.objects),
    "floor.slip": partial(_at_sites, Slip.objects),
    "counts.dropbox": partial(_at_sites, DropBox.objects),
}


@dataclass(frozen=True)
class Names:
    """The records a page's events name by id, in words: {a model's label: {id: words}}. A stored
    id of no record here (at a site the reader does not read, or gone) is shown as the id; the
    full detail keeps every id."""

    by_model: dict[str, dict[int, str]]

    def of(self, object_type: str, key: str, value) -> str | None:
        model = related_model(object_type, key)
        if model is None or not _is_id(value):
            return None
        return self.by_model.get(model._meta.label_lower, {}).get(value)


def _ids_named(events) -> dict[str, set[int]]:
    """{a model's label: the ids the events' stored values hold of its records}."""
    wanted: dict[str, set[int]] = defaultdict(set)
    for event in events:
        for values in (event.before, event.after):
            for key, value in values.items() if isinstance(values, dict) else ():
                model = related_model(event.object_type, key)
                if model is not None and _is_id(value):
                    wanted[model._meta.label_lower].add(value)
    return wanted


def names_on(events, sites: list[Site], employees: list[Employee]) -> Names:
    """The records the page's events name by id, in words: a person from the page's own list of
    the organization's employees (by employee, or by login), a site from the reader's sites, and
    each kind of `SITE_RECORDS` the page names read in one query, at the reader's sites only (a
    reader never learns the name of a record at a site they do not read): the page's queries stay
    as many whatever its events."""
    person = people_named(employees)
    by_model = {
        Employee._meta.label_lower: person,
        get_user_model()._meta.label_lower: {e.user_id: person[e.pk] for e in employees},
        Site._meta.label_lower: {site.pk: site.name for site in sites},
    }
    named = _ids_named(events)
    for label, read in SITE_RECORDS.items():
        # Every kind read, whether or not the page names one (`NO_RECORD` then: the query still
        # runs and finds none), so the page's queries are as many whatever its events hold.
        ids = named.get(label) or {NO_RECORD}
        by_model[label] = {record.pk: str(record) for record in read(ids, sites)}
    return Names(by_model)


NO_RECORD = 0  # an id no row holds (ids start at 1): a kind's query with none of its records named


def _value(values: dict | None, field: str, site: Site | None, named: Names | None, object_type: str) -> str:
    if not isinstance(values, dict) or field not in values or values[field] is None:
        return ""  # absent, or empty: not the JSON word "null"
    words = named.of(object_type, field, values[field]) if named else None
    if words is not None:
        return words  # "First Last (FL)", "Blackjack table 3": the record, not its id
    return readable(values[field], site, field)


MOMENT = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}")  # an ISO 8601 moment as the events store it


def when(site: Site | None, moment: datetime) -> str:
    """A moment as the page writes it: the site's local time with its zone, UTC for no site."""
    return shown(site, moment) if site else moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def field_words(key: str, site: Site | None = None) -> str:
    """'gaming_date' as 'Gaming date'; 'value_cents' as 'Value' (its amount reads in dollars); a
    table's figures stored under North Dakota's names, and game 21's key, in the words of the
    site's pack ('gross_proceeds_cents' as 'Drop' at a Washington site, 'Gross proceeds' in North
    Dakota: `RevenueWords.stored_names`; 'twenty_one' as 'Blackjack'), as the books name them."""
    named = _pack_names(site).get(key)
    words = named or key.removesuffix("_cents").removesuffix("_id").replace("_", " ").strip() or key
    return words[:1].upper() + words[1:]


def _pack_names(site: Site | None) -> dict[str, str]:
    return {} if site is None else _names_in(site.jurisdiction)


@cache
def _names_in(code: str) -> dict[str, str]:
    """A pack's words for the stored keys, made once a pack, not once a field shown."""
    names = game_names(code)
    return {**revenue_words(code).stored_names, "twenty_one": names.word("21"), "paddlewheel": names.word("PW")}


def _shown_fields(values: dict, site: Site | None) -> list[str]:
    """A stored object's keys in order, the gross proceeds left out beside the drop where the pack
    names them alike (`RevenueWords.gross_column` false: one figure, as the daily table shows it
    once); the full detail below keeps every key."""
    keys = sorted(values)
    if site is not None and "drop_cents" in values and not revenue_words(site).gross_column:
        keys = [k for k in keys if k != "gross_proceeds_cents"]
    if site is not None and "paddlewheel" in values and Game.PADDLEWHEEL not in pack_for(site).games:
        # the books keep an empty paddlewheel line at every site; a pack that deals none names none
        keys = [k for k in keys if k != "paddlewheel"]
    return keys


def readable(value, site: Site | None, key: str = "") -> str:
    """A stored value in words: a list comma-separated, an object as its fields in words, an empty
    one "none"; cents (a key ending in _cents) in dollars; a moment as the page's other moments
    (`when`, to the minute); yes or no for a flag."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int) and key.endswith("_cents"):
        return format_money(value)
    if isinstance(value, list):
        return ", ".join(readable(item, site, key) for item in value) or "none"
    if isinstance(value, dict):
        # A fees or sessions block keeps its own words ("Prizes", not the tables' "Paid out").
        named = None if key in OWN_WORDS else site
        fields = (f"{field_words(k, named)}: {readable(value[k], site, k)}" for k in _shown_fields(value, site))
        return "; ".join(fields) or "none"
    if isinstance(value, str) and MOMENT.match(value):
        return _stored_moment(value, site)
    if key == "game" and site is not None and isinstance(value, str):
        return game_names(site.jurisdiction).word(value)  # "21" as the pack names it ("blackjack")
    return str(value)


# The stored blocks whose keys are their own figures, not the tables' custody under North Dakota's
# names: a session site's receipts, prizes and net, a fees site's fees.
OWN_WORDS = frozenset({"sessions", "fees"})


def _stored_moment(text: str, site: Site | None) -> str:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return text
    return when(site, moment) if moment.tzinfo else moment.strftime("%Y-%m-%d %H:%M")


@cache
def _record_names() -> dict[str, str]:
    """{an event's object type: the record's name in words}: a model's "app.model" label (a
    service's event) and its table (a row's event), as "Filing receipt"."""
    names = {}
    for model in apps.get_models():
        words = str(model._meta.verbose_name)
        words = words[:1].upper() + words[1:]
        names[model._meta.label_lower] = names[model._meta.db_table] = words
    return names


def record_name(object_type: str) -> str:
    """'statefiling.filingreceipt' or 'cage_bankcountline' as 'Filing receipt' or 'Bank count line'
    (the type as stored where no model has it)."""
    return _record_names().get(object_type, object_type)


def changes(before, after, site: Site | None = None, named: Names | None = None, object_type: str = "") -> list[Change]:
    """The fields of `before` and `after`, each with its value in both in words (`readable`;
    blank where absent; a record named by id, of the event's `object_type`, as the record, from
    `named`); a value that is no object (a list, a number) is shown as one field, "value"."""
    before = before if isinstance(before, dict) or before is None else {"value": before}
    after = after if isinstance(after, dict) or after is None else {"value": after}
    fields = _shown_fields({**(before or {}), **(after or {})}, site)
    return [
        Change(
            f,
            _value(before, f, site, named, object_type),
            _value(after, f, site, named, object_type),
            field_words(f, site),
        )
        for f in fields
    ]


def action_words(action: str) -> str:
    """'gaming_day.opened' as 'Gaming day opened'."""
    words = action.replace(".", " ").replace("_", " ").strip()
    return words[:1].upper() + words[1:]


def shared_zone(sites: list[Site]) -> Site | None:
    """A site standing for the reader's sites' one time zone, where they share one (None: several
    zones, or none): an event of no site is shown in it."""
    zones = {site.time_zone for site in sites}
    return sites[0] if len(zones) == 1 else None


def row(event: AuditEvent, zone_of: Site | None = None, named: Names | None = None) -> Row:
    actor = event.actor
    employee = getattr(actor, "employee", None) if actor is not None else None
    name = (actor.get_full_name() or actor.get_username()) if actor is not None else event.actor_label
    stored = {"before": event.before, "after": event.after}
    return Row(
        event=event,
        when=when(event.site or zone_of, event.occurred_at),
        who=name,
        initials=employee.initials if employee else "",
        action_words=action_words(event.action),
        changes=changes(event.before, event.after, event.site, named, event.object_type),
        what=record_name(event.object_type),
        detail=json.dumps(stored, indent=2, sort_keys=True, ensure_ascii=False),
    )
