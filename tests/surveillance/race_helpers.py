"""Two terminals meeting in a surveillance service: the act under test looks first, then another
terminal (its own thread and database connection) does the competing act and commits before the
act under test goes on into its transaction."""

import threading

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


def own_user(employee):
    """`employee`'s login read again, for another terminal (its own Access cache)."""
    return get_user_model().objects.get(pk=employee.user_id)
