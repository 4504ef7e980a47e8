"""`python -m benchmarks.inprocess [--requests 40] [--pages daily,dashboard] [--profile daily]`:
the figures pages in process (issue 37), against their floor on the same database.

No server, no crowd: Django's test Client, signed in as the demo's gaming manager, asks the
signed-in floor page (`/signed-in/`: the session and the user only) and each page in turns, a
request each, `--requests` times after one warm request each, and prints each page's median
over the floor's median, in wall time and in the process's CPU time (which leaves out waiting
for a CPU other jobs hold), with the machine reading (`benchmarks.machine`) before and after.
This is the quick reading behind bench_http's daily and dashboard ratios: the same code path
without gunicorn, so old and new code can be run in turns against one demo database
(`DATABASE_URL`; production settings as bench_http serves them: DEBUG off).
`--profile PAGE` prints cProfile's top functions for one request of PAGE instead."""

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import time

PAGES = {"daily": "/dashboard/daily/", "dashboard": "/dashboard/", "slips": "/floor/queues/", "floor": "/signed-in/"}
MANAGER = "gm"  # the demo's gaming manager


def _setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "0")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("SECRET_KEY", "benchmarks-inprocess-only")  # a session of this process only
    os.environ.setdefault("STATIC_ROOT", "/tmp/bench-inprocess-static")  # production's hashed static files
    import django
    from django.core.management import call_command

    django.setup()
    call_command("collectstatic", interactive=False, verbosity=0)


def _client():
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.get(username=MANAGER))
    return client


def _get(client, url: str) -> tuple[float, float]:
    """Milliseconds of wall time and of this process's CPU time the request took."""
    started, cpu = time.perf_counter(), time.process_time()
    response = client.get(url, secure=True)  # production redirects plain HTTP
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    if response.status_code != 200:
        raise SystemExit(f"{url}: {response.status_code}")
    return elapsed * 1000, cpu * 1000


def main(argv=None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--pages", default="daily,dashboard")
    parser.add_argument("--profile", choices=sorted(PAGES))
    args = parser.parse_args(argv)
    _setup()
    from benchmarks.machine import loop_seconds

    client = _client()
    if args.profile:
        url = PAGES[args.profile]
        _get(client, url)
        profiler = cProfile.Profile()
        profiler.enable()
        _get(client, url)
        profiler.disable()
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("cumulative").print_stats(60)
        return
    names = ["floor", *args.pages.split(",")]
    before = loop_seconds()
    times: dict = {name: [] for name in names}
    for name in names:
        _get(client, PAGES[name])  # warm: compiled queries, templates, menus
    for _ in range(args.requests):
        for name in names:
            times[name].append(_get(client, PAGES[name]))
    after = loop_seconds()
    # Wall time, and CPU time: on a machine other jobs share, a request waits for the CPU too;
    # the process's own CPU time leaves that wait out.
    floor = [statistics.median(t[i] for t in times["floor"]) for i in (0, 1)]
    print(f"floor: median {floor[0]:.1f} ms, CPU {floor[1]:.1f} ms")
    for name in names[1:]:
        wall, cpu = (statistics.median(t[i] for t in times[name]) for i in (0, 1))
        print(
            f"{name}: median {wall:.1f} ms, {wall / floor[0]:.2f}x the floor; "
            f"CPU {cpu:.1f} ms, {cpu / floor[1]:.2f}x the floor's"
        )
    print(f"machine loop {before:.2f} s before, {after:.2f} s after")


if __name__ == "__main__":
    main()
