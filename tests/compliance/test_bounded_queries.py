"""No query of the nightly checks carries a list of the ids of a window of rows: the number of
parameters of every statement is bounded, whatever the number of slips (issue 18; SQLite
refuses a statement above ~250k parameters, PostgreSQL spends seconds parsing one)."""

from contextlib import contextmanager
from datetime import date, timedelta

from django.db import connection

from cardroom.models import Role
from compliance.engine import run_day_checks, run_quarter_rules
from compliance.models import Alert
from compliance.services import ALERT_BATCH
from core.models import AuditEvent
from core.periods import Quarter
from floor.models import Slip, SlipStep

from .test_providers import make_day

MAX_PARAMETERS = 60  # far below the slips (and their steps) of the test's window
SLIPS_PER_DAY = 150


@contextmanager
def _largest_statement():
    """Yields a list that ends up holding the largest number of parameters of one statement
    other than an INSERT, then that of an INSERT (alerts are opened in batches of at most
    ALERT_BATCH rows, compliance.services.open_alerts: bounded, but above MAX_PARAMETERS)."""
    largest = [0, 0]

    def count(execute, sql, params, many, context):
        kind = 1 if sql.lstrip().upper().startswith("INSERT") else 0
        largest[kind] = max(largest[kind], len(params or ()))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        yield largest


def _busy_days(site, table, cast, days):
    boss, number = cast[Role.PIT_BOSS], 0
    for offset in range(days):
        day = make_day(site, date(2026, 11, 2) + timedelta(days=offset), cast[Role.SHIFT_MANAGER])
        slips = []
        for _ in range(SLIPS_PER_DAY):
            number += 1 if number % 97 else 2  # a gap now and then
            slips.append(Slip(site=site, kind="fill", number=number, table=table, gaming_day=day, game="21",
                              table_number=table.number, prepared_at=day.opened_at + timedelta(seconds=number),
                              prepared_by=boss, total_cents=10_000))  # fmt: skip
        Slip.objects.bulk_create(slips)
        SlipStep.objects.bulk_create(
            SlipStep(slip=s, kind="verify", employee=boss, initials=boss.initials, at=s.prepared_at) for s in slips
        )
    return number


def test_the_nightly_checks_send_no_statement_with_a_parameter_per_slip(site, table, cast):
    _busy_days(site, table, cast, days=4)
    assert Slip.objects.count() >= 10 * MAX_PARAMETERS
    with _largest_statement() as largest:
        day = run_day_checks(site_ids=[site.pk], start=date(2026, 11, 1), end=date(2026, 11, 20))
        run_quarter_rules(site_ids=[site.pk], quarter=Quarter(2026, 4))
    assert {"slip_missing", "slip_unreceived"} <= {a.rule for a in day.opened}  # the slips were judged
    assert largest[0] <= MAX_PARAMETERS
    # The alerts opened outnumber a batch, and no INSERT holds more than a batch of rows.
    assert len(day.opened) > ALERT_BATCH
    assert largest[1] <= ALERT_BATCH * (len(AuditEvent._meta.concrete_fields) + len(Alert._meta.concrete_fields))
