"""Many append-only rows at once go by COPY on PostgreSQL (core.appendonly: COPY_ROWS):
the rows, their ids and their audit events are those an INSERT gives, and the guards hold."""

from datetime import date

import pytest
from django.db import DatabaseError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from compliance.models import Alert
from core.appendonly import COPY_ROWS, ImmutableRecordError
from core.audit_verify import verify_chain
from core.models import AuditEvent

pytestmark = pytest.mark.django_db

# What each row stores, but its subject (which tells the two batches apart).
STORED = (
    "rule",
    "citation",
    "title",
    "organization_id",
    "site_id",
    "period_key",
    "period_start",
    "period_end",
    "figures",
    "action_required",
    "due_date",
    "opened_at",
)


def _alerts(site, count: int, subject: str, now) -> list[Alert]:
    return [Alert(rule="prizes_over_gp", citation="ND 99-01.3-08-01(3)", title=f"Prizes ünïcode \"{n}\"",
                  organization=site.organization, site=site, period_key="2026Q3", subject=f"{subject}:{n}",
                  period_start=date(2026, 7, 1), period_end=date(2026, 9, 30), action_required="Tell the AG.\tNow",
                  figures={"cents": n, "list": [1, None], "text": "a\\b\nc"},
                  due_date=None if n % 2 else date(2026, 10, 30), opened_at=now)
            for n in range(count)]  # fmt: skip


def _stored(alerts) -> list[tuple]:
    return list(Alert.objects.filter(pk__in=[a.pk for a in alerts]).order_by("pk").values_list(*STORED))


def test_many_rows_at_once_are_stored_as_one_at_a_time_would_store_them(site):
    now = timezone.now()
    many = _alerts(site, COPY_ROWS + 4, "many", now)
    with CaptureQueriesContext(connection) as ran:
        created = Alert.objects.bulk_create(many)
    took_ids = any("nextval(pg_get_serial_sequence" in q["sql"] for q in ran.captured_queries)
    assert took_ids == (connection.vendor == "postgresql")  # by COPY where there is one
    assert created == many and all(a.pk and not a._state.adding for a in many)
    assert len({a.pk for a in many}) == len(many)

    one_by_one = _alerts(site, COPY_ROWS + 4, "one", now)
    for alert in one_by_one:
        alert.save()
    assert _stored(many) == _stored(one_by_one)

    # each row has its event, which the verification checks against the row
    events = AuditEvent.objects.filter(row_table=Alert._meta.db_table, row_pk__in=[a.pk for a in many])
    assert sorted(events.values_list("row_pk", flat=True)) == sorted(a.pk for a in many)
    assert verify_chain().ok
    # the rows stay append-only
    with pytest.raises(ImmutableRecordError):
        many[0].save()
    with pytest.raises(DatabaseError), transaction.atomic():
        Alert.objects.filter(pk=many[0].pk).update(title="changed")
    # and the sequence moved past the ids taken
    assert min(a.pk for a in one_by_one) > max(a.pk for a in many)
