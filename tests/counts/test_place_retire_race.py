"""A drop box is placed only while in use, and on its table once (counts.services.custody
`place_drop_box`, house control and `REMOVAL`), on whichever database the suite runs (SQLite by
default, PostgreSQL with DATABASE_URL): a placing that found the box free before its transaction,
while another terminal retired it (or placed it), is refused inside it."""

import threading

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
