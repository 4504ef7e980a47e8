"""A drop box is placed only while in use, and on its table once (counts.services.custody
`place_drop_box`, house control and `REMOVAL`), on whichever database the suite runs (SQLite by
default, PostgreSQL with DATABASE_URL): a placing that found the box free before its transaction,
while another terminal retired it (or placed it), is refused inside it."""

import threading
import time

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import connection

from core.audit_verify import verify_chain
from counts import services
from counts.models import Drop, DropBox
from counts.services import custody

from .conftest import EVENING, GAMING_DATE


def _meanwhile(monkeypatch, act) -> list:
    """Right after the placing's first look at the box (before its transaction), another terminal
    does `act(user_pk)` with its own connection, and commits before the placing goes on."""
    look, done, started = custody._validate_reuse, [], []

    def other():
        try:
            done.append(act())
        except Exception as exc:  # noqa: BLE001 - asserted by the tests
            done.append(exc)
        finally:
            connection.close()

    def look_then_act(*args, **kwargs):
        look(*args, **kwargs)
        if not started:  # the first look of the placing under test; the other terminal's own go on
            started.append(True)
            other_terminal = threading.Thread(target=other)
            other_terminal.start()
            other_terminal.join()

    monkeypatch.setattr(custody, "_validate_reuse", look_then_act)
    return done


def _user(employee):
    return get_user_model().objects.get(pk=employee.user_id)  # its own Access cache


def _place(shift_manager, box):
    return services.place_drop_box(acting_user=shift_manager.user, drop_box=box, gaming_date=GAMING_DATE, at=EVENING)


@pytest.mark.django_db(transaction=True)
def test_a_box_retired_while_it_is_being_placed_is_not_placed(monkeypatch, manager, shift_manager, boxes):
    box = boxes[1]
    retired = _meanwhile(
        monkeypatch,
        lambda: services.retire_drop_box(acting_user=_user(manager), drop_box=DropBox.objects.get(pk=box.pk)),
    )
    with pytest.raises(ValidationError) as refused:
        _place(shift_manager, box)
    assert isinstance(retired[0], DropBox), retired
    assert refused.value.message_dict == {"box": ["Drop box 2 is retired."]}
    assert not DropBox.objects.get(pk=box.pk).active
    assert not Drop.objects.exists()
    assert verify_chain().ok


@pytest.mark.django_db(transaction=True)
def test_a_box_placed_twice_at_once_is_on_its_table_once(monkeypatch, shift_manager, boxes):
    box = boxes[0]
    placed = _meanwhile(
        monkeypatch, lambda: _place(type("Cast", (), {"user": _user(shift_manager)}), DropBox.objects.get(pk=box.pk))
    )
    with pytest.raises(ValidationError) as refused:
        _place(shift_manager, box)
    assert isinstance(placed[0], Drop), placed
    assert refused.value.message_dict == {"box": ["Drop box 1 is still on its table: record its removal first."]}
    assert list(Drop.objects.values_list("pk", flat=True)) == [placed[0].pk]
    assert verify_chain().ok


def _waiting_or_done(other_terminal, their_pid: list, seconds: float = 10) -> None:
    """Until the other terminal has ended, or (PostgreSQL) waits for a lock this one holds; on
    SQLite it waits for this transaction to end (its writers queue), so no wait here."""
    deadline = time.monotonic() + seconds
    while connection.vendor == "postgresql" and other_terminal.is_alive() and time.monotonic() < deadline:
        if their_pid:
            with connection.cursor() as cursor:
                cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [their_pid[0]])
                row = cursor.fetchone()
            if row and row[0] == "Lock":
                return
        time.sleep(0.02)


@pytest.mark.django_db(transaction=True)
def test_a_box_retired_while_its_placing_is_being_written_stays_in_use(monkeypatch, manager, shift_manager, boxes):
    """The retirement comes once the placing holds the box (inside its transaction): it waits for
    the placing and is refused, the box being on its table."""
    box, create, retired, their_pid = boxes[1], Drop.objects.create, [], []

    def retire():
        try:
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_backend_pid()")
                    their_pid.append(cursor.fetchone()[0])
            retired.append(
                services.retire_drop_box(acting_user=_user(manager), drop_box=DropBox.objects.get(pk=box.pk))
            )
        except Exception as exc:  # noqa: BLE001 - asserted below
            retired.append(exc)
        finally:
            connection.close()

    other_terminal = threading.Thread(target=retire)

    def retire_then_create(**values):
        other_terminal.start()
        _waiting_or_done(other_terminal, their_pid)
        return create(**values)

    monkeypatch.setattr(Drop.objects, "create", retire_then_create)
    drop = _place(shift_manager, box)
    other_terminal.join()
    assert isinstance(retired[0], ValidationError), retired
    assert retired[0].message_dict == {
        "box": ["ND 99-01.3-08-14(1): Drop box 2 is still on its table; record its removal first."]
    }
    assert DropBox.objects.get(pk=box.pk).active
    assert list(Drop.objects.values_list("pk", flat=True)) == [drop.pk]
    assert verify_chain().ok
