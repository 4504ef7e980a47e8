"""`python manage.py bench_http [--build [--nights N]] [--clients 20] [--requests 400 | --seconds S]`:
the read path under a crowd (issue 18). Starts gunicorn itself (2 sync workers, production
settings: DEBUG off, persistent connections) on 127.0.0.1 at a free port against the current
database, signs in as the gaming manager, and sends a bounded load from N concurrent clients
to the dashboard, the daily figures page and the slip queues, one page after the other. Prints
one line a page:

    dashboard: N req/s, p50 X ms, p95 Y ms

then stops the server. Every response must be a 200 (anything else fails the command).

Its floor (issue 37), under the same crowd on the same server, before and after the pages: a
minimal signed-in page (`/signed-in/`: the session and the user lookup only). The last lines
are the machine reading and `ratio to floor: X (target 3)`, the worst page's p95 over the
floor's p95 (target: within 3x; and each page's throughput at least a third of the floor's,
printed as `throughput ratio`).
`--build` loads the demo first (`load_demo`; with `--nights N`, the demo's master data and its
last N play nights a site, as bench_pages builds them)."""

import os
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from http.client import HTTPConnection
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import Client

from benchmarks import floors
from core.management.base import DatabaseCommand

PAGES = (("dashboard", "/dashboard/"), ("daily", "/dashboard/daily/"), ("slips", "/floor/queues/"))
FLOOR = ("floor", "/signed-in/")  # the session and the user lookup only
P95_TARGET = 3  # each page's p95 within 3x of the floor's (issue 37)
THROUGHPUT_TARGET = 1 / 3  # each page's requests/s at least a third of the floor's
MANAGER = "gm"  # the demo's gaming manager
START_TIMEOUT_SECONDS = 60
REQUEST_TIMEOUT_SECONDS = 60


@dataclass(frozen=True)
class Result:
    name: str
    requests: int
    seconds: float
    latencies_ms: tuple[float, ...]
    failures: dict  # status (or error) -> count

    @property
    def rate(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    def line(self) -> str:
        rate = self.rate
        return (
            f"{self.name}: {rate:.1f} req/s, p50 {percentile(self.latencies_ms, 50):.0f} ms, "
            f"p95 {percentile(self.latencies_ms, 95):.0f} ms"
        )


def percentile(values, p: int) -> float:
    """Nearest-rank percentile of `values` (0 for none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, -(-p * len(ordered) // 100))
    return ordered[rank - 1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_url() -> str:
    """The current database (the test database too, when a test runs this) for the server."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    if connection.vendor == "postgresql":
        auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
        return f"postgres://{auth}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"
    raise CommandError(f"bench_http runs on SQLite or PostgreSQL, not {connection.vendor}.")


def session_cookie(username: str) -> str:
    """A signed-in session of the user, stored where the server reads sessions (the database)."""
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise CommandError(f"No user {username!r}: load the demo first (--build).")
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


class Server:
    """gunicorn on 127.0.0.1:`port` with production settings, until stopped."""

    def __init__(self, port: int, workers: int):
        self.port = port
        env = {
            **os.environ,
            "DEBUG": "0",
            "SECRET_KEY": settings.SECRET_KEY,  # the session signed here is read there
            "ALLOWED_HOSTS": "127.0.0.1",
            "DATABASE_URL": database_url(),
            "VAR_DIR": str(settings.VAR_DIR),
            # Production serves hashed static files (whitenoise's manifest): collected here, apart.
            "STATIC_ROOT": str(Path(settings.VAR_DIR) / "bench-http-static"),
        }
        collect = [sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity=0"]
        subprocess.run(collect, env=env, cwd=Path(settings.BASE_DIR), check=True)
        command = [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi:application",
            f"--workers={workers}",
            f"--bind=127.0.0.1:{port}",
            "--log-level=warning",
            f"--timeout={REQUEST_TIMEOUT_SECONDS}",
        ]
        self.process = subprocess.Popen(command, env=env, cwd=Path(settings.BASE_DIR))

    def wait_until_up(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise CommandError(f"gunicorn exited with status {self.process.returncode}.")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.2)
        raise CommandError(f"gunicorn did not listen on port {self.port} within {START_TIMEOUT_SECONDS} s.")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def get(conn: HTTPConnection, path: str, cookie: str) -> tuple[int, float]:
    # X-Forwarded-Proto: what the TLS-terminating proxy in front of production sets (settings).
    headers = {"Cookie": cookie, "X-Forwarded-Proto": "https", "Host": "127.0.0.1"}
    started = time.perf_counter()
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()
    response.read()
    return response.status, (time.perf_counter() - started) * 1000


def load(name: str, path: str, *, port: int, cookie: str, clients: int, requests: int, seconds: float) -> Result:
    """`clients` threads, each with its own connection, until `requests` are sent (or `seconds` pass)."""
    lock, latencies, failures = threading.Lock(), [], {}
    sent = [0]
    deadline = time.monotonic() + seconds if seconds else None

    def take() -> bool:
        with lock:
            if (deadline is None and sent[0] >= requests) or (deadline is not None and time.monotonic() >= deadline):
                return False
            sent[0] += 1
            return True

    def client():
        conn = HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT_SECONDS)
        try:
            while take():
                try:
                    status, ms = get(conn, path, cookie)
                except OSError as exc:
                    status, ms = type(exc).__name__, 0.0
                    conn.close()
                with lock:
                    if status == 200:
                        latencies.append(ms)
                    else:
                        failures[status] = failures.get(status, 0) + 1
        finally:
            conn.close()

    threads = [threading.Thread(target=client) for _ in range(clients)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - started
    return Result(name, len(latencies) + sum(failures.values()), elapsed, tuple(latencies), failures)


class Command(DatabaseCommand):
    help = "Requests/s and p50/p95 of the dashboard, the daily figures page and the slip queues under N clients."

    def add_arguments(self, parser):
        parser.add_argument("--build", action="store_true", help="load the demo into the database first")
        parser.add_argument("--nights", type=int, default=0, help="with --build: only the last N play nights a site")
        parser.add_argument("--clients", type=int, default=20, help="concurrent clients")
        parser.add_argument("--requests", type=int, default=400, help="requests a page (unless --seconds)")
        parser.add_argument("--seconds", type=float, default=0, help="seconds of load a page, instead of --requests")
        parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
        parser.add_argument("--user", default=MANAGER, help="the gaming manager's username (the demo's: gm)")

    def handle(self, *args, build, nights, clients, requests, seconds, workers, user, **options):
        if clients < 1 or workers < 1 or (requests < 1 and seconds <= 0) or nights < 0 or seconds < 0:
            raise CommandError("Give at least one client, one worker and one request (or a positive --seconds).")
        if build:
            self._build(nights)
        cookie = session_cookie(user)
        port = free_port()
        server = Server(port, workers)
        machine = floors.Machine().start()
        try:
            server.wait_until_up()
            load_page = lambda name, path: self._page(  # noqa: E731
                name, path, port, cookie, workers, clients=clients, requests=requests, seconds=seconds
            )
            floor_before = load_page(*FLOOR)
            results = [load_page(name, path) for name, path in PAGES]
            floor_after = load_page(*FLOOR)
        finally:
            server.stop()
        machine.stop()
        failed = [f"{r.name}: {r.failures}" for r in [floor_before, *results, floor_after] if r.failures]
        if failed:
            raise CommandError(f"Responses other than 200: {'; '.join(failed)}")
        self._ratios(results, floor_before, floor_after, machine)

    def _ratios(self, results, floor_before, floor_after, machine) -> None:
        """The floor's best p95 and throughput of its two runs (before and after the pages)."""
        floor_p95 = min(percentile(f.latencies_ms, 95) for f in (floor_before, floor_after))
        floor_rate = max(f.rate for f in (floor_before, floor_after))
        worst, slow = None, []
        for result in results:
            p95 = percentile(result.latencies_ms, 95) / floor_p95 if floor_p95 else float("inf")
            rate = result.rate / floor_rate if floor_rate else 0.0
            self.stdout.write(
                f"{result.name} over floor: p95 {p95:.2f}x (target {P95_TARGET}x), "
                f"throughput ratio {rate:.2f} (target at least {THROUGHPUT_TARGET:.2f})"
            )
            worst = p95 if worst is None else max(worst, p95)
            if rate < THROUGHPUT_TARGET:
                slow.append(f"{result.name} {rate:.2f}")
        self.stdout.write(machine.line())
        line = floors.Ratio(worst, 1.0, P95_TARGET).line()
        if slow:  # the second target is the verdict's too, not only its page's line
            line += f" - throughput MISSED ({', '.join(slow)} of the floor's, target at least {THROUGHPUT_TARGET:.2f})"
        self.stdout.write(line)

    def _build(self, nights: int) -> None:
        if nights:
            from benchmarks.pages import load_nights

            load_nights(nights)
        else:
            call_command("load_demo", verbosity=0)

    def _page(self, name, path, port, cookie, workers, *, clients, requests, seconds) -> Result:
        # Warm-up, not timed: the first request fills the snapshots of closed days a first visit
        # lacks (one client), then each worker's first requests import and connect.
        warm = load(name, path, port=port, cookie=cookie, clients=1, requests=1, seconds=0)
        if not warm.failures:
            warm = load(name, path, port=port, cookie=cookie, clients=workers, requests=2 * workers, seconds=0)
        if warm.failures:
            raise CommandError(f"{name}: {path} answered {warm.failures} (expected 200).")
        result = load(name, path, port=port, cookie=cookie, clients=clients, requests=requests, seconds=seconds)
        self.stdout.write(result.line())
        return result
