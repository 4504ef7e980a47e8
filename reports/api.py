"""/api/v1/reports/: request a report, watch its progress, download it (PDF, CSV, XLSX)."""

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response

from cardroom.api import ERROR_RESPONSES, ScopedViewSet

from . import services
from .queries import readable_runs, require_reader, runs_for
from .registry import load_kinds


class ReportRunSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    site = serializers.IntegerField(source="site_id")
    start = serializers.DateField()
    end = serializers.DateField()
    period = serializers.CharField(source="period_label")
    status = serializers.CharField()
    progress = serializers.IntegerField()
    error = serializers.CharField()
    requested_by = serializers.CharField(source="requested_by.username")
    requested_at = serializers.DateTimeField()
    pdf_sha256 = serializers.SerializerMethodField()

    def get_pdf_sha256(self, run) -> str | None:
        file = getattr(run, "file", None) if run.status == "done" else None
        return file.pdf_sha256 if file else None


class ReportRequestSerializer(serializers.Serializer):
    kind = serializers.CharField()
    site = serializers.IntegerField()
    start = serializers.CharField(required=False)
    end = serializers.CharField(required=False)
    quarter = serializers.CharField(required=False)


class ReportViewSet(ScopedViewSet):
    output_serializer_class = ReportRunSerializer
    filterset_fields = ["site", "kind", "status"]

    def scope(self, access):
        if self.action == "list":
            return readable_runs(self.request.user).select_related("file")
        return runs_for(self.request.user).select_related("file")

    def get_object(self):
        """A run of one's sites (else 404) whose figures one's role may read (else 403)."""
        run = super().get_object()
        require_reader(self.request.user, run)
        return run

    @extend_schema(request=ReportRequestSerializer, responses={201: ReportRunSerializer, **ERROR_RESPONSES})
    def create(self, request):
        data = ReportRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        params = dict(data.validated_data)
        site = self.access.sites().filter(pk=params.pop("site")).first()
        run = services.request_report(acting_user=request.user, site=site, **params)
        return Response(ReportRunSerializer(run).data, status=201)

    @extend_schema(responses={200: OpenApiResponse(description="Report kinds and their parameters")})
    @action(detail=False, methods=["get"])
    def kinds(self, request):
        return Response([kind.describe() for kind in load_kinds().values()])

    @extend_schema(
        parameters=[OpenApiParameter("format", OpenApiTypes.STR, enum=["pdf", "csv", "xlsx"])],
        responses={(200, "application/pdf"): OpenApiTypes.BINARY, **ERROR_RESPONSES},
    )
    @action(detail=True, methods=["get"])
    def download(self, request, pk=None):
        run = self.get_object()
        file = getattr(run, "file", None) if run.status == "done" else None
        if file is None:
            raise NotFound(f"The report is {run.status}, not ready to download.")
        return file_response(run, file, request.query_params.get("format", "pdf"))


def file_response(run, file, fmt: str) -> HttpResponse:
    name = f"{run.kind}-{run.site.name if run.site else 'org'}-{run.start}-{run.end}".replace(" ", "_")
    if fmt == "pdf":
        content, mime = bytes(file.pdf), "application/pdf"
    elif fmt == "csv":
        content, mime = services.export_csv(file.table), "text/csv"
    elif fmt == "xlsx":
        content = services.export_xlsx(file.table, run.kind)
        mime = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    else:
        raise ValidationError({"format": "Choose pdf, csv or xlsx."})
    response = HttpResponse(content, content_type=mime)
    response["Content-Disposition"] = f'attachment; filename="{name}.{fmt}"'
    return response
