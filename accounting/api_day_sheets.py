"""`POST /api/v1/sites/{id}/day-sheets/`: a whole gaming day from paper in one request.

The serializers only parse the sheet's structure (every structural error located at once:
`slips[3].chips[1].quantity`) and resolve tables by number, drop boxes by number and label,
and employees by id or initials; accounting.day_sheets applies it through the services."""

from zoneinfo import ZoneInfo

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.access import access_for, require_role
from cardroom.models import Employee, Table
from core import limits
from core.api import CentsField, DateField, DateTimeField, FormNumberField, Input, TextField
from core.moments import CLOCK_TOLERANCE
from core.rules import HOUSE_CONTROL
from counts.models import DropBox
from fees import rules as fees_rules
from floor.models import Slip, SlipKind

from . import day_sheets
from .rules import SLIP_INITIALS

MAX_ITEMS = 500  # house control: one list of a sheet holds at most this many items


def flatten_errors(errors, prefix: str = "") -> dict[str, list[str]]:
    """DRF's nested errors -> {"slips[3].chips[1].quantity": [messages]}."""
    found: dict[str, list[str]] = {}
    if isinstance(errors, dict):
        for key, value in errors.items():
            if isinstance(key, int):
                name = f"{prefix}[{key}]"
            elif key in ("non_field_errors", "__all__"):
                name = prefix
            else:
                name = f"{prefix}.{key}" if prefix else str(key)
            for where, messages in flatten_errors(value, name).items():
                found.setdefault(where, []).extend(messages)
    elif isinstance(errors, list | tuple):
        if all(isinstance(e, str) for e in errors):
            if errors:
                found.setdefault(prefix or "sheet", []).extend(str(e) for e in errors)
        else:
            for index, value in enumerate(errors):
                if value:
                    for where, messages in flatten_errors(value, f"{prefix}[{index}]").items():
                        found.setdefault(where, []).extend(messages)
    else:
        found.setdefault(prefix or "sheet", []).append(str(errors))
    return found


# --- References to what the paper names ----------------------------------------------------------


@extend_schema_field(
    {"oneOf": [{"type": "integer"}, {"type": "string", "maxLength": 4}], "description": "employee id or initials"}
)
class EmployeeRefField(serializers.Field):
    """An employee of the site's organization, by id (a JSON number) or by the initials they sign
    with (a string, even when the initials are digits)."""

    default_error_messages = {
        "unknown": "No employee of the organization has the id or initials {value!r}.",
        "invalid": "Name the employee by id (a number) or by their initials.",
        "inactive": f"{HOUSE_CONTROL}: {{employee}} ({{initials}}) is not an active employee; only an active "
        "employee signs for the organization.",
    }

    def to_internal_value(self, data):
        organization_id = self.context["site"].organization_id
        employees = Employee.objects.filter(organization_id=organization_id).select_related("user")
        if isinstance(data, bool) or not isinstance(data, int | str):
            self.fail("invalid")
        if isinstance(data, int):  # a number is an id; text is initials (which may be digits)
            employee = employees.filter(pk=data).first() if 0 < data <= limits.MAX_ID else None
        else:
            text = data.strip()
            if not text or len(text) > 20 or "\x00" in text:
                self.fail("invalid")
            employee = employees.filter(initials__iexact=text).first()
        if employee is None:
            self.fail("unknown", value=data)
        if not employee.active:  # as a live entry: an inactive employee has no access (cardroom.access)
            self.fail("inactive", employee=employee, initials=employee.initials)
        return employee

    def to_representation(self, value):
        return value.pk


@extend_schema_field({"type": "integer", "description": "the table's number at the site"})
class TableNumberField(serializers.IntegerField):
    default_error_messages = {
        **serializers.IntegerField.default_error_messages,
        "unknown": "The site has no table {value}.",
    }

    def __init__(self, **kwargs):
        super().__init__(min_value=1, max_value=32767, **kwargs)

    def run_validation(self, data=serializers.empty):
        number = super().run_validation(data)  # a whole number in range, then the table
        table = Table.objects.filter(site=self.context["site"], number=number).select_related("site").first()
        if table is None:
            self.fail("unknown", value=number)
        return table


class SheetMoment(DateTimeField):
    """When a line of the paper happened: ISO 8601 with an offset, or without one for the site's
    local time (as the floor's API reads `*_at`, core.moments); never in the future (house
    control; the services check the rest: business hours, closed books, order)."""

    default_error_messages = {
        **DateTimeField.default_error_messages,
        "future": f"{HOUSE_CONTROL}: a record cannot be dated in the future.",
    }

    def enforce_timezone(self, value):
        if timezone.is_naive(value):
            return value.replace(tzinfo=ZoneInfo(self.context["site"].time_zone))
        return super().enforce_timezone(value)

    def to_internal_value(self, value):
        moment = super().to_internal_value(value)
        if moment > timezone.now() + CLOCK_TOLERANCE:
            self.fail("future")
        return moment


class DaySheetChipLine(Input):
    denomination = serializers.IntegerField(
        min_value=1, max_value=limits.MAX_AMOUNT_CENTS, help_text="the chip's value in cents"
    )
    quantity = serializers.IntegerField(min_value=1, max_value=limits.MAX_QUANTITY)


def _chips(required=True):
    return DaySheetChipLine(many=True, required=required, max_length=50, allow_empty=not required)


class DaySheetCurrencyLine(Input):
    denomination_cents = serializers.IntegerField(min_value=1, max_value=10_000)
    form = serializers.ChoiceField(choices=["bill", "coin"], required=False)
    quantity = serializers.IntegerField(min_value=0, max_value=limits.MAX_QUANTITY)


class DaySheetFormFound(Input):
    kind = serializers.ChoiceField(choices=SlipKind.choices)
    number = FormNumberField()


class BoxRef(Input):
    """A drop box by its number (the table's, 08-02(2)) and label."""

    box = serializers.IntegerField(min_value=1, max_value=32767)
    label = serializers.CharField(max_length=10, required=False, allow_blank=True, default="")

    def validate(self, attrs):
        attrs = super().validate(attrs)
        box = DropBox.objects.filter(site=self.context["site"], number=attrs["box"], label=attrs["label"]).first()
        if box is None:
            raise serializers.ValidationError(
                {"box": f"{HOUSE_CONTROL}: box names no drop box {attrs['box']}{attrs['label']} of the site."}
            )
        attrs["box"] = box
        return attrs


# --- The sections -------------------------------------------------------------------------------


class DaySheetOpen(Input):
    opened_at = SheetMoment()
    opened_by = EmployeeRefField()


class DaySheetClose(Input):
    closed_at = SheetMoment()
    closed_by = EmployeeRefField()
    carry_reason = TextField(
        required=False,
        help_text="Carries every item still open at the close (a box counted after the close, a slip...) past it "
        "with this reason, signed by the closer (house control, floor.open_items); without it an open item "
        "refuses the close.",
    )


class DaySheetTrayCount(Input):
    table = TableNumberField()
    counted_at = SheetMoment()
    counted_by = EmployeeRefField()
    chips = _chips()
    variance_reason = TextField(required=False, allow_blank=True)


class DaySheetDealerShift(Input):
    table = TableNumberField()
    dealer = EmployeeRefField()
    started_at = SheetMoment()
    started_by = EmployeeRefField(help_text="the shift manager who recorded the rotation")
    chips = _chips(required=False)
    ended_at = SheetMoment(
        required=False, allow_null=True, help_text="only if the shift ended other than by a relief or the closer"
    )
    ended_by = EmployeeRefField(required=False, allow_null=True)


class DaySheetSlip(Input):
    kind = serializers.ChoiceField(choices=SlipKind.choices)
    number = FormNumberField(required=False, allow_null=True, help_text="the printed number from a registered book")
    table = TableNumberField()
    purpose = serializers.ChoiceField(choices=Slip.Purpose.choices, required=False, default=Slip.Purpose.REGULAR)
    chips = _chips()
    prepared_at = SheetMoment()
    prepared_by = EmployeeRefField()
    verified_at = SheetMoment(required=False, allow_null=True)
    verified_by = EmployeeRefField(required=False, allow_null=True)
    received_at = SheetMoment(required=False, allow_null=True)
    received_by = EmployeeRefField(required=False, allow_null=True)
    cashier = EmployeeRefField(
        required=False,
        allow_null=True,
        help_text="Fills: the chip bank cashier (or dealer acting as cashier) whose initials the fill carries "
        "(cited at the site's pack); needed when the preparer is not a cashier.",
    )

    def validate(self, attrs):
        attrs = super().validate(attrs)
        errors = {}
        if attrs.get("cashier") and attrs.get("kind") != SlipKind.FILL:
            errors["cashier"] = (
                f"{SLIP_INITIALS.at(self.context['site'])}: a credit carries the initials of the dealer or wheel "
                "operator at its table, not a cashier's; name a cashier on fills only."
            )
        for step in ("verified", "received"):
            if bool(attrs.get(f"{step}_at")) != bool(attrs.get(f"{step}_by")):
                missing = f"{step}_by" if attrs.get(f"{step}_at") else f"{step}_at"
                errors[missing] = f"Give both {step}_at and {step}_by (who initialed the slip, and when)."
        if errors:
            raise serializers.ValidationError(errors)
        return attrs


class DaySheetSession(Input):
    licence_number = TextField(
        max_length=fees_rules.MAX_LICENCE_LENGTH, help_text="the organization's games-of-chance licence in force"
    )
    started_at = SheetMoment()
    ended_at = SheetMoment()
    # bounded by the service, whose refusal reads in words and cites the house control
    receipts_cents = CentsField()
    prizes_cents = CentsField()
    recorded_by = EmployeeRefField(help_text="who recorded the session's figures on the paper")


class DaySheetDrop(BoxRef):
    removed_at = SheetMoment()
    removed_by = EmployeeRefField(help_text="the shift manager who removed and transported the box")
    escorted_by = EmployeeRefField(required=False, allow_null=True)
    sole_employee_on_duty = serializers.BooleanField(required=False, default=False)
    storage_place = TextField(max_length=200)
    key_holder = EmployeeRefField()
    second_key_holder = EmployeeRefField(required=False, allow_null=True)
    dealer_shift = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        help_text="index in dealer_shifts (sites exchanging boxes per shift)",
    )


class DaySheetCountEntry(BoxRef):
    counted_at = SheetMoment()
    counted_by = EmployeeRefField()
    currency = DaySheetCurrencyLine(many=True, max_length=50)
    forms = DaySheetFormFound(many=True, required=False, max_length=MAX_ITEMS)


class DaySheetRecount(DaySheetCountEntry):
    note = TextField()


class DaySheetSignature(Input):
    signed_at = SheetMoment()
    signed_by = EmployeeRefField()


class DaySheetCount(Input):
    opened_at = SheetMoment()
    opened_by = EmployeeRefField()
    members = serializers.ListField(child=EmployeeRefField(), min_length=2, max_length=2)
    entries = DaySheetCountEntry(many=True, max_length=MAX_ITEMS)
    recounts = DaySheetRecount(many=True, required=False, max_length=MAX_ITEMS)
    signatures = DaySheetSignature(many=True, required=False, max_length=2)


def _items(serializer_class):
    return serializer_class(many=True, required=False, max_length=MAX_ITEMS)


class DaySheetSerializer(Input):
    gaming_date = DateField()
    open = DaySheetOpen(required=False, allow_null=True, help_text="omit when the day is already open")
    openers = _items(DaySheetTrayCount)
    dealer_shifts = _items(DaySheetDealerShift)
    slips = _items(DaySheetSlip)
    sessions = _items(DaySheetSession)  # where the site's pack keeps them (New York: 9 NYCRR 4620.5)
    closers = _items(DaySheetTrayCount)
    drops = _items(DaySheetDrop)
    count = DaySheetCount(required=False, allow_null=True)
    close = DaySheetClose(required=False, allow_null=True, help_text="omit to leave the day open")


class DaySheetResultSerializer(Input):
    gaming_day = serializers.IntegerField(source="gaming_day.pk")
    gaming_date = serializers.DateField(source="gaming_day.gaming_date")
    openers = serializers.SerializerMethodField()
    dealer_shifts = serializers.SerializerMethodField()
    slips = serializers.SerializerMethodField()
    sessions = serializers.SerializerMethodField()
    closers = serializers.SerializerMethodField()
    drops = serializers.SerializerMethodField()
    count_session = serializers.SerializerMethodField()
    closed = serializers.BooleanField()

    def _ids(self, rows) -> list[int]:
        return [row.pk for row in rows]

    def get_openers(self, applied) -> list[int]:
        return self._ids(applied.openers)

    def get_dealer_shifts(self, applied) -> list[int]:
        return self._ids(applied.dealer_shifts)

    def get_slips(self, applied) -> list[int]:
        return self._ids(applied.slips)

    def get_sessions(self, applied) -> list[int]:
        """The games-of-chance sessions recorded."""
        return self._ids(applied.sessions)

    def get_closers(self, applied) -> list[int]:
        return self._ids(applied.closers)

    def get_drops(self, applied) -> list[int]:
        """The drop box removals."""
        return self._ids(applied.drops)

    def get_count_session(self, applied) -> int | None:
        return applied.count_session.pk if applied.count_session else None


def parse_sheet(data, site) -> dict:
    """The parsed sheet, or DaySheetError with every structural error located."""
    serializer = DaySheetSerializer(data=data, context={"site": site})
    if not serializer.is_valid():
        raise day_sheets.DaySheetError(flatten_errors(serializer.errors))
    return serializer.validated_data


def check_may_enter(user, site) -> None:
    require_role(user, site, *day_sheets.ENTERERS, action="enter a day sheet", rule=day_sheets.ENTER_RULE)


EXAMPLE = {
    "gaming_date": "2026-11-13",
    "open": {"opened_at": "2026-11-13T17:55:00-06:00", "opened_by": "SM"},
    "openers": [
        {
            "table": 1,
            "counted_at": "2026-11-13T18:00:00-06:00",
            "counted_by": "SM",
            "chips": [{"denomination": 2500, "quantity": 40}, {"denomination": 500, "quantity": 160}],
        }
    ],
    "dealer_shifts": [{"table": 1, "dealer": "DL", "started_at": "2026-11-13T18:05:00-06:00", "started_by": "SM"}],
    "slips": [
        {
            "kind": "fill",
            "number": 1001,
            "table": 1,
            "chips": [{"denomination": 2500, "quantity": 20}],
            "prepared_at": "2026-11-13T20:10:00-06:00",
            "prepared_by": "CA",
            "verified_at": "2026-11-13T20:11:00-06:00",
            "verified_by": "SM",
            "received_at": "2026-11-13T20:12:00-06:00",
            "received_by": "DL",
        }
    ],
    "closers": [
        {
            "table": 1,
            "counted_at": "2026-11-14T01:00:00-06:00",
            "counted_by": "SM",
            "chips": [{"denomination": 2500, "quantity": 45}, {"denomination": 500, "quantity": 150}],
        }
    ],
    "drops": [
        {
            "box": 1,
            "removed_at": "2026-11-14T01:10:00-06:00",
            "removed_by": "SM",
            "escorted_by": "PB",
            "storage_place": "office safe",
            "key_holder": "CT",
        }
    ],
    "count": {
        "opened_at": "2026-11-14T02:00:00-06:00",
        "opened_by": "CT",
        "members": ["CT", "IP"],
        "entries": [
            {
                "box": 1,
                "counted_at": "2026-11-14T02:10:00-06:00",
                "counted_by": "CT",
                "currency": [{"denomination_cents": 10000, "quantity": 12}],
                "forms": [{"kind": "fill", "number": 1001}],
            },
            {
                "box": 1,
                "counted_at": "2026-11-14T02:15:00-06:00",
                "counted_by": "IP",
                "currency": [{"denomination_cents": 10000, "quantity": 12}],
                "forms": [{"kind": "fill", "number": 1001}],
            },
        ],
        "signatures": [
            {"signed_at": "2026-11-14T02:30:00-06:00", "signed_by": "CT"},
            {"signed_at": "2026-11-14T02:31:00-06:00", "signed_by": "IP"},
        ],
    },
    "close": {"closed_at": "2026-11-14T01:30:00-06:00", "closed_by": "SM"},
}


class DaySheetView(APIView):
    @extend_schema(
        operation_id="site_day_sheet_create",
        request=DaySheetSerializer,
        responses={
            201: DaySheetResultSerializer,
            400: OpenApiResponse(
                response={
                    "type": "object",
                    "additionalProperties": {
                        "anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "string"}]
                    },
                    "example": {"slips[3].chips[1].quantity": ["Ensure this value is greater than or equal to 1."]},
                },
                description="The sheet was refused and nothing was changed. Each key is the path of an error "
                'in the sheet, each value its messages: {"slips[3].chips[1].quantity": ["Ensure this value is '
                'greater than or equal to 1."]}. Structural errors come all at once; otherwise the first '
                "refusal by a service, with its rule.",
            ),
        },
        examples=[OpenApiExample("A gaming day from paper", value=EXAMPLE, request_only=True)],
        description="Apply a whole gaming day from paper, atomically: all or nothing. Each item carries the time it "
        "happened and the employees who signed it (by id or initials); each step is checked against the "
        "signer's role and the rules exactly as a live entry, recorded as done by the signer, and audited as "
        "entered by you. Order applied: open, openers, dealer shifts (in time order), slips (prepared, "
        "verified, received), closers, drop box removals, the count (session, blind counts, recounts, "
        "signatures), close. House controls: a gaming manager or shift manager of the site enters a sheet, "
        "only a gaming manager one with a count section (403 otherwise).",
    )
    def post(self, request, pk):
        site = get_object_or_404(access_for(request.user).sites(), pk=pk)
        check_may_enter(request.user, site)
        try:
            sheet = parse_sheet(request.data, site)
            applied = day_sheets.apply_day_sheet(acting_user=request.user, site=site, sheet=sheet)
        except day_sheets.DaySheetError as refused:
            return Response(refused.errors, status=400)
        return Response(DaySheetResultSerializer(applied).data, status=201)
