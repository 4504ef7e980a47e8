"""Browser forms sent twice write once (house control): the pages' twin of the API's
`Idempotency-Key` (core.idempotency), kept in the same table.

A form carries a one-time token, a hidden `form_token` field holding a UUID drawn when the page
is drawn (`{% form_token %}`, cardroom's template tags). A POST to a page (not /api/) with one,
by a signed-in user, claims the token and the form's fingerprint (the path and the fields sent, in
any encoding) in the same transaction as the view's own writes:

- a success that redirects (the pages' post/redirect/get) is kept with its address for
  `limits.IDEMPOTENCY_KEY_HOURS`;
- the same form sent again (a double click, a reload of the POST, a retry on a slow line) is
  sent to that address with the message "Already recorded" and writes nothing; a second copy
  sent while the first is still being written waits for it, then does the same;
- a success that answers with a page shown once (a secret issued: `answered_once`) is kept with
  the address given for it, where a second copy is sent the same way;
- a refusal (4xx) or a failure keeps nothing: the corrected form runs afresh; so does a refusal
  that goes back to its page with a message (`refused`: the books' and the quarter's forms).

The same token with another body (the page's form sent again with other values) is another
request and runs as one. A POST without a token runs as it always has.
"""

import hashlib
import hmac
import json
import uuid
from datetime import timedelta

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import RequestDataTooBig
from django.db import DatabaseError, IntegrityError, transaction
from django.http import HttpResponseBadRequest, HttpResponseRedirect
from django.utils import timezone

from . import limits
from .idempotency import API_PREFIX
from .models import IdempotentRequest

FIELD = "form_token"
ALREADY_RECORDED = "Already recorded: this form was sent twice; the first was recorded and the second wrote nothing."


def new_token() -> str:
    """A fresh one-time token for a form as it is drawn."""
    return str(uuid.uuid4())


_REFUSED = "form_token_refused"


def refused(response):
    """`response`, a redirect back to the form's page that carries a refusal (its message in the
    session): the token is given back, as for a 4xx, so that the same form sent again once the
    cause is cured runs afresh and is not told "Already recorded"."""
    setattr(response, _REFUSED, True)
    return response


_AGAIN_AT = "form_token_again_at"


def answered_once(response, again_at: str):
    """`response`, a success that shows its page once instead of redirecting (a secret issued, which
    the registry keeps only as its digest, so no page can show it again): a second copy of the form
    is sent to `again_at`, the page listing what the first wrote, with "Already recorded", and writes
    nothing."""
    setattr(response, _AGAIN_AT, again_at)
    return response


def _fingerprint(request) -> str:
    """HMAC-SHA-256 of the path with its query and the fields sent (the CSRF token aside: a page's
    copies in two tabs are the same form), whatever the encoding; a file sent counts by its name
    and contents (another day sheet sent with the same token is another request). Keyed with the
    SECRET_KEY: a signing PIN among the fields (a step initialled at a station, a PIN set) cannot
    be guessed back from the table, as a bare digest of a few digits could."""
    fields = sorted((name, values) for name, values in request.POST.lists() if name != "csrfmiddlewaretoken")
    digest = hmac.new(settings.SECRET_KEY.encode(), request.get_full_path().encode(), hashlib.sha256)
    digest.update(json.dumps(fields).encode())
    for name, uploads in sorted(request.FILES.lists(), key=lambda item: item[0]):
        for upload in uploads:
            digest.update(json.dumps([name, upload.name, upload.size]).encode())
            for chunk in upload.chunks():
                digest.update(chunk)
            upload.seek(0)
    return digest.hexdigest()


def _token(request) -> str | None:
    """The form's token, or None when the request carries none (or is not a page's POST)."""
    if request.method != "POST" or request.path.startswith(API_PREFIX):
        return None
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return None
    try:
        return request.POST.get(FIELD) or None
    except RequestDataTooBig:
        return None  # the view answers 413


class FormTokenMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = _token(request)
        if token is None:
            return self.get_response(request)
        try:
            token = str(uuid.UUID(token))
        except ValueError:
            return HttpResponseBadRequest(
                "House control: a form's one-time token is a UUID drawn with the page; reload the page and send it again."
            )
        return self._once(request, f"form:{token}:{_fingerprint(request)}")

    def _once(self, request, key):
        now = timezone.now()
        with transaction.atomic():
            IdempotentRequest.objects.filter(user=request.user, key=key, expires_at__lte=now).delete()
            try:
                with transaction.atomic():
                    claim = IdempotentRequest.objects.create(
                        user=request.user,
                        key=key,
                        method=request.method,
                        path=request.get_full_path()[:2000],
                        fingerprint=key.rsplit(":", 1)[1],
                        status_code=0,
                        body=b"",
                        created_at=now,
                        expires_at=now + timedelta(hours=limits.IDEMPOTENCY_KEY_HOURS),
                    )
            except IntegrityError:  # the form's first copy committed while this one waited
                previous = IdempotentRequest.objects.get(user=request.user, key=key)
                messages.info(request, ALREADY_RECORDED)
                return HttpResponseRedirect(bytes(previous.body).decode())
            response = self.get_response(request)
            self._keep(claim, response)
        return response

    def _keep(self, claim: IdempotentRequest, response) -> None:
        """Keep a success that redirects (its address), or one shown once (`answered_once`: the
        address given); on anything else give the token back."""
        again_at = getattr(response, _AGAIN_AT, None) if response.status_code < 300 else None
        try:
            if again_at:
                claim.status_code, claim.body = 302, again_at.encode()
                claim.save(update_fields=["status_code", "body"])
            elif (
                response.status_code in (301, 302, 303)
                and response.has_header("Location")
                and not getattr(response, _REFUSED, False)
            ):
                claim.status_code = response.status_code
                claim.body = response["Location"].encode()
                claim.save(update_fields=["status_code", "body"])
            else:
                claim.delete()
        except DatabaseError:  # the request's own transaction failed: nothing it did is kept
            transaction.set_rollback(True)
