"""Loading the demo again (a second `make run`) writes nothing and says it found the demo loaded:
no row of any kind is added, compliance runs included, and no step's progress line is repeated.
Loaded by other builders' code, it is built again: what the code withdrew goes, nothing else is added."""

from datetime import UTC, datetime
from io import StringIO

import pytest
import time_machine
from django.apps import apps
from django.core.management import call_command

from cardroom.demo import DEMO_LOADED_EVENT
from cardroom.models import Employee, Membership, Role, Site
from compliance.models import ComplianceRun
from core.audit import record_event
from core.models import AuditEvent

pytestmark = pytest.mark.django_db

# A Thursday, 05:30 in Chicago: the server's date is the 26th while every site's gaming day of the
# 25th is still under way. Loaded then, the first load's mark held the server's date only (made
# before its sites existed) and the second built it all again, adding a demo.loaded event and two
# registry anchors (at noon every date is the 26th, which hid it).
LOADED_AT = datetime(2026, 11, 26, 11, 30, tzinfo=UTC)


def _rows() -> dict[str, int]:
    return {model._meta.label: model._base_manager.count() for model in apps.get_models()}


def _quarter_read_against_its_due_dates(quarter: str) -> None:
    """Loaded after the quarter's deadlines (its return due October 31, the attorney general's
    contact October 30, the six weeks of low-hold video review November 11): each registry expects
    its licensee from the first quarter the demo filed for it, so no return received reads "not
    expected"; North Dakota's returns, received on the load day, read late against October 31
    (the registry's receipt is never dated in the past), none missing. Each of the quarter's alerts
    that fell due before the checks first ran is resolved with what the organization did in time,
    dated then; one review program, done."""
    from compliance.models import Alert, AlertStep
    from registry import queries
    from registry.models import Agency
    from surveillance.models import ReviewProgram
    from surveillance.queries import reviews_done
    from tests.statefiling.test_demo_registry import returns_read_not_expected

    view = queries.licensees(Agency.objects.get(jurisdiction="ND"))[0]
    assert str(view.first_expected) == quarter and view.filings == 3 and view.missing == []
    assert [(q.quarter, q.state) for q in view.late] == [(quarter, "late")] * 3
    assert returns_read_not_expected() == []
    due = Alert.objects.filter(period_key=quarter, due_date__lt=LOADED_AT.date())
    assert {a.rule for a in due} == {"prizes_over_gp", "low_hold_21", "low_hold_PW"}
    for alert in due:
        resolved = alert.steps.get(kind=AlertStep.Kind.RESOLVED)
        assert resolved.note.startswith("Demo:") and alert.citation in resolved.note
    contact = AlertStep.objects.get(alert__rule="prizes_over_gp", kind=AlertStep.Kind.DOCUMENTED).documentation
    assert contact["contacted_on"] <= str(due.get(rule="prizes_over_gp").due_date)
    program = ReviewProgram.objects.get()  # the demo's; the low-hold alert opened no second one
    assert (str(program.start_date), str(program.end_date)) == ("2026-10-01", "2026-11-11")
    assert reviews_done(program.site_id, program.start_date, program.start_date) is not None


def _every_night_judged() -> None:
    """The nightly checks ran over every week of nights the demo built, not its last week alone:
    each site's late deposit (its second night, in September at the North Dakota sites) is flagged,
    those before the last week documented and resolved naming the day the deposit was made, and
    every table-day of play has its recordings (no gap at Bismarck, whose pack asks them)."""
    from datetime import date

    from compliance.models import Alert, AlertStep
    from floor.demo import built_dates

    ranges = [r for scope in ComplianceRun.objects.values_list("scope", flat=True) for r in scope["day_ranges"]]
    built = {day for site in Site.objects.all() for day in built_dates(site)}
    judged = [(date.fromisoformat(a), date.fromisoformat(b)) for a, b in ranges]
    assert built and all(any(a <= day <= b for a, b in judged) for day in built)
    assert not Alert.objects.filter(rule="recording_gap").exists()
    late = {a.site.name: a for a in Alert.objects.filter(rule="deposit_late").select_related("site")}
    assert {"Bismarck Elks Lodge", "Mandan Eagles Aerie", "Medora Summer Hall"} <= set(late)
    medora = late["Medora Summer Hall"]
    resolved = medora.steps.get(kind=AlertStep.Kind.RESOLVED)
    assert resolved.note.startswith(f"Demo: the deposit for {medora.period_end} was made on ")
    assert medora.figures["deposited_on"] in resolved.note and medora.citation in resolved.note


@pytest.mark.parametrize(
    ("moment", "dates"),
    [
        (datetime(2026, 11, 26, 11, 30, tzinfo=UTC), ["2026-11-25", "2026-11-26"]),  # ND's gaming day not yet open
        (datetime(2026, 11, 26, 14, 30, tzinfo=UTC), ["2026-11-25", "2026-11-26"]),  # Medora's (08:00 Denver) not yet
        (datetime(2026, 11, 27, 5, 30, tzinfo=UTC), ["2026-11-26", "2026-11-27"]),  # 23:30 Chicago: New York's next day
    ],
    ids=["before-nd-gaming-day", "before-medora-gaming-day", "new-york-next-day"],
)
def test_the_demo_is_marked_with_the_same_dates_before_its_sites_exist_as_after(moment, dates):
    """The first load computes its mark on an empty database; the second on the demo's sites."""
    from cardroom import pack_demo
    from cardroom.demo import load_demo
    from cardroom.management.commands.load_demo import demo_dates

    with time_machine.travel(moment, tick=False):
        assert demo_dates() == dates
        pack_demo.extend_demo(load_demo())
        assert Site.objects.count() == 6
        assert demo_dates() == dates


@pytest.mark.slow
def test_the_demo_loaded_after_its_quarters_deadlines_reads_its_returns_against_them_and_a_second_load_writes_nothing_until_its_code_changes():
    with time_machine.travel(LOADED_AT, tick=True):
        first = StringIO()
        call_command("load_demo", stdout=first)
        before = _rows()
        assert before["compliance.ComplianceRun"] > 0 and before["floor.GamingDay"] > 0
        assert "[1/" in first.getvalue() and "already loaded" not in first.getvalue()
        _quarter_read_against_its_due_dates("2026Q3")
        _every_night_judged()

        second = StringIO()
        call_command("load_demo", stdout=second)

    assert _rows() == before  # every kind of row, ComplianceRun and the audit log among them
    said = second.getvalue()
    assert "The demo is already loaded (its records through 2026-11-26): nothing was written." in said
    assert "[1/" not in said and "Demo built" not in said  # no step's progress repeated
    assert "Every demo login uses the password" in said and "state " in said  # the logins, as make run prints

    # Loaded by other code (an earlier checkout's demo, which gave wadealer a Dealer role at
    # Tacoma, as such a database holds it): the builders run again, withdraw that role, and add
    # nothing else.
    last = AuditEvent.objects.filter(action=DEMO_LOADED_EVENT).latest("pk")
    record_event(
        actor=None,
        action=DEMO_LOADED_EVENT,
        object_type="demo",
        object_id=last.object_id,
        organization_id=last.organization_id,
        after={**last.after, "code": "an earlier checkout's"},
    )
    tacoma = Site.objects.get(name="Tacoma Blackjack Room")
    Membership.objects.create(employee=Employee.objects.get(user__username="wadealer"), role=Role.DEALER, site=tacoma)
    with time_machine.travel(LOADED_AT, tick=True):
        third = StringIO()
        call_command("load_demo", stdout=third)

    assert "[1/" in third.getvalue() and "already loaded" not in third.getvalue()  # built again
    assert not Membership.objects.filter(role=Role.DEALER, site=tacoma).exists()
    # Beside the audit log: the role's history (given above, withdrawn), and the chain heads that
    # moved anchored at their registries.
    moved = {"core.AuditEvent", "cardroom.HistoricalMembership", "registry.ReceivedAnchor"}
    after = _rows()
    assert {k: n for k, n in after.items() if k not in moved} == {k: n for k, n in before.items() if k not in moved}
    assert after["cardroom.HistoricalMembership"] == before["cardroom.HistoricalMembership"] + 2
    assert after["registry.ReceivedAnchor"] > before["registry.ReceivedAnchor"]
    added = AuditEvent.objects.filter(pk__gt=last.pk).order_by("pk").values_list("action", flat=True)
    assert list(added) == [DEMO_LOADED_EVENT, "membership.deleted", DEMO_LOADED_EVENT]


def test_the_demos_compliance_checks_run_once_for_their_quarter_and_week():
    from compliance.demo import extend_demo

    with time_machine.travel(LOADED_AT, tick=True):
        extend_demo({})
        runs = list(ComplianceRun.objects.values_list("scope", flat=True))
        extend_demo({})  # again, the same day: the schedule's runs of that scope are there
    assert ComplianceRun.objects.count() == len(runs) == 2
    assert {"quarters": ["2026Q3"], "day_ranges": []} in runs
