"""Demo counts: every finished demo gaming day is counted and signed by count1 and count2 (at
Spokane and Kingston by their organizations' count teams, `cardroom.pack_demo.CAST`).

Runs after the floor's demo (which creates the gaming days, dealer shifts and slips) and
counts the days it built (`floor.demo.built_dates`; a day a person entered is theirs to
count): each table in play that day, the paddlewheel too, gets its box removed by the site's
shift manager as the night's play ends, before the day closes (by the end of the day's activity,
ND 99-01.3-08-14(1)), counted blind by both members in the morning, and signed. Where the pack's law tracks each
dealer's percent-of-hold (ND 99-01.3-08-04(8)) the site exchanges its boxes at each dealer change:
each shift's own box, placed as the dealer sits down and removed at the change (the floor's demo
counts the tray there), so each shift's hold is separable (accounting.dealer_hold). A few counts differ and are
resolved by recount; one box holds a form that was never issued (a forms exception), which
the shift manager explains after the count, as the books must before they close (every slip
accounted for, ND 99-01.3-08-05(2)). Idempotent: a gaming day already counted is skipped.
"""

import random
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from cardroom.models import Table
from compliance.rules import DEALER_HOLD_TRACKED
from core import demo_progress

from . import queries, services
from .models import BoxExchange, CountSession, Drop, DropBox

COUNT_TEAM = ("count1", "count2")
SHIFT_MANAGERS = ("shift", "shift2")
ESCORTS = ("pitboss", "cashier", "dealer")
DROP_RANGE_CENTS = {"busy": (80_000, 400_000), "small": (10_000, 80_000), "seasonal": (20_000, 150_000)}

# Each box's drop follows its table-day's prizes at a plausible hold (domain.md section 8:
# about 12-18% over months, -5% to +40% a table-day). The previous quarter is built to trip
# two rules: prizes over gross proceeds at the small site (ND 99-01.3-08-01(3)) and hold below
# 10% at the site with surveillance (08-04(9)).
HOLD_MEAN = 0.15
HOLD_SPREAD = 0.08
PREVIOUS_QUARTER_HOLD = {"small": -0.08, "busy": 0.05}


def _drop_cents(key: str, gaming_date, prizes_cents: int | None, rng) -> int:
    from core.periods import Quarter

    low, high = DROP_RANGE_CENTS.get(key, DROP_RANGE_CENTS["small"])
    previous = Quarter.containing(timezone.localdate()).previous()
    mean = PREVIOUS_QUARTER_HOLD.get(key, HOLD_MEAN) if Quarter.containing(gaming_date) == previous else HOLD_MEAN
    hold = min(0.40, max(-0.12, rng.gauss(mean, HOLD_SPREAD)))
    if prizes_cents is None:
        return rng.randrange(low, high, 100)
    if prizes_cents <= 0:  # the tray grew: a quiet table that kept its chips
        return rng.randrange(2_000, 20_000, 100)
    return max(2_000, round(prizes_cents / (1 - hold) / 100) * 100)


UNISSUED_FORM = {"kind": "fill", "number": 999_999}


def extend_demo(demo: dict) -> None:
    """`manage.py load_demo` hook: the counts of every demo card room (`cardroom.pack_demo.houses`)."""
    from cardroom.pack_demo import houses

    for house in houses(demo):
        count_house(house)


def count_house(house: dict) -> None:
    """Count the demo-built days of each site of one of the demo's card rooms, by its count team
    (the North Dakota demo's count1 and count2, or the part's players in `house["people"]`)."""
    from floor.demo import built_dates
    from floor.models import GamingDay

    people = house["people"]
    if not all(login in people for login in COUNT_TEAM):
        return
    manager = people["gm"].user
    for key, site in house["sites"].items():
        _setup_site(manager, site, people, key)
        days = GamingDay.objects.filter(site=site, gaming_date__in=built_dates(site)).select_related("site")
        counted = set(CountSession.objects.filter(site=site).values_list("gaming_date", flat=True))
        # Who removes and escorts the boxes: the site's people do not change while the demo counts.
        crew = (_holder(people, SHIFT_MANAGERS, site), _holder(people, ESCORTS, site))
        for index, day in enumerate(days.order_by("gaming_date")):
            _, end = queries.gaming_day_bounds(site, day.gaming_date)
            if end > timezone.now() or day.gaming_date in counted:
                continue
            try:
                with transaction.atomic():
                    _count_day(site, key, day, people, crew, first_of_site=index == 0)
                demo_progress.advance("counted days")
            except ValidationError:
                continue  # a day the demo cannot count (e.g. a box left uncounted by hand): leave it


def _setup_site(manager, site, people, key) -> None:
    for table in Table.objects.filter(site=site, active=True):
        if not DropBox.objects.filter(table=table).exists():
            services.register_drop_box(acting_user=manager, table=table)
    if key == "busy" and queries.count_settings(site).twenty_one_auditor_id is None and "auditor" in people:
        services.update_count_settings(acting_user=manager, site=site, twenty_one_auditor=people["auditor"])
    # Where the pack's law tracks each dealer's percent-of-hold (ND 99-01.3-08-04(8)), the demo's
    # house does so at every site: a box a dealer shift. Set before the site's first count only,
    # so a setting a person changed later stays theirs.
    tracks = DEALER_HOLD_TRACKED.applies(site) and not CountSession.objects.filter(site=site).exists()
    if tracks and queries.box_exchange(site) != BoxExchange.DEALER_SHIFT:
        services.update_count_settings(acting_user=manager, site=site, box_exchange=BoxExchange.DEALER_SHIFT)


def _in_play(day) -> list[Table]:
    from django.db.models import Exists, OuterRef, Q

    from floor.models import DealerShift, TableInventory

    # floor.queries.table_was_opened for every table in one query: an opener or a dealer seated.
    opener = TableInventory.objects.filter(table=OuterRef("pk"), gaming_day=day, kind=TableInventory.Kind.OPENER)
    seated = DealerShift.objects.filter(table=OuterRef("pk"), gaming_day=day)
    return list(Table.objects.filter(site_id=day.site_id).filter(Q(Exists(opener)) | Q(Exists(seated))))


def _holder(people, logins, site):
    from cardroom.models import Membership

    for login in logins:
        employee = people.get(login)
        if employee and Membership.objects.filter(employee=employee, site=site).exists():
            return employee
    return None


def _count_day(site, key, day, people, crew, *, first_of_site: bool) -> None:
    tables = _in_play(day)
    if not tables:
        return
    removed_at, count_at = _count_times(site, day)
    drops = [_remove_use(day, use, people, crew) for use in _box_uses(site, day, tables, removed_at)]
    rng = random.Random(f"{site.name}-{day.gaming_date}")
    first, second = people["count1"], people["count2"]
    session = services.open_count_session(
        acting_user=first.user, site=site, gaming_date=day.gaming_date, members=[first, second], at=count_at
    )
    unissued = first_of_site and key == "busy"
    prizes = _prizes(site, day)
    for n, (drop, shift_id) in enumerate(drops):
        _count_drop(session, drop, shift_id, rng, key, prizes, count_at + timedelta(minutes=5 * n), unissued and n == 0)
    sign_at = count_at + timedelta(minutes=5 * len(drops) + 5)
    for member in (first, second):
        services.sign_count(acting_user=member.user, session=session, at=sign_at)
    if unissued:  # explained before the day's books close (every slip accounted for)
        services.explain_forms_exception(
            acting_user=crew[0].user,
            drop=drops[0][0],
            explanation="A fill slip copy from the old training pad, dropped in the box by mistake; "
            "removed and filed with the day's records.",
            at=sign_at + timedelta(minutes=10),
            **UNISSUED_FORM,
        )


def count_under_way(house: dict, key: str, gaming_date, boxes: int) -> CountSession | None:
    """The demo-built night `gaming_date` of site `key` of one of the demo's card rooms counted in
    part, as its count team counts box after box (benchmarks.pages: a count session's boxes grow):
    the session opened, the night's first `boxes` boxes removed and counted by both members, the
    next one removed and awaiting its count, nothing signed. Run before `extend_demo`, which
    counts every other night (a night with a session is left to it); run again with more `boxes`,
    it removes and counts the next ones. None where the site played no such night."""
    from floor.models import GamingDay

    people, site = house["people"], house["sites"][key]
    day = GamingDay.objects.filter(site=site, gaming_date=gaming_date).first()
    tables = _in_play(day) if day is not None else []
    if not tables:
        return None
    with transaction.atomic():
        _setup_site(people["gm"].user, site, people, key)
        session = CountSession.objects.filter(site=site, gaming_date=gaming_date).first()
        return _count_in_part(site, key, day, tables, people, session, boxes)


def _count_in_part(site, key, day, tables, people, session, boxes: int) -> CountSession:
    crew = (_holder(people, SHIFT_MANAGERS, site), _holder(people, ESCORTS, site))
    removed_at, count_at = _count_times(site, day)
    removed = {(d.table_id, d.dealer_shift_id): d for d in Drop.objects.filter(site=site, gaming_date=day.gaming_date)}
    drops = []
    for use in _box_uses(site, day, tables, removed_at)[: boxes + 1]:
        _, _, table, shift_id = use
        drop = removed.get((table.pk, shift_id))
        drops.append((drop, shift_id) if drop is not None else _remove_use(day, use, people, crew))
    first, second = people["count1"], people["count2"]
    session = session or services.open_count_session(
        acting_user=first.user, site=site, gaming_date=day.gaming_date, members=[first, second], at=count_at
    )
    rng, prizes = random.Random(f"{site.name}-{day.gaming_date}-{boxes}"), _prizes(site, day)
    counted = set(session.entries.values_list("drop_id", flat=True))
    for n, (drop, shift_id) in enumerate(drops[:boxes]):
        if drop.pk not in counted:
            _count_drop(session, drop, shift_id, rng, key, prizes, count_at + timedelta(minutes=5 * n), False)
    return session


def _count_times(site, day) -> tuple:
    """When the night's last boxes come off their tables, and when the count team counts them: in
    the morning, after the removal."""
    _, end = queries.gaming_day_bounds(site, day.gaming_date)
    removed_at = _boxes_removed_at(day) or end - timedelta(hours=3, minutes=30)
    return removed_at, max(removed_at, end - timedelta(hours=3, minutes=30)) + timedelta(minutes=20)


def _remove_use(day, use: tuple, people: dict, crew: tuple) -> tuple:
    """(drop, dealer shift id) of a box use (`_box_uses`), its box placed and removed."""
    placed_at, leaves_at, table, shift_id = use
    custody = {"shift": crew[0], "escort": crew[1], "key_holder": people["count1"], "manager": people["gm"]}
    return _remove_box(day, table, shift_id, placed_at, leaves_at, custody), shift_id


def _count_drop(session, drop, shift_id, rng, key: str, prizes: dict, at, unissued: bool) -> None:
    cents = _drop_cents(key, session.gaming_date, prizes.get(shift_id or (None, drop.table_id)), rng)
    _count_box(session, drop.drop_box, rng, key, at, unissued=unissued, drop_cents=cents)


# A used box comes off its table by the end of the day's activity (ND 99-01.3-08-14(1)): this long
# after the table's play ended (its closer, the last dealer's shift), and before the day closes.
REMOVED_AFTER_PLAY = timedelta(minutes=10)


def _boxes_removed_at(day):
    """When the shift manager removes the night's last boxes: `REMOVED_AFTER_PLAY` after the
    night's play ended (the last closer or dealer shift end), never after the day closed; None
    when the day records no end of play."""
    from django.db.models import Max

    from floor.models import DealerShift, TableInventory

    ends = [
        TableInventory.objects.filter(gaming_day=day, kind=TableInventory.Kind.CLOSER).aggregate(m=Max("counted_at"))[
            "m"
        ],
        DealerShift.objects.filter(gaming_day=day).aggregate(m=Max("ended_at"))["m"],
    ]
    ends = [end for end in ends if end is not None]
    if not ends:
        return None
    removed_at = max(ends) + REMOVED_AFTER_PLAY
    return removed_at if day.closed_at is None else min(removed_at, day.closed_at)


def _prizes(site, day) -> dict:
    """What each tray paid out that day: by dealer shift id (the shift's own span, where the tray
    was counted at its changes) and by (None, table id) for the whole table-day."""
    from accounting.published import shift_prizes, table_days

    found: dict = {s: p for s, p in shift_prizes([site.pk], day.gaming_date, day.gaming_date).items() if p is not None}
    for t in table_days([site.pk], day.gaming_date, day.gaming_date):
        found[(None, t.table_id)] = t.custody.prizes_cents
    return found


def _box_uses(site, day, tables, removed_at) -> list[tuple]:
    """(placed at, removed at, table, dealer shift id or None) of each box the night used, in the
    order removed: a box a table, placed as the day opens and removed as play ends; or, where the
    site exchanges its boxes at each dealer change, a box a dealer shift (ND 99-01.3-08-04(8): each
    dealer's percent-of-hold), placed as the dealer sits down, removed at the change (the next
    shift's start) or, the night's last, with the other boxes as play ends, before the day closes
    (`_boxes_removed_at`)."""
    from floor.models import DealerShift

    if queries.box_exchange(site) != BoxExchange.DEALER_SHIFT:
        # Placed as the gaming day opens: not implied by its removal, which would date it at the
        # day's first moment (6:00 a.m.), hours before the day was opened.
        return [(day.opened_at, removed_at, table, None) for table in tables]
    uses = []
    for table in tables:
        shifts = list(DealerShift.objects.filter(table=table, gaming_day=day).order_by("started_at", "pk"))
        for index, dealer_shift in enumerate(shifts):
            last = index == len(shifts) - 1
            leaves_at = removed_at if last else shifts[index + 1].started_at
            uses.append((dealer_shift.started_at, leaves_at, table, dealer_shift.pk))
    return sorted(uses, key=lambda use: (use[1], use[2].number))


def _remove_box(day, table, shift_id, placed_at, removed_at, custody):
    """Place (at `placed_at`, when given) and remove a free box of `table` for the day or for
    the dealer shift `shift_id`; a table with every box still holding cash gets another box
    registered (the next letter), as a house exchanging boxes at dealer changes keeps several a
    table."""
    box = _free_box(table, day.gaming_date, custody["manager"])
    if placed_at is not None:
        services.place_drop_box(
            acting_user=custody["shift"].user,
            drop_box=box,
            gaming_date=day.gaming_date,
            dealer_shift_id=shift_id,
            at=placed_at,
        )
    escort = custody["escort"]
    removal = services.remove_drop_box(
        acting_user=custody["shift"].user,
        drop_box=box,
        gaming_date=day.gaming_date,
        dealer_shift_id=shift_id,
        removed_at=removed_at,
        at=removed_at,
        storage_place="Office safe",
        key_holder=custody["key_holder"],
        escorted_by=escort,
        sole_employee_on_duty=escort is None,
    )
    return removal.drop


def _free_box(table, gaming_date, manager) -> DropBox:
    """A box of `table` holding no cash and not used on `gaming_date` (a box is one use of the
    day's count: the count finds a drop by its box)."""
    boxes = list(DropBox.objects.filter(table=table, active=True).select_related("site", "table").order_by("label"))
    used = set(Drop.objects.filter(table=table, gaming_date=gaming_date).values_list("drop_box_id", flat=True))
    for box in boxes:
        if box.pk not in used and queries.open_drop(box) is None and queries.uncounted_drop(box) is None:
            return box
    label = chr(ord("A") + len(boxes))
    return services.register_drop_box(acting_user=manager.user, table=table, label=label)


def _currency(cents: int, rng) -> list[dict]:
    lines = []
    for denomination in (10000, 5000, 2000, 1000, 500, 100):
        share = cents // denomination if denomination == 100 else rng.randint(0, cents // denomination)
        if share:
            lines.append({"denomination_cents": denomination, "quantity": share})
            cents -= share * denomination
    return lines


def _count_box(session, box, rng, key, at, *, unissued: bool, drop_cents: int) -> None:
    currency = _currency(drop_cents, rng)
    drop = queries.drops_awaiting_count(session.site, session.gaming_date).filter(drop_box=box).first()
    issued = queries.slips_issued(drop) or set()
    forms = [{"kind": kind, "number": number} for kind, number in sorted(issued)]
    if unissued:
        forms.append(UNISSUED_FORM)
    first, second = session.first_member, session.second_member
    services.record_blind_count(
        acting_user=first.user, session=session, drop_box=box, currency=currency, forms=forms, at=at
    )
    miscount = rng.random() < 0.15
    other = [dict(line) for line in currency]
    if miscount:
        other[0]["quantity"] += 1
    services.record_blind_count(
        acting_user=second.user, session=session, drop_box=box, currency=other, forms=forms, at=at
    )
    if miscount:
        services.resolve_difference(
            acting_user=first.user,
            session=session,
            drop_box=box,
            currency=currency,
            forms=forms,
            note="Recounted together: one bill was counted twice.",
            at=at + timedelta(minutes=2),
        )
