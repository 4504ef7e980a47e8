"""A licence or an internal-controls version that takes effect later leaves the tables as they were:
9 NYCRR 4620.5(h) ("The license shall reflect one of the following options", every table under it
following it) and the WSGC blackjack rules (each option the card room chooses documented in its
internal controls) are judged each night for every active table, as its own save judges it
(`approvals.checks.check_table`), so a table left behind is flagged on the first night the new
text is in force, not at its next edit. Driven through the API and the approvals services."""

from datetime import timedelta

import pytest

from approvals import services
from approvals.queries import site_today
from cardroom.models import Table
from compliance.engine import DAY_PROVIDERS, run_day_checks, runs_at
from tests.approvals.test_licence import licence, table
from tests.core.test_pack_table_rules import WA_HB_OK
from tests.factories import SiteFactory
from tests.pack_setup import EVERY_OPTION, record_controls


@pytest.fixture
def ny(org):
    return SiteFactory(organization=org, name="Kingston Fire Hall", jurisdiction="NY", time_zone="America/New_York")


@pytest.fixture
def api(client_for, manager):
    return client_for(manager)


def nightly(site):
    """The night's run: its range ends on the site's yesterday."""
    yesterday = site_today(site) - timedelta(days=1)
    return [a for a in run_day_checks(site_ids=[site.pk], start=yesterday, end=yesterday).opened
            if a.rule == "table_out_of_line"]  # fmt: skip


def test_a_new_licence_option_in_force_flags_the_tables_still_on_the_old_one(api, ny, time_machine):
    today = site_today(ny)
    assert licence(api, 1, today - timedelta(days=100)).status_code == 201
    assert table(api, ny).status_code == 201
    assert table(api, ny, number=2).status_code == 201
    later = licence(api, 3, today + timedelta(days=5))
    assert later.status_code == 201, later.json()
    assert nightly(ny) == []  # option 1 still in force
    time_machine.move_to(today + timedelta(days=7), tick=False)
    alerts = nightly(ny)
    assert [a.figures["table"] for a in alerts] == [1, 2]
    first = alerts[0]
    assert (
        first.citation == "9 NYCRR 4620.5(h)"
        and first.title == "Table no longer follows its licence or internal controls"
    )
    assert first.action_required.startswith("9 NYCRR 4620.5(h): table 1 no longer follows what is in force today;")
    assert "reflects tie option 3" in first.action_required and first.figures["problems"] == ["Tie option"]
    assert nightly(ny) == []  # the quarter's alerts stand: not a second each night
    follows = api.patch(
        f"/api/v1/tables/{table_id(ny, 2)}/", {"tie_option": 3, "blackjack_payout": "2:1"}, format="json"
    )
    assert follows.status_code == 200, follows.json()


def table_id(site, number):
    return Table.objects.get(site=site, number=number).pk


def test_a_past_range_is_not_judged_by_todays_texts(api, ny):
    today = site_today(ny)
    assert licence(api, 1, today - timedelta(days=100)).status_code == 201
    assert table(api, ny).status_code == 201
    assert licence(api, 3, today).status_code == 201  # in force today: table 1 out of line now
    past = today - timedelta(days=30)
    assert [a for a in run_day_checks(site_ids=[ny.pk], start=past, end=past).opened
            if a.rule == "table_out_of_line"] == []  # fmt: skip
    [alert] = nightly(ny)
    assert alert.figures["table"] == 1


def test_internal_controls_taking_effect_later_flag_a_table_using_what_they_drop(
    client_for, manager, site, time_machine
):
    site.jurisdiction = "WA-HB"
    site.save()
    record_controls(manager, site)  # every option documented, in effect 30 days ago
    api = client_for(manager)
    body = {"site": site.pk, "number": 1, "game": "21", **WA_HB_OK}  # late surrender among its options
    created = api.post("/api/v1/tables/", body, format="json")
    assert created.status_code == 201, created.json()
    today = site_today(site)

    services.record_internal_controls(
        acting_user=manager.user, site=site, effective_on=today + timedelta(days=3), approved_on=today,
        approved_by="B. Lane, WSGC", **{**EVERY_OPTION, "surrender": ["none"]},
    )  # fmt: skip
    assert nightly(site) == []
    time_machine.move_to(today + timedelta(days=4), tick=False)
    [alert] = nightly(site)
    assert alert.citation.startswith("WSGC") and alert.figures == {"table": 1, "problems": ["Surrender"]}
    assert "99-01.3" not in alert.action_required and "NYCRR" not in alert.action_required


@pytest.mark.parametrize("code,judged", [("ND", False), ("WA-HB", True), ("WA-BJ", False), ("NY", True)])
def test_the_rule_runs_where_a_licence_or_internal_controls_are_the_law(code, judged):
    [provider] = [p for p in DAY_PROVIDERS if p.__name__ == "tables_in_line"]
    assert runs_at(provider, code) == judged
