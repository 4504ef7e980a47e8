"""REST API conventions shared by every app: error handling, scoping, and the core endpoints.

Serializers only parse; services validate and write. Django `ValidationError` from a service
becomes a 400 naming the field, `PermissionDenied` a 403 with its reason; objects outside the
user's scope are not in the queryset, so they answer 404.
"""

from collections.abc import Mapping

from django.contrib.auth.signals import user_logged_in
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError, IntegrityError, models
from django.db.models import Q
from django.http import JsonResponse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field, extend_schema_view
from knox.views import LogoutAllView as KnoxLogoutAllView
from knox.views import LogoutView as KnoxLogoutView
from rest_framework import exceptions, mixins, serializers, viewsets
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.fields import get_error_detail
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView
from rest_framework.views import exception_handler as drf_exception_handler

from . import limits, services
from .access import access_for
from .api_filters import FilterSet, IdFilter
from .models import ChipDenomination, Employee, EmployeeRelation, Membership, Organization, Role, Site, Table
from .parsers import BodyTooLarge
from .throttles import LoginRateThrottle
from .tokens import issue_token


def exception_handler(exc, context):
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(detail=get_error_detail(exc))
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(detail=str(exc) or None)
    elif isinstance(exc, IntegrityError):
        exc = exceptions.ValidationError({"non_field_errors": [f"Refused by the database: {exc}"]})
    elif isinstance(exc, DataError):  # a value out of a column's range that no bound caught first
        exc = exceptions.ValidationError({"non_field_errors": ["Refused by the database: a value is out of range."]})
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


# --- Bounded input fields (cardroom.limits; house controls) ---------------------------------


class CentsField(serializers.IntegerField):
    """An amount in cents, at most `limits.MAX_AMOUNT_CENTS` either way (min_value narrows it)."""

    default_error_messages = {
        **serializers.IntegerField.default_error_messages,
        "max_value": limits.amount_message(),
        "min_value": "The amount must be at least {min_value} cents.",
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

    default_error_messages = {**serializers.DateField.default_error_messages, "range": limits.date_message()}

    def to_internal_value(self, value):
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


class MomentField(DateTimeField):
    """When a record happened (paper-first and late entry, cardroom.moments): ISO 8601 with an
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
    key repeated; JSON objects with a repeated key are refused by cardroom.parsers) is a 400.
    Every input serializer of the API derives from `Input` or `InputSerializer` (or this mixin)."""

    def to_internal_value(self, data):
        if isinstance(data, Mapping):
            writable = {name: field for name, field in self.fields.items() if not field.read_only}
            errors = {
                name: [f"House control: unknown field {name!r}; this endpoint reads {_field_list(writable)}."]
                for name in data
                if name not in writable
            }
            if hasattr(data, "getlist"):  # a form body: one value per field unless the field is a list
                for name, field in writable.items():
                    if len(data.getlist(name)) > 1 and not isinstance(field, serializers.ListField | serializers.ManyRelatedField):
                        errors[name] = [f"House control: the field {name!r} is given twice; give it once."]
            errors.update(_id_errors(data, writable))
            if errors:
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)


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
    if isinstance(value, str) and value.isascii() and value.isdigit():
        value = int(value)
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= limits.MAX_ID


class Input(StrictInputMixin, serializers.Serializer):
    """Only the fields listed here: any other field is a 400 naming it."""


class PinSignerInput(Input):
    """A step initialled on a shared terminal (a station login, cardroom.pins): the badge
    (initials) and PIN of the person doing it, who is then checked and recorded as the actor.
    Required when the token is a station's; optional otherwise (without them the token's holder
    acts)."""

    signer_badge = serializers.CharField(
        required=False, max_length=4, help_text="The initials (badge) of the person doing the step, on a station."
    )
    signer_pin = serializers.CharField(
        required=False,
        max_length=32,
        write_only=True,
        style={"input_type": "password"},
        help_text="Their signing PIN; wrong PINs are counted and lock it like a password (403).",
    )


def pin_acting_user(request, data: dict):
    """Who acts: the PIN holder named in `data` (its signer fields removed), otherwise the
    token's holder; a station alone acts as nobody (403)."""
    from .pins import acting_user_for

    return acting_user_for(request.user, badge=data.pop("signer_badge", ""), pin=data.pop("signer_pin", ""))


ERROR_RESPONSES = {
    400: OpenApiResponse(description="Bad input: the message names the field and the rule."),
    403: OpenApiResponse(description="Your role may not do this here."),
    404: OpenApiResponse(description="Not found in the sites you may see."),
}


class ScopedViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Read access scoped by `scope(access)`; writes go through `create_object`/`update_object`."""

    output_serializer_class: type[serializers.Serializer]
    input_serializer_class: type[serializers.Serializer] | None = None

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
        return Response(self.output_serializer_class(obj, context=self.get_serializer_context()).data, status=status)


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


@extend_schema_field(OpenApiTypes.INT)
class ScopedEmployeeField(serializers.PrimaryKeyRelatedField):
    def get_queryset(self):
        return Employee.objects.filter(organization_id=access_for(self.context["request"].user).organization_id)


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


# --- Sites ------------------------------------------------------------------------------


class SiteSerializer(serializers.ModelSerializer):
    class Meta:
        model = Site
        fields = [
            "id",
            "organization",
            "name",
            "jurisdiction",
            "time_zone",
            "business_day_start_hour",
            "late_entry_minutes",
            "seasonal",
            "active",
            "twenty_one_discontinued_on",
        ]
        read_only_fields = ["organization"]


class SiteInputSerializer(InputSerializer):
    # ND 99-01.3-08-10(1): the one dealing method of the site's twenty-one tables, changed together.
    dealing_method = serializers.ChoiceField(choices=Table.DealingMethod.choices, required=False, write_only=True)

    class Meta(SiteSerializer.Meta):
        fields = [
            "name",
            "jurisdiction",
            "time_zone",
            "business_day_start_hour",
            "late_entry_minutes",
            "seasonal",
            "active",
            "twenty_one_discontinued_on",
            "dealing_method",
        ]
        read_only_fields = []


@extend_schema_view(
    create=extend_schema(responses={201: SiteSerializer, **ERROR_RESPONSES}),
    update=extend_schema(responses={200: SiteSerializer, **ERROR_RESPONSES}),
    partial_update=extend_schema(responses={200: SiteSerializer, **ERROR_RESPONSES}),
)
class SiteViewSet(WritableScopedViewSet):
    output_serializer_class = SiteSerializer
    input_serializer_class = SiteInputSerializer
    filterset_fields = ["jurisdiction", "active"]

    def scope(self, access):
        return access.sites().order_by("name")

    def create_object(self, data):
        data.pop("dealing_method", None)  # a new site has no table yet: each new table sets it
        return services.create_site(acting_user=self.request.user, organization=self.access.employee_org(), **data)

    def update_object(self, site, data):
        return services.update_site(acting_user=self.request.user, site=site, **data)


# --- Tables -----------------------------------------------------------------------------


TABLE_PACK_OPTIONS = [
    "max_players", "betting_spaces", "dealt_from", "double_on", "double_after_split", "split_pairs",
    "resplit_allowed", "split_aces_one_card", "surrender", "blackjack_payout", "payout_rounding",
    "tie_option", "banker", "min_bank_cents",
]


class TableSerializer(serializers.ModelSerializer):
    class Meta:
        model = Table
        fields = [
            "id",
            "site",
            "number",
            "game",
            "min_wager_cents",
            "max_wager_cents",
            "location",
            "active",
            "decks",
            "dealer_hits_soft_17",
            "insurance_allowed",
            "even_money_offered",
            "tip_betting_allowed",
            "double_down",
            "tip_double_down",
            "dealing_method",
            "card_reader_malfunction",
            # The options the site's jurisdiction pack judges (packs).
            *TABLE_PACK_OPTIONS,
        ]


class TableInputSerializer(InputSerializer):
    site = ScopedSiteField()

    class Meta(TableSerializer.Meta):
        fields = [f for f in TableSerializer.Meta.fields if f != "id"]


class TableFilter(FilterSet):
    class Meta:
        model = Table
        fields = ["site", "game", "active", "location"]


@extend_schema_view(
    create=extend_schema(responses={201: TableSerializer, **ERROR_RESPONSES}),
    update=extend_schema(responses={200: TableSerializer, **ERROR_RESPONSES}),
    partial_update=extend_schema(responses={200: TableSerializer, **ERROR_RESPONSES}),
)
class TableViewSet(WritableScopedViewSet):
    output_serializer_class = TableSerializer
    input_serializer_class = TableInputSerializer
    filterset_class = TableFilter

    def scope(self, access):
        return Table.objects.filter(site__in=access.sites()).select_related("site").order_by("site__name", "number")

    def create_object(self, data):
        return services.create_table(acting_user=self.request.user, **data)

    def update_object(self, table, data):
        return services.update_table(acting_user=self.request.user, table=table, **data)


# --- Chip denominations -----------------------------------------------------------------


class ChipDenominationSerializer(serializers.ModelSerializer):
    class Meta:
        model = ChipDenomination
        fields = ["id", "organization", "value_cents", "primary_colour", "edge_spots", "edge_colour",
                  "second_edge_colour", "active"]
        read_only_fields = ["organization"]


class ChipDenominationInputSerializer(InputSerializer):
    primary_colour = serializers.CharField(required=False, max_length=40)
    edge_spots = serializers.CharField(required=False, max_length=80)
    edge_colour = serializers.CharField(required=False, allow_blank=True, max_length=40)
    second_edge_colour = serializers.CharField(required=False, allow_blank=True, max_length=40)

    class Meta(ChipDenominationSerializer.Meta):
        fields = ["value_cents", "primary_colour", "edge_spots", "edge_colour", "second_edge_colour", "active"]
        read_only_fields = []


class SiteOrganizationFilter(FilterSet):
    """`?site=<id>`: rows of that site's organization (empty when not visible, as when it does
    not exist)."""

    site = IdFilter(method="filter_site")

    def filter_site(self, queryset, name, value):
        site = access_for(self.request.user).sites().filter(pk=value).first()
        return queryset.filter(organization_id=site.organization_id) if site else queryset.none()


class ChipDenominationFilter(SiteOrganizationFilter):
    class Meta:
        model = ChipDenomination
        fields = ["site", "active"]


@extend_schema_view(
    create=extend_schema(responses={201: ChipDenominationSerializer, **ERROR_RESPONSES}),
    update=extend_schema(responses={200: ChipDenominationSerializer, **ERROR_RESPONSES}),
    partial_update=extend_schema(responses={200: ChipDenominationSerializer, **ERROR_RESPONSES}),
)
class ChipDenominationViewSet(WritableScopedViewSet):
    output_serializer_class = ChipDenominationSerializer
    input_serializer_class = ChipDenominationInputSerializer
    filterset_class = ChipDenominationFilter

    def scope(self, access):
        return ChipDenomination.objects.filter(organization_id=access.organization_id).order_by("value_cents")

    def create_object(self, data):
        return services.create_chip_denomination(
            acting_user=self.request.user, organization=self.access.employee_org(), **data
        )

    def update_object(self, chip, data):
        return services.update_chip_denomination(acting_user=self.request.user, chip=chip, **data)


# --- Employees, roles and relations -------------------------------------------------------


class MembershipSerializer(serializers.ModelSerializer):
    class Meta:
        model = Membership
        fields = ["id", "employee", "site", "role"]


class EmployeeSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username", read_only=True)
    first_name = serializers.CharField(source="user.first_name", read_only=True)
    last_name = serializers.CharField(source="user.last_name", read_only=True)
    memberships = MembershipSerializer(many=True, read_only=True)

    class Meta:
        model = Employee
        fields = [
            "id",
            "organization",
            "username",
            "first_name",
            "last_name",
            "initials",
            "employment_type",
            "supervisor",
            "independent_contractor",
            "active",
            "memberships",
        ]
        read_only_fields = fields


class EmployeeInputSerializer(InputSerializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(write_only=True, style={"input_type": "password"})
    first_name = serializers.CharField(max_length=150, required=False, allow_blank=True)
    last_name = serializers.CharField(max_length=150, required=False, allow_blank=True)
    supervisor = ScopedEmployeeField(required=False, allow_null=True)

    class Meta:
        model = Employee
        fields = [
            "username",
            "password",
            "first_name",
            "last_name",
            "initials",
            "employment_type",
            "supervisor",
            "independent_contractor",
            "active",
        ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance is not None:  # the login name and password are not changed here
            self.fields.pop("username")
            self.fields.pop("password")


class EmployeeFilter(FilterSet):
    site = IdFilter(field_name="memberships__site", distinct=True)

    class Meta:
        model = Employee
        fields = ["site", "employment_type", "active"]


@extend_schema_view(
    create=extend_schema(responses={201: EmployeeSerializer, **ERROR_RESPONSES}),
    update=extend_schema(responses={200: EmployeeSerializer, **ERROR_RESPONSES}),
    partial_update=extend_schema(responses={200: EmployeeSerializer, **ERROR_RESPONSES}),
)
class EmployeeViewSet(WritableScopedViewSet):
    output_serializer_class = EmployeeSerializer
    input_serializer_class = EmployeeInputSerializer
    filterset_class = EmployeeFilter

    def scope(self, access):
        return visible_employees(access).select_related("user").prefetch_related("memberships")

    def create_object(self, data):
        return services.create_employee(acting_user=self.request.user, organization=self.access.employee_org(), **data)

    def update_object(self, employee, data):
        return services.update_employee(acting_user=self.request.user, employee=employee, **data)


def visible_employees(access):
    """Everyone in the organization for org-wide roles; otherwise people at one's own sites."""
    qs = Employee.objects.filter(organization_id=access.organization_id)
    if access.employee is None:
        return qs.none()
    if access.org_roles:
        return qs
    return qs.filter(Q(memberships__site__in=list(access.site_roles)) | Q(pk=access.employee.pk)).distinct()


class MembershipInputSerializer(InputSerializer):
    employee = ScopedEmployeeField()
    site = ScopedSiteField(required=False, allow_null=True)

    class Meta:
        model = Membership
        fields = ["employee", "site", "role"]


class MembershipViewSet(ScopedViewSet, mixins.CreateModelMixin, mixins.DestroyModelMixin):
    output_serializer_class = MembershipSerializer
    input_serializer_class = MembershipInputSerializer
    filterset_fields = ["employee", "site", "role"]

    def scope(self, access):
        return Membership.objects.filter(employee__in=visible_employees(access)).order_by("employee_id", "role")

    def create(self, request, *args, **kwargs):
        return self.write(request)

    def create_object(self, data):
        return services.add_membership(acting_user=self.request.user, **data)

    def perform_destroy(self, instance):
        services.remove_membership(acting_user=self.request.user, membership=instance)


class RelationSerializer(serializers.ModelSerializer):
    class Meta:
        model = EmployeeRelation
        fields = ["id", "employee", "relative", "kind"]


class RelationInputSerializer(InputSerializer):
    employee = ScopedEmployeeField()
    relative = ScopedEmployeeField()

    class Meta:
        model = EmployeeRelation
        fields = ["employee", "relative", "kind"]


class RelationViewSet(ScopedViewSet, mixins.CreateModelMixin, mixins.DestroyModelMixin):
    output_serializer_class = RelationSerializer
    input_serializer_class = RelationInputSerializer
    filterset_fields = ["employee", "kind"]

    def scope(self, access):
        return EmployeeRelation.objects.filter(employee__in=visible_employees(access)).order_by("id")

    def create(self, request, *args, **kwargs):
        return self.write(request)

    def create_object(self, data):
        return services.add_relation(acting_user=self.request.user, **data)

    def perform_destroy(self, instance):
        services.remove_relation(acting_user=self.request.user, relation=instance)


# --- Organizations and who you are ------------------------------------------------------------


class OrganizationSerializer(serializers.ModelSerializer):
    class Meta:
        model = Organization
        fields = ["id", "name", "licence_number"]


class OrganizationInputSerializer(Input):
    name = serializers.CharField(max_length=200)
    licence_number = serializers.CharField(max_length=50, required=False, allow_blank=True, default="")
    manager_username = serializers.CharField(max_length=150, help_text="The first gaming manager's login name.")
    manager_password = serializers.CharField(write_only=True, style={"input_type": "password"})
    manager_initials = serializers.CharField(max_length=4, help_text="Initials sign forms: unique in the organization.")
    manager_first_name = serializers.CharField(max_length=150, required=False, allow_blank=True, default="")
    manager_last_name = serializers.CharField(max_length=150, required=False, allow_blank=True, default="")


class OrganizationCreatedSerializer(OrganizationSerializer):
    manager = EmployeeSerializer(read_only=True)

    class Meta(OrganizationSerializer.Meta):
        fields = [*OrganizationSerializer.Meta.fields, "manager"]


@extend_schema_view(
    create=extend_schema(
        request=OrganizationInputSerializer,
        responses={201: OrganizationCreatedSerializer, **ERROR_RESPONSES},
        description="A platform operator (superuser) creates an organization and its first gaming manager.",
    ),
)
class OrganizationViewSet(ScopedViewSet, mixins.CreateModelMixin):
    """Your organization (a platform operator sees every one). Its id is the one the tax
    return (`/organizations/{id}/tax/`) and the organization-wide records take."""

    output_serializer_class = OrganizationSerializer
    input_serializer_class = OrganizationInputSerializer

    def scope(self, access):
        if self.request.user.is_superuser:
            return Organization.objects.order_by("name")
        return Organization.objects.filter(pk=access.organization_id).order_by("name")

    def create(self, request, *args, **kwargs):
        if not request.user.is_superuser:  # before the body is read: it names no field to fix
            raise DjangoPermissionDenied(services.platform_operator_refusal())
        serializer = OrganizationInputSerializer(data=request.data, context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        organization, manager = services.create_organization(acting_user=request.user, **serializer.validated_data)
        organization.manager = manager
        return Response(OrganizationCreatedSerializer(organization).data, status=201)


class SiteRolesSerializer(serializers.Serializer):
    site = serializers.IntegerField()
    site_name = serializers.CharField()
    roles = serializers.ListField(child=serializers.ChoiceField(choices=Role.choices))


class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    first_name = serializers.CharField()
    last_name = serializers.CharField()
    platform_operator = serializers.BooleanField(help_text="A superuser: may create organizations.")
    employee = serializers.IntegerField(allow_null=True, help_text="Your employee id; null for a login without one.")
    initials = serializers.CharField(allow_null=True)
    organization = OrganizationSerializer(allow_null=True)
    organization_roles = serializers.ListField(
        child=serializers.ChoiceField(choices=Role.choices),
        help_text="Roles held at all sites of the organization (gaming manager, auditor).",
    )
    sites = SiteRolesSerializer(many=True, help_text="Each site you may see and your roles there.")


class MeView(APIView):
    """Who you are: your login, your employee record and organization, and your roles per site."""

    @extend_schema(responses={200: MeSerializer})
    def get(self, request):
        access = access_for(request.user)
        employee = access.employee
        return Response(
            MeSerializer(
                {
                    "username": request.user.get_username(),
                    "first_name": request.user.first_name,
                    "last_name": request.user.last_name,
                    "platform_operator": request.user.is_superuser,
                    "employee": employee.pk if employee else None,
                    "initials": employee.initials if employee else None,
                    "organization": employee.organization if employee else None,
                    "organization_roles": sorted(access.org_roles),
                    "sites": [
                        {"site": site.pk, "site_name": site.name, "roles": sorted(access.roles_at(site.pk))}
                        for site in access.sites().order_by("name")
                    ],
                }
            ).data
        )


# --- API tokens ---------------------------------------------------------------------------


class AccountLocked(exceptions.APIException):
    status_code = 429
    default_code = "locked_out"


class LoginSerializer(StrictInputMixin, AuthTokenSerializer):
    """The login name and password, nothing else."""


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()
    expiry = serializers.DateTimeField()


@extend_schema(
    request=LoginSerializer,
    responses={
        200: TokenSerializer,
        400: OpenApiResponse(description="Wrong login name or password, or a deactivated station."),
        429: OpenApiResponse(description="Too many sign-in attempts, or the account is locked."),
    },
)
class TokenView(APIView):
    """POST username and password, get a new `{"token", "expiry"}`; then send
    `Authorization: Token <token>`. Each sign-in issues its own token, valid for
    `REST_KNOX["TOKEN_TTL"]`; log out to revoke it."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = [LoginRateThrottle]

    def post(self, request):
        credentials = LoginSerializer(data=request.data, context={"request": request})
        if not credentials.is_valid():
            if getattr(request, "axes_locked_out", False):  # django-axes refused the attempt
                raise AccountLocked(_locked_message())
            refusal = _deactivated_station(credentials.initial_data)
            raise exceptions.ValidationError({"non_field_errors": [refusal]} if refusal else credentials.errors)
        user = credentials.validated_data["user"]
        instance, token = issue_token(user)
        # A completed sign-in: django-axes clears the failure count (AXES_RESET_ON_SUCCESS).
        user_logged_in.send(sender=type(user), request=request, user=user)
        return Response({"token": token, "expiry": instance.expiry})


def _deactivated_station(data) -> str | None:
    from .pins import deactivated_station_refusal

    if not hasattr(data, "get"):
        return None
    username, password = data.get("username"), data.get("password")
    if not isinstance(username, str) or not isinstance(password, str):
        return None
    return deactivated_station_refusal(username, password)


def _locked_message() -> str:
    from django.conf import settings

    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return (
        f"This account is locked after {settings.AXES_FAILURE_LIMIT} wrong passwords (house control); "
        f"try again in {minutes} minutes or ask a gaming manager. Its API tokens have been revoked."
    )


@extend_schema(request=None, responses={204: None, 401: OpenApiResponse(description="No valid token.")})
class LogoutView(KnoxLogoutView):
    """Revoke the token this request is authenticated with."""


@extend_schema(request=None, responses={204: None, 401: OpenApiResponse(description="No valid token.")})
class LogoutAllView(KnoxLogoutAllView):
    """Revoke every token of the signed-in login (all devices)."""
