"""What a higher app says of seating a dealer, of ending their shift, or of ending a duty
period, asked from below.

A dealer shift is the floor's record that an employee conducted games at a site on a gaming day,
from its start to its end. Apps above the floor judge people on those records when they record
their own acts: the count its two-person teams (ND 99-01.3-08-14(2): two gaming employees count
"provided that one of the gaming employees did not conduct games at the same site on the day of the
gaming activity and day of the count"), surveillance the reviewer of a low-hold video review (ND
99-01.3-08-04(9): "completed by an individual who did not conduct twenty-one or paddlewheel at the
site on the shift selected for review"), and the count a drop box removed with no escort because
its transporter was "the only employee on duty" (ND 99-01.3-08-14(1)). A shift recorded afterwards,
dealt later or entered later from paper, is asked here when it starts (`refuse_seating`) and when
it ends (`refuse_shift_end`), and a duty period of the register when it ends (`refuse_duty_end`),
so that no order of entry leaves a count, a review or a removal by someone the rule does not allow.
A shift is also asked of its table when it starts and when it ends (`refuse_table_shift`): another
dealer's shift there can widen the shift a video review of the table's footage judged its reviewer
on (surveillance) onto a shift the reviewer dealt.
The apps register their answers when they load (`counts.apps`, `surveillance.apps`): imports keep
pointing down.
"""

from collections.abc import Callable
from datetime import date, datetime

from django.core.exceptions import ValidationError

from cardroom.models import Employee, Site, Table
from core.hooks import DEALER_CHANGE_BOX, DEALER_SEATED, DEALER_SHIFT_ENDING, DUTY_PERIOD_ENDING, TABLE_SHIFT_RECORDED
from core.rules import HOUSE_CONTROL

SeatingCheck = Callable[[Employee, Site, date, datetime], str | None]
ShiftEndCheck = Callable[[Employee, Site, datetime, datetime], str | None]
DutyEndCheck = ShiftEndCheck  # (employee, site, started_at, ended_at)
TableShiftCheck = Callable[[Table, Employee, datetime, datetime | None], str | None]


def register_seating_check(check: SeatingCheck) -> None:
    """An app registers `check(dealer, site, gaming_date, started_at) -> refusal or None` once, when
    it loads."""
    DEALER_SEATED.register(check)


def refuse_seating(dealer: Employee, site: Site, gaming_date: date, started_at: datetime) -> None:
    """Raise the first refusal a registered check gives for seating `dealer` at `started_at` on
    `gaming_date`."""
    for check in DEALER_SEATED.answers():
        if refusal := check(dealer, site, gaming_date, started_at):
            raise ValidationError({"dealer": refusal})


def register_shift_end_check(check: ShiftEndCheck) -> None:
    """An app registers `check(dealer, site, started_at, ended_at) -> refusal or None` once, when it
    loads."""
    DEALER_SHIFT_ENDING.register(check)


def refuse_shift_end(dealer: Employee, site: Site, started_at: datetime, ended_at: datetime, field: str) -> None:
    """Raise, at `field` (the moment that ends the shift: its end, the relief's start, the closing
    count), the first refusal a registered check gives for `dealer` dealing from `started_at` to
    `ended_at`."""
    for check in DEALER_SHIFT_ENDING.answers():
        if refusal := check(dealer, site, started_at, ended_at):
            raise ValidationError({field: refusal})


def register_table_shift_check(check: TableShiftCheck) -> None:
    """An app registers `check(table, dealer, started_at, ended_at) -> refusal or None` once, when it
    loads."""
    TABLE_SHIFT_RECORDED.register(check)


def refuse_table_shift(
    table: Table, dealer: Employee, started_at: datetime, ended_at: datetime | None, field: str
) -> None:
    """Raise, at `field`, the first refusal a registered check gives for the shift of `dealer` at
    `table` from `started_at` to `ended_at` (None: seated now, still running), judged as a record of
    the table rather than of its dealer."""
    for check in TABLE_SHIFT_RECORDED.answers():
        if refusal := check(table, dealer, started_at, ended_at):
            raise ValidationError({field: refusal})


def register_duty_end_check(check: DutyEndCheck) -> None:
    """An app registers `check(employee, site, started_at, ended_at) -> refusal or None` once,
    when it loads."""
    DUTY_PERIOD_ENDING.register(check)


def refuse_duty_end(employee: Employee, site: Site, started_at: datetime, ended_at: datetime) -> None:
    """Raise, at `at` (the sign-out's moment), the first refusal a registered check gives for
    `employee` on duty at `site` from `started_at` to `ended_at`."""
    for check in DUTY_PERIOD_ENDING.answers():
        if refusal := check(employee, site, started_at, ended_at):
            raise ValidationError({"at": refusal})


def register_dealer_change_box(step) -> None:
    """The counts app registers `step(site)` once, when ready (core.hooks.DEALER_CHANGE_BOX)."""
    DEALER_CHANGE_BOX.register(step)


def box_at_change_step(site: Site):
    """The counts app's removal of a table's box at a change of dealer where `site` exchanges its
    drop boxes at each dealer change (house control), with its `data` and `remove`; None elsewhere."""
    return DEALER_CHANGE_BOX(site)


def remove_box_at_change(acting_user, table: Table, outgoing, removed_at: datetime, custody: dict) -> None:
    """Remove `table`'s box at `removed_at`, the change's moment, credited to the `outgoing` shift,
    inside the caller's transaction and before the new shift begins (floor.services.dealer_shifts);
    a refusal raises, keyed by the change's own fields, and the caller's transaction rolls back.
    `custody`: escorted_by, key_holder, second_key_holder, storage_place."""
    site = table.site
    step = box_at_change_step(site)
    if step is None:
        raise ValidationError(
            {
                "remove_box": f"{HOUSE_CONTROL}: {site.name} does not exchange its drop boxes at each dealer change "
                "(its count settings): a change of dealer removes no box there."
            }
        )
    if outgoing is None:
        raise ValidationError(
            {
                "remove_box": f"{HOUSE_CONTROL}: no dealer is dealing at table {table.number}: a box is removed "
                "with a change of dealer, not when a first dealer is seated."
            }
        )
    step.remove(acting_user=acting_user, table=table, shift=outgoing, removed_at=removed_at, **custody)
