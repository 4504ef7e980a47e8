import threading
from datetime import date

import pytest
from django.core import mail
from django.core.management import call_command
from django.db import connection

from cardroom.models import Role, Site
from compliance import services
from compliance.models import Alert, AlertStep, Notification
from compliance.rules import Finding
from core.models import AuditEvent
from tests.factories import TableFactory


def finding(site, **overrides):
    values = dict(
        rule="prizes_over_gp",
        citation="ND 99-01.3-08-01(3)",
        title="Twenty-one prizes exceeded gross proceeds",
        site_id=site.pk,
        period_key="2026Q3",
        period_start=date(2026, 7, 1),
        period_end=date(2026, 9, 30),
        action_required="ND 99-01.3-08-01(3): contact the attorney general.",
        due_date=date(2026, 10, 30),
        figures={"gross_proceeds_cents": 100, "prizes_cents": 200, "agp_cents": -100},
    )
    values.update(overrides)
    return Finding(**values)


@pytest.fixture
def alert(site, cast):
    return services.open_alert(finding(site), organization_id=site.organization_id)[0]


def test_opening_the_same_finding_twice_keeps_one_alert(site, cast):
    first, created = services.open_alert(finding(site), organization_id=site.organization_id)
    again, created_again = services.open_alert(finding(site), organization_id=site.organization_id)
    assert (created, created_again, first.pk) == (True, False, again.pk)
    assert Alert.objects.count() == 1
    assert AuditEvent.objects.filter(action="alert.opened").count() == 1


def test_a_different_subject_is_a_different_alert(site, cast):
    services.open_alert(finding(site, subject="fill:3"), organization_id=site.organization_id)
    services.open_alert(finding(site, subject="fill:4"), organization_id=site.organization_id)
    assert Alert.objects.count() == 2


@pytest.mark.django_db(transaction=True)
def test_two_workers_opening_the_same_alert_at_once_open_it_once(site, cast):
    barrier, results, errors = threading.Barrier(4), [], []

    def worker():
        try:
            barrier.wait(timeout=10)
            results.append(services.open_alert(finding(site), organization_id=site.organization_id)[1])
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert sorted(results) == [False, False, False, True]
    assert Alert.objects.count() == 1


def test_an_alert_is_append_only_in_the_database(alert):
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        Alert.objects.filter(pk=alert.pk).update(due_date=date(2030, 1, 1))


@pytest.mark.django_db(transaction=True)
def test_opening_an_alert_e_mails_the_gaming_managers_once(site, cast, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    from config.celery import app

    app.conf.task_always_eager = True
    try:
        manager = cast[Role.GAMING_MANAGER].user
        manager.email = "gm@example.org"
        manager.save()
        services.open_alert(finding(site), organization_id=site.organization_id)
        services.open_alert(finding(site), organization_id=site.organization_id)
    finally:
        app.conf.task_always_eager = False
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["gm@example.org"]
    assert "ND 99-01.3-08-01(3)" in mail.outbox[0].subject
    assert Notification.objects.filter(kind="opened").count() == 1


def test_reminders_go_out_once_before_the_due_date(alert, cast):
    from compliance.engine import send_reminders

    cast[Role.GAMING_MANAGER].user.email = "gm@example.org"
    cast[Role.GAMING_MANAGER].user.save()
    assert send_reminders(today=date(2026, 10, 1)) == 0  # due 10-30, more than 7 days away
    assert send_reminders(today=date(2026, 10, 25)) == 1
    assert send_reminders(today=date(2026, 10, 26)) == 0
    assert "Reminder" in mail.outbox[-1].subject


def test_acknowledge_document_and_resolve_are_recorded_steps(alert, cast):
    manager = cast[Role.GAMING_MANAGER].user
    services.acknowledge_alert(acting_user=cast[Role.SHIFT_MANAGER].user, alert=alert)
    services.document_alert(
        acting_user=manager,
        alert=alert,
        note="Called the AG's office",
        documentation={"contacted_person": "J. Smith", "contacted_on": "2026-10-10"},
    )
    services.resolve_alert(acting_user=manager, alert=alert, note="Discussed; nothing further required.")
    assert list(alert.steps.values_list("kind", flat=True)) == ["acknowledged", "documented", "resolved"]
    assert AuditEvent.objects.filter(action__startswith="alert.").count() == 4


def test_resolving_needs_documentation_first(alert, cast):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError) as error:
        services.resolve_alert(acting_user=cast[Role.GAMING_MANAGER].user, alert=alert, note="done")
    assert "documentation" in error.value.message_dict
    assert not AlertStep.objects.exists()


@pytest.mark.parametrize("role", [Role.AUDITOR, Role.DEALER, Role.CASHIER, Role.COUNT_TEAM, Role.PIT_BOSS])
def test_roles_that_may_not_acknowledge(alert, cast, role):
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        services.acknowledge_alert(acting_user=cast[role].user, alert=alert)


def test_the_shift_manager_may_not_resolve(alert, cast):
    from django.core.exceptions import PermissionDenied

    services.document_alert(acting_user=cast[Role.SHIFT_MANAGER].user, alert=alert, note="reason documented")
    with pytest.raises(PermissionDenied):
        services.resolve_alert(acting_user=cast[Role.SHIFT_MANAGER].user, alert=alert, note="x")


# --- API ------------------------------------------------------------------------------------


# A dealer reads no alerts (compliance.queries.ALERTS, as the compliance pages; every role at
# every pack: tests/compliance/test_alerts_access_matrix.py).
@pytest.mark.parametrize(
    "role,visible",
    [(Role.GAMING_MANAGER, True), (Role.AUDITOR, True), (Role.SHIFT_MANAGER, True), (Role.DEALER, False)],
)
def test_alerts_are_listed_for_the_users_sites(client_for, cast, alert, role, visible):
    ids = [a["id"] for a in client_for(cast[role]).get("/api/v1/alerts/").json()["results"]]
    assert (alert.pk in ids) == visible


def test_another_sites_alert_is_not_found(client_for, cast, other_site, stranger_site):
    other = services.open_alert(finding(other_site), organization_id=other_site.organization_id)[0]
    foreign = services.open_alert(finding(stranger_site), organization_id=stranger_site.organization_id)[0]
    assert client_for(cast[Role.SHIFT_MANAGER]).get(f"/api/v1/alerts/{other.pk}/").status_code == 404
    assert client_for(cast[Role.GAMING_MANAGER]).get(f"/api/v1/alerts/{foreign.pk}/").status_code == 404
    assert client_for(cast[Role.GAMING_MANAGER]).get(f"/api/v1/alerts/{other.pk}/").status_code == 200


def test_alert_workflow_through_the_api(client_for, cast, alert):
    api = client_for(cast[Role.GAMING_MANAGER])
    assert api.post(f"/api/v1/alerts/{alert.pk}/resolve/", {"note": "x"}, format="json").status_code == 400
    assert api.post(f"/api/v1/alerts/{alert.pk}/acknowledge/", {}, format="json").json()["status"] == "acknowledged"
    documented = api.post(
        f"/api/v1/alerts/{alert.pk}/document/",
        {"note": "AG contacted", "documentation": {"contacted_person": "J. Smith"}},
        format="json",
    )
    assert documented.json()["status"] == "documented"
    resolved = api.post(f"/api/v1/alerts/{alert.pk}/resolve/", {"note": "closed"}, format="json")
    assert resolved.status_code == 200 and resolved.json()["status"] == "resolved"
    assert api.post(f"/api/v1/alerts/{alert.pk}/document/", {"note": "more"}, format="json").status_code == 400
    assert (
        client_for(cast[Role.AUDITOR]).post(f"/api/v1/alerts/{alert.pk}/acknowledge/", {}, format="json").status_code
        == 403
    )


def test_obligations_list_overdue_first(client_for, cast, site, time_machine):
    time_machine.move_to("2026-11-01")
    services.open_alert(finding(site, subject="a", due_date=date(2026, 12, 15)), organization_id=site.organization_id)
    services.open_alert(finding(site, subject="b", due_date=date(2026, 10, 30)), organization_id=site.organization_id)
    services.open_alert(finding(site, subject="c", due_date=date(2026, 11, 5)), organization_id=site.organization_id)
    rows = client_for(cast[Role.GAMING_MANAGER]).get("/api/v1/obligations/").json()["results"]
    assert [r["subject"] for r in rows] == ["b", "c", "a"]
    assert [r["overdue"] for r in rows] == [True, False, False]


@pytest.mark.parametrize(
    "payload,field", [({"site": 1, "quarter": "2026-3"}, "quarter"), ({"site": 999999, "quarter": "2026Q3"}, "site")]
)
def test_running_checks_with_bad_parameters_names_them(client_for, cast, site, payload, field):
    payload = {**payload, "site": site.pk if payload["site"] == 1 else payload["site"]}
    response = client_for(cast[Role.GAMING_MANAGER]).post("/api/v1/compliance-runs/", payload, format="json")
    assert response.status_code == 400 and field in response.json()


def test_only_the_gaming_manager_runs_checks(client_for, cast, site):
    response = client_for(cast[Role.SHIFT_MANAGER]).post(
        "/api/v1/compliance-runs/", {"site": site.pk, "quarter": "2026Q3"}, format="json"
    )
    assert response.status_code == 403


def test_the_command_refuses_a_bad_quarter_or_site(site):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="House control: write quarter as YYYYQn"):
        call_command("run_compliance", "--site", str(site.pk), "--quarter", "Q3")
    with pytest.raises(CommandError, match="--site: House control: no site with id 999999"):
        call_command("run_compliance", "--site", "999999", "--quarter", "2026Q3")


# --- Pages ----------------------------------------------------------------------------------


def test_alert_pages_show_the_rule_figures_and_due_date(client, cast, alert):
    client.force_login(cast[Role.GAMING_MANAGER].user)
    listing = client.get("/compliance/alerts/").content.decode()
    assert "ND 99-01.3-08-01(3)" in listing and "2026-10-30" in listing
    detail = client.get(f"/compliance/alerts/{alert.pk}/").content.decode()
    assert "-$1.00" in detail and "contact the attorney general" in detail


def test_the_alerts_page_leads_to_no_quarter_still_to_come(client, cast):
    """The current quarter's list linked to the next quarter, which has not begun; an earlier one links on."""
    from django.utils import timezone

    from core.periods import Quarter

    current = Quarter.containing(timezone.localdate())
    client.force_login(cast[Role.GAMING_MANAGER].user)
    listing = client.get("/compliance/alerts/").content.decode()
    nav = listing.split('id="quarter-nav">')[1].split("</nav>")[0]
    assert 'rel="next"' not in nav and f"{current.next()} &rarr;" not in nav and 'rel="prev"' in nav
    earlier = client.get(f"/compliance/alerts/?quarter={current.previous()}").content.decode()
    assert f'href="?quarter={current}" rel="next"' in earlier


def test_resolving_without_documentation_shows_the_rule_inline(client, cast, alert):
    client.force_login(cast[Role.GAMING_MANAGER].user)
    response = client.post(f"/compliance/alerts/{alert.pk}/", {"action": "resolve", "resolve-note": "  "})
    assert response.status_code == 400
    assert "ND 99-01.3-08-01(3): describe the documentation that resolves this alert" in response.content.decode()
    assert not AlertStep.objects.exists()


def test_a_dealer_does_not_see_the_compliance_pages(client, cast):
    client.force_login(cast[Role.DEALER].user)
    assert client.get("/compliance/alerts/").status_code == 403


def test_one_step_resolve_through_the_api(client_for, cast, alert):
    """POST resolve-with-documentation is the browser's one resolve action: the note is required,
    and acknowledged, documented and resolved are recorded as three steps by the same person."""
    url = f"/api/v1/alerts/{alert.pk}/resolve-with-documentation/"
    assert client_for(cast[Role.SHIFT_MANAGER]).post(url, {"note": "ok"}, format="json").status_code == 403
    api = client_for(cast[Role.GAMING_MANAGER])
    refused = api.post(url, {"note": "  "}, format="json")
    assert refused.status_code == 400 and "note" in refused.json()
    assert alert.steps.count() == 0
    done = api.post(
        url, {"note": "AG contacted 2026-11-02", "documentation": {"contacted_person": "J. Smith"}}, format="json"
    )
    assert done.status_code == 200 and done.json()["status"] == "resolved"
    assert [(s.kind, s.by.username) for s in alert.steps.order_by("pk")] == [
        ("acknowledged", cast[Role.GAMING_MANAGER].user.username),
        ("documented", cast[Role.GAMING_MANAGER].user.username),
        ("resolved", cast[Role.GAMING_MANAGER].user.username),
    ]
    assert alert.steps.get(kind="documented").documentation == {"contacted_person": "J. Smith"}
    assert api.post(url, {"note": "again"}, format="json").status_code == 400


@pytest.mark.parametrize("batch", [False, True], ids=["one", "a run's batch"])
def test_an_alert_opened_is_one_audit_event_that_covers_its_row(site, cast, batch):
    """The alert's row event is its opening (`alert.opened`, Alert.audit_created_action): at its
    site, with the row's values and digest, which the audit verification checks; no second
    event beside it."""
    from core.audit_verify import verify_chain

    if batch:
        opened, _ = services.open_alerts(
            [finding(site), finding(site, subject="fill:3")], organization_of={site.pk: site.organization_id}
        )
    else:
        opened = [services.open_alert(finding(site), organization_id=site.organization_id)[0]]
    for alert in opened:
        events = AuditEvent.objects.filter(row_table=Alert._meta.db_table, row_pk=alert.pk)
        assert [(e.action, e.site_id, e.organization_id) for e in events] == [
            ("alert.opened", site.pk, site.organization_id)
        ]
        assert events[0].after["figures"] == alert.figures and events[0].row_digest
    assert AuditEvent.objects.filter(action="alert.opened").count() == len(opened)
    assert AuditEvent.objects.filter(action="row.created", row_table=Alert._meta.db_table).count() == 0
    assert verify_chain().ok


@pytest.mark.parametrize("code", ["ND", "WA-HB", "WA-BJ", "NY"])
def test_a_quarter_before_the_law_held_is_refused_naming_it_and_the_first_one_is_judged(client_for, cast, site, code):
    """A run over a quarter before the first text of a threshold the site's pack uses had nothing
    to judge by and answered a 500; it is refused naming the quarter, the text and the first
    quarter that can be judged, records no run, and that first quarter runs to the end."""
    from compliance.models import ComplianceRun
    from compliance.thresholds import judged_from
    from core.periods import Quarter

    Site.objects.filter(pk=site.pk).update(jurisdiction=code)
    TableFactory(site=site, number=1, min_wager_cents=100, max_wager_cents=2500)
    first, citation = judged_from([code])
    earliest = Quarter.first_from(first)
    client = client_for(cast[Role.GAMING_MANAGER])
    runs = ComplianceRun.objects.count()
    before = client.post(
        "/api/v1/compliance-runs/", {"site": site.pk, "quarter": str(earliest.previous())}, format="json"
    )
    assert before.status_code == 400, before.content
    assert list(before.json()) == ["quarter"]
    if earliest.previous().year >= 2000:  # else the quarter is out of every range the product takes
        assert citation in before.json()["quarter"][0] and f"choose {earliest}" in before.json()["quarter"][0]
    assert ComplianceRun.objects.count() == runs
    ran = client.post("/api/v1/compliance-runs/", {"site": site.pk, "quarter": str(earliest)}, format="json")
    assert ran.status_code == 200, ran.content
