"""A void meets another act of the same tournament (one writer at a time per tournament: its
row locked, tournaments.services), on whichever database the suite runs (SQLite by default,
PostgreSQL with DATABASE_URL). The other terminal acts while the void, written, is not yet
committed: a second void of the fee or prize is refused as voided already (not an
IntegrityError), and a rebuy or a prize is refused as its player's entry fee is voided (not
entered against a voided entry). On SQLite the other terminal's transaction waits for the
void's (IMMEDIATE)."""

import pytest
from django.core.exceptions import ValidationError

from cardroom.models import Role
from core.audit_verify import verify_chain
from tests.race_support import after_first_look
from tournaments import services
from tournaments.models import FeeKind, TournamentFee, TournamentPrize

from .conftest import announce


def _entered(cast, site):
    tournament = announce(cast[Role.SHIFT_MANAGER], site)
    user = cast[Role.CASHIER].user
    return services.collect_fee(acting_user=user, tournament=tournament, kind=FeeKind.ENTRY, player_name="Ann")


def _void_fee(fee):
    return lambda user: services.void_fee(acting_user=user, fee=fee, reason="rung up twice")


def _void_prize(entry, user):
    prize = services.award_prize(
        acting_user=user, tournament=entry.tournament, player=entry.player, round_name="Final", kind="cash",
        amount_cents=15000,
    )  # fmt: skip
    return lambda user: services.void_prize(acting_user=user, prize=prize, reason="wrong player")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("voided", ["fee", "prize"])
def test_a_fee_or_prize_voided_twice_at_once_is_voided_once_and_the_second_refused(cast, site, monkeypatch, voided):
    director, entry = cast[Role.SHIFT_MANAGER].user, _entered(cast, site)
    void = _void_fee(entry) if voided == "fee" else _void_prize(entry, director)
    other = after_first_look(monkeypatch, services, "_amend_a_filed_return", void, director)
    void(director)

    refused = other.result()
    assert isinstance(refused, ValidationError), refused
    assert refused.message_dict == {voided: [f"House control: this {voided} is voided already."]}
    model = TournamentFee if voided == "fee" else TournamentPrize
    assert model.objects.filter(voids__isnull=False).count() == 1
    assert verify_chain().ok


def _rebuy(entry):
    def rebuy(user):
        return services.collect_fee(
            acting_user=user, tournament=entry.tournament, kind=FeeKind.REBUY, player=entry.player
        )

    return rebuy


def _prize(entry):
    def prize(user):
        return services.award_prize(
            acting_user=user, tournament=entry.tournament, player=entry.player, round_name="Final", kind="cash",
            amount_cents=15000,
        )  # fmt: skip

    return prize


LANDING = {"rebuy": (_rebuy, Role.CASHIER), "prize": (_prize, Role.SHIFT_MANAGER)}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("landing", LANDING)
def test_a_rebuy_or_prize_landing_while_the_entry_fee_is_voided_is_refused(cast, site, monkeypatch, landing):
    entry, (act, role) = _entered(cast, site), LANDING[landing]
    other = after_first_look(monkeypatch, services, "_amend_a_filed_return", act(entry), cast[role].user)
    _void_fee(entry)(cast[Role.SHIFT_MANAGER].user)

    refused = other.result()
    assert isinstance(refused, ValidationError), refused
    assert refused.message_dict == {"player": ["ND 99-01.3-08-15(1): Ann has not paid the entry fee."]}
    assert not TournamentFee.objects.filter(kind=FeeKind.REBUY).exists()
    assert not TournamentPrize.objects.exists()
    assert services.paid_cents(entry.player) == 0
    assert verify_chain().ok
