"""The "active table" of a pack's low-minimum rule, as the text defines it, and the rule at play.

North Dakota 99-01.3-08-09(1): "The organization may establish a minimum wager at not more than
three dollars on one active table. If there is more than one active table at a site, the
organization may set a higher minimum wager on additional tables. An active table under this
subsection means a table in which a dealer and chips are present and available for play or has
one or more players participating in the game."

So a table is *active* by what is at it, not by its configuration flag (`Table.active`, which only
says the table is in service): here, a twenty-one table of the site's open gaming day with its
chips (its opener counted, no closer yet) and a dealer seated (a dealer shift running). The
product records no players, so "one or more players participating" is read as the same moment of
play: players sit only at a table with a dealer and chips (*assumed*).

The rule then reads: a table whose minimum is above the ceiling (the pack's
`WagerLimits.low_minimum_ceiling_cents`, $3 in North Dakota) may be active only while another
active table of the site has a minimum at or below it. It is checked when a table becomes active
(a dealer is seated: `dealer_shifts.start_dealer_shift`) and when the minimum of a table in play is
raised (a registered table check, `low_minimum_errors`); the closer of the last low table while a
higher one stays active is said at once (`low_table_left`), since a table cannot be kept open. A
pack without a ceiling has no such rule.

Beside it the pit board says which tables are open with no dealer stationed at them (opener
counted, no closer, no shift running): North Dakota has the tray removed or secured with a locking
cover (08-03(4)) and the cards and the shoe removed or securely covered (08-07(1), (2))
(`unstaffed_standing`, from the rows the board already reads), and which open twenty-one tables
have no inspection of their dealing shoe (08-07(2)) or approval of their decks (08-07(1)) recorded
in the open day (`unchecked_standing`, from the card checks the board reads with its rows).
"""

from datetime import datetime

from django.db.models import QuerySet
from django.utils import timezone

from cardroom.models import Game, Table
from core.money import format_money
from packs import pack_for

from .models import GamingDay, TableInventory
from .queries import open_gaming_day, shifts_running
from .rules import CARD_CHECK_RULES, UNSTAFFED_TABLE


def active_tables(day: GamingDay, at: datetime) -> QuerySet[Table]:
    """The site's twenty-one tables with a dealer and chips present at `at` in its gaming day `day`
    (ND 99-01.3-08-09(1)): opener counted, no closer, a dealer shift running."""
    counted = TableInventory.objects.filter(gaming_day=day)
    return (
        Table.objects.filter(site_id=day.site_id, game=Game.TWENTY_ONE)
        .filter(pk__in=shifts_running(at).filter(gaming_day=day).values("table_id"))
        .filter(pk__in=counted.filter(kind=TableInventory.Kind.OPENER).values("table_id"))
        .exclude(pk__in=counted.filter(kind=TableInventory.Kind.CLOSER).values("table_id"))
    )


def low_minimum_refusal(table: Table, day: GamingDay, at: datetime, minimum_cents: int | None = None) -> str | None:
    """Why `table` (with `minimum_cents`, else its own minimum) may not be active at `at`: its
    minimum is above the pack's ceiling and no other active table of the site is at or below
    it; None where the pack has no such rule or the table keeps it."""
    if table.game != Game.TWENTY_ONE:
        return None
    limits, ceiling = _ceiling(table.site, day)
    minimum = table.min_wager_cents if minimum_cents is None else minimum_cents
    if ceiling is None or minimum is None or minimum <= ceiling:
        return None
    if active_tables(day, at).exclude(pk=table.pk).filter(min_wager_cents__lte=ceiling).exists():
        return None
    return (
        f"{limits.citation}: {table}'s minimum wager of {format_money(minimum)} is above {format_money(ceiling)}, "
        f"allowed only while another active table at {table.site} (a dealer and chips present and available for "
        f"play) has a minimum of {format_money(ceiling)} or less; seat a dealer at such a table first."
    )


def low_minimum_errors(table: Table) -> dict[str, str]:
    """A registered table check (`packs.register_table_check`): a table in play now (a dealer
    and chips present) cannot have its minimum raised above the ceiling while no other active
    table of the site is at or below it. A table not in play is judged when a dealer is seated."""
    if table.pk is None or table.site_id is None or not table.active:
        return {}
    day = open_gaming_day(table.site)
    now = timezone.now()
    if day is None or not active_tables(day, now).filter(pk=table.pk).exists():
        return {}
    refusal = low_minimum_refusal(table, day, now)
    return {"min_wager_cents": refusal} if refusal else {}


def low_table_left(table: Table, day: GamingDay, at: datetime, *, closed: bool = True) -> str | None:
    """What `table`'s leaving play at `at` (its closer, or with `closed` False its dealer relieved
    with no one seated after) leaves at its site, said at once: where `table` had a minimum at or
    below the pack's ceiling and, without it, a table with a higher minimum is still active with no
    active table at or below the ceiling beside it, the higher tables and what keeps the rule; None
    otherwise, and where the pack has no such rule. The night's checks flag both too (compliance's
    `low_table_closed`, after its grace)."""
    if table.game != Game.TWENTY_ONE:
        return None
    limits, ceiling = _ceiling(table.site, day)
    if ceiling is None or table.min_wager_cents > ceiling:
        return None
    active = list(active_tables(day, at).order_by("number"))
    if any(t.pk == table.pk for t in active):
        return None  # still in play: another dealer seated
    higher = _alone_above(active, ceiling)
    if not higher:
        return None
    still, limit, one = _named(higher), format_money(ceiling), len(higher) == 1
    left = "is closed" if closed else "has no dealer now"
    return (
        f"{limits.citation}: table {table.number} (minimum {format_money(table.min_wager_cents)}) {left} while "
        f"{still} {'stays' if one else 'stay'} active, and a higher minimum is allowed only beside an active table "
        f"(a dealer and chips present) at {limit} or less. "
        + (
            f"Close {'it' if one else 'them'} or seat a dealer at a table of {limit} or less now"
            if closed
            else f"Seat a dealer at a table of {limit} or less, or close {'it' if one else 'them'}, now"
        )
        + "; the night's checks flag it otherwise."
    )


def low_minimum_standing(board) -> str | None:
    """What the pit board says of the rule now (a `queries.PitBoard`, no query more): where tables
    with a minimum above the pack's ceiling are active (chips counted, no closer, a dealer seated)
    and no active twenty-one table is at or below it, the tables and what keeps the rule; shown
    while it stands, whoever's step left it so (a closer, a relief) and whatever answered it."""
    if board.day is None:
        return None
    limits, ceiling = _ceiling(board.site, board.day)
    if ceiling is None:
        return None
    active = [
        r.table for r in board.rows if r.state == "open" and r.shift is not None and r.table.game == Game.TWENTY_ONE
    ]
    higher = _alone_above(active, ceiling)
    if not higher:
        return None
    tables, limit, one = _named(higher), format_money(ceiling), len(higher) == 1
    return (
        f"{limits.citation}: {tables} {'is' if one else 'are'} active with no active table at {limit} or less beside "
        f"{'it' if one else 'them'}; a higher minimum is allowed only beside one (a dealer and chips present). Seat a "
        f"dealer at a table of {limit} or less, or close {'it' if one else 'them'}."
    )


def _ceiling(site, day: GamingDay):
    """The pack's wager limits on the day and their low-minimum ceiling (None: no such rule)."""
    limits = pack_for(site).wager_limits_on(day.gaming_date)
    return limits, limits.low_minimum_ceiling_cents if limits is not None else None


def _alone_above(active: list[Table], ceiling: int) -> list[Table]:
    """The active tables above the ceiling when no active table is at or below it; else none."""
    higher = [t for t in active if t.min_wager_cents > ceiling]
    return higher if len(higher) == len(active) else []


def _named(tables: list[Table]) -> str:
    return ", ".join(f"table {t.number} (minimum {format_money(t.min_wager_cents)})" for t in tables)


def unstaffed_standing(board) -> str | None:
    """What the pit board says of the open twenty-one tables with no dealer stationed at them (a
    `queries.PitBoard`, no query more): where the site's pack states it (`UNSTAFFED_TABLE`), the
    tables and what is done with their trays, cards and shoes until a dealer is seated or the
    closer counted. Shown while it stands."""
    if board.day is None or not UNSTAFFED_TABLE.applies(board.site):
        return None
    open_alone = [
        r.table.number for r in board.rows if r.state == "open" and r.shift is None and r.table.game == Game.TWENTY_ONE
    ]
    if not open_alone:
        return None
    one = len(open_alone) == 1
    return (
        f"{UNSTAFFED_TABLE.at(board.site)}: {_tables_are(open_alone)} open with no dealer stationed: remove the chip "
        f"tray{'' if one else 's'} or secure {'it' if one else 'them'} with a locking cover, and remove the cards and "
        "the shoe or securely cover them (the cards in the discard holder or the shoe), until a dealer is seated or "
        "the closer is counted."
    )


def unchecked_standing(board) -> list[str]:
    """What the pit board says of the open twenty-one tables whose cards are not checked in the open
    day (a `queries.PitBoard`, no query more: its rows carry their checks), where the site's pack
    states the checks (`CARD_CHECK_RULES`): the tables whose dealing shoe no one inspected
    (ND 99-01.3-08-07(2)), and those whose decks no dealer approved (08-07(1)). Shown while it
    stands; the night's checks flag a closed day's tables left so (compliance's card checks)."""
    if board.day is None:
        return []
    said = []
    for kind, rule in CARD_CHECK_RULES.items():
        if not rule.applies(board.site):
            continue
        tables = [r.table.number for r in board.rows if r.needs_card_checks and kind not in r.checks]
        if tables:
            said.append(f"{rule.at(board.site)}: {_tables_are(tables)} {UNCHECKED[kind]}")
    return said


UNCHECKED = {
    "shoe_inspected": "open with no inspection of the dealing shoe recorded today: a dealer or shift manager "
    "inspects each dealing shoe before the day's activity.",
    "decks_approved": "open with no approval of the decks recorded today: a dealer approves all decks when the "
    "cards are brought to the table, and again when they are brought back.",
}


def _tables_are(numbers: list[int]) -> str:
    if len(numbers) == 1:
        return f"Table {numbers[0]} is"
    return f"Tables {', '.join(map(str, numbers))} are"
