"""API for drop boxes and counts: serializers parse, `counts.services` validates and writes.

Figures (currency lines, forms found) pass through as JSON to the service, so a bad quantity
or denomination gets the same message here as on the count page.
"""

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field, extend_schema_view
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from cardroom.access import access_for
from cardroom.api import PinSignerInput, ScopedEmployeeField, pin_acting_user
from cardroom.models import Table
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
)
from core.rules import HOUSE_CONTROL

from . import queries, rules, services
from .models import BoxExchange, CountSession, DropBox, DropRemoval


@extend_schema_field(OpenApiTypes.INT)
class SiteIdField(ScopedSiteField):
    """A site the user may see, by id (typed for the schema: these serializers have no model)."""


@extend_schema_field(OpenApiTypes.INT)
class EmployeeIdField(ScopedEmployeeField):
    pass


@extend_schema_field(OpenApiTypes.INT)
class ScopedTableField(serializers.PrimaryKeyRelatedField):
    def get_queryset(self):
        return Table.objects.filter(site__in=access_for(self.context["request"].user).sites())


@extend_schema_field(OpenApiTypes.INT)
class ScopedDropBoxField(serializers.PrimaryKeyRelatedField):
    def get_queryset(self):
        return DropBox.objects.filter(site__in=access_for(self.context["request"].user).sites())


# --- Drop boxes and custody -------------------------------------------------------------------


class DropBoxSerializer(serializers.ModelSerializer):
    class Meta:
        model = DropBox
        fields = ["id", "site", "table", "number", "label", "locks", "active"]


class DropBoxInputSerializer(Input):
    table = ScopedTableField()
    number = serializers.IntegerField(required=False, min_value=1, max_value=32_767)  # the column holds a small integer
    label = serializers.CharField(required=False, allow_blank=True, max_length=10)
    locks = serializers.ChoiceField(choices=[1, 2], required=False)


class RetireInputSerializer(Input):
    """Retiring a box takes no values."""


class RemovalSerializer(serializers.ModelSerializer):
    box = serializers.IntegerField(source="drop.drop_box_id")
    table = serializers.IntegerField(source="drop.table_id")
    gaming_date = serializers.DateField(source="drop.gaming_date")
    dealer_shift = serializers.IntegerField(source="drop.dealer_shift_id", allow_null=True)

    class Meta:
        model = DropRemoval
        fields = [
            "id",
            "drop",
            "box",
            "table",
            "gaming_date",
            "dealer_shift",
            "removed_at",
            "transported_by",
            "escorted_by",
            "sole_employee_on_duty",
            "storage_place",
            "key_holder",
            "second_key_holder",
            "entered_at",
            "entered_late",
        ]


class RemovalInputSerializer(PinSignerInput):
    gaming_date = DateField(required=False)
    dealer_shift = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=limits.MAX_ID)
    removed_at = MomentField()
    storage_place = serializers.CharField(allow_blank=True, max_length=120)
    key_holder = EmployeeIdField()
    second_key_holder = EmployeeIdField(required=False, allow_null=True)
    escorted_by = EmployeeIdField(required=False, allow_null=True)
    sole_employee_on_duty = serializers.BooleanField(required=False, default=False)


class PlacementSerializer(serializers.Serializer):
    drop = serializers.IntegerField()
    box = serializers.IntegerField()
    table = serializers.IntegerField()
    gaming_date = serializers.DateField()
    dealer_shift = serializers.IntegerField(allow_null=True)
    placed_at = serializers.DateTimeField()


class PlacementInputSerializer(PinSignerInput):
    gaming_date = DateField()
    dealer_shift = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=limits.MAX_ID)
    placed_at = MomentField(source="at")


@extend_schema_view(
    create=extend_schema(request=DropBoxInputSerializer, responses={201: DropBoxSerializer, **ERROR_RESPONSES})
)
class DropBoxViewSet(ScopedViewSet):
    output_serializer_class = DropBoxSerializer
    input_serializer_class = DropBoxInputSerializer
    filterset_fields = ["site", "table", "active"]

    def scope(self, access):
        return DropBox.objects.filter(site__in=access.sites()).order_by("site_id", "number", "label")

    def create(self, request, *args, **kwargs):
        return self.write(request)

    def create_object(self, data):
        return services.register_drop_box(acting_user=self.request.user, **data)

    def _parse(self, serializer_class):
        serializer = serializer_class(data=self.request.data, context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        if "dealer_shift" in data:
            data["dealer_shift_id"] = data.pop("dealer_shift")
        return data

    @extend_schema(request=RemovalInputSerializer, responses={201: RemovalSerializer, **ERROR_RESPONSES})
    @action(detail=True, methods=["post"])
    def removals(self, request, pk=None):
        box = self.get_object()
        data = self._parse(RemovalInputSerializer)
        removal = services.remove_drop_box(acting_user=pin_acting_user(request, data), drop_box=box, **data)
        return Response(RemovalSerializer(removal).data, status=201)

    @extend_schema(request=RetireInputSerializer, responses={200: DropBoxSerializer, **ERROR_RESPONSES})
    @action(detail=True, methods=["post"])
    def retire(self, request, pk=None):
        """Take the box out of use (a gaming manager; refused while it is on its table or holds
        uncounted cash: the removal rule of the site's pack, or House control). The box stays on record, marked inactive."""
        box = self.get_object()
        self._parse(RetireInputSerializer)
        return Response(DropBoxSerializer(services.retire_drop_box(acting_user=request.user, drop_box=box)).data)

    @extend_schema(request=PlacementInputSerializer, responses={201: PlacementSerializer, **ERROR_RESPONSES})
    @action(detail=True, methods=["post"])
    def placements(self, request, pk=None):
        box = self.get_object()
        data = self._parse(PlacementInputSerializer)
        drop = services.place_drop_box(acting_user=pin_acting_user(request, data), drop_box=box, **data)
        return Response(
            {
                "drop": drop.pk,
                "box": box.pk,
                "table": drop.table_id,
                "gaming_date": drop.gaming_date,
                "dealer_shift": drop.dealer_shift_id,
                "placed_at": drop.placed_at,
            },
            status=201,
        )


PIN_NOTE = (
    "On a count tablet (a station's token) give `signer_badge` (the initials of the member doing the step) and "
    "`signer_pin` (their signing PIN): the step is checked against that member's roles and the count-team rule "
    "(as the site's pack states it, or House control) and recorded as theirs, the station noted in the audit log; the answer shows that member's "
    "own figures, the other's only once both counts are in. A wrong PIN answers 403 and counts towards its lock; "
    "a station's token alone is refused (403). With a person's own token the fields are optional."
)


# --- Count sessions ---------------------------------------------------------------------------


class CountSessionInputSerializer(PinSignerInput):
    required_rules = {
        "members": (rules.COUNT_TEAM, "a count team is two persons; name both members"),
        "gaming_date": (rules.COUNT, "a count is of one gaming day's drop boxes"),
    }
    site = SiteIdField()
    gaming_date = DateField()
    members = EmployeeIdField(many=True)
    opened_at = MomentField(source="at")


class SignInputSerializer(PinSignerInput):
    signed_at = MomentField(source="at")


CURRENCY_LINE = {
    "type": "object",
    "properties": {
        "denomination_cents": {"type": "integer", "description": "The bill's or coin's value in cents."},
        "quantity": {"type": "integer", "minimum": 0},
        "form": {"type": "string", "enum": ["bill", "coin"], "description": "Only needed for $1 (bill or coin)."},
    },
    "required": ["denomination_cents", "quantity"],
    "additionalProperties": False,
}
FORM_FOUND = {
    "type": "object",
    "properties": {
        "kind": {"type": "string", "enum": ["fill", "credit"]},
        "number": {"type": "integer", "minimum": 1, "maximum": limits.MAX_FORM_NUMBER},
    },
    "required": ["kind", "number"],
    "additionalProperties": False,
}


@extend_schema_field({"type": "array", "items": CURRENCY_LINE})
class CurrencyField(serializers.JSONField):
    """Parsed by `counts.services.parse_currency` (the count page's messages)."""


@extend_schema_field({"type": "array", "items": FORM_FOUND})
class FormsFoundField(serializers.JSONField):
    """Parsed by `counts.services.parse_forms`."""


class FiguresInputSerializer(PinSignerInput):
    required_rules = {
        "box": (rules.COUNT, "a count is of one drop box; name it"),
        "currency": (rules.COUNT, "a count records the currency counted, by denomination"),
    }
    box = ScopedDropBoxField()
    currency = CurrencyField()
    forms = FormsFoundField(required=False, default=list)


class CountInputSerializer(FiguresInputSerializer):
    counted_at = MomentField(source="at")


class ResolveInputSerializer(CountInputSerializer):
    note = TextField(allow_blank=True, required=False, default="")


class AdjustmentInputSerializer(FiguresInputSerializer):
    reason = TextField(allow_blank=True, required=False, default="")
    adjusted_at = MomentField(
        source="at",
        help_text="When the adjusting entry was made (from the paper; default now): not before the count's "
        "signatures nor the figures it corrects.",
    )


class ExplanationInputSerializer(PinSignerInput):
    box = ScopedDropBoxField()
    kind = serializers.ChoiceField(choices=["fill", "credit"])
    number = FormNumberField()
    explanation = TextField(allow_blank=True)
    explained_at = MomentField(
        source="at",
        help_text="When the form was explained (from the paper; default now): not before the box's count was agreed.",
    )


def _lines(lines: dict) -> list[dict]:
    return [
        {"denomination_cents": cents, "form": form, "quantity": quantity}
        for (cents, form), quantity in sorted(lines.items(), key=lambda item: (-item[0][0], item[0][1]))
    ]


def _forms(forms) -> list[dict]:
    return [{"kind": kind, "number": number} for kind, number in forms]


def box_data(box: queries.BoxCount) -> dict:
    agreement = box.agreement
    reconciliation = box.reconciliation
    return {
        **_box_head(box.drop, box.status, box.counted_by, box.agreed_cents),
        "counts": [
            {
                "member": m.member_id,
                "initials": m.initials,
                "entered_at": m.entered_at,
                "recorded_at": m.recorded_at,
                "total_cents": m.total_cents,
                "currency": _lines(m.lines),
                "forms": _forms(m.forms),
            }
            for m in box.visible
        ],
        "differences": [
            {"denomination_cents": c, "form": f, "first_quantity": a, "second_quantity": b}
            for c, f, a, b in box.differences
        ],
        "forms_differ": box.forms_differ,
        "agreed_currency": _lines(box.agreed_lines) if agreement else [],
        "agreed_forms": _forms(box.agreed_forms) if agreement else [],
        "agreement": None
        if agreement is None
        else {
            "source": agreement.source,
            "note": agreement.reason,
            "agreed_at": agreement.agreed_at,
            "recorded_at": agreement.entry.recorded_at,
            "approved_by": agreement.approved_by_id,
            "original_cents": box.original_agreement.total_cents if box.original_agreement else None,
        },
        "forms_exceptions": None
        if reconciliation is None or not reconciliation["available"]
        else [
            {
                "problem": e["problem"],
                "kind": e["kind"],
                "number": e["number"],
                "explanation": e["explanation"].explanation if e["explanation"] else None,
                "explained_at": e["explanation"].explained_at if e["explanation"] else None,
                "entered_at": e["explanation"].entered_at if e["explanation"] else None,
            }
            for e in reconciliation["exceptions"]
        ],
    }


def session_data(session: CountSession, viewer_id: int | None) -> dict:
    return {**_session_head(session), "boxes": [box_data(b) for b in queries.session_board(session, viewer_id)]}


class MemberOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    initials = serializers.CharField()


class SignatureOut(serializers.Serializer):
    member = serializers.IntegerField()
    initials = serializers.CharField()
    signed_at = serializers.DateTimeField()


class CurrencyLineOut(serializers.Serializer):
    denomination_cents = serializers.IntegerField()
    form = serializers.CharField()
    quantity = serializers.IntegerField()


class FormOut(serializers.Serializer):
    kind = serializers.CharField()
    number = serializers.IntegerField()


class MemberCountOut(serializers.Serializer):
    member = serializers.IntegerField()
    initials = serializers.CharField()
    entered_at = serializers.DateTimeField(help_text="When the box was counted (counted_at, from the paper).")
    recorded_at = serializers.DateTimeField(allow_null=True, help_text="When the count was entered.")
    total_cents = serializers.IntegerField()
    currency = CurrencyLineOut(many=True)
    forms = FormOut(many=True)


class DifferenceOut(serializers.Serializer):
    denomination_cents = serializers.IntegerField()
    form = serializers.CharField()
    first_quantity = serializers.IntegerField()
    second_quantity = serializers.IntegerField()


class AgreementOut(serializers.Serializer):
    source = serializers.CharField()
    note = serializers.CharField(allow_blank=True)
    agreed_at = serializers.DateTimeField(help_text="When the figures were agreed (an adjustment: when it was made).")
    recorded_at = serializers.DateTimeField(
        allow_null=True, help_text="When the agreed figures were entered (null: before this was kept)."
    )
    approved_by = serializers.IntegerField(allow_null=True)
    original_cents = serializers.IntegerField(allow_null=True)


class FormsExceptionOut(serializers.Serializer):
    problem = serializers.CharField()
    kind = serializers.CharField()
    number = serializers.IntegerField()
    explanation = serializers.CharField(allow_null=True)
    explained_at = serializers.DateTimeField(allow_null=True, help_text="When it was explained (from the paper).")
    entered_at = serializers.DateTimeField(allow_null=True, help_text="When the explanation was entered.")


class BoxSummaryOut(serializers.Serializer):
    box = serializers.IntegerField()
    box_number = serializers.IntegerField()
    label = serializers.CharField(allow_blank=True)
    table = serializers.IntegerField()
    table_number = serializers.IntegerField()
    dealer_shift = serializers.IntegerField(allow_null=True)
    status = serializers.ChoiceField(choices=["awaiting", "counting", "difference", "agreed"])
    counted_by = serializers.ListField(child=serializers.IntegerField())
    agreed_drop_cents = serializers.IntegerField(allow_null=True)


class BoxOut(BoxSummaryOut):
    counts = MemberCountOut(many=True, help_text="Blind: a member sees the other's count once both are in.")
    differences = DifferenceOut(many=True)
    forms_differ = serializers.BooleanField()
    agreed_currency = CurrencyLineOut(many=True)
    agreed_forms = FormOut(many=True)
    agreement = AgreementOut(allow_null=True)
    forms_exceptions = FormsExceptionOut(many=True, allow_null=True)


class CountSessionSummarySerializer(serializers.Serializer):
    """A session in the list: its members, signatures and each box's state (open one session
    for the counts themselves)."""

    id = serializers.IntegerField()
    site = serializers.IntegerField()
    gaming_date = serializers.DateField()
    members = MemberOut(many=True)
    opened_at = serializers.DateTimeField()
    entered_at = serializers.DateTimeField(allow_null=True)
    entered_late = serializers.BooleanField()
    signed = serializers.BooleanField()
    signatures = SignatureOut(many=True)
    boxes = BoxSummaryOut(many=True)

    def to_representation(self, instance):
        return session_summary_data(
            instance, self.context["boxes"][instance.pk], self.context["signatures"].get(instance.pk, [])
        )


class CountSessionSerializer(CountSessionSummarySerializer):
    """The session as the requesting member may see it (blind until both have counted)."""

    boxes = BoxOut(many=True)

    def to_representation(self, instance):
        viewer = self.context.get("viewer") or access_for(self.context["request"].user).employee
        return session_data(instance, viewer.pk if viewer else None)


def _box_head(drop, status: str, counted_by, agreed_cents) -> dict:
    return {
        "box": drop.drop_box_id,
        "box_number": drop.drop_box.number,
        "label": drop.drop_box.label,
        "table": drop.table_id,
        "table_number": drop.table.number,
        "dealer_shift": drop.dealer_shift_id,
        "status": status,
        "counted_by": list(counted_by),
        "agreed_drop_cents": agreed_cents,
    }


def _session_head(session: CountSession, signatures=None) -> dict:
    """`signatures`: the session's, in order of signing, where the caller read a page's at once
    (`queries.session_signatures`); else read here."""
    signatures = list(session.signatures.all()) if signatures is None else signatures
    return {
        "id": session.pk,
        "site": session.site_id,
        "gaming_date": session.gaming_date,
        "members": [
            {"id": m.pk, "name": str(m), "initials": m.initials} for m in (session.first_member, session.second_member)
        ],
        "opened_at": session.opened_at,
        "entered_at": session.entered_at,
        "entered_late": session.entered_late,
        "signed": len(signatures) >= 2,
        "signatures": [{"member": s.member_id, "initials": s.initials, "signed_at": s.signed_at} for s in signatures],
    }


def session_summary_data(session: CountSession, boxes, signatures=None) -> dict:
    return {
        **_session_head(session, signatures),
        "boxes": [_box_head(b.drop, b.status, b.counted_by, b.agreed_cents) for b in boxes],
    }


@extend_schema_view(
    create=extend_schema(
        request=CountSessionInputSerializer,
        responses={201: CountSessionSerializer, **ERROR_RESPONSES},
        description=PIN_NOTE,
    )
)
class CountSessionViewSet(ScopedViewSet):
    output_serializer_class = CountSessionSerializer
    input_serializer_class = CountSessionInputSerializer
    filterset_fields = ["site", "gaming_date"]

    def scope(self, access):
        return queries.visible_sessions(access).order_by("-gaming_date", "site_id", "pk")

    @extend_schema(responses={200: CountSessionSummarySerializer(many=True)})
    def list(self, request, *args, **kwargs):
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        context = {"boxes": queries.session_summaries(page), "signatures": queries.session_signatures(page)}
        data = CountSessionSummarySerializer(page, many=True, context=context).data
        return self.get_paginated_response(data)

    def create(self, request, *args, **kwargs):
        return self.write(request)

    def create_object(self, data):
        data = dict(data)
        acting = pin_acting_user(self.request, data)
        self.viewer = access_for(acting).employee
        return services.open_count_session(acting_user=acting, **data)

    def get_serializer_context(self):
        context = super().get_serializer_context()
        if getattr(self, "viewer", None) is not None:
            context["viewer"] = self.viewer
        return context

    def _run(self, serializer_class, service, status=201, **extra):
        session = self.get_object()
        serializer = serializer_class(data=self.request.data, context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        if "box" in data:
            data["drop_box"] = data.pop("box")
        acting = pin_acting_user(self.request, data)
        self.viewer = access_for(acting).employee  # the PIN holder sees their own figures in the answer
        service(acting_user=acting, session=session, **data, **extra)
        return self._respond(session, status)

    def _respond(self, session, status):
        fresh = self.get_queryset().get(pk=session.pk)  # what the service just wrote, signatures included
        return Response(CountSessionSerializer(fresh, context=self.get_serializer_context()).data, status=status)

    @extend_schema(
        request=CountInputSerializer, responses={201: CountSessionSerializer, **ERROR_RESPONSES}, description=PIN_NOTE
    )
    @action(detail=True, methods=["post"])
    def counts(self, request, pk=None):
        return self._run(CountInputSerializer, services.record_blind_count)

    @extend_schema(
        request=ResolveInputSerializer, responses={201: CountSessionSerializer, **ERROR_RESPONSES}, description=PIN_NOTE
    )
    @action(detail=True, methods=["post"])
    def resolve(self, request, pk=None):
        return self._run(ResolveInputSerializer, services.resolve_difference)

    @extend_schema(
        request=SignInputSerializer, responses={201: CountSessionSerializer, **ERROR_RESPONSES}, description=PIN_NOTE
    )
    @action(detail=True, methods=["post"])
    def sign(self, request, pk=None):
        return self._run(SignInputSerializer, services.sign_count)

    @extend_schema(request=AdjustmentInputSerializer, responses={201: CountSessionSerializer, **ERROR_RESPONSES})
    @action(detail=True, methods=["post"])
    def adjustments(self, request, pk=None):
        return self._run(AdjustmentInputSerializer, services.record_count_adjustment)

    @extend_schema(request=ExplanationInputSerializer, responses={201: CountSessionSerializer, **ERROR_RESPONSES})
    @action(detail=True, methods=["post"])
    def explanations(self, request, pk=None):
        session = self.get_object()
        serializer = ExplanationInputSerializer(data=request.data, context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        drop = next((d for d in queries.session_drops(session) if d.drop_box_id == data["box"].pk), None)
        if drop is None:
            from django.core.exceptions import ValidationError

            raise ValidationError({"box": f"{HOUSE_CONTROL}: {data['box']} was not counted in this session."})
        data.pop("box")
        services.explain_forms_exception(acting_user=pin_acting_user(request, data), drop=drop, **data)
        return self._respond(session, 201)


# --- A site's count settings ------------------------------------------------------------------


class CountSettingsSerializer(serializers.Serializer):
    site = serializers.IntegerField(source="site_id", read_only=True)
    box_exchange = serializers.ChoiceField(
        choices=BoxExchange.choices,
        help_text="dealer_shift: the drop box is exchanged at every dealer change (one drop per dealer shift), "
        "so each dealer shift's drop is counted on its own (where the site's revenue is a drop, each dealer's "
        "hold can be separated; a session site has none); gaming_day: once per day.",
    )
    twenty_one_auditor = serializers.IntegerField(source="twenty_one_auditor_id", allow_null=True, read_only=True)


class CountSettingsSavedSerializer(CountSettingsSerializer):
    """The answer to a change of the count settings: the settings, and what the site's rules say
    of them as saved."""

    warnings = serializers.ListField(
        child=serializers.CharField(),
        read_only=True,
        help_text="What the site's rules say of the settings as saved, each message citing its rule: drop boxes "
        "exchanged once per gaming day at a site that requires video surveillance, where the site's pack requires "
        "each dealer's percent-of-hold tracked (the nightly checks flag it too). Nothing is refused; empty when "
        "there is nothing.",
    )


class CountSettingsInputSerializer(Input):
    """Parses only; the service checks the values (gaming managers only)."""

    box_exchange = serializers.ChoiceField(choices=BoxExchange.choices, required=False)
    twenty_one_auditor = EmployeeIdField(required=False, allow_null=True)


class CountSettingsViewSet(viewsets.ViewSet):
    """A site's count settings, by the site's id: read by anyone who sees the site, changed by
    its gaming manager (`counts.services.update_count_settings`, audited)."""

    lookup_value_regex = r"\d+"

    def _site(self, pk):
        return get_object_or_404(access_for(self.request.user).sites(), pk=pk)

    @extend_schema(responses={200: CountSettingsSerializer, **ERROR_RESPONSES})
    def retrieve(self, request, pk=None):
        return Response(CountSettingsSerializer(queries.count_settings(self._site(pk))).data)

    @extend_schema(
        request=CountSettingsInputSerializer, responses={200: CountSettingsSavedSerializer, **ERROR_RESPONSES}
    )
    def partial_update(self, request, pk=None):
        site = self._site(pk)
        serializer = CountSettingsInputSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        settings = services.update_count_settings(acting_user=request.user, site=site, **serializer.validated_data)
        return Response(CountSettingsSavedSerializer(settings).data)
