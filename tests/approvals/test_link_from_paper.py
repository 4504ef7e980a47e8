"""A table's game recorded after it began (the floor switched Friday, the manager records it
Monday): the link takes effect from the time given, kept in order with the table's links, never
before the approval or the internal controls in effect that day; the audit event keeps when it
was entered. Through the API, as a gaming manager."""

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from approvals.models import PayTable, TableGame
from core.models import AuditEvent

pytestmark = pytest.mark.django_db


def _local(site, day, hour=12) -> str:
    return datetime.combine(day, time(hour), tzinfo=ZoneInfo(site.time_zone)).isoformat()


def _link(client, table, ddm, linked_at):
    pay_tables = PayTable.objects.filter(approval=ddm)
    body = {
        "table": table.pk,
        "approval": ddm.pk,
        "blackjack_pay_table": pay_tables.get(side_bet="", code="01").pk,
        "side_bet_pay_table": pay_tables.get(side_bet="Push 22", code="1").pk,
        "shuffler_model": "Shuffle Master MD3",
        "settings": {"decks": 6, "dealer_hits_soft_17": True, "split_pairs": "none", "surrender": "none",
                     "double_on": "any_card", "double_down": "total", "even_money_offered": False,
                     "resplit_allowed": False, "split_aces_one_card": False},
    }  # fmt: skip
    if linked_at is not None:
        body["linked_at"] = linked_at
    return client.post("/api/v1/table-games/", body, format="json")


@pytest.fixture
def api(client_for, manager):
    return client_for(manager)


def test_a_link_takes_effect_from_the_time_given_and_its_event_keeps_when_it_was_entered(
    api, site, wa_table, ddm, ddm_controls, today
):
    given = _local(site, today - timedelta(days=3))
    response = _link(api, wa_table, ddm, given)
    assert response.status_code == 201, response.json()
    link = TableGame.objects.get(table=wa_table)
    assert link.linked_at == datetime.fromisoformat(given)
    event = AuditEvent.objects.get(action="table_game.linked")
    assert timezone.now() - event.occurred_at < timedelta(minutes=1)


@pytest.mark.parametrize(
    "when, words",
    [
        ("before_approval", "was approved on 2024-08-08: a table offers it from then on"),
        ("before_controls", "internal controls for this game, in effect on "),
        ("before_current", "a table's games are kept in the order they were offered"),
        ("future", "future"),
    ],
)
def test_a_link_dated_where_it_could_not_have_taken_effect_is_refused_and_writes_nothing(
    api, site, wa_table, ddm, ddm_controls, today, when, words
):
    if when == "before_current":
        assert _link(api, wa_table, ddm, _local(site, today - timedelta(days=2))).status_code == 201
    moments = {
        "before_approval": _local(site, ddm.approved_on - timedelta(days=1)),
        "before_controls": _local(site, ddm_controls.effective_on - timedelta(days=1)),
        "before_current": _local(site, today - timedelta(days=5)),
        "future": (timezone.now() + timedelta(hours=2)).isoformat(),
    }
    before = TableGame.objects.count()
    response = _link(api, wa_table, ddm, moments[when])
    assert response.status_code == 400, response.json()
    message = " ".join(response.json()["linked_at"]) if "linked_at" in response.json() else str(response.json())
    assert words in message, response.json()
    assert TableGame.objects.count() == before
