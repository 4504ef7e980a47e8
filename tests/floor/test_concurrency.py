"""Gapless numbering under concurrent preparers, on whichever database the suite runs
(SQLite by default, PostgreSQL with DATABASE_URL): ND 99-01.3-08-05(2)."""

import re
import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from cardroom.models import Role
from core.audit_verify import verify_chain
from floor import services
from floor.models import Slip

from .conftest import FILL, TRAY, today

THREADS = 8
SLIPS_EACH = 5


def _prepare_in_threads(jobs):
    """Run each (prepare, user_id, table) job in its own thread with its own connection."""
    errors, barrier = [], threading.Barrier(len(jobs))

    def work(prepare, user_id, table, extra=None):
        try:
            user = get_user_model().objects.get(pk=user_id)  # its own Access cache
            barrier.wait()
            for _ in range(SLIPS_EACH):
                prepare(acting_user=user, table=table, chips=FILL, **(extra or {}))
        except Exception as exc:  # noqa: BLE001 - reported by the test below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=work, args=job) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


@pytest.mark.django_db(transaction=True)
def test_concurrent_preparers_get_consecutive_numbers_with_no_gap_or_reuse_per_series(cast, table, chips, site):
    manager = cast[Role.SHIFT_MANAGER]
    services.open_gaming_day(acting_user=manager.user, site=site, gaming_date=today(site))
    services.record_table_inventory(acting_user=manager.user, table=table, kind="opener", chips=TRAY)
    services.start_dealer_shift(acting_user=manager.user, table=table, dealer=cast[Role.DEALER])
    fillers = [cast[Role.CASHIER], cast[Role.PIT_BOSS], manager]  # supervisors name the cashier (08-05(3)(c))
    crediters = [cast[Role.DEALER], cast[Role.PIT_BOSS], manager]  # the dealer on shift there (08-05(4))
    cashier = {"cashier": cast[Role.CASHIER]}
    jobs = [(services.prepare_fill, fillers[i % 3].user_id, table, cashier if i % 3 else None) for i in range(THREADS)]
    jobs += [(services.prepare_credit, crediters[i % 3].user_id, table) for i in range(THREADS)]

    errors = _prepare_in_threads(jobs)

    assert errors == []
    for kind in ("fill", "credit"):
        numbers = sorted(Slip.objects.filter(site=site, kind=kind).values_list("number", flat=True))
        assert numbers == list(range(1, THREADS * SLIPS_EACH + 1)), connection.vendor
    assert verify_chain().ok


@pytest.mark.django_db(transaction=True)
def test_bench_slips_reports_throughput_and_gapless_numbering_on_its_own_scratch_site(site):
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("bench_slips", clients=4, slips=24, sites=2, rounds=2, stdout=out)
    text = out.getvalue()
    assert "48 slips in" in text  # two rounds of 24
    assert "sites: 2 (one per organization" in text
    assert "gapless and without reuse: yes (4 series)" in text
    assert re.search(r"queries per slip: fill \d+, credit \d+", text)
    assert "per slip (mean, under load):" in text
    assert "48 rows in" in text and "gapless: yes" in text  # the floor's rows, in the same two rounds
    # Where the CPU went: the clients' always; the server's where PostgreSQL runs on this machine.
    server = r"database server (?:[\d.]+ ms|not measured \(no PostgreSQL server on this machine\))$"
    product = re.search(r"^product: CPU a slip: clients ([\d.]+) ms, " + server, text, re.M)
    floor = re.search(r"^floor: CPU a row: clients ([\d.]+) ms, " + server, text, re.M)
    assert product and floor and float(product.group(1)) > 0 and float(floor.group(1)) > 0, text
    rounds = re.findall(r"^round (\d): product ([\d.]+) ms a slip, floor ([\d.]+) ms, ratio ([\d.]+)$", text, re.M)
    assert [n for n, *_ in rounds] == ["1", "2"], text
    lines = text.strip().splitlines()
    assert lines[-1].startswith("ratio to floor: ") and "(target 2)" in lines[-1]
    median = sorted(float(r) for *_, r in rounds)[0]  # of two rounds, the lower one
    assert float(lines[-1].split()[3]) == pytest.approx(median, abs=0.006), text
    assert lines[-2].endswith("(mean under load, the median round of 2)")
    assert not Slip.objects.filter(site=site).exists()


@pytest.mark.django_db(transaction=True)
def test_two_organizations_prepare_at_once_each_gapless_with_its_own_chain(cast, table, chips, site):
    """Organizations share no lock: each site's series stays gapless and each organization's
    chain verifies on its own while both prepare slips at once (ND 99-01.3-08-05(2))."""
    from core.audit import chain_name
    from core.models import AuditEvent
    from tests.factories import OrganizationFactory, SiteFactory, TableFactory, make_chips, make_person

    other_site = SiteFactory(organization=OrganizationFactory(name="Other Charity"))
    make_chips(other_site.organization)
    other_table = TableFactory(site=other_site, number=1, min_wager_cents=100, max_wager_cents=2500)
    floors = []
    for each, each_table in ((site, table), (other_site, other_table)):
        org = each.organization
        manager = cast[Role.SHIFT_MANAGER] if each is site else make_person(org, Role.SHIFT_MANAGER, each)
        dealer = cast[Role.DEALER] if each is site else make_person(org, Role.DEALER, each)
        cashier = cast[Role.CASHIER] if each is site else make_person(org, Role.CASHIER, each)
        services.open_gaming_day(acting_user=manager.user, site=each, gaming_date=today(each))
        services.record_table_inventory(acting_user=manager.user, table=each_table, kind="opener", chips=TRAY)
        services.start_dealer_shift(acting_user=manager.user, table=each_table, dealer=dealer)
        floors.append((each, each_table, cashier, dealer))
    jobs = []
    for _, each_table, cashier, dealer in floors:
        jobs += [(services.prepare_fill, cashier.user_id, each_table) for _ in range(THREADS // 2)]
        jobs += [(services.prepare_credit, dealer.user_id, each_table) for _ in range(THREADS // 2)]

    errors = _prepare_in_threads(jobs)

    assert errors == []
    for each, *_ in floors:
        for kind in ("fill", "credit"):
            numbers = sorted(Slip.objects.filter(site=each, kind=kind).values_list("number", flat=True))
            assert numbers == list(range(1, THREADS // 2 * SLIPS_EACH + 1)), (each, kind, connection.vendor)
        org_id = each.organization_id
        seqs = list(AuditEvent.objects.filter(chain=chain_name(org_id)).order_by("seq").values_list("seq", flat=True))
        assert seqs == list(range(1, len(seqs) + 1))
        assert verify_chain(organization_id=org_id).ok
    assert verify_chain().ok
