"""API tokens (django-rest-knox): revoked when their holder is locked out or changes password.

A token is a bearer credential: once a login is locked out for wrong passwords (django-axes)
or its password changes, every token issued to it before stops working, as the browser
session does. Connected in `CardroomConfig.ready()`."""

from axes.signals import user_locked_out
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models.signals import post_save
from django.utils import timezone
from django.utils.translation import gettext as _
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from knox.models import get_token_model
from knox.settings import knox_settings
from rest_framework import exceptions

# A login holds at most this many live tokens (one per device or script); signing in once more
# revokes the oldest. Keeps every request's token lookup short.
MAX_TOKENS_PER_LOGIN = 10


class TokenAuthentication(KnoxTokenAuthentication):
    """knox's `Authorization: Token <token>`, refusing a token of bytes beyond ASCII as any
    unknown token (401 "Invalid token.") where knox decoded it as UTF-8 and a byte such as
    0xE9 (a header reaches Django as Latin-1) was a 500 on every API path."""

    def authenticate_credentials(self, token: bytes):
        if not token.isascii():
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        return super().authenticate_credentials(token)


def issue_token(user) -> tuple[object, str]:
    """A new token for `user` (the stored row, the token text shown once), valid for
    REST_KNOX["TOKEN_TTL"]; the login's expired tokens and any beyond the newest
    MAX_TOKENS_PER_LOGIN are deleted."""
    tokens = get_token_model().objects.filter(user=user)
    with transaction.atomic():
        tokens.filter(expiry__lt=timezone.now()).delete()
        instance, token = get_token_model().objects.create(user=user, expiry=knox_settings.TOKEN_TTL)
        keep = tokens.order_by("-created").values_list("pk", flat=True)[:MAX_TOKENS_PER_LOGIN]
        tokens.exclude(pk__in=list(keep)).delete()
    return instance, token


def revoke_tokens(user) -> int:
    """Delete every API token of `user`; the number deleted."""
    deleted, _ = get_token_model().objects.filter(user=user).delete()
    return deleted


def revoke_on_lockout(sender, request=None, username=None, **kwargs) -> None:
    if username:
        get_token_model().objects.filter(user__username=username).delete()


def revoke_on_password_change(sender, instance, created, **kwargs) -> None:
    # `set_password` keeps the new raw password in `_password` until the save is done; a hash
    # upgraded at sign-in (same password) clears it first, so it revokes nothing.
    if not created and getattr(instance, "_password", None) is not None:
        revoke_tokens(instance)


def connect() -> None:
    user_locked_out.connect(revoke_on_lockout, dispatch_uid="core.tokens.lockout")
    post_save.connect(revoke_on_password_change, sender=get_user_model(), dispatch_uid="core.tokens.password")
