"""The Washington and New York demo organizations (cardroom/pack_demo.py): created through the
services, each table accepted by its site's pack, idempotent, listed first among the extensions."""

from cardroom.demo import load_demo
from cardroom.management.commands.load_demo import _extensions
from cardroom.models import Employee, Membership, Role, Site, Table
from cardroom.pack_demo import extend_demo


def test_the_pack_demo_builds_each_packs_site_and_table_and_is_idempotent(db):
    demo = load_demo()
    extend_demo(demo)
    extend_demo(demo)  # a second run finds what it made
    sites = {s.name: s for s in Site.objects.filter(jurisdiction__in=["WA-HB", "WA-BJ", "NY"])}
    assert {name: s.jurisdiction for name, s in sites.items()} == {
        "Spokane Card Room": "WA-HB",
        "Tacoma Blackjack Room": "WA-BJ",
        "Kingston Fire Hall": "NY",
    }
    assert sites["Spokane Card Room"].organization.licence_number == "WSGC-00-12345"
    assert sites["Kingston Fire Hall"].organization.licence_number == "NY-GC-4620"
    tacoma = Table.objects.get(site=sites["Tacoma Blackjack Room"], number=1)
    assert (tacoma.banker, tacoma.min_bank_cents, tacoma.max_wager_cents) == ("player", 30000, 2500)
    for table in Table.objects.filter(site__in=sites.values()):
        table.full_clean()  # each pack accepts its demo table
    # Spokane's tables (after its internal controls) and Kingston's (after its licence) are the
    # approvals demo's (tests/approvals/test_demo.py).
    assert Table.objects.filter(site__in=sites.values()).count() == 1
    nygm = Employee.objects.get(user__username="nygm")
    assert Membership.objects.filter(employee=nygm, site=None, role=Role.GAMING_MANAGER).exists()
    assert Membership.objects.filter(employee__user__username="wadealer", role=Role.DEALER).count() == 1
    assert _extensions()[0][1] is extend_demo


def test_the_demo_gives_no_dealer_role_where_the_player_deals(db):
    """A player-dealt site's house seats no dealer (floor.rules.PLAYER_DEALER: WAC 230-40-125(2) at
    Tacoma), so no demo login is a Dealer there; wadealer deals at Spokane (WA house-banked)."""
    from floor.rules import PLAYER_DEALER

    extend_demo(load_demo())
    dealt_by_players = [site for site in Site.objects.all() if PLAYER_DEALER.applies(site)]
    assert [site.name for site in dealt_by_players] == ["Tacoma Blackjack Room"]
    assert not Membership.objects.filter(site__in=dealt_by_players, role=Role.DEALER).exists()
    wadealer = Membership.objects.filter(employee__user__username="wadealer", role=Role.DEALER)
    assert [m.site.name for m in wadealer] == ["Spokane Card Room"]


def test_a_rerun_removes_the_dealer_role_an_earlier_demo_gave_at_tacoma_and_keeps_the_others(db):
    """A database loaded by the earlier demo holds wadealer's Dealer role at Tacoma: the re-run
    removes it through the service (audited, as a gaming manager removes a role), and only it."""
    from core.models import AuditEvent

    demo = extend_demo(load_demo())
    tacoma, wagm = demo["pack_sites"]["tacoma"], demo["pack_people"]["wagm"]
    # The row as the earlier demo left it: giving that role there is now refused (floor.role_grants),
    # so it is written as it stands in such a database.
    earlier = Membership.objects.create(employee=demo["pack_people"]["wadealer"], role=Role.DEALER, site=tacoma)
    before = set(Membership.objects.exclude(pk=earlier.pk).values_list("employee_id", "site_id", "role"))
    extend_demo(demo)
    extend_demo(demo)  # and a second re-run finds nothing more to remove
    assert not Membership.objects.filter(pk=earlier.pk).exists()
    assert set(Membership.objects.values_list("employee_id", "site_id", "role")) == before
    removed = AuditEvent.objects.filter(action="membership.deleted", site_id=tacoma.pk)
    assert [(e.actor_id, e.object_id) for e in removed] == [(wagm.user.pk, str(earlier.pk))]


def test_the_demo_has_the_tours_pit_terminal_count_tablet_and_pins(db):
    """The README's tour signs on the busy site's station with a badge and the demo PIN."""
    from cardroom.demo import DEMO_PIN, STATIONS
    from cardroom.models import Station
    from cardroom.pins import signer_for

    demo = load_demo()
    load_demo()  # idempotent: a second run finds its stations and PINs
    stations = Station.objects.filter(user__username__in=[u for u, _, _ in STATIONS])
    assert sorted(s.site_id for s in stations) == [demo["sites"]["busy"].pk] * 2
    assert {s.user.username: s.kind for s in stations} == {"pit1": Station.Kind.PIT, "tablet1": Station.Kind.COUNT}
    terminal = stations.get(user__username="pit1").user
    for login in ("shift", "pitboss", "dealer", "cashier", "count1", "count2"):
        person = demo["people"][login]
        assert signer_for(terminal, badge=person.initials, pin=DEMO_PIN).signer == person


def test_each_pack_site_with_play_has_a_terminal_where_its_receivers_and_counters_sign_with_the_demo_pin(db):
    """Spokane's and Kingston's fills are received by their dealer and credits by their cashier:
    with no terminal there and no PIN, every slip there was carried past the close. Each site
    with play has a shared terminal of both kinds, and its shift manager, dealers, cashier and
    count team sign on it with their badge and the demo PIN; Tacoma (player-dealt) has none."""
    from cardroom.demo import DEMO_PIN
    from cardroom.models import Station
    from cardroom.pins import signer_for

    demo = extend_demo(load_demo())
    extend_demo(demo)  # idempotent: a second run finds its terminals and PINs
    sites = demo["pack_sites"]
    stations = {s.user.username: s for s in Station.objects.exclude(site__jurisdiction="ND")}
    assert {name: (s.site_id, s.kind) for name, s in stations.items()} == {
        "waterminal": (sites["spokane"].pk, Station.Kind.BOTH),
        "nyterminal": (sites["kingston"].pk, Station.Kind.BOTH),
    }
    signers = {
        "waterminal": ("washift", "wadealer", "wadealer2", "wacashier", "wacount1", "wacount2"),
        "nyterminal": ("nyshift", "nydealer", "nycashier", "nycount1", "nycount2"),
    }
    for terminal, logins in signers.items():
        for login in logins:
            person = demo["pack_people"][login]
            signed = signer_for(stations[terminal].user, badge=person.initials, pin=DEMO_PIN)
            assert signed.signer == person, (terminal, login)
