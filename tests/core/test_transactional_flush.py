"""The flush that ends a transactional test empties every table, the append-only ones and the rows
that reference each other included, and leaves the append-only triggers refusing afterwards. On
PostgreSQL it deletes instead of truncating (tests/postgres_session.py)."""

from datetime import date

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction

from cardroom.models import Role
from cardroom.services import create_table
from core.appendonly import set_guard_lifted
from core.models import AuditEvent
from tests.accounting.scenario import Scenario
from tests.factories import OrganizationFactory, SiteFactory, TableFactory, make_person

# Rebuilt by the flush's post_migrate signal.
REFILLED = {"django_content_type", "auth_permission"}


@pytest.mark.django_db(transaction=True)
def test_a_flush_empties_every_table_of_a_day_of_records_and_the_triggers_refuse_again(site, people):
    scenario, day = Scenario(site, people), date(2026, 8, 14)
    table = TableFactory(site=site, number=1)
    scenario.tray(table, day, "opener", 200_000)
    scenario.slip(table, day, "fill", 20_000, number=1)
    scenario.drop(table, day, 100_000)
    tables = {m._meta.db_table: m for m in apps.get_models(include_auto_created=True) if m._meta.managed}
    assert AuditEvent.objects.count() >= 5

    set_guard_lifted(connection, True)
    call_command("flush", interactive=False, verbosity=0)
    set_guard_lifted(connection, False)

    assert {name for name, model in tables.items() if model._default_manager.exists()} == REFILLED
    org = OrganizationFactory()  # the flush took the fixtures' rows: new ones, and one audit event
    manager = make_person(org, Role.GAMING_MANAGER)
    create_table(acting_user=manager.user, site=SiteFactory(organization=org), number=2, game="21",
                 min_wager_cents=100, max_wager_cents=2500)  # fmt: skip
    events = AuditEvent._meta.db_table
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {events}")
    assert AuditEvent.objects.filter(action="table.created").count() == 1
