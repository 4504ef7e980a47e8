"""Inputs of the rules, gathered from the other apps for many sites at once.

Each provider issues a fixed number of queries for all the sites of a run, whatever their
number (measured by `manage.py bench_compliance`)."""

from collections import defaultdict
from datetime import date

from django.utils import timezone

from cardroom.models import Site

from . import rules
from .engine import day_provider
from .thresholds import ThresholdBook


@day_provider
def slip_problems(sites: list[Site], start: date, end: date, book: ThresholdBook):
    """ND 99-01.3-08-05: numbers missing from a series, and slips not verified or not received
    by the end of their gaming day (the day's close, or the next business day's start)."""
    from accounting.calculations import gaming_day_bounds
    from accounting.models import Slip, SlipStep

    by_id = {s.pk: s for s in sites}
    now = timezone.now()
    slips = list(
        Slip.objects.filter(site_id__in=by_id, gaming_day__gaming_date__range=(start, end))
        .select_related("gaming_day__close")
        .only("pk", "site_id", "kind", "number", "gaming_day__gaming_date", "gaming_day__close__closed_at")
    )
    steps = defaultdict(dict)
    for slip_id, kind, at in SlipStep.objects.filter(slip__in=[s.pk for s in slips]).values_list("slip_id", "kind", "at"):
        steps[slip_id][kind] = at
    found = []
    for slip in slips:
        site, day = by_id[slip.site_id], slip.gaming_day
        close = getattr(day, "close", None)
        day_end = close.closed_at if close else gaming_day_bounds(day.gaming_date, site.time_zone, site.business_day_start_hour)[1]
        done = steps[slip.pk]
        if SlipStep.Kind.VOID in done or day_end > now:
            continue
        for kind, problem in ((SlipStep.Kind.VERIFY, "unverified"), (SlipStep.Kind.RECEIVE, "unreceived")):
            if kind not in done or done[kind] > day_end:
                found.append(rules.SlipException(site.pk, day.gaming_date, slip.kind, slip.number, problem))
    found += _missing_numbers(by_id, start, end)
    return rules.slip_exceptions(found)


def _missing_numbers(by_id: dict[int, Site], start: date, end: date) -> list[rules.SlipException]:
    """Gaps in each site's fill and credit series up to the highest number used in the period."""
    from accounting.models import Slip

    numbers = defaultdict(set)
    last_date = {}
    rows = Slip.objects.filter(site_id__in=by_id, gaming_day__gaming_date__lte=end).values_list(
        "site_id", "kind", "number", "gaming_day__gaming_date"
    )
    for site_id, kind, number, gaming_date in rows:
        numbers[(site_id, kind)].add(number)
        last_date[(site_id, kind, number)] = gaming_date
    found = []
    for (site_id, kind), used in numbers.items():
        ordered = sorted(used)
        for before, after in zip(ordered, ordered[1:], strict=False):
            day = last_date[(site_id, kind, after)]  # the gap shows when the next number is used
            if after - before > 1 and start <= day <= end:
                found += [rules.SlipException(site_id, day, kind, n, "missing") for n in range(before + 1, after)]
    return found
