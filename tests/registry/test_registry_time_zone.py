"""The registry's times and dates are its agency's (the pack's `state_time_zone`), whatever the
server's zone: a return received on its due day in the state's calendar is on time, and a
Washington agency reads a receipt's time as Olympia's clock reads it, not Chicago's."""

from datetime import UTC, datetime

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.test import Client

from packs import get_pack
from registry.models import Agency, Regulator, RegulatorRole

from .test_registry_api import FILINGS, LICENSEES, _licensee, licensee_client, package, post_filing, regulator_client


def page_client(agency, username):
    user = get_user_model().objects.create_user(username, password="x")
    Regulator.objects.create(user=user, agency=agency, role=RegulatorRole.STATE_AUDITOR)
    client = Client()
    client.force_login(user)
    return client


def test_every_pack_names_its_regulators_zone():
    assert get_pack("ND").state_time_zone == "America/Chicago"
    assert get_pack("WA-HB").state_time_zone == get_pack("WA-BJ").state_time_zone == "America/Los_Angeles"
    assert get_pack("NY").state_time_zone == "America/New_York"


@pytest.mark.parametrize(("received", "state"), [("2026-11-01T04:30:00", "on time"), ("2026-11-01T05:30:00", "late")])
def test_a_return_is_late_by_the_states_calendar_not_the_servers(db, settings, received, state):
    """2026Q3's ND return is due on the last day of the month after the quarter (2026-10-31).
    04:30 UTC on November 1 is 23:30 on October 31 in Bismarck (on time); 05:30 UTC is 00:30 on
    November 1 (late). On a server kept in UTC both were November 1, and the first read late."""
    settings.TIME_ZONE = "UTC"
    agency = Agency.objects.create(name="North Dakota Attorney General - Gaming Division", jurisdiction="ND")
    _row, issued = _licensee(agency, "Elks", "G-1")
    with time_machine.travel(datetime.fromisoformat(received).replace(tzinfo=UTC), tick=False):
        assert post_filing(licensee_client(issued), package(site_id=1)).status_code == 201
    with time_machine.travel(datetime(2026, 11, 20, 12, tzinfo=UTC), tick=False):
        body = regulator_client(agency).get(LICENSEES).json()["results"][0]
        html = page_client(agency, "state-page").get("/registry/").content.decode()
    late = [q["quarter"] for q in body["late"]]
    assert late == (["2026Q3"] if state == "late" else [])
    late_cell = html[html.index('data-label="Late"') : html.index('data-label="Missing"')]
    assert ("Elks Lodge 2026Q3 (due 2026-10-31" in late_cell) == (state == "late")
    assert "2026Q3" not in [q["quarter"] for q in body["missing"]]


def test_a_washington_agency_reads_receipt_times_on_its_own_clock(db):
    agency = Agency.objects.create(name="Washington State Gambling Commission", jurisdiction="WA-HB")
    _row, issued = _licensee(agency, "Evergreen", "WSGC-1")
    with time_machine.travel(datetime(2026, 10, 5, 3, 15, tzinfo=UTC), tick=False):  # 20:15 on the 4th in Lacey
        assert (
            post_filing(
                licensee_client(issued), package(site_id=3, jurisdiction="WA-HB", licence="WSGC-1", name="Evergreen")
            ).status_code
            == 201
        )
    client = page_client(agency, "wsgc")
    filings = client.get("/registry/filings/").content.decode()
    assert "2026-10-04 20:15" in filings and "2026-10-04 22:15" not in filings  # not Chicago's clock
    quarter = client.get("/registry/quarter/", {"quarter": "2026Q3"}).content.decode()
    assert "2026-10-04 20:15" in quarter
    text = client.get("/registry/quarter/", {"quarter": "2026Q3", "format": "csv"}).content.decode()
    assert "2026-10-04T20:15:00-07:00" in text


@pytest.mark.parametrize("failure", [False, True])
def test_the_agencys_zone_holds_inside_the_view_and_ends_with_the_answer(db, settings, monkeypatch, failure):
    """The registry's API answers in its agency's zone from the moment the party is known
    (`RegistryView.initial`) to the answer's end (`dispatch`), an error's answer too; the server's
    zone is the thread's again after it."""
    from django.utils import timezone
    from rest_framework.response import Response

    from registry import api

    settings.TIME_ZONE = "America/Chicago"
    agency = Agency.objects.create(name="Washington State Gambling Commission", jurisdiction="WA-HB")
    client = regulator_client(agency)
    client.raise_request_exception = False
    inside = []

    def answer(self, request):
        inside.append(timezone.get_current_timezone_name())
        if failure:
            raise RuntimeError("a fault inside the view")
        return Response({})

    monkeypatch.setattr(api.FilingsView, "get", answer)
    assert client.get(FILINGS).status_code == (500 if failure else 200)
    assert inside == ["America/Los_Angeles"]
    assert timezone.get_current_timezone_name() == "America/Chicago"


def test_a_receipts_year_is_the_year_the_state_received_it_on_its_own_calendar(db, settings):
    """20:00 on December 31 in Bismarck is 02:00 on January 1 in UTC: the return was received in
    2026 by the state's calendar (its filings page says so), and its receipt is numbered in 2026,
    not in a year the agency had not reached."""
    settings.TIME_ZONE = "UTC"
    agency = Agency.objects.create(name="North Dakota Attorney General - Gaming Division", jurisdiction="ND")
    _row, issued = _licensee(agency, "Elks", "G-1")
    with time_machine.travel(datetime(2027, 1, 1, 2, tzinfo=UTC), tick=False):
        receipt = post_filing(licensee_client(issued), package(site_id=1, quarter="2026Q4")).json()
    assert receipt["receipt_number"] == "ND-2026-000001"
    assert "2026-12-31 20:00" in page_client(agency, "state-page").get("/registry/filings/").content.decode()


@pytest.mark.parametrize("jurisdiction", ["NY", "WA-HB", "WA-BJ"])
def test_a_states_staff_read_their_rules_by_name_not_a_packs_code_or_a_command(db, jurisdiction):
    """Found walking the registry as the NY and WA agencies' staff: "The NY pack sets no day a return
    is due" and "manage.py verify_registry", words for the product's developers and operators."""
    agency = Agency.objects.create(name=f"{jurisdiction} regulator", jurisdiction=jurisdiction)
    client = page_client(agency, f"staff-{jurisdiction}")
    name = get_pack(jurisdiction).name
    pages = [client.get(path) for path in ("/registry/", "/registry/quarter/?quarter=2026Q3", "/registry/filings/")]
    assert [page.status_code for page in pages] == [200, 200, 200]
    html = " ".join(" ".join(page.content.decode().split()) for page in pages)
    assert f"The {name} rules set no day a return is due" in html
    assert f"the {name} rules set no day a return is due" in html
    assert " pack " not in html and "manage.py" not in html
