"""A rule's citation at a site, asked from below.

The law is the site's pack's (`packs`, the layer above): `packs.Rule("core.retention").at(site)`.
Code of this app cannot import the packs, so it asks here (retention, closed books) and the packs
register the answer when their app loads (`packs.apps`). Until they do, asking raises: no message
falls back to one jurisdiction's words.

A site's jurisdiction is the sites' answer (`cardroom`, the `site_jurisdiction` hook), read once
per site id and kept (`jurisdiction_of_site`), so that a retention notice on each row of a page or
a closed-books check in a loop costs no query; saving or deleting a site forgets it (`forget_site`).
"""

from collections.abc import Callable

from .hooks import CITATIONS, SITE_JURISDICTION
from .rules import HOUSE_CONTROL

# (rule key, jurisdiction code) -> the citation of the pack's text that states it, or None.
Cite = Callable[[str, str], str | None]

_jurisdictions: dict[int, str] = {}


def register_citations(cite: Cite) -> None:
    CITATIONS.register(cite)


def stated(key: str, jurisdiction: str) -> str | None:
    """The citation of `key` in the law of the jurisdiction's pack, or None where it is not stated."""
    return CITATIONS(key, jurisdiction)


def cite(key: str, jurisdiction: str) -> str:
    """The citation of `key` at a jurisdiction's site, or "House control"."""
    return stated(key, jurisdiction) or HOUSE_CONTROL


def jurisdiction_of_site(site_id: int) -> str:
    """The jurisdiction code of a site (the `site_jurisdiction` hook's answer), read once per site id."""
    if site_id not in _jurisdictions:
        _jurisdictions[site_id] = SITE_JURISDICTION(site_id)
    return _jurisdictions[site_id]


def forget_site(site_id: int) -> None:
    """Forget a site's jurisdiction (its site was saved or deleted: `cardroom.apps`)."""
    _jurisdictions.pop(site_id, None)
