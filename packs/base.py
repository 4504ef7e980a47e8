"""What a jurisdiction pack is, and how the rest of the product asks it.

A pack holds one jurisdiction's law: the citation of each rule it has (keyed by a rule key
that the pack-neutral code names, `Rule("floor.slip_numbering")`), its table rules and wager
limits, its revenue model, its report kinds. Code below and above asks the site's pack; no
code outside `packs/` names a jurisdiction.

A rule the pack's law does not state is cited "House control" where the product keeps it as
its own control, or not applied at all where it is an obligation of another state's law (a
tax, a filing, an alert): `Rule.at(site)` and `Rule.applies(site)`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from types import MappingProxyType

from django.core.exceptions import ValidationError
from django.utils.text import capfirst

from cardroom.chip_rules import ChipLaw
from core.rules import HOUSE_CONTROL  # what a rule the pack's law does not state is cited


class RevenueModel:
    DROP = "drop"  # drop, fills, credits, win and hold (ND, WA house-banked)
    FEES = "fees"  # time-based fees collected at the table (WA blackjack, player-banked)
    SESSION = "session"  # a licensed games-of-chance session's receipts and prizes (NY)


def _key(word: str) -> str:
    """A figure's word as a key of cents: "gross proceeds" -> "gross_proceeds_cents"."""
    return "_".join(word.lower().replace("-", " ").split()) + "_cents"


@dataclass(frozen=True)
class RevenueWords:
    """What a drop-based pack calls a table's figures; the formulas are the same everywhere
    (docs/domain.md section 3): the drop; what the tray paid out net (fills - credits + opener -
    closer); the drop less that (the win); hold is the win over the drop. North Dakota's texts
    name them gross proceeds, prizes, adjusted gross proceeds and percent-of-hold
    (`packs.nd.accounting.WORDS`); a pack whose texts name none speaks the trade's words, these
    defaults."""

    gross: str = "drop"  # the drop box cash
    gross_short: str = "drop"
    paid: str = "paid out"  # fills - credits + opener - closer
    net: str = "win"  # gross - paid
    net_short: str = "win"
    hold_name: str = "hold"  # net / gross, named as a word ("a dealer's hold")

    @property
    def gross_column(self) -> bool:
        """Is the drop named otherwise too (gross proceeds), so that a table of the figures has a
        column of that name beside the drop's? (The same figure: "drop" twice is left out.)"""
        return self.gross_short != "drop"

    @property
    def stored_names(self) -> dict[str, str]:
        """The keys a table's figures are stored under (the records' own, North Dakota's names:
        `gross_proceeds_cents`, `prizes_cents`, `agp_cents`), each in the pack's words, for a page
        or a comparison that names a stored figure (the books' differences, the audit log)."""
        return {"gross_proceeds_cents": self.gross, "prizes_cents": self.paid, "agp_cents": self.net_short}

    @property
    def gross_key(self) -> str:
        """The drop's key in the site's data ("drop_cents"; North Dakota's "gross_proceeds_cents"):
        a client reads a pack's figures under its own names, never another pack's."""
        return _key(self.gross)

    @property
    def net_key(self) -> str:
        """The win's key in the site's data ("win_cents"; North Dakota's "agp_cents")."""
        return _key(self.net_short)

    @property
    def drop_label(self) -> str:
        """The drop's row: "Drop", or "Drop (gross proceeds)" where the law names it otherwise."""
        return "Drop" if self.gross == "drop" else f"Drop ({self.gross})"

    @property
    def net_label(self) -> str:
        """The win's row: "Win", or "Adjusted gross proceeds (AGP)" where the law names it otherwise."""
        return capfirst(self.net) if self.net_short == self.net else f"{capfirst(self.net)} ({self.net_short})"

    @property
    def paid_label(self) -> str:
        """The tray's net payout's row: "Paid out", or "Prizes"."""
        return capfirst(self.paid)

    @property
    def hold_label(self) -> str:
        """The ratio's heading or title: "Hold", or "Percent-of-hold"."""
        return capfirst(self.hold_name)

    @property
    def hold(self) -> str:
        """What hold is the ratio of: "win / drop", or "AGP / GP"."""
        return f"{self.net_short} / {self.gross_short}"

    @property
    def formula(self) -> str:
        """The figures' formulas in these words, as a page states them above the figures."""
        parts = [f"{self.gross_short} = drop"] if self.gross_column else []
        parts += [
            f"{self.paid} = fills − credits + opener − closer",
            f"{self.net_short} = {self.gross_short} − {self.paid}",
            f"hold = {self.hold}",
        ]
        return "; ".join(parts) + "."


@dataclass(frozen=True)
class GameNames:
    """What a pack's texts call the games its tables deal (`cardroom.models.Game` codes: "21",
    "PW"), as a label ("Blackjack": a row, a column, a choice) and in a sentence ("blackjack").
    The code stays the API's value everywhere. North Dakota's text calls game 21 twenty-one
    (`packs.nd.tables.GAMES`), New York's Black Jack (`packs.ny.tables.GAMES`); Washington's texts
    say blackjack, the trade's word, these defaults."""

    twenty_one: str = "Blackjack"
    twenty_one_word: str = "blackjack"
    paddlewheel: str = "Paddlewheel"
    paddlewheel_word: str = "paddlewheel"

    def label(self, code: str) -> str:
        """The game's name as a label ("Blackjack", "Paddlewheel"); the code itself if unknown."""
        return {"21": self.twenty_one, "PW": self.paddlewheel}.get(code, code)

    def word(self, code: str) -> str:
        """The game's name in a sentence ("blackjack", "paddlewheel"); the code itself if unknown."""
        return {"21": self.twenty_one_word, "PW": self.paddlewheel_word}.get(code, code)

    def choices(self, codes) -> list[tuple[str, str]]:
        """(code, label) of each of `codes`: a form's choices."""
        return [(code, self.label(code)) for code in codes]


@dataclass(frozen=True)
class WagerLimits:
    """A pack's table wager limits, in force from `effective_from` (None: from the beginning)."""

    citation: str
    min_cents: int
    max_cents: int | None  # None: the jurisdiction's rules set no maximum
    step_cents: int  # every limit must be a multiple of this
    # At most one table may be the "low" table: a minimum above this is allowed only
    # when another active table at the site has a minimum at or below it.
    low_minimum_ceiling_cents: int | None = None
    effective_from: date | None = None


@dataclass(frozen=True)
class TaxBracket:
    """A bracket of a pack's gaming tax on quarterly AGP, in force from `effective_from`: from
    `lower_cents` up, `base_cents` plus `rate` of the excess; `citation` is the statute's."""

    effective_from: date
    lower_cents: int
    rate: Decimal
    base_cents: int
    citation: str


@dataclass(frozen=True)
class EmployeeIdentifier:
    """The number a state issues a gaming employee (a dealer's licence or registration), in its
    law's words (`label`) and where its law requires it (`citation`): the key of the registry's
    cross-organization dealer view (a dealer is the same person at every licensee)."""

    label: str
    citation: str


@dataclass(frozen=True)
class Limit:
    """A number of a pack's law (a deadline, a cap, a count), in force from `effective_from` (None:
    from the beginning): `value` (a timedelta, cents, a count), how it reads in a refusal or on a
    page (`text`), and the section that sets it (`citation`). A later amendment is another Limit of
    the same key with a later date (`Pack.limit_on`)."""

    key: str
    value: object
    text: str
    citation: str
    effective_from: date | None = None


Line = tuple[str, str]  # (the rule's words as posted, its citation)


@dataclass(frozen=True)
class HandoutSection:
    """One part of a table's rules on the handout ("House rules", "Player rules"; "" for none):
    each line generated from the table's record (`lines(table)`) so the two cannot disagree."""

    title: str
    lines: Callable[[object], list[Line]]


@dataclass(frozen=True)
class Handout:
    """The house and player rules a pack's law has posted or handed to players, one report kind
    (`reports.kinds.house_rules` draws it; the words and citations are all the pack's)."""

    kind: str  # the report kind's code
    title: str  # the report's title
    rule: str  # the citation of the rule that has the handout posted
    sections: tuple[HandoutSection, ...]
    heading: str = ""  # printed first
    notice: tuple[Line, ...] = ()  # site-wide lines, before the tables
    closing: tuple[Line, ...] = ()  # (heading, text) after the tables (ND's felony notice)
    # The table's approved game and its doubles are printed (the house's game approvals).
    approved_games: bool = False
    # The CSV and XLSX are each table's options with typed money (True) or each line (False).
    options_table: bool = False


# The Table fields a table has at every pack's site (the form and the API always show them); every
# other field is a table option, shown and accepted only where the site's pack lists it
# (`Pack.table_options`, each pack's `tables.TABLE_OPTIONS`).
COMMON_TABLE_FIELDS = ("site", "number", "game", "min_wager_cents", "max_wager_cents", "location", "active")


@dataclass(frozen=True)
class Pack:
    code: str  # Site.jurisdiction value
    name: str
    state: str  # two-letter state
    # The time zone of the state's regulator (its seat): the registry's pages and downloads give
    # times and dates there, and judge a return received late by its calendar, not the server's.
    state_time_zone: str
    revenue_model: str
    # Validates a Table against the pack's rules; returns {field: message} (empty: acceptable).
    table_rules: Callable[[object], dict[str, str]]
    # Rule key -> the citation of the pack's text that states it (`Rule`).
    citations: Mapping[str, str] = field(default_factory=dict)
    # The pack's wager limits, oldest first (the one in force on a date is the last that began by then).
    wager_limits: tuple[WagerLimits, ...] = ()
    # The report kinds (reports.registry keys) the pack offers; None: every kind that applies to
    # its revenue model.
    report_kinds: frozenset[str] | None = None
    # The effective-dated thresholds of the pack's flag rules, seeded into compliance.Threshold:
    # (code, value, unit, citation, summary, effective from). A code is one pack's.
    thresholds: tuple[tuple, ...] = ()
    # The chip values and colours the pack's law prescribes (`cardroom.chip_rules.ChipLaw`), held
    # by every organization with a site of the pack; None: its law prescribes none.
    chips: ChipLaw | None = None
    # The brackets of the gaming tax the pack's law levies on the organization's quarterly AGP
    # (`accounting.gaming_tax`), effective-dated (a later schedule is added with a later date);
    # empty: its law levies none here.
    tax_brackets: tuple[TaxBracket, ...] = ()
    # What the pack's text says of a rule (rule key -> its words, quoted or closely paraphrased),
    # for a refusal to quote after the citation (`Rule.note`).
    notes: Mapping[str, str] = field(default_factory=dict)
    # A quarter's return is due at the state's registry by the last day of the Nth month after
    # the quarter (`Quarter.month_end_after`; registry: late and missing filings); None: the
    # pack's law sets no quarterly return.
    return_due_months: int | None = None
    # The house and player rules handout its law requires (`Handout`); None: its law has none.
    handout: Handout | None = None
    # The Table options a site of the pack sets, beyond `COMMON_TABLE_FIELDS` (its `tables.TABLE_OPTIONS`):
    # the settings its law fixes, or lets the house choose and post. Another pack's option is
    # neither shown nor accepted at its sites.
    table_options: tuple[str, ...] = ()
    # A new table's options not given (the tables API's minimal table): given -> {field: value}
    # where the pack's text fixes the value, or `cardroom.table_rules.Required` (its refusal) for an
    # option it requires and sets no single value for; None: the model's defaults (`new_table_values`).
    table_defaults: Callable[[Mapping], dict[str, object]] | None = None
    # The value the pack's text fixes for a choice among a table's options (Washington blackjack's
    # player dealer/banker and shoe, WAC 230-40-125(2)), or the values it allows (a tuple: its
    # doubling, (14), and its pairs, (17)): its sites' table form offers no other, a choice
    # `table_rules` would always refuse (as it still refuses one posted, citing the text).
    fixed_options: Mapping[str, str | tuple[str, ...]] = field(default_factory=dict)
    # The games its tables deal (cardroom.models.Game codes: "21", "PW" paddlewheel; named in `game_names`): the
    # games its texts describe. Another game is neither offered nor accepted at its sites.
    games: tuple[str, ...] = ("21",)
    # The state-issued identifier of a gaming employee (`EmployeeIdentifier`); None: the pack's
    # texts name none, and `employee_identifier_absent` says so (the registry's dealer view,
    # keyed by it, is then not offered for the pack).
    employee_identifier: EmployeeIdentifier | None = None
    employee_identifier_absent: str = ""
    # What its texts call the drop, the tray's net payout and the win (`RevenueWords`): a drop
    # pack's figures are labelled in them, pages and reports alike.
    revenue_words: RevenueWords = field(default_factory=RevenueWords)
    # What its texts call the games its tables deal (`GameNames`): every page, report, form and
    # message at its sites names game 21 in them ("Twenty-one", "Blackjack", "Black Jack").
    game_names: GameNames = field(default_factory=GameNames)

    def identifier_absent_reason(self) -> str:
        """Why no gaming employee holds a state-issued identifier under this pack (its texts name
        none, `employee_identifier_absent`); "" where they name one."""
        if self.employee_identifier is not None:
            return ""
        return self.employee_identifier_absent or f"{self.name}: the pack names no state-issued employee identifier."

    def dealer_view_absent(self) -> str:
        """Why the registry's cross-organization dealer view (percent-of-hold by the state-issued
        identifier) is not offered for this pack; "" when it is."""
        if self.employee_identifier is None:
            return self.identifier_absent_reason()
        if self.revenue_model != RevenueModel.DROP:
            return (
                f"{self.name}: the house's revenue is not a drop, so a dealer has no {self.revenue_words.hold_name} "
                f"to show by {self.employee_identifier.label} ({self.employee_identifier.citation})."
            )
        return ""

    # The numbers of the pack's law its areas ask for (`Limit`, `LimitKey`): each key's rows oldest
    # first, the one in force on a date the last that began by then.
    limits: tuple[Limit, ...] = ()
    # The numbers and words of the pack's law its table rules read as plain constants (decks,
    # players, spaces, payouts: its `tables.CONSTANTS`), each with the date of the text that states
    # it (None: from before any day the product records), so that the law ledger (`packs.ledger`)
    # holds them to the value in force.
    constants: tuple[Limit, ...] = ()

    def limit_on(self, key: str, on: date | None = None) -> Limit | None:
        """The pack's limit `key` in force on `on` (today when None), or None: its law states none."""
        if on is None:
            from django.utils import timezone

            on = timezone.localdate()
        rows = [x for x in self.limits if x.key == key and (x.effective_from is None or x.effective_from <= on)]
        return rows[-1] if rows else None

    def new_table_values(self, given: Mapping) -> dict[str, object]:
        """The values of this pack's options a new table was not given (`table_defaults`)."""
        if self.table_defaults is None:
            return {}
        return {name: value for name, value in self.table_defaults(given).items() if name not in given}

    def table_fields(self) -> tuple[str, ...]:
        """Every Table field a site of this pack sets: the common ones, then its options."""
        return COMMON_TABLE_FIELDS + self.table_options

    def cites(self, key: str) -> bool:
        """Does this pack's law state the rule `key`?"""
        return key in self.citations

    def cite(self, key: str) -> str:
        """The citation of the rule `key` in this pack's law, or "House control"."""
        return self.citations.get(key, HOUSE_CONTROL)

    def wager_limits_on(self, on: date | None = None) -> WagerLimits | None:
        """The wager limits in force on `on` (today when None): the last that began by then."""
        if on is None:
            from django.utils import timezone

            on = timezone.localdate()
        in_force = [w for w in self.wager_limits if w.effective_from is None or w.effective_from <= on]
        return in_force[-1] if in_force else None


def merged(*parts: Mapping[str, str]) -> Mapping[str, str]:
    """One read-only mapping of a pack's citations from its areas' modules (a key stated twice
    is a mistake)."""
    out: dict[str, str] = {}
    for part in parts:
        twice = out.keys() & part.keys()
        if twice:
            raise ValueError(f"rule keys stated twice: {sorted(twice)}")
        out.update(part)
    return MappingProxyType(out)


def area_citations(tables, *areas) -> Mapping[str, str]:
    """A pack's citations from its modules: the table rules' (`tables.CITATIONS`, keyed
    "table.<key>") and each area's `CITATIONS` (core, floor, counts...), merged."""
    return merged({f"table.{k}": v for k, v in tables.CITATIONS.items()}, *(area.CITATIONS for area in areas))


@dataclass(frozen=True)
class Rule:
    """A rule of the law, named by key; its citation is the site's pack's.

    `f"{SLIP_NUMBERING.at(site)}: ..."` cites the rule as the site's pack states it, or "House
    control" where that pack's law does not state it. A Rule is never formatted without a site:
    `str(rule)` raises, so no message can fall back to one jurisdiction's words.
    """

    key: str

    def at(self, where) -> str:
        """The citation at `where` (a Site, a Table, a jurisdiction code or a Pack)."""
        return pack_of(where).cite(self.key)

    def note(self, where) -> str | None:
        """What the law of `where`'s pack says of this rule (its words), or None."""
        return pack_of(where).notes.get(self.key)

    def applies(self, where) -> bool:
        """Does the law of `where`'s pack state this rule (so that its obligation applies there)?"""
        return pack_of(where).cites(self.key)

    def at_organization(self, organization_id: int) -> str:
        """The citation for a record of the whole organization (its chip inventory, its employees'
        relations): the first pack of its active sites that states the rule, else "House
        control". One query."""
        from cardroom.models import Site

        sites = Site.objects.filter(organization_id=organization_id, active=True)
        for code in sorted(set(sites.values_list("jurisdiction", flat=True))):
            if self.applies(code):
                return self.at(code)
        return HOUSE_CONTROL

    def __str__(self) -> str:
        raise TypeError(f"Rule {self.key!r} is cited at a site: use .at(site)")

    def __format__(self, spec: str) -> str:
        raise TypeError(f"Rule {self.key!r} is cited at a site: use .at(site)")


class LawNotHeld(ValidationError):
    """An act dated before the first text of a limit that the pack holds (`Limit.effective_from`)
    where the product keeps no house control of its own: the law of that day is not held, so the
    act is refused (a 400 in the API), not judged by a later text. (A limit with a house control,
    the cage's deposit days, falls back to it before the pack's first text, as where the pack
    states none.)"""


@dataclass(frozen=True)
class LimitKey:
    """A limit the pack-neutral code asks for by key: `OUTAGE_CALENDAR.on(site, day)` is the site's
    pack's `Limit` in force on the day of the act. `rule` names the obligation it belongs to (whether
    it applies at a site: `rule.applies(site)`). Where the site's pack states none, `house` (a value
    and its words) is the product's own control, cited "House control"; without one, `on` raises
    (the caller asks only where the rule applies)."""

    key: str
    rule: Rule
    house: tuple[object, str] | None = None

    def on(self, where, on: date | None = None) -> Limit:
        pack = pack_of(where)
        found = pack.limit_on(self.key, on)
        if found is not None:
            return found
        stated = [x for x in pack.limits if x.key == self.key]
        if stated and self.house is None:  # the pack's law states it, but from a later day than the act's
            first = stated[0]
            message = (
                f"{first.citation}: the text of this rule held here is in force from {first.effective_from}; "
                f"{on} is before it and the earlier text is not held, so an act of that day cannot be judged: "
                f"give a day from {first.effective_from} on."
            )
            raise LawNotHeld({"non_field_errors": [message]})
        if self.house is None:
            raise LookupError(f"The pack of {where!r} states no limit {self.key!r}")
        return Limit(self.key, self.house[0], self.house[1], HOUSE_CONTROL)


# The packs by jurisdiction code, in the registry's order: filled by `packs.registry` (one line a
# pack) when `packs` loads.
PACKS: dict[str, Pack] = {}


def get_pack(code: str) -> Pack:
    if code not in PACKS:
        raise LookupError(f"No jurisdiction pack {code!r}")
    return PACKS[code]


def all_packs() -> list[Pack]:
    return list(PACKS.values())


def pack_of(where) -> Pack:
    """The pack of a Pack, a jurisdiction code, a Site or anything with a `site` (a Table)."""
    if isinstance(where, Pack):
        return where
    if isinstance(where, str):
        return get_pack(where)
    if hasattr(where, "jurisdiction"):
        return get_pack(where.jurisdiction)
    return get_pack(where.site.jurisdiction)
