"""Strict input (house control): a field the endpoint does not read is a 400 naming it, a field
given twice is a 400, and a chip line's `denomination` is the chip's value in cents, only."""

import json

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework import serializers

from cardroom.models import Role, Site
from core.api import Input, StrictInputMixin


def request_serializers():
    """(operation, serializer class) for every operation of the API that reads a body."""
    generator = SchemaGenerator()
    generator._initialise_endpoints()
    found = []
    for path, path_regex, method, view in generator._get_paths_and_endpoints():
        if method not in ("POST", "PUT", "PATCH"):
            continue
        schema = view.schema
        schema.method, schema.path, schema.path_regex, schema.path_prefix = method, path, path_regex, "/api/v1"
        view.request = None
        serializer = schema.get_request_serializer()
        if serializer is None:
            continue
        if isinstance(serializer, serializers.BaseSerializer):
            serializer = serializer.child if isinstance(serializer, serializers.ListSerializer) else serializer
            serializer = type(serializer)
        found.append((f"{method} {path}", serializer))
    return found


OPERATIONS = request_serializers()


def test_every_body_is_read_strictly():
    assert len(OPERATIONS) > 40  # the enumeration found the API's writes
    lax = [name for name, serializer in OPERATIONS if not issubclass(serializer, StrictInputMixin)]
    assert not lax


@pytest.mark.django_db
@pytest.mark.parametrize("name,serializer", OPERATIONS, ids=[name for name, _ in OPERATIONS])
def test_an_unknown_field_is_refused_by_name(name, serializer, rf, django_user_model):
    request = rf.post("/")
    request.user = django_user_model.objects.create(username="x")
    parsed = serializer(data={"zz_not_a_field": 1}, context={"request": request})
    assert not parsed.is_valid()
    assert "House control: unknown field 'zz_not_a_field'" in str(parsed.errors["zz_not_a_field"][0])


@pytest.mark.django_db
def test_a_misspelt_field_on_a_slip_is_a_400_and_writes_nothing(client_for, cast, open_table):
    from floor.models import Slip

    client = client_for(cast[Role.CASHIER])
    body = {"table": open_table.pk, "chips": [{"denomination": 500, "quantity": 4}], "purpse": "regular"}
    response = client.post("/api/v1/fill-slips/", body, format="json")
    assert response.status_code == 400
    assert "purpse" in response.json()
    assert not Slip.objects.exists()


@pytest.mark.django_db
def test_a_chip_line_with_an_unknown_key_or_two_forms_is_refused(client_for, cast, open_table):
    from floor.models import Slip

    client = client_for(cast[Role.CASHIER])
    for line in (
        {"denomination": 500, "quantity": 4, "colour": "red"},
        {"denomination": 500, "value_cents": 500, "quantity": 4},
    ):
        response = client.post("/api/v1/fill-slips/", {"table": open_table.pk, "chips": [line]}, format="json")
        assert response.status_code == 400, line
        assert "chips" in response.json()
    assert not Slip.objects.exists()


@pytest.mark.django_db
def test_denomination_is_the_value_in_cents_not_an_id(client_for, cast, open_table, chips):
    from floor.models import Slip

    client = client_for(cast[Role.CASHIER])
    values = {c.value_cents for c in chips.values()}
    by_id = next(c.pk for c in chips.values() if c.pk not in values)  # an id that is no chip's value
    response = client.post(
        "/api/v1/fill-slips/",
        {"table": open_table.pk, "chips": [{"denomination": by_id, "quantity": 4}]},
        format="json",
    )
    assert response.status_code == 400
    assert not Slip.objects.exists()
    response = client.post(
        "/api/v1/fill-slips/", {"table": open_table.pk, "chips": [{"denomination": 2500, "quantity": 4}]}, format="json"
    )
    assert response.status_code == 201, response.json()
    assert response.json()["total_cents"] == 10000


@pytest.mark.django_db
def test_a_key_given_twice_in_json_is_refused(client_for, cast, open_table):
    from floor.models import Slip

    client = client_for(cast[Role.CASHIER])
    table = open_table.pk
    body = f'{{"table": {table}, "table": {table}, "chips": [{{"denomination": 500, "quantity": 4}}]}}'
    response = client.post("/api/v1/fill-slips/", body, content_type="application/json")
    assert response.status_code == 400
    assert "table" in json.dumps(response.json())
    assert not Slip.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("body", ['{"name": "A",', "NaN", "{'name': 'A'}"])
def test_a_body_that_is_no_json_is_a_400_naming_house_control_and_nothing_is_made(client_for, cast, body):
    before = Site.objects.count()
    response = client_for(cast[Role.GAMING_MANAGER]).post("/api/v1/sites/", body, content_type="application/json")
    assert response.status_code == 400, response.content
    detail = response.json()["detail"]
    assert detail.startswith("JSON parse error - ") and detail.endswith(" (house control)."), detail
    assert Site.objects.count() == before


@pytest.mark.django_db
def test_a_form_field_given_twice_is_refused(client_for, cast):
    client = client_for(cast[Role.GAMING_MANAGER])
    response = client.post(
        "/api/v1/sites/", "name=A&name=B&time_zone=America/Chicago", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 400
    assert "given twice" in response.json()["name"][0]


@pytest.mark.django_db
def test_login_refuses_unknown_fields(client, cast):
    response = client.post("/api/v1/auth/token/", {"username": "x", "password": "y", "remember": "1"})
    assert response.status_code == 400
    assert "remember" in response.json()


def test_a_currency_line_or_form_found_with_an_unknown_key_is_refused():
    from django.core.exceptions import ValidationError

    from counts.services.figures import parse_currency, parse_forms

    with pytest.raises(ValidationError, match="no field 'colour'"):
        parse_currency([{"denomination_cents": 100, "quantity": 1, "colour": "green"}], "ND")
    with pytest.raises(ValidationError, match="no field 'table'"):
        parse_forms([{"kind": "fill", "number": 7, "table": 1}], "ND")
    assert parse_currency([{"denomination_cents": 100, "quantity": 1, "form": "coin"}], "ND") == {(100, "coin"): 1}


@pytest.mark.django_db
def test_a_cage_line_giving_its_value_twice_or_an_unknown_key_is_refused(org, chips):
    from django.core.exceptions import ValidationError

    from cage.services import parse_chip_lines

    for line in ({"value_cents": 500, "denomination": 500, "quantity": 1}, {"value_cents": 500, "quantity": 1, "x": 1}):
        with pytest.raises(
            ValidationError, match=r"names value_cents \(or denomination, not both\) and quantity, and nothing else"
        ):
            parse_chip_lines([line], org.pk, citation="ND 99-01.3-08-07")
    assert parse_chip_lines([{"denomination": 500, "quantity": 2}], org.pk, citation="ND")[chips[500]] == 2


def test_the_bodies_choice_fields_are_found():
    found = [
        (name, field)
        for name, serializer in OPERATIONS
        for field, each in serializer().fields.items()
        if isinstance(each, serializers.ChoiceField) and not each.read_only
    ]
    assert len(found) > 40, found  # the test below walks them, not an empty list


@pytest.mark.django_db
@pytest.mark.parametrize("name,serializer", OPERATIONS, ids=[name for name, _ in OPERATIONS])
def test_a_value_not_among_a_fields_choices_is_refused_naming_them(name, serializer, rf, django_user_model):
    """House control: DRF's own message ("x" is not a valid choice) names neither the field nor
    what it takes; every choice field of every body says both."""
    request = rf.post("/")
    request.user = django_user_model.objects.create(username="x")
    fields = serializer(context={"request": request}).fields
    choices = {n: f for n, f in fields.items() if isinstance(f, serializers.ChoiceField) and not f.read_only}
    for field_name, field in choices.items():
        parsed = serializer(data={field_name: "zz-not-a-choice"}, context={"request": request})
        assert not parsed.is_valid()
        message = str(parsed.errors[field_name][0])
        first = str(next(iter(field.choices)))
        assert message.startswith(f"House control: {field_name} is one of {first}"), message
        assert message.endswith('(got "zz-not-a-choice").'), message


@pytest.mark.django_db
def test_a_slip_purpose_not_among_its_choices_is_a_400_naming_them_and_writes_nothing(client_for, cast, open_table):
    from floor.models import Slip

    client = client_for(cast[Role.CASHIER])
    body = {"table": open_table.pk, "chips": [{"denomination": 500, "quantity": 4}], "purpose": "bogus"}
    response = client.post("/api/v1/fill-slips/", body, format="json")
    assert response.status_code == 400
    assert response.json() == {
        "purpose": ['House control: purpose is one of regular, tray_transfer, jar_bar (got "bogus").']
    }
    assert not Slip.objects.exists()


class NoteInput(Input):
    note = serializers.CharField()


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("a\x00b", "House control: note: null characters are not allowed."),
        ("a\ud800b", "House control: note: surrogate characters are not allowed: U+D800."),
    ],
    ids=["NUL", "half a surrogate pair"],
)
def test_text_no_database_keeps_is_refused_naming_the_field_and_house_control(text, said):
    """DRF refuses it with a validator of its own, not an error message: named as its other stock
    messages are (core.api._stock_messages), no more its bare words."""
    parsed = NoteInput(data={"note": text})
    assert not parsed.is_valid()
    assert parsed.errors == {"note": [said]}
