"""Loading the demo again (a second `make run`) writes nothing and says it found the demo loaded:
no row of any kind is added, compliance runs included, and no step's progress line is repeated."""

from datetime import UTC, datetime
from io import StringIO

import pytest
import time_machine
from django.apps import apps
from django.core.management import call_command

from compliance.models import ComplianceRun

pytestmark = pytest.mark.django_db

LOADED_AT = datetime(2026, 11, 26, 18, 0, tzinfo=UTC)  # a Thursday, 12:00 in Chicago


def _rows() -> dict[str, int]:
    return {model._meta.label: model._base_manager.count() for model in apps.get_models()}


@pytest.mark.slow
def test_a_second_load_of_the_demo_writes_nothing_and_says_it_found_the_demo_loaded():
    with time_machine.travel(LOADED_AT, tick=True):
        first = StringIO()
        call_command("load_demo", stdout=first)
        before = _rows()
        assert before["compliance.ComplianceRun"] > 0 and before["floor.GamingDay"] > 0
        assert "[1/" in first.getvalue() and "already loaded" not in first.getvalue()

        second = StringIO()
        call_command("load_demo", stdout=second)

    assert _rows() == before  # every kind of row, ComplianceRun and the audit log among them
    said = second.getvalue()
    assert "The demo is already loaded (its records through 2026-11-26): nothing was written." in said
    assert "[1/" not in said and "Demo built" not in said  # no step's progress repeated
    assert "Every demo login uses the password" in said and "state " in said  # the logins, as make run prints


def test_the_demos_compliance_checks_run_once_for_their_quarter_and_week():
    from compliance.demo import extend_demo

    with time_machine.travel(LOADED_AT, tick=True):
        extend_demo({})
        runs = list(ComplianceRun.objects.values_list("scope", flat=True))
        extend_demo({})  # again, the same day: the schedule's runs of that scope are there
    assert ComplianceRun.objects.count() == len(runs) == 2
    assert {"quarters": ["2026Q3"], "day_ranges": []} in runs
