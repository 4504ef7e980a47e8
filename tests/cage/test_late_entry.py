"""Paper-first entry at the cage: bank counts, IOUs, redemptions and tips accept the moment
they happened (core.moments) and keep when they were entered."""

from datetime import datetime

import pytest

from cage.models import BankCount, Iou

from .conftest import CHICAGO

NOW = datetime(2026, 11, 3, 21, 0, tzinfo=CHICAGO)  # gaming date 2026-11-03


def post(client, url, data):
    return client.post(url, data, format="json")


@pytest.fixture
def now(time_machine):
    time_machine.move_to(NOW, tick=False)
    return NOW


BANK_COUNT = {
    "gaming_date": "2026-11-03",
    "kind": "start",
    "cash": [{"value_cents": 2000, "quantity": 5}],
    "chips": [{"value_cents": 500, "quantity": 10}],
}


def test_a_bank_count_keeps_the_time_it_was_counted_in_local_time(now, open_day, site, client_for, cashier, chips):
    response = post(
        client_for(cashier),
        "/api/v1/cage/bank-counts/",
        {**BANK_COUNT, "site": site.pk, "counted_at": "2026-11-03T08:00"},
    )
    assert response.status_code == 201, response.json()
    count = BankCount.objects.get(pk=response.json()["id"])
    assert count.counted_at == datetime(2026, 11, 3, 8, 0, tzinfo=CHICAGO)
    assert count.entered_at == NOW and response.json()["entered_late"] is True


def test_a_bank_count_entered_at_once_is_not_late(now, open_day, site, client_for, cashier, chips):
    response = post(client_for(cashier), "/api/v1/cage/bank-counts/", {**BANK_COUNT, "site": site.pk})
    assert response.status_code == 201, response.json()
    assert response.json()["entered_late"] is False


def test_an_iou_cannot_be_dated_in_the_future(now, open_day, site, client_for, cashier):
    payload = {"site": site.pk, "gaming_date": "2026-11-03", "source": "reserve", "destination": "bank"}
    response = post(
        client_for(cashier),
        "/api/v1/cage/ious/",
        {**payload, "amount_cents": 5000, "lent_at": "2026-11-03T21:30:00-06:00"},
    )
    assert response.status_code == 400
    assert "future" in response.json()["lent_at"][0]
    assert not Iou.objects.exists()


def test_a_tip_declaration_outside_its_gaming_day_is_refused(now, open_day, site, client_for, dealer, chips):
    response = post(
        client_for(dealer),
        "/api/v1/cage/tip-declarations/",
        {
            "site": site.pk,
            "gaming_date": "2026-11-03",
            "chips": [{"value_cents": 100, "quantity": 3}],
            "declared_at": "2026-11-03T05:59:00",
        },
    )
    assert response.status_code == 400
    assert "ND 99-01.3-02-01" in response.json()["declared_at"][0]


def test_a_redemption_in_closed_books_points_at_an_adjustment(now, closed_day, site, client_for, cashier, chips):
    response = post(
        client_for(cashier),
        "/api/v1/cage/chip-redemptions/",
        {"site": site.pk, "gaming_date": "2026-11-02", "chips": {"2500": 2}, "redeemed_at": "2026-11-02T20:00"},
    )
    assert response.status_code == 400
    text = str(response.json())
    assert "closed books" in text and "adjustment" in text


# A record of a gaming day whose moment may fall after the day's last hour (bank counts, IOUs,
# chip redemptions, tips declared) is late once entered more than the site's threshold after
# that hour, whatever moment it gives. Before, each of these, dated 2026-10-20 and entered on
# 2026-11-03 with no moment (so "now"), read "entered_late": false.
A_FORTNIGHT_GONE = {
    "/api/v1/cage/bank-counts/": {**BANK_COUNT, "kind": "end"},
    "/api/v1/cage/ious/": {"source": "reserve", "destination": "bank", "amount_cents": 5000},
    "/api/v1/cage/chip-redemptions/": {"chips": {"500": 2}},
    "/api/v1/cage/tip-declarations/": {"chips": [{"value_cents": 100, "quantity": 3}]},
}


@pytest.mark.parametrize("url", sorted(A_FORTNIGHT_GONE))
def test_a_record_of_a_day_long_gone_entered_now_is_late(
    url, now, open_day, site, client_for, cashier, dealer, chips, time_machine
):
    author = dealer if "tip" in url else cashier
    past = post(client_for(author), url, {**A_FORTNIGHT_GONE[url], "site": site.pk, "gaming_date": "2026-10-20"})
    assert past.status_code == 201, past.json()
    assert past.json()["entered_late"] is True
    # Half an hour after the day's last hour (06:00 the next morning) is within the 60 minutes.
    time_machine.move_to(datetime(2026, 11, 4, 6, 30, tzinfo=CHICAGO), tick=False)
    just_after = post(client_for(author), url, {**A_FORTNIGHT_GONE[url], "site": site.pk, "gaming_date": "2026-11-03"})
    assert just_after.status_code == 201, just_after.json()
    assert just_after.json()["entered_late"] is False
