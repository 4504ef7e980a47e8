"""The chip float (issue 36): the chips the inventory log says exist = the banks' last counts +
the trays' last counts + the chips outstanding with players (derived). The nightly check opens an
alert citing the inventory rule of the site's pack when the banks and trays hold more than
exist; the chip inventory report shows the figure; the demo reconciles."""

from datetime import timedelta

import pytest

from cage import queries
from cage import services as cage
from cardroom.models import Role
from compliance.engine import run_day_checks
from compliance.models import Alert
from floor import services as floor
from tests.factories import make_chips, make_person
from tests.floor.conftest import TRAY, today

ND_INVENTORY = "ND 99-01.3-08-16(2), (6); SFN 17930"


@pytest.fixture
def played(site, table, chips, cast):
    """Today's gaming day at `site`: the bank counted (300 $25 chips), table 1 opened with 40
    $25, 160 $5 and 200 $1 chips."""
    day = today(site)
    shift = cast[Role.SHIFT_MANAGER]
    floor.open_gaming_day(acting_user=shift.user, site=site, gaming_date=day)
    cage.record_bank_count(acting_user=cast[Role.CASHIER].user, site=site, gaming_date=day, kind="start",
                           cash={2000: 100}, chips={2500: 300, 500: 400, 100: 500})  # fmt: skip
    floor.record_table_inventory(acting_user=shift.user, table=table, kind="opener", chips=TRAY)
    return day


def receive(org, manager, day, chips):
    return cage.receive_chips(acting_user=manager.user, organization=org, received_on=day - timedelta(days=1),
                              reference="Invoice 7", chips=chips)  # fmt: skip


def float_alerts():
    return list(Alert.objects.filter(rule="chip_float").order_by("subject"))


def test_chips_that_reconcile_open_no_alert(org, site, played, manager):
    receive(org, manager, played, {2500: 400, 500: 1000, 100: 1000})
    chips = queries.chip_float(org, played)
    assert chips.rows()[0] == (2500, 400, 300, 40, 60)  # exist = bank + trays + outstanding
    assert chips.short == []
    run_day_checks(site_ids=[site.pk], start=played, end=played)
    assert float_alerts() == []


def test_banks_and_trays_holding_more_than_exist_open_the_alert_citing_the_inventory_rule(org, site, played, manager):
    receive(org, manager, played, {2500: 200, 500: 1000, 100: 1000})
    result = run_day_checks(site_ids=[site.pk], start=played, end=played)
    (alert,) = float_alerts()
    assert alert in result.opened and alert.site_id == site.pk and alert.subject == "chip:2500"
    assert alert.citation == ND_INVENTORY and alert.action_required.startswith(ND_INVENTORY)
    assert "200 $25.00 chips exist" in alert.action_required and "140 more than exist" in alert.action_required
    assert alert.figures == {"value_cents": 2500, "exist": 200, "bank": 300, "trays": 40, "outstanding": -140,
                             "site_bank": 300, "site_trays": 40}  # fmt: skip
    # The next night, with nothing counted since, the same alert stands (no second one).
    run_day_checks(site_ids=[site.pk], start=played, end=played)
    assert len(float_alerts()) == 1


def test_a_later_count_stands_for_the_bank_and_the_tray(org, site, played, table, manager, cast):
    """The ending count after the starting one, and the table's closer after its opener."""
    receive(org, manager, played, {2500: 330, 500: 1000, 100: 1000})
    assert queries.chip_float(org, played).short == [2500]  # 300 + 40 > 330
    cage.record_bank_count(acting_user=cast[Role.CASHIER].user, site=site, gaming_date=played, kind="end",
                           cash={2000: 100}, chips={2500: 280, 500: 400, 100: 500})  # fmt: skip
    assert queries.chip_float(org, played).rows()[0] == (2500, 330, 280, 40, 10)


def test_the_organization_adds_up_every_site(org, site, other_site, played, manager, cast):
    """Each site alone holds fewer than exist; together they hold more: both sites are flagged."""
    receive(org, manager, played, {2500: 500, 500: 1000, 100: 1000})
    other_cashier = make_person(org, Role.CASHIER, other_site)
    cage.record_bank_count(acting_user=other_cashier.user, site=other_site, gaming_date=today(other_site),
                           kind="start", cash={2000: 10}, chips={2500: 250})  # fmt: skip
    run_day_checks(site_ids=[site.pk, other_site.pk], start=played, end=played)
    alerts = float_alerts()
    assert {a.site_id for a in alerts} == {site.pk, other_site.pk}
    assert {a.figures["outstanding"] for a in alerts} == {500 - 300 - 40 - 250}


def test_at_a_site_of_a_pack_stating_no_inventory_rule_the_alert_cites_house_control(org, site, played, manager):
    site.jurisdiction = "WA-HB"
    site.save()
    receive(org, manager, played, {2500: 10})
    run_day_checks(site_ids=[site.pk], start=played, end=played)
    alerts = float_alerts()
    assert [a.subject for a in alerts] == ["chip:100", "chip:2500", "chip:500"]
    assert {a.citation for a in alerts} == {"House control"}
    assert not any("ND " in a.action_required or "SFN" in a.action_required for a in alerts)


def test_an_organization_keeping_no_inventory_log_is_not_judged(org, site, played):
    assert queries.chip_float(org, played) is None
    run_day_checks(site_ids=[site.pk], start=played, end=played)
    assert float_alerts() == []


def test_the_check_reads_a_fixed_number_of_queries_whatever_the_sites(org, site, other_site, played, manager):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.factories import OrganizationFactory, SiteFactory, TableFactory

    receive(org, manager, played, {2500: 400})
    with CaptureQueriesContext(connection) as one:
        queries.chip_floats([org.pk], played)
    more = [OrganizationFactory() for _ in range(3)]
    for other in more:
        gm = make_person(other, Role.GAMING_MANAGER)
        make_chips(other)
        receive(other, gm, played, {2500: 10})
        TableFactory(site=SiteFactory(organization=other), number=1)
    with CaptureQueriesContext(connection) as many:
        found = queries.chip_floats([org.pk, *(o.pk for o in more)], played)
    assert len(one) == len(many) == 3 and set(found) == {org.pk, *(o.pk for o in more)}


@pytest.mark.unshared  # the demo refuses an organization of its name it did not make: the module's shared one (NotTheDemos)
def test_the_demo_reconciles(db):
    """The demo's banks and trays never hold more chips than its inventory log says exist: no
    chip float alert, at any demo site, on the demo's last night."""
    from django.utils import timezone

    from tests.api.demo import load_short_demo

    demo = load_short_demo(weeks=1)
    yesterday = timezone.localdate() - timedelta(days=1)
    chips = queries.chip_float(demo["organization"], yesterday)
    assert chips is not None and chips.banks and chips.trays
    assert chips.short == [], chips.rows()
    assert all(outstanding >= 0 for *_, outstanding in chips.rows())
    run_day_checks(site_ids=[s.pk for s in demo["sites"].values()], start=yesterday - timedelta(days=6), end=yesterday)
    assert float_alerts() == []


def test_the_chip_inventory_page_shows_exist_banks_trays_and_outstanding(org, site, played, manager, cast):
    import re

    from django.test import Client

    receive(org, manager, played, {2500: 200, 500: 1000, 100: 1000})
    client = Client()
    client.force_login(cast[Role.AUDITOR].user)
    html = client.get("/cage/inventory/").content.decode()
    table = html[html.index('id="chip-float"') :]
    table = table[: table.index("</table>")]
    rows = [re.sub(r"<[^>]+>", " ", row).split() for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S)]
    assert rows[1:] == [
        ["$25.00", "200", "300", "40", "-140", "(more", "than", "exist)"],
        ["$5.00", "1000", "400", "160", "440"],
        ["$1.00", "1000", "500", "200", "300"],
    ]
    assert 'class="table-danger"' in table
