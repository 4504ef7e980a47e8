"""Jurisdiction packs: one module per rule set, chosen per site (`Site.jurisdiction`).

A pack owns what differs between rule sets: table rule validation and wager limits, the
revenue model and its figures, the compliance rules that run (registered by the upper layers
with `jurisdictions=...`), the tax or fee computation, the house-rules handout and its
citations. This package is the bottom layer's half: the pack's identity and table rules.
Upper layers look a site's pack up with `pack_for(site)` and dispatch on its attributes
(`revenue_model`), or register per-pack behaviour through their own registries keyed by
`Pack.code`.

To add a pack: write `cardroom/packs/<code>.py` with a `PACK = Pack(...)`, add the code to
`cardroom.models.Jurisdiction` (with a migration) and to `_MODULES` below.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import import_module

from django.core.exceptions import ValidationError


class RevenueModel:
    DROP = "drop"  # drop, fills, credits, win and hold (ND, WA house-banked)
    FEES = "fees"  # time-based fees collected at the table (WA blackjack, player-banked)
    SESSION = "session"  # a licensed games-of-chance session's receipts and prizes (NY)


@dataclass(frozen=True)
class Pack:
    code: str  # Site.jurisdiction value
    name: str
    state: str  # two-letter state
    revenue_model: str
    # Validates a Table against the pack's rules; returns {field: message} (empty: acceptable).
    table_rules: Callable[[object], dict[str, str]]
    house_banked: bool = True
    citations: dict[str, str] = field(default_factory=dict)


_MODULES = {"ND": "nd", "WA-HB": "wa_hb", "WA-BJ": "wa_bj", "NY": "ny"}
_PACKS: dict[str, Pack] = {}

# Checks registered by upper layers (e.g. WA internal controls and game approvals):
# each takes a Table and returns {field: message}.
TABLE_CHECKS: list[Callable[[object], dict[str, str]]] = []


def register_table_check(check: Callable[[object], dict[str, str]]) -> Callable:
    if check not in TABLE_CHECKS:
        TABLE_CHECKS.append(check)
    return check


def get_pack(code: str) -> Pack:
    if code not in _PACKS:
        if code not in _MODULES:
            raise LookupError(f"No jurisdiction pack {code!r}")
        _PACKS[code] = import_module(f"{__name__}.{_MODULES[code]}").PACK
    return _PACKS[code]


def pack_for(site) -> Pack:
    """The pack of a site (or of a jurisdiction code)."""
    return get_pack(site if isinstance(site, str) else site.jurisdiction)


def all_packs() -> list[Pack]:
    return [get_pack(code) for code in _MODULES]


def validate_table(table) -> None:
    """Refuse a table its site's pack does not allow, naming each field and its rule."""
    errors = dict(pack_for(table.site).table_rules(table))
    for check in TABLE_CHECKS:
        for name, message in check(table).items():
            errors.setdefault(name, message)
    if errors:
        raise ValidationError(errors)
