"""How long each record is kept (ND 99-01.3-08-16), and the guard that nothing is deleted
inside that time.

"Records must include and be retained for three years from the end of the quarter in which
the activity was reported, unless otherwise provided by rule" (08-16, opening paragraph);
"for a video surveillance system, dealer percent-of-hold information and video review
documentation must be retained for one year from the end of the quarter of the activity"
(08-16(1)(h)).

A record is inside its retention on every day up to and including its retention date; from
the day after, it may be disposed of (nothing in the product does so on its own).

Append-only records are never deleted at all (cardroom.appendonly, database triggers). The
records that are not append-only register here (`retain`), with the path to the date of their
activity; a `pre_delete` guard then refuses deleting one inside its retention, whatever the
path (admin, API, services, a queryset's `delete()`), because Django's deletion collector
sends `pre_delete` for every row it deletes once a receiver is connected.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db.models.signals import pre_delete

from .appendonly import ImmutableRecordError
from .periods import Quarter

RETENTION_CITATION = "ND 99-01.3-08-16"
SHORT_RETENTION_CITATION = "ND 99-01.3-08-16(1)(h)"


@dataclass(frozen=True)
class RetentionRule:
    years: int
    citation: str
    what: str


# The two retention periods of 08-16, as data.
STANDARD = RetentionRule(3, RETENTION_CITATION, "three years from the end of the quarter of the activity")
DEALER_HOLD_AND_VIDEO_REVIEW = RetentionRule(
    1, SHORT_RETENTION_CITATION,
    "one year from the end of the quarter of the activity (dealer percent-of-hold and video review records)",
)


def _add_years(day: date, years: int) -> date:
    # A quarter ends on Mar 31, Jun 30, Sep 30 or Dec 31: every year has those days.
    return day.replace(year=day.year + years)


def retention_end(activity_date: date, rule: RetentionRule = STANDARD) -> date:
    """The last day a record of activity on `activity_date` must be kept."""
    return _add_years(Quarter.containing(activity_date).end, rule.years)


def inside_retention(activity_date: date, today: date, rule: RetentionRule = STANDARD) -> bool:
    return today <= retention_end(activity_date, rule)


@dataclass(frozen=True)
class Retained:
    """A registered record model: how to find its activity date, and its retention rule."""

    activity_date: callable
    rule: RetentionRule | callable  # a rule, or a function of the instance giving one


RETAINED: dict[type, Retained] = {}


def retain(model, activity_date, rule=STANDARD) -> None:
    """Register a record model: `activity_date(instance) -> date | None`; `rule` a
    RetentionRule or `rule(instance) -> RetentionRule`."""
    RETAINED[model] = Retained(activity_date, rule)
    pre_delete.connect(_refuse_inside_retention, sender=model, dispatch_uid=f"retention-{model._meta.label}")


def rule_of(instance) -> RetentionRule:
    entry = RETAINED.get(type(instance))
    if entry is None:
        return STANDARD
    return entry.rule(instance) if callable(entry.rule) else entry.rule


def retain_until(instance) -> date | None:
    """The retention date of a registered record (None: not registered or no activity date)."""
    entry = RETAINED.get(type(instance))
    if entry is None:
        return None
    day = entry.activity_date(instance)
    return None if day is None else retention_end(day, rule_of(instance))


def retention_notice(instance) -> str:
    until = retain_until(instance)
    return "" if until is None else f"Retain until {until} ({rule_of(instance).citation})"


def _today() -> date:
    from django.utils import timezone

    return timezone.localdate()


def _refuse_inside_retention(sender, instance, **kwargs) -> None:
    until = retain_until(instance)
    if until is not None and _today() <= until:
        rule = rule_of(instance)
        raise ImmutableRecordError(
            f"{rule.citation}: {instance._meta.verbose_name} {instance.pk} must be kept {rule.what}, "
            f"until {until}; it cannot be deleted before then."
        )


def retain_until_field():
    """A read-only API field: the record's retention date (ND 99-01.3-08-16)."""
    from rest_framework import serializers

    return serializers.SerializerMethodField(help_text="Kept until this date (ND 99-01.3-08-16); never deleted before.")


def get_retain_until(self, instance) -> date | None:
    return retain_until(instance)
