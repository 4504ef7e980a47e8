"""A table fee on the pit terminal (WA-BJ: fees on a time basis, by direct collection, WAC
230-40-125(1)): a station's pit offers each table's fee with the badges of only who may collect
(fees.rules.COLLECTORS: shift manager, pit boss, cashier; not a dealer, not the count team), the
table's last fee standing as the one to repeat; the API takes the collector's badge and PIN on a
station's token and records the fee as theirs. Nothing of it at a site whose revenue is not fees."""

import re

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from cardroom import pins
from cardroom.models import Role
from core.models import AuditEvent
from fees import services
from fees.models import FeeCollection
from floor import queries
from floor.pit_terminal import terminal_data
from tests.conftest import TERMINAL_PIN as PIN
from tests.factories import SiteFactory

FEES = "/api/v1/fee-collections/"


def _terminal(site):
    now = timezone.now()
    return terminal_data(site, queries.pit_board(site, now), station=True, at=now)


def _fee(user, table, **changes):
    values = {"basis": "per_seat", "period_minutes": 30, "rate_cents": 300, "count": 5, **changes}
    return services.record_fee(acting_user=user, table=table, **values)


def test_the_terminal_offers_a_fee_with_its_collectors_and_each_tables_last_fee_standing(site, bj_table, with_pins):
    boss = with_pins[Role.PIT_BOSS]
    fee = _terminal(site)["fee"]
    assert sorted(b["initials"] for b in fee["collectors"]) == sorted(
        with_pins[role].initials for role in (Role.CASHIER, Role.PIT_BOSS, Role.SHIFT_MANAGER)
    )
    assert fee["rule"] == "WAC 230-40-125(1) (1999 proposed amendment)" and fee["last"] == {}
    assert [b["value"] for b in fee["bases"]] == ["per_seat", "per_player"]

    _fee(boss.user, bj_table, basis="per_player", period_minutes=60, rate_cents=450, count=4)
    mistaken = _fee(boss.user, bj_table, rate_cents=9900, count=7)
    services.void_fee(acting_user=with_pins[Role.SHIFT_MANAGER].user, fee=mistaken, reason="Wrong rate keyed.")
    # The voided fee (and its void) are not the one to repeat: the last fee standing is.
    assert _terminal(site)["fee"]["last"] == {
        str(bj_table.pk): {"basis": "per_player", "period_minutes": 60, "rate_cents": 450, "count": 4},
        "site": {"basis": "per_player", "period_minutes": 60, "rate_cents": 450},  # a table's first fee
    }


def test_the_terminal_says_the_services_rate_bounds_and_their_rule(site, bj_table, with_pins):
    """What the terminal shows of a rate it cannot read as money (static/floor/pit_terminal.js) is
    the service's own refusal of a rate out of bounds, with its rule, less the figure got."""
    words = _terminal(site)["fee"]["rate_bounds"]
    assert words == "The rate per seat or player is from $0.01 to $100.00 (House control)"
    with pytest.raises(ValidationError) as refused:
        _fee(with_pins[Role.PIT_BOSS].user, bj_table, rate_cents=0)
    assert refused.value.message_dict["rate_cents"] == [f"{words}; got $0.00."]


def test_a_site_whose_revenue_is_not_fees_offers_no_fee(org, with_pins):
    nd = SiteFactory(organization=org, name="Fargo Eagles", jurisdiction="ND")
    assert _terminal(nd)["fee"] is None


def test_the_api_takes_the_collectors_badge_and_pin_on_a_stations_token(
    api_client, site, bj_table, with_pins, fee_payload
):
    station = pins.create_station(
        acting_user=with_pins[Role.GAMING_MANAGER].user, site=site, username="wabj-pit", password="Ochre-Lantern-Drift-58",
        name="Pit 1",
    )  # fmt: skip
    api_client.force_authenticate(station.user)

    def post(person, pin=PIN):
        return api_client.post(FEES, {**fee_payload, "signer_badge": person.initials, "signer_pin": pin}, format="json")

    alone = api_client.post(FEES, fee_payload, format="json")
    assert alone.status_code == 403 and "a station signs nothing itself" in alone.json()["detail"]
    assert post(with_pins[Role.CASHIER], "000001").status_code == 403
    dealer = post(with_pins[Role.DEALER])
    assert dealer.status_code == 403 and "collect a table fee" in dealer.json()["detail"]
    assert not FeeCollection.objects.exists()

    cashier = with_pins[Role.CASHIER]
    answer = post(cashier)
    assert answer.status_code == 201, answer.content
    fee = FeeCollection.objects.get()
    assert (fee.collected_by, fee.amount_cents) == (cashier, 1500)
    assert AuditEvent.objects.get(action="fee.collected", object_id=str(fee.pk)).actor == cashier.user


def test_the_fees_page_starts_from_the_last_fee_standing_not_a_voided_one(client, site, bj_table, with_pins):
    boss = with_pins[Role.PIT_BOSS]
    _fee(boss.user, bj_table, rate_cents=450)
    mistaken = _fee(boss.user, bj_table, rate_cents=9900)
    services.void_fee(acting_user=with_pins[Role.SHIFT_MANAGER].user, fee=mistaken, reason="Wrong rate keyed.")
    client.force_login(boss.user)
    form = client.get("/fees/").content.decode()
    assert re.search(r'name="rate_cents"[^>]*value="4.50"', form), "the rate offered is the last one standing"
    assert 'value="99.00"' not in form


def test_the_pit_links_each_table_to_the_fee_form_for_who_may_collect_and_the_form_takes_the_table(
    client, org, site, bj_table, cast
):
    link = f'href="/fees/?table={bj_table.pk}#fee-form"'
    client.force_login(cast[Role.PIT_BOSS].user)
    assert link in client.get("/floor/pit/").content.decode()
    form = client.get(f"/fees/?table={bj_table.pk}").content.decode()
    assert re.search(rf'<option value="{bj_table.pk}" selected>', form), "the table the pit named is chosen"
    for other in ("abc", "-1", "99999999"):  # not one of the site's tables: nothing chosen, no error
        answer = client.get(f"/fees/?table={other}")
        assert answer.status_code == 200 and " selected>" not in answer.content.decode().split('name="table"')[1][:400]

    client.force_login(cast[Role.AUDITOR].user)  # watches the pit, collects nothing
    assert 'class="btn btn-outline-primary flex-fill pit-fee-link"' not in client.get("/floor/pit/").content.decode()


def test_a_stations_pit_offers_the_fee_with_no_gaming_day_open(client, site, bj_table, with_pins):
    """A fees room's tables open no gaming day by design (nothing on its floor waits for one, and
    the pit offers none); its fees are collected all the same."""
    station = pins.create_station(
        acting_user=with_pins[Role.GAMING_MANAGER].user, site=site, username="wabj-pit", password="Ochre-Lantern-Drift-58",
        name="Pit 1",
    )  # fmt: skip
    client.force_login(station.user)
    page = client.get("/floor/pit/").content.decode()
    assert 'id="pit-day"' not in page and "pit-open-day" not in page
    assert f'data-pit-action="fee" data-table="{bj_table.pk}"' in page
    assert 'data-pit-action="seat"' not in page  # the other steps wait for the day


def test_a_fees_minutes_or_count_left_empty_on_the_terminal_is_named_in_words_not_by_its_key(
    api_client, site, bj_table, with_pins, fee_payload
):
    api_client.force_authenticate(with_pins[Role.CASHIER].user)
    refused = api_client.post(FEES, {**fee_payload, "period_minutes": "", "count": "x"}, format="json")
    assert refused.status_code == 400
    assert refused.json() == {
        "period_minutes": ["House control: the period is a whole number of minutes, 1 to 240."],
        "count": ["House control: the seats or players charged are a whole number, 1 to 9."],
    }
    assert not FeeCollection.objects.exists()
