"""Text no database keeps (a NUL character, or half of a UTF-16 surrogate pair: JSON's "\\ud800"
escape alone) sent to the organization's API where no DRF text field reads it is a 400 keyed by
where it is, in the words of House control, and nothing is written (core.limits.UNKEEPABLE, read
by core.parsers as a body is parsed and by its KeptTextMiddleware for the query and the headers).

Before: half a pair in a choice, a list of choices or an unknown field's name was a 500 (the 400
that quoted it could not be encoded as UTF-8); a JSON object's NUL was kept on SQLite and a vague
"value out of range" 400 on PostgreSQL; a day sheet's initials said no rule; a query parameter's
NUL was a filter's "Null characters are not allowed." naming no rule, or ignored (a yes-or-no
filter, the alerts' status); a token holding one was a 401 naming no rule on SQLite and reached
PostgreSQL's refusal. A query string or a header carries no half pair (HTTP sends bytes; a query
decodes one as U+FFFD), so those are sent a NUL only. A path id holding either answers 404, as any
id that is not a number does."""

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from cardroom.models import Table
from compliance import services as compliance
from compliance.models import AlertStep
from core.models import AuditEvent
from floor.calculations import business_date
from floor.models import GamingDay
from tests.compliance.test_alerts import finding

pytestmark = pytest.mark.django_db

NUL, HALF_PAIR = "a\x00b", "a\ud800b"
KEPT = "House control: give text a database keeps: no NUL character and no half of a UTF-16 surrogate pair."


def two_days_ago(site):
    return business_date(timezone.now(), site.time_zone, site.business_day_start_hour) - timedelta(days=2)


def table_with_game(site, text):
    return {"site": site.pk, "number": 4, "game": text, "min_wager_cents": 100, "max_wager_cents": 2500}


def day_sheet_opened_by(site, text):
    day = two_days_ago(site)
    return {"gaming_date": day.isoformat(), "open": {"opened_at": f"{day.isoformat()}T19:00:00", "opened_by": text}}


# (path, body of the text, where the answer keys it, the model a success would write); a body is
# JSON and sent with a NUL and with half a pair.
BODIES = {
    "a choice (a table's game)": ("/api/v1/tables/", table_with_game, "game", Table),
    "an unknown field's name": (
        "/api/v1/gaming-days/",
        lambda site, text: {"site": site.pk, "gaming_date": two_days_ago(site).isoformat(), text: 1},
        "non_field_errors",
        GamingDay,
    ),
    "a JSON object's value (an alert's documentation)": (
        "/api/v1/alerts/{alert}/document/",
        lambda site, text: {"note": "AG contacted", "documentation": {"contacted_person": text}},
        "documentation.contacted_person",
        AlertStep,
    ),
    "a nested reference (a day sheet's initials)": (
        "/api/v1/sites/{site}/day-sheets/",
        day_sheet_opened_by,
        "open.opened_by",
        GamingDay,
    ),
}

# (path with the query, the parameter the answer keys): each sent a NUL.
QUERIES = {
    "a text filter": ("/api/v1/alerts/?rule=", "rule"),
    "a parameter a view compares": ("/api/v1/alerts/?status=", "status"),
    "a yes-or-no filter": ("/api/v1/tables/?active=", "active"),
    "a choice filter": ("/api/v1/tables/?game=", "game"),
    "an id filter": ("/api/v1/tables/?site=", "site"),
    "a date filter": ("/api/v1/fill-slips/?gaming_date=", "gaming_date"),
    "a report's kind": ("/api/v1/reports/?kind=", "kind"),
}


@pytest.fixture
def alert(site):
    return compliance.open_alert(finding(site), organization_id=site.organization_id)[0]


def written(model) -> tuple[int, int]:
    return model.objects.count(), AuditEvent.objects.count()


@pytest.mark.parametrize("text", [NUL, HALF_PAIR], ids=["NUL", "half a pair"])
@pytest.mark.parametrize("place", BODIES)
def test_a_body_holding_text_no_database_keeps_is_a_400_keyed_where_and_writes_nothing(
    client_for, manager, site, chips, alert, place, text
):
    path, body, where, model = BODIES[place]
    api = client_for(manager)
    api.raise_request_exception = False  # a 500 is an answer to assert, not the test's error
    before = written(model)
    sent = json.dumps(body(site, text))  # half a pair escaped (\ud800), as a client's JSON sends it
    answer = api.generic("POST", path.format(site=site.pk, alert=alert.pk), sent, content_type="application/json")
    assert (answer.status_code, answer.json()) == (400, {where: [KEPT]}), answer.content[:300]
    assert written(model) == before


@pytest.mark.parametrize("place", QUERIES)
def test_a_query_parameter_holding_a_nul_is_a_400_naming_it(client_for, manager, place):
    path, parameter = QUERIES[place]
    answer = client_for(manager).get(path + "a%00b")
    assert (answer.status_code, answer.json()) == (400, {parameter: [KEPT]})


def test_a_token_holding_a_nul_is_a_400_naming_the_header_and_nothing_is_looked_up(client, manager):
    before = AuditEvent.objects.count()
    answer = client.post("/api/v1/gaming-days/", {}, headers={"Authorization": "Token a\x00b"})
    assert (answer.status_code, answer.json()) == (400, {"Authorization": [KEPT]})
    assert AuditEvent.objects.count() == before
