"""`python manage.py bench_pages [--nights N] [--repeat R]`: every page and list endpoint (the URL
conf and the API router, benchmarks/pages.py) as the gaming manager, at the demo's last N play
nights a site and at four times as many: the queries and the least time of `--repeat` requests
(5 by default: one at each size as it is built, then the others at the two sizes in turns,
address by address, the small size kept as a copy of the database before it grew:
`benchmarks.pages.TwoSizes`) at both sizes, then `worst query growth: X` (queries at four times the rows over
queries at the small size, for the worst page; 1.00 is no growth), the same for four times the boxes
counted in the count under way (its queries only: `benchmarks.pages.walk`), the time growth, the machine
reading and `ratio to floor: X (target 1.5)`, the worst page's time at four times the rows over
its own time at the small size.

It builds the demo in a scratch test database of its own (created and destroyed here, as the
test runner does), so demo and real data are never touched."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.test.utils import setup_test_environment, teardown_test_environment

from benchmarks import floors, pages


class Command(BaseCommand):
    help = "Queries and least time of every page and list endpoint at two data sizes; ends with the worst query growth."

    def add_arguments(self, parser):
        parser.add_argument(
            "--nights", type=int, default=pages.SMALL_NIGHTS, help="play nights a site at the small size"
        )
        parser.add_argument(
            "--repeat", type=int, default=5, help="requests per address; the least of their times is kept"
        )

    def handle(self, *args, nights, repeat, **options):
        if nights < 1 or repeat < 1:
            raise CommandError("Give at least one night and one repeat.")
        setup_test_environment(debug=False)
        test = connection.settings_dict.setdefault("TEST", {})
        if connection.vendor == "sqlite":  # not the test runner's file: a test run may be using it
            test["NAME"] = str(Path(settings.VAR_DIR) / "bench-pages.sqlite3")
        else:
            test["NAME"] = f"bench_pages_{connection.settings_dict['NAME']}"
        old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
        try:
            machine = floors.Machine().start()
            comparisons = pages.walk(nights=nights, repeat=repeat, progress=self.stderr.write, in_turns=True)
            machine.stop()
            lines = pages.report(comparisons, nights=nights)
            for line in lines[:-1]:
                self.stdout.write(line)
            self.stdout.write(machine.line())
            self.stdout.write(lines[-1])
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)
            teardown_test_environment()
