"""Every write of the drop box count: permission-checked, validated, audited, in one transaction.

The API and the count pages call these and nothing else; bad input raises ValidationError
naming the field and the rule, and changes nothing.

One module per kind of change (`from counts import services; services.<function>(...)` keeps
working):

- steps: Figures, Forms
- figures: parse_currency, parse_forms, figures_total, entry_figures
- boxes: update_count_settings, register_drop_box, retire_drop_box
- custody: place_drop_box, remove_drop_box, remove_drop_boxes
- counting: check_count_team, open_count_session, record_blind_count, resolve_difference,
  signing_problems, sign_count
- corrections: record_count_adjustment, explain_forms_exception
"""

from .boxes import register_drop_box, retire_drop_box, update_count_settings
from .corrections import explain_forms_exception, record_count_adjustment
from .counting import (
    check_count_team,
    open_count_session,
    record_blind_count,
    resolve_difference,
    sign_count,
    signing_problems,
)
from .custody import NO_BOX_CHOSEN, place_drop_box, remove_drop_box, remove_drop_boxes, self_escort_refusal
from .figures import entry_figures, figures_total, parse_currency, parse_forms
from .steps import Figures, Forms

__all__ = [
    "NO_BOX_CHOSEN",
    "Figures",
    "Forms",
    "check_count_team",
    "entry_figures",
    "explain_forms_exception",
    "figures_total",
    "open_count_session",
    "parse_currency",
    "parse_forms",
    "place_drop_box",
    "record_blind_count",
    "record_count_adjustment",
    "register_drop_box",
    "remove_drop_box",
    "remove_drop_boxes",
    "resolve_difference",
    "self_escort_refusal",
    "retire_drop_box",
    "sign_count",
    "signing_problems",
    "update_count_settings",
]
