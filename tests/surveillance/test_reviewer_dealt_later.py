"""ND 99-01.3-08-04(9): the review of a shift's video "must be completed by an individual who did not
conduct twenty-one or paddlewheel at the site on the shift selected for review". The reviewer is
judged when the review is recorded; a dealer shift of theirs recorded afterwards (entered later
from paper) that starts in the shift reviewed, or starts before it and ends in or after its start,
is refused too (`floor.seating`), rather than leaving a review by someone who dealt on the shift."""

from datetime import date

import pytest
import time_machine
from django.core.exceptions import ValidationError

from cardroom.models import Membership, Role
from floor import services as floor
from floor.models import DealerShift
from surveillance import services
from tests.factories import TableFactory, make_person

from .conftest import local

DAY = date(2026, 4, 6)  # a Monday, the program's first day
TRAY = [{"denomination": 2500, "quantity": 40}, {"denomination": 500, "quantity": 160}]


@pytest.fixture
def reviewer(org, site):
    """A shift manager who also deals at the site."""
    person = make_person(org, Role.SHIFT_MANAGER, site)
    Membership.objects.create(employee=person, site=site, role=Role.DEALER)
    return person


@pytest.fixture
def review(manager, shift_manager, reviewer, site, table, chips):
    """DAY open at `site`, table 1 opened at 17:00; the reviewer, who dealt nothing, reviews the
    video of table 1 from 20:00 to 21:00 of its shift 18:00-02:00."""
    with time_machine.travel(local(2026, 4, 5, 12), tick=False):
        program = services.open_review_program(manager.user, site, DAY, "Q1 hold 7.2% (below 10%)")
    with time_machine.travel(local(2026, 4, 6, 17), tick=False):
        floor.open_gaming_day(acting_user=shift_manager.user, site=site, gaming_date=DAY)
        floor.record_table_inventory(acting_user=shift_manager.user, table=table, kind="opener", chips=TRAY)
    return services.record_review_entry(
        acting_user=manager.user,
        task=program.tasks.get(week=1, table=table),
        gaming_date=DAY,
        reviewer=reviewer,
        findings="Procedures followed",
        shift_started_at=local(2026, 4, 6, 18),
        shift_ended_at=local(2026, 4, 7, 2),
        footage_start_at=local(2026, 4, 6, 20),
        footage_end_at=local(2026, 4, 6, 21),
    )


def seat(shift_manager, table, dealer, started_at):
    return floor.start_dealer_shift(acting_user=shift_manager.user, table=table, dealer=dealer, started_at=started_at)


def assert_names_the_review(message, reviewer):
    assert message.startswith("ND 99-01.3-08-04(9):"), message
    assert f"{reviewer} reviewed the video of" in message and "2026-04-06 18:00 to 2026-04-07 02:00" in message
    assert "the review must be done by someone who did not" in message


def test_seating_the_reviewer_in_the_shift_reviewed_is_refused(review, shift_manager, reviewer, table):
    with pytest.raises(ValidationError) as refused:
        seat(shift_manager, table, reviewer, local(2026, 4, 6, 19))
    assert list(refused.value.message_dict) == ["dealer"]
    assert_names_the_review(refused.value.message_dict["dealer"][0], reviewer)
    assert "seating them at 2026-04-06 19:00" in refused.value.message_dict["dealer"][0]
    assert not DealerShift.objects.filter(dealer=reviewer).exists()


def test_the_reviewer_is_refused_at_any_table_of_the_site(review, shift_manager, reviewer, site, table, chips):
    other = TableFactory(site=site, number=2)
    with time_machine.travel(local(2026, 4, 6, 17, 30), tick=False):
        floor.record_table_inventory(acting_user=shift_manager.user, table=other, kind="opener", chips=TRAY)
    with pytest.raises(ValidationError) as refused:
        seat(shift_manager, other, reviewer, local(2026, 4, 6, 18))  # the shift reviewed starts at 18:00: included
    assert_names_the_review(refused.value.message_dict["dealer"][0], reviewer)
    assert not DealerShift.objects.filter(dealer=reviewer).exists()


def test_seating_the_reviewer_through_the_api_is_a_400_at_dealer(review, client_for, shift_manager, reviewer, table):
    response = client_for(shift_manager).post(
        "/api/v1/dealer-shifts/",
        {"table": table.pk, "dealer": reviewer.pk, "started_at": local(2026, 4, 6, 23).isoformat()},
        format="json",
    )
    assert response.status_code == 400, response.json()
    assert_names_the_review(response.json()["dealer"][0], reviewer)
    assert not DealerShift.objects.filter(dealer=reviewer).exists()


def test_the_reviewer_is_seated_before_the_shift_reviewed_and_ends_by_its_start(review, shift_manager, reviewer, table):
    shift = seat(shift_manager, table, reviewer, local(2026, 4, 6, 17))
    ended = floor.end_dealer_shift(acting_user=shift_manager.user, shift=shift, ended_at=local(2026, 4, 6, 18))
    assert ended.ended_at == local(2026, 4, 6, 18)


def test_the_reviewer_is_seated_after_the_shift_reviewed(review, shift_manager, reviewer, table):
    """The open day runs to 06:00; the shift reviewed ended at 02:00."""
    assert seat(shift_manager, table, reviewer, local(2026, 4, 7, 2)).dealer == reviewer


def test_a_shift_from_before_the_shift_reviewed_ending_in_it_is_refused_at_ended_at(
    review, shift_manager, reviewer, table
):
    shift = seat(shift_manager, table, reviewer, local(2026, 4, 6, 17))
    with pytest.raises(ValidationError) as refused:
        floor.end_dealer_shift(acting_user=shift_manager.user, shift=shift, ended_at=local(2026, 4, 6, 18, 1))
    assert list(refused.value.message_dict) == ["ended_at"]
    message = refused.value.message_dict["ended_at"][0]
    assert_names_the_review(message, reviewer)
    assert "from 2026-04-06 17:00 ending at 2026-04-06 18:01" in message
    shift.refresh_from_db()
    assert shift.ended_at is None


def test_relieving_the_reviewer_in_the_shift_reviewed_is_refused_at_started_at(
    review, shift_manager, reviewer, dealer, table
):
    """Seating the next dealer ends the reviewer's shift at that moment."""
    shift = seat(shift_manager, table, reviewer, local(2026, 4, 6, 17))
    with pytest.raises(ValidationError) as refused:
        seat(shift_manager, table, dealer, local(2026, 4, 6, 19))
    assert list(refused.value.message_dict) == ["started_at"]
    assert_names_the_review(refused.value.message_dict["started_at"][0], reviewer)
    shift.refresh_from_db()
    assert shift.ended_at is None and not DealerShift.objects.filter(dealer=dealer).exists()


def test_a_review_corrected_to_another_reviewer_no_longer_refuses(review, manager, shift_manager, reviewer, table):
    services.record_review_entry(
        acting_user=manager.user,
        task=review.task,
        gaming_date=DAY,
        reviewer=manager,
        findings="Procedures followed",
        shift_started_at=review.shift_started_at,
        shift_ended_at=review.shift_ended_at,
        footage_start_at=review.footage_start_at,
        footage_end_at=review.footage_end_at,
        corrects=review,
    )
    assert seat(shift_manager, table, reviewer, local(2026, 4, 6, 19)).dealer == reviewer


def test_another_dealer_is_seated_in_the_shift_reviewed(review, shift_manager, dealer, table):
    assert seat(shift_manager, table, dealer, local(2026, 4, 6, 19)).started_at == local(2026, 4, 6, 19)


def test_the_shift_reviewed_is_widened_by_the_tables_recorded_shifts_as_at_the_review(
    review, shift_manager, reviewer, dealer, site, table
):
    """The review is judged on the dealer shifts recorded at its table during the footage as well as
    on the times typed in (`_reviewed_window`); so is a shift of the reviewer entered later. The
    table's dealer ran 17:30 to 03:00 through the footage (20:00-21:00): the shift reviewed, typed
    18:00-02:00, ran 17:30 to 03:00."""
    relief = seat(shift_manager, table, dealer, local(2026, 4, 6, 17, 30))
    floor.end_dealer_shift(acting_user=shift_manager.user, shift=relief, ended_at=local(2026, 4, 7, 3))
    other = TableFactory(site=site, number=2)
    with time_machine.travel(local(2026, 4, 6, 17), tick=False):
        floor.record_table_inventory(acting_user=shift_manager.user, table=other, kind="opener", chips=TRAY)

    with pytest.raises(ValidationError) as refused:
        seat(shift_manager, other, reviewer, local(2026, 4, 7, 2, 30))  # after the typed end, before the recorded
    message = refused.value.message_dict["dealer"][0]
    assert_names_the_review(message, reviewer)
    assert (
        "the table's dealer shifts recorded during the footage run it from 2026-04-06 17:30 to 2026-04-07 03:00"
        in message
    )

    early = seat(shift_manager, other, reviewer, local(2026, 4, 6, 17))
    with pytest.raises(ValidationError) as refused:  # before the typed start, into the recorded one
        floor.end_dealer_shift(acting_user=shift_manager.user, shift=early, ended_at=local(2026, 4, 6, 17, 45))
    assert refused.value.message_dict["ended_at"][0].endswith("End it by 2026-04-06 17:30.")
    ended = floor.end_dealer_shift(acting_user=shift_manager.user, shift=early, ended_at=local(2026, 4, 6, 17, 30))
    assert ended.ended_at == local(2026, 4, 6, 17, 30)
    assert seat(shift_manager, other, reviewer, local(2026, 4, 7, 3)).dealer == reviewer  # after the recorded end
