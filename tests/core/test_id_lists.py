"""No query carries an unbounded id list (issue 18): a bulk insert of signed rows larger than
SQLite's 32,766 host parameters is recorded in the audit chain, its organizations read a
chunk at a time (core.id_lists)."""

import sqlite3
from contextlib import contextmanager

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from cardroom.models import Site
from core.audit_verify import verify_chain
from core.id_lists import ID_CHUNK, chunks, rows_among
from core.models import AuditEvent
from surveillance.models import SurveillanceStatus

SQLITE_MAX_VARIABLES = 32_766  # SQLite's default; a build may allow more (Debian's: 250,000)


@pytest.fixture
def sqlites_default_limit():
    """The connection held to SQLite's default number of host parameters, whatever the build."""
    if connection.vendor != "sqlite":
        yield
        return
    connection.ensure_connection()
    raw = connection.connection
    before = raw.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
    raw.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, SQLITE_MAX_VARIABLES)
    yield
    raw.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, before)


def test_chunks_keep_the_order_and_every_value():
    assert list(chunks(range(7), 3)) == [[0, 1, 2], [3, 4, 5], [6]]
    assert list(chunks([], 3)) == []


def test_rows_among_reads_every_row_one_query_per_chunk(site, other_site):
    ids = [site.pk, other_site.pk, 10**9]
    with CaptureQueriesContext(connection) as queries:
        found = sorted(rows_among(Site.objects.values_list("pk", flat=True), "pk", ids, size=2))
    assert found == sorted([site.pk, other_site.pk]) and len(queries) == 2


def test_a_bulk_insert_of_more_rows_than_sqlite_has_variables_is_recorded_in_the_chain(site, sqlites_default_limit):
    count = SQLITE_MAX_VARIABLES + 1_000
    now = timezone.now()
    rows = [  # by site id, not the site: the organization is not loaded, so it is read
        SurveillanceStatus(site_id=site.pk, required=False, since=now.date(), reason="bulk", recorded_at=now)
        for _ in range(count)
    ]
    with CaptureQueriesContext(connection) as queries:
        SurveillanceStatus.objects.bulk_create(rows)
    assert AuditEvent.objects.filter(row_table="surveillance_surveillancestatus").count() == count
    # The chunked reads of the rows' organizations (on PostgreSQL the ids drawn from the table's
    # sequence before the COPY name the table too, but read nothing from it).
    reads = [
        q["sql"]
        for q in queries
        if q["sql"].startswith("SELECT") and 'FROM "surveillance_surveillancestatus"' in q["sql"]
    ]
    assert len(reads) == -(-count // ID_CHUNK)


# The most host parameters one statement may carry: SQLite's default, PostgreSQL's protocol limit
# (a 16-bit count; psycopg's server-side binding refuses more, its client-side binding would hide it).
PARAMETER_LIMITS = {"sqlite": SQLITE_MAX_VARIABLES, "postgresql": 65_535}


@contextmanager
def largest_statement():
    """The most parameters any statement run inside carried (a list; its one value once done).
    COPY rows (PostgreSQL's bulk path, core.appendonly) carry none."""
    largest = [0]

    def watch(execute, sql, params, many, context):
        rows = (params or []) if many else [params or ()]
        largest[0] = max([largest[0], *(len(row) for row in rows)])
        return execute(sql, params, many, context)

    with connection.execute_wrapper(watch):
        yield largest


@pytest.mark.slow
def test_a_bulk_insert_of_a_hundred_thousand_signed_rows_is_recorded_in_the_chain_and_verifies(
    site, sqlites_default_limit
):
    """Issue 36: 100,000 signed rows in one `bulk_create` (three times SQLite's default limit of
    host parameters, over PostgreSQL's 65,535), each with its row event in its organization's
    chain, no statement past the database's parameter limit (the organizations read a chunk of
    ids at a time), and the audit log's full verification reads every row back against its event.
    `slow` (it runs in `make test`, and on PostgreSQL with DATABASE_URL): on the shared 2-core
    machine at a load of about 12, 210 s on SQLite and 135 s on PostgreSQL (80 s the insert, 44 s
    the verification)."""
    count = 100_000
    now = timezone.now()
    rows = [
        SurveillanceStatus(site_id=site.pk, required=False, since=now.date(), reason="bulk", recorded_at=now)
        for _ in range(count)
    ]
    table = SurveillanceStatus._meta.db_table
    with largest_statement() as largest, CaptureQueriesContext(connection) as queries:
        SurveillanceStatus.objects.bulk_create(rows)
    assert 0 < largest[0] <= PARAMETER_LIMITS[connection.vendor]
    reads = [q["sql"] for q in queries if q["sql"].startswith("SELECT") and f'FROM "{table}"' in q["sql"]]
    assert len(reads) == -(-count // ID_CHUNK)  # the rows' organizations, a chunk of ids at a time
    assert SurveillanceStatus.objects.count() == count
    events = AuditEvent.objects.filter(row_table=table)
    assert events.count() == count
    assert set(events.values_list("organization_id", flat=True).distinct()) == {site.organization_id}
    with largest_statement() as largest:
        verification = verify_chain(full=True)
    assert verification.ok, verification.problem
    assert verification.rows_checked >= count and verification.checked >= count
    assert largest[0] <= PARAMETER_LIMITS[connection.vendor]
