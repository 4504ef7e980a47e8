"""ND 99-01.3-08-09(1): the low-table rule reads only the days on which a dealer stayed on shift
at another twenty-one table past a closer or a relief with no one seated after
(`floor.queries.closer_beside_a_dealer`, `relief_beside_a_dealer`, picked by the database).
Each night below sits on an edge of that choice (a dealer leaving at the closer's or the relief's
moment or a second after it, seated at that moment or a second after, a grace of 0, 5 or -5
minutes): the rule opens the same alerts as judging every day's play read in full (the data
path before the database picked the days), and the alerts pinned here."""

from datetime import date, timedelta
from decimal import Decimal

import pytest

from cardroom.models import Role
from compliance import rules
from compliance.models import Threshold
from compliance.thresholds import ThresholdBook
from floor import services
from floor.models import DealerShift
from floor.queries import twenty_one_play
from tests.compliance.test_low_table_closed import START, Floor
from tests.factories import make_person

SECOND = timedelta(seconds=1)


@pytest.fixture
def night(site, cast, org, chips, time_machine, _thresholds):
    return lambda minimums: Floor(site, cast, org, time_machine, minimums)


@pytest.fixture
def _thresholds(db):
    from compliance.thresholds import ensure_seeded

    ensure_seeded()


def grace(minutes):
    Threshold.objects.create(
        code="low_table.grace_minutes",
        value=Decimal(minutes),
        unit="minutes",
        citation="ND 99-01.3-08-09(1)",
        summary="test: a grace after the low table closes",
        effective_from=date(2026, 1, 1),
    )


def at(floor, delta):
    floor.clock.move_to(START + delta, tick=False)


def end_dealer(floor, number, delta):
    at(floor, delta)
    shift = DealerShift.objects.get(table=floor.tables[number], ended_at__isnull=True)
    services.end_dealer_shift(acting_user=floor.manager, shift=shift)


def seat_dealer(floor, number, delta, org):
    """A shift written as a record entered afterwards would hold it (the floor's service refuses
    to seat a higher table with no low table active: the rule judges what was recorded anyway)."""
    at(floor, delta + timedelta(minutes=10))
    dealer = make_person(org, Role.DEALER, floor.site)
    table = floor.tables[number]
    day = DealerShift.objects.filter(table=table).values_list("gaming_day_id", flat=True).first()
    DealerShift.objects.create(
        table=table, dealer=dealer, gaming_day_id=day, started_at=START + delta, started_by=dealer
    )


CLOSER = timedelta(minutes=90)  # table 1 ($1, the low table) closes then; table 2 is $5


def left_at_the_closer(floor, org):
    floor.close(1, after_minutes=90)
    end_dealer(floor, 2, CLOSER)


def left_a_second_after(floor, org):
    floor.close(1, after_minutes=90)
    end_dealer(floor, 2, CLOSER + SECOND)


def left_before(floor, org):
    end_dealer(floor, 2, CLOSER - SECOND)
    floor.close(1, after_minutes=90)


def seated_at_the_closer(floor, org):
    end_dealer(floor, 2, timedelta(minutes=60))
    floor.close(1, after_minutes=90)
    seat_dealer(floor, 2, CLOSER, org)


def seated_a_second_after(floor, org):
    end_dealer(floor, 2, timedelta(minutes=60))
    floor.close(1, after_minutes=90)
    seat_dealer(floor, 2, CLOSER + SECOND, org)


def still_dealing(floor, org):
    floor.close(1, after_minutes=90)


def left_within_the_grace(floor, org):
    grace(5)
    floor.close(1, after_minutes=90)
    end_dealer(floor, 2, CLOSER + timedelta(minutes=5))


def left_past_the_grace(floor, org):
    grace(5)
    floor.close(1, after_minutes=90)
    end_dealer(floor, 2, CLOSER + timedelta(minutes=5) + SECOND)


def left_after_the_moment_judged_before_the_closer(floor, org):
    grace(-5)  # judged 5 minutes before the closer: table 2's dealer still there then
    end_dealer(floor, 2, CLOSER - timedelta(minutes=2))
    floor.close(1, after_minutes=90)


def left_before_the_moment_judged_before_the_closer(floor, org):
    grace(-5)
    end_dealer(floor, 2, CLOSER - timedelta(minutes=5))
    floor.close(1, after_minutes=90)


def closed_low_table_beside_a_second_low_table(floor, org):
    floor.close(1, after_minutes=90)  # table 3 ($3, at the ceiling) still dealt: in order


RELIEF = timedelta(minutes=60)  # table 1's dealer relieved then, before any closer


def relieved_beside_a_dealer(floor, org):
    end_dealer(floor, 1, RELIEF)


def relieved_as_the_other_left(floor, org):
    end_dealer(floor, 1, RELIEF)
    end_dealer(floor, 2, RELIEF)


def relieved_a_second_before_the_other_left(floor, org):
    end_dealer(floor, 1, RELIEF)
    end_dealer(floor, 2, RELIEF + SECOND)


def handed_over(floor, org):
    at(floor, RELIEF)
    services.start_dealer_shift(
        acting_user=floor.manager, table=floor.tables[1], dealer=make_person(org, Role.DEALER, floor.site)
    )


def reseated_a_second_after(floor, org):
    end_dealer(floor, 1, RELIEF)
    seat_dealer(floor, 1, RELIEF + SECOND, org)  # the text allows no time


def reseated_within_the_grace(floor, org):
    grace(5)
    end_dealer(floor, 1, RELIEF)
    seat_dealer(floor, 1, RELIEF + timedelta(minutes=5), org)


def reseated_past_the_grace(floor, org):
    grace(5)
    end_dealer(floor, 1, RELIEF)
    seat_dealer(floor, 1, RELIEF + timedelta(minutes=5) + SECOND, org)


def relieved_then_closed_within_the_grace(floor, org):
    grace(5)
    end_dealer(floor, 1, RELIEF)
    floor.close(1, after_minutes=62)  # the closer is judged: one alert, for it


def relieved_then_closed_later(floor, org):
    end_dealer(floor, 1, RELIEF)
    floor.close(1, after_minutes=90)  # the relief's alert is the breach's: the closer adds none


NIGHTS = [
    (left_at_the_closer, {1: 100, 2: 500}, 0),
    (left_a_second_after, {1: 100, 2: 500}, 1),
    (left_before, {1: 100, 2: 500}, 0),
    (seated_at_the_closer, {1: 100, 2: 500}, 1),
    (seated_a_second_after, {1: 100, 2: 500}, 0),
    (still_dealing, {1: 100, 2: 500}, 1),
    (still_dealing, {1: 300, 2: 301}, 1),  # the ceiling itself is low; a cent above, higher
    (left_within_the_grace, {1: 100, 2: 500}, 0),
    (left_past_the_grace, {1: 100, 2: 500}, 1),
    (left_after_the_moment_judged_before_the_closer, {1: 100, 2: 500}, 1),
    (left_before_the_moment_judged_before_the_closer, {1: 100, 2: 500}, 0),
    (closed_low_table_beside_a_second_low_table, {1: 100, 2: 500, 3: 300}, 0),
    (relieved_beside_a_dealer, {1: 100, 2: 500}, 1),
    (relieved_beside_a_dealer, {1: 100, 2: 500, 3: 300}, 0),  # table 3 still dealt at the ceiling
    (relieved_as_the_other_left, {1: 100, 2: 500}, 0),
    (relieved_a_second_before_the_other_left, {1: 100, 2: 500}, 1),
    (handed_over, {1: 100, 2: 500}, 0),
    (reseated_a_second_after, {1: 100, 2: 500}, 1),
    (reseated_within_the_grace, {1: 100, 2: 500}, 0),
    (reseated_past_the_grace, {1: 100, 2: 500}, 1),
    (relieved_then_closed_within_the_grace, {1: 100, 2: 500}, 1),
    (relieved_then_closed_later, {1: 100, 2: 500}, 1),
]


@pytest.mark.parametrize("scene,minimums,alerts", NIGHTS, ids=[f"{n[0].__name__}-{i}" for i, n in enumerate(NIGHTS)])
def test_the_same_alerts_as_judging_every_days_play(night, org, scene, minimums, alerts):
    floor = night(minimums)
    scene(floor, org)
    book = ThresholdBook(floor.day)
    # The data path before: every day's play read in full, judged.
    every_day = twenty_one_play([floor.site.pk], floor.day, floor.day)
    before = [
        finding
        for (site_id, day), tables in sorted(every_day.items())
        for finding in rules.low_table_closings(site_id, day, tables, book=book, time_zone=floor.site.time_zone)
    ]
    opened = floor.check()
    assert len(opened) == len(before) == alerts
    assert sorted((a.subject, a.action_required, a.figures) for a in opened) == sorted(
        (f.subject, f.action_required, f.figures) for f in before
    )
    for alert in opened:
        assert alert.citation == "ND 99-01.3-08-09(1)"


def test_the_days_without_a_dealer_past_a_closer_or_a_relief_are_not_read(night):
    floor = night({1: 100, 2: 500})
    end_dealer(floor, 2, CLOSER)  # table 2's dealer leaves as table 1 closes: no one dealt past either
    floor.close(1, after_minutes=90)
    assert twenty_one_play([floor.site.pk], floor.day, floor.day)  # the day has play ...
    assert (
        twenty_one_play([floor.site.pk], floor.day, floor.day, dealt_past_a_closer=timedelta(0)) == {}
    )  # ... none read
    assert twenty_one_play([floor.site.pk], floor.day, floor.day, dealt_past_a_closer=timedelta(minutes=-15))


@pytest.mark.parametrize(
    "scene,figure",
    [(relieved_then_closed_within_the_grace, "closed_at"), (relieved_then_closed_later, "relieved_at")],
)
def test_a_relief_then_a_closer_is_one_alert_for_the_moment_the_table_left_play(night, org, scene, figure):
    floor = night({1: 100, 2: 500})
    scene(floor, org)
    [alert] = floor.check()
    assert figure in alert.figures and alert.figures["table"] == 1
