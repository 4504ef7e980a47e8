"""The compliance run fanned out by organization on a real Celery worker opens the same alerts
as the run in one process; each site-quarter's figures are computed once per run."""

import time
from collections import Counter
from datetime import date

import pytest
from celery.contrib.testing.worker import start_worker
from celery.signals import before_task_publish, task_prerun
from django.conf import settings
from django.db import transaction

from accounting import summaries
from cardroom.models import Role
from compliance import providers, services
from compliance.engine import run_quarter_rules, run_scan
from compliance.mail import MAIL_PRIORITY
from compliance.models import Alert, Notification
from compliance.tasks import fan_out, largest_first, organization_chunks
from config.celery import app
from core.periods import Quarter
from tests.accounting.scenario import Scenario
from tests.compliance.test_alerts import finding
from tests.compliance.test_providers import make_day, make_slip
from tests.compliance.test_quarter_providers import play
from tests.factories import SiteFactory, TableFactory, make_person

Q3, Q4 = Quarter(2026, 3), Quarter(2026, 4)
DAYS = [(date(2026, 11, 4), date(2026, 11, 12))]


class Rollback(Exception):
    pass


def alert_keys():
    return sorted(Alert.objects.values_list("rule", "site_id", "period_key", "subject"))


def sites_with_problems(site, stranger_site, cast):
    """Two organizations, each with a site whose slips and quarter call for alerts."""
    outsider = make_person(stranger_site.organization, Role.SHIFT_MANAGER, stranger_site)
    for where, who in ((site, cast[Role.SHIFT_MANAGER]), (stranger_site, outsider)):
        table = TableFactory(site=where, number=1, min_wager_cents=100, max_wager_cents=2500)
        day = make_day(where, date(2026, 11, 10), who)
        make_slip(day, table, 1, who, steps=("verify",))  # never received
        make_slip(day, table, 3, who)  # number 2 missing


@pytest.mark.django_db(transaction=True)
def test_the_fanned_out_run_on_a_real_worker_opens_the_alerts_of_the_run_in_one_process(site, stranger_site, cast):
    sites_with_problems(site, stranger_site, cast)
    try:
        with transaction.atomic():
            in_process = run_scan(quarters=[Q4], day_ranges=DAYS)
            expected = alert_keys()
            raise Rollback
    except Rollback:
        pass
    assert len(expected) == len(in_process.opened) >= 4 and not Alert.objects.exists()
    assert {site_id for _, site_id, _, _ in expected} == {site.pk, stranger_site.pk}
    assert organization_chunks(1) == [[site.organization_id], [stranger_site.organization_id]]

    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=30):
        gathered = fan_out(quarters=[Q4], day_ranges=DAYS, chunk_sites=1).get(timeout=120)
        assert alert_keys() == expected
        again = fan_out(quarters=[Q4], day_ranges=DAYS, chunk_sites=1).get(timeout=120)
    assert gathered["chunks"] == 2 and gathered["opened"] == len(expected) and gathered["queries"] > 0
    assert again["opened"] == 0 and again["already_open"] == len(expected)
    assert alert_keys() == expected


def earlier(site):
    """A finding of a rule the run does not read back (its e-mail is simply queued)."""
    return finding(
        site,
        rule="deposit_late",
        citation="ND 99-01.3-03-10(1)",
        title="Bank deposit late",
        period_key="2026-10-01",
        figures={},
    )


@pytest.fixture
def published():
    """(task name, priority) of each task message sent to the broker, in order."""
    sent = []

    def record(sender=None, properties=None, **kwargs):
        sent.append((sender, (properties or {}).get("priority")))

    before_task_publish.connect(record, weak=False)
    yield sent
    before_task_publish.disconnect(record)


def test_the_alerts_e_mails_are_queued_after_the_rules_tasks(
    site, stranger_site, cast, published, django_capture_on_commit_callbacks
):
    """The e-mails of the alerts opened one at a time and by a run go at MAIL_PRIORITY, below
    the rules' own tasks (the default): whatever the broker, the messages say so."""
    sites_with_problems(site, stranger_site, cast)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            services.open_alert(earlier(site), organization_id=site.organization_id)
            run_scan(quarters=[Q4], day_ranges=DAYS)
    finally:
        app.control.purge()  # no worker here: the messages go
    mails = [priority for name, priority in published if name.startswith("compliance.tasks.notify_alert")]
    assert len(mails) == 2 and set(mails) == {MAIL_PRIORITY}
    assert MAIL_PRIORITY > 0  # Redis takes priority 0 (the rules' tasks, sent without one) first


@pytest.mark.skipif(
    not settings.CELERY_BROKER_URL.startswith("redis"),
    reason="the chord gathers at its last chunk's end only on Redis: the file result backend polls "
    "(chord_unlock, every second) and the worker takes e-mails meanwhile",
)
@pytest.mark.django_db(transaction=True)
def test_a_worker_runs_the_whole_fanned_out_run_before_the_e_mails_queued_earlier(site, stranger_site, cast):
    """A run's chord gathers when its last chunk ends: the e-mails queued before it (an alert
    opened earlier) and by its own chunks wait until the run is finished."""
    services.open_alert(earlier(site), organization_id=site.organization_id)  # its e-mail is queued now
    sites_with_problems(site, stranger_site, cast)
    ran = []

    def record(sender=None, **kwargs):
        ran.append(sender.name.rsplit(".", 1)[-1])

    task_prerun.connect(record, weak=False)
    try:
        outcome = fan_out(quarters=[Q4], day_ranges=DAYS, chunk_sites=1)
        with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=30):
            gathered = outcome.get(timeout=120)
            for _ in range(600):
                if Notification.objects.count() == 1 + gathered["opened"]:
                    break
                time.sleep(0.1)
    finally:
        task_prerun.disconnect(record)
    assert gathered["chunks"] == 2 and gathered["opened"] >= 4
    assert Notification.objects.count() == 1 + gathered["opened"]
    assert ran[:3] == ["scan_organizations", "scan_organizations", "gather_scan"]
    assert set(ran[3:]) == {"notify_alert", "notify_alerts"}


def test_one_chunk_runs_in_the_calling_process(site, stranger_site, cast):
    sites_with_problems(site, stranger_site, cast)
    outcome = fan_out(quarters=[Q4], day_ranges=DAYS)  # two sites: one chunk of the default size
    assert isinstance(outcome, dict) and outcome["chunks"] == 1 and outcome["opened"] == len(alert_keys()) >= 4


@pytest.fixture
def summary_calls(monkeypatch):
    """Each (site, quarter) whose figures per game the accounting app was asked for, counted
    (the run's consecutive quarters come in one call)."""
    calls, real = Counter(), summaries.quarter_game_totals

    def counted(site_ids, first, last):
        found = real(site_ids, first, last)
        calls.update((site_id, str(quarter)) for quarter in found for site_id in site_ids)
        return found

    monkeypatch.setattr(providers, "quarter_game_totals", counted)  # as compliance reads it (accounting.published)
    return calls


def test_each_site_quarter_is_summarised_once_per_run(site, people, summary_calls):
    second = SiteFactory(organization=site.organization, name="Moose Hall")
    scenario = Scenario(site, people)
    play(
        scenario,
        TableFactory(site=site, number=1, min_wager_cents=100, max_wager_cents=2500),
        date(2026, 8, 1),
        drop=50_000,
        fills=80_000,
    )
    result = run_scan(site_ids=[site.pk, second.pk], quarters=[Q3, Q4])
    assert "prizes_over_gp" in {a.rule for a in result.opened}
    # The hold rules and the surveillance rule (the quarter, the one before, the fiscal year's)
    # share the figures: every site-quarter asked for once in the run.
    assert summary_calls and set(summary_calls.values()) == {1}
    assert {(site.pk, "2026Q3"), (site.pk, "2026Q4"), (site.pk, "2026Q2"), (second.pk, "2026Q3")} <= set(summary_calls)

    summary_calls.clear()
    run_quarter_rules(site_ids=[site.pk], quarter=Q3)  # a new run computes afresh, once
    assert set(summary_calls.values()) == {1}


@pytest.mark.django_db
def test_a_chunk_runs_with_its_planner_settings_on_postgresql_and_leaves_them_as_they_were():
    """JIT compiling cost more than the scan's statements ran, a statement's parallel workers
    compete with the other chunks, and random reads are costed as cached
    (compliance.tasks.scan_settings); SQLite has none of these, and is sent nothing."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from compliance import tasks

    if connection.vendor != "postgresql":
        with CaptureQueriesContext(connection) as queries, tasks.scan_settings():
            pass
        assert queries.captured_queries == []
        return

    def settings():
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT current_setting('jit'), current_setting('max_parallel_workers_per_gather'), "
                "current_setting('random_page_cost')"
            )
            return cursor.fetchone()

    before = settings()
    with tasks.scan_settings():
        assert settings() == ("off", "0", "1.1")
    assert settings() == before


def test_a_worker_reserves_one_task_at_a_time():
    """A chunk runs for seconds: a worker holding several would leave the others idle at the end."""
    from config.celery import app

    assert app.conf.worker_prefetch_multiplier == 1
    assert app.conf.task_acks_late is True


@pytest.mark.django_db
def test_an_organization_that_would_overfill_a_chunk_starts_the_next():
    from tests.factories import OrganizationFactory

    organizations = []
    for n in (3, 3, 1, 4, 1, 7):
        organization = OrganizationFactory()
        for i in range(n):
            SiteFactory(organization=organization, name=f"Site {organization.pk}-{i}")
        organizations.append(organization.pk)
    a, b, c, d, e, f = organizations
    # 3+3 would be 6 > 5: the second starts a chunk; 4+1 fills one; 7 alone is bigger than 5.
    assert organization_chunks(5) == [[a], [b, c], [d, e], [f]]
    # A run queues them the most sites first (7, 5, 4, 3): the smallest are taken last.
    assert largest_first(5) == [[f], [d, e], [b, c], [a]]


@pytest.mark.django_db
def test_fewer_sites_than_the_workers_fill_are_shared_between_the_workers(settings):
    """50 sites and two workers were one chunk of 50: one worker scanned them all while the other
    waited. Sites that the workers' chunks hold are dealt into a chunk a worker, the largest
    organization first to the chunk with the fewest sites, an organization whole."""
    from tests.factories import OrganizationFactory

    organizations = []
    for n in (2, 1, 3, 1, 1):
        organization = OrganizationFactory()
        for i in range(n):
            SiteFactory(organization=organization, name=f"Site {organization.pk}-{i}")
        organizations.append(organization.pk)
    a, b, c, d, e = organizations
    settings.COMPLIANCE_CHUNK_SITES = 50
    settings.COMPLIANCE_WORKERS = 1
    assert organization_chunks() == [[a, b, c, d, e]]  # one worker: the one chunk, run in process
    # 8 sites: c (3) and a (2) open the chunks; b, d and e go where the fewest sites are: 4 and 4.
    assert organization_chunks(workers=2) == [[a, b, e], [c, d]]
    settings.COMPLIANCE_WORKERS = 3
    assert largest_first() == [[a, e], [c], [b, d]]  # 3, 3 and 2 sites
    assert organization_chunks(workers=8) == [[a], [b], [c], [d], [e]]  # never an organization split
    # More sites than the workers' chunks hold: packed in id order at the chunk size, as before.
    assert organization_chunks(chunk_sites=3, workers=2) == [[a, b], [c], [d, e]]


def test_a_chord_over_file_results_looks_again_within_a_tenth_of_a_second():
    # The embedded result backend has no native join: `celery.chord_unlock` polls. Celery's default
    # second kept a scan whose last chunk ended just after the first look waiting a second more
    # (benchmarks/HISTORY.md, 2026-12-01). On Redis the chord joins natively and the setting is unused.
    unlock = app.tasks["celery.chord_unlock"]
    if app.backend.supports_native_join:
        assert settings.CELERY_RESULT_BACKEND.startswith("redis")
    else:
        assert settings.CELERY_RESULT_BACKEND.startswith("file://")
    assert unlock.default_retry_delay == settings.CELERY_RESULT_CHORD_RETRY_INTERVAL <= 0.1
