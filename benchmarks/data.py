"""Scratch data for `manage.py bench_reports`: a quarter of play at one busy site (domain.md
8: up to 6 tables, $800-$4,000 per table a night), written with bulk inserts (the services
would audit every row; the benchmark measures the figures and the reports, not the writes).

Signed records are append-only and cannot be deleted: the command runs this inside a
transaction that it rolls back, in an organization of its own."""

import random
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from django.contrib.auth import get_user_model

from cage.models import BankCount
from cardroom.models import Employee, Membership, Organization, Role, Site, Table
from core.periods import Quarter
from counts.models import CountAgreement, CountEntry, CountSession, CountSignature, Drop, DropBox
from floor.models import DealerShift, GamingDay, GamingDayClose, Slip, SlipStep, TableInventory

OPEN_HOUR = 18  # hours after midnight UTC of the gaming date; a gaming day runs to 06:00
HOURS = 10


@dataclass(frozen=True)
class BusySite:
    site: Site
    quarter: Quarter
    requested_by: object  # a user with an auditor role, to request the reports
    dealers: int
    rows: dict  # model name -> rows written


def _at(day: date, hours: float) -> datetime:
    return datetime.combine(day, datetime.min.time(), tzinfo=UTC) + timedelta(hours=hours)


def _people(org, site, dealers: int) -> tuple[dict, list[Employee]]:
    User = get_user_model()
    names = ["shift", "cashier", "count1", "count2", "auditor"] + [f"dealer{n}" for n in range(dealers)]
    users = User.objects.bulk_create([User(username=f"bench-{org.pk}-{name}") for name in names])
    kinds = {"count1": "independent"}
    staff = Employee.objects.bulk_create(
        [
            Employee(organization=org, user=u, initials=f"{i:02d}"[-4:], employment_type=kinds.get(n, "gaming"))
            for i, (n, u) in enumerate(zip(names, users, strict=True))
        ]
    )
    people = dict(zip(names, staff, strict=True))
    roles = {"shift": Role.SHIFT_MANAGER, "cashier": Role.CASHIER, "count1": Role.COUNT_TEAM, "count2": Role.COUNT_TEAM}
    Membership.objects.bulk_create(
        [Membership(employee=people[n], site=site, role=r) for n, r in roles.items()]
        + [Membership(employee=people["auditor"], site=None, role=Role.AUDITOR)]
        + [Membership(employee=e, site=site, role=Role.DEALER) for e in staff[5:]]
    )
    return people, staff[5:]


def build(
    *,
    quarter: Quarter,
    tables: int = 6,
    days: int = 92,
    shifts: int = 3,
    slips: int = 3,
    dealers: int = 12,
    seed: int = 7,
) -> BusySite:
    """`days` gaming days from the quarter's start, every table open, `shifts` dealer shifts per
    table-day with the box exchanged and the tray counted at each change, `slips` fill/credit
    slips per table-day (one in ten voided), counts signed by two members, bank counted."""
    rng = random.Random(seed)
    org = Organization.objects.create(name=f"Benchmark scratch {datetime.now(UTC).timestamp()}")
    site = Site.objects.create(
        organization=org, name="Busy bench site", jurisdiction="ND", time_zone="UTC", business_day_start_hour=6
    )
    people, dealer_rows = _people(org, site, dealers)
    table_rows = Table.objects.bulk_create(
        [Table(site=site, number=n + 1, min_wager_cents=100, max_wager_cents=2500) for n in range(tables)]
    )
    boxes = DropBox.objects.bulk_create([DropBox(site=site, table=t, number=t.number) for t in table_rows])
    dates = [quarter.start + timedelta(days=n) for n in range(days)]
    shift_person = people["shift"]
    gaming_days = GamingDay.objects.bulk_create(
        [GamingDay(site=site, gaming_date=d, opened_at=_at(d, OPEN_HOUR), opened_by=shift_person) for d in dates]
    )
    GamingDayClose.objects.bulk_create(
        [
            GamingDayClose(gaming_day=g, closed_at=_at(g.gaming_date, OPEN_HOUR + HOURS + 1), closed_by=shift_person)
            for g in gaming_days
        ]
    )
    length = HOURS / shifts
    plan = [(g, t, k) for g in gaming_days for t in table_rows for k in range(shifts)]
    shift_rows = DealerShift.objects.bulk_create(
        [
            DealerShift(
                table=t,
                dealer=dealer_rows[(g.pk + t.number + k) % len(dealer_rows)],
                gaming_day=g,
                started_at=_at(g.gaming_date, OPEN_HOUR + k * length),
                ended_at=_at(g.gaming_date, OPEN_HOUR + (k + 1) * length),
                started_by=shift_person,
            )
            for g, t, k in plan
        ]
    )
    trays, drops, slip_rows = [], [], []
    numbers = {"fill": 0, "credit": 0}
    for (g, t, k), s in zip(plan, shift_rows, strict=True):
        day = g.gaming_date
        if k == 0:
            trays.append(
                TableInventory(
                    gaming_day=g,
                    table=t,
                    kind="opener",
                    total_cents=200_000,
                    counted_at=_at(day, OPEN_HOUR),
                    counted_by=shift_person,
                )
            )
        else:
            trays.append(
                TableInventory(
                    gaming_day=g,
                    table=t,
                    kind="change",
                    dealer_shift=s,
                    total_cents=rng.randrange(150_000, 250_000, 500),
                    counted_at=s.started_at,
                    counted_by=shift_person,
                )
            )
        if k == shifts - 1:
            trays.append(
                TableInventory(
                    gaming_day=g,
                    table=t,
                    kind="closer",
                    total_cents=rng.randrange(150_000, 250_000, 500),
                    counted_at=_at(day, OPEN_HOUR + HOURS),
                    counted_by=shift_person,
                )
            )
        drops.append(
            Drop(
                site=site,
                drop_box=boxes[t.number - 1],
                table=t,
                gaming_date=day,
                dealer_shift_id=s.pk,
                placed_at=s.started_at,
                placed_by=shift_person,
            )
        )
        for n in range(slips if k == 0 else 0):  # the day's slips, spread over the day
            kind = "fill" if n % 2 == 0 else "credit"
            numbers[kind] += 1
            slip_rows.append(
                Slip(
                    site=site,
                    kind=kind,
                    number=numbers[kind],
                    table=t,
                    gaming_day=g,
                    game="21",
                    table_number=t.number,
                    prepared_at=_at(day, OPEN_HOUR + 0.5 + n * HOURS / slips),
                    prepared_by=shift_person,
                    total_cents=rng.randrange(10_000, 60_000, 500),
                )
            )
    TableInventory.objects.bulk_create(trays, batch_size=2000)
    drops = Drop.objects.bulk_create(drops, batch_size=2000)
    slip_rows = Slip.objects.bulk_create(slip_rows, batch_size=2000)
    voids = SlipStep.objects.bulk_create(
        [SlipStep(slip=s, kind="void", employee=shift_person, initials="SM", at=s.prepared_at) for s in slip_rows[::10]]
    )
    rows = _counts(site, people, gaming_days, drops, shifts, rng)
    rows.update(_banks(site, people, dates, tables, rng))
    rows.update(
        {
            "GamingDay": len(gaming_days),
            "DealerShift": len(shift_rows),
            "TableInventory": len(trays),
            "Drop": len(drops),
            "Slip": len(slip_rows),
            "SlipStep(void)": len(voids),
        }
    )
    return BusySite(site, quarter, people["auditor"].user, dealers, rows)


def _counts(site, people, gaming_days, drops, shifts, rng) -> dict:
    first, second = people["count1"], people["count2"]
    sessions = CountSession.objects.bulk_create(
        [
            CountSession(
                site=site,
                gaming_date=g.gaming_date,
                first_member=first,
                second_member=second,
                opened_by=first,
                opened_at=_at(g.gaming_date, OPEN_HOUR + HOURS + 2),
            )
            for g in gaming_days
        ]
    )
    by_date = {s.gaming_date: s for s in sessions}
    per_box = 4_000_00 // shifts  # up to $4,000 a table a night
    entries = CountEntry.objects.bulk_create(
        [
            CountEntry(
                session=by_date[d.gaming_date],
                drop=d,
                kind="member",
                entered_by=first,
                entered_at=by_date[d.gaming_date].opened_at,
                total_cents=rng.randrange(per_box // 5, per_box, 100),
            )
            for d in drops
        ],
        batch_size=2000,
    )
    CountAgreement.objects.bulk_create(
        [
            CountAgreement(
                session=e.session,
                drop=e.drop,
                entry=e,
                source="match",
                total_cents=e.total_cents,
                agreed_at=e.entered_at,
            )
            for e in entries
        ],
        batch_size=2000,
    )
    CountSignature.objects.bulk_create(
        [
            CountSignature(session=s, member=m, initials=m.initials, signed_at=s.opened_at)
            for s in sessions
            for m in (first, second)
        ]
    )
    return {
        "CountSession": len(sessions),
        "CountEntry": len(entries),
        "CountAgreement": len(entries),
        "CountSignature": 2 * len(sessions),
    }


def _banks(site, people, dates, tables, rng) -> dict:
    cashier = people["cashier"]
    rows = []
    for d in dates:
        rows.append(
            BankCount(
                site=site,
                gaming_date=d,
                kind="start",
                counted_at=_at(d, OPEN_HOUR - 1),
                counted_by=cashier,
                initials="CA",
                cash_cents=1_000_000,
                chips_cents=1_500_000,
            )
        )
        rows.append(
            BankCount(
                site=site,
                gaming_date=d,
                kind="end",
                counted_at=_at(d, OPEN_HOUR + HOURS),
                counted_by=cashier,
                initials="CA",
                cash_cents=1_000_000 + rng.randrange(0, 1_500_000, 100),
                chips_cents=1_500_000 + rng.randrange(-50_000, 50_000, 100),
            )
        )
    BankCount.objects.bulk_create(rows)
    return {"BankCount": len(rows)}
