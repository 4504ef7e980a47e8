"""How long each record is kept, and the guard that nothing is deleted inside that time.

The periods are the site's pack's law (rule keys `core.retention`, `core.retention_short`, cited
through `core.citations`). North Dakota: "Records must include and be retained for three years
from the end of the quarter in which the activity was reported, unless otherwise provided by
rule" (08-16, opening paragraph); "for a video surveillance system, dealer percent-of-hold
information and video review documentation must be retained for one year from the end of the
quarter of the activity" (08-16(1)(h)).

Where the site's pack states no period (the Washington and New York texts we hold set none),
every record is kept three years from the end of its quarter as a house control: a WA or NY
gaming manager keeps the books and their support at least as long as the state's auditor may
ask for them, and a shorter period for some records is a permission of North Dakota's law that
does not carry over. A record with no site (an organization's report) is kept as the strictest
pack of its organization's sites says, else by the house control.

A record is inside its retention on every day up to and including its retention date; from
the day after, it may be disposed of (nothing in the product does so on its own).

Append-only records are never deleted at all (core.appendonly, database triggers). The
records that are not append-only register here (`retain`), with the path to the date of their
activity; a `pre_delete` guard then refuses deleting one inside its retention, whatever the
path (admin, API, services, a queryset's `delete()`), because Django's deletion collector
sends `pre_delete` for every row it deletes once a receiver is connected.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db.models.signals import pre_delete

from core.appendonly import ImmutableRecordError
from core.periods import Quarter
from core.rules import HOUSE_CONTROL

RETENTION_KEY = "core.retention"
SHORT_RETENTION_KEY = "core.retention_short"


@dataclass(frozen=True)
class RetentionRule:
    """A retention period; `key` names the rule (its citation is the site's pack's, `at`)."""

    years: int
    key: str
    what: str
    citation: str = ""  # set once resolved at a site (`at`); "" on the registered templates

    def at(self, jurisdictions) -> RetentionRule:
        """This period as the law of the first of `jurisdictions` stating it cites it; where none
        does, the standard period as a house control."""
        from core.citations import stated

        for code in jurisdictions:
            citation = stated(self.key, code)
            if citation:
                return RetentionRule(self.years, self.key, self.what, citation)
        return HOUSE_STANDARD


# The two retention periods (North Dakota's 08-16), as data; cited at a site by its pack.
STANDARD = RetentionRule(3, RETENTION_KEY, "three years from the end of the quarter of the activity")
DEALER_HOLD_AND_VIDEO_REVIEW = RetentionRule(
    1,
    SHORT_RETENTION_KEY,
    "one year from the end of the quarter of the activity (dealer percent-of-hold and video review records)",
)
# Where the site's pack states no period: three years, the house's own control.
HOUSE_STANDARD = RetentionRule(3, RETENTION_KEY, STANDARD.what, HOUSE_CONTROL)


def _add_years(day: date, years: int) -> date:
    # A quarter ends on Mar 31, Jun 30, Sep 30 or Dec 31: every year has those days.
    return day.replace(year=day.year + years)


def retention_end(activity_date: date, rule: RetentionRule = STANDARD) -> date:
    """The last day a record of activity on `activity_date` must be kept."""
    return _add_years(Quarter.containing(activity_date).end, rule.years)


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


def _jurisdictions(instance) -> list[str]:
    """The jurisdictions whose law may bind the record: its site's (from the loaded site, else read
    from the database, `core.citations.jurisdiction_of`), or for a record of no site, its
    organization's sites' in a stable order."""
    from core.citations import jurisdiction_of

    if getattr(instance, "site_id", None) is not None or getattr(instance, "gaming_day_id", None) is not None:
        return [jurisdiction_of(instance)]
    organization_id = getattr(instance, "organization_id", None)
    if organization_id is None:
        return []
    from .models import Site

    return sorted(set(Site.objects.filter(organization_id=organization_id).values_list("jurisdiction", flat=True)))


def rule_of(instance) -> RetentionRule:
    """The record's retention rule, as its site's pack states it (else the house's three years)."""
    entry = RETAINED.get(type(instance))
    rule = STANDARD if entry is None else entry.rule(instance) if callable(entry.rule) else entry.rule
    return rule.at(_jurisdictions(instance))


def retain_until(instance) -> date | None:
    """The retention date of a registered record (None: not registered or no activity date)."""
    entry = RETAINED.get(type(instance))
    if entry is None:
        return None
    day = entry.activity_date(instance)
    return None if day is None else retention_end(day, rule_of(instance))


def retention_dates(model):
    """A function of an activity date and a site's jurisdiction code giving what `retain_until`
    answers for a record of `model` with that date at a site of that jurisdiction: for an API list
    that reads both in its query, with no related rows loaded (issue 37), each jurisdiction's rule
    resolved once. Only for a model registered with one rule, not a function of the record."""
    entry = RETAINED[model]
    if callable(entry.rule):
        raise TypeError(f"{model.__name__}'s retention rule depends on the record: use retain_until")
    rules: dict[str, RetentionRule] = {}

    def retain_until_at(activity_date: date | None, jurisdiction: str) -> date | None:
        if activity_date is None:
            return None
        if jurisdiction not in rules:
            rules[jurisdiction] = entry.rule.at([jurisdiction])
        return retention_end(activity_date, rules[jurisdiction])

    return retain_until_at


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
    """A read-only API field: the record's retention date (the site's pack's period, or the house's)."""
    from rest_framework import serializers

    return serializers.SerializerMethodField(
        help_text="Kept until this date (the period the site's jurisdiction states, else three years as a house "
        "control); never deleted before."
    )


def get_retain_until(self, instance) -> date | None:
    return retain_until(instance)
