"""cardroom.rows.value_rows returns exactly what the ORM returns (values, types, time zones),
on SQLite and on PostgreSQL alike."""

from datetime import UTC, date, datetime, timedelta

from django.db.models import Count, Max, Min, Q, Sum

from accounting.models import DealerShift, Slip
from cardroom.models import Role
from cardroom.rows import value_rows
from tests.accounting.scenario import Scenario, shift
from tests.factories import TableFactory, make_person

DAY = date(2026, 8, 14)


def _play(site, people, org, cast):
    scenario = Scenario(site, people)
    table = TableFactory(site=site, number=1)
    second_dealer = make_person(org, Role.DEALER, site)
    shift(scenario, table, cast[Role.DEALER], DAY, 18, 21)
    open_shift = shift(scenario, table, second_dealer, DAY, 21, 24)
    # Still at the table (no end), and a start with microseconds.
    DealerShift.objects.filter(pk=open_shift.pk).update(
        ended_at=None, started_at=open_shift.started_at + timedelta(microseconds=123_456)
    )
    scenario.slip(table, DAY, "fill", 12_345, number=1)
    scenario.slip(table, DAY, "credit", 500, number=2)
    scenario.slip(table, DAY + timedelta(days=1), "fill", 700, number=3)
    return table


def _same(queryset):
    expected = list(queryset)
    found = value_rows(queryset)
    assert found == expected
    assert [tuple(type(v) for v in row) for row in found] == [tuple(type(v) for v in row) for row in expected]
    for row_found, row_expected in zip(found, expected, strict=True):
        for a, b in zip(row_found, row_expected, strict=True):
            if isinstance(b, datetime):
                assert a.tzinfo is not None and a.utcoffset() == b.utcoffset()
    return found


def test_plain_columns_dates_and_datetimes_equal_the_orm(site, people, org, cast):
    _play(site, people, org, cast)
    rows = _same(
        DealerShift.objects.order_by("started_at").values_list(
            "pk", "table_id", "gaming_day__gaming_date", "started_at", "ended_at", "dealer__user__username"
        )
    )
    assert len(rows) == 2 and rows[1][4] is None and rows[1][3].microsecond == 123_456
    assert rows[0][2] == DAY
    assert rows[0][3].tzinfo is not None and rows[0][3].astimezone(UTC).tzinfo == UTC
    _same(Slip.objects.order_by("number").values_list("number", "kind", "prepared_at", "total_cents"))


def test_aggregates_and_conditional_aggregates_equal_the_orm(site, people, org, cast):
    _play(site, people, org, cast)
    rows = _same(
        Slip.objects.values_list("table_id", "gaming_day__gaming_date")
        .annotate(
            fills=Sum("total_cents", filter=Q(kind="fill"), default=0),
            credits=Sum("total_cents", filter=Q(kind="credit"), default=0),
            first=Min("prepared_at"),
            last=Max("prepared_at"),
            n=Count("pk"),
        )
        .order_by("gaming_day__gaming_date")
    )
    assert [(r[2], r[3], r[6]) for r in rows] == [(12_345, 500, 2), (700, 0, 1)]


def test_an_empty_result_is_an_empty_list(db):
    assert value_rows(Slip.objects.none().values_list("pk", "prepared_at")) == []
    assert value_rows(Slip.objects.filter(pk=-1).values_list("pk", "prepared_at")) == []
