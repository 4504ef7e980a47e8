"""One helper for the act (core.acts): the acting employee, the moment with one clock tolerance,
the closed-books refusal and the audit record; no app keeps a copy (issue 34)."""

import ast
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from cardroom.access import NOT_AN_EMPLOYEE
from core import acts, moments
from tests.factories import UserFactory

ROOT = Path(__file__).resolve().parents[2]
APPS = ("core", "cardroom", "packs", "floor", "cage", "counts", "surveillance", "tournaments", "approvals", "fees",
        "accounting", "compliance", "reports", "dashboard")  # fmt: skip
COPIES = {"_moment", "_acting_employee", "_refuse_closed_books", "_employee", "_open_books"}
# Names that are no copy: reading a moment from a CSV cell of a day sheet.
NOT_COPIES = {("accounting/day_sheet_csv.py", "_moment")}


def _sources():
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path.relative_to(ROOT).as_posix(), path.read_text()


def test_one_clock_tolerance_is_defined():
    found = [name for name, text in _sources() if re.search(r"^CLOCK_TOLERANCE\s*=", text, re.M)]
    assert found == ["core/moments.py"]
    assert acts.CLOCK_TOLERANCE is moments.CLOCK_TOLERANCE


def test_no_app_keeps_a_copy_of_the_act():
    copies = [
        f"{name}:{node.lineno} {node.name}"
        for name, text in _sources()
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.FunctionDef) and node.name in COPIES and (name, node.name) not in NOT_COPIES
    ]
    assert copies == []


def test_a_moment_may_run_ahead_of_the_clock_by_the_tolerance_only():
    now = timezone.now()
    ahead = now + acts.CLOCK_TOLERANCE - timedelta(seconds=30)
    assert acts.moment(ahead, "at") == ahead
    with pytest.raises(ValidationError) as refused:
        acts.moment(now + acts.CLOCK_TOLERANCE + timedelta(minutes=1), "recorded_at")
    assert refused.value.message_dict == {"recorded_at": ["House control: a record cannot be dated in the future."]}


def test_a_moment_keeps_the_callers_words():
    later = timezone.now() + timedelta(hours=1)
    with pytest.raises(ValidationError) as cited:
        acts.moment(later, "at", rule="ND 99-01.3-08-05")
    assert cited.value.message_dict == {"at": ["ND 99-01.3-08-05: a record cannot be dated in the future."]}
    with pytest.raises(ValidationError) as own:
        acts.moment(later, "collected_at", future="collected_at cannot be in the future.")
    assert own.value.message_dict == {"collected_at": ["collected_at cannot be in the future."]}
    with pytest.raises(ValidationError) as naive:
        acts.moment(later.replace(tzinfo=None), "at")
    assert naive.value.message_dict == {"at": ["House control: give the time with its time zone."]}


def test_no_time_given_is_now():
    before = timezone.now()
    assert before <= acts.moment(None) <= timezone.now()


@pytest.mark.django_db
def test_a_login_without_an_employee_does_not_act():
    with pytest.raises(PermissionDenied) as refused:
        acts.acting_employee_of(UserFactory())
    assert str(refused.value) == NOT_AN_EMPLOYEE


def test_a_moment_before_what_it_follows_is_refused_on_its_field_citing_the_rule():
    from datetime import datetime
    from types import SimpleNamespace
    from zoneinfo import ZoneInfo

    site = SimpleNamespace(time_zone="America/Chicago")
    earlier = datetime(2026, 11, 14, 3, 0, tzinfo=ZoneInfo("America/Chicago"))
    moments.refuse_before(site, earlier, earlier, field="voided_at", rule="R", why="w", what="the fee")  # same time
    moments.refuse_before(site, earlier, None, field="voided_at", rule="R", why="w", what="the fee")  # nothing before
    with pytest.raises(ValidationError) as refused:
        moments.refuse_before(
            site, earlier - timedelta(minutes=1), earlier, field="voided_at", rule="House control",
            why="a void corrects a fee already collected", what="the fee was collected",
        )  # fmt: skip
    assert refused.value.message_dict == {
        "voided_at": [
            "House control: a void corrects a fee already collected; 2026-11-14 02:59 CST is before the fee was "
            "collected (2026-11-14 03:00 CST)."
        ]
    }
