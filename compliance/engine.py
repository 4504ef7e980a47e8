"""Runs the rules: providers gather each rule's inputs for many sites in a bounded number of
queries, the pure rules judge, and `open_alert` records each finding once."""

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from cardroom.models import Jurisdiction, Site
from cardroom.periods import Quarter

from .models import Alert, AlertStep, Notification
from .rules import Finding
from .services import open_alert, send_notification
from .thresholds import ThresholdBook

# A provider takes (sites, period, threshold book) and yields findings.
QuarterProvider = Callable[[list[Site], Quarter, ThresholdBook], Iterable[Finding]]
DayProvider = Callable[[list[Site], date, date, ThresholdBook], Iterable[Finding]]

QUARTER_PROVIDERS: list[QuarterProvider] = []
DAY_PROVIDERS: list[DayProvider] = []


# Each rule declares the jurisdictions whose sites it judges; the engine hands a provider only
# those sites. The rules here are North Dakota's (chapter 99-01.3-08 and 99-01.3-03): a site in
# Washington or New York is never judged by them. A later jurisdiction pack registers its own
# providers with `jurisdictions={"WA-HB"}` (or several).
ND_ONLY: frozenset[str] = frozenset({Jurisdiction.ND})


def _register(registry: list, function, jurisdictions):
    function.jurisdictions = frozenset(jurisdictions)
    registry.append(function)
    return function


def quarter_provider(function: QuarterProvider | None = None, *, jurisdictions=ND_ONLY):
    """Register a quarter rule: `@quarter_provider` (North Dakota) or
    `@quarter_provider(jurisdictions={...})`."""
    if function is None:
        return lambda f: _register(QUARTER_PROVIDERS, f, jurisdictions)
    return _register(QUARTER_PROVIDERS, function, jurisdictions)


def day_provider(function: DayProvider | None = None, *, jurisdictions=ND_ONLY):
    """Register a day rule: `@day_provider` (North Dakota) or `@day_provider(jurisdictions={...})`."""
    if function is None:
        return lambda f: _register(DAY_PROVIDERS, f, jurisdictions)
    return _register(DAY_PROVIDERS, function, jurisdictions)


def jurisdictions_of(provider) -> frozenset[str]:
    return getattr(provider, "jurisdictions", ND_ONLY)


def sites_for(provider, sites: list[Site]) -> list[Site]:
    """The sites a provider judges: those in one of its jurisdictions."""
    allowed = jurisdictions_of(provider)
    return [s for s in sites if s.jurisdiction in allowed]


@dataclass
class RunResult:
    opened: list[Alert] = field(default_factory=list)
    already_open: int = 0

    def as_dict(self) -> dict:
        return {"opened": len(self.opened), "already_open": self.already_open}


def _sites(site_ids: list[int] | None) -> list[Site]:
    """The given sites, or every active site and every site where twenty-one was discontinued
    (a closed site's chips are still redeemed for 30 days, ND 99-01.3-08-06(2))."""
    everyone = Site.objects.filter(Q(active=True) | Q(twenty_one_discontinued_on__isnull=False))
    qs = everyone if site_ids is None else Site.objects.filter(pk__in=site_ids)
    return list(qs.order_by("pk"))


def open_review_program_for(alert: Alert) -> None:
    """ND 99-01.3-08-04(9): a low-hold quarter starts the video review program at once."""
    from django.core.exceptions import ValidationError

    from surveillance.services import open_review_program

    start = max(alert.period_end + timedelta(days=1), timezone.localdate())
    try:
        open_review_program(None, alert.site, start, f"{alert.citation}: {alert.action_required}")
    except ValidationError:
        pass  # a program is already running at the site (or it has no active table): nothing to open


def require_surveillance_for(alert: Alert) -> None:
    """ND 99-01.3-08-04: the level of activity found by the quarter rule makes the site require
    a system from the day after the quarter, operational by the alert's due date (45 days);
    the status is the rule's, not typed in (`surveillance.services.require_surveillance_by_rule`)."""
    from surveillance.services import require_surveillance_by_rule

    require_surveillance_by_rule(
        site=alert.site,
        since=alert.period_end + timedelta(days=1),
        operational_due_on=alert.due_date,
        reason=f"{alert.citation}: {alert.action_required}",
    )


# What opening an alert of a rule sets in motion, beyond the alert itself.
FOLLOW_UPS: dict[str, Callable[[Alert], None]] = {
    "low_hold_21": open_review_program_for,
    "low_hold_PW": open_review_program_for,
    "surveillance_required": require_surveillance_for,
}


def _record(findings: Iterable[Finding], sites: list[Site], result: RunResult) -> None:
    organization_of = {s.pk: s.organization_id for s in sites}
    for finding in findings:
        alert, created = open_alert(finding, organization_id=organization_of[finding.site_id])
        if created:
            result.opened.append(alert)
            if finding.rule in FOLLOW_UPS:
                FOLLOW_UPS[finding.rule](alert)
        else:
            result.already_open += 1


def run_quarter_rules(*, site_ids: list[int] | None, quarter: Quarter) -> RunResult:
    _load_providers()
    sites, result = _sites(site_ids), RunResult()
    book = ThresholdBook(quarter.end)
    for provider in QUARTER_PROVIDERS:
        if judged := sites_for(provider, sites):
            _record(provider(judged, quarter, book), sites, result)
    return result


def run_day_checks(*, site_ids: list[int] | None, start: date, end: date) -> RunResult:
    """One transaction: the slip check's checkpoints (compliance.slip_series) move on only
    with the alerts of what they passed."""
    _load_providers()
    sites, result = _sites(site_ids), RunResult()
    book = ThresholdBook(end)
    with transaction.atomic():
        for provider in DAY_PROVIDERS:
            if judged := sites_for(provider, sites):
                _record(provider(judged, start, end, book), sites, result)
    return result


def run_all(*, site_ids: list[int] | None, quarter: Quarter) -> RunResult:
    """The quarter rules and the day rules for every day of the quarter (up to yesterday)."""
    quarterly = run_quarter_rules(site_ids=site_ids, quarter=quarter)
    last_day = min(quarter.end, timezone.localdate() - timedelta(days=1))
    if last_day >= quarter.start:
        daily = run_day_checks(site_ids=site_ids, start=quarter.start, end=last_day)
        quarterly.opened += daily.opened
        quarterly.already_open += daily.already_open
    return quarterly


def send_reminders(*, today: date) -> int:
    """Remind once about each unresolved alert due within the reminder window."""
    book = ThresholdBook(today)
    horizon = today + timedelta(days=book.int("reminder.days_before_due"))
    due_soon = (
        Alert.objects.filter(due_date__lte=horizon)
        .exclude(steps__kind=AlertStep.Kind.RESOLVED)
        .exclude(notifications__kind=Notification.Kind.REMINDER)
        .select_related("site")
    )
    return sum(1 for alert in due_soon if send_notification(alert, Notification.Kind.REMINDER))


def _load_providers() -> None:
    from . import providers  # noqa: F401  (registers the providers)
