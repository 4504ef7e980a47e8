"""A station presents only its kind's forms (`Station.kind`, house control): a pit terminal the
pit's (the pit, slips, a WA-BJ table's fee), a count tablet the count room's (count sessions), a
terminal of both kinds both, and every kind the drop boxes' custody; no kind the work its pages
never present (the fee cash count: a person's, at their own login). The other kind's pages and API
answer 403 naming the house control and change nothing; each kind opens on its own home. Checked
as a matrix of kinds and addresses."""

import pytest
from django.utils import timezone

from cardroom import pins
from cardroom.access import STATION_READS, access_for, station_refusal
from cardroom.models import Role, Station
from core.models import AuditEvent
from core.moments import gaming_date_of
from fees.models import FeeCollection, FeeCount
from floor.models import SlipStep
from tests.factories import fees_site, make_person, player_banked_table, witness_pin
from tests.page_support import at_site, page

PIN = "482913"
PASSWORD = "Ochre-Lantern-Drift-58"

# (method, address, the kind whose work it is)
PAGES = [
    ("get", "/floor/pit/", Station.Kind.PIT),
    ("get", "/floor/slips/new/fill/", Station.Kind.PIT),
    ("get", "/floor/queues/", Station.Kind.PIT),
    ("get", "/counts/", Station.Kind.COUNT),
    # The drop boxes' custody: placed on and removed at the tables, counted in the count room.
    ("get", "/counts/boxes/", None),
    ("get", "/counts/boxes/remove-all/", None),
]


def _station(manager, site, kind):
    return pins.create_station(
        acting_user=manager.user, site=site, username=f"st-{kind}", password=PASSWORD, name=f"{kind} station", kind=kind
    )


@pytest.fixture
def with_pins(cast):
    for role in (Role.CASHIER, Role.PIT_BOSS, Role.DEALER, Role.COUNT_TEAM):
        pins.set_pin(acting_user=cast[role].user, employee=cast[role], pin=PIN)
    return cast


@pytest.mark.parametrize("kind", Station.Kind.values)
def test_each_kind_opens_only_its_own_pages(client, manager, site, gaming_day, kind):
    station = _station(manager, site, kind)
    client.force_login(station.user)
    for method, address, work in PAGES:
        response = getattr(client, method)(address)
        if work is None or station.presents(work):
            assert response.status_code == 200, (kind, address, response.status_code)
        else:
            assert response.status_code == 403, (kind, address, response.status_code)
            text = response.content.decode()
            assert "House control" in text and f"{station.name} is a {station.get_kind_display().lower()}" in text


@pytest.mark.parametrize(
    ("kind", "home"),
    [(Station.Kind.PIT, "/floor/pit/"), (Station.Kind.COUNT, "/counts/"), (Station.Kind.BOTH, "/floor/pit/")],
)
def test_each_kind_opens_on_its_home_and_the_pit_links_to_counts_only_where_it_counts(
    client, manager, site, gaming_day, kind, home
):
    station = _station(manager, site, kind)
    client.force_login(station.user)
    assert client.get("/")["Location"] == home
    if kind != Station.Kind.COUNT:
        page = client.get("/floor/pit/").content.decode()
        assert ('id="station-counts"' in page) == (kind == Station.Kind.BOTH)
        assert 'id="station-boxes"' in page  # the boxes' custody is every kind's


def test_a_count_tablet_takes_no_slip_step_in_the_browser_nor_the_api(
    client, api_client, manager, site, fill, with_pins
):
    tablet = _station(manager, site, Station.Kind.COUNT)
    pit_boss = with_pins[Role.PIT_BOSS]
    signed = {"signer_badge": pit_boss.initials, "signer_pin": PIN}
    client.force_login(tablet.user)
    events = AuditEvent.objects.count()
    assert client.post(f"/floor/slips/{fill.pk}/verify/", signed).status_code == 403
    api_client.force_authenticate(tablet.user)
    response = api_client.post(f"/api/v1/fill-slips/{fill.pk}/verify/", signed, format="json")
    assert response.status_code == 403
    assert response.json()["detail"] == station_refusal(access_for(tablet.user), "floor")
    assert not SlipStep.objects.filter(slip=fill, kind="verify").exists()
    assert AuditEvent.objects.count() == events  # nothing written, not even a PIN failure
    # Its reads: none of the pit's records, its own login only.
    assert api_client.get("/api/v1/fill-slips/").status_code == 403
    assert api_client.get("/api/v1/tables/").json()["detail"] == STATION_READS.refusal()
    assert api_client.get("/api/v1/me/").status_code == 200


def test_a_pit_terminal_opens_no_count_in_the_api_and_both_kinds_take_a_slip_step(
    api_client, manager, site, fill, with_pins
):
    terminal = _station(manager, site, Station.Kind.PIT)
    count_member = with_pins[Role.COUNT_TEAM]
    api_client.force_authenticate(terminal.user)
    response = api_client.post(
        "/api/v1/count-sessions/",
        {"site": site.pk, "signer_badge": count_member.initials, "signer_pin": PIN},
        format="json",
    )
    assert response.status_code == 403
    assert "Pit terminal" in response.json()["detail"] or "pit terminal" in response.json()["detail"]
    assert "count room's forms" in response.json()["detail"]
    both = _station(manager, site, Station.Kind.BOTH)
    pit_boss = with_pins[Role.PIT_BOSS]
    api_client.force_authenticate(both.user)
    verified = api_client.post(
        f"/api/v1/fill-slips/{fill.pk}/verify/", {"signer_badge": pit_boss.initials, "signer_pin": PIN}, format="json"
    )
    assert verified.status_code in (200, 201), verified.content[:300]
    assert SlipStep.objects.get(slip=fill, kind="verify").employee == pit_boss


def test_the_kind_is_chosen_when_the_station_is_created_and_audited(client, manager, site):
    client.force_login(manager.user)
    response = client.post(
        "/administration/stations/",
        {"site": site.pk, "name": "Count room", "kind": "count", "username": "count-room", "password": PASSWORD},
    )
    assert response.status_code == 302, response.content.decode()[-600:]
    station = Station.objects.get(user__username="count-room")
    assert station.kind == Station.Kind.COUNT
    assert AuditEvent.objects.get(action="station.created", object_id=str(station.pk)).after["kind"] == "count"
    page = client.get("/administration/stations/").content.decode()
    assert "Count tablet" in page
    refused = client.post(
        "/administration/stations/",
        {"site": site.pk, "name": "X", "kind": "cage", "username": "x-station", "password": PASSWORD},
    )
    assert refused.status_code in (200, 400) and "kind" in refused.content.decode()
    assert not Station.objects.filter(user__username="x-station").exists()


def test_no_count_tablet_is_offered_for_a_site_that_keeps_no_drop_boxes(client, manager, site):
    """A fees room keeps no drop box and counts no drop (WAC 230-40-125(1)): at Tacoma the stations
    page offers a pit terminal only, and only for the sites that keep none; a count tablet made
    there before stays listed. At the cast's North Dakota site it offers every kind, for the sites
    that keep drop boxes."""
    tacoma = fees_site(site.organization)
    _station(manager, tacoma, Station.Kind.COUNT)
    for here, kinds, sites in ((tacoma, ["pit"], [tacoma]), (site, Station.Kind.values, [site])):
        answer = at_site(client, manager, here).get("/administration/stations/")
        form, text = answer.context["form"], page(answer)
        assert [kind for kind, _ in form.fields["kind"].widget.choices] == kinds, here
        assert list(form.fields["site"].queryset) == sites, here
        assert ('<option value="count"' in text) is (here == site) and 'data-station="st-count"' in text
        # What a pit terminal presents, in the site's words: table fees are Washington blackjack's
        # (WAC 230-40-125), never a North Dakota pit's; slips and a count tablet are not a fees room's.
        said = text.split('<p class="text-muted">A station is')[1].split("</p>")[0]
        if here == site:
            assert "a pit terminal the pit's forms (tables, fill and credit slips)" in said
            assert "table fees" not in said and "fee cash count" not in said and "count adjustment" in said
        else:
            assert "(tables, table fees)" in said and "fill and credit" not in said and "count tablet the" not in said
            assert "none the fee cash count, which" in said


@pytest.mark.parametrize("kind", Station.Kind.values)
def test_the_slip_register_is_read_by_a_pit_terminal_at_its_own_site_and_by_no_count_tablet(
    api_client, client, manager, site, other_site, gaming_day, kind
):
    """The register is one of the pit's reads (cardroom.access.STATION_READS), through the same
    rule as a person's (floor.rules.SLIP_REGISTER): a terminal presenting the pit reads it on
    the API and the page at its own site; a count tablet reads neither, and no terminal reads
    another site's."""
    station = _station(manager, site, kind)
    day = str(gaming_day.gaming_date)
    api_client.force_authenticate(station.user)
    client.force_login(station.user)
    own = api_client.get(f"/api/v1/sites/{site.pk}/slip-register/", {"start": day, "end": day})
    other = api_client.get(f"/api/v1/sites/{other_site.pk}/slip-register/", {"start": day, "end": day})
    page = client.get("/floor/register/")
    pit = station.presents(Station.Kind.PIT)
    assert (own.status_code, page.status_code) == ((200, 200) if pit else (403, 403)), kind
    assert other.status_code in (403, 404)
    if pit:
        assert own.json()["site"] == site.pk
        assert "Slip register" in page.content.decode()
    else:
        assert own.json()["detail"] == station_refusal(access_for(station.user), "floor")


@pytest.fixture
def fees_room(org, manager):
    """A WA-BJ site (its revenue the fees collected at its tables) with a table, and its pit boss
    and cashier with signing PINs, and a shift manager to witness a fee cash count."""
    room = fees_site(org)
    people = {role: make_person(org, role, room) for role in (Role.PIT_BOSS, Role.CASHIER, Role.SHIFT_MANAGER)}
    for role in (Role.PIT_BOSS, Role.CASHIER):
        pins.set_pin(acting_user=people[role].user, employee=people[role], pin=PIN)
    return room, player_banked_table(room), people


def _fee_writes(room, table, people) -> dict:
    """The fees app's writes a station could send with a PIN: (address, body, the kind whose work
    it is: None, no station's)."""
    boss, cashier = people[Role.PIT_BOSS], people[Role.CASHIER]
    fee = {"table": table.pk, "basis": "per_seat", "period_minutes": 30, "rate_cents": 300, "count": 5}
    count = {
        "site": room.pk,
        "gaming_date": gaming_date_of(room, timezone.now()).isoformat(),
        "counted_cents": 0,
        "witness": people[Role.SHIFT_MANAGER].pk,
        "witness_pin": witness_pin(people[Role.SHIFT_MANAGER]),
    }
    return {
        # The pit terminal's Collect fee (fees.pit, static/floor/pit_terminal.js).
        "fee collection": (
            "/api/v1/fee-collections/",
            {**fee, "signer_badge": boss.initials, "signer_pin": PIN},
            Station.Kind.PIT,
        ),
        # On the fees page only, whose counters sign in as themselves: no station's page offers it.
        "fee cash count": (
            "/api/v1/fee-counts/",
            {**count, "signer_badge": cashier.initials, "signer_pin": PIN},
            None,
        ),
    }


@pytest.mark.parametrize("write", ["fee collection", "fee cash count"])
@pytest.mark.parametrize("kind", Station.Kind.values)
def test_a_station_posts_a_fee_write_only_where_its_pages_offer_it(api_client, manager, fees_room, kind, write):
    """A table fee is the pit's work: a pit terminal (or a terminal of both kinds) records it with
    the collector's badge and PIN, a count tablet refuses it naming both kinds. The fee cash count
    is on no station's page: every kind refuses it, and the counter signs in as themselves."""
    room, table, people = fees_room
    station = _station(manager, room, kind)
    address, body, work = _fee_writes(room, table, people)[write]
    api_client.force_authenticate(station.user)
    events = AuditEvent.objects.count()
    response = api_client.post(address, body, format="json")
    written = FeeCollection.objects.count() + FeeCount.objects.count()
    if work is not None and station.presents(work):
        assert response.status_code == 201, (kind, write, response.content[:300])
        assert FeeCollection.objects.get().collected_by == people[Role.PIT_BOSS]
        return
    assert response.status_code == 403, (kind, write, response.status_code)
    detail = response.json()["detail"]
    kind_words = f"{station.name} is a {station.get_kind_display().lower()}"
    assert detail.startswith(f"House control: {kind_words}:"), detail
    if work is None:
        assert detail == (
            f"House control: {kind_words}: no station presents the fee cash count, a person's work at their own "
            "login. Sign in as yourself."
        )
    else:  # the count tablet: both kinds named, as for a slip
        assert detail == station_refusal(access_for(station.user), "fees", "fee-collection-list")
        assert "count room's forms (count sessions), not the pit's forms" in detail and "Use a pit terminal" in detail
    assert written == 0 and AuditEvent.objects.count() == events  # nothing written, not even a PIN failure


def test_the_fee_cash_count_stays_a_persons_at_their_own_login(api_client, fees_room):
    """What the stations refuse, the counter does signed in as themselves (the fees page's and the
    API's counters, fees.rules.COUNTERS)."""
    room, table, people = fees_room
    address, body, _work = _fee_writes(room, table, people)["fee cash count"]
    api_client.force_authenticate(people[Role.CASHIER].user)
    body = {key: value for key, value in body.items() if not key.startswith("signer_")}
    response = api_client.post(address, body, format="json")
    assert response.status_code == 201, response.content[:300]
    assert FeeCount.objects.get().counted_by == people[Role.CASHIER]
