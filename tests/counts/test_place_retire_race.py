"""A drop box is placed only while in use, and on its table once (counts.services.custody
`place_drop_box`, house control and `REMOVAL`), on whichever database the suite runs (SQLite by
default, PostgreSQL with DATABASE_URL): a placing that found the box free before its transaction,
while another terminal retired it (or placed it), is refused inside it."""

import pytest
from django.core.exceptions import ValidationError

from core.audit_verify import verify_chain
from counts import services
from counts.models import Drop, DropBox
from counts.services import custody
from tests.race_support import after_first_look, while_writing

from .conftest import EVENING, GAMING_DATE


def _place(user, box):
    return services.place_drop_box(acting_user=user, drop_box=box, gaming_date=GAMING_DATE, at=EVENING)


def _retire(box):
    """Another terminal's retirement of `box`, from its own read of it."""
    return lambda user: services.retire_drop_box(acting_user=user, drop_box=DropBox.objects.get(pk=box.pk))


@pytest.mark.django_db(transaction=True)
def test_a_box_retired_while_it_is_being_placed_is_not_placed(monkeypatch, manager, shift_manager, boxes):
    box = boxes[1]
    other = after_first_look(monkeypatch, custody, "_validate_reuse", _retire(box), manager.user)
    with pytest.raises(ValidationError) as refused:
        _place(shift_manager.user, box)
    retired = [other.result()]
    assert isinstance(retired[0], DropBox), retired
    assert refused.value.message_dict == {"box": ["House control: Drop box 2 is retired and is not placed again."]}
    assert not DropBox.objects.get(pk=box.pk).active
    assert not Drop.objects.exists()
    assert verify_chain().ok


@pytest.mark.django_db(transaction=True)
def test_a_box_placed_twice_at_once_is_on_its_table_once(monkeypatch, shift_manager, boxes):
    box = boxes[0]
    other = after_first_look(
        monkeypatch,
        custody,
        "_validate_reuse",
        lambda user: _place(user, DropBox.objects.get(pk=box.pk)),
        shift_manager.user,
    )
    with pytest.raises(ValidationError) as refused:
        _place(shift_manager.user, box)
    placed = [other.result()]
    assert isinstance(placed[0], Drop), placed
    assert refused.value.message_dict == {
        "box": ["ND 99-01.3-08-14(1): Drop box 1 is still on its table: record its removal first."]
    }
    assert list(Drop.objects.values_list("pk", flat=True)) == [placed[0].pk]
    assert verify_chain().ok


@pytest.mark.django_db(transaction=True)
def test_a_box_retired_while_its_placing_is_being_written_stays_in_use(monkeypatch, manager, shift_manager, boxes):
    """The retirement comes once the placing holds the box (inside its transaction): it waits for
    the placing and is refused, the box being on its table."""
    box = boxes[1]
    other = while_writing(monkeypatch, Drop.objects, "create", _retire(box), manager.user)
    drop = _place(shift_manager.user, box)
    retired = [other.result()]
    assert isinstance(retired[0], ValidationError), retired
    assert retired[0].message_dict == {
        "box": ["ND 99-01.3-08-14(1): Drop box 2 is still on its table; record its removal first."]
    }
    assert DropBox.objects.get(pk=box.pk).active
    assert list(Drop.objects.values_list("pk", flat=True)) == [drop.pk]
    assert verify_chain().ok
