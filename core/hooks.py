"""Hooks: answers a lower layer needs and only a higher one has.

A lower layer asks a hook; the app that knows the answer registers it when it loads (its
`AppConfig.ready`), so imports keep pointing down. Every hook is declared here, in one
registry (`HOOKS`). Asking a hook whose answer is not registered raises (no hook allows
everything by default), and a system check (`core.checks`) fails startup when one is missing.
"""

from collections.abc import Callable

from django.core.exceptions import ImproperlyConfigured


class Hook:
    """One answer asked from below: `hook(...)` calls the registered answer."""

    def __init__(self, name: str, *, answered_by: str, asks: str):
        self.name, self.answered_by, self.asks = name, answered_by, asks
        self._answer: Callable | None = None

    def register(self, answer: Callable) -> None:
        self._answer = answer

    @property
    def registered(self) -> bool:
        return self._answer is not None

    def __call__(self, *args, **kwargs):
        if self._answer is None:
            raise ImproperlyConfigured(
                f"The hook {self.name!r} has no answer: {self.answered_by} registers it when its app loads."
            )
        return self._answer(*args, **kwargs)

    def __repr__(self):
        return f"<Hook {self.name}>"


HOOKS: dict[str, Hook] = {}


def declare(name: str, *, answered_by: str, asks: str) -> Hook:
    """The hook `name`, declared once."""
    if name in HOOKS:
        raise ImproperlyConfigured(f"The hook {name!r} is declared twice.")
    HOOKS[name] = Hook(name, answered_by=answered_by, asks=asks)
    return HOOKS[name]


ACCESS = declare(
    "access",
    answered_by="cardroom (cardroom.access.access_for)",
    asks="access(user) -> the user's Access: their employee, roles and the sites they may see",
)

SITE_JURISDICTION = declare(
    "site_jurisdiction",
    answered_by="cardroom (cardroom.models.site_jurisdiction)",
    asks="site_jurisdiction(site_id) -> the jurisdiction code of the site's pack",
)
