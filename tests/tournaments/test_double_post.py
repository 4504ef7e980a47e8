"""The tournament forms (announce, a fee, a prize) sent twice write once, the second copy told
"Already recorded"; each confirms what it recorded and what comes next (Django messages, as the
floor's pages do)."""

import pytest
from django.utils import timezone

from cardroom.models import Role
from tests.page_support import form_token, page
from tournaments.models import Tournament, TournamentFee, TournamentPrize

from .conftest import announce
from .test_pages import FORM

pytestmark = pytest.mark.django_db


def _twice(client, address, form_id, path, data):
    """Post the form `form_id` drawn on `address` twice with its one token; the second answer."""
    token = form_token(page(client.get(address)), form_id)
    first = client.post(path, {**data, "form_token": token}, follow=True)
    assert first.status_code == 200
    again = client.post(path, {**data, "form_token": token}, follow=True)
    assert again.status_code == 200 and "Already recorded" in page(again)
    return page(first)


def test_the_announce_form_sent_twice_announces_one_tournament(client, cast, site):
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    data = {**FORM, "name": "Monday Classic", "gaming_date": timezone.localdate().isoformat()}
    first = _twice(client, "/tournaments/new/", "announce-form", "/tournaments/new/", data)
    assert Tournament.objects.filter(name="Monday Classic").count() == 1
    assert f"Monday Classic of {timezone.localdate()} announced: now print its disclosure" in first


def _at_a_tournament(client, cast, site, *, entered: bool = False):
    """A tournament announced, its page's address, the shift manager signed in (and Ann Lee entered)."""
    tournament = announce(cast[Role.SHIFT_MANAGER], site)
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    address = f"/tournaments/{tournament.pk}/"
    if entered:
        client.post(f"{address}entries/", {"player_name": "Ann Lee"})
    return tournament, address


def _prize(tournament) -> dict:
    return {"player": tournament.players.get().pk, "round_name": "Final", "kind": "cash", "amount_cents": "150.00"}


def test_the_entry_form_sent_twice_collects_one_fee(client, cast, site):
    tournament, address = _at_a_tournament(client, cast, site)
    first = _twice(client, address, "enter-player", f"{address}entries/", {"player_name": "Ann Lee"})
    assert TournamentFee.objects.count() == 1
    assert "Entry fee of $100.00 collected from Ann Lee: hand them their 500 tournament chips" in first


def test_the_prize_form_sent_twice_records_one_prize(client, cast, site):
    tournament, address = _at_a_tournament(client, cast, site, entered=True)
    prize = _prize(tournament)
    first = _twice(client, address, "record-prize", f"{address}prizes/", prize)
    assert TournamentPrize.objects.count() == 1
    assert "Prize of $150.00 to Ann Lee (Final) recorded in the prize register" in first


def test_a_fee_and_a_prize_voided_are_confirmed(client, cast, site):
    tournament, address = _at_a_tournament(client, cast, site, entered=True)
    prize = _prize(tournament)
    client.post(f"{address}prizes/", prize)
    awarded = TournamentPrize.objects.get()
    voided = client.post(f"{address}prizes/{awarded.pk}/void/", {"reason": "Wrong"}, follow=True)
    assert "Prize to Ann Lee voided: record the right prize anew" in page(voided)
    fee = TournamentFee.objects.get()
    voided = client.post(f"{address}entries/{fee.pk}/void/", {"reason": "Wrong"}, follow=True)
    assert "Entry fee of Ann Lee voided" in page(voided)
