"""The REST API's conventions, shared by every app: error handling, bounded input fields,
strict input, and scoping.

Serializers only parse; services validate and write. Django `ValidationError` from a service
becomes a 400 naming the field, `PermissionDenied` a 403 with its reason; objects outside the
user's scope are not in the queryset, so they answer 404 (who may see what is the `access`
hook's answer, registered by `cardroom`: `core.hooks`).
"""

from collections.abc import Mapping
from datetime import UTC, datetime

from django.core.exceptions import NON_FIELD_ERRORS, RequestDataTooBig, SuspiciousOperation
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.db import DataError, IntegrityError, models
from django.http import JsonResponse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema_field
from rest_framework import exceptions, mixins, serializers, viewsets
from rest_framework.fields import get_error_detail
from rest_framework.response import Response
from rest_framework.settings import ISO_8601, api_settings
from rest_framework.validators import ProhibitSurrogateCharactersValidator
from rest_framework.views import exception_handler as drf_exception_handler

from . import limits
from .database_refusals import database_refusal, unique_named
from .parsers import BodyTooLarge
from .rules import HOUSE_CONTROL, stock_message_named
from .scoping import access_for


def _keyed(refusal: DjangoValidationError):
    """A refusal's detail as the API answers it: by field, and a record's own errors (Django's
    `__all__`: a constraint on several fields its check finds) under `non_field_errors`, where the
    database's refusal of the same record says them."""
    detail = get_error_detail(refusal)
    if not isinstance(detail, dict):
        return detail
    return {api_settings.NON_FIELD_ERRORS_KEY if key == NON_FIELD_ERRORS else key: said for key, said in detail.items()}


def exception_handler(exc, context):
    if isinstance(exc, DjangoValidationError):  # a service's; a record already kept named as the pages name it
        exc = exceptions.ValidationError(detail=_keyed(unique_named(exc)))
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(detail=str(exc) or None)
    elif isinstance(exc, (IntegrityError, DataError)):  # two copies met at a constraint; a value out of range
        refusal = database_refusal(exc)
        exc = exceptions.ValidationError(
            detail=_keyed(refusal)
            if hasattr(refusal, "error_dict")
            else {api_settings.NON_FIELD_ERRORS_KEY: refusal.messages}
        )
    elif isinstance(exc, RequestDataTooBig):
        exc = BodyTooLarge()
    elif isinstance(exc, SuspiciousOperation):
        exc = exceptions.ValidationError({"non_field_errors": [str(exc)]})
    elif isinstance(exc, exceptions.Throttled):
        exc = _throttled(exc, context)
    return drf_exception_handler(exc, context)


def _throttled(exc: exceptions.Throttled, context) -> exceptions.Throttled:
    """429 naming the limit that was reached (house control) and when to try again."""
    throttle = getattr(context.get("request"), "throttled_by", None)
    limit = f"the limit is {throttle.limit_text()} (house control)" if throttle else "a rate limit was reached"
    wait = f"try again in {int(exc.wait) + 1} seconds" if exc.wait is not None else "try again later"
    return exceptions.Throttled(wait=exc.wait, detail=f"Too many requests: {limit}; {wait}.")


@csrf_exempt  # it writes nothing, and a POST to a wrong URL should learn that, not about CSRF
def api_not_found(request, *args, **kwargs):
    """Any URL under /api/ that names no endpoint (or an id that is not a number)."""
    return JsonResponse({"detail": "Not found."}, status=404)


# --- Bounded input fields (core.limits; house controls) ---------------------------------


class CentsField(serializers.IntegerField):
    """An amount in cents, at most `limits.MAX_AMOUNT_CENTS` either way (min_value narrows it)."""

    default_error_messages = {
        **serializers.IntegerField.default_error_messages,
        "max_value": limits.amount_message(),
        "min_value": limits.minimum_amount_message(),
    }

    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", -limits.MAX_AMOUNT_CENTS)
        kwargs.setdefault("max_value", limits.MAX_AMOUNT_CENTS)
        super().__init__(**kwargs)


class FormNumberField(serializers.IntegerField):
    """A printed form number (a slip, a slip book's first or last number)."""

    default_error_messages = {
        **serializers.IntegerField.default_error_messages,
        "max_value": f"A form number is at most {limits.MAX_FORM_NUMBER:,} ({limits.HOUSE_CONTROL}).",
    }

    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", limits.MAX_FORM_NUMBER)
        super().__init__(**kwargs)


class DateField(serializers.DateField):
    """A date within `limits.FIRST_DATE`..`limits.LAST_DATE`."""

    default_error_messages = {
        **serializers.DateField.default_error_messages,
        "range": limits.date_message(),
    }

    def to_internal_value(self, value):
        if limits.impossible_date(value):  # 2026-02-30: written right, but no day (as the query parameters say)
            message = limits.no_such_date_message(value, self.field_name or "the date")
            raise serializers.ValidationError(message, code="impossible")
        parsed = super().to_internal_value(value)
        if not limits.date_in_range(parsed):
            self.fail("range")
        return parsed


class DateTimeField(serializers.DateTimeField):
    """A moment whose date (in the project's time zone) is within the books' range."""

    default_error_messages = {**serializers.DateTimeField.default_error_messages, "range": limits.date_message()}

    def to_internal_value(self, value):
        parsed = super().to_internal_value(value)
        first, last = limits.aware_bounds()
        if timezone.is_aware(parsed) and not first <= parsed <= last:
            self.fail("range")
        return parsed


_DRF_MOMENT_TEXT = serializers.DateTimeField.to_representation


def moment_in_utc(field: serializers.DateTimeField, value):
    """How the API writes a moment: in UTC, ISO 8601 ending in "Z" (2026-11-29T01:00:00Z), whoever
    asks and wherever the record's site is. DRF writes it in the current time zone, which in the
    API is the settings' TIME_ZONE (Chicago), never the site's: a Pacific site's 5 p.m. came out
    as 19:00-06:00 beside other answers' "Z". The record's site and its `time_zone` are in the
    answer for local time. Installed on DRF's DateTimeField by `core.apps` (every serializer's
    moments, answers written directly included); a naive moment is left to DRF."""
    output_format = getattr(field, "format", api_settings.DATETIME_FORMAT)
    if not isinstance(value, datetime) or timezone.is_naive(value) or output_format is None:
        return _DRF_MOMENT_TEXT(field, value)
    value = value.astimezone(UTC)
    if output_format.lower() == ISO_8601:
        text = value.isoformat()
        return text[:-6] + "Z" if text.endswith("+00:00") else text
    return value.strftime(output_format)


def write_moments_in_utc() -> None:
    serializers.DateTimeField.to_representation = moment_in_utc


def moment_writer(field: serializers.DateTimeField):
    """`field.to_representation` made once a request (an answer built directly, issue 37, writes
    several moments a row of a list): in UTC (`moment_in_utc`)."""
    output_format = {"format": field.format} if hasattr(field, "format") else {}  # DRF's default unless set
    return serializers.DateTimeField(default_timezone=field.default_timezone(), **output_format).to_representation


class MomentField(DateTimeField):
    """When a record happened (paper-first and late entry, core.moments): ISO 8601 with an
    offset, or without one for the site's local time (the service reads it in the site's zone)."""

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault(
            "help_text",
            "When it happened (default: now). With an offset, or without for the site's local time; "
            "not in the future, inside its gaming day's business hours, never in closed books.",
        )
        super().__init__(**kwargs)

    def enforce_timezone(self, value):
        return value if timezone.is_naive(value) else super().enforce_timezone(value)

    def to_internal_value(self, value):
        parsed = super().to_internal_value(value)
        if timezone.is_naive(parsed) and not limits.date_in_range(parsed):
            self.fail("range")  # a local time is in the books' range too
        return parsed


class TextField(serializers.CharField):
    """Free text (a note, reason, description...): at most `limits.MAX_TEXT_LENGTH` characters."""

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", limits.MAX_TEXT_LENGTH)
        super().__init__(**kwargs)


# --- Strict input (house control) -------------------------------------------------------------


class StrictInputMixin:
    """Refuses what a request body says beyond the fields the endpoint reads: an unknown field
    is a 400 naming it (a typo must not be dropped silently), and a field given twice (a form
    key repeated; JSON objects with a repeated key are refused by core.parsers) is a 400. A value
    that is not one of a field's choices is a 400 naming the field and listing its choices.
    Every input serializer of the API derives from `Input` or `InputSerializer` (or this mixin).

    A required field left out is a 400 naming the field and its rule, never DRF's bare "This field
    is required.": `required_rules` maps a field the record's own regulation requires to that rule
    (a `packs.Rule`) and why, cited at the record's site (`required_where`); any other required
    field is the house's control (core.rules.HOUSE_CONTROL).

    Any other of DRF's stock messages ("Date has wrong format...", "Invalid pk...", "A valid
    integer is required.") names the field and House control before DRF's own words of what is
    wrong (`_stock_messages`); a message a field or serializer set itself is left as it is."""

    required_rules: Mapping[str, tuple] = {}

    def to_internal_value(self, data):
        if isinstance(data, Mapping):
            writable = {name: field for name, field in self.fields.items() if not field.read_only}
            for name, field in writable.items():
                if isinstance(field, serializers.ChoiceField):
                    field.error_messages["invalid_choice"] = _choice_message(name, field)
                _stock_messages(name, field)
            missing = [name for name, field in writable.items() if field.required and name not in data]
            for name in missing:
                writable[name].error_messages["required"] = self.required_message(name, data)
            errors = {
                name: [f"House control: unknown field {name!r}; this endpoint reads {_field_list(writable)}."]
                for name in data
                if name not in writable
            }
            if hasattr(data, "getlist"):  # a form body: one value per field unless the field is a list
                for name, field in writable.items():
                    if len(data.getlist(name)) > 1 and not isinstance(
                        field, serializers.ListField | serializers.ManyRelatedField
                    ):
                        errors[name] = [f"House control: the field {name!r} is given twice; give it once."]
            errors.update(_id_errors(data, writable))
            if errors:
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)

    def required_message(self, name: str, data) -> str:
        """What a required field left out is refused with: its rule and why."""
        rule, why = self.required_rules.get(name, (None, "the record is not made without it"))
        where = self.required_where(data) if rule is not None else None
        cited = rule.at(where) if where is not None else HOUSE_CONTROL
        return f"{cited}: {name} is required; {why}."

    def required_where(self, data):
        """Where the record is, for citing its rule: the site the view puts in the context (an
        action on one record, a tournament's fee), the site or table the body names, else the
        jurisdiction all the user's sites share; None (the house's control) where none says."""
        if self.context.get("site") is not None:
            return self.context["site"]
        for name in ("table", "site"):
            field = self.fields.get(name)
            if field is not None and data.get(name) not in (None, ""):
                try:
                    found = field.to_internal_value(data[name])
                except serializers.ValidationError:
                    break
                if hasattr(found, "jurisdiction") or hasattr(found, "site_id"):  # a Site or a Table
                    return found
                break
        request = self.context.get("request")
        if request is None:
            return None
        codes = {site.jurisdiction for site in access_for(request.user).sites()}
        return codes.pop() if len(codes) == 1 else None


def required_by(rule, **why: str) -> dict[str, tuple]:
    """`StrictInputMixin.required_rules` for fields one rule of the law requires, each with why it
    does: `required_by(rules.OUTAGE_DEADLINE, began_at="the days to repair run from it; give when")`."""
    return {name: (rule, reason) for name, reason in why.items()}


def _choice_message(name: str, field: serializers.ChoiceField) -> str:
    """House control: the field's choices named where DRF says only that the value is not one
    ("{input}" is filled in by the field)."""
    choices = [str(choice).replace("{", "{{").replace("}", "}}") for choice in field.choices]
    listed = ", ".join(choices[:MAX_CHOICES_LISTED]) + (", ..." if len(choices) > MAX_CHOICES_LISTED else "")
    return f'House control: {name} is one of {listed} (got "{{input}}").'


MAX_CHOICES_LISTED = 20  # a longer list (a chip colour, a time zone) is cut: the schema lists them all


def _stock_messages(name: str, field: serializers.Field) -> None:
    """House control: each of DRF's stock messages of the field (and of the id or item a list of
    them holds) names the field, DRF's words after it. Only a message still equal to a DRF class's
    default is reworded, so a field's own message (one that cites its rule) stays; "required" is
    `required_message`'s. Idempotent: a reworded message is no longer a default."""
    for each in (field, getattr(field, "child_relation", None), getattr(field, "child", None)):
        if not isinstance(each, serializers.Field) or isinstance(each, serializers.BaseSerializer):
            continue  # a nested input serializer names its own fields
        defaults = _drf_defaults(type(each))
        for key, message in each.error_messages.items():
            if key != "required" and key in defaults and str(defaults[key]) == str(message):  # lazy text
                each.error_messages[key] = stock_message_named(name, str(message))
        for validator in each.validators:  # a text's NUL or half surrogate pair: DRF's validators' words
            if isinstance(validator, _CHARACTER_VALIDATORS) and str(validator.message) == str(type(validator).message):
                validator.message = stock_message_named(name, str(validator.message))


# What every CharField checks with a validator of its own, not an error message (DRF's own words).
_CHARACTER_VALIDATORS = (ProhibitNullCharactersValidator, ProhibitSurrogateCharactersValidator)


def _drf_defaults(cls: type) -> dict[str, str]:
    """The messages DRF's own classes in `cls`'s ancestry give, by key (as Field.__init__ gathers them)."""
    defaults: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        if klass.__module__.startswith("rest_framework."):
            defaults.update(getattr(klass, "default_error_messages", {}))
    return defaults


def _field_list(fields) -> str:
    return ", ".join(sorted(fields)) if fields else "no fields"


def _id_errors(data, fields) -> dict[str, list[str]]:
    """House control: an id names a row by its whole number, 1 to `limits.MAX_ID`, written as a
    JSON integer or (in a form body) as digits. DRF would look `1.9` or `true` up as 1 (the
    database truncates the key), so every related field of every input is checked here first."""
    errors = {}
    for name, field in fields.items():
        if name not in data or not isinstance(field, serializers.PrimaryKeyRelatedField | serializers.ManyRelatedField):
            continue
        many = isinstance(field, serializers.ManyRelatedField)
        values = (data.getlist(name) if hasattr(data, "getlist") else data[name]) if many else [data[name]]
        if not isinstance(values, list):
            continue  # not a list: the field's own message says so
        wrong = next((value for value in values if value not in (None, "") and not _is_id(value)), None)
        if wrong is not None:
            errors[name] = [
                f"House control: {name} is an id, a whole number from 1 to {limits.MAX_ID} (got {wrong!r})."
            ]
    return errors


def _is_id(value) -> bool:
    if isinstance(value, str) and limits.digits(value):
        value = int(value)
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= limits.MAX_ID


class Input(StrictInputMixin, serializers.Serializer):
    """Only the fields listed here: any other field is a 400 naming it."""


ERROR_RESPONSES = {
    400: OpenApiResponse(description="Bad input: the message names the field and the rule."),
    403: OpenApiResponse(description="Your role may not do this here."),
    404: OpenApiResponse(description="Not found in the sites you may see."),
}


class ScopedViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Read access scoped by `scope(access)`; writes go through `create_object`/`update_object`."""

    output_serializer_class: type[serializers.Serializer]
    input_serializer_class: type[serializers.Serializer] | None = None
    # The answer to a create, where it says more than the row (what the write leaves to see to).
    created_serializer_class: type[serializers.Serializer] | None = None
    # The answer to a create or a change, where it says more than the row (what the site's rules
    # say of it as saved); a create's own answer above comes first.
    saved_serializer_class: type[serializers.Serializer] | None = None

    @property
    def access(self):
        return access_for(self.request.user)

    def scope(self, access):
        raise NotImplementedError

    def get_queryset(self):
        return self.scope(self.access)

    def get_serializer_class(self):
        if self.action in {"create", "update", "partial_update"} and self.input_serializer_class:
            return self.input_serializer_class
        return self.output_serializer_class

    def write(self, request, instance=None, partial=False, status=201):
        serializer = self.get_serializer(instance, data=request.data, partial=partial)
        serializer.is_valid(raise_exception=True)
        if instance is None:
            obj = self.create_object(serializer.validated_data)
        else:
            obj = self.update_object(instance, serializer.validated_data)
        answer = (
            (instance is None and self.created_serializer_class)
            or self.saved_serializer_class
            or self.output_serializer_class
        )
        return Response(answer(obj, context=self.get_serializer_context()).data, status=status)


class WritableScopedViewSet(ScopedViewSet):
    def create(self, request, *args, **kwargs):
        return self.write(request)

    def update(self, request, *args, **kwargs):
        return self.write(request, self.get_object(), partial=kwargs.get("partial", False), status=200)

    def partial_update(self, request, *args, **kwargs):
        return self.update(request, *args, partial=True, **kwargs)


@extend_schema_field(OpenApiTypes.INT)
class ScopedField(serializers.PrimaryKeyRelatedField):
    """An id among the rows of `model` at sites the user may see; any other is 'does not exist'."""

    def __init__(self, model, site_path="site", **kwargs):
        self.model, self.site_path = model, site_path
        super().__init__(**kwargs)

    def get_queryset(self):
        sites = access_for(self.context["request"].user).sites()
        return self.model.objects.filter(**{f"{self.site_path}__in": sites})


@extend_schema_field(OpenApiTypes.INT)
class ScopedSiteField(serializers.PrimaryKeyRelatedField):
    """A site id the requesting user may see; any other id is 'does not exist'."""

    def get_queryset(self):
        return access_for(self.context["request"].user).sites()


class InputSerializer(StrictInputMixin, serializers.ModelSerializer):
    """Parses only: business and uniqueness rules run once, in the service. Model fields map to
    the bounded fields: dates within the books' range, amounts (`*_cents`) within
    `limits.MAX_AMOUNT_CENTS`, text within its model's or `limits.MAX_TEXT_LENGTH`."""

    serializer_field_mapping = {
        **serializers.ModelSerializer.serializer_field_mapping,
        models.DateField: DateField,
        models.DateTimeField: DateTimeField,
    }

    def get_validators(self):
        return []

    def build_standard_field(self, field_name, model_field):
        field_class, kwargs = super().build_standard_field(field_name, model_field)
        if issubclass(field_class, serializers.IntegerField) and field_name.endswith("_cents"):
            field_class = CentsField
            kwargs["max_value"] = min(kwargs.get("max_value", limits.MAX_AMOUNT_CENTS), limits.MAX_AMOUNT_CENTS)
            kwargs["min_value"] = max(kwargs.get("min_value", -limits.MAX_AMOUNT_CENTS), -limits.MAX_AMOUNT_CENTS)
        if isinstance(model_field, models.TextField) and "choices" not in kwargs:
            kwargs.setdefault("max_length", limits.MAX_TEXT_LENGTH)
        return field_class, kwargs
