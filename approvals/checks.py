"""The table check registered with packs: at a site whose pack's law requires internal
controls (`rules.INTERNAL_CONTROLS`: the WSGC house-banked rules) a table uses only options its
internal controls in effect document (none in effect: only the rules' own play, so the controls
come first), and meets the conditions of the game approval it offers. Returns {field: message};
Table.clean raises them as one ValidationError."""

from cardroom.models import Game, Table
from cardroom.table_rules import DocumentedValues
from core.money import format_money as money
from packs import pack_for

from . import rules
from .models import APPROVED_RULES_WORDS
from .queries import (
    controls_in_effect,
    controls_in_force,
    current_link,
    licence_in_force,
    licence_words,
    no_licence_words,
    site_today,
)


def _label(field: str, value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value == "":
        return "none"
    choices = {**dict(Table._meta.get_field(field).choices or ()), **APPROVED_RULES_WORDS.get(field, {})}
    return str(choices.get(value, value))


def labels(field: str, values) -> str:
    return ", ".join(_label(field, v) for v in values) or "nothing"


def check_table(table) -> dict[str, str]:
    if table.game != Game.TWENTY_ONE:
        return {}
    errors = licence_errors(table)
    checks = (controls_check(table), approved_play_errors(table), shuffler_errors(table))
    for name, message in [item for found in checks for item in found.items()]:
        errors.setdefault(name, message)
    return errors


# Play no standard blackjack offers: only a table whose approved game's conditions list it.
APPROVED_PLAY_ONLY = {"double_on": (Table.DoubleOn.ANY_CARD,), "double_down": (Table.DoubleDown.TOTAL,)}


def approved_play_errors(table) -> dict[str, str]:
    """Doubling on any card, or up to the total in play (Double Down Madness), at any site only
    where the table offers an approved game whose conditions permit it (`APPROVED_PLAY_ONLY`)."""
    asked = {field: getattr(table, field) for field, values in APPROVED_PLAY_ONLY.items()}
    asked = {field: value for field, value in asked.items() if value in APPROVED_PLAY_ONLY[field]}
    if not asked:
        return {}
    link = current_link(table.pk) if table.pk else None
    conditions = link.approval.conditions if link is not None and link.approval is not None else {}
    return {
        field: (
            f"{rules.GAME_APPROVAL.at(table.site)}: {_label(field, value)} is the play of an approved game whose "
            "conditions permit it (Double Down Madness), not of standard blackjack; link the table to such an "
            "approval, or choose a standard option."
        )
        for field, value in asked.items()
        if value not in conditions.get(field, ())
    }


SHUFFLER_WORDS = "blackjack is dealt from a dealing shoe or a shuffling device the state approved"


def shuffler_errors(table) -> dict[str, str]:
    """Where the pack's law deals blackjack from a shoe or a shuffling device the state approved
    (`rules.APPROVED_SHUFFLER`: WSGC rule 3), a table dealt from a shuffler names the approved
    model on its game link, standard blackjack's as an approved game's. A new table has no link
    yet: it is created dealt from a shoe and moved to the shuffler on its game page."""
    if table.dealt_from != Table.DealtFrom.SHUFFLER or not rules.APPROVED_SHUFFLER.applies(table.site):
        return {}
    link = current_link(table.pk)
    if link is not None and link.shuffler_model:
        return {}
    where = (
        "on the table's game page (a new table: create it dealt from a shoe, then choose the shuffler there)"
        if link is None
        else "on the table's game page"
    )
    return {
        "dealt_from": (
            f"{rules.APPROVED_SHUFFLER.at(table.site)}: {rules.APPROVED_SHUFFLER.note(table.site) or SHUFFLER_WORDS}; name the approved "
            f"shuffler model {where}."
        )
    }


def licence_errors(table) -> dict[str, str]:
    """Where the pack's law puts the tie option on the licence (`rules.LICENCE`), the table
    follows the licence in force today."""
    if not rules.LICENCE.applies(table.site):
        return {}
    licence = licence_in_force(table.site)
    if licence is None:
        return {"tie_option": no_licence_words(table.site)}
    if table.tie_option != licence.tie_option:
        return {
            "tie_option": (
                f"{licence_words(table.site, licence)} (this table: {table.tie_option or 'none'}). A change of option "
                "is a new licence."
            )
        }
    return {}


def controls_check(table) -> dict[str, str]:
    if not rules.INTERNAL_CONTROLS.applies(table.site):
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
        for name, message in undocumented_errors(table, approval).items():
            errors.setdefault(name, message)
        return errors
    for name, message in controls_errors(table, controls).items():
        errors.setdefault(name, message)
    return errors


def undocumented_errors(table, approval) -> dict[str, str]:
    """No internal controls for the game in effect at the site today: each option that is the
    card room's own choice (not the rules' own play) is refused until controls list it."""
    game = approval.game_name if approval is not None else "house-banked blackjack"
    errors = {}
    for option in rules.DOCUMENTED_OPTIONS:
        value = getattr(table, option.field)
        if value not in option.rules_play and not option.moot(table):
            errors[option.field] = (
                f"{option.cited(table)}. No internal controls for {game} are in effect at "
                f"{table.site} today: record them, listing {option.label}: {_label(option.field, value)}, "
                "before the table."
            )
    return errors


def missing_controls_message(approval, on=None) -> str:
    """`on`: the day a link takes effect, where it is not today (approvals.services.link_table_game)."""
    when = "today" if on is None else f"on {on.isoformat()}"
    return (
        f"{approval.game_name} ({approval.reference}): commercial card room operators must first submit their "
        "internal controls and receive approval from the Commission prior to implementing; record the site's "
        f"internal controls for this game, in effect {when}, first."
    )


def _nothing(option) -> str:
    """What a version listing nothing for `option` documents."""
    return "nothing (the rules' own play only)" if option.rules_play else "nothing"


def controls_errors(table, controls) -> dict[str, str]:
    """Each documented option whose value the controls in effect do not list. A version that lists
    nothing for an option (recorded before the option was asked: the immaterial modifications)
    documents no modification of it: the rules' own play only, as with no controls at all."""
    errors = {}
    for option in rules.DOCUMENTED_OPTIONS:
        value, allowed = getattr(table, option.field), getattr(controls, option.field)
        if option.moot(table) or (not allowed and value in option.rules_play):
            continue
        if value not in allowed:
            errors[option.field] = (
                f"{option.cited(table)}. The internal controls in effect at {table.site} for "
                f"{controls.game} (version {controls.version}, effective {controls.effective_on.isoformat()}) "
                f"document {option.label}: {labels(option.field, allowed) if allowed else _nothing(option)}; "
                f"not {_label(option.field, value)}."
                + ("" if allowed else f" Record a new version listing {option.label}: {_label(option.field, value)}.")
            )
    return errors


def documented_table_values(table) -> dict[str, DocumentedValues]:
    """What the internal controls in effect at the table's site for its game document of each option
    (`cardroom.table_rules.documented_values`): the values a table may be set to, cited as
    `controls_errors` refuses another. A version listing nothing for an option documents the rules'
    own play (none where the rules have none: left to the refusal); an option of split hands where
    the table splits no pair is left out, as the check leaves it."""
    if table.site_id is None or table.game != Game.TWENTY_ONE or not rules.INTERNAL_CONTROLS.applies(table.site):
        return {}
    link = current_link(table.pk)
    controls = controls_in_effect(table.site, link.approval if link else None)
    if controls is None:
        return {}
    found = {}
    for option in rules.DOCUMENTED_OPTIONS:
        allowed = tuple(getattr(controls, option.field)) or option.rules_play
        if not allowed or option.moot(table):
            continue
        found[option.field] = DocumentedValues(
            allowed,
            f"{option.cited(table)}. The internal controls in effect at {table.site} for {controls.game} (version "
            f"{controls.version}, effective {controls.effective_on.isoformat()}) document {option.label}: "
            f"{labels(option.field, allowed)}; a table may be set to any one of them.",
        )
    return found


def settable_table_values(table) -> dict[str, DocumentedValues]:
    """`documented_table_values`, widened on the table's game page by the values the internal
    controls in effect for the site's other games document: that page moves a table to another game
    in the same step, its settings judged against the new game's controls (`_save_table_game`)."""
    found = documented_table_values(table)
    others = controls_in_force([table.site])
    for option in rules.DOCUMENTED_OPTIONS:
        documented = found.get(option.field)
        if documented is None:
            continue
        listed = [tuple(getattr(controls, option.field)) or option.rules_play for controls in others]
        extra = tuple(dict.fromkeys(v for values in listed for v in values if v not in documented.values))
        if extra:
            found[option.field] = DocumentedValues(
                documented.values + extra,
                f"{documented.note} Another game's internal controls in effect here document "
                f"{labels(option.field, extra)}, offered for a move to that game.",
            )
    return found


def double_limit_cents(table, approval) -> int | None:
    """The largest single double down at a table offering `approval`'s game: an approved game
    that lets a player double (Double Down Madness: "up to the total amount already in play")
    stays within the State's single-wager limit in force (the pack's effective-dated limits;
    the approval letter: "not to exceed maximum State wagering limits for a single wager").
    None: the approval permits no doubling, or the pack sets no single-wager limit."""
    if approval is None or approval.conditions.get("double_on") == ["none"]:
        return None
    limits = pack_for(table.site).wager_limits_on(site_today(table.site))
    return limits.max_cents if limits is not None else None


def single_wager_citation(table) -> str:
    limits = pack_for(table.site).wager_limits_on(site_today(table.site))
    return limits.citation.split(" (")[0] if limits is not None else rules.HOUSE_CONTROL


def approval_errors(table, link) -> dict[str, str]:
    """Each setting the approval fixes that the table breaks, and its pay tables and shuffler."""
    approval = link.approval
    # The game is played under the approval's conditions and rules of play, its pay tables included.
    cite = f"{rules.GAME_APPROVAL.at(table.site)}: {approval.game_name} ({approval.reference})"
    new_approval = (
        "changing it needs a new approval: link the table to an approval that permits it (a gaming manager, on "
        "the table's game page)."
    )
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
    limit = double_limit_cents(table, approval)
    if limit is not None and table.max_wager_cents is not None and table.max_wager_cents > limit:
        errors["max_wager_cents"] = (
            f"{cite}: each double down may be up to the amount already in play, not to exceed the State's maximum "
            f"wagering limit for a single wager ({single_wager_citation(table)}: {money(limit)}); this table's "
            f"maximum wager is {money(table.max_wager_cents)}."
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
            f"{cite}: an automatic shuffle machine used with this game must be a model the approving agency "
            f"({approval.agency}) approved; "
            "name the approved model on the table's game link."
        )
    return errors
