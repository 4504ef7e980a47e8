"""The WSGC blackjack rules, "Irregularities": "Card room operators must document in their internal
controls how they will address various irregularities applicable to Blackjack (e.g. misdeals, cards
exposed, incorrect number of cards, etc.)." Each version of the internal controls records them
(the API, the register page); a version in force without them is kept, since its options still
judge the tables, and flagged each night (`irregularities_undocumented`, one a site, game and
quarter), at Washington house-banked sites only. Driven through the API and the nightly task."""

from datetime import timedelta
from html import unescape

import pytest

from approvals.models import InternalControls
from compliance import tasks
from compliance.engine import DAY_PROVIDERS, run_day_checks, runs_at
from compliance.models import Alert
from tests.conformance.words import ND_WORDS, law_words_in

from .conftest import HOUSE_CONTROLS

PROCEDURES = "A misdeal voids the round and every wager is returned; an exposed card in the shoe is burned."


def controls(api, site, effective_on, approved_on, **extra):
    body = {
        "site": site.pk,
        "effective_on": str(effective_on),
        "approved_on": str(approved_on),
        "approved_by": "B. Lane, WSGC",
        **HOUSE_CONTROLS,
        **extra,
    }
    return api.post("/api/v1/internal-controls/", body, format="json")


def flagged(site):
    return list(Alert.objects.filter(site=site, rule="irregularities_undocumented").order_by("id"))


def nightly(site, today):
    tasks.run_daily_checks(str(today - timedelta(days=1)))
    return flagged(site)


def test_the_version_records_its_irregularities_and_the_api_reads_them_back(client_for, manager, site, today):
    api = client_for(manager)
    answer = controls(api, site, today - timedelta(days=30), today - timedelta(days=40), irregularities=PROCEDURES)
    assert answer.status_code == 201, answer.json()
    assert answer.json()["irregularities"] == PROCEDURES
    [read] = api.get("/api/v1/internal-controls/", {"site": site.pk}).json()["results"]
    assert read["irregularities"] == PROCEDURES
    assert nightly(site, today) == []


def test_a_version_in_force_without_them_is_flagged_each_quarter_until_one_documents_them(
    client_for, manager, site, today, time_machine
):
    api = client_for(manager)
    first = controls(api, site, today - timedelta(days=30), today - timedelta(days=40))
    assert first.status_code == 201 and first.json()["irregularities"] == ""  # kept: its options judge the tables
    [alert] = nightly(site, today)
    assert alert.citation == "WSGC Blackjack Game Rules (rev. April 2018), Irregularities"
    assert alert.title == "Internal controls say nothing of irregularities"
    assert alert.action_required == (
        "WSGC Blackjack Game Rules (rev. April 2018), Irregularities: the internal controls in force for "
        "House-banked blackjack (version 1) do not document how the card room addresses irregularities (misdeals, "
        "cards exposed, an incorrect number of cards); record a version that documents them."
    )
    assert alert.figures == {"game": "House-banked blackjack", "version": 1}
    assert not law_words_in(alert.action_required, ND_WORDS)
    assert nightly(site, today) == [alert]  # re-running is safe: the quarter's alert stands

    documented = controls(api, site, today, today, irregularities=PROCEDURES)
    assert documented.status_code == 201, documented.json()
    later = today + timedelta(days=100)  # a later quarter, the documented version in force
    time_machine.move_to(later, tick=False)
    assert nightly(site, later) == [alert]


def test_a_past_range_is_not_judged_by_the_version_in_force_today(client_for, manager, site, today):
    assert (
        controls(client_for(manager), site, today - timedelta(days=30), today - timedelta(days=40)).status_code == 201
    )
    past = today - timedelta(days=20)
    assert run_day_checks(site_ids=[site.pk], start=past, end=past).opened == []
    assert InternalControls.objects.count() == 1


def test_the_register_page_shows_them_or_says_they_are_missing(client, client_for, manager, site, today):
    api = client_for(manager)
    assert controls(api, site, today - timedelta(days=30), today - timedelta(days=40)).status_code == 201
    client.force_login(manager.user)
    page = client.get("/approvals/").content.decode()
    header = (
        '<th>Irregularities <small class="text-muted fw-normal">'
        "(WSGC Blackjack Game Rules (rev. April 2018), Irregularities)</small></th>"
    )
    assert header in page and "not documented" in page
    # a column of several settings is the settings allowed, not one rule: the page says so
    assert 'id="controls-note">Each option\'s column lists the settings the version allows' in page
    assert controls(api, site, today, today, irregularities=PROCEDURES).status_code == 201
    page = client.get("/approvals/").content.decode()
    assert PROCEDURES[:60] in page and page.count("not documented") == 1  # version 1 still says so


@pytest.mark.parametrize("code,judged", [("ND", False), ("WA-HB", True), ("WA-BJ", False), ("NY", False)])
def test_the_rule_runs_only_where_the_wsgc_rules_are_the_law(code, judged):
    [provider] = [p for p in DAY_PROVIDERS if p.__name__ == "irregularities_documented"]
    assert runs_at(provider, code) == judged


def test_the_register_page_shows_the_procedures_whole_never_cut_mid_sentence(client, client_for, manager, site, today):
    """The register cut the procedures at 160 characters ("An exposed card in the shoe is
    burned..."): the page is the only place they are read, so they are shown whole."""
    from approvals.demo import IRREGULARITIES

    api = client_for(manager)
    answer = controls(api, site, today - timedelta(days=30), today - timedelta(days=40), irregularities=IRREGULARITIES)
    assert answer.status_code == 201, answer.json()
    client.force_login(manager.user)
    page = unescape(client.get("/approvals/").content.decode())
    assert len(IRREGULARITIES) > 160 and IRREGULARITIES in page
