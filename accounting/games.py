"""Each game's figures beside its own low-hold threshold, and their total.

Chapter 08 judges twenty-one and paddlewheel separately: percent-of-hold below ten percent for
twenty-one or below fifteen percent for paddlewheel for a quarter starts a video review at a
surveillance site (ND 99-01.3-08-04(9)). So every summary reports each game on its own line, a
quarter's each with its own threshold (a day's with none: `day_game_lines`), and the total of both
below them; a twenty-one figure never includes paddlewheel. The thresholds are an obligation of the pack's law (`accounting.low_hold`): at a
site whose pack does not state them, the lines carry no threshold.

The thresholds are compliance's effective-dated data (`compliance.thresholds`, codes
`low_hold.ratio_21` and `low_hold.ratio_pw`). Compliance sits above the books, so it registers
the schedule here when its app loads (`compliance.apps`): imports keep pointing down. Until it
registers, a line has no threshold (None), never a literal.

Sections: `game_lines` returns a tuple a report can extend (another section, such as
tournaments, is its own list beside this one, not a change to it)."""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.core.exceptions import ValidationError

from core.hooks import HOLD_THRESHOLDS
from packs import GameNames, RevenueModel, game_name, game_names, games_dealt, pack_for
from surveillance.queries import surveillance_required

from .figures import Custody
from .rules import COMBINED_BANK, LOW_HOLD, session_basis

TWENTY_ONE, PADDLEWHEEL, TOTAL = "21", "PW", "total"


@dataclass(frozen=True)
class HoldThreshold:
    """Percent-of-hold below `ratio` for a quarter starts the video review of `citation`."""

    ratio: Decimal
    citation: str
    effective_from: date


# {game: every threshold row of the game, any order}; loaded once per summary (one query).
Schedule = dict[str, tuple[HoldThreshold, ...]]


def sites_holding(sites) -> list:
    """The `sites` whose revenue is a drop, so whose dealers have a percent-of-hold; none of them
    is a bad request on `site` naming each site's revenue (a fees room, WA-BJ, or a games-of-chance
    site, NY: their dealers' pages say the same), the ratio named in their packs' words (hold)."""
    holding = [s for s in sites if pack_for(s).revenue_model == RevenueModel.DROP]
    if not holding:
        said = "; ".join(f"{s.name}: {_revenue(pack_for(s))}" for s in sites)
        hold = " or ".join(dict.fromkeys(pack_for(s).revenue_words.hold_name for s in sites))
        raise ValidationError(
            {"site": f"No dealer has a {hold} here: the revenue of these sites is not a drop ({said})."}
        )
    return holding


def _revenue(pack) -> str:
    """What a fees or session pack's revenue is, with the rule it rests on: the fees rule
    (WAC 230-40-125(1)), or its sessions, a house record of the game 9 NYCRR 4620.5 sets."""
    if pack.revenue_model == RevenueModel.FEES:
        return f"{pack.name}, table fees ({pack.cite('accounting.table_fees')})"
    return f"{pack.name}, games-of-chance sessions ({session_basis(pack.cite('accounting.session_game'))})"


def sites_dealing(sites, game: str) -> list[int]:
    """The ids of `sites` whose pack deals `game`; none of them is a bad request naming the game
    and what the sites' packs deal (a Washington room has no paddlewheel, so no wheel operator)."""
    dealing = [s.pk for s in sites if game in pack_for(s).games]
    if not dealing:
        packs = {pack_for(s).name: pack_for(s) for s in sites}
        said = "; ".join(f"{p.cite('table.game')}: {name} tables deal {games_dealt(p)}" for name, p in packs.items())
        raise ValidationError({"game": f"No site here deals {game_name(next(iter(sites), None), game)} ({said})."})
    return dealing


def register_hold_thresholds(source: Callable[[], Schedule]) -> None:
    """Compliance registers `source() -> Schedule` once, when its app is ready."""
    HOLD_THRESHOLDS.register(source)


def hold_schedule() -> Schedule:
    return HOLD_THRESHOLDS()


def threshold_on(schedule: Schedule, game: str, on: date) -> HoldThreshold | None:
    """The game's threshold in force on `on` (the latest effective on or before it), or None."""
    rows = [t for t in schedule.get(game, ()) if t.effective_from <= on]
    return max(rows, key=lambda t: t.effective_from) if rows else None


@dataclass(frozen=True)
class GameLine:
    game: str  # "21", "PW" or "total"
    label: str
    custody: Custody
    threshold: HoldThreshold | None  # None on the total line (the rule judges each game)

    @property
    def hold_ratio(self) -> Decimal | None:
        return self.custody.hold_ratio

    @property
    def below_threshold(self) -> bool | None:
        """Hold strictly below the game's threshold ("less than ten percent", 08-04(9)); None
        when there is no threshold or no hold (no gross proceeds). Exact, never rounded."""
        if self.threshold is None or self.hold_ratio is None:
            return None
        return self.hold_ratio < self.threshold.ratio


def game_lines(
    twenty_one: Custody,
    paddlewheel: Custody,
    total: Custody,
    on: date,
    schedule: Schedule,
    names: GameNames | None = None,
):
    """Game 21, paddlewheel (each with its threshold in force on `on`) and their total, each game
    labelled by `names` (the site's pack's: "Twenty-one", "Blackjack"; the trade's when None)."""
    names = names or GameNames()
    return (
        GameLine(TWENTY_ONE, names.label(TWENTY_ONE), twenty_one, threshold_on(schedule, TWENTY_ONE, on)),
        GameLine(PADDLEWHEEL, names.label(PADDLEWHEEL), paddlewheel, threshold_on(schedule, PADDLEWHEEL, on)),
        GameLine(TOTAL, "Total", total, None),
    )


def summary_game_lines(summary, on: date, schedule: Schedule | None = None, *, where=None):
    """`game_lines` of a daily or quarterly summary (anything with twenty_one, paddlewheel, total)
    at `where` (a Site, a Pack or a jurisdiction code): each game's threshold only where the pack
    states the low-hold rule, and only the games the pack's tables deal (`Pack.games`: no
    paddlewheel line at a Washington site); None (no site named): every game, no threshold."""
    if where is None or not LOW_HOLD.applies(where):
        schedule = {}
    schedule = hold_schedule() if schedule is None else schedule
    lines = game_lines(summary.twenty_one, summary.paddlewheel, summary.total, on, schedule, game_names(where))
    if where is None:
        return lines
    dealt = pack_for(where).games
    return tuple(line for line in lines if line.game == TOTAL or line.game in dealt)


def day_game_lines(summary, *, where=None):
    """A day's `summary_game_lines`: each game the pack deals and their total, with no threshold.
    The low-hold rule judges a game's percent-of-hold "for a quarter" (ND 99-01.3-08-04(9)), never a
    day's: a day below the quarter's threshold starts no review, so a day's lines carry neither the
    threshold nor "below" (the daily page, the daily report and the figures API's days alike)."""
    return summary_game_lines(summary, summary.gaming_date, {}, where=where)


def low_hold_review(site, on: date) -> str:
    """Whether a game below its threshold starts the video review at `site`: the rule is "for a
    site that requires video surveillance" (ND 99-01.3-08-04(9)), judged at the quarter's end `on`
    as the nightly check judges it (`compliance.rules.low_hold`). Said beside the games' lines, so
    that "below" at a site without surveillance is not read as a review owed; "" where the site's
    pack states no low-hold rule."""
    if not LOW_HOLD.applies(site):
        return ""
    # The review follows the quarter's percent-of-hold "once determined" (08-04(9)): whether the site
    # requires surveillance is judged at the quarter's end, said as such ("on 2026-12-31" for a quarter
    # under way read as a date to come).
    judged = f"(judged at the quarter's end, {on:%Y-%m-%d})"
    if surveillance_required(site, on):
        return f"{site.name} requires video surveillance {judged}: a game below its threshold starts the review."
    return (
        f"{site.name} does not require video surveillance {judged}: a game below its threshold starts no review there."
    )


def below_word(line: GameLine) -> str:
    if line.below_threshold is None:
        return "n/a"
    return "below" if line.below_threshold else "not below"


@dataclass(frozen=True)
class BankAllocation:
    """A combined twenty-one/paddlewheel cash bank's long (short), allocated to twenty-one
    (ND 99-01.3-08-16(4)): twenty-one carries the whole long (short), paddlewheel none. None
    (not known) when no day of the period had its bank counted."""

    twenty_one_agp_cents: int
    paddlewheel_agp_cents: int
    long_short_cents: int | None

    @property
    def twenty_one_long_short_cents(self) -> int | None:
        return self.long_short_cents

    @property
    def paddlewheel_long_short_cents(self) -> int:
        return 0


def combined_bank(summary) -> bool:
    """Did the site's one cash bank serve paddlewheel too? A site's bank count takes the drop of
    all its tables (`figures.cash_profit`), so it is combined in any period its paddlewheel
    tables played (a paddlewheel table-day, or paddlewheel figures)."""
    days = getattr(summary, "days", None) or (summary,)
    played = any(t.game == PADDLEWHEEL for d in days for t in getattr(d, "tables", ()))
    pw = summary.paddlewheel
    return played or any((pw.gross_proceeds_cents, pw.prizes_cents, pw.agp_cents))


def bank_allocation(summary, where) -> BankAllocation | None:
    """The allocation of the combined bank's long (short) to twenty-one, where the site's pack
    states the rule (`accounting.combined_bank`) and the bank is combined; else None."""
    if not COMBINED_BANK.applies(where) or not combined_bank(summary):
        return None
    return BankAllocation(summary.twenty_one.agp_cents, summary.paddlewheel.agp_cents, summary.long_short_cents)
