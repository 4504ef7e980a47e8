"""API tokens (django-rest-knox): revoked when their holder is locked out or changes password.

A token is a bearer credential: once a login is locked out for wrong passwords (django-axes)
or its password changes, every token issued to it before stops working, as the browser
session does. Connected in `CardroomConfig.ready()`."""

from axes.signals import user_locked_out
from django.contrib.auth import get_user_model
from django.db.models.signals import post_save
from knox.models import get_token_model


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
    user_locked_out.connect(revoke_on_lockout, dispatch_uid="cardroom.tokens.lockout")
    post_save.connect(revoke_on_password_change, sender=get_user_model(), dispatch_uid="cardroom.tokens.password")
