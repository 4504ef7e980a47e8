"""The core endpoints: organizations, sites, tables, chips, employees, sign-in and tokens,
following the platform's conventions (core.api)."""

from django.contrib.auth.signals import user_logged_in
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.db.models import Q
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field, extend_schema_view
from knox.views import LogoutAllView as KnoxLogoutAllView
from knox.views import LogoutView as KnoxLogoutView
from rest_framework import exceptions, mixins, serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import (
    ERROR_RESPONSES,
    Input,
    InputSerializer,
    ScopedSiteField,
    ScopedViewSet,
    StrictInputMixin,
    WritableScopedViewSet,
)
from core.api_filters import FilterSet, IdFilter
from core.lockouts import SIGN_IN_BLANKS, SIGN_IN_REFUSED
from core.plurals import plural
from core.throttles import LoginRateThrottle
from core.tokens import TokenAuthentication, issue_token

from . import services
from .access import access_for, reads_personnel_of
from .models import ChipDenomination, Employee, EmployeeRelation, Membership, Organization, Role, Site, Table
from .pins import NO_BADGE_HOUSE_CONTROL, NO_PIN_HOUSE_CONTROL
from .table_rules import table_fields


class PinSignerInput(Input):
    """A step initialled on a shared terminal (a station login, cardroom.pins): the badge
    (initials) and PIN of the person doing it, who is then checked and recorded as the actor.
    Required when the token is a station's; optional otherwise (without them the token's holder
    acts)."""

    # House control: a badge or PIN left empty is refused in the terminal's words (what to tap or
    # type), never by the field's name ("signer_badge may not be blank").
    signer_badge = serializers.CharField(
        required=False,
        max_length=4,
        help_text="The initials (badge) of the person doing the step, on a station.",
        error_messages={"blank": NO_BADGE_HOUSE_CONTROL, "null": NO_BADGE_HOUSE_CONTROL},
    )
    signer_pin = serializers.CharField(
        required=False,
        max_length=32,
        write_only=True,
        style={"input_type": "password"},
        help_text="Their signing PIN; wrong PINs are counted and lock it like a password (403).",
        error_messages={"blank": NO_PIN_HOUSE_CONTROL, "null": NO_PIN_HOUSE_CONTROL},
    )


def pin_acting_user(request, data: dict):
    """Who acts: the PIN holder named in `data` (its signer fields removed), otherwise the
    token's holder; a station alone acts as nobody (403)."""
    from .pins import acting_user_for

    return acting_user_for(request.user, badge=data.pop("signer_badge", ""), pin=data.pop("signer_pin", ""))


@extend_schema_field(OpenApiTypes.INT)
class ScopedEmployeeField(serializers.PrimaryKeyRelatedField):
    def get_queryset(self):
        return Employee.objects.filter(organization_id=access_for(self.context["request"].user).organization_id)


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


# Every pack's table options (packs: each pack's `tables.TABLE_OPTIONS`); a table is shown with
# those of its site's pack only, and another pack's option is refused on input (the service).
TABLE_PACK_OPTIONS = [
    "decks", "max_players", "betting_spaces", "dealt_from", "dealer_hits_soft_17", "insurance_allowed",
    "even_money_offered", "tip_betting_allowed", "tip_bet_max_cents", "double_down", "tip_double_down",
    "dealing_method", "card_reader_malfunction", "double_on", "double_after_split", "split_pairs", "resplit_allowed",
    "split_aces_one_card", "surrender", "blackjack_payout", "payout_rounding", "tie_option", "banker",
    "min_bank_cents", "jumbo_faced_cards", "non_jumbo_approval",
]  # fmt: skip


class TableSerializer(serializers.ModelSerializer):
    class Meta:
        model = Table
        fields = ["id", "site", "number", "game", "min_wager_cents", "max_wager_cents", "location", "active",
                  *TABLE_PACK_OPTIONS]  # fmt: skip
        # Each table shows its own pack's options only: none is in every answer.
        extra_kwargs = {name: {"required": False} for name in TABLE_PACK_OPTIONS}

    def to_representation(self, table):
        data = super().to_representation(table)
        keep = {"id", *table_fields(table.site.jurisdiction)}
        return {name: value for name, value in data.items() if name in keep}


class TableSavedSerializer(TableSerializer):
    """The answer to adding or changing a table: the table, and what the site's rules say of it as
    saved (`cardroom.table_limits.table_warnings`)."""

    warnings = serializers.ListField(
        child=serializers.CharField(),
        read_only=True,
        help_text="What the site's rules say of the table as saved, each message citing its rule as the site's "
        "pack states it: where the pack asks it, a change of the table's limits posted and announced at the table "
        "with adequate notice to the players. Nothing is refused; empty when there is nothing.",
    )

    class Meta(TableSerializer.Meta):
        fields = [*TableSerializer.Meta.fields, "warnings"]

    def to_representation(self, table):
        return {**super().to_representation(table), "warnings": list(table.warnings)}


class TableInputSerializer(InputSerializer):
    site = ScopedSiteField()
    # Judged by the site's law in the service, which cites it (9 NYCRR 4620.5(h) in New York: the
    # licence's option, for every table under it), not refused here as a bare choice.
    tie_option = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="Only where the site's pack puts the tie option on the organization's licence: the option the "
        "licence in force reflects, which a new table not given one takes. Any other is refused, naming the field "
        "and the rule; a change of option is a new licence.",
    )

    class Meta(TableSerializer.Meta):
        fields = [f for f in TableSerializer.Meta.fields if f != "id"]

    def build_standard_field(self, field_name, model_field):
        """A pack option's upper bound is judged with its site's pack's rule in the service, which
        cites it ("WSGC Blackjack Game Rules, rule 1: up to eight decks"), not here in bare words;
        the model's bound stays behind it (`Table.full_clean`)."""
        field_class, kwargs = super().build_standard_field(field_name, model_field)
        if field_name in TABLE_PACK_OPTIONS:
            kwargs.pop("max_value", None)
        return field_class, kwargs


class TableFilter(FilterSet):
    class Meta:
        model = Table
        fields = ["site", "game", "active", "location"]


@extend_schema_view(
    create=extend_schema(responses={201: TableSavedSerializer, **ERROR_RESPONSES}),
    update=extend_schema(responses={200: TableSavedSerializer, **ERROR_RESPONSES}),
    partial_update=extend_schema(responses={200: TableSavedSerializer, **ERROR_RESPONSES}),
)
class TableViewSet(WritableScopedViewSet):
    output_serializer_class = TableSerializer
    saved_serializer_class = TableSavedSerializer
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
        fields = [
            "id",
            "organization",
            "value_cents",
            "marking",
            "primary_colour",
            "edge_spots",
            "edge_colour",
            "second_edge_colour",
            "active",
        ]
        read_only_fields = ["organization"]


class ChipDenominationInputSerializer(InputSerializer):
    primary_colour = serializers.CharField(required=False, max_length=40)
    edge_spots = serializers.CharField(required=False, max_length=80)
    edge_colour = serializers.CharField(required=False, allow_blank=True, max_length=40)
    second_edge_colour = serializers.CharField(required=False, allow_blank=True, max_length=40)

    class Meta(ChipDenominationSerializer.Meta):
        fields = [
            "value_cents",
            "marking",
            "primary_colour",
            "edge_spots",
            "edge_colour",
            "second_edge_colour",
            "active",
        ]
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


# What the floor needs to name a co-worker (to pick a partner or a cashier): every reader gets it.
NAMING_FIELDS = ("id", "first_name", "last_name", "initials", "active", "memberships")
PERSONNEL_NOTE = " Omitted of a co-worker for a reader who may not read personnel records (house control)."


class EmployeeSerializer(serializers.ModelSerializer):
    """An employee. Of a co-worker, a reader who may not read personnel records
    (`cardroom.access.PERSONNEL`: a gaming manager or auditor) gets only `NAMING_FIELDS`; of
    themselves, everything. The other fields are documented as optional, so they are not marked
    read-only (drf-spectacular lists a read-only field as required): this serializer only answers."""

    username = serializers.CharField(source="user.username", required=False, help_text=f"Login name.{PERSONNEL_NOTE}")
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
            "state_identifier",
            "employment_type",
            "supervisor",
            "independent_contractor",
            "active",
            "memberships",
        ]
        read_only_fields = NAMING_FIELDS
        extra_kwargs = {
            name: {
                "required": False,
                "help_text": f"{Employee._meta.get_field(name).help_text}{PERSONNEL_NOTE}".strip(),
            }
            for name in ("organization", "state_identifier", "employment_type", "supervisor", "independent_contractor")
        }

    def to_representation(self, instance):
        data = super().to_representation(instance)
        request = self.context.get("request")
        if request is not None and reads_personnel_of(access_for(request.user), instance):
            return data
        return {name: value for name, value in data.items() if name in NAMING_FIELDS}


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
            "state_identifier",
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
        """The roles of the people one sees (`visible_employees`): every one for an org-wide role;
        otherwise their roles at one's own sites and their org-wide ones, not who holds what at the
        organization's other sites."""
        found = Membership.objects.filter(employee__in=visible_employees(access))
        if access.employee is not None and not access.org_roles:
            found = found.filter(Q(site__in=list(access.site_roles)) | Q(site__isnull=True))
        return found.order_by("employee_id", "role")

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
        return Response(
            OrganizationCreatedSerializer(organization, context=self.get_serializer_context()).data, status=201
        )


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
    """The login name and password, nothing else, answered in the sign-in page's words: either left
    blank, null or out at its field (`SIGN_IN_BLANKS`; nothing is tried), a wrong one as a whole
    (`SIGN_IN_REFUSED`)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name, said in SIGN_IN_BLANKS.items():
            self.fields[name].error_messages.update(blank=said, null=said)

    def required_message(self, name: str, data) -> str:
        return SIGN_IN_BLANKS[name]

    def validate(self, attrs):
        try:
            return super().validate(attrs)
        except serializers.ValidationError as refused:
            raise serializers.ValidationError(SIGN_IN_REFUSED, code="authorization") from refused


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()
    expiry = serializers.DateTimeField()


@extend_schema(
    request=LoginSerializer,
    responses={
        200: TokenSerializer,
        400: OpenApiResponse(
            description="A login name or password left blank or out, a wrong one, or a deactivated station."
        ),
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
        f"try again in {plural(minutes, 'minute')} or ask a gaming manager. Its API tokens have been revoked."
    )


@extend_schema(request=None, responses={204: None, 401: OpenApiResponse(description="No valid token.")})
class LogoutView(KnoxLogoutView):
    """Revoke the token this request is authenticated with."""

    authentication_classes = (TokenAuthentication,)


@extend_schema(request=None, responses={204: None, 401: OpenApiResponse(description="No valid token.")})
class LogoutAllView(KnoxLogoutAllView):
    """Revoke every token of the signed-in login (all devices)."""

    authentication_classes = (TokenAuthentication,)
