"""What the pack modules share: the pack's wager limits (`packs.wagers`) as its
{field: message} and the test of "is this a blackjack (twenty-one) table"."""

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


def money(cents: int) -> str:
    from cardroom.money import format_money

    return format_money(cents)
