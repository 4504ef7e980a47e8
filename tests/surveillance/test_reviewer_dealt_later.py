"""ND 99-01.3-08-04(9): the review of a shift's video "must be completed by an individual who did not
conduct twenty-one or paddlewheel at the site on the shift selected for review". The reviewer is
judged when the review is recorded; a dealer shift of theirs recorded afterwards (entered later
from paper) that starts in the shift reviewed, or starts before it and ends in or after its start,
is refused too (`floor.seating`), rather than leaving a review by someone who dealt on the shift.

The mirror: the shift reviewed is widened by the table's dealer shifts recorded during the footage, so
another dealer's shift at the reviewed table, seated or ended afterwards (entered later from paper),
can widen it onto a dealer shift the reviewer already has; that shift is refused too, naming the
review, its reviewer and both windows, where the site's pack states the rule (North Dakota's)."""

from datetime import date

import pytest
import time_machine
from django.core.exceptions import ValidationError

from cardroom.models import Membership, Role
from core.models import AuditEvent
from floor import services as floor
from floor.models import DealerShift
from surveillance import queries as surveillance_queries
from surveillance import services
from surveillance.services import review_programs
from tests.factories import TableFactory, make_person
from tests.page_support import page

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
    return record_review(manager, shift_manager, reviewer, site, table)


def record_review(manager, shift_manager, reviewer, site, table):
    """The `review` fixture's review, under whatever pack `site` has."""
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


def review_again(manager, review, reviewer, **changed):
    """Another review entry of `review`'s task and shift by `reviewer`, with `changed` fields."""
    return services.record_review_entry(
        **{
            "acting_user": manager.user,
            "task": review.task,
            "gaming_date": DAY,
            "reviewer": reviewer,
            "findings": "Procedures followed",
            "shift_started_at": review.shift_started_at,
            "shift_ended_at": review.shift_ended_at,
            "footage_start_at": review.footage_start_at,
            "footage_end_at": review.footage_end_at,
            **changed,
        }
    )


def test_a_review_corrected_to_another_reviewer_no_longer_refuses(review, manager, shift_manager, reviewer, table):
    review_again(manager, review, manager, corrects=review)
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


# --- The mirror: another dealer's shift at the reviewed table widens the shift reviewed ---------


def open_table_2(shift_manager, site):
    other = TableFactory(site=site, number=2)
    with time_machine.travel(local(2026, 4, 6, 17), tick=False):
        floor.record_table_inventory(acting_user=shift_manager.user, table=other, kind="opener", chips=TRAY)
    return other


def dealt(shift_manager, table, dealer, started_at, ended_at):
    """A dealer shift recorded at `table` from `started_at` to `ended_at`."""
    shift = seat(shift_manager, table, dealer, started_at)
    return floor.end_dealer_shift(acting_user=shift_manager.user, shift=shift, ended_at=ended_at)


def assert_names_the_widening(message, reviewer, widened, reached):
    """The review (its table, day and typed shift), its reviewer, the shift reviewed as this shift would
    widen it, and the reviewer's shift it reaches."""
    assert message.startswith("ND 99-01.3-08-04(9): "), message
    assert f"{reviewer} reviewed the video of " in message and "on gaming day 2026-04-06" in message
    assert "for the shift from 2026-04-06 18:00 to 2026-04-07 02:00" in message
    assert f"would have the table's dealer shifts run it from {widened}, over {reviewer}'s dealer shift " in message
    assert f" from {reached}: they would have conducted games at " in message
    assert "the review must be done by someone who did not" in message


def test_another_dealers_shift_ended_later_widening_the_review_onto_the_reviewers_shift_is_refused(
    review, shift_manager, reviewer, dealer, site, table
):
    """The reviewer dealt at table 2 from 02:30 to 03:00, after the shift reviewed (18:00-02:00): not on
    it. The table's dealer, seated at 17:30 (entered from paper), ran through the footage; the end of
    their shift at 03:00 would have the shift reviewed run to 03:00, over the reviewer's 02:30."""
    dealt(shift_manager, open_table_2(shift_manager, site), reviewer, local(2026, 4, 7, 2, 30), local(2026, 4, 7, 3))
    relief = seat(shift_manager, table, dealer, local(2026, 4, 6, 17, 30))  # runs the window from 17:30 only
    with pytest.raises(ValidationError) as refused:
        floor.end_dealer_shift(acting_user=shift_manager.user, shift=relief, ended_at=local(2026, 4, 7, 3))
    assert list(refused.value.message_dict) == ["ended_at"]
    message = refused.value.message_dict["ended_at"][0]
    assert_names_the_widening(
        message, reviewer, "2026-04-06 17:30 to 2026-04-07 03:00", "2026-04-07 02:30 to 2026-04-07 03:00"
    )
    # Both windows: as the table's shifts run it now, and as this one would.
    assert "run it from 2026-04-06 17:30 to 2026-04-07 02:00)" in message
    assert f"the shift of {dealer} at that table from 2026-04-06 17:30 ending at 2026-04-07 03:00" in message
    relief.refresh_from_db()
    assert relief.ended_at is None  # nothing changed
    assert not AuditEvent.objects.filter(action="dealer_shift.ended", object_id=str(relief.pk)).exists()


def test_seating_another_dealer_from_paper_widening_the_review_back_onto_the_reviewers_shift_is_refused(
    review, shift_manager, reviewer, dealer, site, table
):
    """The reviewer dealt at table 2 from 17:00 to 17:45, before the shift reviewed. Another dealer
    entered from paper at table 1 from 17:30 runs through the footage: the shift reviewed would start
    at 17:30, inside the reviewer's."""
    dealt(shift_manager, open_table_2(shift_manager, site), reviewer, local(2026, 4, 6, 17), local(2026, 4, 6, 17, 45))
    with pytest.raises(ValidationError) as refused:
        seat(shift_manager, table, dealer, local(2026, 4, 6, 17, 30))
    assert list(refused.value.message_dict) == ["started_at"]
    message = refused.value.message_dict["started_at"][0]
    assert_names_the_widening(
        message, reviewer, "2026-04-06 17:30 to 2026-04-07 02:00", "2026-04-06 17:00 to 2026-04-06 17:45"
    )
    assert f"seating {dealer} at that table at 2026-04-06 17:30, during the footage" in message
    assert "(the table's dealer shifts recorded" not in message  # nothing widens it yet
    assert not DealerShift.objects.filter(table=table).exists()


def test_a_shift_widening_the_review_short_of_the_reviewers_shift_is_recorded(
    review, shift_manager, reviewer, dealer, site, table
):
    """Seated at the end of the reviewer's shift at table 2 (17:45) and ended at the start of their
    next one (02:30), the table's dealer widens the shift reviewed to 17:45-02:30, which reaches
    neither; a minute further each way does."""
    other = open_table_2(shift_manager, site)
    dealt(shift_manager, other, reviewer, local(2026, 4, 6, 17), local(2026, 4, 6, 17, 45))
    dealt(shift_manager, other, reviewer, local(2026, 4, 7, 2, 30), local(2026, 4, 7, 3))

    with pytest.raises(ValidationError):
        seat(shift_manager, table, dealer, local(2026, 4, 6, 17, 44))
    relief = seat(shift_manager, table, dealer, local(2026, 4, 6, 17, 45))
    with pytest.raises(ValidationError):
        floor.end_dealer_shift(acting_user=shift_manager.user, shift=relief, ended_at=local(2026, 4, 7, 2, 31))
    ended = floor.end_dealer_shift(acting_user=shift_manager.user, shift=relief, ended_at=local(2026, 4, 7, 2, 30))
    assert (ended.started_at, ended.ended_at) == (local(2026, 4, 6, 17, 45), local(2026, 4, 7, 2, 30))
    # The shift reviewed as the review now judges it: the reviewer's shifts still fall outside it.
    (entry,) = surveillance_queries.reviews_by(reviewer, site)
    assert (entry.window_start, entry.window_end) == (local(2026, 4, 6, 17, 45), local(2026, 4, 7, 2, 30))


def test_the_reviewers_own_shift_at_the_table_neither_widens_the_review_nor_is_reached(
    review, shift_manager, reviewer, dealer, site, table
):
    """The reviewer dealt at table 1 itself from 17:00, before the shift reviewed, and another dealer
    relieved them there at 17:45: their own shift, running at the table when the relief is seated, does
    not widen their review, and the relief, starting where it ends, does not reach it. The relief's end
    at 03:00 reaches only the reviewer's later shift at table 2, which the refusal names."""
    own = seat(shift_manager, table, reviewer, local(2026, 4, 6, 17))
    relief = seat(shift_manager, table, dealer, local(2026, 4, 6, 17, 45))
    own.refresh_from_db()
    assert own.ended_at == local(2026, 4, 6, 17, 45)
    dealt(shift_manager, open_table_2(shift_manager, site), reviewer, local(2026, 4, 7, 2, 30), local(2026, 4, 7, 3))
    with pytest.raises(ValidationError) as refused:
        floor.end_dealer_shift(acting_user=shift_manager.user, shift=relief, ended_at=local(2026, 4, 7, 3))
    assert_names_the_widening(
        refused.value.message_dict["ended_at"][0],
        reviewer,
        "2026-04-06 17:45 to 2026-04-07 03:00",
        "2026-04-07 02:30 to 2026-04-07 03:00",
    )


def test_the_mirror_through_the_api_is_a_400_and_writes_nothing(
    review, client_for, shift_manager, reviewer, dealer, site, table
):
    other = open_table_2(shift_manager, site)
    dealt(shift_manager, other, reviewer, local(2026, 4, 6, 17), local(2026, 4, 6, 17, 45))
    dealt(shift_manager, other, reviewer, local(2026, 4, 7, 2, 30), local(2026, 4, 7, 3))
    api = client_for(shift_manager)
    seating = {"table": table.pk, "dealer": dealer.pk, "started_at": local(2026, 4, 6, 17, 30).isoformat()}
    response = api.post("/api/v1/dealer-shifts/", seating, format="json")
    assert response.status_code == 400, response.json()
    assert_names_the_widening(
        response.json()["started_at"][0],
        reviewer,
        "2026-04-06 17:30 to 2026-04-07 02:00",
        "2026-04-06 17:00 to 2026-04-06 17:45",
    )
    assert not DealerShift.objects.filter(table=table).exists()

    relief = seat(shift_manager, table, dealer, local(2026, 4, 6, 18))
    end = {"ended_at": local(2026, 4, 7, 2, 45).isoformat()}
    response = api.post(f"/api/v1/dealer-shifts/{relief.pk}/end/", end, format="json")
    assert response.status_code == 400, response.json()
    assert_names_the_widening(
        response.json()["ended_at"][0],
        reviewer,
        "2026-04-06 18:00 to 2026-04-07 02:45",
        "2026-04-07 02:30 to 2026-04-07 03:00",
    )
    relief.refresh_from_db()
    assert relief.ended_at is None


def test_the_mirror_in_the_browser_is_refused_inline_at_the_time(
    review, client, shift_manager, reviewer, dealer, site, table
):
    dealt(shift_manager, open_table_2(shift_manager, site), reviewer, local(2026, 4, 6, 17), local(2026, 4, 6, 17, 45))
    client.force_login(shift_manager.user)
    response = client.post(f"/floor/tables/{table.pk}/dealer/", {"dealer": dealer.pk, "started_at": "2026-04-06T17:30"})
    assert response.status_code == 400
    (message,) = response.context["form"].errors["started_at"]
    assert_names_the_widening(
        message, reviewer, "2026-04-06 17:30 to 2026-04-07 02:00", "2026-04-06 17:00 to 2026-04-06 17:45"
    )
    assert 'id="error-started_at"' in page(response) and f"{reviewer}'s dealer shift" in page(response)
    assert not DealerShift.objects.filter(table=table).exists()


@pytest.mark.parametrize("code", ["ND", "WA-HB", "NY"])
def test_every_pack_refuses_the_mirror_citing_its_own_law(
    code, manager, shift_manager, reviewer, dealer, site, table, chips
):
    """North Dakota's 08-04(9) states who may review; a Washington or New York house program's review
    is held to the same, as the reviewer's own shift is there, citing house control: which check
    judges depends on the order the shifts are entered in, so both judge alike."""
    site.jurisdiction = code
    site.save()
    record_review(manager, shift_manager, reviewer, site, table)
    dealt(shift_manager, open_table_2(shift_manager, site), reviewer, local(2026, 4, 6, 17), local(2026, 4, 6, 17, 45))
    with pytest.raises(ValidationError) as refused:
        seat(shift_manager, table, dealer, local(2026, 4, 6, 17, 30))
    (message,) = refused.value.message_dict["started_at"]
    assert message.startswith("ND 99-01.3-08-04(9): " if code == "ND" else "House control: ")
    assert ("ND 99-01.3-08" in message) == (code == "ND")


def test_the_mirror_is_one_query_however_many_reviews_the_table_has(
    review, manager, shift_manager, reviewer, dealer, site, table, django_assert_num_queries
):
    """The table's reviews are judged in one query, the refusal's words included, at every pack."""
    for hour in (18, 19, 22):  # three more reviews of the same shift, another hour's footage each
        review_again(
            manager,
            review,
            reviewer,
            footage_start_at=local(2026, 4, 6, hour),
            footage_end_at=local(2026, 4, 6, hour + 1),
        )
    dealt(shift_manager, open_table_2(shift_manager, site), reviewer, local(2026, 4, 6, 17), local(2026, 4, 6, 17, 45))
    table = type(table).objects.select_related("site").get(pk=table.pk)
    check = review_programs.table_shift_widens_a_review
    with django_assert_num_queries(1):
        assert check(table, dealer, local(2026, 4, 6, 17, 30), None).startswith("ND 99-01.3-08-04(9): ")
    with django_assert_num_queries(1):
        assert check(table, dealer, local(2026, 4, 6, 17, 45), None) is None
    table.site.jurisdiction = "WA-HB"  # a house program's review: judged alike, in the same one query
    with django_assert_num_queries(1):
        assert check(table, dealer, local(2026, 4, 6, 17, 30), None).startswith("House control: ")
