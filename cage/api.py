"""Cage endpoints, following the platform's conventions (cardroom.api): serializers only parse,
services validate and write, lists are scoped to the sites where the user reads cage records
and filter by `?site=<id>` and `?gaming_date=YYYY-MM-DD`."""

from functools import cached_property

from drf_spectacular.utils import extend_schema, extend_schema_field, extend_schema_view
from rest_framework import mixins, serializers
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.settings import api_settings

from cardroom.api import ScopedEmployeeField, SiteOrganizationFilter
from cardroom.models import Role
from core.api import (
    ERROR_RESPONSES,
    CentsField,
    DateField,
    Input,
    MomentField,
    ScopedField,
    ScopedSiteField,
    ScopedViewSet,
    TextField,
    moment_writer,
)
from core.api_filters import DateFilter, site_filterset
from floor.models import GamingDay

from . import rules, services
from .calculations import deposit_is_late
from .models import (
    BankCount,
    BankCountLine,
    BankDeposit,
    ChipInventoryCount,
    ChipInventoryCountLine,
    ChipMovement,
    ChipMovementLine,
    ChipRedemption,
    ChipRedemptionLine,
    DepositCorrection,
    DepositVerification,
    IdealBank,
    Iou,
    IouRepayment,
    TipDeclaration,
    TipDeclarationLine,
    TipPolicy,
    TipRedemption,
)
from .queries import deposit_difference, with_expected
from .rules import CAGE_READERS, INVENTORY_READERS


def readable_site_ids(access) -> list[int]:
    """Sites where the user reads cage records: cage clerks and auditors."""
    return [s.pk for s in access.sites() if access.has_role(s.pk, *CAGE_READERS)]


def _filter(model, site_path="site", date_path="gaming_date", extra=()):
    return site_filterset(model, site_path, date_path, extra)


def _organization_filter(model, date_field):
    """`?site=<id>` (records of that site's organization) and `?<date_field>=` on a record of
    the whole organization, which has no site of its own."""
    attrs = {
        "Meta": type("Meta", (), {"model": model, "fields": ["site"]}),
        date_field: DateFilter(field_name=date_field),
    }
    return type(f"{model.__name__}Filter", (SiteOrganizationFilter,), attrs)


def _lines(line_model):
    fields = ["value_cents", "quantity"] + (["chip"] if any(f.name == "chip" for f in line_model._meta.fields) else [])
    fields += [name for name in ("location", "site") if any(f.name == name for f in line_model._meta.fields)]
    meta = type("Meta", (), {"model": line_model, "fields": fields})
    return type(f"{line_model.__name__}Serializer", (serializers.ModelSerializer,), {"Meta": meta})


def _writes_as_read(field) -> bool:
    """DRF writes a value of `field` as the database gives it (an integer, a text, a choice, a
    truth value): its `to_representation` is `int`, `str`, a choice's own key or `bool` of it."""
    if type(field) is serializers.BigIntegerField:
        return not getattr(field, "coerce_to_string", api_settings.COERCE_BIGINT_TO_STRING)
    return type(field) in (
        serializers.IntegerField,
        serializers.CharField,
        serializers.ChoiceField,
        serializers.BooleanField,
    )


class RecordSerializer(serializers.ModelSerializer):
    # A record as ModelSerializer writes its fields (the schema and its order), each read and
    # written by a plan made once a request (`_plan`): an id from its column (no related object),
    # a moment by `moment_writer`, a date by its field, the rest as read; its lines as the list
    # read them for its whole page (`with_line_rows`), else from the record. A list carries every
    # record with its lines, and DRF's walk of a dozen fields a record and of a model and its
    # fields a line was most of a cage list's time a row (issue 37). (A comment, not a docstring:
    # the schema would describe every cage record with it.)

    # Each field of a line (`lines`, `_lines`) with the column it is read from: DRF writes each
    # as read (a value or quantity, an id, a location), so a line's answer is those values.
    line_columns: tuple[tuple[str, str], ...] = ()

    @cached_property
    def _plan(self) -> list[tuple[str, str | None, object]]:
        return [self._step(name, field) for name, field in self.fields.items() if not field.write_only]

    def _step(self, name, field) -> tuple[str, str | None, object]:
        """(the answer's key, the record's attribute, how its value is written: None as read);
        the lines' step reads the record itself (attribute None)."""
        if name == "lines" and self.line_columns:
            return name, None, self._line_answers
        if type(field) is serializers.PrimaryKeyRelatedField and field.pk_field is None:
            return name, self.Meta.model._meta.get_field(field.source).attname, None
        if type(field) is serializers.DateTimeField:
            return name, field.source, moment_writer(field)
        if type(field) is serializers.DateField:
            return name, field.source, field.to_representation
        if _writes_as_read(field):
            return name, field.source, None
        raise TypeError(f"{type(self).__name__}.{name}: no direct answer for {type(field).__name__}")

    def to_representation(self, record):
        answer = {}
        for name, attribute, write in self._plan:
            if attribute is None:
                answer[name] = write(record)
                continue
            value = getattr(record, attribute)
            answer[name] = value if write is None or value is None else write(value)
        return answer

    def _line_answers(self, record) -> list[dict]:
        rows = getattr(record, "line_rows", None)
        if rows is None:
            rows = [{name: getattr(line, column) for name, column in self.line_columns} for line in record.lines.all()]
        return rows


def with_line_rows(records: list, serializer_class) -> list:
    """Each record with `line_rows`, its lines as `serializer_class` answers them, read in one
    query of values for all of them (no model a line), in the line model's order, as
    `record.lines.all()` reads them."""
    columns = getattr(serializer_class, "line_columns", ())  # none on a serializer of no lines
    if not columns or not records:
        return records
    relation = type(records[0]).lines.field  # the line's foreign key to its record
    names = [name for name, _ in columns]
    rows: dict[int, list[dict]] = {record.pk: [] for record in records}
    lines = relation.model._default_manager.filter(**{f"{relation.attname}__in": rows})
    for record_id, *values in lines.values_list(relation.attname, *(column for _, column in columns)):
        rows[record_id].append(dict(zip(names, values, strict=True)))
    for record in records:
        record.line_rows = rows[record.pk]
    return records


def _output(model, lines=None):
    fields = [f.name for f in model._meta.concrete_fields] + (["lines"] if lines else [])
    attrs = {"Meta": type("Meta", (), {"model": model, "fields": fields})}
    if lines:
        line_serializer = _lines(lines)
        columns = tuple((name, lines._meta.get_field(name).attname) for name in line_serializer.Meta.fields)
        attrs.update(lines=line_serializer(many=True, read_only=True), line_columns=columns)
    return type(f"{model.__name__}Serializer", (RecordSerializer,), attrs)


def _input(name, **declared):
    return type(name, (Input,), declared)


LINES_HELP = 'A list of {"value_cents": n, "quantity": n} lines (or {"<value_cents>": quantity}).'


VALUE_LINE = {
    "type": "object",
    "properties": {
        "value_cents": {"type": "integer", "description": "The chip's, bill's or coin's value in cents."},
        "denomination": {"type": "integer", "description": "The same value in cents, by its other name: give one."},
        "quantity": {"type": "integer", "minimum": 0},
    },
    "required": ["quantity"],
    "additionalProperties": False,
}


@extend_schema_field(
    {
        "oneOf": [
            {"type": "array", "items": VALUE_LINE},
            {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}},
        ]
    }
)
class ValueLinesField(serializers.JSONField):
    """Lines parsed by `cage.services.parse_chip_lines` / `parse_cash_lines` (their messages)."""


def _lines_field(**kwargs):
    return ValueLinesField(help_text=LINES_HELP, **kwargs)


# --- Serializers ---------------------------------------------------------------------------

IdealBankSerializer = _output(IdealBank)
IdealBankInput = _input(
    "IdealBankInput",
    site=ScopedSiteField(),
    amount_cents=CentsField(min_value=0),
    effective_on=DateField(),
)

BankCountSerializer = _output(BankCount, BankCountLine)


class BankCountInput(Input):
    required_rules = {
        name: (rules.BANK_RECORDS, why)
        for name, why in (
            ("site", "a bank count is of one site's bank"),
            ("gaming_date", "a bank count is of one gaming day"),
            ("kind", "a bank count is the starting or the ending bank; say which"),
            ("cash", "a bank count records the cash bank, by denomination"),
            ("chips", "a bank count records the chip bank, by denomination"),
        )
    }
    site = ScopedSiteField()
    gaming_date = DateField()
    kind = serializers.CharField(max_length=20)
    cash = _lines_field()
    chips = _lines_field()
    corrects = ScopedField(BankCount, required=False, allow_null=True)
    reason = TextField(required=False, allow_blank=True, default="")
    counted_at = MomentField(source="at")


class IouSerializer(serializers.ModelSerializer):
    repaid_cents = serializers.SerializerMethodField()
    outstanding_cents = serializers.SerializerMethodField()

    class Meta:
        model = Iou
        fields = [f.name for f in Iou._meta.concrete_fields] + ["repaid_cents", "outstanding_cents"]

    def get_repaid_cents(self, iou) -> int:
        return sum(r.amount_cents for r in iou.repayments.all())

    def get_outstanding_cents(self, iou) -> int:
        return iou.amount_cents - self.get_repaid_cents(iou)


IouInput = _input(
    "IouInput",
    site=ScopedSiteField(),
    gaming_date=DateField(),
    source=serializers.CharField(max_length=20),
    destination=serializers.CharField(max_length=20),
    amount_cents=CentsField(min_value=0),
    note=TextField(required=False, allow_blank=True, default=""),
    lent_at=MomentField(source="at"),
)
IouRepaymentSerializer = _output(IouRepayment)
IouRepaymentInput = _input(
    "IouRepaymentInput",
    amount_cents=CentsField(min_value=0, required=False, allow_null=True, default=None),
    gaming_date=DateField(required=False, allow_null=True, default=None),
    repaid_at=MomentField(source="at"),
)

ChipRedemptionSerializer = _output(ChipRedemption, ChipRedemptionLine)
ChipRedemptionInput = _input(
    "ChipRedemptionInput",
    site=ScopedSiteField(),
    gaming_date=DateField(),
    chips=_lines_field(),
    redeemed_at=MomentField(source="at"),
)

TipPolicySerializer = _output(TipPolicy)
TipPolicyInput = _input(
    "TipPolicyInput",
    pooled=serializers.BooleanField(),
    description=TextField(allow_blank=True),
    effective_on=DateField(),
)

TipDeclarationSerializer = _output(TipDeclaration, TipDeclarationLine)
TipDeclarationInput = _input(
    "TipDeclarationInput",
    site=ScopedSiteField(),
    gaming_date=DateField(),
    chips=_lines_field(),
    declared_at=MomentField(source="at"),
)

TipRedemptionSerializer = _output(TipRedemption)
TipRedemptionInput = _input(
    "TipRedemptionInput",
    declaration=ScopedField(TipDeclaration),
    dealer=ScopedEmployeeField(),
    redeemed_at=MomentField(source="at"),
)

DepositVerificationSerializer = _output(DepositVerification)
DepositCorrectionSerializer = _output(DepositCorrection)


class BankDepositSerializer(serializers.ModelSerializer):
    # `amount_cents`, `deposited_on` and `reference` are the deposit as recorded; a correction is a
    # row of its own pointing back (`corrections`), and the deposit as it stands is `standing_...`.
    late = serializers.SerializerMethodField(
        help_text="Deposited after its due date, as it stands (a correction's date deposited, else as recorded)."
    )
    standing_amount_cents = serializers.IntegerField(
        read_only=True, help_text="The amount as it stands: the latest correction's, else as recorded."
    )
    standing_deposited_on = serializers.DateField(
        read_only=True, help_text="The date deposited as it stands: the latest correction's, else as recorded."
    )
    standing_reference = serializers.CharField(
        read_only=True, help_text="The slip reference as it stands: the latest correction's, else as recorded."
    )
    corrections = DepositCorrectionSerializer(many=True, read_only=True)
    verification = DepositVerificationSerializer(read_only=True, allow_null=True, default=None)
    expected_cents = serializers.IntegerField(
        read_only=True,
        allow_null=True,
        help_text="The deposit the day's closed books expect: its cash profit as closed (0 on a losing day); "
        "null where the day's own books were not closed.",
    )
    difference_cents = serializers.SerializerMethodField(
        help_text="The deposit less what the closed books expect: negative when short, null when not known."
    )

    class Meta:
        model = BankDeposit
        fields = [f.name for f in BankDeposit._meta.concrete_fields] + [
            "late",
            "standing_amount_cents",
            "standing_deposited_on",
            "standing_reference",
            "corrections",
            "verification",
            "expected_cents",
            "difference_cents",
        ]

    def get_difference_cents(self, deposit) -> int | None:
        return deposit_difference(deposit)

    def get_late(self, deposit) -> bool:
        return deposit_is_late(deposit.standing_deposited_on, deposit.due_on, today=deposit.standing_deposited_on)


BankDepositInput = _input(
    "BankDepositInput",
    site=ScopedSiteField(required=False, help_text="The site, with `gaming_date`: the day of its books deposited."),
    gaming_date=DateField(
        required=False, help_text="The date of the site's books (a gaming day's, or a fees or session day's)."
    ),
    gaming_day=ScopedField(
        GamingDay, required=False, help_text="The gaming day deposited: the same as its site and gaming_date."
    ),
    amount_cents=CentsField(min_value=0),
    deposited_on=DateField(),
    reference=serializers.CharField(required=False, allow_blank=True, default="", max_length=80),
)
DepositCorrectionInput = _input(
    "DepositCorrectionInput",
    amount_cents=CentsField(
        min_value=0, required=False, allow_null=True, default=None, help_text="The amount as it should read."
    ),
    deposited_on=DateField(
        required=False, allow_null=True, default=None, help_text="The date deposited as it should read."
    ),
    reference=serializers.CharField(
        required=False, allow_null=True, default=None, allow_blank=True, max_length=80,
        help_text="The deposit slip reference as it should read.",
    ),
    reason=TextField(required=False, allow_blank=True, default="", help_text="Why the deposit is corrected."),
)  # fmt: skip
DepositVerificationInput = _input(
    "DepositVerificationInput",
    statement_date=DateField(),
    statement_amount_cents=CentsField(min_value=0),
    note=TextField(required=False, allow_blank=True, default=""),
)

ChipMovementSerializer = _output(ChipMovement, ChipMovementLine)
ChipMovementInput = _input(
    "ChipMovementInput",
    kind=serializers.ChoiceField(choices=ChipMovement.Kind.choices),
    occurred_on=DateField(),
    reference=serializers.CharField(allow_blank=True, max_length=120),
    note=TextField(required=False, allow_blank=True, default=""),
    chips=_lines_field(),
)

ChipInventoryCountSerializer = _output(ChipInventoryCount, ChipInventoryCountLine)
ChipInventoryCountInput = _input(
    "ChipInventoryCountInput",
    counted_on=DateField(),
    note=TextField(required=False, allow_blank=True, default=""),
    locations=serializers.JSONField(
        help_text='[{"location": "bank"|"trays"|"storage", "site": id (bank, trays), "chips": [...]}, ...]'
    ),
)


# --- Viewsets ------------------------------------------------------------------------------


class CageViewSet(ScopedViewSet, mixins.CreateModelMixin):
    """List, retrieve and create (append) records of one model."""

    model = None
    site_path = "site"

    def scope(self, access):
        return self.model.objects.filter(**{f"{self.site_path}__in": readable_site_ids(access)}).order_by("-pk")

    def paginate_queryset(self, queryset):
        # A record's lines for the whole page in one query of values (RecordSerializer).
        return with_line_rows(super().paginate_queryset(queryset), self.output_serializer_class)

    def create(self, request, *args, **kwargs):
        return self.write(request)

    def create_object(self, data):
        return self.service(acting_user=self.request.user, **data)

    def organization(self):
        return self.access.employee_org()


def _schema(viewset, output):
    return extend_schema_view(
        create=extend_schema(responses={201: output, **ERROR_RESPONSES}),
        list=extend_schema(responses={200: output(many=True), **ERROR_RESPONSES}),
        retrieve=extend_schema(responses={200: output, **ERROR_RESPONSES}),
    )(viewset)


def cage_viewset(name, model, output, input_, service, *, site_path="site", date_path="gaming_date"):
    attrs = {
        "model": model,
        "site_path": site_path,
        "output_serializer_class": output,
        "input_serializer_class": input_,
        "filterset_class": _filter(model, site_path, date_path),
        "service": staticmethod(service),
    }
    return _schema(type(name, (CageViewSet,), attrs), output)


IdealBankViewSet = cage_viewset(
    "IdealBankViewSet", IdealBank, IdealBankSerializer, IdealBankInput, services.set_ideal_bank, date_path=None
)
BankCountViewSet = cage_viewset(
    "BankCountViewSet", BankCount, BankCountSerializer, BankCountInput, services.record_bank_count
)
ChipRedemptionViewSet = cage_viewset(
    "ChipRedemptionViewSet",
    ChipRedemption,
    ChipRedemptionSerializer,
    ChipRedemptionInput,
    services.redeem_chips,
)


def _own_or_readable(access, site_path: str, dealer_path: str):
    from django.db.models import Q

    readable = Q(**{f"{site_path}__in": readable_site_ids(access)})
    own = Q(**{dealer_path: access.employee}) if access.employee else Q(pk__in=[])
    return readable | (own & Q(**{f"{site_path}__in": access.sites()}))


class TipDeclarationScope:
    def scope(self, access):
        rows = self.model.objects.filter(_own_or_readable(access, self.site_path, self.dealer_path))
        return rows.order_by("-pk")


TipDeclarationViewSet = _schema(
    type(
        "TipDeclarationViewSet",
        (TipDeclarationScope, CageViewSet),
        {
            "model": TipDeclaration,
            "dealer_path": "dealer",
            "output_serializer_class": TipDeclarationSerializer,
            "input_serializer_class": TipDeclarationInput,
            "filterset_class": _filter(TipDeclaration, extra=["dealer"]),
            "service": staticmethod(services.declare_tips),
        },
    ),
    TipDeclarationSerializer,
)
TipRedemptionViewSet = _schema(
    type(
        "TipRedemptionViewSet",
        (TipDeclarationScope, CageViewSet),
        {
            "model": TipRedemption,
            "site_path": "declaration__site",
            "dealer_path": "declaration__dealer",
            "output_serializer_class": TipRedemptionSerializer,
            "input_serializer_class": TipRedemptionInput,
            "filterset_class": _filter(TipRedemption, "declaration__site"),  # gaming_date: the day counted on
            "service": staticmethod(services.redeem_tips),
        },
    ),
    TipRedemptionSerializer,
)


@extend_schema_view(
    create=extend_schema(responses={201: IouSerializer, **ERROR_RESPONSES}),
    list=extend_schema(responses={200: IouSerializer(many=True), **ERROR_RESPONSES}),
    retrieve=extend_schema(responses={200: IouSerializer, **ERROR_RESPONSES}),
)
class IouViewSet(CageViewSet):
    model = Iou
    output_serializer_class = IouSerializer
    input_serializer_class = IouInput
    filterset_class = _filter(Iou, extra=["source", "destination"])
    service = staticmethod(services.lend_iou)

    def scope(self, access):
        return super().scope(access).prefetch_related("repayments")

    def get_serializer_class(self):
        return IouRepaymentInput if self.action == "repay" else super().get_serializer_class()

    @extend_schema(request=IouRepaymentInput, responses={201: IouRepaymentSerializer, **ERROR_RESPONSES})
    @action(detail=True, methods=["post"])
    def repay(self, request, pk=None):
        iou = self.get_object()
        serializer = IouRepaymentInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        repayment = services.repay_iou(acting_user=request.user, iou=iou, **serializer.validated_data)
        return Response(IouRepaymentSerializer(repayment).data, status=201)


@extend_schema_view(
    create=extend_schema(responses={201: BankDepositSerializer, **ERROR_RESPONSES}),
    list=extend_schema(responses={200: BankDepositSerializer(many=True), **ERROR_RESPONSES}),
    retrieve=extend_schema(responses={200: BankDepositSerializer, **ERROR_RESPONSES}),
)
class BankDepositViewSet(CageViewSet):
    model = BankDeposit
    output_serializer_class = BankDepositSerializer
    input_serializer_class = BankDepositInput
    filterset_class = _filter(BankDeposit)
    service = staticmethod(services.record_deposit)

    def scope(self, access):
        return with_expected(super().scope(access).select_related("verification")).prefetch_related("corrections")

    def create_object(self, data):
        # The answer says at once what the closed books expect and how far the deposit is from it.
        return self.scope(self.access).get(pk=super().create_object(data).pk)

    def get_serializer_class(self):
        actions = {"verify": DepositVerificationInput, "correct": DepositCorrectionInput}
        return actions.get(self.action) or super().get_serializer_class()

    @extend_schema(request=DepositCorrectionInput, responses={201: DepositCorrectionSerializer, **ERROR_RESPONSES})
    @action(detail=True, methods=["post"])
    def correct(self, request, pk=None):
        """Correct the deposit by a new row pointing back at it (`cage.services.correct_deposit`)."""
        deposit = self.get_object()
        serializer = DepositCorrectionInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        correction = services.correct_deposit(acting_user=request.user, deposit=deposit, **serializer.validated_data)
        return Response(DepositCorrectionSerializer(correction).data, status=201)

    @extend_schema(request=DepositVerificationInput, responses={201: DepositVerificationSerializer, **ERROR_RESPONSES})
    @action(detail=True, methods=["post"])
    def verify(self, request, pk=None):
        deposit = self.get_object()
        serializer = DepositVerificationInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        verification = services.verify_deposit(acting_user=request.user, deposit=deposit, **serializer.validated_data)
        return Response(DepositVerificationSerializer(verification).data, status=201)


class OrganizationViewSet(CageViewSet):
    """Records of the whole organization (no site): the tip policy, the chip inventory log."""

    readers = INVENTORY_READERS

    def scope(self, access):
        if access.employee is None or not (access.all_roles() & self.readers):
            return self.model.objects.none()
        return self.model.objects.filter(organization_id=access.organization_id).order_by("-pk")

    def create_object(self, data):
        return self.service(acting_user=self.request.user, organization=self.organization(), **data)


def org_viewset(name, model, output, input_, service, readers, date_field):
    attrs = {
        "model": model,
        "readers": readers,
        "output_serializer_class": output,
        "input_serializer_class": input_,
        "filterset_class": _organization_filter(model, date_field),
        "service": staticmethod(service),
    }
    return _schema(type(name, (OrganizationViewSet,), attrs), output)


def _move_chips(*, acting_user, organization, kind, occurred_on, **data):
    if kind == ChipMovement.Kind.DESTRUCTION:
        return services.destroy_chips(
            acting_user=acting_user, organization=organization, destroyed_on=occurred_on, **data
        )
    return services.receive_chips(acting_user=acting_user, organization=organization, received_on=occurred_on, **data)


ALL_EMPLOYEES = frozenset(Role)  # every employee reads the tip policy
TipPolicyViewSet = org_viewset(
    "TipPolicyViewSet",
    TipPolicy,
    TipPolicySerializer,
    TipPolicyInput,
    services.record_tip_policy,
    ALL_EMPLOYEES,
    "effective_on",
)
ChipMovementViewSet = org_viewset(
    "ChipMovementViewSet",
    ChipMovement,
    ChipMovementSerializer,
    ChipMovementInput,
    _move_chips,
    INVENTORY_READERS,
    "occurred_on",
)
ChipInventoryCountViewSet = org_viewset(
    "ChipInventoryCountViewSet",
    ChipInventoryCount,
    ChipInventoryCountSerializer,
    ChipInventoryCountInput,
    services.record_chip_inventory_count,
    INVENTORY_READERS,
    "counted_on",
)
