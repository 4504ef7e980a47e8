"""Reads of tournament records used in several places: the scoped lists, the register of
players with each player's fees, the prize register, and the figures the summaries take."""

from collections import defaultdict
from dataclasses import dataclass
from datetime import date

from django.db.models import Case, CharField, Count, IntegerField, Q, QuerySet, Sum, Value, When
from django.db.models.functions import Coalesce

from core.rows import shaped_rows
from floor.queries import LateEntry

from . import rules
from .calculations import NO_TOURNAMENTS, TournamentFigures
from .models import FeeKind, PrizeKind, Tournament, TournamentFee, TournamentPlayer, TournamentPrize


def readable_tournaments(access) -> QuerySet[Tournament]:
    """The tournaments at the sites where the user may read tournament records."""
    return Tournament.objects.filter(site_id__in=rules.TOURNAMENT_RECORDS.site_ids(access))


def _original_kind():
    """A fee's kind, or for a void the kind of the fee it voids (so a void lowers its column)."""
    return Case(When(kind=FeeKind.VOID, then="voids__kind"), default="kind", output_field=CharField())


def _fee_rows(fees: QuerySet[TournamentFee], *keys: str):
    """(*keys, original kind, cents, signed count) summed by the database."""
    return (
        fees.order_by()
        .annotate(original=_original_kind())
        .values_list(*keys, "original")
        .annotate(
            cents=Sum("fee_cents"),
            count=Sum(Case(When(kind=FeeKind.VOID, then=Value(-1)), default=Value(1), output_field=IntegerField())),
        )
    )


def _prize_rows(prizes: QuerySet[TournamentPrize], *keys: str):
    return prizes.order_by().values_list(*keys, "kind").annotate(cents=Sum("amount_cents"))


def _fees_by(rows, keys: int) -> dict:
    """{key: {entry, rebuy, add_on cents, entries}} from `_fee_rows` whose first `keys` values are the key."""
    out: dict = defaultdict(lambda: {"entry": 0, "rebuy": 0, "add_on": 0, "entries": 0})
    for row in rows:
        key, (original, cents, count) = tuple(row[:keys]), row[keys:]
        out[key][original] += cents
        if original == FeeKind.ENTRY:
            out[key]["entries"] += count
    return out


def _prizes_by(rows, keys: int) -> dict:
    out: dict = defaultdict(lambda: {PrizeKind.CASH: 0, PrizeKind.MERCHANDISE: 0})
    for row in rows:
        key, (kind, cents) = tuple(row[:keys]), row[keys:]
        out[key][kind] += cents
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
    fees = _fees_by(_fee_rows(TournamentFee.objects.filter(tournament_id__in=tournament_ids), "tournament_id"), 1)
    prizes = _prizes_by(
        _prize_rows(TournamentPrize.objects.filter(tournament_id__in=tournament_ids), "tournament_id"), 1
    )
    return {pk: _figures(fees.get((pk,)), prizes.get((pk,))) for pk in tournament_ids}


def tournament_figures(tournament: Tournament) -> TournamentFigures:
    return figures_by_tournament([tournament.pk])[tournament.pk]


def _day_fees_query(*, site_ids, start, end):
    in_range = Q(gaming_date__range=(start, end), tournament__site_id__in=site_ids)
    return _fee_rows(TournamentFee.objects.filter(in_range), "tournament__site_id", "gaming_date")


def _day_prizes_query(*, site_ids, start, end):
    in_range = Q(gaming_date__range=(start, end), tournament__site_id__in=site_ids)
    return _prize_rows(TournamentPrize.objects.filter(in_range), "tournament__site_id", "gaming_date")


def figures_by_day(site_ids, start: date, end: date) -> dict[tuple[int, date], TournamentFigures]:
    """The tournament figures of each site and gaming date in [start, end]: fees count on the
    gaming date they were collected, prizes on the date awarded (ND 99-01.3-08-16(1)(e),(f))."""
    site_ids = list(site_ids)
    fees = _fees_by(shaped_rows(_day_fees_query, site_ids=site_ids, start=start, end=end), 2)
    prizes = _prizes_by(shaped_rows(_day_prizes_query, site_ids=site_ids, start=start, end=end), 2)
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
    prizes = _prizes_by(_prize_rows(TournamentPrize.objects.filter(tournament=tournament), "player_id"), 1)
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


def late_entries(site, start: date, end: date) -> list[LateEntry]:
    """The tournament fees and prizes of gaming dates [start, end] entered past the site's late
    entry threshold (house control, core.moments), as the floor's (floor.queries.late_entries), in
    the order they happened, each named as the tournament's page shows it (a void as the void of
    its fee or prize). Two queries, however many rows. Not listed: a tournament's announcement,
    outside the books (`books=False`: its rules, not a day's figures)."""
    period = {"tournament__site": site, "gaming_date__range": (start, end), "entered_late": True}
    fees = TournamentFee.objects.filter(**period).select_related("tournament", "player")
    prizes = TournamentPrize.objects.filter(**period).select_related("tournament", "player")
    entries = [
        LateEntry(
            f.gaming_date, f"{_fee_words(f)}: {f.player.name} ({f.tournament.name})", f.collected_at, f.entered_at
        )
        for f in fees
    ]
    entries += [
        LateEntry(
            p.gaming_date, f"{_prize_words(p)}: {p.player.name} ({p.tournament.name})", p.awarded_at, p.entered_at
        )
        for p in prizes
    ]
    return sorted(entries, key=lambda e: (e.gaming_date, e.occurred_at, e.what))


def _fee_words(fee: TournamentFee) -> str:
    return f"Void of fee {fee.voids_id}" if fee.voids_id else f"Tournament {FeeKind(fee.kind).label.lower()}"


def _prize_words(prize: TournamentPrize) -> str:
    words = f"Tournament prize, {prize.round_name}"
    return f"{words} (void of prize {prize.voids_id})" if prize.voids_id else words


@dataclass(frozen=True)
class FoundLate:
    """A tournament fee or prize entered after the books of its tournament's day closed
    (`TournamentFee.corrects_date`), as the daily summaries list it: counted on `counted_on`, the
    day it was entered on, and listed, not counted again, on `corrects_date`, the closed day it
    belongs to. `agp_effect_cents`: what it adds to the tournament AGP of the day it counts on
    (a fee's amount; a prize's, less)."""

    site_id: int
    record: str  # "fee" or "prize"
    record_id: int
    corrects_date: date
    counted_on: date
    tournament: str
    what: str  # "Tournament entry fee: Ann Lee", "Tournament prize, Final: Ann Lee"
    amount_cents: int
    agp_effect_cents: int
    reason: str
    initials: str

    def rule(self, where) -> str:
        """The rule of the record it is, cited by `where`'s pack (a Site or a jurisdiction code):
        the fees collected (`rules.FEE_RECORD`, ND 08-16(1)(e)), the prize register (`PRIZE_RECORD`, (f))."""
        return (rules.FEE_RECORD if self.record == "fee" else rules.PRIZE_RECORD).at(where)


def _found_late_rows(model, *, site_ids, start, end, what: str, cents: str, by: str):
    """The rows of `model` found late at the sites, counted on a day of [start, end] or belonging to
    one, as (site id, record, id, corrects_date, gaming_date, tournament, what, player, cents,
    reason, initials)."""
    dated = Q(gaming_date__range=(start, end)) | Q(corrects_date__range=(start, end))
    rows = model.objects.filter(dated, corrects_date__isnull=False, tournament__site_id__in=site_ids)
    return (
        rows.order_by()
        .annotate(record=Value(model._meta.model_name, output_field=CharField()))
        .values_list("tournament__site_id", "record", "pk", "corrects_date", "gaming_date", "tournament__name",
                     what, "player__name", cents, "reason", f"{by}__initials")
    )  # fmt: skip


FEE = TournamentFee._meta.model_name  # a fee row's record in `_found_late_rows` (else a prize's)


def _late_line(site_id, record, pk, corrects_date, counted_on, tournament, what, player, cents, reason, initials):
    if record == FEE:
        words, effect = f"Tournament {FeeKind(what).label.lower()}", cents
    else:
        words, effect = f"Tournament prize, {what}", -cents
    kind = "fee" if record == FEE else "prize"
    return FoundLate(site_id, kind, pk, corrects_date, counted_on, tournament, f"{words}: {player}", cents, effect,
                     reason, initials)  # fmt: skip


def found_late(site_ids, start: date, end: date) -> tuple[dict, dict]:
    """({(site id, day counted on): [FoundLate]}, {(site id, closed day): [FoundLate]}) of the sites'
    fees and prizes found after their tournament's day's books closed, by the day each counts on
    and by the day each belongs to, within [start, end]. One query, however many rows."""
    window = {"site_ids": list(site_ids), "start": start, "end": end}
    fees = _found_late_rows(TournamentFee, **window, what="kind", cents="fee_cents", by="collected_by")
    prizes = _found_late_rows(TournamentPrize, **window, what="round_name", cents="amount_cents", by="awarded_by")
    counted, belonging = defaultdict(list), defaultdict(list)
    for row in sorted(fees.union(prizes, all=True), key=lambda r: (r[4], r[1], r[2])):
        line = _late_line(*row)
        if start <= line.counted_on <= end:
            counted[(line.site_id, line.counted_on)].append(line)
        if start <= line.corrects_date <= end:
            belonging[(line.site_id, line.corrects_date)].append(line)
    return counted, belonging
