"""Tournament pages: list, announce, enter players and rebuys, record prizes, void, and the
printable disclosure to players; the service's message shows on the form."""

import pytest
from django.utils import timezone

from cardroom.models import Role
from tournaments.models import Tournament, TournamentFee, TournamentPrize

from .conftest import announce

pytestmark = pytest.mark.django_db


def page(response) -> str:
    return response.content.decode().replace("&#x27;", "'")


FORM = {
    "name": "Winter Classic",
    "entry_fee_cents": "100.00",
    "chips_per_entry": "500",
    "rebuy_fee_cents": "99.99",
    "chips_per_rebuy": "500",
    "add_on_fee_cents": "0.01",
    "chips_per_add_on": "100",
    "betting_spaces": "1",
    "rotating_button": "on",
    "length_of_play": "40 hands",
    "minimum_bet_chips": "10",
    "prizes_offered": "$150 cash to the winner",
}


def test_a_shift_manager_announces_enters_players_and_the_cap_refusal_shows_on_the_page(client, cast, site):
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    response = client.post("/tournaments/new/", {**FORM, "gaming_date": timezone.localdate().isoformat()})
    tournament = Tournament.objects.get()
    assert response.status_code == 302 and response.url == f"/tournaments/{tournament.pk}/"
    assert client.post(f"/tournaments/{tournament.pk}/entries/", {"player_name": "Ann Lee"}).status_code == 302
    player = tournament.players.get()
    for kind in ("rebuy", "add_on"):
        assert (
            client.post(f"/tournaments/{tournament.pk}/entries/", {"kind": kind, "player": player.pk}).status_code
            == 302
        )
    refused = client.post(f"/tournaments/{tournament.pk}/entries/", {"kind": "add_on", "player": player.pk})
    assert refused.status_code == 400
    assert "ND 99-01.3-08-15(1): the cumulative entry fee" in page(refused) and "$200.01" in page(refused)
    assert TournamentFee.objects.count() == 3
    text = page(client.get(f"/tournaments/{tournament.pk}/"))
    assert 'id="players"' in text and "Ann Lee" in text and "$200.00" in text
    assert "Winter Classic" in page(client.get("/tournaments/"))


def test_an_announcement_against_08_15_shows_the_rule_on_the_form(client, cast, site):
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    response = client.post(
        "/tournaments/new/", {**FORM, "rebuy_fee_cents": "100.01", "gaming_date": timezone.localdate().isoformat()}
    )
    assert response.status_code == 400 and "ND 99-01.3-08-15(1): a rebuy or add-on" in page(response)
    assert not Tournament.objects.exists()


def test_a_prize_is_recorded_and_voided_from_the_page(client, cast, site):
    boss = cast[Role.SHIFT_MANAGER]
    tournament = announce(boss, site)
    client.force_login(boss.user)
    client.post(f"/tournaments/{tournament.pk}/entries/", {"player_name": "Ann Lee"})
    player = tournament.players.get()
    prize = {"player": player.pk, "round_name": "Final", "kind": "cash", "amount_cents": "150.00"}
    assert client.post(f"/tournaments/{tournament.pk}/prizes/", prize).status_code == 302
    awarded = TournamentPrize.objects.get()
    assert awarded.amount_cents == 15000
    assert "$50.00" in page(client.get(f"/tournaments/{tournament.pk}/"))  # the record of win: 100 - 150
    no_reason = client.post(f"/tournaments/{tournament.pk}/prizes/{awarded.pk}/void/", {"reason": ""})
    assert no_reason.status_code == 400
    assert (
        client.post(f"/tournaments/{tournament.pk}/prizes/{awarded.pk}/void/", {"reason": "Wrong"}).status_code == 302
    )
    assert TournamentPrize.objects.filter(voids=awarded, amount_cents=-15000).exists()


def test_the_disclosure_to_players_states_the_rules_of_08_15(client, cast, site):
    tournament = announce(cast[Role.SHIFT_MANAGER], site)
    client.force_login(cast[Role.CASHIER].user)
    text = page(client.get(f"/tournaments/{tournament.pk}/disclosure/"))
    for phrase in (
        "$100.00</strong> for <strong>500</strong> tournament chips",
        "cannot exceed <strong>$200.00</strong> per player",
        "Tournament chips have no cash redemption value",
        "moves clockwise one position after each hand",
        "transfer chips to or from another player",
        "Minimum bet: 10 chips; maximum bet: 200 chips",
        "may agree to split the prize",
        "30 hands per round",
    ):
        assert phrase in text, phrase


def test_who_sees_which_forms_and_who_is_refused(client, cast, site):
    tournament = announce(cast[Role.SHIFT_MANAGER], site)
    client.force_login(cast[Role.CASHIER].user)
    text = page(client.get(f"/tournaments/{tournament.pk}/"))
    assert 'id="enter-player"' in text and 'id="record-prize"' not in text
    assert client.get("/tournaments/new/").status_code == 403
    client.force_login(cast[Role.AUDITOR].user)
    text = page(client.get(f"/tournaments/{tournament.pk}/"))
    assert 'id="enter-player"' not in text and 'id="players"' in text
    refused = client.post(f"/tournaments/{tournament.pk}/entries/", {"player_name": "Zed"})
    assert refused.status_code == 403 and "House control: only a shift manager, pit boss or chip bank cashier" in page(
        refused
    )
    client.force_login(cast[Role.DEALER].user)
    assert client.get("/tournaments/").status_code == 403
    assert client.get(f"/tournaments/{tournament.pk}/").status_code == 404


def test_a_gaming_date_that_is_no_day_is_refused_inline_naming_the_field_as_the_api_says(client, cast, site):
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    response = client.post("/tournaments/new/", {**FORM, "gaming_date": "2026-02-30"})
    assert response.status_code == 400
    assert "House control: gaming_date names no day of the calendar (2026-02-30 is not a date)." in page(response)
    assert not Tournament.objects.exists()
