import hashlib
import os
import sys
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from django.core.management.base import CommandError
from django.test.utils import override_settings
from django.utils import timezone

from cardroom.demo import (
    DEMO_PASSWORD,
    DEMO_PIN,
    PEOPLE,
    PIN_HOLDERS,
    SITES,
    STATIONS,
    load_demo,
    loaded_for,
    mark_loaded,
    secrets_hashed_once,
)
from cardroom.models import Site
from cardroom.pack_demo import PIN_HOLDERS as PACK_PIN_HOLDERS
from cardroom.pack_demo import SITES as PACK_SITES
from cardroom.pack_demo import foreign_organizations
from core import demo_progress
from core.management.base import DatabaseCommand


class Command(DatabaseCommand):
    help = (
        "Load the demo organizations, sites, tables, chips, logins and activity (idempotent; refused on a "
        "database holding an organization the demo did not make)."
    )

    def handle(self, *args, **options):
        foreign = foreign_organizations()
        if foreign:
            shown = ", ".join(foreign[:3]) + (f" and {len(foreign) - 3} more" if len(foreign) > 3 else "")
            raise CommandError(
                f"The database holds organizations the demo did not make ({shown}): the demo loads only into an "
                "empty database or its own; nothing was written. Use another VAR_DIR or DATABASE_URL."
            )
        # What every builder dates its records from, and the builders' code: a demo built by other
        # code (an earlier checkout's) is built again, its builders finding their records and
        # adding or withdrawing what changed (`cardroom.pack_demo.WITHDRAWN`).
        stamp = {"dates": demo_dates(), "code": builders_code()}
        if loaded_for() == stamp:
            # Built to its end for these dates by this code already: every builder would find its records, write none.
            self.stdout.write(
                f"The demo is already loaded (its records through {timezone.localdate()}): nothing was written."
            )
            with _queries_not_logged():
                demo = load_demo()  # the organization, sites and people it finds, for the logins below
        else:
            demo = self._build()
            mark_loaded(demo, stamp)
        port = os.environ.get("PORT", "8000")  # `make run PORT=8123`
        self.stdout.write(self.style.SUCCESS(f"Demo data ready: http://127.0.0.1:{port}/"))
        self.stdout.write(f"Every demo login uses the password {DEMO_PASSWORD!r}:")
        for line in demo_logins(demo):
            self.stdout.write(f"  {line}")
        self.stdout.write(
            f"On the shared terminals each step is initialled with a badge (the person's initials) and "
            f"PIN {DEMO_PIN} ({', '.join(PIN_HOLDERS + PACK_PIN_HOLDERS)})."
        )

    def _build(self) -> dict:
        extensions = _extensions()
        # A bar on a terminal, a line per step otherwise (make run's log, CI).
        with (
            _queries_not_logged(),
            secrets_hashed_once(),
            demo_progress.reporting(1 + len(extensions), self.stdout._out),
        ):
            with demo_progress.step("organizations, sites, tables, people"):
                demo = load_demo()
            for label, extend in extensions:
                with demo_progress.step(label):
                    extend(demo)
        return demo


def demo_logins(demo: dict) -> list[str]:
    """One line per demo login: the North Dakota people, the shared terminals, and the
    Washington and New York packs' people and terminals (cardroom.pack_demo), with role and sites."""
    from cardroom import pack_demo

    lines = []
    for login, first, last, _, role, _, sites in PEOPLE:
        where = "all sites" if sites == "*" else ", ".join(demo["sites"][k].name for k in sites.split())
        lines.append(f"{login:<10} {role.label:<20} {first} {last} ({where})")
    busy = demo["sites"]["busy"].name
    lines += [f"{username:<10} {'Shared terminal':<20} {name} ({busy})" for username, name, _ in STATIONS]
    for key, organization in pack_demo.ORGANIZATIONS.items():
        login, first, last, _ = organization["manager"]
        sites = ", ".join(values["name"] for org_key, values in pack_demo.SITES.values() if org_key == key)
        lines.append(f"{login:<10} {'Gaming manager':<20} {first} {last} ({organization['name']}: {sites})")
        for login, first, last, _, role, _, org_key, site_keys in pack_demo.PEOPLE:
            if org_key == key:
                where = ", ".join(pack_demo.SITES[k][1]["name"] for k in site_keys.split())
                lines.append(f"{login:<10} {role.label:<20} {first} {last} ({where})")
        for username, name, site_key in pack_demo.STATIONS:
            if pack_demo.SITES[site_key][0] == key:
                lines.append(f"{username:<10} {'Shared terminal':<20} {name} ({pack_demo.SITES[site_key][1]['name']})")
    from statefiling.demo import AGENCY, PACK_AGENCIES, SUPERVISOR

    lines.append(f"{'state':<10} {'State auditor':<20} Dana Olson ({AGENCY}: /registry/)")
    login, first, last = SUPERVISOR
    lines.append(f"{login:<10} {'State supervisor':<20} {first} {last} ({AGENCY}: /registry/)")
    for agency, login, first, last in PACK_AGENCIES.values():
        lines.append(f"{login:<10} {'State auditor':<20} {first} {last} ({agency}: /registry/)")
    return lines


@contextmanager
def _queries_not_logged():
    """DEBUG (the development default) keeps the text of every query (connection.queries), and
    on SQLite Django builds that text by sending one more statement per query (SQLite quotes the
    parameters): the demo's ~100,000 statements would cost twice their time for a log nothing
    reads. The build runs with DEBUG off; settings.DEBUG is read nowhere else at run time."""
    with override_settings(DEBUG=False):
        yield


def demo_dates() -> list[str]:
    """The dates the builders date their records from, now: the server's date and each demo site's
    own date and gaming date (its zone, its business day's start hour). While none has turned, a
    second load has nothing to add.

    The sites are the builders' (`cardroom.demo.SITES`, `cardroom.pack_demo.SITES`) as well as
    the database's: the first load computes its mark before its builders make the sites, and read
    from the database alone its dates were the server's date only, so loaded while a site's date
    or gaming date was not the server's (from 23:00 in Chicago, when New York's date turns, to
    09:00, when Medora's gaming day opens) the next load found other dates and built it all again,
    writing a `demo.loaded` event and anchoring the moved chain heads at their registries."""
    built = [*SITES.values(), *(site for _, site in PACK_SITES.values())]
    clocks = {(site["time_zone"], site["business_day_start_hour"]) for site in built}
    clocks |= set(Site.objects.values_list("time_zone", "business_day_start_hour"))
    now = timezone.now()
    dates = {timezone.localdate(now)}
    for zone, start_hour in clocks:
        local = now.astimezone(ZoneInfo(zone))
        dates |= {local.date(), (local - timedelta(hours=start_hour)).date()}
    return sorted(str(d) for d in dates)


def builders_code() -> str:
    """A digest of the demo builders' source (`cardroom.demo` and each of `_extensions`'s modules)."""
    digest = hashlib.sha256()
    modules = [sys.modules[load_demo.__module__]] + [sys.modules[extend.__module__] for _, extend in _extensions()]
    for module in modules:
        digest.update(Path(module.__file__).read_bytes())
    return digest.hexdigest()[:16]


def _extensions():
    """The domain apps' demo builders, in dependency order: the Washington and New York packs'
    organizations, sites, tables and chips first (the approvals and fees demos look them up), their
    game approvals (which make Spokane's and Kingston's tables), then custody (gaming days, slips)
    at North Dakota's, Spokane's and Kingston's sites (`cardroom.pack_demo.houses`), then the
    surveillance records (the busy site's surveillance status, equipment, outages and the review log
    of those nights: facts of the site a later record or report reads, so the filed quarterly
    return says the site requires surveillance as its surveillance page does), then the counts of
    those days' boxes, the fee collections and Kingston's sessions (before their books close), the
    tournament (played on the busy site's last night, before the cage counts its bank, whose ending
    count holds its fees less its cash prize), the cage (bank counts, closing the books, deposits;
    that last night left open), the books (the previous quarter filed, one amendment, then that
    last night closed); the compliance checks as the schedule runs them (compliance.demo); last, the
    state's registry receiving the filed quarters with their amendments and PDFs, and the chain
    head (statefiling.demo). The previous quarter's quarterly reports (reports.demo) come just
    before the books file it: a return's document is the report it was filed with."""
    from accounting.demo_books import extend_demo as books
    from approvals.demo import extend_demo as approvals
    from cage.demo import extend_demo as cage
    from cardroom.pack_demo import extend_demo as packs
    from compliance.demo import extend_demo as compliance
    from counts.demo import extend_demo as counts
    from fees.demo import extend_demo as fees
    from floor.demo import extend_demo as custody
    from reports.demo import extend_demo as quarterly_reports
    from statefiling.demo import extend_demo as state_registry
    from surveillance.demo import extend_demo as surveillance
    from tournaments.demo import extend_demo as tournaments

    return (
        ("Washington and New York packs", packs),
        ("game approvals", approvals),
        ("gaming days and slips", custody),
        ("surveillance records", surveillance),  # before any report reads the site's surveillance
        ("drop counts", counts),
        ("fee collections and games-of-chance sessions", fees),
        ("tournament, on the busy site's last night", tournaments),
        ("cage: bank counts, closed books, deposits", cage),
        ("the previous quarter's quarterly reports, before its filing", quarterly_reports),
        ("quarterly books", books),
        ("compliance checks, as the nightly schedule runs them", compliance),
        ("the state's registry: filings received, anchors", state_registry),
    )
