"""The special events page (ND 99-01.3-08-04, opening paragraph) under /surveillance/: the site's
events for the readers of its surveillance records, the form to record one for a gaming manager
only, the service's refusals inline with the rule's citation; no page and no menu entry where the
site's pack states no such exemption."""

from datetime import date

import pytest
import time_machine

from cardroom.models import Role
from surveillance import services
from surveillance.models import SpecialEvent
from tests.conftest import ALL_ROLES

from .conftest import local

URL = "/surveillance/special-events/"
READERS = {Role.GAMING_MANAGER, Role.SHIFT_MANAGER, Role.PIT_BOSS, Role.AUDITOR}


@pytest.fixture(autouse=True)
def _on_a_day():
    with time_machine.travel(local(2026, 8, 20, 12), tick=False):
        yield


def event(manager, site, first, last, name="County fair"):
    return services.record_special_event(acting_user=manager.user, site=site, name=name, first_day=first,
                                         last_day=last)  # fmt: skip


@pytest.mark.parametrize("role", ALL_ROLES)
def test_the_page_opens_for_the_readers_and_only_a_gaming_manager_gets_the_form(client, cast, site, manager, role):
    event(manager, site, date(2026, 7, 1), date(2026, 7, 4))
    client.force_login(cast[role].user)
    page = client.get(URL)
    assert page.status_code == (200 if role in READERS else 403)
    if role in READERS:
        body = page.content.decode()
        assert "County fair" in body and "2026-07-04" in body and "ND 99-01.3-08-04" in body
        assert ('id="special-event-form"' in body) == (role == Role.GAMING_MANAGER)
    posted = client.post(URL, {"name": "Rodeo", "first_day": "2026-08-01", "last_day": "2026-08-03"})
    assert posted.status_code == (302 if role == Role.GAMING_MANAGER else 403)
    assert SpecialEvent.objects.filter(name="Rodeo").exists() == (role == Role.GAMING_MANAGER)


@pytest.mark.parametrize("role,sees", [(r, r in READERS) for r in ALL_ROLES])
def test_the_menu_entry_shows_to_the_readers_at_a_north_dakota_site(client, cast, site, role, sees):
    client.force_login(cast[role].user)
    assert (URL in client.get("/").content.decode()) == sees


def test_a_refusal_of_the_service_is_shown_inline_citing_the_rule(client, cast, site, manager):
    event(manager, site, date(2026, 7, 1), date(2026, 7, 4))
    client.force_login(manager.user)
    overlapping = client.post(URL, {"name": "Rodeo", "first_day": "2026-07-03", "last_day": "2026-07-06"})
    assert overlapping.status_code == 400
    body = overlapping.content.decode()
    assert 'id="error-first_day"' in body and "ND 99-01.3-08-04: the event&#x27;s days overlap County fair" in body
    backwards = client.post(URL, {"name": "Rodeo", "first_day": "2026-08-06", "last_day": "2026-08-03"})
    assert backwards.status_code == 400 and 'id="error-last_day"' in backwards.content.decode()
    assert "ND 99-01.3-08-04: an event runs on consecutive days" in backwards.content.decode()
    assert SpecialEvent.objects.count() == 1


def test_a_correction_replaces_the_event_and_the_page_says_so(client, cast, site, manager):
    wrong = event(manager, site, date(2026, 7, 1), date(2026, 7, 4))
    client.force_login(manager.user)
    fixed = client.post(URL, {"name": "County fair", "first_day": "2026-07-02", "last_day": "2026-07-05",
                              "corrects": wrong.pk})  # fmt: skip
    assert fixed.status_code == 302
    assert SpecialEvent.objects.get(corrects=wrong).first_day == date(2026, 7, 2)
    assert "(replaced by a correction)" in client.get(URL).content.decode()


def test_a_third_event_of_the_quarter_reads_as_not_exempt(client, cast, site, manager):
    for n, day in enumerate((1, 10, 20), start=1):
        event(manager, site, date(2026, 7, day), date(2026, 7, day + 2), name=f"Event {n}")
    client.force_login(cast[Role.AUDITOR].user)
    body = client.get(URL).content.decode()
    assert "Event 2 of the quarter: temporary tables need no system" in body
    assert "Not exempt: ND 99-01.3-08-04: event 3 of the site in 2026Q3" in body


@pytest.mark.parametrize("code", ["WA-HB", "WA-BJ", "NY"])
@pytest.mark.parametrize("role", [Role.GAMING_MANAGER, Role.AUDITOR, Role.SHIFT_MANAGER])
def test_no_page_and_no_menu_entry_where_the_pack_states_no_such_exemption(client, cast, site, code, role):
    site.jurisdiction = code
    site.save()
    client.force_login(cast[role].user)
    assert client.get(URL).status_code == 404
    assert client.post(URL, {"name": "Fair", "first_day": "2026-08-01", "last_day": "2026-08-02"}).status_code in (
        403, 404)  # fmt: skip
    home = client.get("/").content.decode()
    assert URL not in home and "Special events" not in home
    assert not SpecialEvent.objects.exists()
