"""The count's state refusals (a count already open for the night, a retired box, a box still on
its table, a second key to a one-lock box, a count already agreed, an adjustment of a count not
signed, a form explained twice) name the field and the rule of the site's pack: North Dakota's
08-14 where its text states the rule, "House control" where no pack's text does and at a
Washington house-banked or New York site (whose texts state no drop box count), never another
pack's words. Driven through the services, a matrix over the refusals and the packs."""

import pytest
from django.core.exceptions import ValidationError

from counts import services
from tests.conformance.words import refused_in_its_packs_words

from .conftest import COUNT_TIME, EVENING, GAMING_DATE, cash, remove_box

PACKS = ["ND", "WA-HB", "NY"]
HOUSE = {code: "House control" for code in PACKS}


def _nd_or_house(section: str) -> dict[str, str]:
    return {**HOUSE, "ND": section}


def _count_opened_twice(f):
    f.open()
    f.open()


def _retired_box_placed(f):
    box = f.boxes[1]
    services.retire_drop_box(acting_user=f.manager.user, drop_box=box)
    services.place_drop_box(acting_user=f.shift.user, drop_box=box, gaming_date=GAMING_DATE, at=EVENING)


def _box_placed_twice(f):
    box = f.boxes[0]
    for _ in range(2):
        services.place_drop_box(acting_user=f.shift.user, drop_box=box, gaming_date=GAMING_DATE, at=EVENING)


def _second_key_to_one_lock(f):
    remove_box(f.shift, f.boxes[0], f.counters[0], second_key_holder=f.counters[1])


def _agreed_count_resolved(f):
    box, session = f.removed_boxes[0], f.session()
    for member in f.counters:
        services.record_blind_count(
            acting_user=member.user, session=session, drop_box=box, currency=cash(b20=5), at=COUNT_TIME
        )
    services.resolve_difference(
        acting_user=f.counters[0].user,
        session=session,
        drop_box=box,
        currency=cash(b20=5),
        note="recounted",
        at=COUNT_TIME,
    )


def _unsigned_count_adjusted(f):
    services.record_count_adjustment(
        acting_user=f.manager.user,
        session=f.session(),
        drop_box=f.removed_boxes[0],
        currency=cash(b20=5),
        reason="a bill found",
    )


REFUSALS = [
    # (name, the act, the field, the citation at each pack)
    ("a count already open for the night", _count_opened_twice, "gaming_date", HOUSE),
    ("a retired box placed", _retired_box_placed, "box", HOUSE),
    # ND 08-14(1): "The cash must be removed from the drop box before the drop box can be used for another day"
    ("a box still on its table placed", _box_placed_twice, "box", _nd_or_house("ND 99-01.3-08-14(1)")),
    # ND 08-14(3): the key to a second lock, "if there are two separate locks"
    (
        "a second key to a one-lock box",
        _second_key_to_one_lock,
        "second_key_holder",
        _nd_or_house("ND 99-01.3-08-14(3)"),
    ),
    # ND 08-14(4): the members "resolve any difference between the two counts"
    ("an agreed count resolved again", _agreed_count_resolved, "box", _nd_or_house("ND 99-01.3-08-14(4)")),
    ("an unsigned count adjusted", _unsigned_count_adjusted, "session", _nd_or_house("ND 99-01.3-08-14(4)")),
]


class World:
    """The site's people and boxes, and the steps a refusal follows: the boxes removed after the
    night's play and the night's count opened, each done once when first asked."""

    def __init__(self, site, manager, shift, counters, boxes):
        self.site, self.manager, self.shift, self.counters, self.boxes = site, manager, shift, counters, boxes
        self._removed = self._session = None

    def open(self):
        return services.open_count_session(
            acting_user=self.counters[0].user,
            site=self.site,
            gaming_date=GAMING_DATE,
            members=self.counters,
            at=COUNT_TIME,
        )

    @property
    def removed_boxes(self):
        if self._removed is None:
            self._removed = [remove_box(self.shift, box, self.counters[0]) for box in self.boxes]
        return self.boxes

    def session(self):
        if self._session is None:
            assert self.removed_boxes
            self._session = self.open()
        return self._session


@pytest.fixture
def world(request, site, manager, shift_manager, counters, boxes):
    site.jurisdiction = request.param
    site.save()
    return World(site, manager, shift_manager, counters, boxes)


@pytest.mark.parametrize("world", PACKS, indirect=True)
@pytest.mark.parametrize(("name", "act", "field", "cited"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_each_state_refusal_names_its_field_and_the_rule_of_the_sites_pack(world, site, name, act, field, cited):
    with pytest.raises(ValidationError) as refused:
        act(world)
    refused_in_its_packs_words(refused.value.message_dict, field, cited[site.jurisdiction], site.jurisdiction)
