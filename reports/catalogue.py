"""Every report kind, registered: importing `reports.kinds` registers each kind's module in
`reports.registry`; read the kinds here, never from the registry before they are loaded."""

from . import kinds  # noqa: F401  (each module registers itself)
from .registry import KINDS, ReportKind


def load_kinds() -> dict[str, ReportKind]:
    return KINDS


def kinds_at(site) -> list[ReportKind]:
    """The kinds offered at `site` (the Reports page's current site)."""
    return [k for k in load_kinds().values() if k.applies_to(site)]


def kinds_for(packs) -> list[ReportKind]:
    """The kinds offered at any of `packs` (the packs of a reader's sites: `packs.packs_of`)."""
    return [k for k in load_kinds().values() if any(k.applies_to(p) for p in packs)]
