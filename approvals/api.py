"""Game approvals, internal-controls versions and the approved game each table offers.

Read by the roles that read the register's pages (approvals.rules.RECORDS: gaming managers and
auditors): the approvals and licences of the organization, the internal controls and table links
at the sites where one holds such a role. The floor reads what it follows in the written
procedures (every role) and the house-rules handout. Only a gaming manager records
(approvals.rules.RECORDERS)."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field, extend_schema_view
from rest_framework import mixins, serializers

from cardroom.access import access_for
from cardroom.models import Table
from core.api import (
    ERROR_RESPONSES,
    DateField,
    Input,
    ScopedField,
    ScopedSiteField,
    ScopedViewSet,
    TextField,
    required_by,
)
from core.api_filters import FilterSet, IdFilter
from packs import Rule

from . import rules, services
from .models import GameApproval, InternalControls, Licence, PayTable, TableGame, WrittenProcedure


@extend_schema_field(OpenApiTypes.INT)
class ApprovalField(serializers.PrimaryKeyRelatedField):
    """An approval of the user's organization; any other id is 'does not exist'."""

    def get_queryset(self):
        return GameApproval.objects.filter(organization_id=access_for(self.context["request"].user).organization_id)


@extend_schema_field(OpenApiTypes.INT)
class PayTableField(serializers.PrimaryKeyRelatedField):
    def get_queryset(self):
        organization_id = access_for(self.context["request"].user).organization_id
        return PayTable.objects.filter(approval__organization_id=organization_id)


# --- Game approvals ------------------------------------------------------------------------


class PayLineSerializer(serializers.Serializer):
    hand = serializers.CharField()
    pays = serializers.CharField()


class PayTableSerializer(serializers.ModelSerializer):
    lines = PayLineSerializer(many=True)

    class Meta:
        model = PayTable
        fields = ["id", "side_bet", "code", "natural_payout", "lines"]


RULES_OF_PLAY_HELP = (
    f"The rules of play the approval encloses, one line each as the players' handout prints them: at most "
    f"{rules.MAX_RULES_OF_PLAY} lines of at most {rules.MAX_RULE_OF_PLAY_LENGTH} characters."
)


class GameApprovalSerializer(serializers.ModelSerializer):
    pay_tables = PayTableSerializer(many=True, read_only=True)
    reference = serializers.CharField(read_only=True)
    conditions = serializers.DictField(child=serializers.ListField(child=serializers.JSONField()))
    rules_of_play = serializers.ListField(child=serializers.CharField(), help_text=RULES_OF_PLAY_HELP)

    class Meta:
        model = GameApproval
        fields = [
            "id",
            "organization",
            "jurisdiction",
            "game_name",
            "manufacturer",
            "agency",
            "approved_on",
            "submission_number",
            "reference",
            "conditions",
            "conditions_text",
            "rules_of_play",
            "shuffler_must_be_approved",
            "internal_controls_required",
            "supersedes",
            "pay_tables",
            "recorded_by",
            "recorded_at",
        ]
        read_only_fields = fields


class PayLineInput(Input):
    hand = serializers.CharField(max_length=rules.MAX_SHORT_TEXT)
    pays = serializers.CharField(max_length=rules.MAX_SHORT_TEXT)


class PayTableInput(Input):
    side_bet = serializers.CharField(
        max_length=rules.MAX_SHORT_TEXT,
        required=False,
        allow_blank=True,
        default="",
        help_text="The side bet's name; empty for a pay table of the game's blackjacks.",
    )
    code = serializers.CharField(max_length=20)
    natural_payout = serializers.ChoiceField(
        choices=Table.BlackjackPayout.choices,
        required=False,
        allow_blank=True,
        default="",
        help_text="Blackjack pay tables: the unsuited blackjack payout a table posts with it.",
    )
    lines = serializers.ListField(child=PayLineInput(), max_length=rules.MAX_PAY_TABLE_LINES)


class JurisdictionRecordInput(Input):
    """The input of an organization's record kept for one jurisdiction (a game approval, a licence):
    a required field's rule is cited at that jurisdiction's pack, the one of the user's sites whose
    law states `record_rule` (as the service picks it), else House control."""

    record_rule: Rule

    def required_where(self, data):
        request = self.context.get("request")
        if request is None:
            return None
        codes = {site.jurisdiction for site in access_for(request.user).sites()}
        stated = {code for code in codes if self.record_rule.applies(code)}
        given = data.get("jurisdiction")
        if isinstance(given, str) and given in stated:
            return given
        return stated.pop() if len(stated) == 1 else None


class GameApprovalInput(JurisdictionRecordInput):
    record_rule = rules.GAME_APPROVAL
    # The commission approves a game under the conditions it lists (the commission's approval letter: "will approve the game
    # under the conditions listed below"); the agency, date and submission number are the house's record.
    required_rules = required_by(
        rules.GAME_APPROVAL,
        game_name="the commission approves a named game; name it",
        conditions="the game is played and operated under the approval's terms and conditions; list the settings "
        "it fixes (an empty object for none)",
    )
    game_name = serializers.CharField(max_length=rules.MAX_NAME_LENGTH)
    manufacturer = serializers.CharField(max_length=rules.MAX_NAME_LENGTH, required=False, allow_blank=True, default="")
    agency = serializers.CharField(max_length=rules.MAX_NAME_LENGTH)
    approved_on = DateField()
    submission_number = serializers.CharField(max_length=rules.MAX_SHORT_TEXT)
    conditions = serializers.DictField(
        child=serializers.ListField(child=serializers.JSONField(), max_length=10),
        help_text=f"Table settings the approval fixes, each with the values it permits: {', '.join(rules.CONDITION_FIELDS)}.",
    )
    conditions_text = TextField(required=False, allow_blank=True, default="")
    # Parsed only: the service bounds the lines and their number, in the page's words too.
    rules_of_play = serializers.ListField(
        child=TextField(allow_blank=True, trim_whitespace=False),
        required=False,
        default=list,
        help_text=RULES_OF_PLAY_HELP,
    )
    shuffler_must_be_approved = serializers.BooleanField(required=False, default=False)
    internal_controls_required = serializers.BooleanField(required=False, default=False)
    supersedes = ApprovalField(required=False, allow_null=True, default=None)
    pay_tables = serializers.ListField(
        child=PayTableInput(), max_length=rules.MAX_PAY_TABLES, required=False, default=list
    )


class GameApprovalFilter(FilterSet):
    class Meta:
        model = GameApproval
        fields = ["jurisdiction"]


@extend_schema_view(
    create=extend_schema(request=GameApprovalInput, responses={201: GameApprovalSerializer, **ERROR_RESPONSES})
)
class GameApprovalViewSet(ScopedViewSet, mixins.CreateModelMixin):
    """The organization's register of approved games and side bets: the agency, date and
    submission number of each approval, its conditions on the table settings and its pay tables."""

    output_serializer_class = GameApprovalSerializer
    input_serializer_class = GameApprovalInput
    filterset_class = GameApprovalFilter

    def scope(self, access):
        if not rules.RECORDS.held_somewhere(access):  # the register's pages' rule (approvals.views)
            return GameApproval.objects.none()
        return (
            GameApproval.objects.filter(organization_id=access.organization_id)
            .prefetch_related("pay_tables")
            .order_by("game_name", "approved_on", "id")
        )

    def create(self, request, *args, **kwargs):
        return self.write(request)

    def create_object(self, data):
        return services.record_game_approval(
            acting_user=self.request.user, organization=self.access.employee_org(), **data
        )


# --- Internal controls ---------------------------------------------------------------------


def _option_list(option: rules.DocumentedOption, **kwargs):
    values = rules.OPTION_VALUES[option.field]
    if isinstance(values[0], bool):
        child = serializers.BooleanField()
    else:
        # The Table field's own choices (labels too), so the schema names one enum per option.
        child = serializers.ChoiceField(choices=Table._meta.get_field(option.field).choices, allow_blank="" in values)
    # Missing or empty: the service refuses it citing the site's pack's rule (the schema is every
    # pack's, so its words name none).
    return serializers.ListField(
        child=child,
        max_length=len(values),
        help_text=f"The {option.label} the internal controls document.",
        required=False,
        allow_empty=True,
        **kwargs,
    )


def _option_lists(**kwargs) -> dict:
    """Each documented option's list field, in the order of approvals.rules.DOCUMENTED_OPTIONS."""
    return {option.field: _option_list(option, **kwargs) for option in rules.DOCUMENTED_OPTIONS}


class InternalControlsSerializer(serializers.ModelSerializer):
    game = serializers.CharField(read_only=True)

    def get_fields(self):
        # Each documented option as a list of the Table field's values (the model's JSONField says
        # nothing of them), from the one list of options (approvals.rules.DOCUMENTED_OPTIONS).
        return {**super().get_fields(), **_option_lists(read_only=True)}

    class Meta:
        model = InternalControls
        fields = [
            "id",
            "site",
            "game_approval",
            "game",
            "version",
            "effective_on",
            "approved_on",
            "approved_by",
            "approval_reference",
            *rules.DOCUMENTED_FIELDS,
            "irregularities",
            "supersedes",
            "recorded_by",
            "recorded_at",
        ]
        read_only_fields = fields


class InternalControlsInput(Input):
    site = ScopedSiteField()
    game_approval = ApprovalField(
        required=False,
        allow_null=True,
        default=None,
        help_text="The approved game these controls are for; empty: house-banked blackjack.",
    )
    effective_on = DateField()
    approved_on = DateField()
    approved_by = serializers.CharField(max_length=rules.MAX_NAME_LENGTH)
    approval_reference = serializers.CharField(
        max_length=rules.MAX_NAME_LENGTH, required=False, allow_blank=True, default=""
    )
    irregularities = TextField(
        required=False,
        allow_blank=True,
        default="",
        help_text="How the card room addresses irregularities (misdeals, exposed cards, an incorrect number of cards), "
        "where the site's pack requires them in the internal controls; a version recorded without them is kept and "
        "flagged each night while in force.",
    )

    def get_fields(self):
        # Each documented option (approvals.rules.DOCUMENTED_OPTIONS), before the irregularities.
        fields = super().get_fields()
        irregularities = fields.pop("irregularities")
        return {**fields, **_option_lists(), "irregularities": irregularities}


class InternalControlsFilter(FilterSet):
    site = IdFilter(field_name="site")
    game_approval = IdFilter(field_name="game_approval")

    class Meta:
        model = InternalControls
        fields = ["site", "game_approval"]


@extend_schema_view(
    create=extend_schema(request=InternalControlsInput, responses={201: InternalControlsSerializer, **ERROR_RESPONSES})
)
class InternalControlsViewSet(ScopedViewSet, mixins.CreateModelMixin):
    """Versions of each site's internal controls per game, where its pack keeps them: the options the
    pack's rules require documented, each version effective from its date."""

    output_serializer_class = InternalControlsSerializer
    input_serializer_class = InternalControlsInput
    filterset_class = InternalControlsFilter

    def scope(self, access):
        return (
            InternalControls.objects.filter(site__in=rules.RECORDS.sites(access))
            .select_related("game_approval")
            .order_by("site_id", "game_approval_id", "version")
        )

    def create(self, request, *args, **kwargs):
        return self.write(request)

    def create_object(self, data):
        return services.record_internal_controls(acting_user=self.request.user, **data)


# --- The approved game a table offers ------------------------------------------------------


class TableGameSerializer(serializers.ModelSerializer):
    class Meta:
        model = TableGame
        fields = [
            "id",
            "table",
            "approval",
            "blackjack_pay_table",
            "side_bet_pay_table",
            "shuffler_model",
            "linked_by",
            "linked_at",
        ]
        read_only_fields = fields


class TableGameInput(Input):
    table = ScopedField(Table)
    approval = ApprovalField(
        allow_null=True,
        help_text="The approved game the table offers (from now, or `linked_at`); null: standard blackjack.",
    )
    blackjack_pay_table = PayTableField(required=False, allow_null=True, default=None)
    side_bet_pay_table = PayTableField(required=False, allow_null=True, default=None)
    shuffler_model = serializers.CharField(
        max_length=rules.MAX_SHORT_TEXT,
        required=False,
        allow_blank=True,
        default="",
        help_text="The approved shuffling device a table dealt from a shuffler uses (standard blackjack too).",
    )
    settings = serializers.DictField(
        child=serializers.JSONField(),
        required=False,
        default=dict,
        help_text="Table settings changed in the same step: " + ", ".join(services.LINK_SETTINGS) + ".",
    )
    linked_at = serializers.DateTimeField(
        required=False,
        allow_null=True,
        default=None,
        help_text="When the table began offering the game, where that is recorded afterwards (default: now); "
        "not before the table's current link, the approval or the internal controls in effect that day.",
    )


class TableGameFilter(FilterSet):
    table = IdFilter(field_name="table")
    approval = IdFilter(field_name="approval")

    class Meta:
        model = TableGame
        fields = ["table", "approval"]


@extend_schema_view(
    create=extend_schema(request=TableGameInput, responses={201: TableGameSerializer, **ERROR_RESPONSES})
)
class TableGameViewSet(ScopedViewSet, mixins.CreateModelMixin):
    """Which approved game each table offers, link by link (the latest is current). Linking a table
    checks it against the approval's conditions and the internal controls for the game."""

    output_serializer_class = TableGameSerializer
    input_serializer_class = TableGameInput
    filterset_class = TableGameFilter

    def scope(self, access):
        return TableGame.objects.filter(table__site__in=rules.RECORDS.sites(access)).order_by(
            "table_id", "linked_at", "id"
        )

    def create(self, request, *args, **kwargs):
        return self.write(request)

    def create_object(self, data):
        return services.link_table_game(acting_user=self.request.user, **data)


# --- Licences ------------------------------------------------------------------------------


class LicenceSerializer(serializers.ModelSerializer):
    class Meta:
        model = Licence
        fields = [
            "id",
            "organization",
            "jurisdiction",
            "licence_number",
            "tie_option",
            "effective_on",
            "supersedes",
            "recorded_by",
            "recorded_at",
        ]
        read_only_fields = fields


class LicenceInput(JurisdictionRecordInput):
    record_rule = rules.LICENCE
    required_rules = required_by(rules.LICENCE, tie_option="the licence reflects one of the tie options; say which")
    licence_number = serializers.CharField(max_length=rules.MAX_SHORT_TEXT)
    tie_option = serializers.ChoiceField(
        choices=Licence.TieOption.choices,
        help_text="The tie option the licence reflects (where the site's pack holds it on the licence).",
    )
    effective_on = DateField()
    jurisdiction = serializers.CharField(
        max_length=5,
        required=False,
        allow_null=True,
        default=None,
        help_text="Empty: the one jurisdiction of the organization's sites with licence terms.",
    )


@extend_schema_view(create=extend_schema(request=LicenceInput, responses={201: LicenceSerializer, **ERROR_RESPONSES}))
class LicenceViewSet(ScopedViewSet, mixins.CreateModelMixin):
    """The organization's licences, each effective from its date (a change is a new licence), with
    the tie option every table under it follows."""

    output_serializer_class = LicenceSerializer
    input_serializer_class = LicenceInput

    def scope(self, access):
        if not rules.RECORDS.held_somewhere(access):  # the register's pages' rule (approvals.views)
            return Licence.objects.none()
        return Licence.objects.filter(organization_id=access.organization_id).order_by(
            "jurisdiction", "effective_on", "id"
        )

    def create(self, request, *args, **kwargs):
        return self.write(request)

    def create_object(self, data):
        return services.record_licence(acting_user=self.request.user, organization=self.access.employee_org(), **data)


# --- Written procedures --------------------------------------------------------------------


class WrittenProcedureSerializer(serializers.ModelSerializer):
    class Meta:
        model = WrittenProcedure
        fields = [
            "id",
            "organization",
            "kind",
            "version",
            "text",
            "document_reference",
            "effective_on",
            "reshuffle_idle_minutes",
            "supersedes",
            "adopted_by",
            "recorded_at",
        ]
        read_only_fields = fields


class WrittenProcedureInput(Input):
    kind = serializers.ChoiceField(choices=WrittenProcedure.Kind.choices)
    text = TextField(
        help_text="The procedure as adopted, or its summary where `document_reference` names the document."
    )
    document_reference = serializers.CharField(
        max_length=rules.MAX_NAME_LENGTH, required=False, allow_blank=True, default=""
    )
    effective_on = DateField(help_text="In force from this date; not before the version it supersedes.")
    reshuffle_idle_minutes = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Shuffling and cutting only: the minutes of no activity at a table after which a dealer may "
        "reshuffle, where the site's pack lets the organization set them.",
    )


class WrittenProcedureFilter(FilterSet):
    class Meta:
        model = WrittenProcedure
        fields = ["kind"]


@extend_schema_view(
    create=extend_schema(request=WrittenProcedureInput, responses={201: WrittenProcedureSerializer, **ERROR_RESPONSES})
)
class WrittenProcedureViewSet(ScopedViewSet, mixins.CreateModelMixin):
    """The organization's written procedures, version by version, each in force from its date until
    a later version's (where its sites' pack states them)."""

    output_serializer_class = WrittenProcedureSerializer
    input_serializer_class = WrittenProcedureInput
    filterset_class = WrittenProcedureFilter

    def scope(self, access):
        return WrittenProcedure.objects.filter(organization_id=access.organization_id).order_by("kind", "version")

    def create(self, request, *args, **kwargs):
        return self.write(request)

    def create_object(self, data):
        return services.record_written_procedure(
            acting_user=self.request.user, organization=self.access.employee_org(), **data
        )
