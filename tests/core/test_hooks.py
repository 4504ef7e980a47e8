"""The hooks through which a higher layer answers a lower one (tests/core/test_layers.py):
each is registered when the higher app loads, and answers conservatively until then."""

from datetime import UTC, datetime

import pytest
from django.core.exceptions import ValidationError

from accounting.queries import closed_reason
from cage.queries import tip_status as cage_tip_status
from cardroom import wager_caps
from core import closing
from floor import tips
from surveillance.services import check_wager_under_surveillance_caps


def test_the_higher_apps_register_their_answers_when_they_load():
    assert closing._reason is closed_reason
    assert wager_caps._check is check_wager_under_surveillance_caps
    assert tips._lookup is cage_tip_status


def test_a_registered_wager_cap_refuses_through_the_hook(monkeypatch):
    def two_dollars(table, max_wager_cents, at):
        if max_wager_cents > 200:
            raise ValidationError({"max_wager_cents": "ND 99-01.3-08-04(7): $2 at most."})

    monkeypatch.setattr(wager_caps, "_check", None)
    wager_caps.check_max_wager(object(), 10_000)  # no cap registered: nothing to refuse
    wager_caps.register_wager_cap(two_dollars)
    wager_caps.check_max_wager(object(), 200)
    with pytest.raises(ValidationError) as refused:
        wager_caps.check_max_wager(object(), 201, datetime(2026, 11, 2, tzinfo=UTC))
    assert refused.value.message_dict == {"max_wager_cents": ["ND 99-01.3-08-04(7): $2 at most."]}


def test_until_the_cage_answers_no_tips_are_known_to_be_declared(monkeypatch):
    monkeypatch.setattr(tips, "_lookup", None)
    status = tips.tip_status(object(), object(), datetime(2026, 11, 2, tzinfo=UTC))
    assert (status.declared, status.unredeemed_cents) == (False, 0)


def test_the_packs_answer_the_chip_law_and_the_citations_and_nothing_answers_before():
    """`cardroom.chip_rules` and `core.citations` ask the packs (registered by `packs.apps`);
    unregistered, they refuse to answer rather than fall back to one jurisdiction's words."""
    from django.core.exceptions import ImproperlyConfigured

    from cardroom import chip_rules
    from core import citations
    from packs import get_pack

    assert chip_rules.law_at("ND") is get_pack("ND").chips and chip_rules.law_at("WA-HB") is None
    assert citations.cite("core.retention", "ND") == "ND 99-01.3-08-16"
    assert citations.cite("core.retention", "NY") == "House control"
    saved = (chip_rules._law_of, citations._cite)
    try:
        chip_rules._law_of = citations._cite = None
        with pytest.raises(ImproperlyConfigured):
            chip_rules.law_at("ND")
        with pytest.raises(ImproperlyConfigured):
            citations.stated("core.retention", "ND")
    finally:
        chip_rules._law_of, citations._cite = saved
