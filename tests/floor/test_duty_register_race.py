"""The duty register holds one open period per person and site (house control DUTY_REGISTER,
who is on duty to verify: ND 99-01.3-08-05(5)), also when signing in and signing a slip meet,
on whichever database the suite runs (SQLite by default, PostgreSQL with DATABASE_URL)."""

import threading
from datetime import timedelta
from importlib import import_module

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from cardroom.models import Role
from core.audit_verify import verify_chain
from core.models import AuditEvent
from floor import queries, rules, services
from floor.models import DutyPeriod, Slip

from .conftest import FILL


def _open_periods(employee, site) -> int:
    return DutyPeriod.objects.filter(employee=employee, site=site, ended_at__isnull=True).count()


@pytest.mark.django_db(transaction=True)
def test_signing_in_while_a_slip_reads_the_preparer_off_duty_leaves_one_open_period(
    cast, site, open_table, monkeypatch
):
    """The slip reads its preparer off duty (its context, before its locks); the pit boss signs
    in on another terminal and commits; the slip then puts them on duty by signing: the second
    open period is refused by the database and the slip goes on (on SQLite the sign-in waits for
    the slip's transaction and finds them on duty)."""
    boss = cast[Role.PIT_BOSS]
    signed_in: list = []
    read = queries.slip_context

    def sign_in():
        try:
            user = get_user_model().objects.get(pk=boss.user_id)  # its own Access cache
            signed_in.append(services.start_duty(acting_user=user, site=site))
        except Exception as exc:  # noqa: BLE001 - asserted below
            signed_in.append(exc)
        finally:
            connection.close()

    other_terminal = threading.Thread(target=sign_in)

    def context_then_sign_in(*args, **kwargs):
        context = read(*args, **kwargs)
        assert context.preparer_on_duty is False
        other_terminal.start()
        if connection.vendor == "postgresql":  # SQLite's writers queue: it waits for the slip
            other_terminal.join()
        return context

    monkeypatch.setattr(queries, "slip_context", context_then_sign_in)
    fill = services.prepare_fill(acting_user=boss.user, table=open_table, chips=FILL, cashier=cast[Role.CASHIER])
    other_terminal.join()

    assert Slip.objects.filter(pk=fill.pk).exists()
    assert _open_periods(boss, site) == 1
    started = AuditEvent.objects.filter(action="duty.started")
    assert started.count() == 1
    outcome = signed_in[0]
    if isinstance(outcome, DutyPeriod):  # the sign-in came first (PostgreSQL)
        assert started.get().object_id == str(outcome.pk)
    else:
        assert f"{boss} is already on duty at {site}" in str(outcome)
    assert verify_chain().ok


def test_signing_in_before_an_open_period_of_the_same_person_is_refused_naming_the_rule(
    day_under_way, cast, site, open_table, client_for
):
    """Signed in by signing a slip now, a pit boss cannot sign in again from half an hour ago: the
    register read at that moment is empty, the database refuses a second open period, and the
    refusal is a 400 naming the field and the rule, not a 500."""
    boss = cast[Role.PIT_BOSS]
    services.prepare_fill(acting_user=boss.user, table=open_table, chips=FILL, cashier=cast[Role.CASHIER])
    assert _open_periods(boss, site) == 1
    earlier = (timezone.now() - timedelta(minutes=30)).isoformat()
    response = client_for(boss).post("/api/v1/duty-periods/", {"site": site.pk, "at": earlier}, format="json")
    assert response.status_code == 400, response.json()
    assert response.json()["employee"] == [f"{rules.DUTY_REGISTER.at(site)}: {boss} is already on duty at {site}."]
    assert _open_periods(boss, site) == 1


def test_the_migration_stops_naming_a_person_open_twice_before_adding_the_constraint(cast, site, gaming_day):
    """A register from before the constraint, holding the race's two open periods (written as
    rows: no service can write them now; the dropped index comes back with the test's rollback),
    stops migration 0012 naming them; with one of them signed out it goes on."""
    from django.apps import apps

    migration = import_module("floor.migrations.0012_duty_period_open_once_per_site")
    boss = cast[Role.PIT_BOSS]
    with connection.cursor() as cursor:
        cursor.execute("DROP INDEX duty_period_open_once_per_site")
    now = timezone.now()
    fields = {"site": site, "gaming_day": gaming_day, "employee": boss, "role": Role.PIT_BOSS, "recorded_by": boss}
    first = DutyPeriod.objects.create(started_at=now - timedelta(minutes=5), **fields)
    second = DutyPeriod.objects.create(started_at=now, **fields)
    with pytest.raises(RuntimeError, match=f"site {site.pk}, employee {boss.pk}: periods {first.pk}, {second.pk}$"):
        migration.refuse_two_open_periods(apps, None)
    DutyPeriod.objects.filter(pk=first.pk).update(ended_at=now)
    migration.refuse_two_open_periods(apps, None)
