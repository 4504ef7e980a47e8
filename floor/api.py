"""REST endpoints for table chip custody. Serializers only parse; services validate and write."""

from datetime import date, datetime
from functools import cached_property
from typing import NamedTuple

from django.core.exceptions import ValidationError
from django.db.models import F
from django.http import Http404
from django_filters import rest_framework as filters
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from cardroom.access import access_for
from cardroom.api import PinSignerInput, ScopedEmployeeField, pin_acting_user
from cardroom.models import Table
from cardroom.retention import get_retain_until, retain_until_field, retention_dates
from core import limits
from core.api import (
    ERROR_RESPONSES,
    DateField,
    FormNumberField,
    Input,
    MomentField,
    ScopedSiteField,
    ScopedViewSet,
    TextField,
    moment_writer,
)
from core.api_filters import DateFilter, FilterSet, IdFilter
from core.rules import HOUSE_CONTROL
from packs import packs_of

from . import queries, rules, services
from .active_tables import low_table_left
from .models import (
    CardCheck,
    CarriedItem,
    DealerShift,
    DutyPeriod,
    GamingDay,
    Slip,
    SlipBook,
    SlipKind,
    SlipLine,
    SlipStep,
    TableInventory,
    TableInventoryLine,
)

MAX_REGISTER_DAYS = 366  # one register page covers at most a year
REGISTER_PERIOD = f"{HOUSE_CONTROL}: end is on or after start and within {MAX_REGISTER_DAYS} days of it."


@extend_schema_field(OpenApiTypes.INT)
class ScopedTableField(serializers.PrimaryKeyRelatedField):
    """A table at a site the user may see; any other id is 'does not exist'."""

    def get_queryset(self):
        return Table.objects.filter(site__in=access_for(self.context["request"].user).sites()).select_related("site")


@extend_schema_field(OpenApiTypes.INT)
class SiteIdField(ScopedSiteField):
    pass


@extend_schema_field(OpenApiTypes.INT)
class EmployeeIdField(ScopedEmployeeField):
    pass


@extend_schema_field({"type": "integer", "minimum": 1})
class ServiceCheckedInteger(serializers.Field):
    """A whole number the service checks (its message cites the rule of the record at hand, as
    the site's pack states it); passed through as given."""

    def to_internal_value(self, data):
        return data


class ChipLineInput(Input):
    """One line of chips: the chip's value in cents (not its id) and how many."""

    denomination = ServiceCheckedInteger(help_text="The chip's value in cents (2500 for a $25 chip), never its id.")
    quantity = ServiceCheckedInteger(help_text="How many chips of that value.")


def _chips_field(**kwargs):
    return serializers.ListField(
        child=ChipLineInput(),
        help_text='[{"denomination": <chip value in cents>, "quantity": n}, ...]',
        **kwargs,
    )


@extend_schema_field(
    {"type": "string", "pattern": r"^\$?(\d{1,3}(,\d{3})+|\d{1,12})(\.\d{1,2})?$", "example": "125.00"}
)
class ServiceCheckedAmount(serializers.Field):
    """Dollars and cents as a string ("125.00"; a whole number of dollars may be a JSON
    integer), never a binary fraction; the service converts it with Decimal and checks it."""

    def to_internal_value(self, data):
        return data


class AmountLineInput(Input):
    """One line of chips as a dollar amount: the chip's value in cents and the dollars of it."""

    denomination = ServiceCheckedInteger(help_text="The chip's value in cents (2500 for a $25 chip), never its id.")
    amount = ServiceCheckedAmount(
        help_text='Dollars of that chip, as a string ("125.00"): a whole number of chips of the denomination.'
    )


def _amounts_field(**kwargs):
    """The alternative to `chips`: dollar amounts per denomination, converted to chip counts by
    the service (floor.services.chips_from_amounts); give one or the other, never both."""
    return serializers.ListField(
        child=AmountLineInput(),
        required=False,
        max_length=services.MAX_AMOUNT_LINES,
        help_text='Instead of `chips`: [{"denomination": <chip value in cents>, "amount": "<dollars>"}, ...]. '
        "Each amount must be a whole number of chips of its denomination (400 naming the denomination).",
        **kwargs,
    )


class ChipLineSerializer(serializers.Serializer):
    denomination = serializers.IntegerField(source="denomination_id")
    value_cents = serializers.IntegerField()
    quantity = serializers.IntegerField()
    amount_cents = serializers.IntegerField()

    def to_representation(self, line):
        # The fields above are the schema; a list carries a count's lines for each of its rows,
        # so each line's dict is built directly (issue 37: the list's time grew with its lines).
        return line_data(line.denomination_id, line.value_cents, line.quantity)


def line_data(denomination: int, value_cents: int, quantity: int) -> dict:
    """A chip line as the API shows it (`ChipLineSerializer`'s fields); its amount as the line
    models compute it (value x quantity)."""
    return {
        "denomination": denomination,
        "value_cents": value_cents,
        "quantity": quantity,
        "amount_cents": value_cents * quantity,
    }


class CustodyViewSet(ScopedViewSet):
    # Scoped reads plus `create`, which parses and calls `create_object` (a comment, not a
    # docstring: a docstring would describe every operation of the API's documentation).

    def create(self, request, *args, **kwargs):
        return self.write(request)

    def respond(self, obj, status=200):
        return Response(self.output_serializer_class(obj, context=self.get_serializer_context()).data, status=status)


# --- Gaming days -----------------------------------------------------------------------------


class GamingDaySerializer(serializers.ModelSerializer):
    opened_by_initials = serializers.CharField(source="opened_by.initials", read_only=True)
    closed_at = serializers.DateTimeField(read_only=True, allow_null=True)
    closed_by_initials = serializers.SerializerMethodField()

    class Meta:
        model = GamingDay
        fields = [
            "id",
            "site",
            "gaming_date",
            "opened_at",
            "opened_by",
            "opened_by_initials",
            "closed_at",
            "closed_by_initials",
            "entered_at",
            "entered_late",
        ]

    def get_closed_by_initials(self, day) -> str | None:
        close = getattr(day, "close", None)
        return close.closed_by.initials if close else None


class GamingDayInputSerializer(PinSignerInput):
    site = SiteIdField()
    gaming_date = DateField()
    opened_at = MomentField(source="at")


class GamingDayCloseSerializer(Input):
    closed_at = MomentField(source="at")


class OpenItemSerializer(serializers.Serializer):
    key = serializers.CharField(
        help_text='What `carry` takes in `items`: "slip:12", "drop:7:count", "box:4", "table:3".'
    )
    kind = serializers.CharField()
    kind_label = serializers.CharField()
    table_number = serializers.IntegerField(allow_null=True)
    description = serializers.CharField()
    citation = serializers.CharField(help_text="The rule the item rests on.")
    resolve = serializers.CharField(help_text="What resolves it.")
    carryable = serializers.BooleanField(help_text="A table's closer is recorded, never carried.")


class CarriedItemSerializer(serializers.ModelSerializer):
    carried_by_initials = serializers.CharField(source="carried_by.initials", read_only=True)

    class Meta:
        model = CarriedItem
        fields = [
            "id", "gaming_day", "key", "kind", "table_number", "description", "citation", "reason",
            "carried_by", "carried_by_initials", "carried_as", "carried_at",
        ]  # fmt: skip


class OpenItemsSerializer(serializers.Serializer):
    open_items = OpenItemSerializer(many=True, help_text="Open and not carried: what keeps the day from closing.")
    carried = CarriedItemSerializer(many=True)


class CarryInputSerializer(Input):
    items = serializers.ListField(
        child=serializers.CharField(max_length=60), max_length=500, help_text="Keys of the open items to carry."
    )
    reason = TextField(help_text="Why they are carried past the close.")
    carried_at = MomentField(source="at")


@extend_schema_view(
    retrieve=extend_schema(responses={200: GamingDaySerializer, 404: ERROR_RESPONSES[404]}),
    create=extend_schema(request=GamingDayInputSerializer, responses={201: GamingDaySerializer, **ERROR_RESPONSES}),
)
class GamingDayViewSet(CustodyViewSet):
    output_serializer_class = GamingDaySerializer
    input_serializer_class = GamingDayInputSerializer
    filterset_fields = ["site", "gaming_date"]

    def scope(self, access):
        days = GamingDay.objects.filter(site__in=access.sites())
        return days.select_related("site", "opened_by", "close__closed_by").order_by("-gaming_date", "site_id")

    def create_object(self, data):
        data = dict(data)
        return services.open_gaming_day(acting_user=pin_acting_user(self.request, data), **data)

    @extend_schema(request=GamingDayCloseSerializer, responses={200: GamingDaySerializer, **ERROR_RESPONSES})
    @action(detail=True, methods=["post"])
    def close(self, request, pk=None):
        day = self.get_object()
        data = _parse(GamingDayCloseSerializer, request)
        services.close_gaming_day(acting_user=request.user, gaming_day=day, **data)
        return self.respond(self.get_queryset().get(pk=day.pk))

    @extend_schema(responses={200: OpenItemsSerializer, 404: ERROR_RESPONSES[404]})
    @action(detail=True, methods=["get"], url_path="open-items")
    def open_items(self, request, pk=None):
        """The day's open items (house control: the day closes once each is resolved or carried)."""
        day = self.get_object()
        carried = CarriedItem.objects.filter(gaming_day=day).select_related("carried_by")
        found = {"open_items": services.items_left_open(day), "carried": carried}
        return Response(OpenItemsSerializer(found).data)

    @extend_schema(request=CarryInputSerializer, responses={201: CarriedItemSerializer(many=True), **ERROR_RESPONSES})
    @action(detail=True, methods=["post"])
    def carry(self, request, pk=None):
        """Carry open items past the close with a reason (a shift manager or gaming manager)."""
        day = self.get_object()
        data = _parse(CarryInputSerializer, request)
        rows = services.carry_open_items(
            acting_user=request.user, gaming_day=day, keys=data["items"], reason=data["reason"], at=data.get("at")
        )
        return Response(CarriedItemSerializer(rows, many=True).data, status=201)


# --- Tray counts ------------------------------------------------------------------------------


class AnsweredFromRow:
    """What a serializer that writes its answer directly from the row its list reads (issue 37)
    makes once a request: its moments' writer, DRF's format in the request's time zone looked up
    once (`moment_field`: a DateTimeField of the serializer), and the retention date of a record
    of `retained` from its activity date and its site's jurisdiction."""

    moment_field: str
    retained: type | None = None

    @cached_property
    def _moment_text(self):
        return moment_writer(self.fields[self.moment_field])

    @cached_property
    def _retain_until(self):
        return retention_dates(self.retained)


class TableInventorySerializer(AnsweredFromRow, serializers.ModelSerializer):
    gaming_date = serializers.DateField(source="gaming_day.gaming_date", read_only=True)
    counted_by_initials = serializers.CharField(source="counted_by.initials", read_only=True)
    chips = ChipLineSerializer(source="lines", many=True, read_only=True)

    class Meta:
        model = TableInventory
        fields = [
            "id",
            "table",
            "gaming_day",
            "gaming_date",
            "kind",
            "counted_at",
            "counted_by",
            "counted_by_initials",
            "dealer_shift",
            "previous",
            "total_cents",
            "variance_cents",
            "variance_reason",
            "chips",
            "entered_at",
            "entered_late",
        ]

    moment_field = "counted_at"

    def to_representation(self, count):
        # What ModelSerializer makes of the fields above (the schema and its order), built
        # directly from the row the viewset reads (`TableInventoryViewSet`: the day's date and
        # the counter's initials read in its query, the lines' dicts in one query of values): a
        # list carries every count with its lines, and DRF's walk of sixteen fields and of each
        # line's four, with a day, an employee and a model a line, was most of the list's time
        # per row (issue 37).
        moment = self._moment_text
        return {
            "id": count.pk,
            "table": count.table_id,
            "gaming_day": count.gaming_day_id,
            "gaming_date": self.fields["gaming_date"].to_representation(count.gaming_date),
            "kind": count.kind,
            "counted_at": moment(count.counted_at),
            "counted_by": count.counted_by_id,
            "counted_by_initials": count.counted_by_initials,
            "dealer_shift": count.dealer_shift_id,
            "previous": count.previous_id,
            "total_cents": count.total_cents,
            "variance_cents": count.variance_cents,
            "variance_reason": count.variance_reason,
            "chips": count.chip_lines,
            "entered_at": None if count.entered_at is None else moment(count.entered_at),
            "entered_late": count.entered_late,
        }


def with_warnings(serializer_class, name: str, what: str, which: str):
    """`serializer_class` answering a write with the `warnings` the write leaves the floor to see
    to now (`what`: the write; `which`: the situations, citing their rules), from the object's
    `warnings` list: a separate serializer (`name`), so the rows read back never carry them."""

    class Answer(serializer_class):
        warnings = serializers.ListField(
            child=serializers.CharField(),
            read_only=True,
            help_text=f"What {what} leaves to see to now, each message citing its rule: {which}. Empty when there is "
            "nothing.",
        )

        class Meta(serializer_class.Meta):
            fields = [*serializer_class.Meta.fields, "warnings"]

        def to_representation(self, instance):
            return {**super().to_representation(instance), "warnings": instance.warnings}

    Answer.__name__ = Answer.__qualname__ = name
    Answer.__doc__ = f"The answer to {what}: the row, and what it leaves the floor to see to now."
    return Answer


TableInventoryRecordedSerializer = with_warnings(
    TableInventorySerializer,
    "TableInventoryRecordedSerializer",
    "recording a count",
    "a closer of the site's last active table at or below the low-minimum ceiling of a pack that states one (North "
    "Dakota's) while a table with a higher minimum stays active, which the night's checks flag otherwise",
)


class TableInventoryInputSerializer(PinSignerInput):
    table = ScopedTableField()
    kind = serializers.ChoiceField(choices=[TableInventory.Kind.OPENER, TableInventory.Kind.CLOSER])
    chips = _chips_field(required=False)
    amounts = _amounts_field()
    same_as_last_closer = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Openers only: record the opener equal to the table's last closer (or the dealer-change count "
        "after it), line for line, instead of giving `chips` or `amounts`. 400 naming this field when the "
        "table has no previous count.",
    )
    variance_reason = TextField(required=False, allow_blank=True, default="")
    counted_at = MomentField(source="at")


class TableInventoryFilter(FilterSet):
    site = IdFilter(field_name="table__site")
    gaming_date = DateFilter(field_name="gaming_day__gaming_date")

    class Meta:
        model = TableInventory
        fields = ["site", "table", "gaming_date", "kind"]


@extend_schema_view(
    retrieve=extend_schema(responses={200: TableInventorySerializer, 404: ERROR_RESPONSES[404]}),
    create=extend_schema(
        request=TableInventoryInputSerializer, responses={201: TableInventoryRecordedSerializer, **ERROR_RESPONSES}
    ),
)
class TableInventoryViewSet(CustodyViewSet):
    output_serializer_class = TableInventorySerializer
    created_serializer_class = TableInventoryRecordedSerializer  # the count and its warnings
    input_serializer_class = TableInventoryInputSerializer
    filterset_class = TableInventoryFilter

    def scope(self, access):
        counts = TableInventory.objects.filter(table__site__in=access.sites())
        return counts.annotate(
            gaming_date=F("gaming_day__gaming_date"), counted_by_initials=F("counted_by__initials")
        ).order_by("-counted_at", "-id")

    def paginate_queryset(self, queryset):
        return _with_chip_lines(super().paginate_queryset(queryset))

    def get_object(self):
        return _with_chip_lines([super().get_object()])[0]

    def create_object(self, data):
        data = dict(data)
        count = services.record_table_inventory(acting_user=pin_acting_user(self.request, data), **data)
        recorded = _with_chip_lines([self.get_queryset().get(pk=count.pk)])[0]  # the count as the list reads it
        left = count.kind == TableInventory.Kind.CLOSER and low_table_left(
            count.table, count.gaming_day, count.counted_at
        )
        recorded.warnings = [left] if left else []
        return recorded


def _with_chip_lines(counts: list[TableInventory]) -> list[TableInventory]:
    """Each count with `chip_lines`, its lines as the API shows them (`line_data`), read in one
    query of values for all of them (no model a line)."""
    chips: dict[int, list[dict]] = {count.pk: [] for count in counts}
    if chips:
        lines = TableInventoryLine.objects.filter(inventory_id__in=chips)  # by value (the model's order)
        for count_id, *line in lines.values_list("inventory_id", "denomination_id", "value_cents", "quantity"):
            chips[count_id].append(line_data(*line))
    for count in counts:
        count.chip_lines = chips[count.pk]
    return counts


# --- Dealer shifts ------------------------------------------------------------------------------


class DealerShiftSerializer(AnsweredFromRow, serializers.ModelSerializer):
    dealer_initials = serializers.CharField(source="dealer.initials", read_only=True)
    table_number = serializers.IntegerField(source="table.number", read_only=True)
    retain_until = retain_until_field()
    get_retain_until = get_retain_until

    class Meta:
        model = DealerShift
        fields = [
            "id",
            "table",
            "table_number",
            "dealer",
            "dealer_initials",
            "gaming_day",
            "started_at",
            "ended_at",
            "started_by",
            "ended_by",
            "entered_at",
            "entered_late",
            "retain_until",
        ]

    moment_field, retained = "started_at", DealerShift

    def to_representation(self, shift):
        # What ModelSerializer makes of the fields above (the schema and its order), built
        # directly from the row the viewset reads (`DealerShiftViewSet.scope`: the table's number,
        # the dealer's initials, the day's date and its site's jurisdiction read in its query, so
        # no table, employee, day or site is made a row): a list carries every shift, and DRF's
        # walk of thirteen fields over five models a row was most of the list's time a row (issue
        # 37). `retain_until` is `cardroom.retention.retain_until`'s date for the shift.
        moment = self._moment_text
        return {
            "id": shift.pk,
            "table": shift.table_id,
            "table_number": shift.table_number,
            "dealer": shift.dealer_id,
            "dealer_initials": shift.dealer_initials,
            "gaming_day": shift.gaming_day_id,
            "started_at": moment(shift.started_at),
            "ended_at": moment(shift.ended_at),
            "started_by": shift.started_by_id,
            "ended_by": shift.ended_by_id,
            "entered_at": moment(shift.entered_at),
            "entered_late": shift.entered_late,
            "retain_until": self._retain_until(shift.gaming_date, shift.site_jurisdiction),
        }


DealerShiftEndedSerializer = with_warnings(
    DealerShiftSerializer,
    "DealerShiftEndedSerializer",
    "relieving a dealer",
    "the site's last active table at or below the low-minimum ceiling of a pack that states one (North Dakota's) "
    "left without a dealer while a table with a higher minimum stays active, which the night's checks flag "
    "otherwise",
)


class DealerShiftInputSerializer(PinSignerInput):
    table = ScopedTableField()
    dealer = EmployeeIdField()
    started_at = MomentField()
    chips = _chips_field(required=False, allow_empty=True)
    amounts = _amounts_field()
    # Where the site exchanges its drop boxes at each dealer change (house control): the table's box
    # removed by the change itself, before the new shift begins, credited to the outgoing shift.
    remove_box = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Remove the table's drop box with this change, credited to the outgoing dealer's shift (a site "
        "exchanging its boxes at each dealer change, house control); the transporter is the signer, a shift manager. "
        "A refusal of the removal changes nothing.",
    )
    box_escorted_by = EmployeeIdField(required=False, help_text="With remove_box: the employee escorting the box.")
    box_key_holder = EmployeeIdField(
        required=False, help_text="With remove_box: the count team member holding the key to its contents."
    )
    box_second_key_holder = EmployeeIdField(
        required=False, help_text="With remove_box, a box with two locks: the other count team member's key."
    )
    box_storage_place = serializers.CharField(
        required=False, max_length=120, allow_blank=True, help_text="With remove_box: where the box is stored."
    )

    def validate(self, attrs):
        given = [name for name in BOX_REMOVAL_FIELDS if name in attrs]
        if given and not attrs.get("remove_box"):
            raise serializers.ValidationError(
                {given[0]: f"{HOUSE_CONTROL}: a drop box's custody is given only with remove_box (its removal)."}
            )
        return attrs


# The change's fields of a box's removal -> the removal's own (counts.pit.CHANGE_FIELDS).
BOX_REMOVAL_FIELDS = {
    "box_escorted_by": "escorted_by",
    "box_key_holder": "key_holder",
    "box_second_key_holder": "second_key_holder",
    "box_storage_place": "storage_place",
}


def box_removal(data: dict) -> dict | None:
    """The box's removal a change of dealer asks (`remove_box`), taken out of `data`; None without."""
    custody = {field: data.pop(name, None) for name, field in BOX_REMOVAL_FIELDS.items()}
    if not data.pop("remove_box", False):
        return None
    custody["storage_place"] = custody["storage_place"] or ""
    return custody


class DealerShiftEndSerializer(PinSignerInput):
    ended_at = MomentField()
    left_site = serializers.BooleanField(
        required=False, default=False, help_text="The dealer leaves the site (tips must be redeemed)."
    )


class DealerShiftFilter(FilterSet):
    site = IdFilter(field_name="table__site")
    gaming_date = DateFilter(field_name="gaming_day__gaming_date")
    on_shift = filters.BooleanFilter(field_name="ended_at", lookup_expr="isnull")

    class Meta:
        model = DealerShift
        fields = ["site", "table", "dealer", "gaming_date", "on_shift"]


@extend_schema_view(
    retrieve=extend_schema(responses={200: DealerShiftSerializer, 404: ERROR_RESPONSES[404]}),
    create=extend_schema(request=DealerShiftInputSerializer, responses={201: DealerShiftSerializer, **ERROR_RESPONSES}),
)
class DealerShiftViewSet(CustodyViewSet):
    output_serializer_class = DealerShiftSerializer
    input_serializer_class = DealerShiftInputSerializer
    filterset_class = DealerShiftFilter

    def scope(self, access):
        shifts = DealerShift.objects.filter(table__site__in=access.sites()).annotate(
            table_number=F("table__number"),
            dealer_initials=F("dealer__initials"),
            gaming_date=F("gaming_day__gaming_date"),
            site_jurisdiction=F("gaming_day__site__jurisdiction"),
        )
        if self.action == "end":  # the service reads the shift's table, dealer, day and site
            shifts = shifts.select_related("table", "dealer", "gaming_day__site")
        return shifts.order_by("-started_at", "-id")

    def create_object(self, data):
        data = dict(data)
        removal = box_removal(data)
        shift = services.start_dealer_shift(
            acting_user=pin_acting_user(self.request, data), box_removal=removal, **data
        )
        return self.get_queryset().get(pk=shift.pk)  # the shift as the list reads it

    @extend_schema(request=DealerShiftEndSerializer, responses={200: DealerShiftEndedSerializer, **ERROR_RESPONSES})
    @action(detail=True, methods=["post"])
    def end(self, request, pk=None):
        shift = self.get_object()
        data = dict(_parse(DealerShiftEndSerializer, request))
        acting = pin_acting_user(request, data)
        ended = services.end_dealer_shift(acting_user=acting, shift=shift, **data)
        left = low_table_left(ended.table, ended.gaming_day, ended.ended_at, closed=False)
        ended.warnings = [left] if left else []
        return Response(DealerShiftEndedSerializer(ended, context=self.get_serializer_context()).data)


def _parse(serializer_class, request) -> dict:
    serializer = serializer_class(data=request.data, context={"request": request})
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


# --- The duty register (rules.SLIP_VERIFICATION: who is on duty to verify slips) -------------------


class DutyPeriodSerializer(serializers.ModelSerializer):
    employee_initials = serializers.CharField(source="employee.initials", read_only=True)

    class Meta:
        model = DutyPeriod
        fields = ["id", "site", "gaming_day", "employee", "employee_initials", "role", "started_at", "ended_at"]


class DutyPeriodInputSerializer(PinSignerInput):
    site = SiteIdField()
    employee = EmployeeIdField(required=False, help_text="Who comes on duty; default: the signed-in employee.")
    at = MomentField()


class DutyPeriodEndSerializer(PinSignerInput):
    at = MomentField()


@extend_schema_view(
    retrieve=extend_schema(responses={200: DutyPeriodSerializer, 404: ERROR_RESPONSES[404]}),
    create=extend_schema(request=DutyPeriodInputSerializer, responses={201: DutyPeriodSerializer, **ERROR_RESPONSES}),
)
class DutyPeriodViewSet(CustodyViewSet):
    output_serializer_class = DutyPeriodSerializer
    input_serializer_class = DutyPeriodInputSerializer
    filterset_fields = ["site", "employee"]

    def scope(self, access):
        periods = DutyPeriod.objects.filter(site__in=access.sites())
        return periods.select_related("employee").order_by("-started_at", "-id")

    def create_object(self, data):
        data = dict(data)
        return services.start_duty(acting_user=pin_acting_user(self.request, data), **data)

    @extend_schema(request=DutyPeriodEndSerializer, responses={200: DutyPeriodSerializer, **ERROR_RESPONSES})
    @action(detail=True, methods=["post"])
    def end(self, request, pk=None):
        period = self.get_object()
        data = dict(_parse(DutyPeriodEndSerializer, request))
        return self.respond(services.end_duty(acting_user=pin_acting_user(request, data), period=period, **data))


# --- Card checks ----------------------------------------------------------------------------------


class CardCheckSerializer(serializers.ModelSerializer):
    gaming_date = serializers.DateField(source="gaming_day.gaming_date", read_only=True)
    table_number = serializers.IntegerField(source="table.number", read_only=True)
    checked_by_initials = serializers.CharField(source="checked_by.initials", read_only=True)
    recorded_by_initials = serializers.CharField(source="recorded_by.initials", read_only=True)

    class Meta:
        model = CardCheck
        fields = [
            "id", "table", "table_number", "gaming_day", "gaming_date", "kind", "decks", "checked_by",
            "checked_by_initials", "checked_as", "checked_at", "recorded_by", "recorded_by_initials", "entered_at",
            "entered_late",
        ]  # fmt: skip


class CardCheckInputSerializer(PinSignerInput):
    table = ScopedTableField()
    kind = serializers.ChoiceField(choices=CardCheck.Kind.choices)
    checked_by = EmployeeIdField(
        required=False,
        help_text="Who checked: a dealer (decks), a dealer or shift manager (shoe); default: the signed-in employee. "
        "A dealer records their own check only.",
    )
    decks = ServiceCheckedInteger(
        required=False,
        help_text="Decks approved (`decks_approved` only): 1 to the table's decks; default: the table's.",
    )
    checked_at = MomentField(source="at")


class CardCheckFilter(FilterSet):
    site = IdFilter(field_name="table__site")
    gaming_date = DateFilter(field_name="gaming_day__gaming_date")

    class Meta:
        model = CardCheck
        fields = ["site", "table", "gaming_date", "kind"]


@extend_schema_view(
    retrieve=extend_schema(responses={200: CardCheckSerializer, 404: ERROR_RESPONSES[404]}),
    create=extend_schema(request=CardCheckInputSerializer, responses={201: CardCheckSerializer, **ERROR_RESPONSES}),
)
class CardCheckViewSet(CustodyViewSet):
    # A table's decks approved and its dealing shoe inspected, where the site's pack states them
    # (floor.services.record_card_check refuses elsewhere); read at the sites the user may see.
    output_serializer_class = CardCheckSerializer
    input_serializer_class = CardCheckInputSerializer
    filterset_class = CardCheckFilter

    def scope(self, access):
        checks = CardCheck.objects.filter(table__site__in=access.sites())
        return checks.select_related("gaming_day", "table", "checked_by", "recorded_by").order_by("-checked_at", "-id")

    def create_object(self, data):
        data = dict(data)
        return services.record_card_check(acting_user=pin_acting_user(self.request, data), **data)


# --- Fill and credit slips ---------------------------------------------------------------------


class SlipSerializer(AnsweredFromRow, serializers.ModelSerializer):
    status = serializers.CharField(read_only=True)
    gaming_date = serializers.DateField(source="gaming_day.gaming_date", read_only=True)
    prepared_by_initials = serializers.CharField(source="prepared_by.initials", read_only=True)
    chips = ChipLineSerializer(source="lines", many=True, read_only=True)
    verified_at = serializers.SerializerMethodField()
    verified_by_initials = serializers.SerializerMethodField()
    received_at = serializers.SerializerMethodField()
    received_by_initials = serializers.SerializerMethodField()
    voided_at = serializers.SerializerMethodField()
    voided_by_initials = serializers.SerializerMethodField()
    void_reason = serializers.SerializerMethodField()
    retain_until = retain_until_field()
    get_retain_until = get_retain_until
    verified_as = serializers.SerializerMethodField()
    received_as = serializers.SerializerMethodField()
    receipt_note = serializers.SerializerMethodField()

    class Meta:
        model = Slip
        fields = [
            "id",
            "site",
            "kind",
            "number",
            "status",
            "purpose",
            "table",
            "table_number",
            "game",
            "gaming_day",
            "gaming_date",
            "prepared_at",
            "prepared_by",
            "prepared_by_initials",
            "prepared_as",
            "signed_by",
            "signed_initials",
            "signed_as",
            "chips",
            "total_cents",
            "slip_book",
            "verified_at",
            "verified_by_initials",
            "received_at",
            "received_by_initials",
            "voided_at",
            "voided_by_initials",
            "void_reason",
            "entered_at",
            "entered_late",
            "retain_until",
            "verified_as",
            "received_as",
            "receipt_note",
        ]

    moment_field, retained = "prepared_at", Slip

    def to_representation(self, slip):
        # What ModelSerializer makes of the fields above (the schema and its order), built
        # directly from the row the viewset reads (`SlipViewSet`: the day's date, the preparer's
        # initials and the site's jurisdiction annotated in its query, the lines' dicts and the
        # steps' values in one query each for the page, `_with_slip_rows`): a list carries every
        # slip with its lines and steps, and DRF's walk of thirty-four fields, with a day, a site,
        # an employee and a model a line and a step, was most of the list's time a row (issue 37).
        # A step's moment is written as the method fields return it (the database's UTC, as the
        # JSON renderer writes a datetime), not in the request's time zone as `prepared_at` is.
        moment = self._moment_text
        verify, receive, void = (slip.step_rows.get(kind, NO_STEP) for kind in STEP_KINDS)
        return {
            "id": slip.pk,
            "site": slip.site_id,
            "kind": slip.kind,
            "number": slip.number,
            "status": slip.status,
            "purpose": slip.purpose,
            "table": slip.table_id,
            "table_number": slip.table_number,
            "game": slip.game,
            "gaming_day": slip.gaming_day_id,
            "gaming_date": self.fields["gaming_date"].to_representation(slip.gaming_date),
            "prepared_at": moment(slip.prepared_at),
            "prepared_by": slip.prepared_by_id,
            "prepared_by_initials": slip.prepared_by_initials,
            "prepared_as": slip.prepared_as,
            "signed_by": slip.signed_by_id,
            "signed_initials": slip.signed_initials,
            "signed_as": slip.signed_as,
            "chips": slip.chip_lines,
            "total_cents": slip.total_cents,
            "slip_book": slip.slip_book_id,
            "verified_at": verify.at,
            "verified_by_initials": verify.initials,
            "received_at": receive.at,
            "received_by_initials": receive.initials,
            "voided_at": void.at,
            "voided_by_initials": void.initials,
            "void_reason": void.reason,
            "entered_at": moment(slip.entered_at),
            "entered_late": slip.entered_late,
            "retain_until": self._retain_until(slip.gaming_date, slip.site_jurisdiction),
            "verified_as": verify.signed_as,
            "received_as": receive.signed_as,
            "receipt_note": receive.reason,
        }

    # The method fields are the schema (their types and help) and, through `Slip.step`, what DRF
    # writes for them; `to_representation` writes the same from the page's step rows.
    def _step(self, slip, kind, attribute):
        step = slip.step(kind)
        return getattr(step, attribute) if step else None

    def get_verified_at(self, slip) -> str | None:
        return self._step(slip, SlipStep.Kind.VERIFY, "at")

    def get_verified_by_initials(self, slip) -> str | None:
        return self._step(slip, SlipStep.Kind.VERIFY, "initials")

    def get_received_at(self, slip) -> str | None:
        return self._step(slip, SlipStep.Kind.RECEIVE, "at")

    def get_received_by_initials(self, slip) -> str | None:
        return self._step(slip, SlipStep.Kind.RECEIVE, "initials")

    def get_voided_at(self, slip) -> str | None:
        return self._step(slip, SlipStep.Kind.VOID, "at")

    def get_voided_by_initials(self, slip) -> str | None:
        return self._step(slip, SlipStep.Kind.VOID, "initials")

    def get_void_reason(self, slip) -> str | None:
        return self._step(slip, SlipStep.Kind.VOID, "reason")

    def get_verified_as(self, slip) -> str | None:
        return self._step(slip, SlipStep.Kind.VERIFY, "signed_as")

    def get_received_as(self, slip) -> str | None:
        return self._step(slip, SlipStep.Kind.RECEIVE, "signed_as")

    def get_receipt_note(self, slip) -> str | None:
        """Says so when the copy was received unverified: nobody was on duty to verify (rules.unverified_note)."""
        return self._step(slip, SlipStep.Kind.RECEIVE, "reason")


class StepRow(NamedTuple):
    """A slip's step as its answer shows it (`SlipSerializer`)."""

    at: datetime | None
    initials: str | None
    reason: str | None
    signed_as: str | None


NO_STEP = StepRow(None, None, None, None)  # a step not taken: its fields are null
STEP_KINDS = (SlipStep.Kind.VERIFY, SlipStep.Kind.RECEIVE, SlipStep.Kind.VOID)


def _with_slip_rows(slips: list[Slip]) -> list[Slip]:
    """Each slip with `chip_lines` (its lines as the API shows them, `line_data`) and `step_rows`
    (the first step of each kind, as `Slip.step` finds it), read in one query of values each for
    all of them (no model a line or a step), in the order `slip.lines` and `slip.steps` read them."""
    chips: dict[int, list[dict]] = {slip.pk: [] for slip in slips}
    steps: dict[int, dict[str, StepRow]] = {slip.pk: {} for slip in slips}
    if chips:
        lines = SlipLine.objects.filter(slip_id__in=chips)
        for slip_id, *line in lines.values_list("slip_id", "denomination_id", "value_cents", "quantity"):
            chips[slip_id].append(line_data(*line))
        taken = SlipStep.objects.filter(slip_id__in=chips)
        for slip_id, kind, *step in taken.values_list("slip_id", "kind", "at", "initials", "reason", "signed_as"):
            steps[slip_id].setdefault(kind, StepRow(*step))
    for slip in slips:
        slip.chip_lines, slip.step_rows = chips[slip.pk], steps[slip.pk]
    return slips


class SlipInputSerializer(PinSignerInput):
    # as the slip page says it (floor.forms.PrepareSlipForm)
    required_rules = {"table": (rules.SLIP_CONTENT, "a slip names its table")}
    table = ScopedTableField()
    chips = _chips_field(required=False)
    amounts = _amounts_field()
    purpose = serializers.ChoiceField(choices=Slip.Purpose.choices, default=Slip.Purpose.REGULAR)
    number = FormNumberField(required=False, help_text="The printed number of a paper slip.")
    prepared_at = MomentField(source="at")
    cashier = EmployeeIdField(
        required=False,
        help_text="Fill slips: the chip bank cashier or dealer acting as cashier whose initials the fill carries; "
        "needed when the preparer is not a cashier.",
    )

    def to_internal_value(self, data):
        between_tables = rules.TABLE_TO_TABLE_KEYS & set(data) if isinstance(data, dict) else set()
        if between_tables:
            field = sorted(between_tables)[0]
            raise serializers.ValidationError(
                {
                    field: [
                        f"{self._movement_rule(data)}: chips never move directly between two tables; one slip is for "
                        "one table."
                    ]
                }
            )
        return super().to_internal_value(data)

    def _movement_rule(self, data) -> str:
        """rules.SLIP_MOVEMENT cited at the site of the slip's table; without a table the user may
        see, at their sites' pack when they all share one, else as the house's control."""
        try:
            table = self.fields["table"].to_internal_value(data.get("table"))
        except serializers.ValidationError:
            packs = packs_of(access_for(self.context["request"].user).sites())
            return rules.SLIP_MOVEMENT.at(packs[0]) if len(packs) == 1 else HOUSE_CONTROL
        return rules.SLIP_MOVEMENT.at(table)


class VoidInputSerializer(PinSignerInput):
    reason = TextField(required=False, allow_blank=True, default="")
    voided_at = MomentField(source="at")


class VerifyInputSerializer(PinSignerInput):
    verified_at = MomentField(source="at")


class ReceiveInputSerializer(PinSignerInput):
    received_at = MomentField(source="at")
    unverified_reason = TextField(
        required=False,
        allow_blank=True,
        default="",
        help_text="Only when nobody who could verify is on duty (the site's verification rule): why the "
        "copy is received unverified. Required for a live receipt of an unverified slip; shown on the slip and "
        "the daily report.",
    )


PIN_NOTE = (
    "On a shared terminal (a station's token) give `signer_badge` (the initials of the person doing the step) "
    "and `signer_pin` (their signing PIN): the step is checked against that person's roles and rules and recorded "
    "as theirs, the station noted in the audit log. A wrong PIN answers 403 and counts towards its lock "
    "(as many failures as a password); a station's token alone is refused (403). With a person's own token the "
    "fields are optional."
)


class SlipFilter(FilterSet):
    gaming_date = DateFilter(field_name="gaming_day__gaming_date")
    status = filters.ChoiceFilter(
        field_name="status_code",
        choices=[(s, s) for s in ("issued", "verified", "received", "voided")],
    )

    class Meta:
        model = Slip
        fields = ["site", "table", "gaming_date", "status", "purpose", "number"]


class SlipViewSet(CustodyViewSet):
    kind: str
    output_serializer_class = SlipSerializer
    input_serializer_class = SlipInputSerializer
    filterset_class = SlipFilter

    def scope(self, access):
        slips = self._listed(access)
        if self.action in STEP_ACTIONS:  # the services read the slip's day, site, preparer, lines and steps
            slips = slips.select_related("gaming_day__site", "prepared_by").prefetch_related("lines", "steps")
        return slips

    def _listed(self, access):
        slips = Slip.objects.filter(kind=self.kind, site__in=access.sites()).annotate(
            gaming_date=F("gaming_day__gaming_date"),
            prepared_by_initials=F("prepared_by__initials"),
            site_jurisdiction=F("gaming_day__site__jurisdiction"),
        )
        return queries.slips_with_status(slips).order_by("site_id", "-number")

    def paginate_queryset(self, queryset):
        return _with_slip_rows(super().paginate_queryset(queryset))

    def get_object(self):
        slip = super().get_object()
        return slip if self.action in STEP_ACTIONS else _with_slip_rows([slip])[0]

    def create_object(self, data):
        data = dict(data)
        acting = pin_acting_user(self.request, data)
        if self.kind == SlipKind.FILL:
            return self._reload(services.prepare_fill(acting_user=acting, **data))
        if "cashier" in data:
            raise serializers.ValidationError(
                {
                    "cashier": [
                        f"{rules.SLIP_INITIALS.at(data['table'])}: a credit slip carries the initials of the dealer "
                        "at the table."
                    ]
                }
            )
        return self._reload(services.prepare_credit(acting_user=acting, **data))

    def _step(self, request, service, input_class):
        slip = self.get_object()
        data = dict(_parse(input_class, request))
        service(acting_user=pin_acting_user(request, data), slip=slip, **data)
        return self.respond(self._reload(slip))

    def _reload(self, slip):
        return _with_slip_rows([self._listed(self.access).get(pk=slip.pk)])[0]  # the slip as the list reads it

    @extend_schema(
        request=VerifyInputSerializer,
        responses={200: SlipSerializer, **ERROR_RESPONSES},
        description=PIN_NOTE,
    )
    @action(detail=True, methods=["post"])
    def verify(self, request, pk=None):
        return self._step(request, services.verify_slip, VerifyInputSerializer)

    @extend_schema(
        request=ReceiveInputSerializer,
        responses={200: SlipSerializer, **ERROR_RESPONSES},
        description=PIN_NOTE,
    )
    @action(detail=True, methods=["post"])
    def receive(self, request, pk=None):
        return self._step(request, services.receive_slip, ReceiveInputSerializer)

    @extend_schema(
        request=VoidInputSerializer,
        responses={200: SlipSerializer, **ERROR_RESPONSES},
        description=PIN_NOTE,
    )
    @action(detail=True, methods=["post"])
    def void(self, request, pk=None):
        return self._step(request, services.void_slip, VoidInputSerializer)


STEP_ACTIONS = {"verify", "receive", "void"}
_SLIP_CREATE = extend_schema(request=SlipInputSerializer, responses={201: SlipSerializer, **ERROR_RESPONSES})


@extend_schema_view(
    retrieve=extend_schema(responses={200: SlipSerializer, 404: ERROR_RESPONSES[404]}), create=_SLIP_CREATE
)
class FillSlipViewSet(SlipViewSet):
    kind = SlipKind.FILL


@extend_schema_view(
    retrieve=extend_schema(responses={200: SlipSerializer, 404: ERROR_RESPONSES[404]}), create=_SLIP_CREATE
)
class CreditSlipViewSet(SlipViewSet):
    kind = SlipKind.CREDIT


# --- Slip books --------------------------------------------------------------------------------


class SlipBookSerializer(serializers.ModelSerializer):
    class Meta:
        model = SlipBook
        fields = ["id", "site", "kind", "first_number", "last_number", "registered_at", "registered_by"]


class SlipBookInputSerializer(Input):
    site = SiteIdField()
    kind = serializers.ChoiceField(choices=SlipKind.choices)
    first_number = FormNumberField()
    last_number = FormNumberField()


@extend_schema_view(
    retrieve=extend_schema(responses={200: SlipBookSerializer, 404: ERROR_RESPONSES[404]}),
    create=extend_schema(request=SlipBookInputSerializer, responses={201: SlipBookSerializer, **ERROR_RESPONSES}),
)
class SlipBookViewSet(CustodyViewSet):
    output_serializer_class = SlipBookSerializer
    input_serializer_class = SlipBookInputSerializer
    filterset_fields = ["site", "kind"]

    def scope(self, access):
        return SlipBook.objects.filter(site__in=access.sites()).order_by("site_id", "kind", "first_number")

    def create_object(self, data):
        return services.register_slip_book(acting_user=self.request.user, **data)


# --- Register and queues (per site) ----------------------------------------------------------


class SlipSummarySerializer(serializers.ModelSerializer):
    status = serializers.CharField(read_only=True)

    class Meta:
        model = Slip
        fields = [
            "id",
            "kind",
            "number",
            "status",
            "purpose",
            "table",
            "table_number",
            "prepared_at",
            "total_cents",
            "entered_at",
            "entered_late",
        ]


class RegisterEntrySerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.CharField()
    out_of_order = serializers.BooleanField()
    slip = SlipSummarySerializer(allow_null=True)


class SeriesRegisterSerializer(serializers.Serializer):
    kind = serializers.CharField()
    entries = RegisterEntrySerializer(many=True)
    missing = serializers.ListField(child=serializers.IntegerField())
    out_of_order = serializers.ListField(child=serializers.IntegerField())
    unused = serializers.ListField(child=serializers.IntegerField())


class SlipRegisterSerializer(serializers.Serializer):
    site = serializers.IntegerField(source="site.pk")
    start = serializers.DateField()
    end = serializers.DateField()
    series = SeriesRegisterSerializer(many=True)


class QueuesSerializer(serializers.Serializer):
    awaiting_verification = SlipSummarySerializer(many=True)
    awaiting_receipt = SlipSummarySerializer(many=True)
    tables_without_opener = serializers.SerializerMethodField()

    def get_tables_without_opener(self, queues) -> list[dict]:
        return [{"id": t.pk, "number": t.number, "game": t.game} for t in queues.tables_without_opener]


class SiteScopedViewSet(viewsets.ViewSet):
    def visible_site(self, site_pk):
        site = access_for(self.request.user).sites().filter(pk=site_pk).first()
        if site is None:
            raise Http404
        return site


def _date_param(request, name: str) -> date:
    return limits.parse_date(request.query_params.get(name, ""), name)


class SlipRegisterViewSet(SiteScopedViewSet):
    """Every fill and credit slip number of the period, in order, with missing and out-of-order
    numbers (the slip numbering rule of the site's pack, or its house control)."""

    @extend_schema(
        parameters=[OpenApiParameter("start", date, required=True), OpenApiParameter("end", date, required=True)],
        responses={200: SlipRegisterSerializer, 400: ERROR_RESPONSES[400], 404: ERROR_RESPONSES[404]},
    )
    def list(self, request, site_pk=None):
        site = self.visible_site(site_pk)
        rules.SLIP_REGISTER.require(request.user, site)
        start, end = _date_param(request, "start"), _date_param(request, "end")
        if end < start or (end - start).days >= MAX_REGISTER_DAYS:
            raise ValidationError({"end": REGISTER_PERIOD})
        return Response(SlipRegisterSerializer(queries.slip_register(site, start, end)).data)


class CustodyQueueViewSet(SiteScopedViewSet):
    """Slips waiting for verification or receipt; tables without an opener."""

    @extend_schema(
        responses={200: QueuesSerializer, 404: OpenApiResponse(description="Not found in the sites you may see.")}
    )
    def list(self, request, site_pk=None):
        return Response(QueuesSerializer(queries.queues(self.visible_site(site_pk))).data)
