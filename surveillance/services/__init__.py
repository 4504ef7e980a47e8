"""Every surveillance write: permission-checked, validated, audited, in one transaction.

The API, the browser pages and the demo loader call these; none of them validate on their
own. A refusal names the field and the rule; a role that may not act gets PermissionDenied.

One module per kind of change (`from surveillance import services; services.<function>(...)` keeps
working):

- status: set_surveillance_status, require_surveillance_by_rule, record_premises_succession
- equipment: install_equipment, move_equipment, record_site_change, submit_sample,
  record_sample_evaluation, record_vendor_purchase
- recordings: may_handle_video, record_recording, record_video_access
- review_log: add_review_log_entry
- outages: report_outage, record_outage_repair, check_wager_under_outage_cap,
  check_wager_under_surveillance_caps
- review_programs: open_review_program, close_review_program, record_review_entry
- special_events: record_special_event
"""

from .equipment import (
    install_equipment,
    move_equipment,
    record_sample_evaluation,
    record_site_change,
    record_vendor_purchase,
    submit_sample,
)
from .outages import (
    check_wager_under_outage_cap,
    check_wager_under_surveillance_caps,
    record_outage_repair,
    report_outage,
)
from .recordings import may_handle_video, record_recording, record_video_access
from .review_log import add_review_log_entry
from .review_programs import close_review_program, open_review_program, record_review_entry
from .special_events import record_special_event
from .status import record_premises_succession, require_surveillance_by_rule, set_surveillance_status

__all__ = [
    "add_review_log_entry",
    "check_wager_under_outage_cap",
    "check_wager_under_surveillance_caps",
    "close_review_program",
    "install_equipment",
    "may_handle_video",
    "move_equipment",
    "open_review_program",
    "record_outage_repair",
    "record_premises_succession",
    "record_recording",
    "record_review_entry",
    "record_sample_evaluation",
    "record_special_event",
    "record_site_change",
    "record_vendor_purchase",
    "record_video_access",
    "report_outage",
    "require_surveillance_by_rule",
    "set_surveillance_status",
    "submit_sample",
]
