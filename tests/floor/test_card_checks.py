"""ND 99-01.3-08-07(1): "When playing cards are brought to a table, a dealer shall first approve all
decks of cards ... a dealer shall comply with this subsection when the cards are brought back to the
table." (2): "A dealer or shift manager shall inspect each dealing shoe before each day's activity."

The floor records each check (floor.services.record_card_check), append-only and audited, refused
with the check's citation where the site's pack states no such check, with no day open, by someone
who may not make it, or with decks out of the table's range."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from cardroom.models import Game, Role
from core.appendonly import ImmutableRecordError
from core.models import AuditEvent
from floor import services
from floor.models import CardCheck
from tests.compliance.test_no_nd_rule_at_other_packs import TABLES
from tests.factories import TableFactory, make_person

DECKS, SHOE = "ND 99-01.3-08-07(1): ", "ND 99-01.3-08-07(2): "


def refusal(exc_info, field: str) -> str:
    return " ".join(exc_info.value.message_dict[field])


def test_a_dealer_approves_the_decks_the_table_deals_and_a_shift_manager_enters_it(
    site, table, cast, shift_manager, gaming_day
):
    check = services.record_card_check(
        acting_user=shift_manager.user, table=table, kind="decks_approved", checked_by=cast[Role.DEALER]
    )
    assert (check.kind, check.decks, check.table, check.gaming_day) == ("decks_approved", 6, table, gaming_day)
    assert (check.checked_by, check.checked_as, check.recorded_by) == (cast[Role.DEALER], "dealer", shift_manager)
    event = AuditEvent.objects.get(action="card_check.decks_approved")
    assert (event.site_id, event.object_id, event.actor) == (site.pk, str(check.pk), shift_manager.user)


def test_cards_brought_back_are_approved_again_the_same_day(table, cast, gaming_day):
    dealer = cast[Role.DEALER]
    for decks in (6, 2):
        services.record_card_check(acting_user=dealer.user, table=table, kind="decks_approved", decks=decks)
    assert list(CardCheck.objects.filter(table=table).values_list("decks", flat=True)) == [6, 2]


def test_a_shift_manager_or_a_dealer_inspects_the_shoe(table, cast, shift_manager, gaming_day):
    mine = services.record_card_check(acting_user=shift_manager.user, table=table, kind="shoe_inspected")
    theirs = services.record_card_check(acting_user=cast[Role.DEALER].user, table=table, kind="shoe_inspected")
    assert [(c.checked_by, c.checked_as, c.decks) for c in (mine, theirs)] == [
        (shift_manager, "shift_manager", None),
        (cast[Role.DEALER], "dealer", None),
    ]


def test_a_check_is_never_changed_or_deleted(table, shift_manager, gaming_day):
    check = services.record_card_check(acting_user=shift_manager.user, table=table, kind="shoe_inspected")
    check.checked_as = "dealer"
    with pytest.raises(ImmutableRecordError):
        check.save()
    with pytest.raises(ImmutableRecordError):
        check.delete()


def test_the_decks_are_approved_by_a_dealer_only(table, shift_manager, cast, gaming_day):
    with pytest.raises(ValidationError) as refused:
        services.record_card_check(acting_user=shift_manager.user, table=table, kind="decks_approved")
    assert refusal(refused, "checked_by").startswith(DECKS) and "only a dealer may" in refusal(refused, "checked_by")
    with pytest.raises(ValidationError) as refused:
        services.record_card_check(
            acting_user=shift_manager.user, table=table, kind="shoe_inspected", checked_by=cast[Role.CASHIER]
        )
    assert refusal(refused, "checked_by").startswith(SHOE) and "a dealer or shift manager" in refusal(
        refused, "checked_by"
    )


def test_a_dealer_of_another_site_checks_nothing_here(org, other_site, table, shift_manager, gaming_day):
    elsewhere = make_person(org, Role.DEALER, other_site)
    with pytest.raises(ValidationError) as refused:
        services.record_card_check(
            acting_user=shift_manager.user, table=table, kind="decks_approved", checked_by=elsewhere
        )
    assert refusal(refused, "checked_by").startswith(DECKS)


def test_a_dealer_enters_their_own_check_only_and_other_roles_none(org, site, table, cast, gaming_day):
    another = make_person(org, Role.DEALER, site)
    with pytest.raises(PermissionDenied, match=r"^ND 99-01\.3-08-07\(1\): a dealer records their own check"):
        services.record_card_check(
            acting_user=cast[Role.DEALER].user, table=table, kind="decks_approved", checked_by=another
        )
    for role in (Role.PIT_BOSS, Role.CASHIER, Role.WHEEL_OPERATOR, Role.COUNT_TEAM, Role.GAMING_MANAGER):
        with pytest.raises(PermissionDenied, match=r"^ND 99-01\.3-08-07\(2\): "):
            services.record_card_check(acting_user=cast[role].user, table=table, kind="shoe_inspected")
    assert not CardCheck.objects.exists()


@pytest.mark.parametrize("decks", [0, 7, -1, "six", True])
def test_decks_out_of_the_tables_range_are_refused(table, cast, gaming_day, decks):
    with pytest.raises(ValidationError) as refused:
        services.record_card_check(acting_user=cast[Role.DEALER].user, table=table, kind="decks_approved", decks=decks)
    assert (
        refusal(refused, "decks")
        == f"{DECKS}Twenty-one table 1 deals 6 decks; the decks approved are 1 to 6, not {decks}."
    )


def test_a_shoe_counts_no_decks(table, shift_manager, gaming_day):
    with pytest.raises(ValidationError) as refused:
        services.record_card_check(acting_user=shift_manager.user, table=table, kind="shoe_inspected", decks=6)
    assert refusal(refused, "decks").startswith(SHOE)


def test_no_check_is_recorded_without_an_open_day(table, cast, shift_manager, gaming_day):
    services.close_gaming_day(acting_user=shift_manager.user, gaming_day=gaming_day)
    for kind, cited in (("shoe_inspected", SHOE), ("decks_approved", DECKS)):
        with pytest.raises(ValidationError) as refused:
            services.record_card_check(
                acting_user=shift_manager.user, table=table, kind=kind, checked_by=cast[Role.DEALER]
            )
        assert refusal(refused, "table").startswith(f"{cited}no gaming day is open at")


def test_a_paddlewheel_has_no_cards_to_check(site, shift_manager, gaming_day):
    wheel = TableFactory(site=site, number=9, game=Game.PADDLEWHEEL)
    with pytest.raises(ValidationError) as refused:
        services.record_card_check(acting_user=shift_manager.user, table=wheel, kind="shoe_inspected")
    assert refusal(refused, "table").startswith(SHOE)


@pytest.mark.parametrize("jurisdiction", ["WA-HB", "NY"])
def test_no_check_is_kept_where_the_pack_does_not_state_it(site, shift_manager, cast, gaming_day, jurisdiction):
    site.jurisdiction = jurisdiction
    site.save()
    table = TableFactory(site=site, number=5, min_wager_cents=100, **TABLES[jurisdiction])
    for kind in ("shoe_inspected", "decks_approved"):
        with pytest.raises(ValidationError) as refused:
            services.record_card_check(acting_user=shift_manager.user, table=table, kind=kind)
        said = refusal(refused, "table")
        assert said.startswith("House control: ") and "ND" not in said
    assert not CardCheck.objects.exists()
