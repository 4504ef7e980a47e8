"""Rendered figure fragments in the cache (Django's cache framework, the configured backend),
each under its site's figures token (`accounting.day_figures.site_versions`): every write that
marks one of the site's day snapshots stale, or changes one of its tables, replaces that token
in its own transaction, so a fragment is served only while the figures it shows still stand.
A fragment holds one site's figures and nothing of the user: the view checks the user's role
at that site before asking for it (issue 18)."""

import hashlib
import importlib.util
from collections.abc import Callable
from datetime import date
from functools import cache as once
from pathlib import Path

from django.core.cache import cache
from django.template.loader import get_template, render_to_string
from django.utils.safestring import SafeString, mark_safe

# The code that decides what a fragment shows (its rows and thresholds): with its template, its
# source is hashed into the key, so a deploy that changes either never serves an older fragment.
BUILT_BY = ("dashboard.trends",)
TIMEOUT_SECONDS = 24 * 60 * 60  # a token outlives no day: keys carry the date too


@once
def source_version(template: str) -> str:
    """A digest of the template's source and of the modules in BUILT_BY (once per process)."""
    digest = hashlib.sha256(Path(get_template(template).origin.name).read_bytes())
    for module in BUILT_BY:
        digest.update(Path(importlib.util.find_spec(module).origin).read_bytes())  # its file, not imported
    return digest.hexdigest()[:12]


def fragment_key(name: str, site_id: int, token: str, day: date, template: str) -> str:
    return f"figures-fragment:{source_version(template)}:{name}:{site_id}:{day.isoformat()}:{token}"


def cached_fragment(
    name: str, *, site_id: int, token: str, day: date, template: str, build: Callable[[], dict]
) -> SafeString:
    """The fragment `name` of the site as of `day`, rendered from `build()` only when the cache
    has none under the site's current `token`."""
    key = fragment_key(name, site_id, token, day, template)
    found = cache.get(key)
    if found is None:
        found = render_to_string(template, build())
        cache.set(key, str(found), TIMEOUT_SECONDS)
    return mark_safe(found)  # noqa: S308 (rendered by our own template, escaped there)
