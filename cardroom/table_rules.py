"""A table's jurisdiction rules, asked from below.

The law a table must follow (wager limits, decks, options) is its site's pack's (`packs`, the
layer above): `Table.clean` asks here and the packs register the answer when their app loads.
Until they do, every table is refused: no table is saved unjudged (`core.hooks`).

Which settings a table has at all is the pack's too (`Pack.table_options`): the table form, the
admin and the API show a site's table only with its pack's fields, and a value for another
pack's option is refused, naming the field (`option_errors`).
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from core.citations import cite, stated
from core.hooks import (
    DOCUMENTED_TABLE_VALUES,
    FIXED_TABLE_OPTIONS,
    LICENSED_TABLE_VALUES,
    TABLE_DEFAULTS,
    TABLE_GAMES,
    TABLE_OPTIONS,
    TABLE_RULES,
)
from core.rules import HOUSE_CONTROL


def register_table_rules(validate: Callable[[object], None]) -> None:
    TABLE_RULES.register(validate)


def register_table_options(fields: Callable[[str], tuple[str, ...]]) -> None:
    TABLE_OPTIONS.register(fields)


def register_table_defaults(defaults: Callable[[str, dict], dict[str, object]]) -> None:
    TABLE_DEFAULTS.register(defaults)


def register_table_games(games: Callable[[str], list[tuple[str, str]]]) -> None:
    TABLE_GAMES.register(games)


def register_fixed_table_options(fixed: Callable[[str], dict[str, str | tuple[str, ...]]]) -> None:
    FIXED_TABLE_OPTIONS.register(fixed)


def register_documented_table_values(documented: Callable[[object], dict]) -> None:
    DOCUMENTED_TABLE_VALUES.register(documented)


def table_games(jurisdiction: str) -> list[tuple[str, str]]:
    """(Game code, the pack's name for it) of each game a site of the jurisdiction's pack deals:
    "Twenty-one" at a North Dakota site, "Blackjack" in Washington, "Black Jack" in New York."""
    return TABLE_GAMES(jurisdiction)


def game_label(jurisdiction: str, code: str) -> str | None:
    """The name the jurisdiction's pack gives the game `code` ("Blackjack"); None for a game its
    sites do not deal."""
    return dict(table_games(jurisdiction)).get(code)


# The pack's rule that a discontinued game's chips are redeemed for thirty days after (ND 99-01.3-08-06(2),
# cage.rules' key): where it is stated, a site records the day game 21 was discontinued.
DISCONTINUED_REDEMPTION = "cage.discontinued_redemption"


# The pack's rule of special events (surveillance.rules.SPECIAL_EVENT, ND 99-01.3-08-04), asked here
# by key, surveillance being above: a temporary special-event table is a location only where the
# site's pack states special events; elsewhere every table is regularly located.
SPECIAL_EVENTS = "surveillance.special_event"


def special_events_absent(site) -> str:
    """Why a table at `site` cannot be a temporary special-event table, cited, naming the field;
    "" where the site's pack states special events (`SPECIAL_EVENTS`)."""
    if stated(SPECIAL_EVENTS, site.jurisdiction):
        return ""
    return (
        f"{HOUSE_CONTROL}: {site.get_jurisdiction_display()} rules state no special events, so a table at {site} is "
        'regularly located; "location" cannot be a temporary special-event table.'
    )


def game_word(jurisdiction: str) -> str:
    """Game 21 in a sentence at a site of the jurisdiction: "twenty-one", "blackjack", New York's
    "Black Jack" (its two words kept as the pack spells them)."""
    name = game_label(jurisdiction, "21") or "the game"
    return name if " " in name else name.lower()


# The pack's rule that forms reference a game by its code, "21" or "PW" (floor.rules.SLIP_GAME_REFERENCE,
# ND 99-01.3-08-05(3)(a)): asked here by key, the floor being above.
GAME_REFERENCE = "floor.slip_game_reference"


def table_label(jurisdiction: str, code: str, number: int) -> str:
    """A table in a list at a site of the jurisdiction: its game's code and number where the pack
    asks forms to reference the game so, "21 #1" (ND 99-01.3-08-05(3)(a)); elsewhere the pack's
    name of the game, "Blackjack #1" (floor.rules.game_column, a Game column's words)."""
    if stated(GAME_REFERENCE, jurisdiction):
        return f"{code} #{number}"
    return f"{game_label(jurisdiction, code) or code} #{number}"


def validate_table(table) -> None:
    """Raise ValidationError naming each field the table's pack refuses."""
    TABLE_RULES(table)


def fixed_table_options(jurisdiction: str) -> dict[str, str | tuple[str, ...]]:
    """{option: value, or the values allowed} of the table options the jurisdiction's pack fixes
    (Washington blackjack's player dealer/banker and shoe, WAC 230-40-125(2); its doubling on the
    first two cards, (14)): the table form offers no other, a choice always refused."""
    return FIXED_TABLE_OPTIONS(jurisdiction)


class Required(str):
    """A pack's answer for an option a new table must be given, its text setting no single value
    for it (New York's decks, one to four: 9 NYCRR 4620.5(a)(2)): the refusal's words, cited."""


def table_defaults(jurisdiction: str, given: dict) -> tuple[dict[str, object], dict[str, str]]:
    """(values, missing) for a new table at a site of the jurisdiction: the values of the pack's
    options it was not given, where its text fixes one (New York's doubling on 10 or 11 only,
    4620.5(l)(1)), and {option: refusal} of those the pack requires with no single value (`Required`).
    The model's defaults are no pack's law."""
    answer = TABLE_DEFAULTS(jurisdiction, given)
    values = {name: value for name, value in answer.items() if not isinstance(value, Required)}
    missing = {name: str(value) for name, value in answer.items() if isinstance(value, Required)}
    return values, missing


@dataclass(frozen=True)
class LicensedOption:
    """A table option the organization's licence sets for every table under it, where the site's
    law puts it on the licence (New York's tie option, 9 NYCRR 4620.5(h)): the value the licence
    in force reflects (None where none is in force) and what a table form says of it, cited."""

    value: object
    note: str


def licensed_options(site) -> dict[str, LicensedOption]:
    """{option: LicensedOption} of the options the site's law puts on the organization's licence,
    whether or not one is in force; {} where its law puts none there. A table form shows each as
    the licence sets it, read-only, with its note: no table chooses its own."""
    return LICENSED_TABLE_VALUES(site)


def licensed_values(site) -> dict[str, object]:
    """The options the organization's licence in force at `site` sets for every table under it
    (New York's tie option, 9 NYCRR 4620.5(h): "The license shall reflect one of the following
    options"): a new table not given them takes them, so its other defaults follow (the natural's
    payout, (h)(2)). {} where no licence is in force or the site's law puts no option on it."""
    return {name: option.value for name, option in licensed_options(site).items() if option.value is not None}


@dataclass(frozen=True)
class DocumentedValues:
    """The values of a table option the internal controls in effect at its site document, where
    its law asks the card room to document them (the WSGC house-banked rules): the values a table
    may be set to, and what a table form says of them, cited as the refusal cites them."""

    values: tuple
    note: str


def documented_values(table) -> dict[str, DocumentedValues]:
    """{option: DocumentedValues} of the options the internal controls in effect at `table`'s site
    for its game document; {} where its law asks for none or none are in effect. A table form
    offers those values alone (with the table's own), no choice the table check would refuse."""
    return DOCUMENTED_TABLE_VALUES(table)


def table_fields(jurisdiction: str) -> tuple[str, ...]:
    """The Table fields a site of the jurisdiction's pack sets: the common ones, then its options."""
    return TABLE_OPTIONS(jurisdiction)


def option_errors(site, names: Iterable[str]) -> dict[str, str]:
    """{field: refusal} for each of `names` that is not a table field of `site`'s pack: another
    pack's option (New York's tie option at a North Dakota site...). The refusal cites what the
    site's pack says of the setting (`table.<field>`), else the house control that a table has
    only its own rules' settings."""
    allowed = set(table_fields(site.jurisdiction))
    return {
        name: (
            f'{cite(f"table.{name}", site.jurisdiction)}: "{name}" is not a table option at {site} '
            f"({site.get_jurisdiction_display()} rules); leave it out."
        )
        for name in names
        if name not in allowed
    }
