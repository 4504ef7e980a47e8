"""Two links to a state's registry made at once for one organization and pack (house control:
one live link a pack, the later replacing the earlier), on whichever database the suite runs
(SQLite by default, PostgreSQL with DATABASE_URL): the second waits for the first and replaces it,
as it does after it, rather than both finding no live link and the database refusing the second.
SQLite's writers queue (IMMEDIATE transactions), so there the two never cross; the test pins the
same outcome."""

import threading
import time

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from cardroom.models import Organization
from core.audit_verify import verify_chain
from core.models import AuditEvent
from statefiling import services
from statefiling.models import RegistryLink

FIRST, SECOND = "lic_" + "a" * 20, "lic_" + "b" * 20


def _connect(user, organization, credential):
    return services.connect_registry(
        acting_user=user, organization=organization, jurisdiction="ND", url="http://127.0.0.1:9", credential=credential
    )


def _waiting_or_done(other_terminal, their_pid: list, seconds: float = 10) -> None:
    """Until the other terminal has ended, or (PostgreSQL) waits for a lock this one holds."""
    deadline = time.monotonic() + seconds
    while other_terminal.is_alive() and time.monotonic() < deadline:
        if connection.vendor != "postgresql":
            return  # SQLite: it waits for this transaction to end (its writers queue)
        if their_pid:
            with connection.cursor() as cursor:
                cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [their_pid[0]])
                row = cursor.fetchone()
            if row and row[0] == "Lock":
                return
        time.sleep(0.02)


@pytest.mark.django_db(transaction=True)
def test_two_links_made_at_once_leave_the_later_one_live(monkeypatch, org, manager):
    create, done, their_pid = RegistryLink.objects.create, [], []

    def other():
        try:
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_backend_pid()")
                    their_pid.append(cursor.fetchone()[0])
            user = get_user_model().objects.get(pk=manager.user_id)  # its own Access cache
            done.append(_connect(user, Organization.objects.get(pk=org.pk), SECOND))
        except Exception as exc:  # noqa: BLE001 - asserted below
            done.append(exc)
        finally:
            connection.close()

    other_terminal = threading.Thread(target=other)

    def meanwhile_create(**values):
        """The first link, its earlier ones retired, is about to be written: the other terminal
        links at that moment."""
        if not other_terminal.is_alive() and not done and values.get("credential") == FIRST:
            other_terminal.start()
            _waiting_or_done(other_terminal, their_pid)
        return create(**values)

    monkeypatch.setattr(RegistryLink.objects, "create", meanwhile_create)
    first = _connect(manager.user, org, FIRST)
    other_terminal.join()

    assert isinstance(done[0], RegistryLink), done
    links = list(RegistryLink.objects.order_by("pk").values_list("credential", "active"))
    assert links == [(FIRST, False), (SECOND, True)]
    assert first.credential == FIRST
    assert AuditEvent.objects.filter(action="registry.connected").count() == 2
    assert verify_chain().ok
