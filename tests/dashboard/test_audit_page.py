"""The audit log page (/dashboard/audit/): the organization's events with who and when, for its
gaming managers and auditors only (dashboard.access.AUDIT_LOG), filtered, paged, escaped, in a
bounded number of queries."""

import re
from datetime import UTC, datetime

import pytest
import time_machine
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from cardroom.models import Role
from core import audit
from core.models import AuditEvent
from core.moments import shown
from floor import services as floor
from floor.calculations import site_today
from tests.factories import SiteFactory, make_person

pytestmark = pytest.mark.django_db

URL = "/dashboard/audit/"
REFUSAL = "House control: only a gaming manager or auditor may read the audit log."


def open_day(site, who):
    return floor.open_gaming_day(acting_user=who.user, site=site, gaming_date=site_today(site))


def opening_of(day) -> AuditEvent:
    return AuditEvent.objects.get(action="gaming_day.opened", object_id=str(day.pk))


def many_events(org, site, who, count: int) -> None:
    """`count` events at `site`, appended to the organization's chain as a service appends them."""
    with transaction.atomic():
        events = [
            audit.new_event(actor=who.user, action="note.written", object_type="test.note", object_id=str(n),
                            site_id=site.pk, after={"n": n})
            for n in range(count)
        ]  # fmt: skip
        audit.append_events(org.pk, events)


def page_for(client, who, query=""):
    client.force_login(who.user)
    return client.get(f"{URL}{query}")


def test_an_opened_gaming_day_is_listed_with_who_when_and_its_place_in_the_chain(client, site, cast):
    shift = cast[Role.SHIFT_MANAGER]
    event = opening_of(open_day(site, shift))
    response = page_for(client, cast[Role.AUDITOR])
    assert response.status_code == 200
    html = response.content.decode()
    row = html.split(f'data-seq="{event.seq}"')[1].split("</tr>\n")[0]
    assert "Gaming day opened" in row and "<code>gaming_day.opened</code>" in row
    assert f"{shift.user.get_full_name()} ({shift.initials})" in row
    assert shown(site, event.occurred_at) in row  # the site's local time, with its zone
    # The record in words, its stored type kept as the cell's title
    assert f'title="floor.gamingday">Gaming day #{event.object_id}</td>' in row and site.name in row
    assert f'<td class="text-end">{event.seq}</td>' in row
    # The changed fields in words, behind a summary, the stored key kept as the cell's title
    assert "<summary>" in row and '<td title="gaming_date">Gaming date</td>' in row
    # An employee the record names by id reads as the person (a walk read "Approved by id 20"); the
    # full detail keeps the id.
    person = f"{shift.user.get_full_name()} ({shift.initials})"
    assert f'<td title="opened_by_id">Opened by</td><td></td><td>{person}</td>' in row.replace("\n", "")
    assert f"&quot;opened_by_id&quot;: {shift.pk}" in row


@pytest.mark.parametrize("role", list(Role))
def test_only_gaming_managers_and_auditors_read_the_log(client, cast, role):
    response = page_for(client, cast[role])
    if role in (Role.GAMING_MANAGER, Role.AUDITOR):
        assert response.status_code == 200
    else:
        assert response.status_code == 403
        assert REFUSAL in response.content.decode()


def test_a_login_with_no_employee_is_refused(client, django_user_model):
    user = django_user_model.objects.create_user("visitor", password="Ochre-Lantern-Drift-58")
    client.force_login(user)
    response = client.get(URL)
    assert response.status_code == 403 and REFUSAL in response.content.decode()


@pytest.mark.parametrize("role", [Role.GAMING_MANAGER, Role.AUDITOR])
def test_another_organizations_events_never_appear(client, site, cast, stranger_site, role):
    ours = opening_of(open_day(site, cast[Role.SHIFT_MANAGER]))
    stranger = make_person(stranger_site.organization, Role.SHIFT_MANAGER, stranger_site)
    theirs = opening_of(open_day(stranger_site, stranger))
    for query in ("", f"?site={stranger_site.pk}", f"?person={stranger.pk}"):
        html = page_for(client, cast[role], query).content.decode()
        assert f'data-chain="{theirs.chain}"' not in html
        assert stranger_site.name not in html.split('id="audit-events"')[1] and stranger.user.username not in html
    assert f'data-seq="{ours.seq}" data-chain="{ours.chain}"' in page_for(client, cast[role]).content.decode()


def test_events_of_no_site_are_the_organization_wide_readers(client, org, cast):
    with transaction.atomic():
        audit.record_event(actor=cast[Role.GAMING_MANAGER].user, action="organization.renamed", obj=org,
                           organization_id=org.pk, before={"name": "Old"}, after={"name": "New"})  # fmt: skip
    html = page_for(client, cast[Role.AUDITOR]).content.decode()
    assert "Organization renamed" in html and "(organization)" in html
    # in the sites' one time zone (Chicago), as the rows beside it: not UTC beside "05:03 EST"
    assert re.search(r"\d{2}:\d{2} C[SD]T</td>", html) and " UTC</td>" not in html
    SiteFactory(organization=org, name="Far site", time_zone="America/Los_Angeles")
    html = page_for(client, cast[Role.AUDITOR]).content.decode()
    assert " UTC</td>" in html and "in UTC: the sites keep different time zones" in html  # no one zone to choose


def test_the_filters_pick_site_action_person_and_local_dates(client, org, site, other_site, cast):
    shift = cast[Role.SHIFT_MANAGER]
    boss = make_person(org, Role.SHIFT_MANAGER, other_site)
    here = opening_of(open_day(site, shift))
    # 03:00 UTC on 2026-08-21 is still the evening of 2026-08-20 in Chicago (the factory's zone).
    with time_machine.travel(datetime(2026, 8, 21, 3, 0, tzinfo=UTC), tick=False):
        there = opening_of(open_day(other_site, boss))
    reader = cast[Role.AUDITOR]

    def seqs(query):
        response = page_for(client, reader, query)
        assert response.status_code == 200, query
        html = response.content.decode()
        return {e.seq for e in (here, there) if f'data-seq="{e.seq}"' in html}

    assert seqs("") == {here.seq, there.seq}
    assert seqs(f"?site={other_site.pk}") == {there.seq}
    assert seqs(f"?site={site.pk}") == {here.seq}
    assert seqs(f"?person={boss.pk}") == {there.seq}
    assert seqs("?action=gaming_day.") == {here.seq, there.seq}
    assert seqs("?action=slip.") == set()
    assert seqs("?start=2026-08-20&end=2026-08-20") == {here.seq, there.seq}  # local dates, not UTC's
    assert seqs("?start=2026-08-21") == set()
    assert seqs("?end=2026-08-19") == set()
    row_events = page_for(client, reader, "?action=row.").content.decode()
    assert f'data-seq="{here.seq}"' not in row_events and "Row created" in row_events


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("?start=x", "start"),
        ("?end=2026-13-01", "end"),
        ("?start=2026-08-20&end=2026-08-01", "end"),
        ("?site=abc", "site"),
        ("?site=999999", "site"),
        ("?person=abc", "person"),
        ("?action=%3Cb%3E", "action"),
    ],
)
def test_a_filter_that_cannot_be_read_is_named_and_ignored(client, site, cast, query, field):
    event = opening_of(open_day(site, cast[Role.SHIFT_MANAGER]))
    response = page_for(client, cast[Role.GAMING_MANAGER], query)
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="errors"' in html and f"<li>{field}: " in html
    assert f'data-seq="{event.seq}"' in html  # the rest of the page stands
    assert "<b>" not in html.split('id="errors"')[1]


def test_a_site_of_another_organization_is_not_a_filter(client, cast, stranger_site):
    response = page_for(client, cast[Role.AUDITOR], f"?site={stranger_site.pk}")
    assert response.status_code == 400 and "<li>site: " in response.content.decode()


def test_user_text_in_an_event_is_escaped(client, org, site, cast):
    with transaction.atomic():
        audit.record_event(actor=cast[Role.GAMING_MANAGER].user, action="site.renamed", obj=site,
                           organization_id=org.pk, site_id=site.pk,
                           before={"name": "<i>Elks</i>"}, after={"name": "<script>alert(1)</script>"})  # fmt: skip
    html = page_for(client, cast[Role.AUDITOR]).content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "&lt;i&gt;Elks&lt;/i&gt;" in html
    assert "<script>alert(1)" not in html and "<i>Elks</i>" not in html


def _seqs(html: str) -> list[int]:
    return [int(part.split('"')[0]) for part in html.split('data-seq="')[1:]]


def _link(html: str, name: str) -> str | None:
    marker = f'id="audit-{name}"'
    if marker not in html:
        return None
    return html.split(marker)[0].rsplit('href="', 1)[1].split('"')[0].replace("&amp;", "&")


def test_a_page_holds_a_hundred_events_newest_first_and_older_and_newer_walk_the_log(client, org, site, cast):
    many_events(org, site, cast[Role.SHIFT_MANAGER], 150)
    notes = list(AuditEvent.objects.filter(action="note.written").order_by("-seq").values_list("seq", flat=True))
    first = page_for(client, cast[Role.AUDITOR], "?action=note.").content.decode()
    assert _seqs(first) == notes[:100] and "100 events on this page; older ones on the next." in first
    assert _link(first, "newer") is None
    older = _link(first, "older")
    assert older.startswith("?action=note.&older=")  # the filter kept
    second = page_for(client, cast[Role.AUDITOR], older).content.decode()
    assert _seqs(second) == notes[100:] and "50 events on this page." in second
    assert _link(second, "older") is None
    back = page_for(client, cast[Role.AUDITOR], _link(second, "newer")).content.decode()
    assert _seqs(back) == notes[:100] and _link(back, "newer") is None
    # A page asked from a place that is no event id reads the newest page.
    for place in ("x1", "0", "-5", "9" * 19, "９"):  # core.limits.record_id: no event's id
        assert (
            _seqs(page_for(client, cast[Role.AUDITOR], f"?action=note.&older={place}").content.decode()) == notes[:100]
        )


def test_events_written_while_a_reader_pages_do_not_shift_the_older_page(client, org, site, cast):
    """Pages are found from an event, not by counting: events written after the first page was read
    do not push events of the first page onto the second (an offset would show them twice)."""
    many_events(org, site, cast[Role.SHIFT_MANAGER], 150)
    first = page_for(client, cast[Role.AUDITOR], "?action=note.").content.decode()
    many_events(org, site, cast[Role.SHIFT_MANAGER], 30)
    second = page_for(client, cast[Role.AUDITOR], _link(first, "older")).content.decode()
    assert not set(_seqs(first)) & set(_seqs(second)) and len(_seqs(second)) == 50


def test_the_page_asks_as_many_queries_for_200_events_as_for_10(client, org, site, cast, django_assert_max_num_queries):
    reader = cast[Role.AUDITOR]
    many_events(org, site, cast[Role.SHIFT_MANAGER], 10)
    client.force_login(reader.user)
    with CaptureQueriesContext(connection) as few:
        assert client.get(URL).status_code == 200
    many_events(org, site, make_person(org, Role.DEALER, site), 190)
    with django_assert_max_num_queries(len(few.captured_queries)):
        html = client.get(URL).content.decode()
    assert html.count('data-seq="') == 100


def test_the_menu_offers_the_audit_log_to_its_readers_only(client, cast):
    for role in Role:
        client.force_login(cast[role].user)
        html = client.get("/").content.decode()
        assert (f'href="{URL}"' in html) is (role in (Role.GAMING_MANAGER, Role.AUDITOR)), role


def test_a_rows_event_names_its_record_in_words_and_an_empty_value_blank(client, org, site, cast):
    """A row's event carries its table ("cage_bankcountline"); the page names the record as its
    model does, and a value that was empty reads blank, not the JSON word null."""
    with transaction.atomic():
        event = audit.new_event(actor=cast[Role.GAMING_MANAGER].user, action="row.inserted",
                                object_type="cage_bankcountline", object_id="7", site_id=site.pk,
                                before=None, after={"value_cents": 2500, "note": None})  # fmt: skip
        audit.append_events(org.pk, [event])
    html = page_for(client, cast[Role.AUDITOR]).content.decode()
    row = html.split(f'data-seq="{event.seq}"')[1].split("</tr>\n")[0]
    assert 'title="cage_bankcountline">Bank count line #7</td>' in row
    fields = row.split('class="audit-json')[0]  # the readable fields, before the JSON as stored
    assert '<td title="note">Note</td><td></td><td></td></tr>' in fields and "null" not in fields
    assert '<td title="value_cents">Value</td><td></td><td>$25.00</td></tr>' in fields


def test_a_page_is_found_from_its_neighbour_not_by_counting_or_skipping_the_log(client, org, site, cast):
    """Older and Newer: no COUNT of the matching events and no OFFSET as deep as the page, whose
    cost grows with the log behind it; the page reads the events after or before an id."""
    many_events(org, site, cast[Role.SHIFT_MANAGER], 150)
    client.force_login(cast[Role.AUDITOR].user)
    first = client.get(f"{URL}?action=note.").content.decode()
    for query in ("?action=note.", _link(first, "older")):
        with CaptureQueriesContext(connection) as seen:
            assert client.get(f"{URL}{query}").status_code == 200
        events = [q["sql"].upper() for q in seen.captured_queries if "CARDROOM_AUDITEVENT" in q["sql"].upper()]
        assert events and not [sql for sql in events if "COUNT(" in sql or "OFFSET" in sql], events


def test_an_events_detail_reads_in_words_lists_and_moments_as_the_page_writes_them_the_json_kept(
    client, org, site, cast
):
    """Keys in words, an empty list "none", a list comma-separated, a moment as the page's own
    (the site's local time to the minute, never microseconds); the stored JSON behind a summary."""
    moment = datetime(2026, 11, 10, 2, 15, 30, 123456, tzinfo=UTC)
    with transaction.atomic():
        event = audit.new_event(actor=cast[Role.GAMING_MANAGER].user, action="books.rebuilt",
                                object_type="test.books", object_id="3", site_id=site.pk,
                                before={"rebuilt": [], "rows": []},
                                after={"rebuilt": ["2026-11-09", "2026-11-10"], "rows": [{"table": 1, "drop_cents": 12345}],
                                       "checked_at": moment.isoformat(), "closed": True})  # fmt: skip
        audit.append_events(org.pk, [event])
    html = page_for(client, cast[Role.AUDITOR]).content.decode()
    row = html.split(f'data-seq="{event.seq}"')[1].split("</tr>\n")[0]
    fields, stored = row.split('class="audit-json')
    assert '<td title="rebuilt">Rebuilt</td><td>none</td><td>2026-11-09, 2026-11-10</td></tr>' in fields
    assert '<td title="rows">Rows</td><td>none</td><td>Drop: $123.45; Table: 1</td></tr>' in fields
    assert f'<td title="checked_at">Checked at</td><td></td><td>{shown(site, moment)}</td></tr>' in fields
    assert '<td title="closed">Closed</td><td></td><td>yes</td></tr>' in fields
    assert "123456" not in fields and "[]" not in fields and "&quot;" not in fields
    # The full detail as stored, behind its own summary
    assert "<summary" in stored and "&quot;rebuilt&quot;: []" in stored and moment.isoformat() in stored
