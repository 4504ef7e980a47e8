"""API for tournaments: serializers parse, `tournaments.services` validates and writes.

/api/v1/tournaments/ lists and announces tournaments; /api/v1/tournaments/{id}/entries/ is
the register of fees (entry fees, rebuys, add-ons and their voids) and collects a fee;
/players/ is the register of players with each player's fees; /prizes/ the prize register.
"""

from drf_spectacular.utils import extend_schema, extend_schema_field, extend_schema_view
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.response import Response

from core.api import (
    ERROR_RESPONSES,
    CentsField,
    DateField,
    Input,
    MomentField,
    ScopedSiteField,
    ScopedViewSet,
    TextField,
    required_by,
)
from core.api_filters import PAGE_PARAMETERS, Pagination, site_filterset

from . import queries, rules, services
from .calculations import TournamentFigures
from .models import FeeKind, PrizeKind, Tournament, TournamentFee, TournamentPlayer, TournamentPrize

FEE_KINDS = [FeeKind.ENTRY, FeeKind.REBUY, FeeKind.ADD_ON]


class FiguresSerializer(serializers.Serializer):
    """A tournament's record of win, net of voids."""

    entries = serializers.IntegerField()
    entry_fees_cents = serializers.IntegerField()
    rebuys_cents = serializers.IntegerField()
    add_ons_cents = serializers.IntegerField()
    gross_proceeds_cents = serializers.IntegerField()
    cash_prizes_cents = serializers.IntegerField()
    merchandise_prizes_cents = serializers.IntegerField()
    prizes_cents = serializers.IntegerField()
    agp_cents = serializers.IntegerField()


class TournamentSerializer(serializers.ModelSerializer):
    announced_by_initials = serializers.CharField(source="announced_by.initials")
    figures = serializers.SerializerMethodField()

    class Meta:
        model = Tournament
        fields = [
            "id",
            "site",
            "name",
            "gaming_date",
            "entry_fee_cents",
            "rebuy_fee_cents",
            "add_on_fee_cents",
            "chips_per_entry",
            "chips_per_rebuy",
            "chips_per_add_on",
            "betting_spaces",
            "rotating_button",
            "length_of_play",
            "minimum_bet_chips",
            "maximum_bet_chips",
            "advancement",
            "prizes_offered",
            "announced_at",
            "entered_at",
            "entered_late",
            "announced_by_initials",
            "figures",
        ]

    @extend_schema_field(FiguresSerializer)
    def get_figures(self, tournament) -> dict:
        figures = self.context.get("figures", {}).get(tournament.pk)
        if figures is None:
            figures = queries.tournament_figures(tournament)
        return FiguresSerializer(_figures_dict(figures)).data


def _figures_dict(f: TournamentFigures) -> dict:
    return {
        "entries": f.entries,
        "entry_fees_cents": f.entry_fees_cents,
        "rebuys_cents": f.rebuys_cents,
        "add_ons_cents": f.add_ons_cents,
        "gross_proceeds_cents": f.gross_proceeds_cents,
        "cash_prizes_cents": f.cash_prizes_cents,
        "merchandise_prizes_cents": f.merchandise_prizes_cents,
        "prizes_cents": f.prizes_cents,
        "agp_cents": f.agp_cents,
    }


class ChipsField(serializers.IntegerField):
    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", rules.MAX_TOURNAMENT_CHIPS)
        super().__init__(**kwargs)


class TournamentInputSerializer(Input):
    required_rules = {
        **required_by(
            rules.FEES,
            entry_fee_cents="a player is charged an entry fee; give it in cents",
            chips_per_entry="an entry fee buys a fixed number of no-value chips; give the number",
        ),
        **required_by(rules.PLAY, length_of_play="the organization sets the time or number of shoes or hands played"),
        **required_by(rules.BETTING, minimum_bet_chips="the organization sets a minimum bet limit in chips"),
    }
    site = ScopedSiteField()
    name = serializers.CharField(max_length=rules.MAX_NAME_LENGTH)
    gaming_date = DateField()
    entry_fee_cents = CentsField(min_value=0)
    rebuy_fee_cents = CentsField(min_value=0, required=False, allow_null=True, default=None)
    add_on_fee_cents = CentsField(min_value=0, required=False, allow_null=True, default=None)
    chips_per_entry = ChipsField()
    chips_per_rebuy = ChipsField(required=False, allow_null=True, default=None)
    chips_per_add_on = ChipsField(required=False, allow_null=True, default=None)
    betting_spaces = serializers.IntegerField(min_value=0, max_value=9, default=1)
    rotating_button = serializers.BooleanField(default=False)
    length_of_play = serializers.CharField(max_length=rules.MAX_NAME_LENGTH)
    minimum_bet_chips = ChipsField()
    maximum_bet_chips = ChipsField(required=False, allow_null=True, default=None)
    advancement = TextField(required=False, allow_blank=True, default="")
    prizes_offered = TextField()
    announced_at = MomentField(
        source="at", help_text="When the rules were announced to players (from the paper); default now."
    )


class FeeSerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name")
    collected_by_initials = serializers.CharField(source="collected_by.initials")

    class Meta:
        model = TournamentFee
        fields = [
            "id",
            "tournament",
            "player",
            "player_name",
            "kind",
            "fee_cents",
            "chips",
            "gaming_date",
            "collected_at",
            "entered_at",
            "entered_late",
            "collected_by_initials",
            "voids",
            "reason",
            "corrects_date",
        ]


# The reason a fee or prize found after its tournament's day's books closed needs (services._found_late).
FOUND_LATE_HELP = (
    "Found after the books of the tournament's day closed: why it comes late (required then; it counts on the "
    "day it is entered and is listed on the closed day as found later)."
)


class FeeInputSerializer(Input):
    required_rules = required_by(
        rules.FEE_RECORD, kind="the record names the fees, rebuys and add-ons collected; say which this is"
    )
    kind = serializers.ChoiceField(choices=FEE_KINDS)
    player_name = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=rules.MAX_NAME_LENGTH,
        help_text="For an entry fee: the player's name, entered on the register.",
    )
    player = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=1,
        max_value=2**63 - 1,
        help_text="For a rebuy or add-on: the player's id on this tournament's register.",
    )
    collected_at = MomentField(source="at", help_text="When the fee was collected (from the register); default now.")
    reason = TextField(required=False, allow_blank=True, default="", help_text=FOUND_LATE_HELP)


class TournamentVoidInputSerializer(Input):
    reason = TextField()
    voided_at = MomentField(source="at", help_text="When it was voided (from the register); default now.")


class PlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="player.id")
    name = serializers.CharField(source="player.name")
    registered_at = serializers.DateTimeField(source="player.registered_at")
    registered_by_initials = serializers.CharField(source="player.registered_by.initials")
    paid_cents = serializers.IntegerField()
    chips = serializers.IntegerField()
    prizes_cents = serializers.IntegerField()


class PrizeSerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name")
    awarded_by_initials = serializers.CharField(source="awarded_by.initials")

    class Meta:
        model = TournamentPrize
        fields = [
            "id",
            "tournament",
            "player",
            "player_name",
            "round_name",
            "kind",
            "description",
            "amount_cents",
            "split",
            "gaming_date",
            "awarded_at",
            "entered_at",
            "entered_late",
            "awarded_by_initials",
            "voids",
            "reason",
            "corrects_date",
        ]


class PrizeInputSerializer(Input):
    required_rules = {
        **required_by(
            rules.PRIZE_RECORD,
            player="the prize register names the player a prize is awarded to",
            amount_cents="the prize register records each prize's value; give it in cents",
        ),
        **required_by(rules.PRIZES, kind="a prize is cash or merchandise; say which"),
    }
    player = serializers.IntegerField(min_value=1, max_value=2**63 - 1)
    round_name = serializers.CharField(max_length=rules.MAX_NAME_LENGTH)
    kind = serializers.ChoiceField(choices=PrizeKind.choices)
    amount_cents = CentsField(min_value=0)
    description = TextField(required=False, allow_blank=True, default="")
    split = serializers.BooleanField(default=False)
    awarded_at = MomentField(source="at", help_text="When the prize was awarded (from the register); default now.")
    reason = TextField(required=False, allow_blank=True, default="", help_text=FOUND_LATE_HELP)


def _player(tournament: Tournament, player_id: int | None) -> TournamentPlayer | None:
    if player_id is None:
        return None
    player = TournamentPlayer.objects.filter(tournament=tournament, pk=player_id).first()
    if player is None:
        raise serializers.ValidationError(
            {"player": [f"{rules.FEES.at(tournament.site)}: no player {player_id} on this tournament's register."]}
        )
    return player


def _parse(serializer_class, request, context) -> dict:
    serializer = serializer_class(data=request.data, context=context)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _page(view, queryset, serializer_class):
    pages = Pagination()
    page = pages.paginate_queryset(queryset, view.request, view)
    return pages.get_paginated_response(serializer_class(page, many=True).data)


@extend_schema_view(
    create=extend_schema(request=TournamentInputSerializer, responses={201: TournamentSerializer, **ERROR_RESPONSES})
)
class TournamentViewSet(ScopedViewSet):
    """Tournaments at the sites where you may read tournament records (House control)."""

    output_serializer_class = TournamentSerializer
    input_serializer_class = TournamentInputSerializer
    filterset_class = site_filterset(Tournament, date_path="gaming_date")

    def scope(self, access):
        return queries.readable_tournaments(access).select_related("announced_by").order_by("-gaming_date", "-id")

    def list(self, request, *args, **kwargs):
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        figures = queries.figures_by_tournament([t.pk for t in page])
        context = {**self.get_serializer_context(), "figures": figures}
        return self.get_paginated_response(TournamentSerializer(page, many=True, context=context).data)

    def create(self, request, *args, **kwargs):
        return self.write(request)

    def create_object(self, data):
        return services.announce_tournament(acting_user=self.request.user, **data)

    @extend_schema(
        methods=["GET"], parameters=PAGE_PARAMETERS, responses={200: FeeSerializer(many=True), **ERROR_RESPONSES}
    )
    @extend_schema(methods=["POST"], request=FeeInputSerializer, responses={201: FeeSerializer, **ERROR_RESPONSES})
    @action(detail=True, methods=["get", "post"], pagination_class=Pagination)
    def entries(self, request, pk=None):
        """The fee register; POST collects an entry fee, rebuy or add-on."""
        tournament = self.get_object()
        if request.method == "GET":
            return _page(self, queries.fee_register(tournament), FeeSerializer)
        data = _parse(FeeInputSerializer, request, {**self.get_serializer_context(), "site": tournament.site})
        fee = services.collect_fee(
            acting_user=request.user,
            tournament=tournament,
            kind=data["kind"],
            player=_player(tournament, data["player"]),
            player_name=data["player_name"],
            at=data.get("at"),
            reason=data["reason"],
        )
        return Response(FeeSerializer(fee).data, status=201)

    @extend_schema(request=TournamentVoidInputSerializer, responses={201: FeeSerializer, **ERROR_RESPONSES})
    @action(detail=True, methods=["post"], url_path=r"entries/(?P<fee_id>[0-9]{1,18})/void")
    def void_entry(self, request, pk=None, fee_id=None):
        """Void a fee recorded by mistake: a new row with the opposite amount, pointing back."""
        tournament = self.get_object()
        fee = TournamentFee.objects.filter(tournament=tournament, pk=int(fee_id)).first()
        if fee is None:
            return Response({"detail": "Not found."}, status=404)
        data = _parse(TournamentVoidInputSerializer, request, self.get_serializer_context())
        void = services.void_fee(acting_user=request.user, fee=fee, **data)
        return Response(FeeSerializer(void).data, status=201)

    @extend_schema(parameters=PAGE_PARAMETERS, responses={200: PlayerSerializer(many=True), **ERROR_RESPONSES})
    @action(detail=True, methods=["get"], pagination_class=Pagination)
    def players(self, request, pk=None):
        """The register of players with each player's fees, chips and prizes."""
        tournament = self.get_object()
        return _page(self, queries.player_register(tournament), PlayerSerializer)

    @extend_schema(
        methods=["GET"], parameters=PAGE_PARAMETERS, responses={200: PrizeSerializer(many=True), **ERROR_RESPONSES}
    )
    @extend_schema(methods=["POST"], request=PrizeInputSerializer, responses={201: PrizeSerializer, **ERROR_RESPONSES})
    @action(detail=True, methods=["get", "post"], pagination_class=Pagination)
    def prizes(self, request, pk=None):
        """The prize register; POST records a prize."""
        tournament = self.get_object()
        if request.method == "GET":
            return _page(self, queries.prize_register(tournament), PrizeSerializer)
        data = _parse(PrizeInputSerializer, request, {**self.get_serializer_context(), "site": tournament.site})
        data["player"] = _player(tournament, data["player"])
        prize = services.award_prize(acting_user=request.user, tournament=tournament, **data)
        return Response(PrizeSerializer(prize).data, status=201)

    @extend_schema(request=TournamentVoidInputSerializer, responses={201: PrizeSerializer, **ERROR_RESPONSES})
    @action(detail=True, methods=["post"], url_path=r"prizes/(?P<prize_id>[0-9]{1,18})/void")
    def void_prize(self, request, pk=None, prize_id=None):
        """Void a prize recorded by mistake: a new row with the opposite amount, pointing back."""
        tournament = self.get_object()
        prize = TournamentPrize.objects.filter(tournament=tournament, pk=int(prize_id)).first()
        if prize is None:
            return Response({"detail": "Not found."}, status=404)
        data = _parse(TournamentVoidInputSerializer, request, self.get_serializer_context())
        void = services.void_prize(acting_user=request.user, prize=prize, **data)
        return Response(PrizeSerializer(void).data, status=201)
