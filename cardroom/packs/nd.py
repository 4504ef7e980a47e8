"""North Dakota: chapter 99-01.3-08, charitable twenty-one (the primary specification)."""

from django.core.exceptions import ValidationError

from . import Pack, RevenueModel


def table_rules(table) -> dict[str, str]:
    from ..wagers import validate_table_wagers  # ND 99-01.3-08-09(1)

    try:
        validate_table_wagers(table)
    except ValidationError as error:
        return {name: " ".join(messages) for name, messages in error.message_dict.items()}
    return {}


PACK = Pack(code="ND", name="North Dakota", state="ND", revenue_model=RevenueModel.DROP, table_rules=table_rules)
