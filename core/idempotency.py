"""Safe retries for the API (house control): every POST under /api/ accepts an
`Idempotency-Key` header. Pit Wi-Fi drops; a client that did not hear the answer sends the same
request again with the same key, and must never make a second slip.

- The first request with a key (per user) runs, and a successful answer (2xx) is kept with the
  key, the method, the path and a fingerprint of the body for `limits.IDEMPOTENCY_KEY_HOURS`.
- A retry with the same key and the same request gets that answer again (header
  `Idempotent-Replayed: true`) and writes nothing.
- The same key with another method, path or body is a 409.
- A refused request (4xx) or a failure keeps nothing: the retry runs afresh (it wrote nothing).

The key is claimed by inserting its row in the same transaction as the request's own writes,
under a unique (user, key) constraint. A concurrent retry's insert waits for that transaction:
when it commits, the retry finds the answer and replays it; when it rolls back, the retry runs.
Two requests with one key can therefore never both write.
"""

import hashlib
import hmac
import json
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.db import DatabaseError, IntegrityError, transaction
from django.http import HttpResponse, JsonResponse
from django.utils import timezone
from rest_framework import exceptions
from rest_framework.request import Request

from . import limits
from .models import IdempotentRequest

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
API_PREFIX = "/api/"


def _refusal(status: int, message: str) -> JsonResponse:
    return JsonResponse({"detail": f"House control: {message}"}, status=status)


def key_problem(key: str) -> str | None:
    """Why `key` is not a usable Idempotency-Key, or None."""
    if not 1 <= len(key) <= limits.MAX_IDEMPOTENCY_KEY_LENGTH:
        return f"an {HEADER} is 1 to {limits.MAX_IDEMPOTENCY_KEY_LENGTH} characters."
    if not (key.isascii() and key.isprintable()):
        return f"an {HEADER} is printable ASCII (a UUID, say)."
    return None


def _user(request):
    """The user the API will see: a knox token's, else the session's; None when neither."""
    from .tokens import TokenAuthentication

    try:
        found = TokenAuthentication().authenticate(Request(request))
    except exceptions.APIException:
        return None  # a bad token: the view answers 401
    if found:
        return found[0]
    user = getattr(request, "user", None)
    return user if user is not None and user.is_authenticated else None


def fingerprint(request) -> str:
    """HMAC-SHA-256 of the method, the path with its query and the body (JSON in a canonical
    form, so that the same object with its keys in another order is the same request). Keyed
    with the SECRET_KEY, as the pages' form tokens are (core.form_tokens): a signing PIN in the
    body (a step initialled at a pit terminal or count tablet) cannot be guessed back from the
    table, as a bare digest of a few digits could."""
    body = request.body
    if request.content_type == "application/json":
        try:
            body = json.dumps(json.loads(body), sort_keys=True, separators=(",", ":")).encode()
        except ValueError:
            pass  # not JSON after all: the raw bytes; the view answers 400
    digest = hmac.new(settings.SECRET_KEY.encode(), digestmod=hashlib.sha256)
    for part in (request.method.encode(), request.get_full_path().encode(), body):
        digest.update(len(part).to_bytes(8, "big") + part)
    return digest.hexdigest()


def _replay(previous: IdempotentRequest) -> HttpResponse:
    response = HttpResponse(
        bytes(previous.body), status=previous.status_code, content_type=previous.content_type or None
    )
    response[REPLAYED_HEADER] = "true"
    return response


def _mismatch() -> JsonResponse:
    return _refusal(
        409,
        f"this {HEADER} was used with another request (method, path or body); "
        "send a new key for a new request, or the same request to retry.",
    )


class IdempotencyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not request.path.startswith(API_PREFIX):
            return self.get_response(request)
        return once(request, self.get_response)


def once(request, get_response):
    """`get_response(request)`, run once per Idempotency-Key as this module says (a POST with the
    header; anything else runs as it comes). The middleware's for /api/; a view elsewhere (the
    state registry's API, `registry.api`) calls it from its `dispatch` for the acts it makes safe
    to retry."""
    key = request.headers.get(HEADER)
    if key is None or request.method != "POST":
        return get_response(request)
    problem = key_problem(key)
    if problem:
        return _refusal(400, problem)
    user = _user(request)
    if user is None:
        return get_response(request)  # the view answers 401 (or 403)
    try:
        digest = fingerprint(request)
    except RequestDataTooBig:
        return get_response(request)  # the view answers 413
    return _claimed(request, get_response, user, key, digest)


def _claimed(request, get_response, user, key: str, digest: str):
    """The request run under its key's claim, or the first answer replayed (a mismatch refused)."""
    now = timezone.now()
    with transaction.atomic():
        IdempotentRequest.objects.filter(user=user, key=key, expires_at__lte=now).delete()
        try:
            with transaction.atomic():
                claim = IdempotentRequest.objects.create(
                    user=user,
                    key=key,
                    method=request.method,
                    path=request.get_full_path()[:2000],
                    fingerprint=digest,
                    status_code=0,
                    body=b"",
                    created_at=now,
                    expires_at=now + timedelta(hours=limits.IDEMPOTENCY_KEY_HOURS),
                )
        except IntegrityError:  # the key's first request committed while this one waited
            claim = None
        if claim is None:
            previous = IdempotentRequest.objects.get(user=user, key=key)
            return _replay(previous) if previous.fingerprint == digest else _mismatch()
        response = get_response(request)
        _keep(claim, response)
    return response


def _keep(claim: IdempotentRequest, response) -> None:
    """Keep a success; on anything else give the key back (the retry runs afresh)."""
    try:
        if getattr(response, "render", None) and not getattr(response, "is_rendered", True):
            response.render()  # a view's own answer (`once` from a dispatch), not yet rendered
        if 200 <= response.status_code < 300 and not response.streaming:
            claim.status_code = response.status_code
            claim.content_type = response.get("Content-Type", "")
            claim.body = response.content
            claim.save(update_fields=["status_code", "content_type", "body"])
        else:
            claim.delete()
    except DatabaseError:  # the request's own transaction failed: nothing it did is kept
        transaction.set_rollback(True)
