"""Closing a gaming day with open items: the refusal lists each, a shift manager carries one
with a reason, and the carried items show on the daily figures and the dashboard."""

import re

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from cardroom.models import Role
from core.models import AuditEvent
from counts import services as counts
from floor import services
from floor.models import CarriedItem, GamingDayClose
from floor.open_items import Kind, open_items
from tests.factories import make_person

from .conftest import FILL, TRAY


@pytest.fixture
def busy_day(cast, shift_manager, gaming_day, open_table, dealer_shift, manager):
    """A day with a verified fill not received, a credit not verified, the table still open and
    its drop box on the table."""
    fill = services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=open_table, chips=FILL)
    services.verify_slip(acting_user=cast[Role.PIT_BOSS].user, slip=fill)
    credit = services.prepare_credit(acting_user=cast[Role.DEALER].user, table=open_table, chips=FILL)
    box = counts.register_drop_box(acting_user=manager.user, table=open_table)
    return {"fill": fill, "credit": credit, "box": box, "day": gaming_day}


def _refusal(shift_manager, day) -> dict:
    with pytest.raises(ValidationError) as refused:
        services.close_gaming_day(acting_user=shift_manager.user, gaming_day=day)
    return refused.value.message_dict


def test_the_close_is_refused_listing_each_kind_of_open_item_with_its_rule(busy_day, shift_manager):
    refusal = _refusal(shift_manager, busy_day["day"])
    assert refusal["gaming_day"][0].startswith("House control: the gaming day")
    assert "has 4 open items" in refusal["gaming_day"][0]
    items = "\n".join(refusal["open_items"])
    fill, credit = busy_day["fill"], busy_day["credit"]
    assert f"ND 99-01.3-08-05(6): Fill slip {fill.number} · table 1 · $600.00 is verified but not received" in items
    assert (
        f"ND 99-01.3-08-05(5): Credit slip {credit.number} · table 1 · $600.00 is not verified and not received"
        in items
    )
    assert "House control: table 1 is open (no closer)" in items
    assert "ND 99-01.3-08-14(1): Drop box 1 of table 1 is not removed from its table" in items
    assert not GamingDayClose.objects.exists()


def test_a_removed_box_not_counted_is_an_open_item_citing_the_count_rule(busy_day, shift_manager, cast, org, site):
    holder = make_person(org, Role.COUNT_TEAM, site)
    # The pit boss who verified the fill is on the duty register: ND 99-01.3-08-14(1) asks the escort.
    counts.remove_drop_box(
        acting_user=shift_manager.user,
        drop_box=busy_day["box"],
        storage_place="office safe",
        key_holder=holder,
        escorted_by=cast[Role.PIT_BOSS],
        gaming_date=busy_day["day"].gaming_date,
    )
    kinds = {item.kind: item for item in open_items(busy_day["day"])}
    assert Kind.BOX_NOT_REMOVED not in kinds
    assert kinds[Kind.BOX_NOT_COUNTED].citation == "ND 99-01.3-08-14(4)"
    assert "is removed but not counted" in kinds[Kind.BOX_NOT_COUNTED].description


def test_the_open_items_are_four_queries_and_cite_the_rules_without_reading_the_site(busy_day):
    """Issue 37: each provider is one query reading values, the site's jurisdiction joined; a gaming
    day read afresh (its site not loaded) costs no query more to cite the rules at its site."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from floor.models import GamingDay

    day = GamingDay.objects.get(pk=busy_day["day"].pk)  # no site loaded
    with CaptureQueriesContext(connection) as queries:
        items = open_items(day)
    assert len(queries) == 4  # slips, tables, the day's drops, the boxes without a drop
    assert 'cardroom_site"."id" =' not in " ".join(q["sql"] for q in queries.captured_queries)
    assert {i.kind: i.citation for i in items} == {
        Kind.SLIP_UNRECEIVED: "ND 99-01.3-08-05(6)",
        Kind.SLIP_UNVERIFIED: "ND 99-01.3-08-05(5)",
        Kind.TABLE_OPEN: "House control",
        Kind.BOX_NOT_REMOVED: "ND 99-01.3-08-14(1)",
    }


def test_carrying_with_a_reason_and_resolving_the_rest_lets_the_day_close(busy_day, shift_manager, cast, open_table):
    day = busy_day["day"]
    keys = {item.kind: item.key for item in open_items(day)}
    carried = services.carry_open_items(
        acting_user=shift_manager.user, gaming_day=day, keys=[keys[Kind.SLIP_UNRECEIVED], keys[Kind.BOX_NOT_REMOVED]],
        reason="Dealer went home sick; receives the copy tomorrow. Box counted in the morning.",
    )  # fmt: skip
    assert [c.kind for c in carried] == [Kind.SLIP_UNRECEIVED, Kind.BOX_NOT_REMOVED]
    assert carried[0].carried_by == shift_manager and carried[0].carried_as == Role.SHIFT_MANAGER
    assert AuditEvent.objects.filter(action="gaming_day.item_carried").count() == 2
    services.void_slip(acting_user=cast[Role.DEALER].user, slip=busy_day["credit"], reason="Wrong table.")
    assert len(_refusal(shift_manager, day)["open_items"]) == 1  # the table
    services.record_table_inventory(acting_user=shift_manager.user, table=open_table, kind="closer", chips=TRAY)
    services.close_gaming_day(acting_user=shift_manager.user, gaming_day=day)
    assert GamingDayClose.objects.filter(gaming_day=day).exists()


def test_a_carry_needs_a_reason_a_carryable_open_item_and_a_manager(busy_day, shift_manager, cast, manager):
    day = busy_day["day"]
    keys = {item.kind: item.key for item in open_items(day)}
    with pytest.raises(ValidationError, match="say why the item is carried"):
        services.carry_open_items(
            acting_user=shift_manager.user, gaming_day=day, keys=[keys[Kind.SLIP_UNVERIFIED]], reason=" "
        )
    with pytest.raises(ValidationError, match="record the closer of table 1 first"):
        services.carry_open_items(
            acting_user=shift_manager.user, gaming_day=day, keys=[keys[Kind.TABLE_OPEN]], reason="x"
        )
    with pytest.raises(ValidationError, match="slip:0 is not an open item"):
        services.carry_open_items(acting_user=shift_manager.user, gaming_day=day, keys=["slip:0"], reason="x")
    with pytest.raises(PermissionDenied, match="House control: only"):
        services.carry_open_items(
            acting_user=cast[Role.PIT_BOSS].user, gaming_day=day, keys=[keys[Kind.SLIP_UNVERIFIED]], reason="x"
        )
    row = services.carry_open_items(
        acting_user=manager.user, gaming_day=day, keys=[keys[Kind.SLIP_UNVERIFIED]], reason="x"
    )[0]
    assert row.carried_as == Role.GAMING_MANAGER
    with pytest.raises(ValidationError, match="already carried"):
        services.carry_open_items(
            acting_user=shift_manager.user, gaming_day=day, keys=[keys[Kind.SLIP_UNVERIFIED]], reason="x"
        )
    assert CarriedItem.objects.count() == 1


def test_a_carried_item_is_append_only(busy_day, shift_manager):
    from core.appendonly import ImmutableRecordError

    key = open_items(busy_day["day"])[0].key
    row = services.carry_open_items(acting_user=shift_manager.user, gaming_day=busy_day["day"], keys=[key], reason="x")[
        0
    ]
    row.reason = "changed"
    with pytest.raises(ImmutableRecordError):
        row.save()


def close_with_carried(busy_day, shift_manager, open_table):
    day = busy_day["day"]
    services.record_table_inventory(acting_user=shift_manager.user, table=open_table, kind="closer", chips=TRAY)
    keys = [item.key for item in open_items(day) if item.carryable]
    services.carry_open_items(acting_user=shift_manager.user, gaming_day=day, keys=keys, reason="Dealer left early.")
    services.close_gaming_day(acting_user=shift_manager.user, gaming_day=day)
    return day


def test_the_daily_page_shows_open_and_carried_items_and_no_complete_table(
    busy_day, shift_manager, open_table, client, manager
):
    client.force_login(manager.user)
    day = busy_day["day"]
    url = f"/dashboard/daily/?site={day.site_id}&date={day.gaming_date}"
    text = client.get(url).content.decode()
    assert 'id="open-items"' in text and "is verified but not received" in text
    assert ">complete<" not in text
    close_with_carried(busy_day, shift_manager, open_table)
    text = client.get(url).content.decode()
    assert 'id="carried-items"' in text and "Dealer left early." in text
    assert "open slips" in text and ">complete<" not in text
    for line in carried_lines(day, shift_manager):  # each carried item, as the page writes it
        assert line["daily"] in text


def test_the_dashboard_lists_carried_items_as_exceptions(busy_day, shift_manager, open_table, client, manager):
    close_with_carried(busy_day, shift_manager, open_table)
    client.force_login(manager.user)
    text = client.get("/dashboard/").content.decode()
    assert "Carried at close" in text and "Dealer left early." in text
    assert "No open slip or count exceptions" not in text
    lines = carried_lines(busy_day["day"], shift_manager)
    assert len(lines) == 3 and all(line["dashboard"] in text for line in lines)


def test_the_dashboard_shows_the_latest_carried_items_first_and_the_daily_page_all_as_carried(
    busy_day, shift_manager, open_table, client, manager, monkeypatch
):
    """One read of carried items (floor.queries.carried_items) serves both pages: the daily page
    in the order carried, the dashboard the latest CARRIED_SHOWN, the latest first."""
    import dashboard.views

    day = close_with_carried(busy_day, shift_manager, open_table)
    carried = CarriedItem.objects.filter(gaming_day=day).order_by("carried_at", "pk")
    keys = list(carried.values_list("key", flat=True))
    client.force_login(manager.user)
    monkeypatch.setattr(dashboard.views, "CARRIED_SHOWN", 2)
    text = client.get("/dashboard/").content.decode()
    assert re.findall(r'data-rule="carried" data-key="([^"]+)"', text) == keys[::-1][:2]
    text = client.get(f"/dashboard/daily/?site={day.site_id}&date={day.gaming_date}").content.decode()
    assert re.findall(r'<li data-key="([^"]+)"', text) == keys


def carried_lines(day, shift_manager) -> list[dict]:
    """Each item carried past the day's close as the daily page and the dashboard write it."""
    from zoneinfo import ZoneInfo

    from django.utils.formats import date_format
    from django.utils.html import escape

    from floor.models import CarriedItem

    lines = []
    for c in CarriedItem.objects.filter(gaming_day=day):
        said = f'{escape(c.description)} <span class="small text-muted">({escape(c.citation)})</span>'
        at = c.carried_at.astimezone(ZoneInfo(day.site.time_zone))
        lines.append(
            {
                "daily": f'<li data-key="{c.key}">{said} · carried by {shift_manager.initials} on '
                f"{at:%Y-%m-%d %H:%M}: Dealer left early.</li>",
                "dashboard": f'<tr data-rule="carried" data-key="{c.key}"><td>{date_format(day.gaming_date)}</td>'
                f'<td>{escape(day.site.name)}</td><td><span class="badge text-bg-warning">Carried at close</span> '
                f"{said} · {shift_manager.initials}: Dealer left early.</td><td><a "
                f'href="/dashboard/daily/?site={day.site_id}&date={day.gaming_date:%Y-%m-%d}">daily summary</a></td></tr>',
            }
        )
    return lines


def test_the_daily_pdf_lists_the_items_carried_past_the_close(busy_day, shift_manager, open_table, client_for, cast):
    from tests.reports.test_kind_daily import download, pdf_text, run_report

    day = close_with_carried(busy_day, shift_manager, open_table)
    api = client_for(cast[Role.AUDITOR])
    run = run_report(api, kind="daily", site=day.site_id, start=str(day.gaming_date), end=str(day.gaming_date))
    text = " ".join(pdf_text(download(api, run)).split())
    assert "Carried past the close (3)" in text
    assert "Dealer left early." in text and "ND 99-01.3-08-14(1)" in text


# --- The API ----------------------------------------------------------------------------------


def test_the_api_refuses_the_close_with_the_rule_and_each_item_then_carries_and_closes(
    busy_day, shift_manager, open_table, client_for, cast
):
    day, api = busy_day["day"], client_for(shift_manager)
    refused = api.post(f"/api/v1/gaming-days/{day.pk}/close/", {}, format="json")
    assert refused.status_code == 400
    body = refused.json()
    assert body["gaming_day"][0].startswith("House control: the gaming day")
    assert len(body["open_items"]) == 4 and any("ND 99-01.3-08-05(6)" in m for m in body["open_items"])
    listed = api.get(f"/api/v1/gaming-days/{day.pk}/open-items/").json()
    keys = [i["key"] for i in listed["open_items"] if i["carryable"]]
    assert {i["kind"] for i in listed["open_items"]} == {
        "slip_unverified",
        "slip_unreceived",
        "table_open",
        "box_not_removed",
    }
    missing_reason = api.post(f"/api/v1/gaming-days/{day.pk}/carry/", {"items": keys, "reason": ""}, format="json")
    assert missing_reason.status_code == 400 and "reason" in missing_reason.json()
    carried = api.post(
        f"/api/v1/gaming-days/{day.pk}/carry/", {"items": keys, "reason": "Dealer left early."}, format="json"
    )
    assert carried.status_code == 201, carried.content
    assert [c["carried_by_initials"] for c in carried.json()] == [shift_manager.initials] * 3
    services.record_table_inventory(acting_user=shift_manager.user, table=open_table, kind="closer", chips=TRAY)
    closed = api.post(f"/api/v1/gaming-days/{day.pk}/close/", {}, format="json")
    assert closed.status_code == 200 and closed.json()["closed_at"]
    listed = api.get(f"/api/v1/gaming-days/{day.pk}/open-items/").json()
    assert len(listed["carried"]) == 3 and listed["carried"][0]["reason"] == "Dealer left early."


@pytest.mark.parametrize("role, status", [(Role.SHIFT_MANAGER, 201), (Role.GAMING_MANAGER, 201), (Role.PIT_BOSS, 403),
                                          (Role.DEALER, 403), (Role.CASHIER, 403), (Role.AUDITOR, 403)])  # fmt: skip
def test_who_may_carry_an_open_item(busy_day, client_for, cast, role, status):
    day = busy_day["day"]
    key = f"slip:{busy_day['credit'].pk}"
    response = client_for(cast[role]).post(
        f"/api/v1/gaming-days/{day.pk}/carry/", {"items": [key], "reason": "x"}, format="json"
    )
    assert response.status_code == status, response.content


def test_another_organizations_day_is_not_found(busy_day, client_for):
    from tests.factories import OrganizationFactory

    other = OrganizationFactory()
    stranger = make_person(other, Role.GAMING_MANAGER)
    response = client_for(stranger).get(f"/api/v1/gaming-days/{busy_day['day'].pk}/open-items/")
    assert response.status_code == 404


def test_the_demo_closes_each_day_with_no_slip_open_and_its_boxes_carried(org, site, chips, cast, manager, table):
    from datetime import timedelta

    from django.utils import timezone

    from floor.demo import build_demo_custody
    from floor.models import GamingDay

    counts.register_drop_box(acting_user=manager.user, table=table)
    people = {"shift_manager": cast[Role.SHIFT_MANAGER], "pit_boss": cast[Role.PIT_BOSS],
              "cashier": cast[Role.CASHIER], "dealer": [cast[Role.DEALER]]}  # fmt: skip
    days = [timezone.localdate() - timedelta(days=n) for n in (4, 3, 2)]
    assert build_demo_custody(site, days=days, people=people) == 3
    assert GamingDay.objects.filter(site=site, close__isnull=False).count() == 3
    assert set(CarriedItem.objects.values_list("kind", flat=True)) == {Kind.BOX_NOT_REMOVED}
    for day in GamingDay.objects.filter(site=site):
        assert [item for item in open_items(day) if item.kind.startswith("slip")] == []


def test_the_queues_keep_a_slip_carried_past_the_close_until_it_is_done(
    busy_day, shift_manager, open_table, client, cast, site
):
    """The queues read the slips of the days still open and those carried past a close
    (floor.queries._waiting_scope): a closed day's carried fill and credit stay listed, on the page
    and in the API alike, a verified one moving to receipt, and the closed day's other slips are
    not read."""
    from floor import queries

    done = services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=open_table, chips=FILL)
    services.void_slip(acting_user=cast[Role.CASHIER].user, slip=done, reason="Miscounted")
    close_with_carried(busy_day, shift_manager, open_table)
    fill, credit = busy_day["fill"], busy_day["credit"]
    days, carried = queries._waiting_scope(site.pk)
    assert (days, sorted(carried)) == ([], sorted([fill.pk, credit.pk]))
    client.force_login(cast[Role.PIT_BOSS].user)

    def listed() -> tuple[list[int], list[int]]:
        api, shown = queries.queues(site, None), queries.page_queues(site, None)
        ids = ([s.pk for s in shown.awaiting_verification], [s.pk for s in shown.awaiting_receipt])
        assert ids == ([s.pk for s in api.awaiting_verification], [s.pk for s in api.awaiting_receipt])
        return ids

    assert listed() == ([credit.pk], [fill.pk])
    page = client.get("/floor/queues/").content.decode()
    assert f"Credit slip {credit.number}" in page and f"Fill slip {fill.number}" in page
    assert f"Fill slip {done.number}<" not in page
    services.verify_slip(acting_user=cast[Role.PIT_BOSS].user, slip=credit)
    assert listed() == ([], [credit.pk, fill.pk])  # by series (credit, fill), then number


def test_a_box_not_removed_links_to_the_form_removing_the_days_boxes(busy_day, shift_manager, client):
    """The close page's drop box not removed opens the form removing all of the day's boxes (its
    boxes ticked), not the custody page with one more link to follow to it."""
    client.force_login(shift_manager.user)
    text = client.get("/floor/close-day/").content.decode()
    url = f"/counts/boxes/remove-all/?gaming_date={busy_day['day'].gaming_date.isoformat()}"
    assert f'<a href="{url}">Drop box 1 of table 1 is not removed from its table</a>' in text
    form = client.get(url).content.decode()
    assert f'value="{busy_day["box"].pk}" id="box_{busy_day["box"].pk}" checked' in form


# --- A carried drop box and the day's books (ND 99-01.3-08-14, 08-16(1)(g)) -----------------------


@pytest.fixture
def day_closed_with_the_box_carried(cast, shift_manager, gaming_day, open_table, dealer_shift, manager, site):
    """A table played (opener, closer), its drop box never removed and carried past the gaming
    day's close with a reason, the day closed and its bank counted: the walk at Bismarck."""
    from cage import services as cage

    box = counts.register_drop_box(acting_user=manager.user, table=open_table)
    services.record_table_inventory(acting_user=shift_manager.user, table=open_table, kind="closer", chips=TRAY)
    keys = [item.key for item in open_items(gaming_day)]
    assert keys == [f"box:{box.pk}"]
    services.carry_open_items(acting_user=shift_manager.user, gaming_day=gaming_day, keys=keys, reason="Box stuck.")
    services.close_gaming_day(acting_user=shift_manager.user, gaming_day=gaming_day)
    for kind in ("start", "end"):
        cage.record_bank_count(
            acting_user=cast[Role.CASHIER].user, site=site, gaming_date=gaming_day.gaming_date, kind=kind,
            cash={100: 1_000}, chips={},
        )  # fmt: skip
    return {"day": gaming_day, "box": box}


def _close_books(manager, day):
    from accounting import services as books

    return books.close_books(acting_user=manager.user, site=day.site, gaming_date=day.gaming_date)


def _remove_and_count(box, day, shift_manager, cast, org, site, *, sign=True):
    first, second = make_person(org, Role.COUNT_TEAM, site), make_person(org, Role.COUNT_TEAM, site)
    counts.remove_drop_box(
        acting_user=shift_manager.user, drop_box=box, storage_place="office safe", key_holder=first,
        escorted_by=cast[Role.PIT_BOSS], gaming_date=day.gaming_date,
    )  # fmt: skip
    session = counts.open_count_session(
        acting_user=first.user, site=site, gaming_date=day.gaming_date, members=[first, second]
    )
    cash = [{"denomination_cents": 2000, "quantity": 21}]
    for member in (first, second):
        counts.record_blind_count(acting_user=member.user, session=session, drop_box=box, currency=cash)
    if sign:
        for member in (first, second):
            counts.sign_count(acting_user=member.user, session=session)
    return session


def test_a_drop_box_carried_not_removed_keeps_the_books_from_closing(day_closed_with_the_box_carried, manager):
    from accounting.models import BooksClose

    day = day_closed_with_the_box_carried["day"]
    with pytest.raises(ValidationError) as refused:
        _close_books(manager, day)
    message = refused.value.message_dict["gaming_date"][0]
    assert message.startswith("ND 99-01.3-08-14(4): the drop of table 1 has no signed count yet: ")
    assert "Drop box 1 of table 1 is not removed from its table" in message
    assert "removes it for its gaming date" in message and "counts and signs it" in message
    assert not BooksClose.objects.exists()


def test_a_carried_box_removed_but_unsigned_still_refuses_and_counted_and_signed_the_books_close(
    day_closed_with_the_box_carried, manager, shift_manager, cast, org, site
):
    """The box is removed and counted for its gaming date after the day's close (the books are
    still open); the books close once its count is signed, with its drop."""
    day, box = day_closed_with_the_box_carried["day"], day_closed_with_the_box_carried["box"]
    session = _remove_and_count(box, day, shift_manager, cast, org, site, sign=False)
    with pytest.raises(ValidationError, match="the drop of table 1 has no signed count yet: Drop box 1 of table 1 is"):
        _close_books(manager, day)
    for member in (session.first_member, session.second_member):
        counts.sign_count(acting_user=member.user, session=session)
    closed = _close_books(manager, day)
    assert closed.figures["tables"][0]["drop_cents"] == 42_000


def test_the_daily_page_says_a_carried_box_since_counted_and_signed(
    day_closed_with_the_box_carried, manager, shift_manager, cast, org, site, client
):
    day, box = day_closed_with_the_box_carried["day"], day_closed_with_the_box_carried["box"]
    client.force_login(manager.user)
    url = f"/dashboard/daily/?site={day.site_id}&date={day.gaming_date}"
    text = client.get(url).content.decode()
    assert "Drop box 1 of table 1 is not removed from its table" in text and "since counted" not in text
    _remove_and_count(box, day, shift_manager, cast, org, site)
    text = client.get(url).content.decode()
    assert "since counted, $420.00 signed" in text


def test_a_carried_slip_received_since_says_so_and_the_carried_list_costs_three_queries(
    busy_day, shift_manager, open_table, cast
):
    """The carried list is read in three queries however many items it holds (the carried rows,
    the slips' receipts and voids, the boxes' drops and counts), and says what became of each."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from floor.queries import carried_items

    day = close_with_carried(busy_day, shift_manager, open_table)
    services.verify_slip(acting_user=cast[Role.PIT_BOSS].user, slip=busy_day["credit"])
    services.receive_slip(acting_user=cast[Role.CASHIER].user, slip=busy_day["credit"])
    with CaptureQueriesContext(connection) as queries:
        carried = {c.key: c for c in carried_items([day.site_id], day.gaming_date, day.gaming_date)}
    assert len(queries) == 3 and len(carried) == 3
    credit = carried[f"slip:{busy_day['credit'].pk}"]
    assert credit.now.startswith("since received ")
    assert credit.statement.startswith(f"{credit.description} (as carried; since received ")
    assert carried[f"slip:{busy_day['fill'].pk}"].now == ""


def test_a_box_carried_removed_but_not_counted_says_only_its_count_since(
    cast, shift_manager, gaming_day, open_table, dealer_shift, manager, site, org
):
    """Kingston's walk: the box was removed, carried not counted, then counted and signed at $420.00."""
    from floor.queries import carried_items

    box = counts.register_drop_box(acting_user=manager.user, table=open_table)
    services.record_table_inventory(acting_user=shift_manager.user, table=open_table, kind="closer", chips=TRAY)
    first, second = make_person(org, Role.COUNT_TEAM, site), make_person(org, Role.COUNT_TEAM, site)
    counts.remove_drop_box(
        acting_user=shift_manager.user, drop_box=box, storage_place="office safe", key_holder=first,
        escorted_by=cast[Role.PIT_BOSS], gaming_date=gaming_day.gaming_date,
    )  # fmt: skip
    [key] = [item.key for item in open_items(gaming_day)]
    assert key.endswith(":count")
    services.carry_open_items(acting_user=shift_manager.user, gaming_day=gaming_day, keys=[key], reason="Late.")
    services.close_gaming_day(acting_user=shift_manager.user, gaming_day=gaming_day)

    def now():
        return carried_items([site.pk], gaming_day.gaming_date, gaming_day.gaming_date)[0].now

    assert now() == ""  # removed when carried: nothing new
    session = counts.open_count_session(
        acting_user=first.user, site=site, gaming_date=gaming_day.gaming_date, members=[first, second]
    )
    for member in (first, second):
        counts.record_blind_count(
            acting_user=member.user,
            session=session,
            drop_box=box,
            currency=[{"denomination_cents": 2000, "quantity": 21}],
        )
    assert now() == ""  # counted, not signed
    for member in (first, second):
        counts.sign_count(acting_user=member.user, session=session)
    assert now().startswith("since counted, $420.00 signed ")
