"""The audit log page names the records an event holds by id (a table, closed books, a gaming day,
a site...) as the app names them, read a kind at a time in one query a page, and only at the
sites the reader reads; the full detail keeps the ids."""

import re
from datetime import date

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from cardroom.models import Role
from core import audit
from core.models import AuditEvent
from floor import services as floor
from floor.calculations import site_today
from tests.accounting.books_days import adjusted, closed_day
from tests.factories import TableFactory, make_person

pytestmark = pytest.mark.django_db

URL = "/dashboard/audit/"
CLOSED, ENTERED = date(2026, 9, 30), date(2026, 11, 30)


def html_for(client, who) -> str:
    client.force_login(who.user)
    response = client.get(URL)
    assert response.status_code == 200
    return response.content.decode()


def row_of(html: str, event: AuditEvent) -> str:
    return html.split(f'data-seq="{event.seq}"')[1].split("</tr>\n")[0].replace("\n", "")


def fields_of(html: str, event: AuditEvent) -> str:
    """The event's readable fields, before the JSON as stored."""
    return row_of(html, event).split('class="audit-json')[0]


def noted(org, who, site, after: dict) -> AuditEvent:
    """An event at `site` naming records by id, appended to the chain as a service appends one."""
    with transaction.atomic():
        event = audit.new_event(actor=who.user, action="note.written", object_type="test.note", object_id="1",
                                site_id=site.pk, after=after)  # fmt: skip
        audit.append_events(org.pk, [event])
    return event


def adjustment_event(adjustment) -> AuditEvent:
    return AuditEvent.objects.get(object_type="accounting_adjustment", object_id=str(adjustment.pk))


def test_an_adjustments_table_and_closed_books_read_as_the_app_names_them_the_detail_keeps_the_ids(client, site, cast):
    """An auditor read "Table: 14": which table? The table as its pages name it, the books as their
    site and date."""
    table = TableFactory(site=site, number=7)
    closed = closed_day(cast, site, CLOSED)
    event = adjustment_event(adjusted(cast, closed, table, ENTERED))
    html = html_for(client, cast[Role.AUDITOR])
    fields = fields_of(html, event)
    assert f'<td title="table_id">Table</td><td></td><td>{table}</td>' in fields and "table 7" in str(table)
    assert f'<td title="books_close_id">Books close</td><td></td><td>Books of {site.name} {CLOSED}</td>' in fields
    stored = row_of(html, event).split('class="audit-json')[1]
    assert re.search(f"&quot;table_id&quot;: {table.pk}\\b", stored)
    assert re.search(f"&quot;books_close_id&quot;: {closed.pk}\\b", stored)
    # The closing of the books names its site, a gaming day's close its day
    books = AuditEvent.objects.get(object_type="accounting_booksclose", object_id=str(closed.pk))
    assert f'<td title="site_id">Site</td><td></td><td>{site.name}</td>' in fields_of(html, books)


def test_a_record_at_a_site_the_reader_does_not_read_is_shown_by_its_id(client, org, site, cast, stranger_site):
    """Every reader of the log reads their whole organization (gaming managers and auditors); a
    stored id of a record at another organization's site, or of none, is never named to them: the
    reader learns neither its name nor whether it exists."""
    stranger = make_person(stranger_site.organization, Role.SHIFT_MANAGER, stranger_site)
    day = floor.open_gaming_day(acting_user=stranger.user, site=stranger_site, gaming_date=site_today(stranger_site))
    table = TableFactory(site=stranger_site, number=7)
    ours = TableFactory(site=site, number=8)
    event = noted(org, cast[Role.GAMING_MANAGER], site, {"table_id": table.pk, "gaming_day_id": day.pk,
                  "site_id": stranger_site.pk, "books_close_id": 999_999})  # fmt: skip
    own = noted(org, cast[Role.GAMING_MANAGER], site, {"table_id": ours.pk, "site_id": site.pk})
    for reader in (cast[Role.AUDITOR], cast[Role.GAMING_MANAGER]):
        html = html_for(client, reader)
        assert f'<td title="table_id">Table</td><td></td><td>{ours}</td>' in fields_of(html, own)
        fields = fields_of(html, event)
        assert f'<td title="table_id">Table</td><td></td><td>{table.pk}</td>' in fields
        assert f'<td title="gaming_day_id">Gaming day</td><td></td><td>{day.pk}</td>' in fields
        assert f'<td title="site_id">Site</td><td></td><td>{stranger_site.pk}</td>' in fields
        assert '<td title="books_close_id">Books close</td><td></td><td>999999</td>' in fields
        assert str(table) not in fields and stranger_site.name not in fields


def test_a_login_named_by_id_reads_as_its_person_not_as_the_employee_of_that_id(
    client, org, site, cast, django_user_model
):
    """Surveillance's records keep `recorded_by_id` as a login's id, the floor's as an employee's:
    the key is read as the event's own record defines it, never guessed from its name."""
    django_user_model.objects.create_user("spare")  # the next login's id is not its employee's
    watcher = make_person(org, Role.DEALER, site)
    assert watcher.user_id != watcher.pk
    with transaction.atomic():
        event = audit.new_event(actor=watcher.user, action="row.created", object_type="surveillance_recordingaccess",
                                object_id="1", site_id=site.pk, after={"recorded_by_id": watcher.user_id})  # fmt: skip
        audit.append_events(org.pk, [event])
    fields = fields_of(html_for(client, cast[Role.AUDITOR]), event)
    person = f"{watcher.user.get_full_name()} ({watcher.initials})"
    assert f'<td title="recorded_by_id">Recorded by</td><td></td><td>{person}</td>' in fields


def test_the_page_asks_as_many_queries_naming_one_record_of_a_kind_as_naming_many(
    client, org, site, cast, django_assert_max_num_queries
):
    tables = [TableFactory(site=site, number=n) for n in range(1, 8)]
    closed = closed_day(cast, site, CLOSED)
    adjusted(cast, closed, tables[0], ENTERED)
    reader = cast[Role.AUDITOR]
    client.force_login(reader.user)
    with CaptureQueriesContext(connection) as one:
        assert client.get(URL).status_code == 200
    for table in tables[1:]:
        adjusted(cast, closed, table, ENTERED)
    for table in tables:
        noted(org, cast[Role.GAMING_MANAGER], site, {"table_id": table.pk, "books_close_id": closed.pk})
    with django_assert_max_num_queries(len(one.captured_queries)):
        html = client.get(URL).content.decode()
    assert all(f"<td>{table}</td>" in html for table in tables)
