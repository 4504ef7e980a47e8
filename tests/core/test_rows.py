"""core.rows.value_rows returns exactly what the ORM returns (values, types, time zones),
on SQLite and on PostgreSQL alike."""

from datetime import UTC, date, datetime, timedelta

import pytest
from django.db import connection
from django.db.models import Count, JSONField, Max, Min, OuterRef, Q, Subquery, Sum

from cardroom.models import Role
from core import rows as rows_module
from core.rows import shaped_columns, shaped_rows, value_rows
from floor.models import DealerShift, Slip
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


def test_rows_whose_converters_change_nothing_are_kept_as_read_and_equal_the_orm(site, people, org, cast, monkeypatch):
    """Integer expressions (a Subquery, a Count) and, on SQLite, dates: the driver's rows as
    they are, never taken apart into columns (a None from a Subquery too)."""
    _play(site, people, org, cast)

    def taken_apart(*args):
        raise AssertionError("the rows were taken apart into columns")

    monkeypatch.setattr(rows_module, "_converted_columns", taken_apart)
    largest = Slip.objects.filter(table_id=OuterRef("table_id")).order_by("-total_cents").values("total_cents")[:1]
    none = Slip.objects.filter(pk=-1).values("total_cents")[:1]
    rows = _same(
        Slip.objects.order_by("number")
        .annotate(largest=Subquery(largest), none=Subquery(none))
        .values_list("number", "gaming_day__gaming_date", "largest", "none")
    )
    assert rows == [(1, DAY, 12_345, None), (2, DAY, 12_345, None), (3, DAY + timedelta(days=1), 12_345, None)]
    _same(
        Slip.objects.values_list("gaming_day__gaming_date").annotate(n=Count("pk")).order_by("gaming_day__gaming_date")
    )


def test_an_empty_result_is_an_empty_list(db):
    assert value_rows(Slip.objects.none().values_list("pk", "prepared_at")) == []
    assert value_rows(Slip.objects.filter(pk=-1).values_list("pk", "prepared_at")) == []


# shaped_rows: compiled once per shape, the real values put in the stand-ins' places ---------------


def slips_between(*, site_ids, start, end):
    return (
        Slip.objects.filter(site_id__in=site_ids, gaming_day__gaming_date__range=(start, end))
        .order_by("number")
        .values_list("site_id", "number", "gaming_day__gaming_date", "prepared_at", "total_cents")
    )


def slips_of_number(*, number):
    return Slip.objects.filter(number=number).values_list("number", "kind")


def test_shaped_rows_equal_the_orm_for_every_period_and_site_list(site, other_site, people, org, cast):
    _play(site, people, org, cast)
    other_people = dict(people)
    scenario = Scenario(other_site, other_people)
    scenario.slip(TableFactory(site=other_site, number=1), DAY, "fill", 999, number=1)
    cases = [
        {"site_ids": [site.pk], "start": DAY, "end": DAY},
        {"site_ids": [site.pk], "start": DAY, "end": DAY + timedelta(days=1)},  # same shape, other values
        {"site_ids": [other_site.pk], "start": DAY, "end": DAY + timedelta(days=1)},
        {"site_ids": [site.pk, other_site.pk], "start": DAY, "end": DAY + timedelta(days=1)},  # another shape
        {"site_ids": [site.pk, site.pk], "start": DAY, "end": DAY},  # duplicates count once
        {"site_ids": [], "start": DAY, "end": DAY},  # nothing to look at
        {"site_ids": [site.pk], "start": DAY + timedelta(days=5), "end": DAY + timedelta(days=9)},
    ]
    seen = []
    for arguments in cases:
        found = shaped_rows(slips_between, **arguments)
        assert found == value_rows(slips_between(**arguments)) == list(slips_between(**arguments))
        seen.append(len(found))
    assert seen == [2, 3, 1, 4, 2, 0, 0]


def test_on_postgresql_a_shape_is_prepared_on_the_connection_and_run_again_without_planning(site, people, org, cast):
    """Planning a shape's SQL took longer than running it (issue 37): PostgreSQL prepares it the
    first time a connection sends it, and runs it again from there (`pg_prepared_statements`)."""
    _play(site, people, org, cast)
    period = {"site_ids": [site.pk], "start": DAY, "end": DAY}
    for end in (DAY, DAY + timedelta(days=1), DAY + timedelta(days=2)):
        assert shaped_rows(slips_between, **{**period, "end": end}) == list(slips_between(**{**period, "end": end}))
    if connection.vendor != "postgresql":
        return  # SQLite plans nothing across statements
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT generic_plans + custom_plans FROM pg_prepared_statements WHERE statement LIKE %s",
            ['%"accounting_slip"."total_cents"%BETWEEN%'],
        )
        assert [n for (n,) in cursor.fetchall()] == [3]  # one statement, run three times


def test_a_shape_is_compiled_once(site, people, org, cast, monkeypatch):
    _play(site, people, org, cast)
    built = []

    def counting(*, site_ids, start, end):
        built.append(1)
        return slips_between(site_ids=site_ids, start=start, end=end)

    counting.__qualname__ = "counting_for_test_rows"
    monkeypatch.setattr(rows_module, "_compiled", {})
    for end in (DAY, DAY + timedelta(days=1), DAY + timedelta(days=2)):
        shaped_rows(counting, site_ids=[site.pk], start=DAY, end=end)
    assert len(built) == 1


def test_a_stand_in_the_orm_folds_into_the_sql_is_not_cached(site, people, org, cast, monkeypatch):
    _play(site, people, org, cast)
    monkeypatch.setattr(rows_module, "_compiled", {})

    def folded(*, number):
        # The value goes into the SQL text (a raw WHERE), not among the parameters.
        return Slip.objects.extra(where=[f"number = {int(number)}"]).values_list("number", "kind")

    folded.__qualname__ = "folded_for_test_rows"
    assert shaped_rows(folded, number=1) == [(1, "fill")]
    assert shaped_rows(folded, number=2) == [(2, "credit")]
    assert rows_module._compiled == {}
    assert shaped_rows(slips_of_number, number=2) == [(2, "credit")]
    assert len(rows_module._compiled) == 1


def test_shaped_rows_refuse_a_lambda_and_arguments_they_cannot_stand_in_for():
    with pytest.raises(ValueError, match="module-level"):
        shaped_rows(lambda **kw: None, number=1)
    for wrong in (
        {"number": 1.5},
        {"number": b"1"},
        {"number": True},
        {"number": datetime(2026, 1, 1, tzinfo=UTC)},
        {"number": [1, "2"]},
    ):
        with pytest.raises(TypeError, match="number must be"):
            shaped_rows(slips_of_number, **wrong)


def slips_with(*, columns, site_ids, start, end):
    return slips_between(site_ids=site_ids, start=start, end=end).values_list("number", *columns)


def test_a_shape_argument_is_part_of_the_key_and_built_once_each(site, people, org, cast, monkeypatch):
    """The columns asked for change the SQL: each set is compiled once and never answers for another."""
    _play(site, people, org, cast)
    monkeypatch.setattr(rows_module, "_compiled", {})
    period = {"site_ids": [site.pk], "start": DAY, "end": DAY + timedelta(days=1)}
    for columns in [("kind",), ("total_cents",), ("kind", "total_cents"), ("kind",)]:
        found = shaped_rows(slips_with, shape={"columns": columns}, **period)
        assert found == list(slips_with(columns=columns, **period)) and len(found[0]) == 1 + len(columns)
    assert len(rows_module._compiled) == 3


def slips_of_kind(*, kind, number):
    return Slip.objects.filter(kind=kind, number__gte=number).order_by("number").values_list("number", "kind")


def test_a_text_argument_is_a_parameter_of_the_sql_compiled_once(site, people, org, cast, monkeypatch):
    _play(site, people, org, cast)
    monkeypatch.setattr(rows_module, "_compiled", {})
    for kind, number in [("fill", 1), ("credit", 1), ("fill", 2), ("nothing", 1)]:
        assert shaped_rows(slips_of_kind, kind=kind, number=number) == list(slips_of_kind(kind=kind, number=number))
    assert len(rows_module._compiled) == 1
    assert [n for n, _ in shaped_rows(slips_of_kind, kind="fill", number=1)] == [1, 3]


def test_shaped_columns_stream_what_the_orm_reads_a_chunk_at_a_time(site, people, org, cast, monkeypatch):
    _play(site, people, org, cast)
    monkeypatch.setattr(rows_module, "_compiled", {})
    period = {"site_ids": [site.pk], "start": DAY, "end": DAY + timedelta(days=1)}
    expected = list(slips_between(**period))
    for size in (1, 2, 3, 10):
        chunks = list(shaped_columns(slips_between, chunk_size=size, **period))
        assert all(len(columns) == 5 and 0 < len(columns[0]) <= size for columns in chunks)
        assert [row for columns in chunks for row in zip(*columns, strict=True)] == expected
    assert len(rows_module._compiled) == 1
    # An empty id list cannot be compiled: the ORM reads it, a chunk at a time as well.
    assert list(shaped_columns(slips_between, chunk_size=2, **{**period, "site_ids": []})) == []


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1, "b": [true, null, 2.5], "c": "\\u00e9t\\u00e9"}', "[]", '"text"', "12", "null", "NaN",
        ' {"a": 1}', '{"a": 1} ', '{"a": 1}{"b": 2}', '{"a": }', "not json", "", '{"a": "\\ud83c\\udfb2"}',
    ],
)  # fmt: skip
def test_a_json_columns_texts_decode_as_the_field_decodes_them(text):
    """The JSON columns' converter inline: every text, JSON or not, as JSONField.from_db_value
    gives it (decoded, or the text itself when it is not one JSON value)."""
    field = JSONField()
    expected = field.from_db_value(text, None, None)
    found = rows_module.json_value(text)
    assert repr(found) == repr(expected) and type(found) is type(expected)
