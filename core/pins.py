"""Signing PINs, the mechanism: whoever holds them, a PIN is hashed, checked, its wrong entries
counted and, at the limit, locked for a time.

The platform's part of initialling a step on a shared terminal. Who holds a PIN (an employee,
`cardroom.models.SigningPin`), who may set it and who signs with it are the domain's
(`cardroom.pins`); this module reads no model of an app above it.

House controls: a PIN is PIN_MIN_DIGITS to PIN_MAX_DIGITS digits and not one digit repeated,
stored with Django's password hashers (never the PIN itself); wrong PINs are counted and lock
the PIN after the same number of failures and for the same time as a password
(settings.AXES_FAILURE_LIMIT and AXES_COOLOFF_TIME, `core.lockouts`).
"""

from datetime import tzinfo

from django.conf import settings
from django.contrib.auth.hashers import check_password, make_password
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import F
from django.utils import timezone

from core.limits import digits

from .rules import HOUSE_CONTROL

PIN_MIN_DIGITS = 6
PIN_MAX_DIGITS = 12
PIN_FAILURE_LIMIT = settings.AXES_FAILURE_LIMIT
PIN_LOCKOUT = settings.AXES_COOLOFF_TIME


def validate_pin(pin: str) -> str:
    """The PIN as it is kept (surrounding spaces dropped), or a ValidationError on `pin` naming
    the house control it misses."""
    pin = (pin or "").strip()
    if not (digits(pin) and PIN_MIN_DIGITS <= len(pin) <= PIN_MAX_DIGITS):
        raise ValidationError(
            {"pin": f"{HOUSE_CONTROL}: a PIN is {PIN_MIN_DIGITS} to {PIN_MAX_DIGITS} digits, and nothing else."}
        )
    if len(set(pin)) == 1:
        raise ValidationError({"pin": f"{HOUSE_CONTROL}: a PIN is not one digit repeated."})
    return pin


class PinLock(models.Model):
    """A hashed PIN with its wrong entries and lock. A concrete subclass adds its holder."""

    pin_hash = models.CharField(max_length=128)
    set_at = models.DateTimeField()
    failed_attempts = models.PositiveSmallIntegerField(default=0)
    locked_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True

    @staticmethod
    def fresh(pin: str) -> dict:
        """The fields of a PIN just set (checked by `validate_pin`): hashed, no failures, no lock."""
        return {"pin_hash": make_password(pin), "set_at": timezone.now(), "failed_attempts": 0, "locked_until": None}

    @property
    def locked(self) -> bool:
        return self.locked_until is not None and self.locked_until > timezone.now()

    def locked_refusal(self, zone: tzinfo | None = None) -> str:
        """Why a locked PIN signs nothing, and until when: in `zone` (a station's site's), else
        the zone in force, named either way (an API request has no site's zone active)."""
        until = timezone.localtime(self.locked_until, zone).strftime("%H:%M %Z")
        return (
            f"{HOUSE_CONTROL}: this PIN is locked after {PIN_FAILURE_LIMIT} wrong entries until {until}; "
            "wait, or ask a gaming manager to reset it."
        )

    def matches(self, pin: str) -> bool:
        return check_password((pin or "").strip(), self.pin_hash)

    def count_failure(self) -> bool:
        """Count one wrong entry (an UPDATE of the counter, so two at once both count); the one
        that reaches PIN_FAILURE_LIMIT locks the PIN for PIN_LOCKOUT and starts the count again.
        Returns whether it locked. Runs in the caller's transaction."""
        with transaction.atomic():
            type(self).objects.filter(pk=self.pk).update(failed_attempts=F("failed_attempts") + 1)
            self.refresh_from_db(fields=["failed_attempts", "locked_until"])
            if self.failed_attempts < PIN_FAILURE_LIMIT:
                return False
            self.locked_until = timezone.now() + PIN_LOCKOUT
            self.failed_attempts = 0
            self.save(update_fields=["locked_until", "failed_attempts"])
            return True

    def clear_failures(self) -> None:
        """Forget the wrong entries and lift any lock (a right PIN, or a manager's unlock)."""
        if self.failed_attempts or self.locked_until is not None:
            type(self).objects.filter(pk=self.pk).update(failed_attempts=0, locked_until=None)
            self.failed_attempts, self.locked_until = 0, None
