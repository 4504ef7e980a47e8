"""Every page and every list endpoint, walked as the gaming manager at two data sizes (issue 18:
"No N+1 anywhere"). Used by `tests/core/test_no_n_plus_one.py` and `manage.py bench_pages`.

The two sizes are the demo's own builders (`load_demo`, the floor's custody, the counts, the
cage and surveillance) run over the last `nights` play nights of every demo site, then over four
times as many nights: the same master data, the same newest records (the data only grows
backwards), four times the custody, counts, bank counts and surveillance rows.

What is walked comes from the URL conf (`django.urls.get_resolver`), not a hand-kept list:
  - every GET route without a path parameter (pages, the API router's lists and the API's
    figure endpoints), the lists with `?limit=` at its maximum so a page is as full as it gets;
  - every route with path parameters, at the first address of it that a walked page links to
    (a detail page at an id picked from the data), walked again from the pages it finds.
The addresses are chosen at the small size and measured again at the large one, so each is
the same object at both sizes.

More nights add sessions, never boxes to a session: a page that reads each box of a count session
looks the same at both sizes. So a count is under way at the busy site, on the newest of its nights
that may play every table (`under_way_night`, its last night walked): its first box counted at the
two sizes, then, at a third size, four times as many boxes counted in it
(`counts.demo.count_under_way`), and every address measured again.
"""

import logging
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS, connection, connections, reset_queries
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.urls.exceptions import Resolver404
from django.utils import timezone

from core import limits

SMALL_NIGHTS = 1  # play nights per site at the small size; the large size has four times as many
GROWTH = 4
UNDER_WAY_SITE = "busy"  # the demo site whose count is under way
UNDER_WAY_BOXES = 1  # its boxes counted at the two sizes; four times as many at the size with more boxes
# Not data pages: sign-in and out, the admin (the manager is not staff in a real room; its
# lists are Django's), the OpenAPI schema and its viewer, the favicon.
SKIP_PREFIXES = (
    "/login/",
    "/logout/",
    "/admin/",
    "/api/schema/",
    "/api/docs/",
    "/favicon.ico",
    "/api/v1/auth/",
    "/switch-site/",
)
MAX_ROUNDS = 3  # link depth followed from the parameterless pages


def load_nights(nights: int, *, under_way: bool = False) -> dict:
    """The demo's master data and the last `nights` play nights of each of its sites (run again
    with more nights to add the earlier ones: every builder is idempotent). With `under_way`, the
    busy site's nights end with its `under_way_night`, whose count is under way (`count_boxes`)."""
    from cage.demo import extend_demo as cage
    from cardroom.demo import load_demo
    from counts.demo import extend_demo as counts
    from floor.demo import build_demo_custody, demo_days, people_at
    from surveillance.demo import extend_demo as surveillance

    demo = load_demo()
    today = timezone.localdate()
    for key, site in demo["sites"].items():
        days = demo_days(key, site, today)
        if under_way and key == UNDER_WAY_SITE:  # its nights end with the one whose count is under way
            days = [d for d in days if d <= under_way_night(site)]
        build_demo_custody(site, days=days[-nights:], people=people_at(site))
    if under_way:  # before the counts' demo, which counts every night without a session
        count_boxes(demo, UNDER_WAY_BOXES)
    for extend in (counts, cage, surveillance):
        extend(demo)
    if nights > SMALL_NIGHTS:
        _review_week_two(demo)
    return demo


def under_way_night(site) -> date:
    """The busy site's newest demo night of the kind that may play every table (floor.demo.FULL_NIGHTS):
    the night whose count is under way, with boxes enough to count four times as many."""
    from floor.demo import FULL_NIGHTS, demo_days

    return [d for d in demo_days(UNDER_WAY_SITE, site, timezone.localdate()) if d.weekday() in FULL_NIGHTS][-1]


def count_boxes(demo: dict, boxes: int) -> None:
    """The count under way of `under_way_night` with its first `boxes` boxes counted, the next one
    removed and awaiting its count (`counts.demo.count_under_way`)."""
    from counts.demo import count_under_way

    count_under_way(demo, UNDER_WAY_SITE, under_way_night(demo["sites"][UNDER_WAY_SITE]), boxes)


def _review_week_two(demo: dict) -> None:
    """The demo's review program has each week's hour reviewed (a fixed number, whatever the
    nights): at the large size the walker reviews a second shift of week two as well (the next
    day's), so the review lists and the program page grow too."""
    from datetime import datetime, time, timedelta
    from zoneinfo import ZoneInfo

    from surveillance import queries, services
    from surveillance.models import ReviewTask

    acting, reviewer = (
        demo["people"]["gm"].user,
        demo["people"]["shift"],
    )  # ND 99-01.3-08-04(5)(a): a shift manager may access video
    tasks = ReviewTask.objects.filter(week=2).select_related("program__site", "table")
    for task in tasks:
        site, day = task.program.site, task.week_start + timedelta(days=1)
        start = datetime.combine(day, time(18), tzinfo=ZoneInfo(site.time_zone))
        if day >= timezone.localdate() or queries.employee_dealt_at(reviewer, site, start, start + timedelta(hours=8)):
            continue  # the demo's own rule: a reviewer does not review a shift they dealt

        def at(hour, site=site, day=day):
            return datetime.combine(day, time(hour), tzinfo=ZoneInfo(site.time_zone))

        services.record_review_entry(
            acting_user=acting,
            task=task,
            gaming_date=day,
            reviewer=reviewer,
            findings="Procedures followed",
            shift_started_at=start,
            shift_ended_at=start + timedelta(hours=8),
            footage_start_at=at(20),
            footage_end_at=at(21),
        )


def fill_day_figures() -> None:
    """Fill the figure snapshots of every closed day (accounting.day_figures), as the first
    visit after loading would: pages are measured as they run day to day, not on the one
    visit that fills a day's snapshot (a fixed number of queries more, tested with the pages)."""
    from accounting import day_figures
    from cardroom.models import Site

    day_figures.fill(Site.objects.values_list("pk", flat=True), date.min, timezone.localdate())


def manager_client() -> Client:
    from cardroom.models import Employee

    client = Client()
    client.force_login(Employee.objects.get(user__username="gm").user)
    return client


def _walk_patterns(patterns, prefix=""):
    for entry in patterns:
        if isinstance(entry, URLResolver):
            yield from _walk_patterns(entry.url_patterns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern), entry


def _route_key(path: str) -> str | None:
    """What makes an address a page of its own: the route that serves it and the text
    parameters it is given (`setup/<str:kind>/` is a page per kind; an id is just a row)."""
    try:
        match = resolve(path)
    except Resolver404:
        return None
    words = sorted((k, v) for k, v in match.kwargs.items() if isinstance(v, str) and not v.isdigit())
    return match.route + "".join(f" {k}={v}" for k, v in words)


def _static_path(route: str) -> str | None:
    """The address of a route without parameters, or None for one with parameters (the
    router's routes are regexes: `api/v1/^tables/$`)."""
    plain = route.replace("^", "").replace("$", "")
    if "<" in plain or any(ch in plain for ch in "()[]*+?\\|{}"):
        return None
    return "/" + plain.replace("\\.", ".")


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "a" and attributes.get("href"):
            self.hrefs.append(attributes["href"])
        if attributes.get("hx-get"):  # a fragment the page loads or polls (htmx) is a page too
            self.hrefs.append(attributes["hx-get"])


def _links(response) -> list[str]:
    if "html" not in response.get("Content-Type", ""):
        return []
    parser = _Links()
    parser.feed(response.content.decode(errors="replace"))
    paths = []
    for href in parser.hrefs:
        parts = urlsplit(href)
        if parts.netloc or not parts.path.startswith("/"):
            continue
        paths.append(parts.path + (f"?{parts.query}" if parts.query else ""))
    return paths


def _skipped(path: str, skip: tuple[str, ...] = SKIP_PREFIXES) -> bool:
    return path.startswith(skip) or path.startswith("/static/")


def _is_api_list(path: str) -> bool:
    return path.startswith("/api/")


@dataclass
class Measure:
    path: str
    status: int
    queries: int
    seconds: list[float] = field(default_factory=list)
    rows: int | None = None

    @property
    def best(self) -> float:
        """The least of the requests' times: a busy machine only ever adds time to a request, so
        the least is the reading closest to the code's own cost (as `timeit` takes it)."""
        return min(self.seconds, default=0.0)


def get(client: Client, path: str):
    if _is_api_list(path) and "?" not in path:
        return client.get(path, {"limit": limits.MAX_PAGE_SIZE}, HTTP_ACCEPT="application/json")
    return client.get(path)


def measure(client: Client, path: str, repeat: int = 1) -> tuple[Measure, object]:
    response, seconds, queries = None, [], 0
    for _ in range(repeat):
        reset_queries()  # a full query log (DEBUG) would capture nothing: it holds 9,000 at most
        cache.clear()  # the queries of rendering, never a cached figure fragment (dashboard.fragments)
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            response = get(client, path)
            seconds.append(time.perf_counter() - started)
        queries = len(captured)
    rows = None
    if _is_api_list(path) and response.status_code == 200:
        try:
            body = response.json()
            if isinstance(body, dict) and isinstance(body.get("results"), list):
                rows = len(body["results"])
        except ValueError:
            pass
    return Measure(path, response.status_code, queries, seconds, rows), response


def measure_rounds(client: Client, paths: list[str], rounds: int) -> dict[str, Measure]:
    """Each address measured once a round, `rounds` times over the whole list, so that a busy
    spell of the machine falls on one request of many addresses, not on every request of one."""
    measures = {path: measure(client, path)[0] for path in paths}
    for _ in range(rounds - 1):
        for path in paths:
            measures[path].seconds += measure(client, path)[0].seconds
    return measures


def discover(client: Client, *, pages_only: bool = False) -> list[str]:
    """The addresses `client`'s user reaches (see `_discover`); with `pages_only`, the pages
    and the fragments they load (HTML), not the API nor the downloads (PDF, CSV)."""
    skip = SKIP_PREFIXES + ("/api/",) if pages_only else SKIP_PREFIXES
    with _quiet_request_log():
        return _discover(client, skip, html_only=pages_only)


@contextmanager
def _quiet_request_log():
    """Discovery meets POST-only addresses (405) and the API's catch-all (404): not warnings."""
    logger = logging.getLogger("django.request")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


def _answers(response, html_only: bool) -> bool:
    return response.status_code == 200 and (not html_only or "html" in response.get("Content-Type", ""))


def _discover(client: Client, skip: tuple[str, ...], html_only: bool) -> list[str]:
    """The addresses to walk: every parameterless GET route, and one address per route with
    parameters, found in the links of the pages walked (breadth first, a few rounds)."""
    routes = {}
    for route, pattern in _walk_patterns(get_resolver().url_patterns):
        routes.setdefault(route, pattern)
    chosen: dict[str, str] = {}
    for route in routes:
        path = _static_path(route)
        key = path and not _skipped(path, skip) and _route_key(path)
        if key and key not in chosen:
            chosen[key] = path
    frontier, answered = list(chosen.values()), set()
    for _ in range(MAX_ROUNDS):
        found = []
        for path in frontier:
            response = get(client, path)
            if not _answers(response, html_only):
                continue  # a form's POST-only address, the API's catch-all 404
            answered.add(path)
            for link in _links(response):
                bare = link.split("?")[0]
                if _skipped(bare, skip):
                    continue
                route = _route_key(bare)
                if route is None or route in chosen:
                    continue
                chosen[route] = link
                found.append(link)
        if not found:
            break
        frontier = found
    for path in frontier:  # the last round's finds, not yet fetched
        if _answers(get(client, path), html_only):
            answered.add(path)
    return sorted(answered)


@dataclass
class Comparison:
    path: str
    small: Measure
    large: Measure
    boxes: Measure  # at the large size with four times the boxes counted in the count under way

    @property
    def growth(self) -> float:
        return self.large.queries / self.small.queries if self.small.queries else 1.0

    @property
    def box_growth(self) -> float:
        return self.boxes.queries / self.large.queries if self.large.queries else 1.0

    @property
    def time_growth(self) -> float:
        return self.large.best / self.small.best if self.small.best else 1.0


# Time growth is judged on pages that take at least this long at the small size: below it a
# millisecond of scheduling noise is a large share of the figure (all pages are still printed).
TIME_GROWTH_FLOOR_SECONDS = 0.005
TIME_GROWTH_TARGET = 1.5  # at most 1.5x the time for four times the rows (issue 37)


def walk(
    nights: int = SMALL_NIGHTS,
    repeat: int = 1,
    progress: Callable[[str], None] | None = None,
    in_turns: bool = False,
) -> list[Comparison]:
    """Build the small data set, pick the addresses, measure them; grow the data four times,
    measure them again; count four times the boxes in the count under way, measure them once
    more (queries: its time is not judged). Runs on the current database (a test database: it
    writes the demo).

    `in_turns` (bench_pages, on SQLite: `TwoSizes.available`): the small size is kept as a copy of the database before it grows
    (`TwoSizes`), and after one request at each size the other `repeat - 1` requests of an
    address go to the two sizes in turns, address by address, so that a change of the machine's
    speed during the walk moves both sizes of a page alike. Measured one size after the other,
    pages that read no more rows at the large size (the API's root, `/api/v1/me/`) showed 1.5-1.7
    times the time on a machine whose speed drifted between the two halves."""
    demo = load_nights(nights, under_way=True)
    fill_day_figures()
    client = manager_client()
    paths = discover(client)
    if progress:
        progress(f"{len(paths)} addresses; measuring at {nights} nights a site")
    in_turns = in_turns and TwoSizes.available()
    small = measure_rounds(client, paths, 1 if in_turns else repeat)
    sizes = TwoSizes().keep_small() if in_turns else None
    try:
        load_nights(nights * GROWTH, under_way=True)
        fill_day_figures()
        if progress:
            progress(f"measuring at {nights * GROWTH} nights a site")
        large = measure_rounds(client, paths, 1 if in_turns else repeat)
        if sizes:
            if progress:
                progress(f"{repeat - 1} more requests an address at each size, in turns")
            sizes.in_turns(client, paths, {"small": small, "large": large}, repeat - 1)
    finally:
        if sizes:
            sizes.close()
    count_boxes(demo, UNDER_WAY_BOXES * GROWTH)
    fill_day_figures()
    if progress:
        progress(f"measuring with {UNDER_WAY_BOXES * GROWTH} boxes counted in the count under way")
    boxes = measure_rounds(client, paths, 1)
    return [Comparison(path, small[path], large[path], boxes[path]) for path in paths]


class TwoSizes:
    """The small size kept as a copy of the database (SQLite's backup of the file) while the data
    grows in the original, each open on a connection of its own, and `default` pointed at one or
    the other between requests: no connection is opened inside a timed request, and each keeps its
    own warm cache. SQLite only, the database bench_pages is read on: PostgreSQL copies a database
    only while no other session is connected to it (CREATE DATABASE ... TEMPLATE), which a test
    process's other connections break, so there the sizes are measured one after the other."""

    def __init__(self) -> None:
        self.large = connections[DEFAULT_DB_ALIAS]
        self.small = None

    @staticmethod
    def available() -> bool:
        return connections[DEFAULT_DB_ALIAS].vendor == "sqlite"

    def keep_small(self) -> "TwoSizes":
        import sqlite3
        from contextlib import closing

        settings_dict = {**self.large.settings_dict, "NAME": f"{self.large.settings_dict['NAME']}-small"}
        self.large.ensure_connection()
        with closing(sqlite3.connect(settings_dict["NAME"])) as copy:
            self.large.connection.backup(copy)
        self.small = self.large.__class__(settings_dict, DEFAULT_DB_ALIAS)
        return self

    def use(self, size: str) -> None:
        wrapper = self.small if size == "small" else self.large
        connections[DEFAULT_DB_ALIAS] = wrapper
        wrapper.ensure_connection()

    def in_turns(self, client: Client, paths: list[str], measures: dict[str, dict[str, Measure]], rounds: int) -> None:
        """`rounds` more requests of each address at each size, the two sizes one after the
        other for each address, the first of them alternating from round to round."""
        for number in range(rounds):
            order = ("small", "large") if number % 2 == 0 else ("large", "small")
            for path in paths:
                for size in order:
                    self.use(size)
                    measured = measure(client, path)[0]
                    if measured.status != measures[size][path].status:
                        raise RuntimeError(f"{path}: {measured.status} at the {size} size, not as first measured")
                    measures[size][path].seconds += measured.seconds

    def close(self) -> None:
        connections[DEFAULT_DB_ALIAS] = self.large
        if self.small is None:
            return
        name = self.small.settings_dict["NAME"]
        self.small.close()
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{name}{suffix}").unlink(missing_ok=True)


def report(comparisons: list[Comparison], nights: int = SMALL_NIGHTS) -> list[str]:
    width = max(len(c.path) for c in comparisons)
    boxes = f"queries@{nights * GROWTH}n+{GROWTH}x boxes"
    lines = [
        f"{'address':<{width}}  status  queries@{nights}n  queries@{nights * GROWTH}n  {boxes}  "
        f"best ms@{nights}n  best ms@{nights * GROWTH}n  time growth  rows"
    ]
    for c in comparisons:
        rows = "" if c.small.rows is None else f"{c.small.rows} -> {c.large.rows}"
        lines.append(
            f"{c.path:<{width}}  {c.small.status:>6}  {c.small.queries:>11}  {c.large.queries:>11}  "
            f"{c.boxes.queries:>{len(boxes)}}  {c.small.best * 1000:>10.1f}  {c.large.best * 1000:>10.1f}  "
            f"{c.time_growth:>11.2f}  {rows}"
        )
    measured = [c for c in comparisons if c.small.status == 200]
    worst = max(measured, key=lambda c: c.growth)
    lines.append(f"worst page: {worst.path} ({worst.small.queries} -> {worst.large.queries} queries)")
    lines.append(f"worst query growth: {worst.growth:.2f}")
    boxed = max(measured, key=lambda c: c.box_growth)
    lines.append(
        f"worst query growth for {GROWTH} times the boxes of a count session: {boxed.box_growth:.2f} "
        f"({boxed.path}: {boxed.large.queries} -> {boxed.boxes.queries} queries)"
    )
    timed = [c for c in measured if c.small.best >= TIME_GROWTH_FLOOR_SECONDS] or measured
    slowest = max(timed, key=lambda c: c.time_growth)
    small = sum(c.small.best for c in measured)
    large = sum(c.large.best for c in measured)
    lines.append(
        f"time growth: all addresses together {large / small if small else 1.0:.2f}; worst address taking "
        f"{TIME_GROWTH_FLOOR_SECONDS * 1000:g} ms or more: {slowest.path} ({slowest.small.best * 1000:.1f} -> "
        f"{slowest.large.best * 1000:.1f} ms)"
    )
    # The floor of a page is the same page at the small size: the ratio is its time at four
    # times the rows over that.
    lines.append(
        f"ratio to floor: {slowest.time_growth:.2f} (target {TIME_GROWTH_TARGET:g})"
        + ("" if slowest.time_growth <= TIME_GROWTH_TARGET else " - MISSED")
    )
    return lines
