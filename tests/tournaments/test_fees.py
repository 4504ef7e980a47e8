"""The fees of a tournament (ND 99-01.3-08-15(1)) and their record (08-16(1)(e))."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from cardroom.models import Role
from core.appendonly import ImmutableRecordError
from core.models import AuditEvent
from tournaments import queries, services
from tournaments.models import FeeKind, TournamentFee
from tournaments.rules import MAX_CUMULATIVE_FEE

from .conftest import announce

pytestmark = pytest.mark.django_db


def enter(person, tournament, name="Ann Lee"):
    return services.collect_fee(acting_user=person.user, tournament=tournament, kind=FeeKind.ENTRY, player_name=name)


def buy(person, tournament, player, kind):
    return services.collect_fee(acting_user=person.user, tournament=tournament, kind=kind, player=player)


def test_the_cap_is_two_hundred_dollars_as_data():
    assert MAX_CUMULATIVE_FEE.on("ND").value == 20000


def test_cumulative_fees_of_199_99_and_200_00_are_collected_and_200_01_is_refused_citing_08_15(tournament, cashier):
    entry = enter(cashier, tournament)
    player = entry.player
    buy(cashier, tournament, player, FeeKind.REBUY)
    assert services.paid_cents(player) == 19999
    buy(cashier, tournament, player, FeeKind.ADD_ON)
    assert services.paid_cents(player) == 20000
    with pytest.raises(ValidationError) as refused:
        buy(cashier, tournament, player, FeeKind.ADD_ON)
    message = str(refused.value.message_dict["kind"])
    assert "ND 99-01.3-08-15(1)" in message and "$200.00" in message and "$200.01" in message
    assert services.paid_cents(player) == 20000
    assert TournamentFee.objects.filter(player=player).count() == 3


def test_a_second_rebuy_that_would_pass_the_cap_is_refused_before_anything_is_written(tournament, cashier):
    player = enter(cashier, tournament).player
    buy(cashier, tournament, player, FeeKind.REBUY)  # 199.99
    with pytest.raises(ValidationError, match=r"08-15\(1\)"):
        buy(cashier, tournament, player, FeeKind.REBUY)  # would be 299.98
    assert services.paid_cents(player) == 19999


def test_the_cap_counts_each_player_on_their_own(tournament, cashier):
    ann = enter(cashier, tournament, "Ann Lee").player
    bob = enter(cashier, tournament, "Bob Ray").player
    buy(cashier, tournament, ann, FeeKind.REBUY)
    buy(cashier, tournament, ann, FeeKind.ADD_ON)
    buy(cashier, tournament, bob, FeeKind.REBUY)
    buy(cashier, tournament, bob, FeeKind.ADD_ON)
    assert services.paid_cents(ann) == services.paid_cents(bob) == 20000


def test_a_player_entering_twice_under_a_respelled_name_is_refused(tournament, cashier):
    enter(cashier, tournament, "Ann Lee")
    with pytest.raises(ValidationError, match=r"08-15\(1\).*already"):
        enter(cashier, tournament, "  ann   LEE ")


def test_a_voided_fee_no_longer_counts_toward_the_cap_and_the_register_keeps_both_rows(tournament, cast, cashier):
    player = enter(cashier, tournament).player
    rebuy = buy(cashier, tournament, player, FeeKind.REBUY)
    buy(cashier, tournament, player, FeeKind.ADD_ON)  # 200.00
    void = services.void_fee(acting_user=cast[Role.SHIFT_MANAGER].user, fee=rebuy, reason="Rung up twice")
    assert void.fee_cents == -9999 and void.voids == rebuy and void.chips == -500
    assert services.paid_cents(player) == 10001
    buy(cashier, tournament, player, FeeKind.REBUY)
    assert services.paid_cents(player) == 20000
    with pytest.raises(ValidationError, match="voided already"):
        services.void_fee(acting_user=cast[Role.SHIFT_MANAGER].user, fee=rebuy, reason="again")
    figures = queries.tournament_figures(tournament)
    assert (figures.entry_fees_cents, figures.rebuys_cents, figures.add_ons_cents) == (10000, 9999, 1)
    assert figures.entries == 1


def test_a_fee_row_records_the_player_the_date_and_the_collecting_employees_initials(tournament, cashier):
    fee = enter(cashier, tournament)
    assert fee.player.name == "Ann Lee" and fee.collected_by == cashier and fee.gaming_date and fee.collected_at
    assert fee.fee_cents == tournament.entry_fee_cents and fee.chips == tournament.chips_per_entry
    event = AuditEvent.objects.filter(action="tournament.fee.entry").get()
    assert event.after["fee_cents"] == 10000


def test_fees_are_append_only(tournament, cashier):
    fee = enter(cashier, tournament)
    fee.fee_cents = 1
    with pytest.raises(ImmutableRecordError):
        fee.save()
    with pytest.raises(ImmutableRecordError):
        fee.delete()


def test_a_rebuy_needs_the_entry_fee_paid_and_a_tournament_that_allows_rebuys(cast, site, cashier):
    no_rebuys = announce(cast[Role.SHIFT_MANAGER], site, rebuy_fee_cents=None, chips_per_rebuy=None)
    player = enter(cashier, no_rebuys).player
    with pytest.raises(ValidationError, match="does not allow a rebuy"):
        buy(cashier, no_rebuys, player, FeeKind.REBUY)


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"entry_fee_cents": 20001, "rebuy_fee_cents": None, "chips_per_rebuy": None}, "entry_fee_cents"),
        ({"entry_fee_cents": 0}, "entry_fee_cents"),
        ({"entry_fee_cents": 5000, "rebuy_fee_cents": 5001}, "rebuy_fee_cents"),
        ({"entry_fee_cents": 5000, "rebuy_fee_cents": 5000, "add_on_fee_cents": 5001}, "add_on_fee_cents"),
        ({"betting_spaces": 3}, "betting_spaces"),
        ({"minimum_bet_chips": 0}, "minimum_bet_chips"),
        ({"minimum_bet_chips": 50, "maximum_bet_chips": 49}, "maximum_bet_chips"),
        ({"length_of_play": "  "}, "length_of_play"),
    ],
)
def test_a_tournament_against_08_15_is_refused_naming_the_field_and_rule(cast, site, overrides, field):
    with pytest.raises(ValidationError) as refused:
        announce(cast[Role.SHIFT_MANAGER], site, **overrides)
    assert field in refused.value.message_dict
    assert "ND 99-01.3-08-15" in str(refused.value.message_dict[field]) or field == "length_of_play"


def test_an_entry_fee_of_exactly_200_and_a_rebuy_equal_to_it_are_allowed(cast, site):
    tournament = announce(cast[Role.SHIFT_MANAGER], site, entry_fee_cents=20000, rebuy_fee_cents=20000)
    assert tournament.rebuy_fee_cents == 20000


def test_a_dealer_may_not_collect_a_fee_and_the_refusal_names_the_house_control(tournament, cast):
    with pytest.raises(PermissionDenied, match="House control: only a shift manager, pit boss or chip bank cashier"):
        enter(cast[Role.DEALER], tournament)


def test_a_prize_goes_on_the_register_and_a_void_takes_it_back(tournament, cast, cashier):
    player = enter(cashier, tournament).player
    boss = cast[Role.SHIFT_MANAGER]
    prize = services.award_prize(
        acting_user=boss.user, tournament=tournament, player=player, round_name="Final", kind="cash", amount_cents=15000
    )
    jacket = services.award_prize(
        acting_user=boss.user,
        tournament=tournament,
        player=player,
        round_name="Final",
        kind="merchandise",
        amount_cents=4500,
        description="Club jacket",
        split=True,
    )
    figures = queries.tournament_figures(tournament)
    assert (figures.cash_prizes_cents, figures.merchandise_prizes_cents, figures.agp_cents) == (15000, 4500, -9500)
    services.void_prize(acting_user=boss.user, prize=jacket, reason="Wrong player")
    assert queries.tournament_figures(tournament).agp_cents == 10000 - 15000
    assert prize.awarded_by == boss


def test_a_merchandise_prize_needs_its_description(tournament, cast, cashier):
    player = enter(cashier, tournament).player
    with pytest.raises(ValidationError) as refused:
        services.award_prize(
            acting_user=cast[Role.SHIFT_MANAGER].user,
            tournament=tournament,
            player=player,
            round_name="Final",
            kind="merchandise",
            amount_cents=100,
        )
    assert "description" in refused.value.message_dict


@pytest.mark.parametrize("amount", [0, -500])
def test_a_prize_of_no_value_is_refused_saying_it_must_be_more_than_zero(tournament, cast, cashier, amount):
    player = enter(cashier, tournament).player
    with pytest.raises(ValidationError) as refused:
        services.award_prize(acting_user=cast[Role.SHIFT_MANAGER].user, tournament=tournament, player=player,
                             round_name="Final", kind="cash", amount_cents=amount)  # fmt: skip
    assert refused.value.message_dict["amount_cents"][0].endswith(
        "the prize register records the prize's value, an amount of more than $0.00."
    )
