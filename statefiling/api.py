"""The organization's view of its filings with the state: each filed quarter of a site, its
package's digest, delivery state and the registry's receipt. Read by those who read the
quarter's figures (accounting.rules.QUARTER_FIGURES); another organization's site is a 404."""

from django.shortcuts import get_object_or_404
from rest_framework import generics, serializers

from accounting.rules import QUARTER_FIGURES
from cardroom.access import access_for

from .models import Submission


class StateFilingOut(serializers.Serializer):
    filing = serializers.IntegerField(source="filing_id")
    amendment = serializers.IntegerField(source="amendment_id", allow_null=True)
    amends_receipt_number = serializers.SerializerMethodField()
    quarter = serializers.CharField(source="filing.quarter")
    package_sha256 = serializers.CharField()
    queued_at = serializers.DateTimeField()
    attempts = serializers.IntegerField()
    state = serializers.SerializerMethodField()
    last_error = serializers.CharField()
    receipt_number = serializers.SerializerMethodField()
    received_at = serializers.SerializerMethodField()
    receipt_sha256 = serializers.SerializerMethodField()

    def get_state(self, s) -> str:
        if s.delivered_at:
            return "delivered"
        return "refused" if s.refused else "withheld" if s.withheld else "pending"

    def _receipt(self, s):
        return getattr(s.amendment if s.amendment_id else s.filing, "receipt", None)

    def get_amends_receipt_number(self, s) -> str | None:
        return s.package.get("amends")

    def get_receipt_number(self, s) -> str | None:
        r = self._receipt(s)
        return r.receipt_number if r else None

    def get_received_at(self, s) -> str | None:
        r = self._receipt(s)
        return r.received_at.isoformat() if r else None

    def get_receipt_sha256(self, s) -> str | None:
        r = self._receipt(s)
        return r.receipt_sha256 if r else None


class StateFilingsView(generics.ListAPIView):
    """The site's filings with the state and their amendments, the latest quarter first."""

    serializer_class = StateFilingOut
    filter_backends: list = []

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # the schema's generation
            return Submission.objects.none()
        site = get_object_or_404(access_for(self.request.user).sites(), pk=self.kwargs["pk"])
        QUARTER_FIGURES.require(self.request.user, site)
        return (
            Submission.objects.filter(filing__site=site)
            .select_related("filing__receipt", "amendment__receipt")
            .order_by("-filing__start", "-pk")
        )
