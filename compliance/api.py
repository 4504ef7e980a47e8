"""/api/v1/alerts/, /api/v1/obligations/ (and the running ones, /api/v1/obligations/running/) and
/api/v1/compliance-runs/."""

from datetime import timedelta

from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.access import access_for, require_role
from cardroom.models import Role
from core.api import ERROR_RESPONSES, Input, ScopedSiteField, ScopedViewSet, TextField
from core.api_filters import PAGE_PARAMETERS, Pagination
from core.periods import Quarter
from core.rules import HOUSE_CONTROL

from . import obligations as running
from . import services
from .engine import run_checks
from .labels import figure_rows, period_of, table_of
from .models import ComplianceRun
from .month import Month
from .queries import alerts_for, is_overdue, obligations, status_of


class AlertStepSerializer(serializers.Serializer):
    kind = serializers.CharField()
    by = serializers.CharField(source="by.username")
    at = serializers.DateTimeField()
    note = serializers.CharField()
    documentation = serializers.JSONField()


class FigureLabelSerializer(serializers.Serializer):
    label = serializers.CharField()
    value = serializers.CharField()


class AlertSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    rule = serializers.CharField()
    citation = serializers.CharField()
    title = serializers.CharField()
    site = serializers.IntegerField(source="site_id")
    site_name = serializers.CharField(source="site.name")
    period_key = serializers.CharField()
    subject = serializers.CharField()
    period_start = serializers.DateField()
    period_end = serializers.DateField()
    figures = serializers.JSONField()
    action_required = serializers.CharField()
    due_date = serializers.DateField(allow_null=True)
    opened_at = serializers.DateTimeField()
    status = serializers.SerializerMethodField()
    overdue = serializers.SerializerMethodField()
    table = serializers.SerializerMethodField(
        help_text="The tables the alert concerns, in words ('Table 3', 'Tables 1, 4'), or ''."
    )
    period = serializers.SerializerMethodField(help_text="The period in words: a date, a week, a quarter or a range.")
    figure_labels = serializers.SerializerMethodField(help_text="The figures as the pages show them, in order.")
    steps = AlertStepSerializer(many=True)

    def get_status(self, alert) -> str:
        return status_of(alert)

    def get_table(self, alert) -> str:
        return table_of(alert)

    def get_period(self, alert) -> str:
        return period_of(alert)

    @extend_schema_field(FigureLabelSerializer(many=True))
    def get_figure_labels(self, alert) -> list[dict]:
        return [{"label": label, "value": value} for label, value in figure_rows(alert.figures, alert.site)]

    def get_overdue(self, alert) -> bool:
        return is_overdue(alert, status_of(alert))


class AlertPageSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = AlertSerializer(many=True)


class StepInputSerializer(Input):
    note = TextField(required=False, allow_blank=True, default="")
    documentation = serializers.DictField(required=False, default=dict)


class AlertViewSet(ScopedViewSet):
    output_serializer_class = AlertSerializer
    filterset_fields = ["site", "rule"]

    def scope(self, access):
        qs = alerts_for(access).order_by("due_date", "-opened_at")
        wanted = self.request.query_params.get("status")
        if wanted == "open":
            qs = qs.filter(is_resolved=False)
        elif wanted == "resolved":
            qs = qs.filter(is_resolved=True)
        return qs

    def _step(self, request, service):
        alert = self.get_object()
        data = StepInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        kwargs = {"note": data.validated_data["note"]}
        if service is not services.acknowledge_alert:
            kwargs["documentation"] = data.validated_data["documentation"]
        service(acting_user=request.user, alert=alert, **kwargs)
        return Response(AlertSerializer(self.get_queryset().get(pk=alert.pk)).data)

    @extend_schema(request=StepInputSerializer, responses={200: AlertSerializer, **ERROR_RESPONSES})
    @action(detail=True, methods=["post"])
    def acknowledge(self, request, pk=None):
        return self._step(request, services.acknowledge_alert)

    @extend_schema(request=StepInputSerializer, responses={200: AlertSerializer, **ERROR_RESPONSES})
    @action(detail=True, methods=["post"])
    def document(self, request, pk=None):
        return self._step(request, services.document_alert)

    @extend_schema(request=StepInputSerializer, responses={200: AlertSerializer, **ERROR_RESPONSES})
    @action(detail=True, methods=["post"])
    def resolve(self, request, pk=None):
        return self._step(request, services.resolve_alert)

    @extend_schema(
        request=StepInputSerializer,
        responses={200: AlertSerializer, **ERROR_RESPONSES},
        description="The browser's one resolve action: the documentation (a note, and whom was "
        "contacted when, if anyone) is required; the alert is acknowledged (unless it "
        "was), documented and resolved in one transaction, each step its own audited "
        "row. House control: a gaming manager resolves.",
    )
    @action(detail=True, methods=["post"], url_path="resolve-with-documentation")
    def resolve_with_documentation(self, request, pk=None):
        return self._step(request, services.resolve_alert_with_documentation)


class ObligationsView(APIView):
    """Everything still due across the user's sites, overdue first, a page at a time."""

    pagination_class = Pagination

    @extend_schema(parameters=PAGE_PARAMETERS, responses={200: AlertPageSerializer})
    def get(self, request):
        pages = Pagination()
        page = pages.paginate_queryset(obligations(access_for(request.user)), request, self)
        return pages.get_paginated_response(AlertSerializer(page, many=True).data)


class RunningObligationSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=["review_week", "dealer_hold_records", "deposit", "state_return"],
        help_text="What runs: a week of a video review program, the period of dealer percent-of-hold "
        "records, a day's bank deposit not yet recorded, a quarter's return. Never an alert (those are "
        "/api/v1/obligations/).",
    )
    site = serializers.IntegerField(source="site_id")
    site_name = serializers.CharField()
    due_date = serializers.DateField()
    title = serializers.CharField()
    citation = serializers.CharField(
        help_text="The rule as the site's pack cites it ('House control' where it is silent)."
    )
    action = serializers.CharField(help_text="What is to be done, opening with the citation.")
    status = serializers.CharField(
        help_text="to document, documented, running, period ended, not filed, filed or overdue."
    )
    done = serializers.BooleanField()
    overdue = serializers.BooleanField()
    page = serializers.CharField(
        source="url",
        help_text="The page where it is done (a review: at the site chosen); empty where the user's roles do not open it.",
    )


class RunningObligationPageSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = RunningObligationSerializer(many=True)


class RunningObligationsView(APIView):
    """The obligations running with no alert of their own (compliance.obligations) due in a
    month, as the obligations calendar shows them, with the returns still not filed from before
    it first; across the user's sites, a page at a time."""

    pagination_class = Pagination

    @extend_schema(
        parameters=[OpenApiParameter("month", str, description="YYYY-MM (default: this month)."), *PAGE_PARAMETERS],
        responses={200: RunningObligationPageSerializer},
    )
    def get(self, request):
        today = timezone.localdate()
        month = Month.parse(request.query_params.get("month"), default=today)  # a bad one: a 400 naming "month"
        found = running.obligations_between(
            access_for(request.user), month.first, month.next.first - timedelta(days=1), today
        )
        pages = Pagination()
        page = pages.paginate_queryset(found, request, self)
        return pages.get_paginated_response(RunningObligationSerializer(page, many=True).data)


class RunInputSerializer(Input):
    site = ScopedSiteField()
    quarter = serializers.CharField(max_length=10)

    def validate_quarter(self, value):
        return Quarter.parse(value)


class RunResultSerializer(serializers.Serializer):
    opened = serializers.IntegerField()
    already_open = serializers.IntegerField()


class ComplianceRunView(APIView):
    """Run the checks on demand for a site and a quarter (a gaming manager)."""

    @extend_schema(request=RunInputSerializer, responses={200: RunResultSerializer, **ERROR_RESPONSES})
    def post(self, request):
        data = RunInputSerializer(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        site = data.validated_data["site"]
        require_role(request.user, site, Role.GAMING_MANAGER, action="run the compliance checks", rule=HOUSE_CONTROL)
        result = run_checks(
            site_ids=[site.pk],
            quarter=data.validated_data["quarter"],
            trigger=ComplianceRun.Trigger.API,
            acting_user=request.user,
        )
        return Response(result.as_dict(), status=status.HTTP_200_OK)
