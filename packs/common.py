"""What the pack modules share: the pack's wager limits (`packs.wagers`) as its
{field: message}, the test of "is this a blackjack (twenty-one) table" and the numbering of a
site's tables (every pack: cited by the pack that states it, else a house control)."""

from django.core.exceptions import ValidationError


def is_twenty_one(table) -> bool:
    from cardroom.models import Game

    return table.game == Game.TWENTY_ONE


def wager_errors(table) -> dict[str, str]:
    """The site's wager limits (`Pack.wager_limits`, the limits in force)."""
    from .wagers import validate_table_wagers

    try:
        validate_table_wagers(table)
    except ValidationError as error:
        return {name: " ".join(messages) for name, messages in error.message_dict.items()}
    return {}


def choose(table, field: str, value: str) -> str:
    """How a refusal names the setting to choose: the option as the form lists it, and the value
    the API takes (`choose "Identical cards and any two ten-valued cards" (any_pair)`)."""
    label = dict(type(table)._meta.get_field(field).flatchoices)[value]
    return f'choose "{label}" ({value})'


def money(cents: int) -> str:
    from core.money import format_money

    return format_money(cents)


def payout_words(code: str) -> str:
    """A blackjack payout as a handout prints it ("3:2" -> "3 to 2")."""
    return {"3:2": "3 to 2", "6:5": "6 to 5", "2:1": "2 to 1", "1:1": "even money"}[code]


def limits_line(table) -> str:
    """A table's wagers as a handout prints them."""
    return f"Minimum wager {money(table.min_wager_cents)}; maximum wager {money(table.max_wager_cents)}."


def number_errors(table) -> dict[str, str]:
    """Each table of a site has its own number: ND 99-01.3-08-02(1) where the pack states it
    (`table.number`); elsewhere a house control, since every count, slip and recording names
    its table by number."""
    from cardroom.models import Table

    from .base import Rule

    if not (table.site_id and table.number):
        return {}
    if not Table.objects.filter(site_id=table.site_id, number=table.number).exclude(pk=table.pk).exists():
        return {}
    return {"number": f"{Rule('table.number').at(table)}: table number {table.number} is already used at this site."}
