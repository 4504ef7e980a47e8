"""A count's act sent twice at once (a double submission, two terminals), on whichever database
the suite runs (SQLite by default, PostgreSQL with DATABASE_URL): the copy that looked before the
other landed is refused by the service, in the words of the rule (read again under the count
session's row lock, or the site's for its opening), never by the database (an IntegrityError),
and one copy stands."""

from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from core.audit_verify import verify_chain
from counts import services
from counts.models import CountAgreement, CountEntry, CountSession, CountSignature
from counts.services import counting
from tests.factories import TableFactory
from tests.race_support import OtherTerminal, after_first_look

from .conftest import AFTER_CLOSE, COUNT_TIME, GAMING_DATE, cash


def _open(user, site, counters):
    return services.open_count_session(
        acting_user=user, site=site, gaming_date=GAMING_DATE, members=counters, at=COUNT_TIME
    )


def _blind_count(user, session, box, **figures):
    return services.record_blind_count(
        acting_user=user, session=session, drop_box=box, currency=cash(**figures or {"b20": 5}), at=COUNT_TIME
    )


def _recount(user, session, box):
    return services.resolve_difference(
        acting_user=user, session=session, drop_box=box, currency=cash(b20=5), note="recounted", at=COUNT_TIME
    )


def _sign(user, session, box):
    return services.sign_count(acting_user=user, session=session, at=COUNT_TIME)


def _counted_apart(session, counters, boxes):
    _blind_count(counters[0].user, session, boxes[0], b20=5)
    _blind_count(counters[1].user, session, boxes[0], b20=6)


def _counted_alike(session, counters, boxes):
    for member in counters:
        for box in boxes:
            _blind_count(member.user, session, box)


@dataclass(frozen=True)
class Act:
    """An act of the count sent twice by the first member: what is done before (`ready`), the act
    (`act(user, session, box)`), the look it is crossed after, the refusal's field and words, and
    the rows that must stand once."""

    act: Any
    look: str
    field: str
    words: str
    model: type
    ready: Any = None


ACTS = {
    "blind count": Act(
        _blind_count,
        "_refuse_counting_before_removal",
        "member",
        "ND 99-01.3-08-14(4): you have already counted",
        CountEntry,
    ),
    "recount": Act(
        _recount,
        "_refuse_counting_before_removal",
        "box",
        "is already agreed; there is no difference to resolve.",
        CountAgreement,
        _counted_apart,
    ),
    "signature": Act(
        _sign,
        "_refuse_signing_before_counting",
        "member",
        "ND 99-01.3-08-14(4): each member signs the count once; you have already signed it.",
        CountSignature,
        _counted_alike,
    ),
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("kind", ACTS)
def test_a_count_act_sent_twice_at_once_is_recorded_once_and_the_second_refused_by_its_rule(
    kind, session, counters, boxes, monkeypatch
):
    act = ACTS[kind]
    if act.ready:
        act.ready(session, counters, boxes)
    before = act.model.objects.count()
    other = after_first_look(
        monkeypatch, counting, act.look, lambda user: act.act(user, session, boxes[0]), counters[0].user
    )
    with pytest.raises(ValidationError) as refused:
        act.act(counters[0].user, session, boxes[0])

    assert isinstance(other.result(), act.model), other.result()
    assert act.words in refused.value.message_dict[act.field][0]
    assert act.model.objects.count() == before + 1
    assert verify_chain().ok


@pytest.mark.django_db(transaction=True)
def test_a_second_count_session_of_the_day_opened_at_once_is_refused_as_already_open(
    site, counters, removed, monkeypatch
):
    other = after_first_look(
        monkeypatch, counting, "check_count_team", lambda user: _open(user, site, counters), counters[0].user
    )
    with pytest.raises(ValidationError) as refused:
        _open(counters[0].user, site, counters)

    assert isinstance(other.result(), CountSession), other.result()
    assert refused.value.message_dict["gaming_date"] == [
        f"House control: the count of {GAMING_DATE} at {site} is already open; count in it."
    ]
    assert CountSession.objects.count() == 1
    assert verify_chain().ok


@pytest.fixture
def third_box(manager, site):
    """A box on a third table, still on it when the count opens."""
    return services.register_drop_box(acting_user=manager.user, table=TableFactory(site=site, number=3))


def _remove(user, box, key_holder):
    return services.remove_drop_box(
        acting_user=user,
        drop_box=box,
        gaming_date=GAMING_DATE,
        removed_at=AFTER_CLOSE,
        storage_place="office safe",
        key_holder=key_holder,
        sole_employee_on_duty=True,
    )


@pytest.mark.django_db(transaction=True)
def test_a_box_removed_after_the_signatures_first_look_holds_the_signature_up(
    session, counters, boxes, third_box, shift_manager, monkeypatch
):
    """The first member's signature looked, found every box counted, and only then was a third box
    removed: read again under the session's lock, the signature is refused naming the box."""
    _counted_alike(session, counters, boxes)
    other = after_first_look(
        monkeypatch,
        counting,
        "_refuse_signing_before_counting",
        lambda user: _remove(user, third_box, counters[0]),
        shift_manager.user,
    )
    with pytest.raises(ValidationError) as refused:
        _sign(counters[0].user, session, boxes[0])

    assert other.result().drop.drop_box_id == third_box.pk
    assert refused.value.message_dict["box"] == [
        f"ND 99-01.3-08-14(4): {third_box} was removed from table 3 but has not been counted."
    ]
    assert not CountSignature.objects.exists()
    assert verify_chain().ok


@pytest.mark.django_db(transaction=True)
def test_a_count_sent_while_the_count_is_being_signed_waits_and_is_refused(
    session, counters, boxes, third_box, shift_manager, monkeypatch
):
    """The first member's signature has read every box counted, under the session's lock, and is
    about to write: a third box is removed then, and the second member counts it. The count looked
    before the signature was written, so it waits for the session, then finds the count signed:
    no entry goes into a signed count. (A removal after the signature's own marks of the day would
    wait for them; this one lands just before. On SQLite the writers queue and the count finds the
    signature at its first look.)"""
    _counted_alike(session, counters, boxes)
    second_member = counters[1].user.pk

    def remove_then_count(user):
        _remove(user, third_box, counters[0])
        return _blind_count(get_user_model().objects.get(pk=second_member), session, third_box)

    other, create = OtherTerminal(remove_then_count, shift_manager.user.pk), CountSignature.objects.create

    def other_then_create(**values):
        other.run_meanwhile()
        return create(**values)

    monkeypatch.setattr(CountSignature.objects, "create", other_then_create)
    signature = _sign(counters[0].user, session, boxes[0])
    refused = other.result()

    assert isinstance(refused, ValidationError), refused
    assert "this count has been signed" in refused.message_dict["session"][0]
    assert list(CountSignature.objects.values_list("pk", flat=True)) == [signature.pk]
    assert not CountEntry.objects.filter(drop__drop_box=third_box).exists()
    assert verify_chain().ok
