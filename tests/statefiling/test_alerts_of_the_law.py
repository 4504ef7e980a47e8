"""A registry receives the alerts of the rules its own law states, not the organization's house
controls: at a Washington house-banked site a late bank deposit is a house control (Washington's
texts set no deposit day; North Dakota's third banking day is 99-01.3-03-10), so its alert stays at
home, while a table out of line with the WSGC blackjack rules goes to the Washington regulator."""

from datetime import UTC, date, datetime

import time_machine
from django.contrib.auth import get_user_model
from django.test import Client

from compliance.models import Alert
from core.rules import HOUSE_CONTROL
from registry import services as registry
from registry.models import Agency, Licensee, ReceivedAlert, Regulator, RegulatorRole
from statefiling import services, tasks
from tests.reports.test_pack_words import House

from .registry_in_process import URL

DURING_THE_QUARTER = datetime(2026, 8, 20, 18, 0, tzinfo=UTC)  # the nightly rules judge "as of today"


def alerts_raised(client_for, jurisdiction: str) -> House:
    """A house of `jurisdiction` whose day's bank deposit was never made, its checks run by its
    gaming manager for the quarter (the API's compliance run)."""
    here = House(jurisdiction).play()
    with time_machine.travel(DURING_THE_QUARTER, tick=False):
        run = client_for(here.manager).post(
            "/api/v1/compliance-runs/", {"site": here.site.pk, "quarter": "2026Q3"}, format="json"
        )
    assert run.status_code == 200, run.content
    return here


def linked_to_its_registry(here: House, jurisdiction: str):
    """The house linked, alerts shared, to its pack's registry (reached in this process), and that
    agency's state auditor's browser."""
    agency = Agency.objects.create(name=f"{jurisdiction} regulator", jurisdiction=jurisdiction)
    licensee = Licensee.objects.create(
        agency=agency,
        name=here.org.name,
        licence_number=here.org.licence_number or "L-1",
        expected_from=date(2026, 1, 1),
    )
    issued = registry.issue_credential(acting_user=None, licensee=licensee)
    link = services.connect_registry(
        acting_user=here.manager.user,
        organization=here.org,
        jurisdiction=jurisdiction,
        url=URL,
        credential=issued.secret,
        share_alerts=True,
    )
    user = get_user_model().objects.create_user(f"auditor-{jurisdiction}", password="x")
    Regulator.objects.create(user=user, agency=agency, role=RegulatorRole.STATE_AUDITOR)
    browser = Client()
    browser.force_login(user)
    return link, browser


def test_a_washington_house_banked_sites_house_control_alert_stays_home_and_its_wac_alert_is_shared(
    db, in_process_registry, client_for
):
    here = alerts_raised(client_for, "WA-HB")
    raised = dict(Alert.objects.filter(site=here.site).values_list("rule", "citation"))
    assert raised["deposit_late"] == HOUSE_CONTROL  # Washington's texts set no deposit day
    assert raised["table_out_of_line"].startswith("WSGC Blackjack Game Rules")
    link, state = linked_to_its_registry(here, "WA-HB")

    sent = services.alerts_to_share(link)
    assert [a["rule"] for a in sent] == ["table_out_of_line"]
    assert tasks.push_alerts(link.pk, sent) == {"stored": 1, "already_held": 0}  # what the nightly job queues
    assert list(ReceivedAlert.objects.values_list("rule", flat=True)) == ["table_out_of_line"]
    page = state.get("/registry/alerts/").content.decode()
    assert "WSGC Blackjack Game Rules" in page and "Bank deposit late" not in page and HOUSE_CONTROL not in page


def test_a_north_dakota_site_shares_every_alert_and_each_cites_north_dakotas_law(db, in_process_registry, client_for):
    here = alerts_raised(client_for, "ND")
    link, state = linked_to_its_registry(here, "ND")
    sent = services.alerts_to_share(link)
    assert {"deposit_late", "count_not_removed"} <= {a["rule"] for a in sent}
    assert len(sent) == Alert.objects.filter(site=here.site).count()
    assert all(a["citation"].startswith("ND 99-01.3-") for a in sent)
    assert tasks.push_alerts(link.pk, sent)["stored"] == len(sent)
    page = state.get("/registry/alerts/").content.decode()
    assert "ND 99-01.3-03-10(1)" in page and HOUSE_CONTROL not in page
