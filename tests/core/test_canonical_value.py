"""A row's canonical values (core.audit_rows.canonical_value) are what every row event
records and every verification compares, so a faster way to compute them must give exactly
what the definition gives: the value's JSON form, kept as its SHA-256 when that JSON is longer
than LONG_VALUE characters."""

import hashlib
from datetime import UTC, date, datetime, time, timedelta, timezone
from decimal import Decimal, InvalidOperation, localcontext
from uuid import UUID

import pytest
from django.core.exceptions import ValidationError
from django.db import models
from hypothesis import example, given
from hypothesis import strategies as st

from core.audit import canonical_json
from core.audit_rows import LONG_VALUE, canonical_row, canonical_value, row_plan


def by_definition(field, value):
    if value is None:
        return None
    value = field.to_python(value)
    if isinstance(value, datetime):
        value = value.astimezone(UTC).isoformat()
    elif isinstance(value, date | time):
        value = value.isoformat()
    elif isinstance(value, Decimal):
        value = str(value.quantize(Decimal(1).scaleb(-field.decimal_places)))
    elif isinstance(value, UUID):
        value = str(value)
    text = canonical_json(value)
    return {"sha256": hashlib.sha256(text.encode()).hexdigest()} if len(text) > LONG_VALUE else value


zones = st.integers(-14 * 60, 14 * 60).map(lambda m: timezone(timedelta(minutes=m)))


@given(st.datetimes(timezones=zones))
def test_datetimes(value):
    field = models.DateTimeField()
    assert canonical_value(field, value) == by_definition(field, value)


@given(st.dates())
def test_dates(value):
    field = models.DateField()
    assert canonical_value(field, value) == by_definition(field, value)


@given(st.times())
def test_times(value):
    field = models.TimeField()
    assert canonical_value(field, value) == by_definition(field, value)


@given(st.uuids())
def test_uuids(value):
    field = models.UUIDField()
    assert canonical_value(field, value) == by_definition(field, value)


@given(st.integers(min_value=-(10**300), max_value=10**300), st.integers(0, 4))
def test_decimals_short_and_longer_than_a_value_is_kept(units, places):
    field = models.DecimalField(max_digits=400, decimal_places=places)
    with localcontext(prec=500):  # digits beyond the default 28, to reach values longer than LONG_VALUE
        value = Decimal(units).scaleb(-places)
        assert canonical_value(field, value) == by_definition(field, value)


def test_a_decimal_just_at_and_just_over_the_limit():
    field = models.DecimalField(max_digits=400, decimal_places=0)
    at, over = Decimal("9" * (LONG_VALUE - 2)), Decimal("9" * (LONG_VALUE - 1))
    with localcontext(prec=500):
        assert canonical_value(field, at) == str(at)
        assert canonical_value(field, over) == {"sha256": hashlib.sha256(f'"{over}"'.encode()).hexdigest()}


# A row's plain values (an int in an integer field, a short text...) are taken as they come:
# every field kind with every value kind it may hold gives what `canonical_value` gives.
ROW_FIELDS = [
    models.BigAutoField(primary_key=True),
    models.PositiveIntegerField(),
    models.BooleanField(),
    models.CharField(max_length=400),
    models.TextField(),
    models.JSONField(),
    models.DateField(),
    models.DateTimeField(),
    models.DecimalField(max_digits=12, decimal_places=2),
]
for _number, _field in enumerate(ROW_FIELDS):
    _field.set_attributes_from_name(f"f{_number}")
ROW_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**6), 10**6), st.text(max_size=LONG_VALUE + 2).filter(str.strip),
    st.just("7"), st.just("1"), st.dates(), st.datetimes(), st.datetimes(timezones=zones),
)  # fmt: skip


@pytest.mark.filterwarnings("ignore:DateTimeField .* received a naive datetime:RuntimeWarning")
@given(ROW_VALUES)
@example("1E100")  # found by the suite on 2026-12-04: a decimal text its decimal field cannot hold
def test_a_rows_plain_values_are_canonical_as_each_value_alone(value):
    """As `canonical_value` gives them, which recorded every row event (a text of up to
    LONG_VALUE characters is kept as it is, whatever the length of its escaped JSON)."""
    for field in ROW_FIELDS:
        try:
            expected = canonical_value(field, value)
        except (ValidationError, TypeError, InvalidOperation):
            # a value its field refuses is never read from a row (a text such as "1E100" parses as a
            # decimal of more digits than its field's twelve, which no row of the field holds)
            continue
        row = canonical_row([field], [value], row_plan([field]))
        assert row == {field.attname: expected} and type(row[field.attname]) is type(expected)


def test_a_bool_in_an_integer_field_and_a_long_text_go_through_canonical_value():
    number, text = ROW_FIELDS[1], ROW_FIELDS[4]
    row = canonical_row([number, text], [True, "x" * (LONG_VALUE + 1)])
    assert row == {"f1": 1, "f4": canonical_value(text, "x" * (LONG_VALUE + 1))} and type(row["f1"]) is int
