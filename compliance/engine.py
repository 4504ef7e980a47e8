"""Runs the rules: providers gather each rule's inputs for many sites in a bounded number of
queries, the pure rules judge, and `open_alerts` records each finding once."""

import inspect
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from cardroom.models import Site
from core.audit import appended_at_end
from core.periods import Quarter
from packs import Rule
from packs.base import LawNotHeld

from .models import Alert, AlertStep, Notification
from .notifications import send_notification
from .rules import Finding
from .services import open_alerts
from .thresholds import ThresholdBook, judged_from

# A provider takes (sites, period, threshold book) and yields findings.
QuarterProvider = Callable[[list[Site], Quarter, ThresholdBook], Iterable[Finding]]
DayProvider = Callable[[list[Site], date, date, ThresholdBook], Iterable[Finding]]

QUARTER_PROVIDERS: list[QuarterProvider] = []
DAY_PROVIDERS: list[DayProvider] = []


# Each provider declares the rules it flags (`packs.Rule` keys, `compliance.rules`); the engine
# hands it only the sites whose pack states one of them (`Rule.applies`). No provider names a
# jurisdiction: a pack's `compliance.py` lists the flag rules that run at its sites, with their
# citations, and a site of a pack that states none of a provider's rules is never judged by it.


def _register(registry: list, function, rules, day_by_day: bool = False, house_control: bool = False, only_where=None):
    rules = (rules,) if isinstance(rules, Rule) else tuple(rules)
    if not rules or not all(isinstance(r, Rule) for r in rules):
        raise TypeError(f"{function.__name__}: a provider declares the Rule (or Rules) it flags")
    function.rules = rules
    function.day_by_day = day_by_day
    function.house_control = house_control
    function.only_where = only_where
    # A provider that declares a `run` parameter is handed the run's context (RunContext).
    function.takes_run = "run" in inspect.signature(function).parameters
    registry.append(function)
    return function


def quarter_provider(*, rule):
    """Register a quarter rule: `@quarter_provider(rule=PRIZES_OVER_GP)` (a Rule, or several it
    flags); it judges the sites whose pack states one of them."""
    return lambda f: _register(QUARTER_PROVIDERS, f, rule)


def day_provider(*, rule, day_by_day: bool = False, house_control: bool = False, only_where=None):
    """Register a day rule: `@day_provider(rule=DEPOSIT_DEADLINE)` (a Rule, or several it flags);
    it judges the sites whose pack states one of them.

    `house_control=True`: a control the product keeps at every site (the chip float); it judges
    every site, and its findings cite the rule where the site's pack states it, "House control"
    elsewhere (`Rule.at`).

    `only_where`: a test of a site (or its pack) that it must also pass to be judged (the chip
    float only where the house has chips: `floor.rules.house_chips`).

    `day_by_day=True`: the rule's findings over a range are those of its days, judged with no
    threshold of the range's end and nothing judged "as of the last day" (a slip series is
    judged from its checkpoint, whatever the range), so a run's ranges that touch may be
    judged as one (`run_scan`, `joined`): the same findings, each provider reading its rows
    once instead of once a range."""
    return lambda f: _register(DAY_PROVIDERS, f, rule, day_by_day, house_control, only_where)


def rules_of(provider) -> tuple[Rule, ...]:
    return provider.rules


def runs_at(provider, site) -> bool:
    """Does the provider judge `site` (a Site, or its pack): does the pack state one of its rules
    (or is it a house control, kept everywhere), and does the site pass its `only_where`?"""
    only_where = getattr(provider, "only_where", None)
    if only_where is not None and not only_where(site):
        return False
    return getattr(provider, "house_control", False) or any(rule.applies(site) for rule in provider.rules)


def sites_for(provider, sites: list[Site]) -> list[Site]:
    """The sites a provider judges: those whose pack states one of its rules."""
    return [s for s in sites if runs_at(provider, s)]


@dataclass
class RunResult:
    opened: list[Alert] = field(default_factory=list)
    already_open: int = 0

    def as_dict(self) -> dict:
        return {"opened": len(self.opened), "already_open": self.already_open}


class RunContext:
    """What one run of the rules computes once and shares between its providers and periods:
    per-site results of a named computation (for example each site-quarter's figures, which
    the hold rules and the surveillance rule both need, for several quarters), the threshold
    books of its dates from one read, and what a provider reads once for all the run's ranges
    that touch (`shared`, `span_of`) instead of once a range: a chunk's fixed queries. It lives
    as long as the run: a later run (after a late count or a correction) computes afresh."""

    def __init__(self, quarters: Iterable[Quarter] = (), day_ranges: Iterable[tuple[date, date]] = ()) -> None:
        self._per_site: dict[tuple, object] = {}
        self._shared: dict[tuple, object] = {}
        self._books: dict[date, ThresholdBook] = {}
        self._thresholds: list | None = None
        self.computed: dict[str, int] = {}  # name -> site-periods computed (tests, benchmark)
        self.quarters = sorted(set(quarters))  # the quarters the run judges (a provider may compute them together)
        # The run's day ranges that touch, joined (a provider may read them together).
        self.day_spans = joined(day_ranges)

    def book(self, on: date) -> ThresholdBook:
        """The thresholds in force on `on`: every threshold row read once a run (they do not
        change while it runs), each date's book built from them."""
        if self._thresholds is None:
            self._thresholds = ThresholdBook.rows()
        if on not in self._books:
            self._books[on] = ThresholdBook(on, rows=self._thresholds)
        return self._books[on]

    def span_of(self, start: date, end: date) -> tuple[date, date]:
        """The run's joined span holding [start, end] (a provider reads it once for every range
        in it), or [start, end] itself outside a run's ranges."""
        return next(((a, b) for a, b in self.day_spans if a <= start and end <= b), (start, end))

    def shared(self, key: tuple, compute: Callable[[], object]):
        """The value of `compute()` under `key`, computed once in this run (until `forget`)."""
        if key not in self._shared:
            self._shared[key] = compute()
            self.computed[key[0]] = self.computed.get(key[0], 0) + 1
        return self._shared[key]

    def forget(self, name: str) -> None:
        """Drop what was computed under `name` (what a follow-up just wrote may change it)."""
        self._per_site = {k: v for k, v in self._per_site.items() if k[0] != name}
        self._shared = {k: v for k, v in self._shared.items() if k[0] != name}

    def per_site(self, name: str, period, site_ids: Iterable[int], compute: Callable[[list[int]], dict], default):
        """{site_id: value} for the sites; `compute(missing_site_ids)` is called only for the
        sites not computed yet in this run, and a site it leaves out gets `default`."""
        site_ids = list(dict.fromkeys(site_ids))
        missing = [i for i in site_ids if (name, period, i) not in self._per_site]
        if missing:
            found = compute(missing)
            for site_id in missing:
                self._per_site[(name, period, site_id)] = found.get(site_id, default)
            self.computed[name] = self.computed.get(name, 0) + len(missing)
        return {i: self._per_site[(name, period, i)] for i in site_ids}

    def remember(self, name: str, period, found: dict) -> None:
        """Keep {site_id: value} of a period computed together with another (a provider that
        reads several periods at once), unless already computed in this run."""
        for site_id, value in found.items():
            if (name, period, site_id) not in self._per_site:
                self._per_site[(name, period, site_id)] = value
                self.computed[name] = self.computed.get(name, 0) + 1


def _sites(site_ids: list[int] | None, organization_ids: list[int] | None = None) -> list[Site]:
    """The given sites, or every active site and every site where twenty-one was discontinued
    (its chips may still be redeemed for a while, `rules.DISCONTINUED_REDEMPTION`), optionally
    only those of some organizations (one chunk of a fanned-out run)."""
    everyone = Site.objects.filter(Q(active=True) | Q(twenty_one_discontinued_on__isnull=False))
    qs = everyone if site_ids is None else Site.objects.filter(pk__in=site_ids)
    if organization_ids is not None:
        qs = qs.filter(organization_id__in=organization_ids)
    return list(qs.order_by("pk"))


def open_review_program_for(alert: Alert) -> None:
    """A low-hold quarter starts the video review program at once (`rules.LOW_HOLD`), unless the
    site started one since the quarter ended: the review the alert asks for, begun (or done, or
    closed with its reason documented) before the check found the quarter, is not started twice."""
    from django.core.exceptions import ValidationError

    from surveillance.queries import review_started_since
    from surveillance.services import open_review_program

    if review_started_since(alert.site_id, alert.period_end + timedelta(days=1)):
        return
    start = max(alert.period_end + timedelta(days=1), alert.site.today())
    try:
        open_review_program(None, alert.site, start, f"{alert.citation}: {alert.action_required}")
    except ValidationError:
        pass  # a program is already running at the site (or it has no active table): nothing to open


def require_surveillance_for(alert: Alert) -> None:
    """The level of activity found by the quarter rule makes the site require
    a system from the day after the quarter, operational by the alert's due date (45 days);
    the status is the rule's, not typed in (`surveillance.services.require_surveillance_by_rule`)."""
    from surveillance.services import require_surveillance_by_rule

    require_surveillance_by_rule(
        site=alert.site,
        since=alert.period_end + timedelta(days=1),
        operational_due_on=alert.due_date,
        reason=f"{alert.citation}: {alert.action_required}",
    )


@dataclass(frozen=True)
class FollowUp:
    """What opening an alert of a rule sets in motion beyond the alert itself (`act`), and the
    run's computations (`RunContext` names) that what it writes may change (`writes`): forgotten
    after it runs, so a later provider of the same run reads them afresh. A follow-up that writes
    something a provider reads in a run declares it here, beside its registration."""

    act: Callable[[Alert], None]
    writes: tuple[str, ...]


FOLLOW_UPS: dict[str, FollowUp] = {
    # A review program's weekly tasks (surveillance.queries.review_weeks_due).
    "low_hold_21": FollowUp(open_review_program_for, writes=("review_weeks_due",)),
    "low_hold_PW": FollowUp(open_review_program_for, writes=("review_weeks_due",)),
    # The site's surveillance status (surveillance.queries.statuses_by_site).
    "surveillance_required": FollowUp(require_surveillance_for, writes=("surveillance_statuses",)),
}


def _record(findings: Iterable[Finding], sites: list[Site], result: RunResult, run: RunContext) -> None:
    """A provider's findings become alerts together (`open_alerts`: a bounded number of
    queries, not a few per finding), then each new alert's follow-up, if its rule has one."""
    opened, already_open = open_alerts(list(findings), organization_of={s.pk: s.organization_id for s in sites})
    result.already_open += already_open
    for alert in opened:
        result.opened.append(alert)
        if follow_up := FOLLOW_UPS.get(alert.rule):
            follow_up.act(alert)
            for name in follow_up.writes:
                run.forget(name)


def _call(provider, *args, run: RunContext):
    return provider(*args, run=run) if getattr(provider, "takes_run", False) else provider(*args)


def run_quarter_rules(
    *,
    site_ids: list[int] | None,
    quarter: Quarter,
    organization_ids: list[int] | None = None,
    run: RunContext | None = None,
    sites: list[Site] | None = None,
) -> RunResult:
    sites = _sites(site_ids, organization_ids) if sites is None else sites
    run, result = run or RunContext(), RunResult()
    book = run.book(quarter.end)
    for provider in QUARTER_PROVIDERS:
        if judged := sites_for(provider, sites):
            _record(_call(provider, judged, quarter, book, run=run), sites, result, run)
    return result


def run_day_checks(
    *,
    site_ids: list[int] | None,
    start: date,
    end: date,
    organization_ids: list[int] | None = None,
    run: RunContext | None = None,
    sites: list[Site] | None = None,
    day_by_day: bool | None = None,
) -> RunResult:
    """One transaction: the slip check's checkpoints (compliance.slip_series) move on only
    with the alerts of what they passed. `day_by_day`: only the providers registered so (True)
    or only the others (False); None, all."""
    sites = _sites(site_ids, organization_ids) if sites is None else sites
    run, result = run or RunContext(), RunResult()
    book = run.book(end)
    with transaction.atomic(savepoint=False):  # inside a run's transaction (run_scan), no savepoint of its own
        for provider in DAY_PROVIDERS:
            if day_by_day is not None and getattr(provider, "day_by_day", False) != day_by_day:
                continue
            if judged := sites_for(provider, sites):
                _record(_call(provider, judged, start, end, book, run=run), sites, result, run)
    return result


def run_scan(
    *,
    site_ids: list[int] | None = None,
    organization_ids: list[int] | None = None,
    quarters: Iterable[Quarter] = (),
    day_ranges: Iterable[tuple[date, date]] = (),
) -> RunResult:
    """One run: the quarter rules of each quarter, then the day rules of each range, for the
    sites (or those of some organizations), sharing one RunContext so that each site-quarter's
    figures are computed once. The rules that judge day by day see the ranges that touch as
    one (`joined`). What each chunk of a fanned-out run executes (compliance.tasks)."""
    quarters, day_ranges = list(quarters), sorted(day_ranges)
    sites, run, total = _sites(site_ids, organization_ids), RunContext(quarters, day_ranges), RunResult()
    spans = joined(day_ranges)
    # The quarter rules in one transaction, the day checks in another: the alerts each opens
    # are e-mailed by tasks of up to NOTIFY_BATCH alerts queued when it commits
    # (services._notify_when_committed), not by a small task per rule and period; and their
    # audit events are appended when it ends (appended_at_end), each organization's together,
    # so its chain lock is held for that last write only, not while the rules read.
    with transaction.atomic(), appended_at_end():
        parts = [run_quarter_rules(site_ids=None, quarter=q, run=run, sites=sites) for q in quarters]
    with transaction.atomic(), appended_at_end():
        if spans == day_ranges:
            parts += [run_day_checks(site_ids=None, start=a, end=b, run=run, sites=sites) for a, b in day_ranges]
        else:
            parts += [
                run_day_checks(site_ids=None, start=a, end=b, run=run, sites=sites, day_by_day=False)
                for a, b in day_ranges
            ]
            parts += [
                run_day_checks(site_ids=None, start=a, end=b, run=run, sites=sites, day_by_day=True) for a, b in spans
            ]
    for part in parts:
        total.opened += part.opened
        total.already_open += part.already_open
    return total


def joined(day_ranges: Iterable[tuple[date, date]]) -> list[tuple[date, date]]:
    """The ranges, those that overlap or follow one another without a day between joined into
    one, in date order: eight consecutive quarters become one range of two years, which a
    day-by-day rule reads once (the slip series once, not again for each later quarter)."""
    result: list[tuple[date, date]] = []
    for start, end in sorted(day_ranges):
        if result and start <= result[-1][1] + timedelta(days=1):
            result[-1] = (result[-1][0], max(end, result[-1][1]))
        else:
            result.append((start, end))
    return result


def run_all(*, site_ids: list[int] | None, quarter: Quarter) -> RunResult:
    """The quarter rules and the day rules for every day of the quarter (up to yesterday)."""
    last_day = min(quarter.end, timezone.localdate() - timedelta(days=1))
    days = [(quarter.start, last_day)] if last_day >= quarter.start else []
    return run_scan(site_ids=site_ids, quarters=[quarter], day_ranges=days)


def refuse_before_the_law(site_ids: list[int] | None, quarter: Quarter) -> None:
    """A quarter that begins before the first day the rules can judge at the sites (the texts of
    their thresholds held: `thresholds.judged_from`) is refused naming the quarter, the text and
    the first quarter that can be judged (a 400, an inline message), and no run is recorded."""
    sites = _sites(site_ids)
    if not sites:
        return
    first, citation = judged_from(site.jurisdiction for site in sites)
    if quarter.start >= first:
        return
    earliest = Quarter.first_from(first)
    raise LawNotHeld(
        {
            "quarter": [
                f"{citation}: the text of this rule held here is in force from {first}; {quarter} begins before it and "
                f"the earlier text is not held, so its acts cannot be judged: choose {earliest} or a later quarter."
            ]
        }
    )


def run_checks(*, site_ids: list[int] | None, quarter: Quarter, trigger: str, acting_user=None) -> RunResult:
    """`run_all`, kept as a ComplianceRun (when, by whom, the result) for the compliance page."""
    from .services import finish_run, start_run

    refuse_before_the_law(site_ids, quarter)
    site = Site.objects.get(pk=site_ids[0]) if site_ids and len(site_ids) == 1 else None
    run = start_run(
        trigger=trigger, acting_user=acting_user, site=site, scope={"quarters": [str(quarter)], "site_ids": site_ids}
    )
    try:
        result = run_all(site_ids=site_ids, quarter=quarter)
    except Exception as exc:
        finish_run(run.pk, error=f"{type(exc).__name__}: {exc}")
        raise
    finish_run(run.pk, result=result.as_dict())
    return result


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
