"""Who may see and do what, where.

A person sees the sites they hold a role at; a gaming manager or auditor role held at
"all sites" (or at any site) extends to every site of their organization. Objects outside
that scope are filtered out of every queryset, so they answer 404; a visible object the
role may not act on answers 403.
"""

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet

from core.plurals import one_of
from core.rules import HOUSE_CONTROL

from .models import ORG_WIDE_ROLES, Employee, Membership, Role, Site, Station, role_label
from .site_keeps import house_chips

_CACHE_ATTR = "_cardroom_access"

# The session key of the site the user is working at (the site switcher; `config.middleware`).
SESSION_KEY = "current_site_id"


class Access:
    """The roles of one user, loaded once per request."""

    def __init__(self, user):
        self.user = user
        self.employee: Employee | None = None
        self.org_roles: set[str] = set()
        self.site_roles: dict[int, set[str]] = {}
        self.station: Station | None = None
        self._org_sites: frozenset[int] | None = None
        if user is None or not user.is_authenticated:
            return
        # The employee with their roles in one query (every page asks); an employee without any
        # role, or a login without an employee, takes a second.
        held = list(
            Membership.objects.filter(employee__user=user, employee__active=True)
            .select_related("employee__organization", "employee__user")
            .order_by()
        )
        self.employee = (
            held[0].employee
            if held
            else Employee.objects.select_related("organization", "user").filter(user=user, active=True).first()
        )
        if self.employee is None:
            # A shared terminal sees its site's forms and holds no role: every step on it is
            # initialled with a person's PIN (cardroom.pins).
            self.station = Station.objects.select_related("site").filter(user=user, active=True).first()
            return
        for site_id, role in ((m.site_id, m.role) for m in held):
            if role in ORG_WIDE_ROLES:
                self.org_roles.add(role)
            else:
                self.site_roles.setdefault(site_id, set()).add(role)

    def employee_org(self):
        return self.require_employee().organization

    def require_employee(self) -> Employee:
        if self.employee is None:
            raise PermissionDenied(NOT_AN_EMPLOYEE)
        return self.employee

    @property
    def organization_id(self) -> int | None:
        if self.station is not None:
            return self.station.site.organization_id
        return self.employee.organization_id if self.employee else None

    def sites(self) -> QuerySet[Site]:
        if self.station is not None:
            return Site.objects.filter(pk=self.station.site_id)
        if self.employee is None:
            return Site.objects.none()
        qs = Site.objects.filter(organization_id=self.organization_id)
        return qs if self.org_roles else qs.filter(pk__in=list(self.site_roles))

    def roles_at(self, site_id: int | None) -> set[str]:
        """The roles held at `site_id` (None: the organization-wide ones): an organization-wide
        role extends to the organization's own sites only, never to another's site id."""
        here = self.site_roles.get(site_id, set())
        if site_id is None or site_id in self.site_roles or self._is_own_site(site_id):
            return set(self.org_roles) | here
        return set(here)

    def _is_own_site(self, site_id: int) -> bool:
        """Is `site_id` a site of this login's organization? Asked only where an organization-wide
        role is held and the login has no role of its own there. The ids are the ones the
        request's site switcher read (`note_sites`), or read here; a site not among them is read
        again (one made since: a new site, the demo's), so a foreign id costs a query each time."""
        if not self.org_roles:
            return False
        if self._org_sites is None or site_id not in self._org_sites:
            ids = Site.objects.filter(organization_id=self.organization_id).values_list("pk", flat=True)
            self._org_sites = frozenset(ids)
        return site_id in self._org_sites

    def note_sites(self, sites: list[Site]) -> None:
        """The request's `sites()`, read by the middleware: for an organization-wide role they
        are every site of the organization, so `roles_at` need not read them again."""
        if self.org_roles and self.station is None:
            self._org_sites = frozenset(s.pk for s in sites)

    def all_roles(self) -> set[str]:
        roles = set(self.org_roles)
        for site_roles in self.site_roles.values():
            roles |= site_roles
        return roles

    def has_role(self, site_id: int | None, *roles: str) -> bool:
        return bool(self.roles_at(site_id) & set(roles))

    def can_see_site(self, site: Site) -> bool:
        if self.station is not None:
            return site.pk == self.station.site_id
        if self.employee is None or site.organization_id != self.organization_id:
            return False
        return bool(self.org_roles) or site.pk in self.site_roles

    @property
    def is_gaming_manager(self) -> bool:
        return Role.GAMING_MANAGER in self.org_roles


def current_site(request) -> Site:
    """The request's current site (`request.site`, chosen by config.middleware), for a page that
    shows a site's records. None: a login that is no card room's employee (an agency's registry
    staff) is refused with the rule (403); an employee holding no role at any site finds none (404)."""
    from django.http import Http404

    site = getattr(request, "site", None)
    if site is not None:
        return site
    if access_for(request.user).employee is None:
        raise PermissionDenied(f"{HOUSE_CONTROL}: the card room's pages are its staff's.")
    raise Http404("You hold no role at any site.")


def access_for(user) -> Access:
    cached = getattr(user, _CACHE_ATTR, None)
    if cached is None:
        cached = Access(user)
        if user is not None:
            setattr(user, _CACHE_ATTR, cached)
    return cached


def forget_access(user) -> None:
    if hasattr(user, _CACHE_ATTR):
        delattr(user, _CACHE_ATTR)


NOT_AN_EMPLOYEE = f"{HOUSE_CONTROL}: only an employee of the organization may act here; this login has none."


def roles_text(roles, site: Site | None = None) -> str:
    """'a shift manager, pit boss or chip bank cashier': the roles, in the order of `Role`, as
    `site` names them ("cashier" at a fees room, `role_label`)."""
    wanted = {str(r) for r in roles}
    labels = [role_label(role, site).lower() for role in Role if role.value in wanted]
    text = one_of(labels)
    return f"{'an' if text[0] in 'aeiou' else 'a'} {text}"


def refusal(rule: str, roles, action: str, site: Site | None = None) -> str:
    """The text of a 403: the section (or "House control") and who may act, as `site` names them.
    For example "ND 99-01.3-08-05(3): only a shift manager, pit boss or chip bank cashier may
    prepare a fill slip." """
    return f"{rule}: only {roles_text(roles, site)} may {action}."


def require_role(user, site: Site | None, *roles: str, action: str, rule: str) -> Access:
    """Raise PermissionDenied naming `rule` (the section that says who may act, or
    HOUSE_CONTROL) and the roles that may perform `action` at `site`."""
    access = access_for(user)
    site_id = site.pk if site is not None else None
    if site is not None and site.organization_id != access.organization_id:
        raise PermissionDenied(f"{HOUSE_CONTROL}: only the site's own organization may {action} there.")
    if not access.has_role(site_id, *roles):
        raise PermissionDenied(refusal(rule, roles, action, site))
    return access


def require_gaming_manager(user, organization_id: int, *, action: str) -> Access:
    access = access_for(user)
    if access.organization_id != organization_id or not access.is_gaming_manager:
        raise PermissionDenied(f"{HOUSE_CONTROL}: only a gaming manager of the organization may {action}.")
    return access


@dataclass(frozen=True)
class ReadRule:
    """Who may read one kind of record at a site, and the rule that says so. One instance per
    kind of figures, used by its API, its pages and the stored reports that contain them."""

    roles: frozenset[str]
    rule: str  # a section, or HOUSE_CONTROL
    what: str  # "see a site's daily figures"
    # A pit terminal reads it too, at its own site (one of the pit's reads, STATION_READS); no
    # other station does, holding no role.
    pit_station_reads: bool = False

    def allows(self, access: Access, site_id: int | None) -> bool:
        if access.station is not None:
            station = access.station
            return self.pit_station_reads and station.site_id == site_id and station.presents(Station.Kind.PIT)
        return access.has_role(site_id, *self.roles)

    def held_somewhere(self, access: Access) -> bool:
        """Whether `access` holds one of the rule's roles at one of its sites at least: the pages
        that list every site's records open to it (a station holds no role)."""
        return bool(access.all_roles() & self.roles)

    def site_ids(self, access: Access) -> list[int]:
        """The sites of `access` where this rule lets the user read."""
        return [site.pk for site in access.sites() if self.allows(access, site.pk)]

    def sites(self, access: Access) -> QuerySet[Site]:
        """`site_ids` as a query, run by the caller (a subquery costs no query of its own): every
        site of `access` where one of the rule's roles is held organization-wide, else the sites
        where one is held there."""
        if self.roles & access.org_roles:
            return access.sites()
        return access.sites().filter(pk__in=[pk for pk, held in access.site_roles.items() if held & self.roles])

    def refusal(self, because: str = "", site: Site | None = None) -> str:
        return refusal(self.rule, self.roles, f"{self.what}{because}", site)

    def require(self, user, site: Site, *, because: str = "") -> Access:
        """`because` completes the refusal: " (the daily report holds them)"."""
        access = access_for(user)
        if not self.allows(access, site.pk):
            raise PermissionDenied(self.refusal(because, site))
        return access


# Who reads a co-worker's personnel record in full (login name, state identifier, employment
# type, supervisor, independent contractor): whoever manages people, the gaming manager (every
# write to employees, roles and relations is theirs: `require_gaming_manager`), and the auditor,
# who audits those records (the count team's independence rests on them, ND 99-01.3-08-14(2);
# the dealers' hold is filed by state identifier). Who reads them is a house control: no text
# states it. Anyone else reads of a co-worker only what the floor needs to name them
# (`reads_personnel_of`), and their own record in full.
PERSONNEL = ReadRule(
    roles=frozenset({Role.GAMING_MANAGER, Role.AUDITOR}),
    rule=HOUSE_CONTROL,
    what="read a co-worker's personnel record",
)


def reads_personnel_of(access: Access, employee: Employee) -> bool:
    """May `access` read `employee`'s personnel record? Their own, always; a co-worker's, by
    `PERSONNEL` (both its roles are organization-wide); a platform operator (a superuser), the
    first gaming manager it creates (`create_organization`)."""
    if access.user is not None and access.user.is_superuser:
        return True
    if access.employee is None or access.organization_id != employee.organization_id:
        return False
    return access.employee.pk == employee.pk or PERSONNEL.allows(access, None)


@dataclass(frozen=True)
class StationReads:
    """What a station (a shared terminal: no employee and no role, cardroom.models.Station) reads
    by itself, without a person's badge and PIN: the API endpoints, by route name, that its
    site's pit screen and slip forms need. Every other read is refused (house control): count
    figures, cage money, the day's and quarter's figures, reports, people. A step taken on it is
    initialled with a PIN (cardroom.pins), and the step's answer shows that person what it needs."""

    endpoints: frozenset[str]
    rule: str
    what: str
    every_station: frozenset[str] = frozenset({"api_me"})  # what a count tablet reads too

    def allows(self, access: Access, endpoint: str | None) -> bool:
        if access.station is None or endpoint in self.every_station:
            return True
        return endpoint in self.endpoints and access.station.presents(Station.Kind.PIT)

    def refusal(self) -> str:
        return f"{self.rule}: a station reads only {self.what}; sign in as yourself to read anything else."


# The API routes (`router.register` basenames) of the pit's records, read as a list or one by one.
_PIT_ROUTES = "site table chip-denomination gaming-day dealer-shift slip-book fill-slip credit-slip card-check".split()

STATION_READS = StationReads(
    endpoints=frozenset(
        {"api_me", "custody-queues-list", "slip-register-list", "gaming-day-open-items"}
        | {f"{route}-{view}" for route in _PIT_ROUTES for view in ("list", "detail")}
    ),
    rule=HOUSE_CONTROL,
    what=(
        "what its site's pit needs (its tables, chips, gaming days and their open items, dealers on shift, "
        "slip books, fill and credit slips, the tables' card checks, the slip register and the slips waiting)"
    ),
)


# The apps whose pages and API a station presents only if its kind is theirs (house control).
# The fees app's station work is the pit's: a table fee collected at the table on the pit
# terminal (fees.pit, WA-BJ); no count tablet page offers a fee.
STATION_WORK = {"floor": Station.Kind.PIT, "counts": Station.Kind.COUNT, "fees": Station.Kind.PIT}
# Of those, the pages (route names) every kind presents: the drop boxes' custody (registered,
# placed on a table and removed at the tables, 08-14(1)), worked from the pit or the count room.
EVERY_STATION = frozenset({"boxes", "remove_all"})
EVERY_STATION_ROUTES = ("drop-box-",)  # the drop boxes' API routes
# And the work of those apps that no station's page presents, whatever its kind: a person's at
# their own login (house control), by app: its page and API route names, and what it is. Only its
# writes are refused here; a station's reads are `STATION_READS`', which reads none of it. The fee
# cash count is on the fees page only, whose counters sign in as themselves (fees.views); a count
# adjustment is a gaming manager's approval, on no station's page (the count tablet presents the
# count team's sessions: counting, resolving, explaining, signing).
PERSON_WORK = {
    "fees": (frozenset({"count", "fee-count-list"}), "the fee cash count"),
    "counts": (frozenset({"count-session-adjustments"}), "a count adjustment"),
}


def work_forms(kind: str, site) -> str:
    """The forms a station of `kind` presents at `site`, in the site's words: a pit terminal's slips
    where the house's chips go to the tables, its table fees at a fees room (`site_keeps.house_chips`),
    never the other's (a North Dakota pit has no table fees)."""
    if kind == Station.Kind.COUNT:
        return "the count room's forms (count sessions)"
    if site is None:  # no site to ask: every pack's
        return "the pit's forms (tables, and fill and credit slips or table fees)"
    return f"the pit's forms (tables, {'fill and credit slips' if house_chips(site) else 'table fees'})"


def station_refusal(access: Access, app: str | None, route: str | None = None, *, writes: bool = True) -> str | None:
    """Why a station may not present the pages or API of `app` (an app label; `route`, the page's
    or API route's name): a pit terminal presents no count room's forms, a count tablet no pit's
    (`Station.kind`; house control: a tablet in the count room is not a terminal for slips or
    fees); the drop boxes' custody is either's; the work of `PERSON_WORK` is neither's (a write:
    `writes` False, a read, is left to `STATION_READS`, which reads none of it). None where it
    may, or for a person."""
    work = STATION_WORK.get(app or "")
    station = access.station
    if station is None or work is None:
        return None
    routes, what = PERSON_WORK.get(app or "", (frozenset(), ""))
    if writes and route in routes:
        return (
            f"{HOUSE_CONTROL}: {station.name} is a {station.get_kind_display().lower()}: no station presents "
            f"{what}, a person's work at their own login. Sign in as yourself."
        )
    if station.presents(work):
        return None
    if route in EVERY_STATION or (route or "").startswith(EVERY_STATION_ROUTES):
        return None
    return (
        f"{HOUSE_CONTROL}: {station.name} is a {station.get_kind_display().lower()}: it presents "
        f"{work_forms(station.kind, station.site)}, not {work_forms(work, station.site)}. Use a "
        f"{Station.Kind(work).label.lower()}, or sign in as yourself."
    )


class Signer:
    """The acting user of one step entered from paper (a day sheet): the services check the
    roles of, and record as having done the step, the employee who signed the paper (`signer`),
    while the audit log records `entered_by`, the login that entered it, as the actor
    (core.audit.record_event). Only built by code that has checked that `entered_by` may
    enter the paper at the site (accounting.day_sheets)."""

    is_authenticated = True
    is_anonymous = False

    def __init__(self, entered_by, signer: Employee):
        self.entered_by = entered_by
        self.signer = signer
        setattr(self, _CACHE_ATTR, Access(signer.user))  # the signer's own roles, employee and sites

    def get_username(self) -> str:
        return self.entered_by.get_username()

    def __str__(self):
        return f"{self.signer} (entered by {self.entered_by.get_username()})"


class PinSigner:
    """The person who initialled a step on a shared terminal with their badge and PIN
    (cardroom.pins.signer_for): they act as themselves, so the services check their own roles,
    sites and rules exactly as when they are logged in, and the audit log records them as the
    actor with the terminal noted in `after["station"]` (core.audit.record_event). Only
    built once the PIN is checked."""

    is_authenticated = True
    is_anonymous = False

    def __init__(self, terminal, signer: Employee):
        self.terminal = terminal  # the login the terminal is signed in as
        self.signer = signer
        self.user = signer.user
        self.pk = signer.user.pk
        setattr(self, _CACHE_ATTR, Access(signer.user))

    def get_username(self) -> str:
        return self.user.get_username()

    def __str__(self):
        return f"{self.signer} (PIN at {self.terminal.get_username()})"
