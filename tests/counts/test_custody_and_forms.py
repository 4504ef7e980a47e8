"""Custody of the boxes (ND 99-01.3-08-14(1), (3)), forms found against slips issued, and the
gaming-employee branch of the team rule against real dealer shifts."""

from datetime import timedelta

import pytest
import time_machine
from django.core.exceptions import ValidationError

from cardroom.models import Role
from counts import queries, services
from counts.models import CountSession, Drop, DropRemoval
from floor import services as accounting
from tests.factories import make_person

from .conftest import AFTER_CLOSE, COUNT_TIME, EVENING, GAMING_DATE, cash, remove_box

TRAY = [{"denomination": 2500, "quantity": 40}, {"denomination": 500, "quantity": 160}]
CHIPS = [{"denomination": 2500, "quantity": 4}]


@pytest.fixture
def floor(site, tables, chips, shift_manager, cast):
    """Gaming day GAMING_DATE at `site`: table 1 opened, a dealer on it, two fills and a credit,
    a third fill voided."""
    with time_machine.travel(EVENING, tick=False):
        accounting.open_gaming_day(acting_user=shift_manager.user, site=site, gaming_date=GAMING_DATE)
        accounting.record_table_inventory(acting_user=shift_manager.user, table=tables[0], kind="opener", chips=TRAY)
        shift = accounting.start_dealer_shift(acting_user=shift_manager.user, table=tables[0], dealer=cast[Role.DEALER])
        cashier = cast[Role.CASHIER].user
        fills = [accounting.prepare_fill(acting_user=cashier, table=tables[0], chips=CHIPS) for _ in range(3)]
        credit = accounting.prepare_credit(acting_user=shift_manager.user, table=tables[0], chips=CHIPS)
        accounting.void_slip(acting_user=cashier, slip=fills[2], reason="Wrong table")
    # The dealer leaves the table before its box is removed (AFTER_CLOSE): a dealer still on shift then
    # is an employee on duty, and the shift manager is escorted (ND 99-01.3-08-14(1)).
    shift = accounting.end_dealer_shift(
        acting_user=shift_manager.user, shift=shift, ended_at=AFTER_CLOSE - timedelta(hours=1)
    )
    return {"shift": shift, "fills": fills, "credit": credit}


def _count_both(counters, session, box, forms):
    for member in counters:
        services.record_blind_count(
            acting_user=member.user, session=session, drop_box=box, currency=cash(b20=5), forms=forms, at=COUNT_TIME
        )


def _forms(*slips):
    return [{"kind": s.kind, "number": s.number} for s in slips]


def test_forms_found_match_the_slips_issued_for_the_table_and_day(floor, counters, session, boxes):
    fills, credit = floor["fills"], floor["credit"]
    _count_both(counters, session, boxes[0], _forms(fills[0], fills[1], credit))
    board = queries.box_count(session, Drop.objects.get(drop_box=boxes[0]), counters[0].pk)
    assert board.reconciliation["available"]
    assert board.reconciliation["exceptions"] == []


def test_a_missing_slip_and_an_unexpected_form_stay_exceptions_until_explained(
    floor, counters, session, boxes, shift_manager
):
    fills = floor["fills"]
    _count_both(counters, session, boxes[0], _forms(fills[0]) + [{"kind": "credit", "number": 99}])
    drop = Drop.objects.get(drop_box=boxes[0])
    rec = queries.box_count(session, drop, None).reconciliation
    assert rec["missing"] == [("credit", floor["credit"].number), ("fill", fills[1].number)]
    assert rec["unexpected"] == [("credit", 99)]
    assert ("fill", fills[2].number) not in rec["missing"]  # the voided slip is not expected
    services.explain_forms_exception(
        acting_user=shift_manager.user,
        drop=drop,
        kind="credit",
        number=99,
        explanation="Credit slip from the old book, found stuck; filed.",
    )
    rows = queries.box_count(session, drop, None).reconciliation["exceptions"]
    explained = {(r["kind"], r["number"]): r["explanation"] for r in rows}
    assert explained[("credit", 99)] is not None
    assert explained[("fill", fills[1].number)] is None
    with pytest.raises(ValidationError) as error:
        services.explain_forms_exception(
            acting_user=shift_manager.user, drop=drop, kind="fill", number=fills[0].number, explanation="x"
        )
    assert "not an exception" in str(error.value)


def test_a_box_of_a_table_without_slips_expects_no_forms(floor, counters, session, boxes):
    _count_both(counters, session, boxes[1], [])
    rec = queries.box_count(session, Drop.objects.get(drop_box=boxes[1]), None).reconciliation
    assert rec["available"] and rec["exceptions"] == []


def count_of_the_day(site, opener, partner) -> CountSession:
    """`opener` opens the count of GAMING_DATE's boxes with `partner` at COUNT_TIME."""
    return services.open_count_session(
        acting_user=opener.user, site=site, gaming_date=GAMING_DATE, members=[opener, partner], at=COUNT_TIME
    )


def test_two_gaming_employees_are_refused_when_both_dealt_and_accepted_when_one_did_not(
    floor, org, site, cast, shift_manager, removed
):
    dealer_counter = cast[Role.DEALER]
    from cardroom.models import Membership

    Membership.objects.create(employee=dealer_counter, site=site, role=Role.COUNT_TEAM)
    other_dealer = make_person(org, Role.COUNT_TEAM, site, employment_type="gaming")
    Membership.objects.create(employee=other_dealer, site=site, role=Role.DEALER)
    with time_machine.travel(AFTER_CLOSE - timedelta(minutes=30), tick=False):  # after the first dealer left
        accounting.start_dealer_shift(acting_user=shift_manager.user, table=floor["shift"].table, dealer=other_dealer)
    with pytest.raises(ValidationError) as refused:
        count_of_the_day(site, dealer_counter, other_dealer)
    assert "both did" in str(refused.value) and "ND 99-01.3-08-14(2)" in str(refused.value)
    fresh = make_person(org, Role.COUNT_TEAM, site, employment_type="gaming")
    session = count_of_the_day(site, dealer_counter, fresh)
    assert isinstance(session, CountSession)


def test_a_dealer_shift_entered_after_the_count_opened_cannot_undo_the_teams_independence(
    floor, org, site, cast, shift_manager, removed
):
    """ND 99-01.3-08-14(2): two gaming employees count "provided that one of the gaming employees did
    not conduct games at the same site on the day of the gaming activity and day of the count". The
    team is judged when the count opens; a dealer shift recorded afterwards (entered later from
    paper, or dealt later on the count day) that makes both of them have dealt is refused too, naming
    the count, rather than leaving a count by a team the rule does not allow."""
    dealer_counter = cast[Role.DEALER]  # dealt on GAMING_DATE (the `floor` fixture)
    from cardroom.models import Membership

    Membership.objects.create(employee=dealer_counter, site=site, role=Role.COUNT_TEAM)
    other_dealer = make_person(org, Role.COUNT_TEAM, site, employment_type="gaming")
    Membership.objects.create(employee=other_dealer, site=site, role=Role.DEALER)
    count_of_the_day(site, dealer_counter, other_dealer)
    with pytest.raises(ValidationError) as refused:
        accounting.start_dealer_shift(
            acting_user=shift_manager.user,
            table=floor["shift"].table,
            dealer=other_dealer,
            started_at=EVENING + timedelta(minutes=30),
        )
    message = str(refused.value)
    assert "ND 99-01.3-08-14(2)" in message and "count" in message, message
    assert not floor["shift"].table.dealer_shifts.filter(dealer=other_dealer).exists()


# --- Custody ---------------------------------------------------------------------------------


def test_a_removal_records_transport_escort_storage_and_keys(shift_manager, boxes, counters, cast):
    removal = remove_box(
        shift_manager, boxes[0], counters[0], sole_employee_on_duty=False, escorted_by=cast[Role.PIT_BOSS]
    )
    assert (removal.transported_by, removal.escorted_by, removal.key_holder) == (
        shift_manager,
        cast[Role.PIT_BOSS],
        counters[0],
    )
    assert removal.drop.gaming_date == GAMING_DATE and removal.drop.table == boxes[0].table


@pytest.mark.parametrize(
    "change,field,text",
    [
        ({"sole_employee_on_duty": False}, "escorted_by", "escorted by another employee"),
        ({"storage_place": " "}, "storage_place", "where the box is stored"),
        ({"key_holder": "dealer"}, "key_holder", "ND 99-01.3-08-14(3)"),
        ({"second_key_holder": "counter"}, "second_key_holder", "one lock"),
        ({"gaming_date": None}, "gaming_date", "give the gaming date"),
    ],
)
def test_a_bad_removal_is_refused_and_records_nothing(shift_manager, boxes, counters, cast, change, field, text):
    change = {k: {"dealer": cast[Role.DEALER], "counter": counters[1]}.get(v, v) for k, v in change.items()}
    with pytest.raises(ValidationError) as error:
        remove_box(shift_manager, boxes[0], change.pop("key_holder", counters[0]), **change)
    assert field in error.value.message_dict and text in " ".join(error.value.message_dict[field])
    assert not DropRemoval.objects.exists() and not Drop.objects.exists()


def test_no_escort_is_refused_while_the_duty_register_shows_another_employee_on_duty(
    floor, shift_manager, boxes, counters, cast
):
    """ND 99-01.3-08-14(1): "if there is more than one employee on duty, escorted by an employee". A
    pit boss signed in on the site's duty register at the removal is on duty: the shift manager's word
    that they are the only employee on duty does not stand against it."""
    from floor.services import duty

    with time_machine.travel(EVENING, tick=False):
        duty.start_duty(acting_user=shift_manager.user, site=boxes[0].site, employee=cast[Role.PIT_BOSS])
    with pytest.raises(ValidationError) as error:
        remove_box(shift_manager, boxes[0], counters[0], sole_employee_on_duty=True)
    message = " ".join(error.value.message_dict["escorted_by"])
    assert message.startswith("ND 99-01.3-08-14(1): ") and str(cast[Role.PIT_BOSS]) in message, message
    assert not DropRemoval.objects.exists()
    escorted = remove_box(
        shift_manager, boxes[0], counters[0], sole_employee_on_duty=False, escorted_by=cast[Role.PIT_BOSS]
    )
    assert escorted.escorted_by == cast[Role.PIT_BOSS]


def test_no_escort_is_refused_while_a_dealer_is_still_on_shift(floor, shift_manager, boxes, counters, cast):
    """ND 99-01.3-08-14(1): "the drop box must be transported by the shift manager and, if there is
    more than one employee on duty, escorted by an employee". A dealer whose shift at one of the
    site's tables is running at the removal is on duty, whatever the shift manager says; once the
    shift has ended, they may say they are alone."""
    dealer = cast[Role.DEALER]
    with time_machine.travel(AFTER_CLOSE - timedelta(minutes=30), tick=False):  # seated again after leaving
        shift = accounting.start_dealer_shift(acting_user=shift_manager.user, table=floor["shift"].table, dealer=dealer)
    with pytest.raises(ValidationError) as error:
        remove_box(shift_manager, boxes[0], counters[0], sole_employee_on_duty=True)
    message = " ".join(error.value.message_dict["escorted_by"])
    assert message.startswith("ND 99-01.3-08-14(1): ") and f"show {dealer} on duty" in message, message
    assert not DropRemoval.objects.exists()
    escorted = remove_box(
        shift_manager, boxes[0], counters[0], sole_employee_on_duty=False, escorted_by=cast[Role.PIT_BOSS]
    )
    assert escorted.escorted_by == cast[Role.PIT_BOSS]
    accounting.end_dealer_shift(
        acting_user=shift_manager.user, shift=shift, ended_at=AFTER_CLOSE + timedelta(minutes=10)
    )
    later = AFTER_CLOSE + timedelta(minutes=20)
    assert (
        remove_box(shift_manager, boxes[1], counters[0], removed_at=later, sole_employee_on_duty=True).escorted_by
        is None
    )


def test_a_dealer_shift_entered_later_may_not_run_through_an_unescorted_removal(
    floor, shift_manager, boxes, counters, cast
):
    """ND 99-01.3-08-14(1): the removal is judged on the records as they stand when it is entered;
    a dealer shift entered afterwards from paper that has the dealer dealing at the removal would
    leave a box transported alone with two employees on duty. Its end is refused at `ended_at`,
    naming the removal, and the shift stays open until it ends by the removal."""
    removal = remove_box(shift_manager, boxes[0], counters[0], sole_employee_on_duty=True)
    dealer = cast[Role.DEALER]
    with time_machine.travel(AFTER_CLOSE + timedelta(minutes=30), tick=False):
        shift = accounting.start_dealer_shift(
            acting_user=shift_manager.user,
            table=floor["shift"].table,
            dealer=dealer,
            started_at=AFTER_CLOSE - timedelta(minutes=30),
        )
        with pytest.raises(ValidationError) as error:
            accounting.end_dealer_shift(
                acting_user=shift_manager.user, shift=shift, ended_at=AFTER_CLOSE + timedelta(minutes=10)
            )
        message = " ".join(error.value.message_dict["ended_at"])
        assert message.startswith("ND 99-01.3-08-14(1): ") and str(removal.drop.drop_box) in message, message
        assert "with no escort" in message and f"{dealer} on duty" in message and "End it by" in message
        shift.refresh_from_db()
        assert shift.ended_at is None
        accounting.end_dealer_shift(acting_user=shift_manager.user, shift=shift, ended_at=AFTER_CLOSE)
    shift.refresh_from_db()
    assert shift.ended_at == AFTER_CLOSE


def test_a_duty_period_entered_later_may_not_run_through_an_unescorted_removal(
    floor, shift_manager, boxes, counters, cast
):
    """The same for the duty register: a pit boss signed in from paper before the removal may not be
    signed out after it (refused at `at`, naming the removal); signed out by it, the removal stands.
    The transporter's own duty period is theirs to run through it."""
    from floor.models import DutyPeriod
    from floor.services import duty

    remove_box(shift_manager, boxes[0], counters[0], sole_employee_on_duty=True)
    site = boxes[0].site
    with time_machine.travel(AFTER_CLOSE + timedelta(minutes=30), tick=False):
        period = duty.start_duty(
            acting_user=shift_manager.user,
            site=site,
            employee=cast[Role.PIT_BOSS],
            at=AFTER_CLOSE - timedelta(minutes=30),
        )
        with pytest.raises(ValidationError) as error:
            duty.end_duty(acting_user=shift_manager.user, period=period, at=AFTER_CLOSE + timedelta(minutes=5))
        message = " ".join(error.value.message_dict["at"])
        assert message.startswith("ND 99-01.3-08-14(1): ") and str(cast[Role.PIT_BOSS]) in message, message
        period.refresh_from_db()
        assert period.ended_at is None
        assert duty.end_duty(acting_user=shift_manager.user, period=period, at=AFTER_CLOSE).ended_at == AFTER_CLOSE
        # The shift manager on duty since signing the night's slips transported the box themself.
        own = DutyPeriod.objects.get(site=site, employee=shift_manager, ended_at__isnull=True)
        assert own.started_at < AFTER_CLOSE
        ended = duty.end_duty(acting_user=shift_manager.user, period=own, at=AFTER_CLOSE + timedelta(minutes=20))
        assert ended.ended_at == AFTER_CLOSE + timedelta(minutes=20)


def test_a_box_with_two_locks_has_one_key_per_count_team_member(manager, shift_manager, tables, counters):
    box = services.register_drop_box(acting_user=manager.user, table=tables[0], label="B", locks=2)
    with pytest.raises(ValidationError):
        remove_box(shift_manager, box, counters[0], second_key_holder=counters[0])
    removal = remove_box(shift_manager, box, counters[0], second_key_holder=counters[1])
    assert removal.second_key_holder == counters[1]


def test_a_box_still_holding_cash_is_not_used_again(shift_manager, boxes, counters):
    remove_box(shift_manager, boxes[0], counters[0])
    with pytest.raises(ValidationError) as error:
        services.place_drop_box(
            acting_user=shift_manager.user, drop_box=boxes[0], gaming_date=GAMING_DATE + timedelta(days=1)
        )
    assert "ND 99-01.3-08-14(1)" in error.value.message_dict["box"][0]


def test_a_box_not_removed_by_the_end_of_the_day_is_an_exception(site, shift_manager, boxes, counters):
    with time_machine.travel(EVENING, tick=False):
        services.place_drop_box(acting_user=shift_manager.user, drop_box=boxes[0], gaming_date=GAMING_DATE)
        services.place_drop_box(acting_user=shift_manager.user, drop_box=boxes[1], gaming_date=GAMING_DATE)
    remove_box(shift_manager, boxes[1], counters[0], removed_at=AFTER_CLOSE)
    assert queries.unremoved_drops(site, now=AFTER_CLOSE) == []
    next_morning = AFTER_CLOSE + timedelta(hours=5)
    assert [d.drop_box for d in queries.unremoved_drops(site, now=next_morning)] == [boxes[0]]
    with time_machine.travel(next_morning + timedelta(hours=1), tick=False):
        remove_box(shift_manager, boxes[0], counters[0], removed_at=None)
    assert [r.drop.drop_box for r in queries.late_removals(site)] == [boxes[0]]


@pytest.mark.parametrize("number,ok", [(1, True), (2, False)])
def test_a_drop_box_carries_its_tables_number(manager, tables, number, ok):
    if ok:
        assert services.register_drop_box(acting_user=manager.user, table=tables[0], number=number).number == 1
    else:
        with pytest.raises(ValidationError) as error:
            services.register_drop_box(acting_user=manager.user, table=tables[0], number=number)
        assert "ND 99-01.3-08-02(2)" in error.value.message_dict["number"][0]


def test_a_table_with_a_drop_box_keeps_the_boxs_number(client_for, manager, tables):
    """ND 99-01.3-08-02(2): "a drop box must have a number matching the table number". A box is
    registered with its table's number; renumbering the table afterwards (the API, the setup page and
    the admin all save through the table's validation) would leave the box numbered for another table,
    so it is refused naming the number, and nothing changes."""
    from cardroom.models import Table

    box = services.register_drop_box(acting_user=manager.user, table=tables[0])
    answer = client_for(manager).patch(f"/api/v1/tables/{tables[0].pk}/", {"number": 7}, format="json")
    assert answer.status_code == 400, answer.content
    message = answer.json()["number"][0]
    assert message.startswith("ND 99-01.3-08-02(2): ") and str(box) in message, message
    assert Table.objects.get(pk=tables[0].pk).number == 1


def test_a_dealer_shift_site_names_the_shift_of_each_box(manager, site, floor, shift_manager, boxes, counters):
    from counts.models import BoxExchange

    services.update_count_settings(acting_user=manager.user, site=site, box_exchange=BoxExchange.DEALER_SHIFT)
    with pytest.raises(ValidationError) as error:
        remove_box(shift_manager, boxes[0], counters[0])
    assert "dealer change" in error.value.message_dict["dealer_shift"][0]
    removal = remove_box(shift_manager, boxes[0], counters[0], dealer_shift_id=floor["shift"].pk)
    assert removal.drop.dealer_shift_id == floor["shift"].pk


def test_an_explanation_keeps_the_time_it_was_made_beside_its_entry_time_and_not_before_the_count(
    floor, counters, session, boxes, shift_manager, client_for
):
    from datetime import datetime

    from counts.models import FormsExplanation

    found = _forms(*floor["fills"][:2], floor["credit"]) + [{"kind": "credit", "number": 99}]
    _count_both(counters, session, boxes[0], found)
    url = f"/api/v1/count-sessions/{session.pk}/explanations/"
    body = {"box": boxes[0].pk, "kind": "credit", "number": 99, "explanation": "From the old book; filed."}
    entered = COUNT_TIME + timedelta(hours=6)
    with time_machine.travel(entered, tick=False):
        early = client_for(shift_manager).post(
            url, {**body, "explained_at": (COUNT_TIME - timedelta(minutes=5)).isoformat()}, format="json"
        )
        assert early.status_code == 400
        message = " ".join(early.json()["explained_at"])
        assert message.startswith("House control: a form is explained once the box's count shows it")
        assert "2026-11-14 02:55 CST is before the box's count was agreed (2026-11-14 03:00 CST)" in message
        assert not FormsExplanation.objects.exists()
        explained = COUNT_TIME + timedelta(minutes=20)
        done = client_for(shift_manager).post(url, {**body, "explained_at": explained.isoformat()}, format="json")
    assert done.status_code == 201, done.json()
    row = FormsExplanation.objects.get()
    assert (row.explained_at, row.entered_at, row.entered_late) == (explained, entered, True)
    (box,) = [b for b in done.json()["boxes"] if b["box"] == boxes[0].pk]
    (shown,) = [e for e in box["forms_exceptions"] if e["number"] == 99]
    assert datetime.fromisoformat(shown["explained_at"]) == explained
    assert datetime.fromisoformat(shown["entered_at"]) == entered


@pytest.mark.parametrize("number", ["abc", "", "-99", "１２", "9" * 30])
def test_the_count_pages_explanation_form_answers_an_altered_number_on_its_field(
    floor, counters, session, boxes, shift_manager, number
):
    """The session page's "Explain" form posts the slip's number in a hidden field; an altered one is
    a 400 naming the field and House control, nothing written (it was a 500: int() of what was
    posted), and the form as the page draws it explains the slip."""
    from django.test import Client

    from counts.models import FormsExplanation

    _count_both(
        counters, session, boxes[0], _forms(*floor["fills"][:2], floor["credit"]) + [{"kind": "credit", "number": 99}]
    )
    page = Client()
    page.force_login(shift_manager.user)
    url = f"/counts/sessions/{session.pk}/boxes/{boxes[0].pk}/explain/"
    body = {"kind": "credit", "explanation": "From the old book; filed."}
    with time_machine.travel(COUNT_TIME + timedelta(hours=1), tick=False):
        refused = page.post(url, {**body, "number": number})
        assert refused.status_code == 400
        assert "House control: give the slip&#x27;s printed number." in refused.content.decode()
        assert not FormsExplanation.objects.exists()
        assert page.post(url, {**body, "number": "99"}).status_code == 302
    assert FormsExplanation.objects.get().number == 99


def test_the_count_pages_explanation_form_answers_a_time_it_cannot_read_naming_the_field_and_house_control(
    floor, counters, session, boxes, shift_manager
):
    """The time the paper gives an explanation, written in no form a time is read in: a 400 on
    explained_at under House control (no pack's text says how a time is written), nothing written."""
    from django.test import Client

    from counts.models import FormsExplanation

    _count_both(
        counters, session, boxes[0], _forms(*floor["fills"][:2], floor["credit"]) + [{"kind": "credit", "number": 99}]
    )
    page = Client()
    page.force_login(shift_manager.user)
    url = f"/counts/sessions/{session.pk}/boxes/{boxes[0].pk}/explain/"
    body = {"kind": "credit", "number": "99", "explanation": "From the old book; filed."}
    with time_machine.travel(COUNT_TIME + timedelta(hours=1), tick=False):
        refused = page.post(url, {**body, "explained_at": "after the count"})
    assert refused.status_code == 400
    assert "House control: give a date and time, for example 2026-07-10T19:00." in refused.content.decode()
    assert not FormsExplanation.objects.exists()
