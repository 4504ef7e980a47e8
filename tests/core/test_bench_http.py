"""`manage.py bench_http` (issue 18): it starts gunicorn itself against the database, sends a
bounded load to the dashboard, the daily figures page and the slip queues as the gaming
manager, prints one line a page in the agreed form, every response a 200, and stops the server."""

import re
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from cardroom.models import Role
from tests.accounting.scenario import Scenario
from tests.factories import TableFactory

LINE = re.compile(r"^(floor|dashboard|daily|slips): \d+\.\d req/s, p50 \d+ ms, p95 \d+ ms$")
OVER = re.compile(r"^(dashboard|daily|slips) over floor: p95 \d+\.\d\dx \(target 3x\), throughput ratio \d+\.\d\d")


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)  # committed: the server's workers read the data
def test_bench_http_prints_one_line_a_page_from_a_server_it_starts_and_stops(site, cast):
    people = {
        "shift": cast[Role.SHIFT_MANAGER],
        "cashier": cast[Role.CASHIER],
        "count1": cast[Role.COUNT_TEAM],
        "count2": cast[Role.SHIFT_MANAGER],
    }
    yesterday = timezone.localdate() - timedelta(days=1)
    scenario, table = Scenario(site, people), TableFactory(site=site, number=1)
    scenario.tray(table, yesterday, "opener", 200_000)
    scenario.slip(table, yesterday, "fill", 20_000, number=1)
    scenario.tray(table, yesterday, "closer", 190_000)

    out = StringIO()
    manager = cast[Role.GAMING_MANAGER].user.username
    call_command("bench_http", "--clients", "1", "--requests", "1", "--workers", "1", "--user", manager, stdout=out)

    lines = out.getvalue().splitlines()
    # The floor (a signed-in page reading the session and the user only) before and after the
    # pages, under the same crowd; each page over it; the machine reading; the worst ratio.
    pages = lines[:5]
    assert [line.split(":")[0] for line in pages] == ["floor", "dashboard", "daily", "slips", "floor"], lines
    assert all(LINE.match(line) for line in pages), lines
    assert all(OVER.match(line) for line in lines[5:8]), lines
    assert lines[8].startswith("machine: a fixed Python loop"), lines
    assert re.match(r"^ratio to floor: \d+\.\d\d \(target 3\)", lines[9]), lines


def _result(name, rate, p95_ms):
    from core.management.commands.bench_http import Result

    return Result(name, requests=int(rate), seconds=1.0, latencies_ms=(p95_ms,), failures={})


def test_the_verdict_is_missed_when_a_page_makes_less_than_a_third_of_the_floors_requests():
    """Issue 37's second target for the pages (throughput at least a third of the floor's) is the
    last line's verdict too: a page within 3x at p95 but slower than a third says MISSED, naming it."""
    from benchmarks import floors
    from core.management.commands.bench_http import Command

    machine = floors.Machine()
    machine.before = machine.after = 0.5
    floor = _result("floor", 600, 10)
    buffer = StringIO()
    Command(stdout=buffer)._ratios([_result("dashboard", 300, 20), _result("daily", 190, 25)], floor, floor, machine)
    out = buffer.getvalue().splitlines()
    assert out[1].startswith("daily over floor: p95 2.50x (target 3x), throughput ratio 0.32"), out
    assert out[-1] == (
        "ratio to floor: 2.50 (target 3) - throughput MISSED (daily 0.32 of the floor's, target at least 0.33)"
    ), out

    buffer = StringIO()
    Command(stdout=buffer)._ratios([_result("dashboard", 300, 20), _result("daily", 200, 25)], floor, floor, machine)
    assert buffer.getvalue().splitlines()[-1] == "ratio to floor: 2.50 (target 3)"
