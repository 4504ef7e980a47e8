"""Another terminal for the race tests: an act sent at once from a second terminal (its own
user and database connection), started when the act under test has looked at the state it
checks (a monkeypatched first look), so the two cross at that point on purpose."""

import threading
import time

from django.contrib.auth import get_user_model
from django.db import connection


class OtherTerminal:
    """`act(user)` on another thread with its own connection, `user` read anew (its own Access
    cache); `result()` is what it returned or raised."""

    def __init__(self, act, user_id: int):
        self._act, self._user_id, self._done, self._pid = act, user_id, [], []
        self._thread = threading.Thread(target=self._run)

    def _run(self):
        try:
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_backend_pid()")
                    self._pid.append(cursor.fetchone()[0])
            self._done.append(self._act(get_user_model().objects.get(pk=self._user_id)))
        except Exception as exc:  # noqa: BLE001 - asserted by the tests
            self._done.append(exc)
        finally:
            connection.close()

    def run_meanwhile(self):
        """Start it and wait until it is done, or waits for a lock this terminal holds (on
        PostgreSQL). Inside a transaction on SQLite, not at all: its writers queue (IMMEDIATE
        transactions, config.settings), so it goes on once this terminal's transaction ends."""
        self._thread.start()
        if connection.vendor != "postgresql":
            if not connection.in_atomic_block:
                self._thread.join()
            return
        while self._thread.is_alive() and not self._waits_for_a_lock():
            time.sleep(0.01)

    def _waits_for_a_lock(self) -> bool:
        if not self._pid:
            return False
        with connection.cursor() as cursor:
            cursor.execute("SELECT EXISTS (SELECT 1 FROM pg_locks WHERE pid = %s AND NOT granted)", [self._pid[0]])
            return cursor.fetchone()[0]

    def result(self):
        self._thread.join()
        return self._done[0]


def after_first_look(monkeypatch, owner, name: str, act, user) -> OtherTerminal:
    """`act(user)` sent from another terminal right after the first call of `owner.<name>` (the
    look of the act under test) returns; later calls (the other terminal's own) look as usual."""
    look, other = getattr(owner, name), OtherTerminal(act, user.pk)
    calls = []

    def look_then_other(*args, **kwargs):
        found = look(*args, **kwargs)
        calls.append(name)
        if len(calls) == 1:
            other.run_meanwhile()
        return found

    monkeypatch.setattr(owner, name, look_then_other)
    return other


def while_writing(monkeypatch, owner, name: str, act, user, *, when=None) -> OtherTerminal:
    """`act(user)` sent from another terminal once the act under test, inside its transaction (its
    lock held), first calls `owner.<name>` with arguments `when` accepts (any, if None): it goes on
    when the other terminal has ended or waits for a lock it holds (`OtherTerminal.run_meanwhile`)."""
    write, other = getattr(owner, name), OtherTerminal(act, user.pk)
    calls = []

    def other_then_write(*args, **kwargs):
        if not calls and (when is None or when(*args, **kwargs)):
            calls.append(name)
            other.run_meanwhile()
        return write(*args, **kwargs)

    monkeypatch.setattr(owner, name, other_then_write)
    return other
