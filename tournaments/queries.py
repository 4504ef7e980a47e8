"""Reads of tournament records used in several places: the scoped lists, the register of
players with each player's fees, the prize register, and the figures the summaries take."""

from collections import defaultdict
from datetime import date

from django.db.models import Case, CharField, Count, IntegerField, Q, QuerySet, Sum, Value, When
from django.db.models.functions import Coalesce

from . import rules
from .calculations import NO_TOURNAMENTS, TournamentFigures
from .models import FeeKind, PrizeKind, Tournament, TournamentFee, TournamentPlayer, TournamentPrize


def readable_tournaments(access) -> QuerySet[Tournament]:
    """The tournaments at the sites where the user may read tournament records."""
    return Tournament.objects.filter(site_id__in=rules.TOURNAMENT_RECORDS.site_ids(access))


def _original_kind():
    """A fee's kind, or for a void the kind of the fee it voids (so a void lowers its column)."""
    return Case(When(kind=FeeKind.VOID, then="voids__kind"), default="kind", output_field=CharField())


def _fees_by(fees: QuerySet[TournamentFee], *keys: str) -> dict:
    out: dict = defaultdict(lambda: {"entry": 0, "rebuy": 0, "add_on": 0, "entries": 0})
    rows = (
        fees.order_by()
        .annotate(original=_original_kind())
        .values(*keys, "original")
        .annotate(
            cents=Sum("fee_cents"),
            count=Sum(Case(When(kind=FeeKind.VOID, then=Value(-1)), default=Value(1), output_field=IntegerField())),
        )
    )
    for row in rows:
        key = tuple(row[k] for k in keys)
        out[key][row["original"]] += row["cents"]
        if row["original"] == FeeKind.ENTRY:
            out[key]["entries"] += row["count"]
    return out


def _prizes_by(prizes: QuerySet[TournamentPrize], *keys: str) -> dict:
    out: dict = defaultdict(lambda: {PrizeKind.CASH: 0, PrizeKind.MERCHANDISE: 0})
    for row in prizes.order_by().values(*keys, "kind").annotate(cents=Sum("amount_cents")):
        out[tuple(row[k] for k in keys)][row["kind"]] += row["cents"]
    return out


def _figures(fees: dict | None, prizes: dict | None) -> TournamentFigures:
    fees = fees or {"entry": 0, "rebuy": 0, "add_on": 0, "entries": 0}
    prizes = prizes or {PrizeKind.CASH: 0, PrizeKind.MERCHANDISE: 0}
    return TournamentFigures(
        fees["entry"],
        fees["rebuy"],
        fees["add_on"],
        prizes[PrizeKind.CASH],
        prizes[PrizeKind.MERCHANDISE],
        fees["entries"],
    )


def figures_by_tournament(tournament_ids) -> dict[int, TournamentFigures]:
    """Each tournament's figures over its whole run (two queries for any number)."""
    fees = _fees_by(TournamentFee.objects.filter(tournament_id__in=tournament_ids), "tournament_id")
    prizes = _prizes_by(TournamentPrize.objects.filter(tournament_id__in=tournament_ids), "tournament_id")
    return {pk: _figures(fees.get((pk,)), prizes.get((pk,))) for pk in tournament_ids}


def tournament_figures(tournament: Tournament) -> TournamentFigures:
    return figures_by_tournament([tournament.pk])[tournament.pk]


def figures_by_day(site_ids, start: date, end: date) -> dict[tuple[int, date], TournamentFigures]:
    """The tournament figures of each site and gaming date in [start, end]: fees count on the
    gaming date they were collected, prizes on the date awarded (ND 99-01.3-08-16(1)(e),(f))."""
    in_range = Q(gaming_date__range=(start, end), tournament__site_id__in=site_ids)
    fees = _fees_by(TournamentFee.objects.filter(in_range), "tournament__site_id", "gaming_date")
    prizes = _prizes_by(TournamentPrize.objects.filter(in_range), "tournament__site_id", "gaming_date")
    return {key: _figures(fees.get(key), prizes.get(key)) for key in set(fees) | set(prizes)}


def day_figures(site_id: int, day: date) -> TournamentFigures:
    return figures_by_day([site_id], day, day).get((site_id, day), NO_TOURNAMENTS)


def player_register(tournament: Tournament) -> list[dict]:
    """The register of players (ND 99-01.3-08-15(1)) with each player's fees, chips and prizes."""
    players = list(
        TournamentPlayer.objects.filter(tournament=tournament)
        .select_related("registered_by")
        .annotate(
            paid_cents=Coalesce(Sum("fees__fee_cents"), 0),
            chips=Coalesce(Sum("fees__chips"), 0),
            fee_count=Count("fees"),
        )
        .order_by("id")
    )
    prizes = _prizes_by(TournamentPrize.objects.filter(tournament=tournament), "player_id")
    return [
        {
            "player": p,
            "paid_cents": p.paid_cents,
            "chips": p.chips,
            "prizes_cents": sum(prizes.get((p.pk,), {}).values()),
        }
        for p in players
    ]


def fee_register(tournament: Tournament) -> QuerySet[TournamentFee]:
    """Every fee collected, void rows included, in the order collected (08-16(1)(e))."""
    return (
        TournamentFee.objects.filter(tournament=tournament)
        .select_related("player", "collected_by")
        .order_by("collected_at", "id")
    )


def prize_register(tournament: Tournament) -> QuerySet[TournamentPrize]:
    """Every prize awarded, void rows included, in the order awarded (08-16(1)(f))."""
    return (
        TournamentPrize.objects.filter(tournament=tournament)
        .select_related("player", "awarded_by")
        .order_by("awarded_at", "id")
    )
