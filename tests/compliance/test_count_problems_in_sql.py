"""ND 99-01.3-08-14 with the drops that cannot be flagged left in the database: a drop agreed and
removed surely before its day's end (a bound per site from its time zone and start hour) does not
come back; the rest are judged in Python as before (compliance.providers.count_problems, issue 18).
The findings are those of the pass in Python that fetched every drop, agreement and entry."""

import itertools
from collections import defaultdict
from datetime import UTC, date, datetime, timedelta

import pytest

from cardroom.models import Role
from compliance import providers, rules
from compliance.thresholds import ThresholdBook
from counts import queries as counts_queries
from counts.models import CountAgreement, CountEntry, CountSession, CountSignature, Drop, DropBox, DropRemoval
from counts.queries import current_agreements
from floor.calculations import gaming_day_bounds
from tests.factories import SiteFactory, TableFactory, make_person

START, END = date(2026, 10, 25), date(2026, 11, 20)
DATES = [date(2026, 10, 30) + timedelta(days=n) for n in range(5)]  # across the end of US daylight time (1 Nov)
NOW = datetime(2026, 11, 3, 13, tzinfo=UTC)  # the last days still running or their count not yet due
US = timedelta(microseconds=1)
REMOVALS = {  # removed relative to the day's end
    "never": None,
    "3 hours early": -timedelta(hours=3),
    "a microsecond early": -US,
    "at the end": timedelta(0),
    "a microsecond late": US,
    "2 hours late": timedelta(hours=2),
    "26 hours late": timedelta(hours=26),
}
COUNTS = ("agreed", "not counted", "one count", "counts equal", "counts differ")
ZONES = [("America/Chicago", 6), ("Asia/Kolkata", 0), ("Pacific/Pago_Pago", 23), ("Pacific/Kiritimati", 0)]


def _python_pass(sites, start, end):
    """The judgement as it was made in Python before issue 18 (every drop, agreement and member
    entry of the sites' window fetched)."""
    by_id = {s.pk: s for s in sites}
    drops = Drop.objects.filter(site_id__in=by_id, gaming_date__range=(start, end))
    agreed = set(
        current_agreements()
        .filter(drop__site_id__in=by_id, drop__gaming_date__range=(start, end))
        .values_list("drop_id", flat=True)
    )
    totals = defaultdict(set)
    for drop_id, total in CountEntry.objects.filter(
        drop__site_id__in=by_id, drop__gaming_date__range=(start, end), kind="member"
    ).values_list("drop_id", "total_cents"):
        totals[drop_id].add(total)
    now = datetime.now(UTC)
    day_ends, found = {}, []
    for drop_id, site_id, gaming_date, table_number, box_label, removed_at in drops.values_list(
        "pk", "site_id", "gaming_date", "table__number", "drop_box__label", "removal__removed_at"
    ):
        site = by_id[site_id]
        if (site_id, gaming_date) not in day_ends:
            day_ends[(site_id, gaming_date)] = gaming_day_bounds(
                gaming_date, site.time_zone, site.business_day_start_hour
            )[1]
        day_end = day_ends[(site_id, gaming_date)]
        count_due = day_end + timedelta(days=1)
        label = f"{table_number}{box_label}"
        if now > day_end and (removed_at is None or removed_at > day_end):
            found.append(rules.CountException(site.pk, gaming_date, label, "not_removed"))
        if now > count_due and drop_id not in agreed:
            problem = "unresolved" if len(totals[drop_id]) > 1 else "not_counted"
            found.append(rules.CountException(site.pk, gaming_date, label, problem))
    return rules.count_exceptions(found, at=by_id)


def _sorted(findings):
    """In a stable order: both passes read the drops by gaming date, table and placing time,
    an order that leaves drops placed at the same moment in any order."""
    return sorted(findings, key=lambda f: (f.site_id, f.period_key, f.rule, f.subject))


def _findings(sites, start=START, end=END):
    return list(providers.count_problems(sites, start, end, ThresholdBook(end)))


class _Counts:
    """Drops of one site with their removal and count, a session per gaming date."""

    def __init__(self, site, employee, second):
        self.site, self.employee, self.second = site, employee, second
        self.table = TableFactory(site=site, number=1)
        self.sessions, self.boxes = {}, 0

    def session(self, gaming_date, signed=True):
        if gaming_date not in self.sessions:
            at = datetime.combine(gaming_date + timedelta(days=1), datetime.min.time(), tzinfo=UTC)
            session = CountSession.objects.create(site=self.site, gaming_date=gaming_date, first_member=self.employee,
                                                  second_member=self.second, opened_by=self.employee, opened_at=at)  # fmt: skip
            for member in (self.employee, self.second) if signed else (self.employee,):
                CountSignature.objects.create(session=session, member=member, initials="AB", signed_at=at)
            self.sessions[gaming_date] = session
        return self.sessions[gaming_date]

    def drop(self, gaming_date, removal, count, signed=True):
        self.boxes += 1
        box = DropBox.objects.create(site=self.site, table=self.table, number=self.boxes, label=f"-{self.boxes}")
        day_end = gaming_day_bounds(gaming_date, self.site.time_zone, self.site.business_day_start_hour)[1]
        drop = Drop.objects.create(site=self.site, drop_box=box, table=self.table, gaming_date=gaming_date,
                                   placed_at=day_end - timedelta(hours=12), placed_by=self.employee)  # fmt: skip
        if removal is not None:
            DropRemoval.objects.create(drop=drop, removed_at=day_end + removal, transported_by=self.employee,
                                       sole_employee_on_duty=True, storage_place="safe", key_holder=self.employee,
                                       recorded_at=day_end + removal)  # fmt: skip
        session = self.session(gaming_date, signed)
        totals = {"agreed": [10_000], "one count": [10_000], "counts equal": [10_000, 10_000],
                  "counts differ": [10_000, 12_000]}.get(count, [])  # fmt: skip
        entries = [
            CountEntry.objects.create(
                session=session,
                drop=drop,
                kind="member",
                entered_by=member,
                entered_at=day_end + timedelta(hours=20),
                total_cents=total,
            )  # fmt: skip
            for member, total in zip((self.employee, self.second), totals, strict=False)
        ]
        if count == "agreed":
            CountAgreement.objects.create(session=session, drop=drop, entry=entries[0], source="match",
                                          total_cents=10_000, agreed_at=day_end + timedelta(hours=20))  # fmt: skip


@pytest.fixture
def counting_sites(org, cast, time_machine):
    time_machine.move_to(NOW, tick=False)
    sites = []
    for zone, hour in ZONES:
        site = SiteFactory(organization=org, name=f"Site in {zone}", time_zone=zone, business_day_start_hour=hour)
        second = make_person(org, Role.COUNT_TEAM, site, employment_type="independent")
        sites.append(_Counts(site, cast[Role.COUNT_TEAM], second))
    return sites


def test_the_database_leaves_out_only_drops_the_python_pass_did_not_flag(counting_sites):
    for counts, (n, gaming_date) in itertools.product(counting_sites, enumerate(DATES)):
        for removal, count in itertools.product(REMOVALS.values(), COUNTS):
            counts.drop(gaming_date, removal, count, signed=n != 2)  # an unsigned count agrees nothing
    sites = [c.site for c in counting_sites]
    expected = _python_pass(sites, START, END)
    assert {f.rule for f in expected} == {"count_not_removed", "count_not_counted", "count_unresolved"}
    assert {f.site_id for f in expected} == {s.pk for s in sites}
    assert _sorted(_findings(sites)) == _sorted(expected)


def _in_time(sites):
    """The drops of the sites that the provider's query leaves in the database (agreed ones)."""
    drops = Drop.objects.filter(site__in=sites).filter(counts_queries.removed_in_time(sites, START, END))
    return sorted(drops.values_list("drop_box__number", flat=True))


def test_drops_agreed_and_removed_well_before_the_days_end_stay_in_the_database(counting_sites):
    chicago = counting_sites[0]  # its day ends at 06:00 local: 11:00 UTC (CDT) or 12:00 (CST)
    for removal in REMOVALS.values():
        chicago.drop(DATES[0], removal, "agreed")
    # On 30 October (daylight time) the day ends at 11:00 UTC, the site's lead: removed 3 hours or
    # a microsecond early stays in the database; the others come back and are judged.
    assert _in_time([chicago.site]) == [2, 3]
    found = _findings([chicago.site])
    assert [f.rule for f in found] == ["count_not_removed"] * 4  # never, a microsecond, 2 and 26 hours late
    assert _sorted(found) == _sorted(_python_pass([chicago.site], START, END))


@pytest.mark.parametrize(("zone", "hour", "lead"), [
    ("America/Chicago", 6, 11),  # 06:00 CDT is 11:00 UTC, CST 12:00: the least over the window
    ("Asia/Kolkata", 0, -6),  # midnight at UTC+5:30 is 18:30 UTC the day before: 5.5 hours early, floored
    ("Pacific/Pago_Pago", 23, 12),  # 34 hours past midnight UTC: kept within UTC-12
    ("Pacific/Kiritimati", 0, -14),  # midnight at UTC+14
])  # fmt: skip
def test_a_removal_is_in_time_up_to_midnight_utc_plus_the_sites_lead(zone, hour, lead, org, cast):
    site = SiteFactory(organization=org, time_zone=zone, business_day_start_hour=hour)
    counts = _Counts(
        site, cast[Role.COUNT_TEAM], make_person(org, Role.COUNT_TEAM, site, employment_type="independent")
    )
    gaming_date = DATES[0]
    day_end = gaming_day_bounds(gaming_date, zone, hour)[1]
    bound = datetime.combine(gaming_date + timedelta(days=1), datetime.min.time(), tzinfo=UTC) + timedelta(hours=lead)
    assert bound <= day_end
    for removed_at in (bound - US, bound):
        counts.drop(gaming_date, removed_at - day_end, "agreed")
    assert _in_time([site]) == [1]


def _agree(counts, drop, session, supersedes=None):
    """An agreement of `drop` made in `session` (an adjustment when it supersedes another)."""
    kind = "adjustment" if supersedes else "recount"
    entry = CountEntry.objects.create(session=session, drop=drop, kind=kind, entered_by=counts.employee,
                                      entered_at=session.opened_at, total_cents=10_000)  # fmt: skip
    return CountAgreement.objects.create(session=session, drop=drop, entry=entry, total_cents=10_000,
                                         source="adjustment" if supersedes else "recount", supersedes=supersedes,
                                         agreed_at=session.opened_at)  # fmt: skip


def test_a_drop_is_agreed_by_its_current_signed_agreement_in_whatever_session(counting_sites):
    """The provider first looks a drop's agreement up among the current agreements of the range's
    count sessions; an agreement of a session of another day, or superseded by one, or of an
    unsigned session, is judged as the Python pass judged it."""
    counts, gaming_date = counting_sites[0], DATES[0]
    signed_here, unsigned_here = counts.session(gaming_date), counts.session(DATES[2], signed=False)
    signed_before, unsigned_before = counts.session(START - timedelta(days=2)), counts.session(
        START - timedelta(days=3), signed=False)  # fmt: skip
    for _ in range(6):
        counts.drop(gaming_date, -timedelta(hours=3), "not counted")  # removed in time, no agreement yet
    drops = list(Drop.objects.filter(site=counts.site).order_by("pk"))
    _agree(counts, drops[0], signed_before)  # 1: agreed in a signed session of another day
    _agree(counts, drops[1], unsigned_before)  # 2: in an unsigned session of another day
    _agree(counts, drops[2], unsigned_before, supersedes=_agree(counts, drops[2], signed_here))  # 3: superseded
    _agree(counts, drops[3], signed_before, supersedes=_agree(counts, drops[3], unsigned_here))  # 4: corrected
    _agree(counts, drops[4], signed_here, supersedes=_agree(counts, drops[4], signed_before))  # 5: corrected here
    _agree(counts, drops[5], unsigned_here)  # 6: in an unsigned session of its day
    expected = _python_pass([counts.site], START, END)
    assert sorted(f.subject for f in expected) == ["box:1-2", "box:1-3", "box:1-6"]  # not counted
    assert _sorted(_findings([counts.site])) == _sorted(expected)
