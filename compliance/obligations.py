"""The obligations the calendar shows beside the alerts: those the system already knows are
running, with no alert of their own until they are missed. Each is shown only at a site whose
pack states it (or, for a review program a gaming manager opened where the pack states none,
as the house's own control), cited as that pack cites it:

- each week of a video review program still to be reviewed and documented, on its last day
  (`surveillance.review_program`: ND 99-01.3-08-04(9), one hour a week per active table for six
  continuous weeks after a low-hold quarter); a week documented shows "documented"; a week the
  nightly rules found short has its alert (`REVIEW_WEEK_SHORT`), which the calendar shows in
  its place, not beside it (one missed week, one line);
- the last day of the twelve continuous weeks of dealer percent-of-hold records after a quarter
  whose prizes exceeded gross proceeds (`compliance.prizes_over_gp`: ND 99-01.3-08-01(3)), the
  period the quarter's alert states (its `dealer_hold_from` and `dealer_hold_until` figures);
- each day's bank deposit not yet recorded, on its due date (`cage.queries.deposit_limit`: the
  site's pack's deadline, ND 99-01.3-03-10's third banking day, the house's where the pack states
  none); a deposit recorded leaves the calendar (a day a line, every day, would bury the rest),
  and one the nightly rules found late has its alert (`deposit_late`) in its place;
- each quarter's return, on the day the pack sets for it (`Pack.return_due_months`, an
  assumption where the pack's texts name no date, said so with the date), for each quarter in
  which the site had a gaming day; a quarter filed (`accounting.services.file_quarter`) shows
  "filed".

The reads are bounded: a handful of queries whatever the sites, weeks or quarters."""

from collections import defaultdict
from dataclasses import dataclass, replace
from datetime import date, timedelta

from django.urls import reverse

from accounting.published import filings
from accounting.rules import DEALER_FIGURES, QUARTER_FIGURES, QUARTERLY_SUMMARY
from cage.calculations import deposit_due_on
from cage.queries import days_not_deposited, deposit_limit
from cage.rules import CAGE_RECORDS
from core.periods import Quarter
from floor.queries import quarters_played
from packs import pack_of
from surveillance import queries as surveillance_queries
from surveillance.rules import REVIEW_PROGRAM, SURVEILLANCE_RECORDS

from .models import Alert
from .queries import ALERTS
from .rules import PRIZES_OVER_GP, REVIEW_WEEK_SHORT

# Our texts name no due date for a quarterly return: the pack's date is a house setting
# (`Pack.return_due_months`, ND's documented as an assumption), and the page says so.
RETURN_DUE_NOTE = "due date as set for this jurisdiction (house setting; the chapter names none)"

# The longest a prizes-over-gross-proceeds alert's period of dealer records can reach past its
# quarter (twelve weeks in ND's 08-01(3)); bounds the alerts read for a month, not a rule.
_DEALER_WEEKS_REACH = timedelta(days=366)
# The longest from a gaming date to its deposit's due date (a few banking days, weekends and
# holidays between): bounds the days read for a month's deposits, not a rule.
_DEPOSIT_REACH = timedelta(days=31)


@dataclass(frozen=True)
class Obligation:
    """One obligation on one day at one site, as the calendar and the API show it: what it is
    (`kind`), the rule as the site's pack cites it, what is to be done (opening with that
    citation), whether it is done (and in what word), and the page where it is done."""

    kind: str  # "review_week", "dealer_hold_records", "deposit" or "state_return"
    site_id: int
    site_name: str
    due_date: date
    title: str
    citation: str
    action: str
    status: str  # "to document", "documented", "running", "period ended", "to deposit", "not filed", "filed", "overdue"
    done: bool
    url: str  # "": a page the user does not open (`PAGE_RULES`), the title shown alone
    # The page is the current site's (the site switcher chooses it): the calendar offers to switch.
    url_at_site: bool = False
    # The order within a day, site and kind, by number where the title has one (table 2 before 10).
    rank: tuple = ()

    @property
    def overdue(self) -> bool:
        return self.status == "overdue"


def obligations_between(access, first: date, last: date, today: date) -> list[Obligation]:
    """The running obligations of the sites where `ALERTS` lets the user read due in [first,
    last], and before them the quarterly returns still not filed and overdue (due before `first`
    and `today`), in order of due date and site. At most eleven queries."""
    sites = {site.pk: site for site in ALERTS.sites(access)}
    overdue_before = min(first, today)
    found = [
        *_review_weeks(sites, first, last, today),
        *_dealer_record_periods(sites, first, last, today),
        *_deposits(sites, first, last, today),
        *_returns(sites, today, lambda due, filed: first <= due <= last or (due < overdue_before and not filed)),
    ]
    return in_order([_as_read_by(access, o) for o in found])


# Who may open the page each kind of obligation links to: the calendar's readers (`ALERTS`) are
# more than a quarter's (a shift manager reads the calendar, not the quarter's figures and tax).
PAGE_RULES = {
    "review_week": SURVEILLANCE_RECORDS,
    "dealer_hold_records": DEALER_FIGURES,
    "deposit": CAGE_RECORDS,
    "state_return": QUARTER_FIGURES,
}


def _as_read_by(access, obligation: Obligation) -> Obligation:
    """The obligation with its page, or with none ("") where the user's roles at its site do not
    open that page (it linked to a 403)."""
    return obligation if PAGE_RULES[obligation.kind].allows(access, obligation.site_id) else replace(obligation, url="")


def in_order(obligations: list[Obligation]) -> list[Obligation]:
    """By due date, site and kind, then by number where they have one (table 2 before table 10)."""
    return sorted(obligations, key=lambda o: (o.due_date, o.site_name, o.kind, o.rank, o.title))


def _review_weeks(sites: dict, first: date, last: date, today: date) -> list[Obligation]:
    """Each week of a review program ending in [first, last] (not after its program closed)."""
    if not sites:
        return []
    tasks, reviewed = surveillance_queries.review_weeks(list(sites), first, last)
    alerted = set(
        Alert.objects.filter(
            rule=REVIEW_WEEK_SHORT, site_id__in=list(sites), subject__in=[f"task:{task.pk}" for task in tasks]
        ).values_list("subject", flat=True)
    )
    found = []
    for task in tasks:
        if f"task:{task.pk}" in alerted:
            continue  # missed: its alert is on the calendar instead
        site = task.program.site = sites[task.program.site_id]  # its pack's numbers with no query
        footage = surveillance_queries.program_footage(task.program)  # what the program asked when opened
        done = reviewed.get(task.pk, timedelta()) >= footage.value
        citation = REVIEW_PROGRAM.at(site)
        found.append(
            Obligation(
                "review_week",
                site.pk,
                site.name,
                task.week_end,
                f"Video review, table {task.table.number}, week {task.week}",
                citation,
                f"{citation}: review and document {footage.text} of table {task.table.number}'s video, "
                f"week {task.week} ({task.week_start} to {task.week_end}).",
                "documented" if done else ("overdue" if task.week_end < today else "to document"),
                done,
                reverse("surveillance:program", kwargs={"pk": task.program_id}),
                url_at_site=True,
                rank=(task.table.number, task.week),
            )
        )
    return found


def _dealer_record_periods(sites: dict, first: date, last: date, today: date) -> list[Obligation]:
    """The last day of each period of dealer percent-of-hold records ending in [first, last]:
    the period a prizes-over-gross-proceeds alert states, at a site whose pack states the rule."""
    stated = [pk for pk, site in sites.items() if PRIZES_OVER_GP.applies(site)]
    if not stated:
        return []
    alerts = Alert.objects.filter(
        rule="prizes_over_gp", site_id__in=stated, period_end__range=(first - _DEALER_WEEKS_REACH, last)
    ).values_list("site_id", "period_key", "figures")
    found = []
    for site_id, quarter, figures in alerts:
        if "dealer_hold_until" not in figures:
            continue
        start, end = date.fromisoformat(figures["dealer_hold_from"]), date.fromisoformat(figures["dealer_hold_until"])
        if not first <= end <= last:
            continue
        site, citation = sites[site_id], PRIZES_OVER_GP.at(sites[site_id])
        weeks = ((end - start).days + 1) // 7
        found.append(
            Obligation(
                "dealer_hold_records",
                site_id,
                site.name,
                end,
                "Dealer percent-of-hold records: last day",
                citation,
                f"{citation}: percent-of-hold records for each dealer at the site for {weeks} continuous weeks, "
                f"{start} to {end}, after {quarter}, whose twenty-one prizes exceeded gross proceeds.",
                "period ended" if end < today else "running",
                end < today,
                f"{reverse('dashboard:dealers')}?site={site_id}&start={start}&end={end}",
            )
        )
    return found


def _deposits(sites: dict, first: date, last: date, today: date) -> list[Obligation]:
    """Each day that takes a deposit (`cage.queries.days_not_deposited`: not a day whose only records
    are adjusting entries) whose deposit falls due in [first, last] with none recorded, but for
    one whose deposit the nightly rules found late (its alert is on the calendar instead)."""
    if not sites:
        return []
    found = []
    for site_id, day in days_not_deposited(list(sites), first - _DEPOSIT_REACH, last):
        site = sites[site_id]
        due = deposit_due_on(site, day)
        if first <= due <= last:
            found.append((site, day, due, deposit_limit(site, day).citation))
    alerted = set(
        Alert.objects.filter(
            rule="deposit_late", site_id__in={site.pk for site, *_ in found}, period_key__in={str(d) for _, d, *_ in found}
        ).values_list("site_id", "period_key")
    ) if found else set()  # fmt: skip
    return [
        Obligation(
            "deposit",
            site.pk,
            site.name,
            due,
            f"Bank deposit of {day}",
            citation,
            f"{citation}: deposit the receipts of gaming day {day} by {due}, and record the deposit.",
            "overdue" if due < today else "to deposit",
            False,
            reverse("cage:deposits"),
            url_at_site=True,
        )
        for site, day, due, citation in found
        if (site.pk, str(day)) not in alerted
    ]


def _returns(sites: dict, today: date, wanted) -> list[Obligation]:
    """The return of each quarter in which a site had a gaming day, at a site whose pack sets a
    due date, where `wanted(due date, filed)` (`accounting.published.filings`)."""
    months = {pk: pack_of(site).return_due_months for pk, site in sites.items()}
    months = {pk: m for pk, m in months.items() if m is not None}
    if not months:
        return []
    due = {(pk, q): q.month_end_after(months[pk]) for pk, q in sorted(quarters_played(list(months)))}
    filed = filings({pk for pk, _ in due}, {q for _, q in due}) if due else {}
    return [
        _return(sites[pk], quarter, day, (pk, str(quarter)) in filed, today)
        for (pk, quarter), day in due.items()
        if wanted(day, (pk, str(quarter)) in filed)
    ]


def _return(site, quarter: Quarter, due: date, filed: bool, today: date) -> Obligation:
    citation = QUARTERLY_SUMMARY.at(site)
    return Obligation(
        "state_return",
        site.pk,
        site.name,
        due,
        f"Quarterly return {quarter}",
        citation,
        f"{citation}: the site's quarterly summary for {quarter}, reconciled to the return, filed by {due}; "
        f"{RETURN_DUE_NOTE}.",
        "filed" if filed else ("overdue" if due < today else "not filed"),
        filed,
        f"{reverse('dashboard:quarter')}?site={site.pk}&quarter={quarter}",
    )


def by_day(obligations: list[Obligation]) -> dict[date, list[Obligation]]:
    days = defaultdict(list)
    for obligation in obligations:
        days[obligation.due_date].append(obligation)
    return days
