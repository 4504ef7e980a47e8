"""The table check registered with packs: a Washington house-banked table uses only
options its internal controls in effect document, and meets the conditions of the game
approval it offers. Returns {field: message}; Table.clean raises them as one ValidationError."""

from cardroom.models import Game, Table

from . import rules
from .queries import controls_in_effect, current_link


def _label(field: str, value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value == "":
        return "none"
    choices = dict(Table._meta.get_field(field).choices or ())
    return str(choices.get(value, value))


def labels(field: str, values) -> str:
    return ", ".join(_label(field, v) for v in values) or "nothing"


def check_table(table) -> dict[str, str]:
    if table.site.jurisdiction not in rules.CONTROLLED_JURISDICTIONS or table.game != Game.TWENTY_ONE:
        return {}
    link = current_link(table.pk)
    approval = link.approval if link else None
    errors = {}
    if approval is not None:
        errors.update(approval_errors(table, link))
    controls = controls_in_effect(table.site, approval)
    if controls is None:
        if approval is not None and approval.internal_controls_required:
            errors.setdefault("game_approval", missing_controls_message(approval))
        return errors
    for name, message in controls_errors(table, controls).items():
        errors.setdefault(name, message)
    return errors


def missing_controls_message(approval) -> str:
    return (
        f"{approval.game_name} ({approval.reference}): commercial card room operators must first submit their "
        "internal controls and receive approval from the Commission prior to implementing; record the site's "
        "internal controls for this game, in effect today, first."
    )


def controls_errors(table, controls) -> dict[str, str]:
    """Each documented option whose value the controls in effect do not list."""
    errors = {}
    for option in rules.DOCUMENTED_OPTIONS:
        value, allowed = getattr(table, option.field), getattr(controls, option.field)
        if value not in allowed:
            errors[option.field] = (
                f"{option.citation}: {option.note}. The internal controls in effect at {table.site} for "
                f"{controls.game} (version {controls.version}, effective {controls.effective_on.isoformat()}) "
                f"document {option.label}: {labels(option.field, allowed)}; not {_label(option.field, value)}."
            )
    return errors


def approval_errors(table, link) -> dict[str, str]:
    """Each setting the approval fixes that the table breaks, and its pay tables and shuffler."""
    approval = link.approval
    cite = f"{approval.game_name} ({approval.reference})"
    new_approval = "changing it needs a new approval: link the table to an approval that permits it."
    errors = {}
    if table.site.jurisdiction != approval.jurisdiction:
        errors["game_approval"] = f"{cite}: the approval is for {approval.get_jurisdiction_display()} tables."
    for field, allowed in approval.conditions.items():
        value = getattr(table, field)
        if value not in allowed:
            errors[field] = (
                f"{cite}: the approval's conditions permit {field.replace('_', ' ')}: {labels(field, allowed)}; "
                f"this table has {_label(field, value)}; {new_approval}"
            )
    pay_table = link.blackjack_pay_table
    if pay_table is not None and pay_table.natural_payout and table.blackjack_payout != pay_table.natural_payout:
        errors["blackjack_payout"] = (
            f"{cite}: blackjack pay table {pay_table.code} pays an unsuited blackjack "
            f"{_label('blackjack_payout', pay_table.natural_payout)}; this table posts "
            f"{_label('blackjack_payout', table.blackjack_payout)}; {new_approval}"
        )
    if approval.shuffler_must_be_approved and table.dealt_from == Table.DealtFrom.SHUFFLER and not link.shuffler_model:
        errors["dealt_from"] = (
            f"{cite}: an automatic shuffle machine used with this game must be a WSGC approved model; "
            "name the approved model on the table's game link."
        )
    return errors
