import os
from contextlib import contextmanager

from django.test.utils import override_settings

from cardroom import demo_progress
from cardroom.demo import DEMO_PASSWORD, DEMO_PIN, PEOPLE, PIN_HOLDERS, STATIONS, load_demo, secrets_hashed_once
from cardroom.management.base import DatabaseCommand


class Command(DatabaseCommand):
    help = "Load the demo organization, sites, tables, chips and one login per role (idempotent)."

    def handle(self, *args, **options):
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
        port = os.environ.get("PORT", "8000")  # `make run PORT=8123`
        self.stdout.write(self.style.SUCCESS(f"Demo data ready: http://127.0.0.1:{port}/"))
        self.stdout.write(f"Every demo login uses the password {DEMO_PASSWORD!r}:")
        for login, first, last, _, role, _, sites in PEOPLE:
            where = "all sites" if sites == "*" else ", ".join(demo["sites"][k].name for k in sites.split())
            self.stdout.write(f"  {login:<9} {role.label:<20} {first} {last} ({where})")
        stations = ", ".join(username for username, _ in STATIONS)
        self.stdout.write(
            f"Shared terminals at {demo['sites']['busy'].name}: {stations} (same password); on them each step is "
            f"initialled with a badge (the person's initials) and PIN {DEMO_PIN} ({', '.join(PIN_HOLDERS)})."
        )


@contextmanager
def _queries_not_logged():
    """DEBUG (the development default) keeps the text of every query (connection.queries), and
    on SQLite Django builds that text by sending one more statement per query (SQLite quotes the
    parameters): the demo's ~100,000 statements would cost twice their time for a log nothing
    reads. The build runs with DEBUG off; settings.DEBUG is read nowhere else at run time."""
    with override_settings(DEBUG=False):
        yield


def _extensions():
    """The domain apps' demo builders, in dependency order: the Washington and New York packs'
    organizations, sites and tables first (the approvals and fees demos look them up), then custody (gaming days, slips),
    then the counts of those days' boxes, the cage (bank counts, closing the books, deposits),
    the books (the previous quarter filed, one amendment), the surveillance records and tonight's
    tournament; last, the compliance checks as the schedule runs them (compliance.demo)."""
    from accounting.demo_books import extend_demo as books
    from approvals.demo import extend_demo as approvals
    from cage.demo import extend_demo as cage
    from cardroom.pack_demo import extend_demo as packs
    from compliance.demo import extend_demo as compliance
    from counts.demo import extend_demo as counts
    from fees.demo import extend_demo as fees
    from floor.demo import extend_demo as custody
    from surveillance.demo import extend_demo as surveillance
    from tournaments.demo import extend_demo as tournaments

    return (
        ("Washington and New York packs", packs),
        ("gaming days and slips", custody),
        ("drop counts", counts),
        ("cage: bank counts, closed books, deposits", cage),
        ("quarterly books", books),
        ("surveillance records", surveillance),
        ("tournament", tournaments),
        ("game approvals", approvals),
        ("fee collections", fees),
        ("compliance checks, as the nightly schedule runs them", compliance),
    )
