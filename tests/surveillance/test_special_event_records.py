"""A site's special events (ND 99-01.3-08-04, opening paragraph), recorded through the API, and
the exemption read from them as the text reads: per site, by the event's consecutive days
(issue 32). A temporary table dealt on a day no event covers needs a system; two tables of one
event are one event; a third event of the site in a quarter is not exempt whichever table it uses."""

from datetime import date, timedelta

import pytest

from cardroom.models import Role
from core.models import AuditEvent
from surveillance import queries
from surveillance.models import SpecialEvent
from tests.factories import TableFactory

URL = "/api/v1/surveillance/special-events/"


@pytest.fixture
def api(client_for, manager):
    return client_for(manager)


def record(api, site, first: date, days: int, name="Fair", **extra):
    body = {"site": site.pk, "name": name, "first_day": str(first), "last_day": str(first + timedelta(days=days - 1))}
    return api.post(URL, {**body, **extra}, format="json")


def requires(table, day) -> bool:
    return queries.table_requires_surveillance(table, day)


@pytest.fixture
def required(manager, site):
    from surveillance import services

    services.set_surveillance_status(manager.user, site, True, date(2026, 1, 1), None, "Required")
    return site


def test_a_gaming_manager_records_an_event_and_it_is_audited(api, site, required):
    response = record(api, site, date(2026, 7, 1), 3)
    assert response.status_code == 201, response.json()
    assert response.json()["first_day"] == "2026-07-01" and response.json()["last_day"] == "2026-07-03"
    assert AuditEvent.objects.filter(action="surveillance.special_event.recorded").count() == 1
    assert [e["name"] for e in api.get(URL, {"site": site.pk}).json()["results"]] == ["Fair"]


def test_the_days_are_the_events_not_the_days_a_table_was_dealt(api, site, required):
    """An event of 15 consecutive days: its table needs a system on each of them, even on its
    first days, and a day without play in it does not start a new event."""
    one, two = (TableFactory(site=site, number=n, location="special_event") for n in (8, 9))
    assert record(api, site, date(2026, 7, 1), 14).status_code == 201
    assert not requires(one, date(2026, 7, 1)) and not requires(two, date(2026, 7, 14))
    assert requires(one, date(2026, 7, 15))  # no event covers the day: not brought on for one
    assert record(api, site, date(2026, 8, 1), 15, name="Long fair").status_code == 201
    assert requires(one, date(2026, 8, 1)) and requires(two, date(2026, 8, 15))


def test_the_events_are_counted_per_site_whichever_table_is_used(api, site, other_site, required, manager):
    from surveillance import services

    services.set_surveillance_status(manager.user, other_site, True, date(2026, 1, 1), None, "Required")
    one = TableFactory(site=site, number=8, location="special_event")
    two = TableFactory(site=site, number=9, location="special_event")
    elsewhere = TableFactory(site=other_site, number=9, location="special_event")
    for first in (date(2026, 7, 3), date(2026, 8, 7), date(2026, 9, 4)):
        assert record(api, site, first, 2).status_code == 201
    assert record(api, other_site, date(2026, 9, 4), 2).status_code == 201
    assert not requires(one, date(2026, 7, 3)) and not requires(two, date(2026, 8, 8))
    third = queries.special_event_exemption(two, date(2026, 9, 4))
    assert (third.exempt, third.event_number) == (False, 3) and requires(two, date(2026, 9, 4))
    assert third.cited(site).startswith("ND 99-01.3-08-04: event 3 of the site in 2026Q3")
    assert not requires(elsewhere, date(2026, 9, 4))  # the other site's first event


def test_an_event_overlapping_another_is_refused_and_a_correction_replaces_it(api, site, required):
    first = record(api, site, date(2026, 7, 1), 3).json()
    overlapping = record(api, site, date(2026, 7, 3), 3)
    assert overlapping.status_code == 400
    assert overlapping.json()["first_day"][0].startswith("ND 99-01.3-08-04: the event's days overlap Fair")
    corrected = record(api, site, date(2026, 7, 2), 20, name="Fair (longer)", corrects=first["id"])
    assert corrected.status_code == 201, corrected.json()
    table = TableFactory(site=site, number=9, location="special_event")
    assert requires(table, date(2026, 7, 2))  # the event in force runs 20 days
    assert SpecialEvent.objects.count() == 2  # the first is kept (append-only)


def test_bad_days_and_other_roles_are_refused_naming_the_rule(api, client_for, cast, site, required):
    backwards = api.post(
        URL, {"site": site.pk, "name": "Fair", "first_day": "2026-07-05", "last_day": "2026-07-01"}, format="json"
    )
    assert backwards.status_code == 400 and backwards.json()["last_day"][0].startswith("ND 99-01.3-08-04: ")
    refused = record(client_for(cast[Role.SHIFT_MANAGER]), site, date(2026, 7, 1), 2)
    assert refused.status_code == 403
    assert not SpecialEvent.objects.exists()


@pytest.mark.parametrize("jurisdiction", ["WA-HB", "WA-BJ", "NY"])
def test_no_special_event_is_recorded_where_the_pack_states_no_exemption(api, site, jurisdiction):
    site.jurisdiction = jurisdiction
    site.save()
    response = record(api, site, date(2026, 7, 1), 2)
    assert response.status_code == 400
    message = response.json()["site"][0]
    assert message.startswith("House control: ") and "99-01.3" not in message
