"""Pure figures of a tournament: no ORM, integer cents in and out."""

from dataclasses import dataclass


def fee_within_cap(paid_cents: int, fee_cents: int, cap_cents: int) -> bool:
    """The player's cumulative fee for the whole tournament (entry fee, rebuys and add-ons, net of
    voids) after this fee is at most the pack's cap (`rules.MAX_CUMULATIVE_FEE`; ND 99-01.3-08-15(1)).
    Exact: at a $200.00 cap $200.00 is allowed, $200.01 is not."""
    return paid_cents + fee_cents <= cap_cents


def name_key(name: str) -> str:
    """A player's name folded for comparison: case and runs of spaces do not make a new player."""
    return " ".join(name.split()).casefold()


@dataclass(frozen=True)
class TournamentFigures:
    """One tournament's (or one day's, or one quarter's) fees and prizes.

    gross proceeds           = entry fees + rebuys + add-ons collected (net of voids)
    prizes                   = cash prizes + merchandise prizes at their value (net of voids)
    adjusted gross proceeds  = gross proceeds - prizes   (the record of win, 08-16(1)(f);
                                                          *assumed* reading of 99-01.3-03-08)
    """

    entry_fees_cents: int = 0
    rebuys_cents: int = 0
    add_ons_cents: int = 0
    cash_prizes_cents: int = 0
    merchandise_prizes_cents: int = 0
    entries: int = 0

    @property
    def gross_proceeds_cents(self) -> int:
        return self.entry_fees_cents + self.rebuys_cents + self.add_ons_cents

    @property
    def prizes_cents(self) -> int:
        return self.cash_prizes_cents + self.merchandise_prizes_cents

    @property
    def agp_cents(self) -> int:
        return self.gross_proceeds_cents - self.prizes_cents

    def __add__(self, other: "TournamentFigures") -> "TournamentFigures":
        return TournamentFigures(
            self.entry_fees_cents + other.entry_fees_cents,
            self.rebuys_cents + other.rebuys_cents,
            self.add_ons_cents + other.add_ons_cents,
            self.cash_prizes_cents + other.cash_prizes_cents,
            self.merchandise_prizes_cents + other.merchandise_prizes_cents,
            self.entries + other.entries,
        )

    @property
    def is_empty(self) -> bool:
        return self == TournamentFigures()


NO_TOURNAMENTS = TournamentFigures()


def total(items) -> TournamentFigures:
    result = NO_TOURNAMENTS
    for item in items:
        result = result + item
    return result
