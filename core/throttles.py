"""Rate limits (house control): sign-ins per client address, API writes per user.

The rates are settings (`REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`, from the environment),
read when a request comes in. Over a limit the API answers 429 naming the limit and when to
try again (`core.api.exception_handler`). The sign-in limit counts the token endpoint, the
browser's `/login/` and the admin's login together, per client address
(core.client_address)."""

from functools import wraps

from django.shortcuts import render
from rest_framework.permissions import SAFE_METHODS
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from .client_address import client_address


class NamedRateThrottle(SimpleRateThrottle):
    """A throttle that reads its rate at request time and tells the 429 which limit it was."""

    description: str

    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def get_ident(self, request):
        return client_address(request)

    def allow_request(self, request, view):
        allowed = super().allow_request(request, view)
        if not allowed:
            request.throttled_by = self
        return allowed

    def limit_text(self) -> str:
        return f"at most {self.num_requests} {self.description} per {self._period_name()}"

    def _period_name(self) -> str:
        return {1: "second", 60: "minute", 3600: "hour", 86400: "day"}.get(self.duration, f"{self.duration} s")


class LoginRateThrottle(NamedRateThrottle):
    """Token requests from one client address: slows password guessing across accounts
    (django-axes locks one account after five wrong passwords)."""

    scope = "login"
    description = "sign-in attempts from one address"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class WriteRateThrottle(NamedRateThrottle):
    """Changes (POST, PUT, PATCH, DELETE) by one user; reads are not limited."""

    scope = "writes"
    description = "changes by one user"

    def allow_request(self, request, view):
        if request.method in SAFE_METHODS:
            return True
        return super().allow_request(request, view)

    def get_cache_key(self, request, view):
        ident = request.user.pk if request.user and request.user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


def sign_in_limited(login_view):
    """`login_view` (the browser's or the admin's sign-in form) with the token endpoint's
    per-address limit on its POSTs, counted together with it: over the limit it answers 429
    with a page naming the limit, before any password is checked."""

    @wraps(login_view)
    def limited(request, *args, **kwargs):
        if request.method == "POST":
            throttle = LoginRateThrottle()
            if not throttle.allow_request(request, None):
                return _too_many_attempts(request, throttle)
        return login_view(request, *args, **kwargs)

    return limited


def _too_many_attempts(request, throttle: LoginRateThrottle):
    wait = throttle.wait()
    seconds = int(wait) + 1 if wait is not None else None
    page = render(
        request, "registration/too_many_attempts.html", {"limit": throttle.limit_text(), "seconds": seconds}, status=429
    )
    if seconds is not None:
        page["Retry-After"] = str(seconds)
    return page
