"""Washington blackjack (player-banked). (Skeleton: the table rules are filled in by the pack's implementation.)"""

from django.core.exceptions import ValidationError

from . import Pack, RevenueModel


def table_rules(table) -> dict[str, str]:
    from ..wagers import validate_table_wagers

    try:
        validate_table_wagers(table)
    except ValidationError as error:
        return {name: " ".join(messages) for name, messages in error.message_dict.items()}
    return {}


PACK = Pack(
    code="WA-BJ", name="Washington blackjack (player-banked)", state="WA", revenue_model=RevenueModel.FEES,
    table_rules=table_rules, house_banked=False,
)
