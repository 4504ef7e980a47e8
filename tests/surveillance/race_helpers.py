"""Two terminals meeting in a surveillance service: the act under test looks first, then another
terminal (its own thread and database connection) does the competing act and commits before the
act under test goes on into its transaction."""

import threading
import time

from django.contrib.auth import get_user_model
from django.db import connection


def meanwhile(monkeypatch, module, look: str, act) -> list:
    """Right after the first call of `module.<look>` (the service's first look, before its
    transaction), run `act()` on another terminal to its end; the returned list receives what
    `act` returned or raised. Later calls of the look (the other terminal's own, the service's
    second look inside its transaction) run as they are."""
    first_look, done, started = getattr(module, look), [], []

    def other():
        try:
            done.append(act())
        except Exception as exc:  # noqa: BLE001 - asserted by the tests
            done.append(exc)
        finally:
            connection.close()

    def look_then_act(*args, **kwargs):
        found = first_look(*args, **kwargs)
        if not started:
            started.append(True)
            other_terminal = threading.Thread(target=other)
            other_terminal.start()
            other_terminal.join()
        return found

    monkeypatch.setattr(module, look, look_then_act)
    return done


def while_holding(act):
    """A thread doing `act()` on another terminal, and `wait()`: until it has ended or (PostgreSQL)
    waits for a lock the calling terminal holds; on SQLite it waits for the calling terminal's
    transaction to end (its writers queue), so `wait` returns at once. `done` receives what `act`
    returned or raised."""
    done, their_pid = [], []

    def other():
        try:
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_backend_pid()")
                    their_pid.append(cursor.fetchone()[0])
            done.append(act())
        except Exception as exc:  # noqa: BLE001 - asserted by the tests
            done.append(exc)
        finally:
            connection.close()

    other_terminal = threading.Thread(target=other)

    def wait(seconds: float = 10) -> None:
        deadline = time.monotonic() + seconds
        while connection.vendor == "postgresql" and other_terminal.is_alive() and time.monotonic() < deadline:
            if their_pid:
                with connection.cursor() as cursor:
                    cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [their_pid[0]])
                    row = cursor.fetchone()
                if row and row[0] == "Lock":
                    return
            time.sleep(0.02)

    return other_terminal, wait, done


def own_user(employee):
    """`employee`'s login read again, for another terminal (its own Access cache)."""
    return get_user_model().objects.get(pk=employee.user_id)
