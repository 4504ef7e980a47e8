"""Surveillance endpoints, following the platform's conventions (cardroom.api): serializers
only parse, services validate and write, querysets are scoped to the sites the user may read
surveillance records at, and `?site=<id>` filters every list."""

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, serializers
from rest_framework.decorators import action
from rest_framework.response import Response

from cardroom.api import ScopedEmployeeField
from cardroom.models import EmploymentType, Table
from core.api import (
    ERROR_RESPONSES,
    DateField,
    Input,
    InputSerializer,
    MomentField,
    ScopedField,
    ScopedSiteField,
    ScopedViewSet,
    TextField,
    required_by,
)
from core.api_filters import site_filterset

from . import queries, rules, services
from .models import (
    Equipment,
    EquipmentChange,
    Outage,
    OutageRepair,
    Recording,
    RecordingAccess,
    ReviewEntry,
    ReviewLogEntry,
    ReviewProgram,
    ReviewProgramClosure,
    ReviewTask,
    SampleEvaluation,
    SampleSubmission,
    SpecialEvent,
    SurveillanceStatus,
    VendorPurchase,
)
from .rules import HOUSE_PROGRAM_MAX_FOOTAGE_MINUTES, HOUSE_PROGRAM_MAX_WEEKS, READ_ROLES


def readable_sites(access):
    """Sites where the user reads surveillance records: managers, pit bosses and auditors, and
    independent persons (who may handle video: `rules.VIDEO_ACCESS`)."""
    sites = access.sites()
    if access.employee is not None and access.employee.employment_type == EmploymentType.INDEPENDENT:
        return sites
    return sites.filter(pk__in=[s.pk for s in sites if access.has_role(s.pk, *READ_ROLES)])


def site_filter(model_class, site_path, extra=()):
    """A FilterSet with `?site=<id>` on `site_path` and plain filters on `extra` fields."""
    return site_filterset(model_class, site_path, extra=extra)


class SurveillanceViewSet(ScopedViewSet, mixins.CreateModelMixin):
    """List, retrieve and create (append) records of one model, scoped by `site_path`."""

    model = None
    site_path = "site"

    def scope(self, access):
        return self.model.objects.filter(**{f"{self.site_path}__in": readable_sites(access)})

    def create(self, request, *args, **kwargs):
        return self.write(request)

    def create_object(self, data):
        return self.service(acting_user=self.request.user, **data)


def surveillance_viewset(name, model, site_path, output, input_, service, extra_filters=(), created=None):
    """Build one endpoint's viewset with its schema (201 or the documented errors); `created`, the
    answer to a create where it says more than the row."""
    attrs = {
        "model": model,
        "site_path": site_path,
        "output_serializer_class": output,
        "created_serializer_class": created,
        "input_serializer_class": input_,
        "filterset_class": site_filter(model, site_path, extra_filters),
        "service": staticmethod(service),
    }
    viewset = type(name, (SurveillanceViewSet,), attrs)
    return extend_schema_view(
        create=extend_schema(responses={201: created or output, **ERROR_RESPONSES}),
        list=extend_schema(responses={200: output(many=True), **ERROR_RESPONSES}),
        retrieve=extend_schema(responses={200: output, **ERROR_RESPONSES}),
    )(viewset)


def _output(model_class, extra_fields=(), **declared):
    meta = type("Meta", (), {"model": model_class, "fields": "__all__" if not extra_fields else None})
    if extra_fields:
        meta.fields = [f.name for f in model_class._meta.concrete_fields] + list(extra_fields)
    return type(f"{model_class.__name__}Serializer", (serializers.ModelSerializer,), {"Meta": meta, **declared})


def _input(model_class, fields, **declared):
    meta = type("Meta", (), {"model": model_class, "fields": fields})
    return type(f"{model_class.__name__}InputSerializer", (InputSerializer,), {"Meta": meta, **declared})


def _table_field(**kwargs):
    return ScopedField(Table, "site", **kwargs)


# --- Serializers ---------------------------------------------------------------------------

StatusSerializer = _output(SurveillanceStatus)
StatusInput = _input(
    SurveillanceStatus,
    ["site", "required", "since", "operational_on", "reason"],
    required_rules=required_by(
        rules.SYSTEM,
        required="a site's activity decides whether it must have a system; say whether it does",
        since="the days to have a system operational run from when it is required; give the date",
    ),
    site=ScopedSiteField(),
    operational_on=DateField(required=False, allow_null=True),
)


def _set_status(*, acting_user, operational_on=None, **data):
    return services.set_surveillance_status(acting_user, operational_on=operational_on, **data)


EquipmentSerializer = _output(Equipment)
EquipmentInput = _input(
    Equipment,
    ["site", "table", "kind", "make_model", "serial_number", "vendor", "installed_on", "replaces", "note"],
    site=ScopedSiteField(),
    table=_table_field(required=False, allow_null=True),
    replaces=ScopedField(Equipment, "site", required=False, allow_null=True),
    note=TextField(required=False, allow_blank=True),
)

ChangeSerializer = _output(EquipmentChange)
ChangeInput = _input(
    EquipmentChange,
    ["site", "table", "kind", "changed_on", "note"],
    required_rules=required_by(
        rules.VIDEO_SAMPLE,
        kind="an equipment change, a camera or table moved or equipment acquired calls for a sample recording; "
        "say which",
        changed_on="the sample recording is due within days of the change; give its date",
    ),
    site=ScopedSiteField(),
    table=_table_field(required=False, allow_null=True),
)

SubmissionSerializer = _output(SampleSubmission)
SubmissionInput = _input(
    SampleSubmission,
    ["change", "submitted_on", "note"],
    required_rules=required_by(
        rules.VIDEO_SAMPLE,
        change="a sample recording is provided for a change at the site; name it",
        submitted_on="a sample recording is provided within days of the change; give the date",
    ),
    change=ScopedField(EquipmentChange, "site"),
)

EvaluationSerializer = _output(SampleEvaluation)
EvaluationInput = _input(
    SampleEvaluation,
    ["submission", "evaluated_on", "outcome", "evaluator", "findings"],
    required_rules=required_by(
        rules.VIDEO_SAMPLE, outcome="a sample recording not satisfactory is resolved and resubmitted; say which it was"
    ),
    submission=ScopedField(SampleSubmission, "change__site"),
)

PurchaseSerializer = _output(VendorPurchase)
PurchaseInput = _input(
    VendorPurchase,
    ["site", "change", "vendor", "approved_vendor", "description", "purchased_on", "price_cents", "deferred_cents"],
    required_rules=required_by(
        rules.VENDOR_DEFERRAL,
        vendor="the deferral applies to equipment from an approved vendor; name the vendor",
        price_cents="a share of the cost or lease price is deferred; give the price in cents",
        deferred_cents="a share of the price is deferred until the video's clarity is approved; give it in cents",
    ),
    site=ScopedSiteField(),
    change=ScopedField(EquipmentChange, "site", required=False, allow_null=True),
)

RecordingSerializer = _output(Recording)
RecordingInput = _input(
    Recording,
    ["table", "recorder", "gaming_date", "started_at", "stopped_at", "operated_by"],
    required_rules=required_by(
        rules.RECORDING_COVERS_PLAY,
        table="a recording unit records a table; name it",
        gaming_date="a table is recorded for the day's activity; give its gaming date",
        started_at="recording starts when chips are first made available on the table; give when",
        stopped_at="recording continues until the table is permanently closed for the day; give when it stopped",
    ),
    table=_table_field(),
    started_at=MomentField(required=True),
    stopped_at=MomentField(required=True),
    recorder=ScopedField(Equipment, "site", required=False, allow_null=True),
    operated_by=ScopedEmployeeField(required=False, allow_null=True),
)

AccessSerializer = _output(RecordingAccess)
AccessInput = _input(
    RecordingAccess,
    ["site", "table", "recording", "equipment", "accessed_by", "accessed_at", "purpose"],
    site=ScopedSiteField(),
    table=_table_field(required=False, allow_null=True),
    recording=ScopedField(Recording, "table__site", required=False, allow_null=True),
    equipment=ScopedField(Equipment, "site", required=False, allow_null=True),
    accessed_by=ScopedEmployeeField(required=False, allow_null=True),
    accessed_at=MomentField(required=True),
)

ReviewLogSerializer = _output(ReviewLogEntry)


class ReviewLogAddedSerializer(ReviewLogSerializer):
    """The answer to a review log entry: the entry, and the outage its failed check opened."""

    outage = serializers.IntegerField(
        source="outage.pk",
        read_only=True,
        allow_null=True,
        default=None,
        help_text="The outage this entry's failed check opened (the table had none open), so the deadline to "
        "repair it runs from the review; null when the check passed or an outage was already open.",
    )

    class Meta(ReviewLogSerializer.Meta):
        fields = [f.name for f in ReviewLogEntry._meta.concrete_fields] + ["outage"]


ReviewLogInput = _input(
    ReviewLogEntry,
    [
        "table",
        "gaming_date",
        "camera_recording",
        "unobstructed_view",
        "clear_picture",
        "field_of_view",
        "notes",
        "corrects",
        "reviewed_at",
    ],
    required_rules=required_by(
        rules.DAILY_REVIEW,
        table="the daily review is of the camera at each table; name it",
        gaming_date="the review is made on a daily basis; give its gaming date",
        camera_recording="the review documents that the camera is recording; say whether it is",
        unobstructed_view="the review documents an unobstructed view of the table activity; say whether it is",
        clear_picture="the review documents a clear picture of the table activity; say whether it is",
    ),
    table=_table_field(),
    reviewed_at=MomentField(),
    corrects=ScopedField(ReviewLogEntry, "site", required=False, allow_null=True),
)


class OutageSerializer(serializers.ModelSerializer):
    deadline_at = serializers.SerializerMethodField()
    deadline_basis = serializers.SerializerMethodField()
    repaired_at = serializers.DateTimeField(source="repair.repaired_at", read_only=True, default=None)

    class Meta:
        model = Outage
        fields = [f.name for f in Outage._meta.concrete_fields] + ["deadline_at", "deadline_basis", "repaired_at"]

    def _deadline(self, outage):
        known = self.context.get("deadlines", {})  # computed for a whole list at once
        return known[outage.pk] if outage.pk in known else queries.deadline_for(outage)

    def get_deadline_at(self, outage) -> str:
        return serializers.DateTimeField().to_representation(self._deadline(outage).at)

    def get_deadline_basis(self, outage) -> str:
        return self._deadline(outage).basis


OutageInput = _input(
    Outage,
    ["table", "equipment", "kind", "began_at", "description"],
    required_rules=required_by(
        rules.OUTAGE_DEADLINE,
        table="equipment not operating properly is repaired for its table; name it",
        kind="a recording unit or camera not operating properly, or no unobstructed view and clear picture; say which",
        began_at="the days to repair run from the outage; give when it began",
    ),
    table=_table_field(),
    began_at=MomentField(required=True),
    equipment=ScopedField(Equipment, "site", required=False, allow_null=True),
)

RepairSerializer = _output(OutageRepair)
RepairInput = _input(
    OutageRepair,
    ["outage", "repaired_at", "description"],
    required_rules=required_by(
        rules.OUTAGE_DEADLINE,
        outage="a repair ends an outage; name it",
        repaired_at="the table is closed or its wagers limited until the equipment is repaired; give when it was",
    ),
    outage=ScopedField(Outage, "table__site"),
    repaired_at=MomentField(required=True),
)

SpecialEventSerializer = _output(SpecialEvent)
SpecialEventInput = _input(
    SpecialEvent,
    ["site", "name", "first_day", "last_day", "corrects"],
    required_rules=required_by(
        rules.SPECIAL_EVENT,
        first_day="a special event's table needs no system for a number of consecutive days; give the first",
        last_day="a special event's table needs no system for a number of consecutive days; give the last",
    ),
    site=ScopedSiteField(),
    corrects=ScopedField(SpecialEvent, "site", required=False, allow_null=True),
)

ProgramSerializer = _output(ReviewProgram)
ProgramInput = _input(
    ReviewProgram,
    ["site", "start_date", "reason", "weeks", "footage_minutes"],
    required_rules=required_by(
        rules.REVIEW_PROGRAM,
        start_date="the review runs in the period immediately after the quarter's percent-of-hold is determined; "
        "give its start",
    ),
    site=ScopedSiteField(),
    # House control: set only where the site's pack states no review program (its bounds and the
    # refusal elsewhere are the service's, the form's words).
    weeks=serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text=f"House control, where the site's pack states no review program: the house's own program's "
        f"length in whole weeks (1 to {HOUSE_PROGRAM_MAX_WEEKS}; omitted: the house's default). Where the pack "
        "states one, its weeks, and only those.",
    ),
    footage_minutes=serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text=f"House control, where the site's pack states no review program: the minutes of each table's "
        f"video to review each week (1 to {HOUSE_PROGRAM_MAX_FOOTAGE_MINUTES}; omitted: the house's default). "
        "Where the pack states one, its footage, and only that.",
    ),
)

ClosureSerializer = _output(ReviewProgramClosure)
ClosureInput = _input(
    ReviewProgramClosure,
    ["program", "closed_on", "low_hold_reason"],
    required_rules=required_by(
        rules.REVIEW_PROGRAM,
        closed_on="the review continues until the reason for the low hold is determined; give the date it was",
        low_hold_reason="the review ends once the organization has determined and documented the reason; give it",
    ),
    program=ScopedField(ReviewProgram, "site"),
)


class TaskSerializer(serializers.ModelSerializer):
    reviewed_minutes = serializers.SerializerMethodField()
    done = serializers.SerializerMethodField()

    class Meta:
        model = ReviewTask
        fields = ["id", "program", "table", "week", "week_start", "week_end", "reviewed_minutes", "done"]

    def get_reviewed_minutes(self, task) -> int:
        return int(queries.task_footage(task).total_seconds() // 60)

    def get_done(self, task) -> bool:
        return queries.task_done(task)


EntrySerializer = _output(ReviewEntry)
EntryInput = _input(
    ReviewEntry,
    [
        "task",
        "gaming_date",
        "shift_started_at",
        "shift_ended_at",
        "footage_start_at",
        "footage_end_at",
        "reviewer",
        "findings",
        "corrects",
    ],
    required_rules=required_by(
        rules.REVIEW_PROGRAM,
        gaming_date="the review is of a shift selected for review; give its gaming date",
        shift_started_at="the reviewer did not conduct twenty-one on the shift selected; give when it started",
        shift_ended_at="the reviewer did not conduct twenty-one on the shift selected; give when it ended",
        footage_start_at="a minimum of video a week is reviewed and documented; give where the footage starts",
        footage_end_at="a minimum of video a week is reviewed and documented; give where the footage ends",
        reviewer="the review is completed by someone who did not conduct twenty-one on the shift; name them",
        findings="the video reviewed is documented; give the findings",
    ),
    task=ScopedField(ReviewTask, "program__site"),
    reviewer=ScopedEmployeeField(),
    corrects=ScopedField(ReviewEntry, "task__program__site", required=False, allow_null=True),
)


# --- Viewsets ------------------------------------------------------------------------------

StatusViewSet = surveillance_viewset(
    "StatusViewSet",
    SurveillanceStatus,
    "site",
    StatusSerializer,
    StatusInput,
    _set_status,
    ["required"],
)
EquipmentViewSet = surveillance_viewset(
    "EquipmentViewSet",
    Equipment,
    "site",
    EquipmentSerializer,
    EquipmentInput,
    services.install_equipment,
    ["table", "kind"],
)


class EquipmentMoveInput(Input):
    required_rules = required_by(
        rules.VIDEO_SAMPLE,
        table="a camera moved with its table calls for a sample recording; name the table",
        moved_on="the sample recording is due within days of the move; give its date",
    )
    table = _table_field()
    moved_on = DateField()
    note = TextField(required=False, allow_blank=True, default="")


class EquipmentViewSet(EquipmentViewSet):
    @extend_schema(request=EquipmentMoveInput, responses={200: EquipmentSerializer, **ERROR_RESPONSES})
    @action(detail=True, methods=["post"])
    def move(self, request, pk=None):
        """Move a unit to another table of the site; a sample recording becomes due where the site's rules ask for one."""
        equipment = self.get_object()
        data = EquipmentMoveInput(data=request.data, context=self.get_serializer_context())
        data.is_valid(raise_exception=True)
        moved = services.move_equipment(acting_user=request.user, equipment=equipment, **data.validated_data)
        return Response(EquipmentSerializer(moved).data)


ChangeViewSet = surveillance_viewset(
    "ChangeViewSet",
    EquipmentChange,
    "site",
    ChangeSerializer,
    ChangeInput,
    services.record_site_change,
    ["table", "kind"],
)
SubmissionViewSet = surveillance_viewset(
    "SubmissionViewSet",
    SampleSubmission,
    "change__site",
    SubmissionSerializer,
    SubmissionInput,
    services.submit_sample,
    ["change"],
)
EvaluationViewSet = surveillance_viewset(
    "EvaluationViewSet",
    SampleEvaluation,
    "submission__change__site",
    EvaluationSerializer,
    EvaluationInput,
    services.record_sample_evaluation,
    ["outcome"],
)
PurchaseViewSet = surveillance_viewset(
    "PurchaseViewSet",
    VendorPurchase,
    "site",
    PurchaseSerializer,
    PurchaseInput,
    services.record_vendor_purchase,
    ["approved_vendor"],
)
RecordingViewSet = surveillance_viewset(
    "RecordingViewSet",
    Recording,
    "table__site",
    RecordingSerializer,
    RecordingInput,
    services.record_recording,
    ["table", "gaming_date"],
)
AccessViewSet = surveillance_viewset(
    "AccessViewSet",
    RecordingAccess,
    "site",
    AccessSerializer,
    AccessInput,
    services.record_video_access,
    ["table", "accessed_by"],
)
ReviewLogViewSet = surveillance_viewset(
    "ReviewLogViewSet",
    ReviewLogEntry,
    "site",
    ReviewLogSerializer,
    ReviewLogInput,
    services.add_review_log_entry,
    ["table", "gaming_date"],
    created=ReviewLogAddedSerializer,
)
OutageViewSet = surveillance_viewset(
    "OutageViewSet", Outage, "table__site", OutageSerializer, OutageInput, services.report_outage, ["table", "kind"]
)


class OutageViewSet(OutageViewSet):
    def scope(self, access):
        return super().scope(access).select_related("table__site", "repair").order_by("-began_at", "-pk")

    def list(self, request, *args, **kwargs):
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        context = {**self.get_serializer_context(), "deadlines": queries.deadlines_for(page)}
        return self.get_paginated_response(OutageSerializer(page, many=True, context=context).data)


RepairViewSet = surveillance_viewset(
    "RepairViewSet",
    OutageRepair,
    "outage__table__site",
    RepairSerializer,
    RepairInput,
    services.record_outage_repair,
    ["outage"],
)
SpecialEventViewSet = surveillance_viewset(
    "SpecialEventViewSet",
    SpecialEvent,
    "site",
    SpecialEventSerializer,
    SpecialEventInput,
    services.record_special_event,
    ["first_day"],
)
ProgramViewSet = surveillance_viewset(
    "ProgramViewSet",
    ReviewProgram,
    "site",
    ProgramSerializer,
    ProgramInput,
    services.open_review_program,
    ["start_date"],
)
ClosureViewSet = surveillance_viewset(
    "ClosureViewSet",
    ReviewProgramClosure,
    "program__site",
    ClosureSerializer,
    ClosureInput,
    services.close_review_program,
    ["program"],
)


class TaskViewSet(ScopedViewSet):
    """Weekly review tasks are created with their program; read-only here."""

    output_serializer_class = TaskSerializer
    filterset_class = site_filter(ReviewTask, "program__site", ["program", "table", "week"])

    def scope(self, access):
        tasks = ReviewTask.objects.filter(program__site__in=readable_sites(access)).select_related(
            "program__site", "table"
        )
        return queries.with_active_entries(tasks).order_by("program_id", "week", "table_id", "pk")


EntryViewSet = surveillance_viewset(
    "EntryViewSet",
    ReviewEntry,
    "task__program__site",
    EntrySerializer,
    EntryInput,
    services.record_review_entry,
    ["task", "table", "reviewer"],
)
