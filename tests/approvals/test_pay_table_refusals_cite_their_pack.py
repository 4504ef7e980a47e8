"""The pay-table refusals name the field and their rule: a table offering an approved game posts one
of the approval's own pay tables, cited at a Washington house-banked site as its pack states game
approvals ("WSGC game approval": the letter approves the game "under the terms and conditions set
forth under the ... rules of play", whose paytables are enclosed), with the approval named; at a
site of a pack with no game approvals (North Dakota, Washington blackjack, New York) the same link
is refused at the table as a house control, citing no other pack's law. The shape of a pay table
recorded with an approval is the house's own (House control). Driven through the services."""

import pytest
from django.core.exceptions import ValidationError

from approvals import services
from approvals.demo import DDM_APPROVAL, DDM_TABLE_SETTINGS, SHUFFLER
from approvals.models import PayTable, TableGame
from tests.conformance.words import ND_WORDS, OTHER_WORDS, law_words_in
from tests.factories import TableFactory

APPROVAL = "WSGC game approval: Double Down Madness Blackjack"
TABLES = {
    "WA-HB": {"payout_rounding": "down"},
    "ND": {"max_wager_cents": 2500},
    "WA-BJ": {"max_wager_cents": 2500, "banker": "player", "min_bank_cents": 30000, "decks": 1},
    "NY": {"max_wager_cents": 500, "decks": 1, "tie_option": 2, "blackjack_payout": "2:1", "double_on": "ten_eleven"},
}


def _no_blackjack_pay_table(ddm, other):
    return {"side_bet_pay_table": PayTable.objects.get(approval=ddm, side_bet="Push 22", code="1")}


def _another_approvals_pay_table(ddm, other):
    return {"blackjack_pay_table": PayTable.objects.get(approval=other, side_bet="", code="01")}


REFUSALS = [
    # (name, the link's pay tables, the field refused at a WA-HB site, what its message says after the approval)
    ("no blackjack pay table chosen", _no_blackjack_pay_table, "blackjack_pay_table", "choose one of its blackjack"),
    (
        "another approval's pay table",
        _another_approvals_pay_table,
        "blackjack_pay_table",
        "is not among the approval's selectable pay tables",
    ),
]


@pytest.fixture
def other(manager, org):
    return services.record_game_approval(
        acting_user=manager.user,
        organization=org,
        **{**DDM_APPROVAL, "game_name": "Other Game", "submission_number": "1"},
    )


@pytest.mark.parametrize("code", list(TABLES))
@pytest.mark.parametrize(("name", "pay_tables", "field", "said"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_a_pay_table_refusal_names_its_field_and_the_rule_of_the_sites_pack(
    manager, site, ddm, other, code, name, pay_tables, field, said
):
    site.jurisdiction = code
    site.save()
    table = TableFactory(site=site, number=2, **TABLES[code])
    with pytest.raises(ValidationError) as refused:
        services.link_table_game(
            acting_user=manager.user,
            table=table,
            approval=ddm,
            shuffler_model=SHUFFLER,
            settings=DDM_TABLE_SETTINGS,
            **pay_tables(ddm, other),
        )
    errors = refused.value.message_dict
    if code == "WA-HB":
        (message,) = errors[field]
        assert message.startswith(f"{APPROVAL} (") and said in message, message
        assert not law_words_in(message, ND_WORDS), message
    else:
        (message,) = errors["table"]
        assert message.startswith("House control: ") and "no game approvals" in message, message
        assert not law_words_in(message, OTHER_WORDS) and not law_words_in(message, ND_WORDS), message
    assert list(errors) == [field if code == "WA-HB" else "table"], errors
    assert not TableGame.objects.filter(table=table).exists()


@pytest.mark.parametrize(
    ("row", "said"),
    [
        (
            {"side_bet": "Push 22", "code": "9", "natural_payout": "3:2", "lines": [{"hand": "22", "pays": "8 to 1"}]},
            "House control: side bet pay table 9: a side bet has no blackjack payout.",
        ),
        (
            {"code": "9", "natural_payout": "7:5", "lines": [{"hand": "Blackjack", "pays": "7 to 5"}]},
            "House control: blackjack pay table 9: natural_payout (the unsuited blackjack payout the table posts) is "
            "one of ",
        ),
    ],
    ids=["side bet with a blackjack payout", "blackjack payout of no table"],
)
def test_a_pay_table_of_no_shape_the_house_keeps_is_refused_naming_pay_tables_and_house_control(
    manager, org, row, said
):
    with pytest.raises(ValidationError) as refused:
        services.record_game_approval(
            acting_user=manager.user, organization=org, **{**DDM_APPROVAL, "pay_tables": [row]}
        )
    (message,) = refused.value.message_dict["pay_tables"]
    assert message.startswith(said), message
