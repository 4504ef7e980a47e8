"""ND 99-01.3-08-14(3) and 08-06(1): the box's key is held by one of the two who count it."""

import pytest
from django.core.exceptions import ValidationError

from cardroom.models import Role
from counts import services
from counts.models import CountEntry
from tests.factories import make_person

from .conftest import COUNT_TIME, GAMING_DATE, cash, remove_box


@pytest.fixture
def outsider(org, site):
    """A count team member of the site who is not on this count."""
    return make_person(org, Role.COUNT_TEAM, site, employment_type="independent")


def _open(counters, site):
    return services.open_count_session(
        acting_user=counters[0].user, site=site, gaming_date=GAMING_DATE, members=counters, at=COUNT_TIME
    )


def test_a_box_whose_key_is_held_by_someone_off_the_count_is_not_counted(
    shift_manager, boxes, counters, outsider, site
):
    remove_box(shift_manager, boxes[0], outsider)
    session = _open(counters, site)
    with pytest.raises(ValidationError) as caught:
        services.record_blind_count(
            acting_user=counters[0].user, session=session, drop_box=boxes[0], currency=cash(b20=5), at=COUNT_TIME
        )
    message = caught.value.message_dict["box"][0]
    assert message.startswith("ND 99-01.3-08-14(3): the key to") and str(outsider) in message
    assert not CountEntry.objects.exists()


@pytest.mark.parametrize("holder", [0, 1])
def test_either_member_may_hold_the_key(shift_manager, boxes, counters, site, holder):
    remove_box(shift_manager, boxes[0], counters[holder])
    session = _open(counters, site)
    for member in counters:
        services.record_blind_count(
            acting_user=member.user, session=session, drop_box=boxes[0], currency=cash(b20=5), at=COUNT_TIME
        )
    assert CountEntry.objects.count() == 2
