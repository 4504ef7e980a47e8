"""The tables' betting limits at a site taken together (ND 99-01.3-08-09(1)), asked by the setup page.

Where the tables of a site do not all have the same limits, North Dakota has a plaque on top of
each table show its minimum and maximum wager, and a change of a table's limits posted and
announced with adequate notice to a player. Said where the site's pack states it
(`LIMITS_PLAQUE`); nothing elsewhere.
"""

from collections.abc import Iterable
from itertools import groupby

from core.citations import stated
from core.money import format_money

from .models import Game, Table
from .table_rules import game_word

# The pack's rule that tables whose limits differ each carry a plaque with their own, and that a
# change of a table's limits is posted and announced to the players (ND 99-01.3-08-09(1)).
LIMITS_PLAQUE = "table.limits_plaque"


def _limits(table) -> str:
    return f"{format_money(table.min_wager_cents)} to {format_money(table.max_wager_cents)}"


def _cents(table) -> tuple[int, int]:
    return (table.min_wager_cents, table.max_wager_cents)


def _in_play(table) -> bool:
    return bool(table.active and table.game == Game.TWENTY_ONE)


def limits_plaque_notices(tables: Iterable) -> list[str]:
    """For each site of `tables` (their sites loaded) whose pack states it (`LIMITS_PLAQUE`) and
    whose active game-21 tables among them do not all have the same limits: what the law asks,
    each table's limits named. Nothing where all have the same, or where the pack states none."""
    found = sorted(
        (t for t in tables if _in_play(t) and stated(LIMITS_PLAQUE, t.site.jurisdiction)),
        key=lambda t: (t.site.name, t.site_id, t.number),
    )
    notices = []
    for _, same_site in groupby(found, key=lambda t: t.site_id):
        at_site = list(same_site)
        if len({_cents(t) for t in at_site}) < 2:
            continue
        site = at_site[0].site
        named = "; ".join(f"table {t.number} {_limits(t)}" for t in at_site)
        notices.append(
            f"{stated(LIMITS_PLAQUE, site.jurisdiction)}: the {game_word(site.jurisdiction)} tables at {site.name} do not "
            f"all have the same betting limits ({named}): a plaque on top of each table must show its minimum and "
            "maximum wager."
        )
    return notices


def table_warnings(table, stored) -> tuple[list[str], list[str]]:
    """What the site's rules say of `table` as saved over `stored` (its row before the change, None
    for a new table), where its pack states it (`LIMITS_PLAQUE`, ND 99-01.3-08-09(1)), as (every
    warning, those of them said of the site): a change of its limits is posted and announced at the
    table with adequate notice to a player; and where the save put the table in play or changed its
    limits and the site's tables in play now differ, the site's plaque notice
    (`limits_plaque_notices`, which the tables' page also shows). Nothing is refused; empty where
    there is nothing to say."""
    citation = stated(LIMITS_PLAQUE, table.site.jurisdiction)
    if citation is None or not _in_play(table):
        return [], []
    warnings, of_site = [], []
    if stored is not None and _in_play(stored) and _cents(stored) != _cents(table):
        warnings.append(
            f"{citation}: table {table.number}'s limits are now {_limits(table)} (were {_limits(stored)}): post and "
            "announce the change at the table with adequate notice to the players."
        )
    if stored is None or not _in_play(stored) or _cents(stored) != _cents(table):
        of_site = limits_plaque_notices(Table.objects.filter(site_id=table.site_id).select_related("site"))
    return warnings + of_site, of_site
