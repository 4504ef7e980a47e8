"""ND 99-01.3-08-10(1): "Only one of three dealing methods may be used at a site." A table
whose method differs from the site's other twenty-one tables is refused (API, pages, admin all
run Table.clean); the site changes method as a whole; other states are not held to it."""

import pytest
from django.core.exceptions import ValidationError

from cardroom import services
from cardroom.models import Table
from core.models import AuditEvent
from tests.factories import TableFactory
from tests.pack_setup import record_controls, record_licence


def payload(site, number, **overrides):
    return {
        "site": site.pk,
        "number": number,
        "game": "21",
        "min_wager_cents": 100,
        "max_wager_cents": 2500,
        **overrides,
    }


def test_a_second_method_at_a_site_is_refused_naming_the_field_and_rule(client_for, manager, site):
    TableFactory(site=site, number=1, dealing_method="no_peek")
    response = client_for(manager).post(
        "/api/v1/tables/", payload(site, 2, dealing_method="card_reader"), format="json"
    )
    assert response.status_code == 400
    message = response.json()["dealing_method"][0]
    assert message.startswith("ND 99-01.3-08-10(1): only one dealing method may be used at a site")
    assert "table 1" in message
    assert Table.objects.filter(site=site).count() == 1


def test_the_same_method_is_accepted_and_a_new_table_takes_the_sites_method(client_for, manager, site):
    TableFactory(site=site, number=1, dealing_method="no_hole_card")
    same = client_for(manager).post("/api/v1/tables/", payload(site, 2, dealing_method="no_hole_card"), format="json")
    assert same.status_code == 201
    unspecified = client_for(manager).post("/api/v1/tables/", payload(site, 3), format="json")
    assert unspecified.status_code == 201
    assert Table.objects.get(pk=unspecified.json()["id"]).dealing_method == "no_hole_card"


def test_changing_one_tables_method_is_refused(client_for, manager, site):
    TableFactory(site=site, number=1)
    second = TableFactory(site=site, number=2)
    response = client_for(manager).patch(
        f"/api/v1/tables/{second.pk}/", {"dealing_method": "card_reader"}, format="json"
    )
    assert response.status_code == 400 and "ND 99-01.3-08-10(1)" in response.json()["dealing_method"][0]
    second.refresh_from_db()
    assert second.dealing_method == "no_peek"


def test_the_only_table_may_change_method(manager, site):
    only = TableFactory(site=site, number=1)
    services.update_table(acting_user=manager.user, table=only, dealing_method="card_reader")
    assert Table.objects.get(pk=only.pk).dealing_method == "card_reader"


def test_the_site_changes_method_as_a_whole_and_each_change_is_audited(client_for, manager, site):
    tables = [TableFactory(site=site, number=n) for n in (1, 2, 3)]
    paddlewheel = TableFactory(site=site, number=4, game="PW", min_wager_cents=50, max_wager_cents=50)
    before = AuditEvent.objects.filter(action="table.updated").count()
    response = client_for(manager).patch(f"/api/v1/sites/{site.pk}/", {"dealing_method": "card_reader"}, format="json")
    assert response.status_code == 200
    assert {t.dealing_method for t in Table.objects.filter(pk__in=[t.pk for t in tables])} == {"card_reader"}
    assert AuditEvent.objects.filter(action="table.updated").count() == before + 3
    paddlewheel.refresh_from_db()
    assert paddlewheel.dealing_method == "no_peek"  # paddlewheels are not dealt


def test_an_inactive_table_does_not_hold_the_site_to_its_method(manager, site):
    TableFactory(site=site, number=1, dealing_method="card_reader", active=False)
    TableFactory(site=site, number=2, min_wager_cents=300)
    fresh = Table(site=site, number=3, min_wager_cents=100, max_wager_cents=2500, dealing_method="no_peek")
    fresh.full_clean()
    reactivated = Table.objects.get(number=1, site=site)
    reactivated.active = True
    with pytest.raises(ValidationError, match=r"ND 99-01.3-08-10\(1\)"):
        reactivated.full_clean()


# Each pack's own table rules (packs/), so that only the dealing method is in question.
PACK_OPTIONS = {
    "WA-HB": {"payout_rounding": "down"},
    "WA-BJ": {"banker": "player"},
    "NY": {"tie_option": 1, "double_on": "ten_eleven", "decks": 4, "double_after_split": False},
}


@pytest.mark.parametrize("jurisdiction", ["WA-HB", "WA-BJ", "NY"])
def test_other_states_have_no_dealing_method_setting(client_for, manager, site, jurisdiction):
    """The one dealing method is North Dakota's (08-10(1)): elsewhere it is not a table option,
    so a table is added without it and a method sent anyway is refused, naming the field."""
    site.jurisdiction = jurisdiction
    site.save()
    if jurisdiction == "WA-HB":
        record_controls(manager, site)  # the WSGC rules: the controls come first
    if jurisdiction == "NY":
        record_licence(manager, site, tie_option=1)  # 9 NYCRR 4620.5(h): the table follows the licence
    TableFactory(site=site, number=1, max_wager_cents=500, dealing_method="no_peek")
    api = client_for(manager)
    refused = api.post(
        "/api/v1/tables/",
        payload(site, 2, max_wager_cents=500, dealing_method="card_reader", **PACK_OPTIONS[jurisdiction]),
        format="json",
    )
    assert refused.status_code == 400 and "is not a table option" in refused.json()["dealing_method"][0]
    created = api.post(
        "/api/v1/tables/", payload(site, 2, max_wager_cents=500, **PACK_OPTIONS[jurisdiction]), format="json"
    )
    assert created.status_code == 201 and "dealing_method" not in created.json()


# ND 99-01.3-08-10(1)(c)(5): a card-reading device malfunction on a table.


@pytest.fixture
def reader_site(site):
    TableFactory(site=site, number=1, dealing_method="card_reader")
    return site


@pytest.mark.parametrize("fallback", ["no_peek", "no_hole_card"])
def test_a_table_whose_reader_is_out_of_order_deals_by_a_fallback(client_for, manager, reader_site, fallback):
    second = TableFactory(site=reader_site, number=2, dealing_method="card_reader")
    response = client_for(manager).patch(
        f"/api/v1/tables/{second.pk}/", {"card_reader_malfunction": True, "dealing_method": fallback}, format="json"
    )
    assert response.status_code == 200
    # the site's method is still the reader: a new table takes it, and another method is refused
    added = client_for(manager).post("/api/v1/tables/", payload(reader_site, 3), format="json")
    assert added.status_code == 201 and Table.objects.get(pk=added.json()["id"]).dealing_method == "card_reader"
    other = client_for(manager).post("/api/v1/tables/", payload(reader_site, 4, dealing_method=fallback), format="json")
    assert other.status_code == 400


def test_the_fallback_is_never_the_reader_itself(client_for, manager, reader_site):
    second = TableFactory(site=reader_site, number=2, dealing_method="card_reader")
    response = client_for(manager).patch(
        f"/api/v1/tables/{second.pk}/", {"card_reader_malfunction": True}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["dealing_method"][0].startswith("ND 99-01.3-08-10(1)(c)(5):")


def test_without_a_malfunction_the_fallback_is_a_second_method(client_for, manager, reader_site):
    second = TableFactory(site=reader_site, number=2, dealing_method="card_reader")
    response = client_for(manager).patch(f"/api/v1/tables/{second.pk}/", {"dealing_method": "no_peek"}, format="json")
    assert response.status_code == 400 and "ND 99-01.3-08-10(1):" in response.json()["dealing_method"][0]


def test_a_malfunction_is_recorded_only_on_a_table_that_deals_by_the_reader(client_for, manager, reader_site):
    """08-10(1)(c)(5) is a card-reading device's malfunction "on a table": a new table, or one
    dealing by another method, has no device to be out of order. Refused naming the field and rule;
    a table already on its fallback may be saved again (another setting changed) with its malfunction kept."""
    api = client_for(manager)
    new = api.post(
        "/api/v1/tables/",
        payload(reader_site, 5, card_reader_malfunction=True, dealing_method="no_peek"),
        format="json",
    )
    assert new.status_code == 400
    assert new.json()["card_reader_malfunction"][0].startswith("ND 99-01.3-08-10(1)(c)(5): a card-reading device's")
    assert not Table.objects.filter(site=reader_site, number=5).exists()
    broken = TableFactory(site=reader_site, number=2, dealing_method="card_reader")
    fallback = {"card_reader_malfunction": True, "dealing_method": "no_hole_card"}
    assert api.patch(f"/api/v1/tables/{broken.pk}/", fallback, format="json").status_code == 200
    changed = api.patch(f"/api/v1/tables/{broken.pk}/", {"max_players": 6}, format="json")
    assert changed.status_code == 200 and changed.json()["card_reader_malfunction"] is True
