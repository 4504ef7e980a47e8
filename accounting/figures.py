"""The formulas of the daily and quarterly figures (shared/docs/domain.md section 3), as pure
functions on integer cents. No ORM here: `accounting.summaries` gathers the inputs.

Ratios are exact Decimals; rounding happens only when they are displayed."""

from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

from packs import TaxBracket


def gross_proceeds(drop_cents: int) -> int:
    """GP = drop box cash."""
    return drop_cents


def prizes(*, fills_cents: int, credits_cents: int, opener_cents: int, closer_cents: int) -> int:
    """prizes = fills - credits + opener - closer."""
    return fills_cents - credits_cents + opener_cents - closer_cents


def table_win(*, drop_cents: int, fills_cents: int, credits_cents: int, opener_cents: int, closer_cents: int) -> int:
    """AGP ("win") = GP - prizes = drop - fills + credits + closer - opener."""
    return drop_cents - fills_cents + credits_cents + closer_cents - opener_cents


def percent_of_hold(agp_cents: int, gp_cents: int) -> Decimal | None:
    """Percent-of-hold = AGP / GP (ND 99-01.3-08-01(3)); undefined (None) when GP = 0."""
    if gp_cents == 0:
        return None
    return Decimal(agp_cents) / Decimal(gp_cents)


def ratio_string(ratio: Decimal | None, places: int = 6) -> str | None:
    """A ratio for the API: a decimal string with `places` decimals (half-up), or None."""
    if ratio is None:
        return None
    return str(ratio.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


@dataclass(frozen=True)
class Custody:
    """One table's (or one dealer shift's) chip and cash movements for a period."""

    drop_cents: int
    fills_cents: int
    credits_cents: int
    opener_cents: int
    closer_cents: int
    # The table-days summed here that were opened and have no closer recorded yet on a gaming day
    # still in play (decided where they are assembled, accounting.table_days; the opener/closer
    # sequence is a house control, floor.rules.TRAY_COUNT): their closer is not $0.00 but not known,
    # and so are the figures that need it (`known_closer_cents`, `known_prizes_cents`,
    # `known_agp_cents`, `known_hold_ratio`). Never on closed books: they close with every closer recorded.
    closers_missing: int = 0

    @property
    def closer_known(self) -> bool:
        """Is every closer summed here recorded?"""
        return self.closers_missing == 0

    @property
    def known_closer_cents(self) -> int | None:
        """The closer, None (not known) while a table summed here has none recorded."""
        return self.closer_cents if self.closer_known else None

    @property
    def known_prizes_cents(self) -> int | None:
        """Prizes (paid out), None (not known) without every closer: they take the closer off."""
        return self.prizes_cents if self.closer_known else None

    @property
    def known_agp_cents(self) -> int | None:
        """AGP (win), None (not known) without every closer: a missing closer is no loss."""
        return self.agp_cents if self.closer_known else None

    @property
    def known_hold_ratio(self) -> Decimal | None:
        """Percent-of-hold, None (not known, or undefined) without every closer."""
        return self.hold_ratio if self.closer_known else None

    @property
    def gross_proceeds_cents(self) -> int:
        return gross_proceeds(self.drop_cents)

    @property
    def prizes_cents(self) -> int:
        return prizes(
            fills_cents=self.fills_cents,
            credits_cents=self.credits_cents,
            opener_cents=self.opener_cents,
            closer_cents=self.closer_cents,
        )

    @property
    def agp_cents(self) -> int:
        return self.gross_proceeds_cents - self.prizes_cents

    @property
    def hold_ratio(self) -> Decimal | None:
        return percent_of_hold(self.agp_cents, self.gross_proceeds_cents)

    def __add__(self, other: "Custody") -> "Custody":
        return Custody(
            self.drop_cents + other.drop_cents,
            self.fills_cents + other.fills_cents,
            self.credits_cents + other.credits_cents,
            self.opener_cents + other.opener_cents,
            self.closer_cents + other.closer_cents,
            self.closers_missing + other.closers_missing,
        )


ZERO = Custody(0, 0, 0, 0, 0)


def total(custodies) -> Custody:
    """Site and quarter figures are sums of table figures; the hold of a sum is the ratio of
    the sums, never an average of ratios."""
    drop = fills = credits = opener = closer = missing = 0
    found = False
    for c in custodies:  # a loop of additions: twice as quick as summing columns (it runs per day and game)
        found = True
        drop += c.drop_cents
        fills += c.fills_cents
        credits += c.credits_cents
        opener += c.opener_cents
        closer += c.closer_cents
        missing += c.closers_missing
    return Custody(drop, fills, credits, opener, closer, missing) if found else ZERO


def cash_profit(*, starting_cash_cents: int, ending_cash_cents: int, drop_cents: int, ious_net_cents: int) -> int:
    """cash profit = ending cash on hand - starting cash on hand + drop box cash, net of IOUs.

    `ious_net_cents`: money lent out of the bank and not yet repaid at the end of the day,
    less what was outstanding at the start (lending lowers cash on hand without a loss, so it
    is added back). *Assumed* definition (shared/docs/domain.md section 3)."""
    return ending_cash_cents - starting_cash_cents + drop_cents + ious_net_cents


def cash_long_short(*, cash_profit_cents: int, agp_cents: int) -> int:
    """cash long (+) or short (-) = cash profit - AGP."""
    return cash_profit_cents - agp_cents


def bank_deposit(
    *, cash_profit_cents: int, next_day_starting_cash_increase_cents: int, prizes_paid_by_check_cents: int
) -> int:
    """bank deposit = cash profit - documented increase in the next day's starting cash (a
    decrease is a negative increase, so it adds) + prizes paid by check (ND 99-01.3-03-10(1))."""
    return cash_profit_cents - next_day_starting_cash_increase_cents + prizes_paid_by_check_cents


def players_chips_change(*, outstanding_start_cents: int, outstanding_end_cents: int) -> int:
    """The reconciling line: with chips at face, the house's cash plus chips grows by exactly
    AGP in a day, so cash long/short = the change in chips held outside the house (players,
    dealers' unredeemed tips) + errors."""
    return outstanding_end_cents - outstanding_start_cents


# A gaming tax's brackets (`TaxBracket`) are the pack's data (`packs.Pack.tax_brackets`, e.g. North
# Dakota's N.D.C.C. 53-06.1-12 in packs/nd/accounting.py); the books compute with those given.


def brackets_in_force(brackets, on: date) -> list[TaxBracket]:
    """The schedule in force on `on`: the brackets of the latest effective date not after it."""
    dates = [b.effective_from for b in brackets if b.effective_from <= on]
    if not dates:
        raise ValueError(f"No gaming tax schedule is in force on {on}")
    latest = max(dates)
    return sorted((b for b in brackets if b.effective_from == latest), key=lambda b: b.lower_cents)


def gaming_tax(agp_cents: int, brackets: list[TaxBracket]) -> int:
    """Tax on the organization's quarterly AGP: the base of the highest bracket reached plus
    its rate on the excess, rounded half-up to the cent. No tax on a negative AGP."""
    if agp_cents <= 0 or not brackets:
        return 0
    bracket = [b for b in brackets if agp_cents > b.lower_cents or b.lower_cents == 0][-1]
    tax = Decimal(bracket.base_cents) + bracket.rate * (agp_cents - bracket.lower_cents)
    return int(tax.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def gaming_tax_on_recorded(recorded_cents: int, other_games_cents: int | None, brackets: list[TaxBracket]) -> int:
    """The ND gaming tax on the AGP recorded here, when the organization also has other games.

    N.D.C.C. 53-06.1-12 applies its brackets to the organization's AGP from all its games for
    the quarter: the organization's tax is T = gaming_tax(recorded + other). The statute sets one
    tax on that total and does not divide it among games; the product's reading (*assumed*, the
    statute's text is not among our documents) gives the AGP recorded here its pro-rata share of
    T, since every dollar of the total bears the same effective rate T / total:

        tax on the AGP here = round_half_up(T * recorded / (recorded + other)), within [0, T]

    With no other games recorded (None) it is the bracket tax on the AGP here. No tax on a
    recorded AGP of zero or less, nor when the total is zero or less."""
    if other_games_cents is None:
        return gaming_tax(recorded_cents, brackets)
    total = recorded_cents + other_games_cents
    organization_tax = gaming_tax(total, brackets)
    if recorded_cents <= 0 or total <= 0:
        return 0
    share = (Decimal(organization_tax) * recorded_cents / total).quantize(Decimal(1), rounding=ROUND_HALF_UP)
    return min(int(share), organization_tax)


@dataclass(frozen=True)
class HoldSpread:
    """The spread of a site's table-day holds: their number and sample variance."""

    count: int
    variance: Decimal


def hold_spread(table_day_holds: list[Decimal]) -> HoldSpread:
    """n and s^2 = sum((h - mean)^2) / (n - 1) of the table-day holds (s^2 = 0 when n < 2)."""
    n = len(table_day_holds)
    if n < 2:
        return HoldSpread(n, Decimal(0))
    mean = sum(table_day_holds) / n
    return HoldSpread(n, sum((h - mean) ** 2 for h in table_day_holds) / (n - 1))


def hold_z_score(
    *,
    dealer_agp_cents: int,
    dealer_gp_cents: int,
    site_agp_cents: int,
    site_gp_cents: int,
    table_day_holds: list[Decimal] | None = None,
    spread: HoldSpread | None = None,
) -> Decimal | None:
    """How many standard errors the dealer's hold lies from the site's, given the dealer's
    volume: z = (h_dealer - h_site) / (s / sqrt(n_eff)), where s is the spread of the site's
    table-day holds and n_eff = dealer GP / mean table-day GP. None without enough data.
    `spread`: `hold_spread(table_day_holds)`, when the caller scores many dealers against one site.
    *Assumed* measure; the regulation asks only that hold be tracked per dealer (08-04(8))."""
    spread = hold_spread(table_day_holds or []) if spread is None else spread
    if dealer_gp_cents <= 0 or site_gp_cents <= 0 or spread.count < 2 or spread.variance == 0:
        return None
    mean_table_day_gp = Decimal(site_gp_cents) / spread.count
    n_eff = Decimal(dealer_gp_cents) / mean_table_day_gp
    standard_error = spread.variance.sqrt() / n_eff.sqrt()
    gap = Decimal(dealer_agp_cents) / dealer_gp_cents - Decimal(site_agp_cents) / site_gp_cents
    return (gap / standard_error).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
