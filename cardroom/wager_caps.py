"""Caps on a table's maximum wager, set from above.

ND 99-01.3-08-04(7): past an unrepaired surveillance outage's deadline a table may not run
with a maximum wager above $2; ND 99-01.3-08-04 (opening paragraph): nor may a table that needs
a video surveillance system past the site's 45-day deadline while it has none. Both are
surveillance's (an app above the core and the
floor), but the cap binds wherever a table's maximum is raised (`Table.clean`, so the API, the
setup pages and the admin) and wherever a table opens or seats a dealer (the floor's
services). So those ask here, and surveillance registers its check when its app loads
(`surveillance.apps`): imports keep pointing down.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from django.db.models import Model

from core.hooks import WAGER_CAP

# (table, max_wager_cents, at): a `cardroom.models.Table`, not imported here since the models ask this module.
WagerCapCheck = Callable[[Model, int, datetime | None], None]


def register_wager_cap(check: WagerCapCheck) -> None:
    """Surveillance registers `check(table, max_wager_cents, at)` once, when its app is ready;
    it raises a ValidationError on `max_wager_cents`, citing its rule, when the maximum is over
    the cap at `at` (None: now)."""
    WAGER_CAP.register(check)


def check_max_wager(table: Model, max_wager_cents: int, at: datetime | None = None) -> None:
    """Refuse `max_wager_cents` at `table` if the registered cap forbids it. Until surveillance
    registers its check, asking raises: no table runs uncapped unjudged (`core.hooks`)."""
    WAGER_CAP(table, max_wager_cents, at)
