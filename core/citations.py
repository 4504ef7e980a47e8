"""A rule's citation at a site, asked from below.

The law is the site's pack's (`packs`, the layer above): `packs.Rule("core.retention").at(site)`.
Code of this app cannot import the packs, so it asks here (retention, closed books) and the packs
register the answer when their app loads (`packs.apps`). Until they do, asking raises: no message
falls back to one jurisdiction's words.

A site's jurisdiction is read from the Site the caller has (`jurisdiction_of`: a Site, or a
record whose site, or whose gaming day's site, is already loaded), so it is as fresh as the
request's own rows. Where only a site id is at hand it is the sites' answer (`cardroom`, the
`site_jurisdiction` hook), read at most once per site id within one request or Celery task
(`request_scope`), never kept across them: a site that changes pack in one gunicorn worker is read
with its new pack by every other worker's next request (no per-process cache to go stale).
"""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from .hooks import CITATIONS, SITE_JURISDICTION
from .rules import HOUSE_CONTROL

# (rule key, jurisdiction code) -> the citation of the pack's text that states it, or None.
Cite = Callable[[str, str], str | None]

# site id -> jurisdiction, inside one request or task only (None outside: read every time).
_scope: ContextVar[dict[int, str] | None] = ContextVar("citations_site_jurisdictions", default=None)


def register_citations(cite: Cite) -> None:
    CITATIONS.register(cite)


def stated(key: str, jurisdiction: str) -> str | None:
    """The citation of `key` in the law of the jurisdiction's pack, or None where it is not stated."""
    return CITATIONS(key, jurisdiction)


def cite(key: str, jurisdiction: str) -> str:
    """The citation of `key` at a jurisdiction's site, or "House control"."""
    return stated(key, jurisdiction) or HOUSE_CONTROL


def _loaded(instance, name: str):
    """The related object `name` of `instance` when it is already loaded (no query), else None."""
    field = getattr(type(instance), name, None)
    is_cached = getattr(field, "is_cached", None)
    return getattr(instance, name) if is_cached is not None and is_cached(instance) else None


def jurisdiction_of(where) -> str:
    """The jurisdiction code of a Site (anything with a `jurisdiction` code), of a record with a
    site (`site`, or `gaming_day.site`), or of a site id. A loaded Site answers without a query;
    otherwise the site's row is read (once per site id within a request or task)."""
    if isinstance(where, int):
        return jurisdiction_of_site(where)
    code = getattr(where, "jurisdiction", None)
    if isinstance(code, str):
        return code
    site = _loaded(where, "site")
    if site is not None:
        return site.jurisdiction
    day = _loaded(where, "gaming_day")
    if day is not None:
        site = _loaded(day, "site")
        return site.jurisdiction if site is not None else jurisdiction_of_site(day.site_id)
    return jurisdiction_of_site(where.site_id)


def jurisdiction_of_site(site_id: int) -> str:
    """The jurisdiction code of a site id (the `site_jurisdiction` hook's answer), read once per
    request or task, every time outside one."""
    memo = _scope.get()
    if memo is not None and site_id in memo:
        return memo[site_id]
    code = SITE_JURISDICTION(site_id)
    if memo is not None:
        memo[site_id] = code
    return code


def forget_site(site_id: int) -> None:
    """Forget a site's jurisdiction within the current request or task (its site was saved or
    deleted: `cardroom.apps`)."""
    memo = _scope.get()
    if memo is not None:
        memo.pop(site_id, None)


@contextmanager
def request_scope() -> Iterator[None]:
    """Within the block, a site id's jurisdiction is read once; outside it, every time."""
    token = _scope.set({})
    try:
        yield
    finally:
        _scope.reset(token)


def _begin(**kwargs) -> None:
    _scope.set({})


def _end(**kwargs) -> None:
    _scope.set(None)


def connect() -> None:
    """Open a fresh scope per request and per Celery task (`core.apps`)."""
    from django.core.signals import request_finished, request_started

    request_started.connect(_begin, dispatch_uid="citations-request-started")
    request_finished.connect(_end, dispatch_uid="citations-request-finished")
    from celery.signals import task_postrun, task_prerun

    task_prerun.connect(_begin, dispatch_uid="citations-task-started", weak=False)
    task_postrun.connect(_end, dispatch_uid="citations-task-finished", weak=False)
