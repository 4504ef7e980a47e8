"""The HTTP client of a registry (stdlib urllib: one request, a timeout, JSON both ways)."""

import json
import urllib.error
import urllib.request
from urllib.parse import urlsplit

TIMEOUT_SECONDS = 15
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
# 4xx answers that refuse nothing: the request timed out (408) or came over the registry's limit
# of writes by one credential (429); the same request is taken later.
TRY_AGAIN = {408, 429}


class Unreachable(Exception):
    """The registry did not answer (network, timeout, 5xx) or asked to be asked later (408, 429):
    try again later."""


class Refused(Exception):
    """The registry answered 4xx: the request as sent will not be accepted."""

    def __init__(self, status: int, detail):
        super().__init__(f"{status}: {detail}")
        self.status, self.detail = status, detail


def check_url(url: str) -> str | None:
    """Why `url` is not a registry address, or None. House control: the credential travels
    only over HTTPS (plain HTTP to this machine itself, for tests and a local registry)."""
    parts = urlsplit(url)
    if parts.scheme == "https" and parts.hostname:
        return None
    if parts.scheme == "http" and parts.hostname in LOOPBACK:
        return None
    return "a registry is reached over https:// (http:// only on this machine)."


def call(base_url: str, credential: str, method: str, path: str, body=None, headers=None) -> tuple[int, dict]:
    """(status, JSON) of a 2xx answer; Refused on a 4xx but 408 and 429; Unreachable otherwise."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base_url.rstrip("/") + path, data=data, method=method)
    request.add_header("Authorization", f"Licensee {credential}")
    request.add_header("Accept", "application/json")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:  # noqa: S310 (checked scheme)
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as exc:
        detail = _detail(exc)
        if 400 <= exc.code < 500 and exc.code not in TRY_AGAIN:
            raise Refused(exc.code, detail) from exc
        raise Unreachable(f"{exc.code}: {detail}") from exc
    except (urllib.error.URLError, TimeoutError, ConnectionError, ValueError) as exc:
        raise Unreachable(f"no answer from {base_url}: {_reason(exc)}") from exc


def _reason(exc: Exception) -> str:
    """Why the registry did not answer, in words a person reads on the quarter's page ("connection
    refused", "timed out"), not the socket's "[Errno 111] Connection refused"."""
    reason = getattr(exc, "reason", exc)
    if isinstance(reason, OSError) and reason.strerror:
        return reason.strerror.lower()
    if isinstance(reason, TimeoutError):
        return "timed out"
    return str(reason) or type(reason).__name__


def _detail(exc: urllib.error.HTTPError):
    try:
        return json.loads(exc.read() or b"{}")
    except ValueError:
        return exc.reason
