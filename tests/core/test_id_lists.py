"""No query carries an unbounded id list (issue 18): a bulk insert of signed rows larger than
the database's limit of host parameters is recorded in the audit chain, its organizations read a
chunk at a time (core.id_lists), and the audit log's full verification reads every row back.

Proven at a smaller scale (issue 34: the suite's time): the connection's limit is lowered
(SQLite's own limit, set on the connection, so a longer statement is refused; PostgreSQL's
protocol limit cannot be lowered, so there the largest statement is held to the lowered one) and
`settings.ID_CHUNK` with it. An id list sent whole, or chunks as large as the limit, fail here as
they would at 32,766 parameters (SQLite's "too many SQL variables", the parameter count, the count
of chunked reads), and the real chunk is held to the same share of the real limits
(test_the_real_chunk_is_as_far_under_the_real_limits). Before: 100,000 rows (210 s on SQLite on
the shared machine) and 33,766 in every run."""

import sqlite3
from contextlib import contextmanager

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from cardroom.models import Site
from core.audit_verify import verify_chain
from core.id_lists import chunks, rows_among
from core.models import AuditEvent
from surveillance.models import SurveillanceStatus

SQLITE_MAX_VARIABLES = 32_766  # SQLite's default; a build may allow more (Debian's: 250,000)
# The most host parameters one statement may carry: SQLite's default, PostgreSQL's protocol limit
# (a 16-bit count; psycopg's server-side binding refuses more, its client-side binding would hide it).
PARAMETER_LIMITS = {"sqlite": SQLITE_MAX_VARIABLES, "postgresql": 65_535}

# The scale the bulk tests run at: a limit above Django's own SQLite INSERT batches (999
# parameters), and a chunk a quarter of it (the real 5,000 is under a sixth of SQLite's 32,766).
LOWERED_LIMIT = 2_000
LOWERED_CHUNK = 500


@pytest.fixture
def lowered_limit(settings):
    """The connection held to LOWERED_LIMIT host parameters (on SQLite a longer statement is
    refused), and id lists chunked in proportion (settings.ID_CHUNK)."""
    settings.ID_CHUNK = LOWERED_CHUNK
    if connection.vendor != "sqlite":
        yield LOWERED_LIMIT
        return
    connection.ensure_connection()
    raw = connection.connection
    before = raw.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
    raw.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, LOWERED_LIMIT)
    yield LOWERED_LIMIT
    raw.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, before)


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


def _bulk_rows(site, count: int) -> list[SurveillanceStatus]:
    now = timezone.now()
    return [  # by site id, not the site: the organization is not loaded, so it is read
        SurveillanceStatus(site_id=site.pk, required=False, since=now.date(), reason="bulk", recorded_at=now)
        for _ in range(count)
    ]


def _organization_reads(queries) -> list[str]:
    """The chunked reads of the rows' organizations (on PostgreSQL the ids drawn from the table's
    sequence before the COPY name the table too, but read nothing from it)."""
    table = SurveillanceStatus._meta.db_table
    return [q["sql"] for q in queries if q["sql"].startswith("SELECT") and f'FROM "{table}"' in q["sql"]]


def test_the_real_chunk_is_as_far_under_the_real_limits():
    """What the lowered tests prove holds at the real size: the real chunk is at most the same
    share of either database's limit as the lowered chunk is of the lowered limit."""
    assert settings.ID_CHUNK == 5_000
    for limit in PARAMETER_LIMITS.values():
        assert settings.ID_CHUNK * LOWERED_LIMIT <= LOWERED_CHUNK * limit


def test_chunks_keep_the_order_and_every_value(settings):
    assert list(chunks(range(7), 3)) == [[0, 1, 2], [3, 4, 5], [6]]
    assert list(chunks([], 3)) == []
    settings.ID_CHUNK = 4
    assert list(chunks(range(7))) == [[0, 1, 2, 3], [4, 5, 6]]  # the setting, read at the call


def test_rows_among_reads_every_row_one_query_per_chunk(site, other_site):
    ids = [site.pk, other_site.pk, 10**9]
    with CaptureQueriesContext(connection) as queries:
        found = sorted(rows_among(Site.objects.values_list("pk", flat=True), "pk", ids, size=2))
    assert found == sorted([site.pk, other_site.pk]) and len(queries) == 2


def test_a_bulk_insert_of_more_rows_than_a_statement_may_have_parameters_is_recorded_in_the_chain(site, lowered_limit):
    count = lowered_limit + 1_000
    rows = _bulk_rows(site, count)
    with largest_statement() as largest, CaptureQueriesContext(connection) as queries:
        SurveillanceStatus.objects.bulk_create(rows)
    assert AuditEvent.objects.filter(row_table="surveillance_surveillancestatus").count() == count
    assert 0 < largest[0] <= lowered_limit
    assert len(_organization_reads(queries)) == -(-count // settings.ID_CHUNK)


def test_a_bulk_insert_of_three_limits_of_signed_rows_is_recorded_in_the_chain_and_verifies(site, lowered_limit):
    """Issue 36: three times the limit of host parameters in signed rows in one `bulk_create`
    (the 100,000 rows this was, at the lowered scale), each with its row event in its
    organization's chain, no statement past the limit (the organizations read a chunk of ids at a
    time), and the audit log's full verification reads every row back against its event."""
    count = 3 * lowered_limit + 1_000
    table = SurveillanceStatus._meta.db_table
    with largest_statement() as largest, CaptureQueriesContext(connection) as queries:
        SurveillanceStatus.objects.bulk_create(_bulk_rows(site, count))
    assert 0 < largest[0] <= lowered_limit
    assert len(_organization_reads(queries)) == -(-count // settings.ID_CHUNK)  # a chunk of ids at a time
    assert SurveillanceStatus.objects.count() == count
    events = AuditEvent.objects.filter(row_table=table)
    assert events.count() == count
    assert set(events.values_list("organization_id", flat=True).distinct()) == {site.organization_id}
    with largest_statement() as largest:
        verification = verify_chain(full=True)
    assert verification.ok, verification.problem
    assert verification.rows_checked >= count and verification.checked >= count
    assert largest[0] <= lowered_limit
