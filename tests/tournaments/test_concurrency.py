"""The $200 cap holds when several cashiers sell the same player add-ons at once (ND
99-01.3-08-15(1)), on whichever database the suite runs (SQLite by default, PostgreSQL with
DATABASE_URL): fees of one tournament are written one at a time."""

import threading

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import connection

from cardroom.models import Role
from tournaments import services
from tournaments.models import FeeKind, TournamentPlayer

from .conftest import announce

THREADS = 6


@pytest.mark.django_db(transaction=True)
def test_concurrent_add_ons_never_take_a_player_past_the_cap(cast, site):
    tournament = announce(
        cast[Role.SHIFT_MANAGER], site, rebuy_fee_cents=None, chips_per_rebuy=None, add_on_fee_cents=5000
    )
    cashier = cast[Role.CASHIER]
    services.collect_fee(acting_user=cashier.user, tournament=tournament, kind=FeeKind.ENTRY, player_name="Ann")
    player_id = TournamentPlayer.objects.get().pk
    refused, errors, barrier = [], [], threading.Barrier(THREADS)
    collectors = [cast[Role.CASHIER], cast[Role.PIT_BOSS], cast[Role.SHIFT_MANAGER]]

    def work(user_id):
        try:
            user = get_user_model().objects.get(pk=user_id)
            player = TournamentPlayer.objects.get(pk=player_id)
            barrier.wait()
            services.collect_fee(acting_user=user, tournament=tournament, kind=FeeKind.ADD_ON, player=player)
        except ValidationError as exc:
            refused.append(exc)
        except Exception as exc:  # noqa: BLE001 - reported below (a lock timeout is a refusal too)
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=work, args=(collectors[i % 3].user_id,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    paid = services.paid_cents(TournamentPlayer.objects.get(pk=player_id))
    assert paid <= 20000, connection.vendor
    assert all("08-15(1)" in str(e) for e in refused)
    if connection.vendor == "postgresql":
        assert errors == []  # the row lock serialises them: none fails for another reason
    if not errors:  # every add-on either went in or was refused by the cap: exactly two fit
        assert paid == 20000 and len(refused) == THREADS - 2
