"""API of the non-drop revenue records (fees.rules): /api/v1/fee-collections/ (WA-BJ fees,
collected on a time basis, with `void` and the day's `reconciliation`), /api/v1/fee-counts/ (the
fee cash counted) and /api/v1/game-sessions/ (NY games-of-chance sessions)."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.response import Response

from cardroom.api import PinSignerInput, ScopedEmployeeField, pin_acting_user
from cardroom.models import Table
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
)
from core.api_filters import site_filterset

from . import queries, rules, services
from .models import FeeBasis, FeeCollection, FeeCount, GameSession


class FeeCollectionSerializer(serializers.ModelSerializer):
    table_number = serializers.IntegerField(source="table.number")
    collected_by_initials = serializers.CharField(source="collected_by.initials")

    class Meta:
        model = FeeCollection
        fields = [
            "id",
            "site",
            "table",
            "table_number",
            "gaming_date",
            "basis",
            "period_minutes",
            "rate_cents",
            "count",
            "amount_cents",
            "collected_at",
            "entered_at",
            "entered_late",
            "collected_by_initials",
            "voids",
            "reason",
        ]


def _whole_number(said: str) -> dict[str, str]:
    """A number box's refusals (empty, not a whole number) in words (House control)."""
    message = f"{rules.HOUSE_CONTROL}: {said}."
    return {"invalid": message, "null": message, "max_string_length": message}


class FeeCollectionInputSerializer(PinSignerInput):
    required_rules = {
        name: (rules.TABLE_FEES, why)
        for name, why in (
            ("table", "a fee is collected at a table; name it"),
            ("basis", "a fee is charged per seat or per player; say which"),
            ("period_minutes", "a fee is charged for a period of play; give its minutes"),
            ("rate_cents", "a fee is charged at a rate; give it in cents"),
            ("count", "a fee is charged for a count of seats or players; give it"),
        )
    }
    table = ScopedField(Table, queryset=Table.objects.none())
    basis = serializers.ChoiceField(choices=FeeBasis.choices)
    # the bounds of the period, rate and count are the service's (one message, in words, citing its rule)
    # House control: a box left empty or mistyped on the terminal is named in words, not by its key.
    period_minutes = serializers.IntegerField(
        help_text=f"1 to {rules.MAX_PERIOD_MINUTES} minutes.",
        error_messages=_whole_number(f"the period is a whole number of minutes, 1 to {rules.MAX_PERIOD_MINUTES}"),
    )
    rate_cents = CentsField(
        help_text=f"Per seat or player per period, 1 to {rules.MAX_RATE_CENTS} cents.",
        # not a number: the service's words for a rate, its bounds and their rule (as the pages say it)
        error_messages={"invalid": f"{services.rate_bounds()}: give it in whole cents, 1 to {rules.MAX_RATE_CENTS:,}."},
    )
    count = serializers.IntegerField(
        help_text=f"Seats or players charged, 1 to {rules.MAX_COUNT}.",
        error_messages=_whole_number(f"the seats or players charged are a whole number, 1 to {rules.MAX_COUNT}"),
    )
    amount_cents = CentsField(
        min_value=1,
        required=False,
        help_text="The amount collected: the rate times the count. Omitted, it is worked out; given, it must equal it.",
    )
    collected_at = MomentField(allow_null=True, default=None)


class FeeVoidInputSerializer(Input):
    reason = TextField()
    voided_at = MomentField(
        allow_null=True, default=None, help_text="When the fee was voided (from the paper); default now."
    )


class FeeDaySerializer(serializers.Serializer):
    site = serializers.IntegerField(source="site_id")
    gaming_date = serializers.DateField()
    collections = serializers.IntegerField()
    collected_cents = serializers.IntegerField()
    counted_cents = serializers.IntegerField(allow_null=True)
    over_short_cents = serializers.IntegerField(allow_null=True)


class ReconciliationQuery(Input):
    site = ScopedSiteField()
    start = DateField()
    end = DateField()

    def validate(self, data):
        if data["end"] < data["start"] or (data["end"] - data["start"]).days > 366:
            raise serializers.ValidationError(
                {"end": f"{rules.HOUSE_CONTROL}: end is on or after start, at most 366 days later."}
            )
        return data


def _read(serializer_class, data, context) -> dict:
    serializer = serializer_class(data=data, context=context)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


@extend_schema_view(
    create=extend_schema(
        request=FeeCollectionInputSerializer, responses={201: FeeCollectionSerializer, **ERROR_RESPONSES}
    )
)
class FeeCollectionViewSet(ScopedViewSet):
    """Table fees at a site whose pack's revenue is its fees, collected on a time basis (refusals cite
    the site's pack); who may collect or void is a house control."""

    output_serializer_class = FeeCollectionSerializer
    input_serializer_class = FeeCollectionInputSerializer
    filterset_class = site_filterset(FeeCollection, date_path="gaming_date")

    def scope(self, access):
        return (
            FeeCollection.objects.filter(site_id__in=rules.FEE_RECORDS.site_ids(access))
            .select_related("table", "collected_by")
            .order_by("-gaming_date", "-collected_at", "-id")
        )

    def create(self, request, *args, **kwargs):
        return self.write(request)

    def create_object(self, data):
        data = dict(data)  # on a station, the badge and PIN of who collected it (a pit terminal)
        return services.record_fee(acting_user=pin_acting_user(self.request, data), **data)

    @extend_schema(request=FeeVoidInputSerializer, responses={201: FeeCollectionSerializer, **ERROR_RESPONSES})
    @action(detail=True, methods=["post"])
    def void(self, request, pk=None):
        """Void a fee recorded by mistake: a new row with the opposite amount, pointing back."""
        fee = self.get_object()
        data = _read(FeeVoidInputSerializer, request.data, self.get_serializer_context())
        void = services.void_fee(acting_user=request.user, fee=fee, **data)
        return Response(FeeCollectionSerializer(void).data, status=201)

    @extend_schema(
        parameters=[
            OpenApiParameter("site", int, required=True),
            OpenApiParameter("start", str, required=True),
            OpenApiParameter("end", str, required=True),
        ],
        responses={200: FeeDaySerializer(many=True), **ERROR_RESPONSES},
    )
    @action(detail=False, methods=["get"], pagination_class=None, filterset_class=None)
    def reconciliation(self, request):
        """Per gaming day: fees collected (net of voids), the fee cash counted, and over/short."""
        data = _read(ReconciliationQuery, request.query_params, self.get_serializer_context())
        rules.FEE_RECORDS.require(request.user, data["site"])
        days = queries.fee_days([data["site"].pk], data["start"], data["end"])
        return Response(FeeDaySerializer(days, many=True).data)


class FeeCountSerializer(serializers.ModelSerializer):
    counted_by_initials = serializers.CharField(source="counted_by.initials")
    witness_initials = serializers.CharField(source="witness.initials")

    class Meta:
        model = FeeCount
        fields = [
            "id",
            "site",
            "gaming_date",
            "counted_cents",
            "counted_at",
            "entered_at",
            "entered_late",
            "counted_by_initials",
            "witness_initials",
            "corrects",
        ]


class FeeCountInputSerializer(PinSignerInput):
    site = ScopedSiteField()
    gaming_date = DateField()
    counted_cents = CentsField(help_text="The fee cash counted; bounded by the service (House control).")
    witness = ScopedEmployeeField(help_text="The second person who counted.")
    witness_pin = serializers.CharField(
        max_length=32,
        write_only=True,
        style={"input_type": "password"},
        help_text="The witness's own signing PIN, confirming the count (House control); a wrong PIN is refused "
        "(400) and counts towards its lock.",
    )
    counted_at = MomentField(allow_null=True, default=None)


@extend_schema_view(
    create=extend_schema(request=FeeCountInputSerializer, responses={201: FeeCountSerializer, **ERROR_RESPONSES})
)
class FeeCountViewSet(ScopedViewSet):
    """The fee cash of a fees site's gaming day, counted by two people (house control)."""

    output_serializer_class = FeeCountSerializer
    input_serializer_class = FeeCountInputSerializer
    filterset_class = site_filterset(FeeCount, date_path="gaming_date")

    def scope(self, access):
        return (
            FeeCount.objects.filter(site_id__in=rules.FEE_RECORDS.site_ids(access))
            .select_related("counted_by", "witness")
            .order_by("-gaming_date", "-id")
        )

    def create(self, request, *args, **kwargs):
        return self.write(request)

    def create_object(self, data):
        return services.count_fees(acting_user=pin_acting_user(self.request, data), **data)


class GameSessionSerializer(serializers.ModelSerializer):
    recorded_by_initials = serializers.CharField(source="recorded_by.initials")
    net_cents = serializers.IntegerField()

    class Meta:
        model = GameSession
        fields = [
            "id",
            "site",
            "gaming_date",
            "licence_number",
            "started_at",
            "ended_at",
            "entered_at",
            "entered_late",
            "receipts_cents",
            "prizes_cents",
            "net_cents",
            "recorded_by_initials",
            "corrects",
            "is_void",
            "reason",
        ]


class GameSessionInputSerializer(Input):
    site = ScopedSiteField()
    licence_number = serializers.CharField(max_length=rules.MAX_LICENCE_LENGTH)
    started_at = MomentField(required=True)
    ended_at = MomentField(required=True)
    # bounded by the service, whose refusal reads in words and cites the house control
    receipts_cents = CentsField()
    prizes_cents = CentsField()
    corrects = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=1, max_value=2**63 - 1)


class GameSessionVoidInputSerializer(Input):
    reason = TextField(
        allow_blank=True, help_text="Why the session is voided (required: the service's refusal words it)."
    )


@extend_schema_view(
    create=extend_schema(request=GameSessionInputSerializer, responses={201: GameSessionSerializer, **ERROR_RESPONSES})
)
class GameSessionViewSet(ScopedViewSet):
    """Games-of-chance sessions at a site whose pack's revenue is its sessions (the pack's text defines
    the game; the session record is an assumption, see fees.rules)."""

    output_serializer_class = GameSessionSerializer
    input_serializer_class = GameSessionInputSerializer
    filterset_class = site_filterset(GameSession, date_path="gaming_date")

    def scope(self, access):
        return (
            GameSession.objects.filter(site_id__in=rules.SESSION_RECORDS.site_ids(access))
            .select_related("recorded_by")
            .order_by("-gaming_date", "-started_at", "-id")
        )

    def create(self, request, *args, **kwargs):
        return self.write(request)

    def create_object(self, data):
        corrects = data.pop("corrects")
        if corrects is not None:
            corrects = get_object_or_404(self.get_queryset(), pk=corrects)
        return services.record_session(acting_user=self.request.user, corrects=corrects, **data)

    @extend_schema(request=GameSessionVoidInputSerializer, responses={201: GameSessionSerializer, **ERROR_RESPONSES})
    @action(detail=True, methods=["post"])
    def void(self, request, pk=None):
        """Void a session recorded that did not take place: a correction with no receipts or prizes and
        its reason, which the day's total no longer counts as a session."""
        session = self.get_object()
        data = _read(GameSessionVoidInputSerializer, request.data, self.get_serializer_context())
        void = services.void_session(acting_user=request.user, session=session, **data)
        return Response(GameSessionSerializer(void).data, status=201)
