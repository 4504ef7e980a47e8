"""ND 99-01.3-08-05(3)(c), (4), (5), (6) read to the letter: whose initials a slip carries and
in what capacity, who prepares a credit for which table, who receives the credit copy, and when
verification is required (someone eligible on duty) or not (nobody: the slip says so)."""

import io
from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone
from pypdf import PdfReader

from cardroom.models import Game, Membership, Role
from floor import rules, services
from floor.models import Slip, SlipStep
from floor.pdf_slips import build_slip_document, render_slip_pdf
from tests.factories import TableFactory, make_person

from .conftest import FILL, TRAY


@pytest.fixture
def wheel(site, chips, gaming_day, shift_manager, cast):
    """A paddlewheel with its wheel operator on shift."""
    table = TableFactory(site=site, number=7, game=Game.PADDLEWHEEL, min_wager_cents=100, max_wager_cents=2500)
    services.record_table_inventory(acting_user=shift_manager.user, table=table, kind="opener", chips=TRAY)
    services.start_dealer_shift(acting_user=shift_manager.user, table=table, dealer=cast[Role.WHEEL_OPERATOR])
    return table


# --- 08-05(3)(c): the initials each slip carries ------------------------------------------------


def test_a_fill_prepared_by_the_cashier_carries_the_cashiers_initials(open_table, cast):
    slip = services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=open_table, chips=FILL)
    assert (slip.signed_by, slip.signed_initials, slip.signed_as) == (
        cast[Role.CASHIER],
        cast[Role.CASHIER].initials,
        "cashier",
    )
    assert slip.prepared_as == "cashier"


@pytest.mark.parametrize("role", [Role.PIT_BOSS, Role.SHIFT_MANAGER])
def test_a_fill_prepared_by_a_supervisor_names_the_cashier_who_initials_it(open_table, cast, role):
    with pytest.raises(ValidationError) as caught:
        services.prepare_fill(acting_user=cast[role].user, table=open_table, chips=FILL)
    assert caught.value.message_dict["cashier"][0].startswith("ND 99-01.3-08-05(3)(c): a fill slip carries")
    assert not Slip.objects.exists()
    slip = services.prepare_fill(acting_user=cast[role].user, table=open_table, chips=FILL, cashier=cast[Role.CASHIER])
    assert (slip.prepared_as, slip.signed_by, slip.signed_as) == (role, cast[Role.CASHIER], "cashier")


def test_a_dealer_not_dealing_may_initial_a_fill_acting_as_cashier_but_not_while_dealing(
    open_table, dealer_shift, cast, org, site
):
    spare = make_person(org, Role.DEALER, site)
    slip = services.prepare_fill(acting_user=cast[Role.PIT_BOSS].user, table=open_table, chips=FILL, cashier=spare)
    assert (slip.signed_by, slip.signed_as) == (spare, "dealer_as_cashier")
    with pytest.raises(ValidationError, match="is dealing at a table, not acting as cashier"):
        services.prepare_fill(
            acting_user=cast[Role.PIT_BOSS].user, table=open_table, chips=FILL, cashier=cast[Role.DEALER]
        )


@pytest.mark.parametrize("role", [Role.WHEEL_OPERATOR, Role.PIT_BOSS, Role.COUNT_TEAM, Role.AUDITOR])
def test_only_a_cashier_or_dealer_initials_a_fill_as_cashier(open_table, cast, role):
    with pytest.raises(ValidationError, match="is not an active chip bank cashier or dealer"):
        services.prepare_fill(
            acting_user=cast[Role.SHIFT_MANAGER].user, table=open_table, chips=FILL, cashier=cast[role]
        )


def test_a_cashier_of_another_site_does_not_initial_this_sites_fill(open_table, cast, org, other_site):
    elsewhere = make_person(org, Role.CASHIER, other_site)
    with pytest.raises(ValidationError, match="cashier or dealer at"):
        services.prepare_fill(acting_user=cast[Role.PIT_BOSS].user, table=open_table, chips=FILL, cashier=elsewhere)


# --- 08-05(3)(c), (4): who prepares a credit for which table --------------------------------------


def test_the_dealer_on_shift_prepares_a_credit_for_their_table_and_initials_it(dealer_shift, cast):
    slip = services.prepare_credit(acting_user=cast[Role.DEALER].user, table=dealer_shift.table, chips=FILL)
    assert (slip.prepared_as, slip.signed_by, slip.signed_as) == ("dealer", cast[Role.DEALER], "dealer")


def test_a_dealer_off_shift_prepares_no_credit(open_table, cast):
    with pytest.raises(ValidationError) as caught:
        services.prepare_credit(acting_user=cast[Role.DEALER].user, table=open_table, chips=FILL)
    assert caught.value.message_dict["table"][0].startswith("ND 99-01.3-08-05(4): a dealer or wheel operator")
    assert not Slip.objects.exists()


def test_a_dealer_after_their_shift_ended_prepares_no_credit(dealer_shift, cast, shift_manager):
    services.end_dealer_shift(acting_user=shift_manager.user, shift=dealer_shift)
    with pytest.raises(ValidationError, match="08-05\\(4\\)"):
        services.prepare_credit(acting_user=cast[Role.DEALER].user, table=dealer_shift.table, chips=FILL)


def test_a_dealer_prepares_no_credit_for_another_table(dealer_shift, wheel, cast):
    with pytest.raises(ValidationError, match="08-05\\(4\\)"):
        services.prepare_credit(acting_user=cast[Role.DEALER].user, table=wheel, chips=FILL)
    slip = services.prepare_credit(acting_user=cast[Role.WHEEL_OPERATOR].user, table=wheel, chips=FILL)
    assert (slip.signed_by, slip.signed_as) == (cast[Role.WHEEL_OPERATOR], "wheel_operator")


def test_a_wheel_operator_at_a_twenty_one_table_prepares_no_credit(open_table, cast, shift_manager, site):
    # A twenty-one credit carries a dealer's initials: a wheel operator is not even seated there,
    # and without a dealer on shift nobody may prepare its credit.
    operator = cast[Role.WHEEL_OPERATOR]
    with pytest.raises(ValidationError, match=f"{open_table} is dealt by a dealer; {operator} is not one"):
        services.start_dealer_shift(acting_user=shift_manager.user, table=open_table, dealer=operator)
    with pytest.raises(ValidationError, match=f"you are not on shift at {open_table}"):
        services.prepare_credit(acting_user=operator.user, table=open_table, chips=FILL)
    with pytest.raises(ValidationError, match="nobody is on shift"):
        services.prepare_credit(acting_user=cast[Role.PIT_BOSS].user, table=open_table, chips=FILL)
    assert not Slip.objects.exists()


@pytest.mark.parametrize("role", [Role.PIT_BOSS, Role.SHIFT_MANAGER])
def test_a_supervisor_prepares_a_credit_for_any_table_with_the_dealers_initials(dealer_shift, wheel, cast, role):
    for table, signer, signed_as in (
        (dealer_shift.table, Role.DEALER, "dealer"),
        (wheel, Role.WHEEL_OPERATOR, "wheel_operator"),
    ):
        slip = services.prepare_credit(acting_user=cast[role].user, table=table, chips=FILL)
        assert (slip.prepared_as, slip.signed_by, slip.signed_as) == (role, cast[signer], signed_as)


def test_a_supervisor_prepares_no_credit_where_nobody_deals(open_table, cast):
    with pytest.raises(ValidationError, match="nobody is on shift"):
        services.prepare_credit(acting_user=cast[Role.PIT_BOSS].user, table=open_table, chips=FILL)


def test_a_pit_boss_who_also_deals_prepares_for_any_table(dealer_shift, cast, site):
    boss = cast[Role.PIT_BOSS]
    Membership.objects.create(employee=boss, site=site, role=Role.DEALER)
    slip = services.prepare_credit(acting_user=boss.user, table=dealer_shift.table, chips=FILL)
    assert slip.prepared_as == "pit_boss"


# --- 08-05(6): who receives the credit copy ------------------------------------------------------


def test_a_dealer_not_dealing_receives_a_credit_acting_as_cashier(dealer_shift, cast, org, site):
    credit = services.prepare_credit(acting_user=cast[Role.DEALER].user, table=dealer_shift.table, chips=FILL)
    services.verify_slip(acting_user=cast[Role.PIT_BOSS].user, slip=credit)
    spare = make_person(org, Role.DEALER, site)
    step = services.receive_slip(acting_user=spare.user, slip=credit)
    assert (step.signed_as, step.initials) == ("dealer_as_cashier", spare.initials)


def test_the_preparer_never_receives_their_own_slip_whatever_roles_they_hold(dealer_shift, cast, org, site):
    """The receiving side verifies the copy (08-05(6)): a pit boss who is also the cashier, or who is
    seated as the table's dealer, is refused their own credit's or fill's receipt, at `slip`,
    through the API as well, and the slip stays unreceived."""
    boss = make_person(org, Role.PIT_BOSS, site)
    Membership.objects.create(employee=boss, site=site, role=Role.CASHIER)
    credit = services.prepare_credit(acting_user=boss.user, table=dealer_shift.table, chips=FILL)
    services.verify_slip(acting_user=cast[Role.SHIFT_MANAGER].user, slip=credit)
    own = "ND 99-01.3-08-05(6): the preparer cannot receive their own slip; the receiving side verifies it."
    with pytest.raises(ValidationError) as caught:
        services.receive_slip(acting_user=boss.user, slip=credit)
    assert caught.value.message_dict == {"slip": [own]}
    assert not credit.steps.filter(kind=SlipStep.Kind.RECEIVE).exists()
    assert services.receive_slip(acting_user=cast[Role.CASHIER].user, slip=credit).signed_as == "cashier"


def test_the_api_refuses_a_preparer_receiving_their_own_fill_at_slip(
    open_table, cast, org, site, shift_manager, client_for
):
    seated = make_person(org, Role.PIT_BOSS, site)
    Membership.objects.create(employee=seated, site=site, role=Role.DEALER)
    services.start_dealer_shift(acting_user=shift_manager.user, table=open_table, dealer=seated)
    fill = services.prepare_fill(acting_user=seated.user, table=open_table, chips=FILL, cashier=cast[Role.CASHIER])
    services.verify_slip(acting_user=shift_manager.user, slip=fill)
    response = client_for(seated).post(f"/api/v1/fill-slips/{fill.pk}/receive/", {}, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["slip"] == [
        "ND 99-01.3-08-05(6): the preparer cannot receive their own slip; the receiving side verifies it."
    ]
    assert not fill.steps.filter(kind=SlipStep.Kind.RECEIVE).exists()


def test_each_step_records_the_capacity_its_signer_acted_in(dealer_shift, cast, shift_manager):
    fill = services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=dealer_shift.table, chips=FILL)
    verify = services.verify_slip(acting_user=shift_manager.user, slip=fill)
    receive = services.receive_slip(acting_user=cast[Role.DEALER].user, slip=fill)
    assert (verify.signed_as, receive.signed_as) == ("shift_manager", "dealer")
    other = services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=dealer_shift.table, chips=FILL)
    assert services.verify_slip(acting_user=cast[Role.PIT_BOSS].user, slip=other).signed_as == "pit_boss"
    void = services.void_slip(acting_user=cast[Role.CASHIER].user, slip=other, reason="typo")
    assert void.signed_as == "cashier"


# --- 08-05(5): verification if someone eligible is on duty --------------------------------------


def _past(minutes):
    return timezone.now() - timedelta(minutes=minutes)


def test_without_a_duty_register_the_shift_manager_who_opened_the_day_is_on_duty(fill, dealer_shift, cast):
    with pytest.raises(ValidationError) as caught:
        services.receive_slip(acting_user=cast[Role.DEALER].user, slip=fill)
    message = caught.value.message_dict["slip"][0]
    assert message.startswith("ND 99-01.3-08-05(5): fill slip 1 must be verified before it is received")
    assert str(cast[Role.SHIFT_MANAGER]) in message


def test_with_nobody_eligible_on_duty_the_slip_is_received_unverified_and_says_so(
    day_under_way, fill, dealer_shift, cast, shift_manager, site
):
    period = services.start_duty(acting_user=shift_manager.user, site=site, at=_past(30))
    services.end_duty(acting_user=shift_manager.user, period=period, at=_past(10))
    with pytest.raises(ValidationError) as caught:
        services.receive_slip(acting_user=cast[Role.DEALER].user, slip=fill)
    assert caught.value.message_dict["unverified_reason"][0].startswith(
        "ND 99-01.3-08-05(5): nobody who could verify is on duty; receiving unverified is an exception: say why"
    )
    step = services.receive_slip(acting_user=cast[Role.DEALER].user, slip=fill, unverified_reason="Boss at the cage.")
    assert step.reason == f"{rules.unverified_note(fill.site)} Reason: Boss at the cage."
    assert "ND 99-01.3-08-05(5)" in step.reason
    assert Slip.objects.get(pk=fill.pk).status == "received"
    assert not SlipStep.objects.filter(slip=fill, kind="verify").exists()


def test_a_pit_boss_on_duty_and_not_dealing_makes_verification_required(day_under_way, fill, dealer_shift, cast, site):
    boss = cast[Role.PIT_BOSS]
    services.start_duty(acting_user=boss.user, site=site, at=_past(5))
    with pytest.raises(ValidationError, match=f"verified before it is received; {boss} is on duty"):
        services.receive_slip(acting_user=cast[Role.DEALER].user, slip=fill)


def test_someone_on_duty_but_presently_dealing_does_not_count(
    day_under_way, fill, dealer_shift, cast, site, shift_manager
):
    boss = cast[Role.PIT_BOSS]
    Membership.objects.create(employee=boss, site=site, role=Role.DEALER)
    services.start_duty(acting_user=boss.user, site=site, at=_past(5))
    second = TableFactory(site=site, number=2)
    services.start_dealer_shift(acting_user=shift_manager.user, table=second, dealer=boss)
    step = services.receive_slip(acting_user=cast[Role.DEALER].user, slip=fill, unverified_reason="Boss dealing.")
    assert step.reason == f"{rules.unverified_note(fill.site)} Reason: Boss dealing."


def test_the_preparer_on_duty_alone_does_not_count(day_under_way, open_table, dealer_shift, cast, site):
    boss = cast[Role.PIT_BOSS]
    services.start_duty(acting_user=boss.user, site=site, at=_past(5))
    fill = services.prepare_fill(acting_user=boss.user, table=open_table, chips=FILL, cashier=cast[Role.CASHIER])
    step = services.receive_slip(acting_user=cast[Role.DEALER].user, slip=fill, unverified_reason="Only the preparer.")
    assert rules.is_unverified_note(step.reason)


def test_duty_ending_at_the_moment_of_receipt_is_off_duty_then(
    day_under_way, fill, cast, site, shift_manager, open_table
):
    from floor import queries

    services.start_dealer_shift(
        acting_user=shift_manager.user, table=open_table, dealer=cast[Role.DEALER], started_at=_past(60)
    )
    boss = cast[Role.PIT_BOSS]
    period = services.start_duty(acting_user=boss.user, site=site, at=_past(30))
    # After the fill was prepared (now): a step is never dated before its slip; inside the clock tolerance.
    moment = timezone.now() + timedelta(minutes=2)
    services.end_duty(acting_user=boss.user, period=period, at=moment)
    before = moment - timedelta(microseconds=1)
    assert queries.verifiers_on_duty(site, before, rules.VERIFIERS) == [boss]
    assert queries.verifiers_on_duty(site, moment, rules.VERIFIERS) == []
    with pytest.raises(ValidationError, match="verified before"):
        services.receive_slip(acting_user=cast[Role.DEALER].user, slip=fill, at=before)
    assert services.receive_slip(acting_user=cast[Role.DEALER].user, slip=fill, at=moment).reason
    assert Slip.objects.get(pk=fill.pk).status == "received"


def test_a_duty_period_entered_later_may_not_undo_an_unverified_receipt(
    day_under_way, fill, dealer_shift, cast, shift_manager, site
):
    """The receipt was judged on the register as it stood: nobody who could verify on duty. A pit
    boss's period entered afterwards from paper, running at that receipt, contradicts it: its
    sign-out after the receipt is refused at `at` (ND 99-01.3-08-05(5)), naming the slip; signed
    out by the receipt, it stands."""
    period = services.start_duty(acting_user=shift_manager.user, site=site, at=_past(30))
    services.end_duty(acting_user=shift_manager.user, period=period, at=_past(10))
    step = services.receive_slip(acting_user=cast[Role.DEALER].user, slip=fill, unverified_reason="Boss at the cage.")
    boss = cast[Role.PIT_BOSS]
    late = services.start_duty(acting_user=shift_manager.user, site=site, employee=boss, at=_past(8))
    with pytest.raises(ValidationError) as caught:
        services.end_duty(acting_user=shift_manager.user, period=late, at=timezone.now())
    message = caught.value.message_dict["at"][0]
    assert message.startswith("ND 99-01.3-08-05(5): fill slip 1 was received unverified at "), message
    assert f"{boss} on duty until" in message and "End it by" in message
    late.refresh_from_db()
    assert late.ended_at is None
    assert services.end_duty(acting_user=shift_manager.user, period=late, at=step.at).ended_at == step.at


def _later_shift_ended_now(shift_manager, site, dealer):
    """`dealer` seated at a second table from paper 20 minutes ago, then ended now: the shift and
    the refusal of its end at `ended_at`."""
    second = TableFactory(site=site, number=2)
    services.record_table_inventory(acting_user=shift_manager.user, table=second, kind="opener", chips=TRAY)
    late = services.start_dealer_shift(
        acting_user=shift_manager.user, table=second, dealer=dealer, started_at=_past(20)
    )
    with pytest.raises(ValidationError) as caught:
        services.end_dealer_shift(acting_user=shift_manager.user, shift=late, ended_at=timezone.now())
    return late, caught.value.message_dict["ended_at"][0]


def test_a_dealer_shift_entered_later_may_not_have_a_verifier_dealing_when_they_verified(
    day_under_way, fill, dealer_shift, cast, shift_manager, site
):
    """ND 99-01.3-08-05(5): the verifier is "not presently dealing", judged on the shifts recorded
    when they verified. A shift of theirs entered afterwards from paper, running at the verification,
    contradicts it: its end after the verification is refused at `ended_at`, naming the slip; ended
    by the verification, it stands."""
    boss = cast[Role.PIT_BOSS]
    Membership.objects.create(employee=boss, site=site, role=Role.DEALER)
    step = services.verify_slip(acting_user=boss.user, slip=fill)
    late, message = _later_shift_ended_now(shift_manager, site, boss)
    assert message.startswith(f"ND 99-01.3-08-05(5): {boss} verified fill slip 1 at "), message
    assert "not presently dealing" in message and "End it by" in message
    late.refresh_from_db()
    assert late.ended_at is None
    assert services.end_dealer_shift(acting_user=shift_manager.user, shift=late, ended_at=step.at).ended_at == step.at


def test_a_dealer_shift_entered_later_may_not_have_a_dealer_dealing_when_they_initialled_as_cashier(
    day_under_way, open_table, dealer_shift, cast, org, site, shift_manager
):
    """ND 99-01.3-08-05(3)(c): a dealer initials a fill acting as cashier only when not dealing; a
    shift of theirs entered afterwards from paper, running at the fill, is refused where it ends."""
    spare = make_person(org, Role.DEALER, site)
    slip = services.prepare_fill(acting_user=cast[Role.PIT_BOSS].user, table=open_table, chips=FILL, cashier=spare)
    _, message = _later_shift_ended_now(shift_manager, site, spare)
    assert message.startswith(f"ND 99-01.3-08-05(3)(c): {spare} initialled fill slip {slip.number} at "), message
    assert "acting as cashier" in message


def test_a_dealers_shift_does_not_end_before_a_fill_they_received_as_the_tables_dealer(
    day_under_way, open_table, cast, org, site, shift_manager
):
    """ND 99-01.3-08-05(6): the dealer on shift at the table receives its fill. A rotation or relief
    entered later from paper at an earlier time would leave the fill received by someone not on
    shift there: refused where the shift would end (`ended_at`, or the relief's `started_at`),
    naming the fill; at the receipt or after, it ends."""
    dealer = cast[Role.DEALER]
    shift = services.start_dealer_shift(
        acting_user=shift_manager.user, table=open_table, dealer=dealer, started_at=_past(30)
    )
    fill = services.prepare_fill(acting_user=cast[Role.CASHIER].user, table=open_table, chips=FILL)
    services.verify_slip(acting_user=shift_manager.user, slip=fill)
    received = services.receive_slip(acting_user=dealer.user, slip=fill)
    with pytest.raises(ValidationError) as caught:
        services.end_dealer_shift(acting_user=shift_manager.user, shift=shift, ended_at=_past(10))
    message = caught.value.message_dict["ended_at"][0]
    assert message.startswith(f"ND 99-01.3-08-05(6): {dealer} received fill slip {fill.number} at "), message
    assert f"as the dealer on shift at table {open_table.number}" in message
    relief = make_person(org, Role.DEALER, site)
    with pytest.raises(ValidationError) as caught:
        services.start_dealer_shift(
            acting_user=shift_manager.user, table=open_table, dealer=relief, started_at=_past(10)
        )
    assert "received fill slip" in caught.value.message_dict["started_at"][0]
    shift.refresh_from_db()
    assert shift.ended_at is None
    ended = services.end_dealer_shift(acting_user=shift_manager.user, shift=shift, ended_at=received.at)
    assert ended.ended_at == received.at


@pytest.mark.parametrize("role", [Role.DEALER, Role.CASHIER, Role.COUNT_TEAM, Role.AUDITOR, Role.WHEEL_OPERATOR])
def test_only_a_shift_manager_or_pit_boss_signs_in_on_duty(gaming_day, cast, site, role):
    with pytest.raises(PermissionDenied, match="ND 99-01.3-08-05\\(5\\)"):
        services.start_duty(acting_user=cast[role].user, site=site)


def test_a_pit_boss_does_not_sign_someone_else_in_but_a_shift_manager_may(gaming_day, cast, site, shift_manager):
    with pytest.raises(PermissionDenied):
        services.start_duty(acting_user=cast[Role.PIT_BOSS].user, site=site, employee=shift_manager)
    period = services.start_duty(acting_user=shift_manager.user, site=site, employee=cast[Role.PIT_BOSS])
    assert (period.employee, period.role, period.recorded_by) == (cast[Role.PIT_BOSS], "pit_boss", shift_manager)
    with pytest.raises(ValidationError, match="already on duty"):
        services.start_duty(acting_user=cast[Role.PIT_BOSS].user, site=site)
    with pytest.raises(ValidationError, match="is not an active shift manager or pit boss"):
        services.start_duty(acting_user=shift_manager.user, site=site, employee=cast[Role.DEALER])


# --- The slip PDF labels each set of initials with the capacity that signed ---------------------


def test_the_pdf_labels_each_signature_with_the_capacity_that_signed(open_table, dealer_shift, cast, org, site):
    fill = services.prepare_fill(
        acting_user=cast[Role.PIT_BOSS].user, table=open_table, chips=FILL, cashier=cast[Role.CASHIER]
    )
    services.verify_slip(acting_user=cast[Role.SHIFT_MANAGER].user, slip=fill)
    services.receive_slip(acting_user=cast[Role.DEALER].user, slip=fill)
    roles = {s.role: s.initials for s in build_slip_document(fill).signatures}
    assert roles == {
        "Prepared by: Pit boss": cast[Role.PIT_BOSS].initials,
        "Initials (08-05(3)(c)): Chip bank cashier": cast[Role.CASHIER].initials,
        "Verified by (original): Shift manager": cast[Role.SHIFT_MANAGER].initials,
        "Received (copy): Dealer": cast[Role.DEALER].initials,
    }


def test_the_pdf_of_an_unverified_slip_says_why(day_under_way, fill, dealer_shift, cast, shift_manager, site):
    period = services.start_duty(acting_user=shift_manager.user, site=site, at=_past(30))
    services.end_duty(acting_user=shift_manager.user, period=period, at=_past(10))
    services.receive_slip(acting_user=cast[Role.DEALER].user, slip=fill, unverified_reason="Boss at the cage.")
    document = build_slip_document(fill)
    verify = next(s for s in document.signatures if s.role.startswith("Verified"))
    assert verify.initials == "" and verify.name == f"{rules.unverified_note(fill.site)} Reason: Boss at the cage."
    pages = PdfReader(io.BytesIO(render_slip_pdf(document))).pages
    assert len(pages) == 1  # both parts still fit one page
    assert "Not verified: no shift manager" in " ".join(pages[0].extract_text().split())


# --- The pages --------------------------------------------------------------------------------

GRID = {"qty_2500": "20", "qty_500": "20", "purpose": "regular"}


def test_a_pit_boss_names_the_cashier_on_the_fill_page_and_the_slip_shows_each_capacity(
    client, open_table, dealer_shift, cast
):
    client.force_login(cast[Role.PIT_BOSS].user)
    form = client.get("/floor/slips/new/fill/").content.decode()
    assert 'id="id_cashier"' in form and cast[Role.CASHIER].initials in form
    refused = client.post("/floor/slips/new/fill/", {**GRID, "table": open_table.pk})
    assert refused.status_code == 400 and "ND 99-01.3-08-05(3)(c)" in refused.content.decode()
    response = client.post("/floor/slips/new/fill/", {**GRID, "table": open_table.pk, "cashier": cast[Role.CASHIER].pk})
    slip = Slip.objects.get()
    assert response.status_code == 302 and (slip.signed_by, slip.signed_as) == (cast[Role.CASHIER], "cashier")
    text = client.get(f"/floor/slips/{slip.pk}/").content.decode()
    assert "(Pit boss)" in text and 'id="slip-initials"' in text and "(Chip bank cashier; 08-05(3)(c))" in text


def test_the_credit_page_has_no_cashier_field(client, dealer_shift, cast):
    client.force_login(cast[Role.DEALER].user)
    assert 'id="id_cashier"' not in client.get("/floor/slips/new/credit/").content.decode()


def test_the_slip_page_offers_receipt_of_an_issued_slip_only_when_nobody_can_verify(
    day_under_way, client, fill, dealer_shift, cast, shift_manager, site
):
    client.force_login(cast[Role.DEALER].user)
    assert 'id="receive"' not in client.get(f"/floor/slips/{fill.pk}/").content.decode()
    period = services.start_duty(acting_user=shift_manager.user, site=site, at=_past(30))
    services.end_duty(acting_user=shift_manager.user, period=period, at=_past(10))
    assert 'id="receive"' in client.get(f"/floor/slips/{fill.pk}/").content.decode()
    refused = client.post(f"/floor/slips/{fill.pk}/receive/")
    assert refused.status_code == 400 and "receiving unverified is an exception: say why" in refused.content.decode()
    reason = {"unverified_reason": "The pit boss was at the cage."}
    assert client.post(f"/floor/slips/{fill.pk}/receive/", reason).status_code == 302
    text = client.get(f"/floor/slips/{fill.pk}/").content.decode()
    assert 'id="receipt-note"' in text and "ND 99-01.3-08-05(5)" in text
    assert "Reason: The pit boss was at the cage." in text


# --- The duty register through the API ---------------------------------------------------------


def test_the_duty_register_through_the_api(client_for, gaming_day, cast, site, shift_manager):
    response = client_for(cast[Role.DEALER]).post("/api/v1/duty-periods/", {"site": site.pk}, format="json")
    assert response.status_code == 403 and "ND 99-01.3-08-05(5)" in response.json()["detail"]
    response = client_for(shift_manager).post(
        "/api/v1/duty-periods/", {"site": site.pk, "employee": cast[Role.DEALER].pk}, format="json"
    )
    assert response.status_code == 400 and "ND 99-01.3-08-05(5)" in response.json()["employee"][0]
    response = client_for(cast[Role.PIT_BOSS]).post("/api/v1/duty-periods/", {"site": site.pk}, format="json")
    assert response.status_code == 201 and response.json()["role"] == "pit_boss"
    ended = client_for(cast[Role.PIT_BOSS]).post(f"/api/v1/duty-periods/{response.json()['id']}/end/", format="json")
    assert ended.status_code == 200 and ended.json()["ended_at"]
    again = client_for(cast[Role.PIT_BOSS]).post(f"/api/v1/duty-periods/{response.json()['id']}/end/", format="json")
    assert again.status_code == 400 and "already signed out" in again.json()["at"][0]


def test_the_slip_api_takes_the_fills_cashier_and_shows_each_capacity(client_for, dealer_shift, cast):
    table = dealer_shift.table
    pit_boss = client_for(cast[Role.PIT_BOSS])
    missing = pit_boss.post("/api/v1/fill-slips/", {"table": table.pk, "chips": FILL}, format="json")
    assert missing.status_code == 400 and missing.json()["cashier"][0].startswith("ND 99-01.3-08-05(3)(c)")
    body = {"table": table.pk, "chips": FILL, "cashier": cast[Role.CASHIER].pk}
    fill = pit_boss.post("/api/v1/fill-slips/", body, format="json").json()
    assert (fill["prepared_as"], fill["signed_by"], fill["signed_as"]) == ("pit_boss", cast[Role.CASHIER].pk, "cashier")
    credit = pit_boss.post("/api/v1/credit-slips/", body, format="json")
    assert credit.status_code == 400 and "carries the initials of the dealer" in credit.json()["cashier"][0]
    credit = pit_boss.post("/api/v1/credit-slips/", {"table": table.pk, "chips": FILL}, format="json").json()
    assert (credit["signed_by"], credit["signed_as"]) == (cast[Role.DEALER].pk, "dealer")
    verified = client_for(cast[Role.SHIFT_MANAGER]).post(f"/api/v1/credit-slips/{credit['id']}/verify/", format="json")
    assert verified.json()["verified_as"] == "shift_manager"
    received = client_for(cast[Role.CASHIER]).post(f"/api/v1/credit-slips/{credit['id']}/receive/", format="json")
    assert (received.json()["received_as"], received.json()["receipt_note"]) == ("cashier", "")
