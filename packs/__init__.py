"""Jurisdiction packs: one folder per jurisdiction's law, chosen per site (`Site.jurisdiction`).

The public face of the packs; see `packs.base` for what a pack holds and `packs.registry` for
the list. Code outside this app asks a site's pack and never names a jurisdiction:

    from packs import Rule, pack_for
    SLIP_NUMBERING = Rule("floor.slip_numbering")
    f"{SLIP_NUMBERING.at(site)}: ..."          # "ND 99-01.3-08-05(2)" or "House control"
    if TIPS_BEFORE_LEAVING.applies(site): ...   # an obligation only where the law states it
"""

from collections.abc import Callable

from django.core.exceptions import ValidationError

from core.hooks import TABLE_CHECKS

from . import registry  # noqa: F401  (fills the table of packs, `packs.base.PACKS`)
from .base import (
    HOUSE_CONTROL,
    GameNames,
    Limit,
    LimitKey,
    Pack,
    RevenueModel,
    RevenueWords,
    Rule,
    TaxBracket,
    WagerLimits,
    all_packs,
    get_pack,
    pack_of,
)

__all__ = [
    "HOUSE_CONTROL",
    "GameNames",
    "Limit",
    "LimitKey",
    "Pack",
    "RevenueModel",
    "RevenueWords",
    "Rule",
    "TaxBracket",
    "WagerLimits",
    "all_packs",
    "get_pack",
    "pack_for",
    "pack_of",
    "packs_of",
    "game_label",
    "game_name",
    "game_names",
    "games_dealt",
    "register_table_check",
    "revenue_words",
    "validate_table",
]


def register_table_check(check: Callable[[object], dict[str, str]]) -> Callable:
    """Upper layers register checks (WA internal controls and game approvals: `approvals.apps`),
    each taking a Table and returning {field: message} (the `table_checks` hook, `core.hooks`)."""
    TABLE_CHECKS.register(check)
    return check


def pack_for(site) -> Pack:
    """The pack of a site (or of a jurisdiction code)."""
    return pack_of(site)


def revenue_words(site) -> RevenueWords:
    """What the pack of `site` (a Site or a jurisdiction code) calls a table's figures; the
    trade's words (drop, win) where none is given."""
    return pack_of(site).revenue_words if site else RevenueWords()


def packs_of(sites) -> list[Pack]:
    """The packs of some sites, each once, in the registry's order (menus and lists)."""
    codes = {s if isinstance(s, str) else s.jurisdiction for s in sites}
    return [p for p in all_packs() if p.code in codes]


def game_names(where) -> GameNames:
    """What the pack of `where` (a Site, a Table, a jurisdiction code or a Pack) calls its games;
    the trade's words (blackjack) where no site is known."""
    return pack_of(where).game_names if where else GameNames()


def game_name(where, code: str) -> str:
    """A game's name in a sentence at `where`: "twenty-one" (ND), "blackjack" (WA), "Black Jack"
    (NY), "paddlewheel" (the code itself if unknown)."""
    return game_names(where).word(code)


def game_label(where, code: str) -> str:
    """A game's name as a label at `where`: "Twenty-one", "Blackjack", "Black Jack", "Paddlewheel"."""
    return game_names(where).label(code)


def games_dealt(pack: Pack) -> str:
    """What the tables of `pack`'s sites deal, in a sentence: "twenty-one, paddlewheel"."""
    return ", ".join(game_name(pack, code) for code in pack.games)


def validate_table(table) -> None:
    """Refuse a table its site's pack does not allow, naming each field and its rule."""
    from cardroom.models import Table
    from cardroom.table_rules import special_events_absent

    from .common import number_errors

    errors = number_errors(table)
    pack = pack_for(table.site)
    if table.game not in pack.games:
        errors["game"] = (
            f"{pack.cite('table.game')}: {game_name(pack, table.game)} is not a game of "
            f"{pack.name} ({table.site}); its tables deal {games_dealt(pack)}."
        )
    if table.location == Table.Location.SPECIAL_EVENT and special_events_absent(table.site):
        errors["location"] = special_events_absent(table.site)
    for name, message in pack.table_rules(table).items():
        errors.setdefault(name, message)
    for check in TABLE_CHECKS.answers():
        for name, message in check(table).items():
            errors.setdefault(name, message)
    if errors:
        raise ValidationError(errors)
