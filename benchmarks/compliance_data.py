"""Scratch data for `manage.py bench_compliance`: a state's sites at the density of
docs/domain.md section 8, written with bulk inserts (the services would audit every row; the
benchmark measures the scan, not the writes).

- Organizations of 1 to 60 sites (most charities run a few, some 20-60).
- A small site (70%): 1-3 tables, open 4-5 nights a week, drop $100-$800 a night in all;
  its wagers stay at $2, so its gross proceeds (above $10,000 a quarter) do not require video
  surveillance (ND 99-01.3-08-04 applies to wagers above $2).
  A busy site (30%): 4-6 tables, open 6-7 nights a week, $800-$4,000 per table a night; its
  gross proceeds require video surveillance (ND 99-01.3-08-04), so it has it: a status
  required since before the data, a camera and a recording unit per table, a recording of
  each table-day from opener to closer, and its organization's chips meet 08-03(3).
- Each table-day: opener and closer trays of $1,000-$3,000, 0-3 fills and 0-2 credits
  (verified and received, numbered in the order they are prepared), a drop removed at the
  close and counted the next day by a team of two, the day's bank deposit made the next
  banking day (ND 99-01.3-03-10(1): by the third); table-day hold from about -5% to +40% (12-18% over a quarter).
- What the rules must find, at realistic rates: a slip never received (1 in 400), a number
  skipped in a series (1 in 500), a drop box removed late (1 in 1,000), a deposit made on the
  fifth banking day (1 in 300 gaming days), a low-hold quarter at a
  surveillance site (1 in 40 busy site-quarters) and a quarter whose prizes exceed gross
  proceeds (1 in 150 small site-quarters).

Not built (so their rules see nothing to judge): dealer shifts (hence review logs), outages,
equipment changes, tournaments, cage counts."""

import random
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from django.contrib.auth import get_user_model

from cage.models import BankDeposit
from cardroom.models import ChipDenomination, Employee, Organization, Site, Table
from cardroom.periods import Quarter, add_banking_days
from cardroom.rules import CHIP_SPECS
from counts.models import CountAgreement, CountEntry, CountSession, CountSignature, Drop, DropBox, DropRemoval
from floor.models import GamingDay, GamingDayClose, Slip, SlipStep, TableInventory
from surveillance.models import Equipment, Recording, SurveillanceStatus

BATCH = 2000
SURVEILLANCE_SINCE = date(2020, 1, 1)
UNRECEIVED_ONE_IN, SKIPPED_ONE_IN, LATE_REMOVAL_ONE_IN = 400, 500, 1000
LOW_HOLD_ONE_IN, PRIZES_OVER_GP_ONE_IN, LATE_DEPOSIT_ONE_IN = 40, 150, 300
SMALL_SITE_MAX_WAGER_CENTS = 200


def _at(day: date, hours: float) -> datetime:
    return datetime.combine(day, datetime.min.time(), tzinfo=UTC) + timedelta(hours=hours)


def organization_sizes(sites: int, rng: random.Random) -> list[int]:
    sizes = []
    while sum(sizes) < sites:
        sizes.append(rng.randint(20, 60) if rng.random() < 0.1 else rng.randint(1, 6))
    sizes[-1] -= sum(sizes) - sites
    return [s for s in sizes if s > 0]


@dataclass
class Built:
    sites: list[Site]
    organizations: int
    rows: int
    expected: dict  # what the data calls for, by kind


class _Writer:
    """Rows queued per model and written in batches, parents before children."""

    def __init__(self):
        self.rows = 0

    def write(self, model, objects):
        created = model.objects.bulk_create(objects, batch_size=BATCH)
        self.rows += len(created)
        return created


def build(*, sites: int, quarters: int, last: Quarter, seed: int = 1) -> Built:
    rng, writer = random.Random(seed), _Writer()
    expected = {"unreceived": 0, "skipped": 0, "late_removal": 0, "low_hold_quarters": 0, "prizes_over_gp_quarters": 0,
                "late_deposit": 0}
    quarter_list = [last]
    while len(quarter_list) < quarters:
        quarter_list.insert(0, quarter_list[0].previous())
    User = get_user_model()
    stamp = int(datetime.now(UTC).timestamp())
    all_sites = []
    for org_index, size in enumerate(organization_sizes(sites, rng)):
        org = writer.write(Organization, [Organization(name=f"Bench charity {stamp}-{org_index}")])[0]
        users = writer.write(User, [User(username=f"bench-{org.pk}-{i}") for i in (1, 2)])
        staff, second = writer.write(Employee, [Employee(organization=org, user=u, initials=f"B{i}")
                                                for i, u in enumerate(users, 1)])
        org_sites = writer.write(Site, [Site(organization=org, name=f"Bench site {org_index}-{n}") for n in range(size)])
        busy = {s.pk: rng.random() < 0.3 for s in org_sites}
        if any(busy.values()):
            writer.write(ChipDenomination, [ChipDenomination(organization=org, value_cents=value,
                                                             primary_colour=spec.primary_colour,
                                                             edge_spots=spec.edge_spots,
                                                             edge_colour=spec.default_edge_colour)
                                            for value, spec in CHIP_SPECS.items()])
        for site in org_sites:
            _build_site(writer, rng, site, busy[site.pk], quarter_list, staff, second, expected)
        all_sites += org_sites
    return Built(all_sites, org_index + 1, writer.rows, expected)


def _build_site(writer, rng, site, busy, quarter_list, staff, second, expected):
    max_wager = 2500 if busy else SMALL_SITE_MAX_WAGER_CENTS
    tables = writer.write(Table, [Table(site=site, number=n + 1, min_wager_cents=100, max_wager_cents=max_wager)
                                  for n in range(rng.randint(4, 6) if busy else rng.randint(1, 3))])
    boxes = dict(zip([t.pk for t in tables], writer.write(DropBox, [DropBox(site=site, table=t, number=t.number)
                                                                    for t in tables]), strict=True))
    recorders = {}
    if busy:
        writer.write(SurveillanceStatus, [SurveillanceStatus(
            site=site, required=True, since=SURVEILLANCE_SINCE, operational_on=SURVEILLANCE_SINCE,
            reason="Benchmark: a busy site's gross proceeds require surveillance (ND 99-01.3-08-04).",
            recorded_at=_at(SURVEILLANCE_SINCE, 0))])
        equipment = writer.write(Equipment, [Equipment(site=site, table=t, kind=kind, make_model="Bench",
                                                       installed_on=SURVEILLANCE_SINCE)
                                             for t in tables for kind in (Equipment.Kind.CAMERA, Equipment.Kind.RECORDING_UNIT)])
        recorders = {e.table_id: e for e in equipment if e.kind == Equipment.Kind.RECORDING_UNIT}
    nights = rng.randint(6, 7) if busy else rng.randint(4, 5)
    weekdays = sorted(rng.sample(range(7), nights))
    numbers = {"fill": 0, "credit": 0}
    for quarter in quarter_list:
        mean_hold = 0.15
        if busy and rng.randrange(LOW_HOLD_ONE_IN) == 0:
            mean_hold, expected["low_hold_quarters"] = 0.05, expected["low_hold_quarters"] + 1
        elif not busy and rng.randrange(PRIZES_OVER_GP_ONE_IN) == 0:
            mean_hold, expected["prizes_over_gp_quarters"] = -0.3, expected["prizes_over_gp_quarters"] + 1
        days = [d for d in (quarter.start + timedelta(days=i) for i in range((quarter.end - quarter.start).days + 1))
                if d.weekday() in weekdays]
        _build_quarter(writer, rng, site, tables, boxes, recorders, days, mean_hold, numbers, staff, second, expected)


def _build_quarter(writer, rng, site, tables, boxes, recorders, days, mean_hold, numbers, staff, second, expected):
    gaming_days = writer.write(GamingDay, [GamingDay(site=site, gaming_date=d, opened_at=_at(d, 18), opened_by=staff)
                                           for d in days])
    writer.write(GamingDayClose, [GamingDayClose(gaming_day=g, closed_at=_at(g.gaming_date, 30), closed_by=staff)
                                  for g in gaming_days])
    trays, slips, drops, recordings, deposits, unreceived, late = [], [], [], [], [], set(), set()
    busy = bool(recorders)
    for g in gaming_days:
        d = g.gaming_date
        day_win, prepared = 0, 0
        night_drop = rng.randint(10_000, 80_000)  # a small site's whole night
        for table in tables:
            drop = rng.randint(80_000, 400_000) if busy else max(2_000, night_drop // len(tables))
            win = int(drop * max(-0.05, min(0.40, rng.gauss(mean_hold, 0.10))))
            opener = rng.randrange(100_000, 300_001, 500)
            amounts = {kind: [rng.randrange(20_000, 100_001, 500) for _ in range(rng.randint(0, limit))]
                       for kind, limit in (("fill", 3), ("credit", 2))}
            closer = opener + win - drop + sum(amounts["fill"]) - sum(amounts["credit"])
            while closer < 0:  # the table ran out of chips: one more fill
                amounts["fill"].append(rng.randrange(50_000, 100_001, 500))
                closer += amounts["fill"][-1]
            day_win += win
            trays += [TableInventory(gaming_day=g, table=table, kind=k, total_cents=c, counted_at=_at(d, h),
                                     counted_by=staff) for k, c, h in (("opener", opener, 19), ("closer", closer, 29))]
            for kind, values in amounts.items():
                for cents in values:
                    if rng.randrange(SKIPPED_ONE_IN) == 0:
                        numbers[kind] += 1
                        expected["skipped"] += 1
                    numbers[kind] += 1
                    slips.append(Slip(site=site, kind=kind, number=numbers[kind], table=table, gaming_day=g, game="21",
                                      table_number=table.number, prepared_at=_at(d, 19.5 + prepared / 20),
                                      prepared_by=staff,
                                      total_cents=cents))
                    prepared += 1
                    if rng.randrange(UNRECEIVED_ONE_IN) == 0:
                        unreceived.add(len(slips) - 1)
                        expected["unreceived"] += 1
            if rng.randrange(LATE_REMOVAL_ONE_IN) == 0:
                late.add(len(drops))
                expected["late_removal"] += 1
            drops.append((Drop(site=site, drop_box=boxes[table.pk], table=table, gaming_date=d, placed_at=_at(d, 18),
                               placed_by=staff), drop))
            if busy:
                recordings.append(Recording(table=table, recorder=recorders[table.pk], gaming_date=d,
                                            started_at=_at(d, 19), stopped_at=_at(d, 29.5), release_on=d + timedelta(days=365),
                                            operated_by=staff, recorded_at=_at(d, 29.5)))
        late_deposit = rng.randrange(LATE_DEPOSIT_ONE_IN) == 0
        expected["late_deposit"] += late_deposit
        deposited = add_banking_days(d, 5 if late_deposit else 1)
        deposits.append(BankDeposit(site=site, gaming_day=g, gaming_date=d, amount_cents=max(0, day_win),
                                    deposited_on=deposited, due_on=add_banking_days(d, 3), recorded_by=staff,
                                    recorded_at=_at(deposited, 15)))
    writer.write(TableInventory, trays)
    writer.write(BankDeposit, deposits)
    slips = writer.write(Slip, slips)
    writer.write(SlipStep, [SlipStep(slip=s, kind=k, employee=staff, initials="B1", at=_at(s.gaming_day.gaming_date, 22.5))
                            for i, s in enumerate(slips) for k in (("verify",) if i in unreceived else ("verify", "receive"))])
    created = writer.write(Drop, [d for d, _ in drops])
    writer.write(DropRemoval, [DropRemoval(drop=d, removed_at=_at(d.gaming_date, 29 + (24 if i in late else 0)),
                                           transported_by=staff, sole_employee_on_duty=True, storage_place="safe",
                                           key_holder=staff, recorded_at=_at(d.gaming_date, 29 + (24 if i in late else 0)))
                               for i, d in enumerate(created)])
    sessions = dict(zip([g.gaming_date for g in gaming_days], writer.write(CountSession, [
        CountSession(site=site, gaming_date=g.gaming_date, first_member=staff, second_member=second, opened_by=staff,
                     opened_at=_at(g.gaming_date, 34)) for g in gaming_days]), strict=True))
    entries = writer.write(CountEntry, [CountEntry(session=sessions[d.gaming_date], drop=d, kind="member", entered_by=staff,
                                                   entered_at=_at(d.gaming_date, 35), total_cents=cents)
                                        for d, (_, cents) in zip(created, drops, strict=True)])
    writer.write(CountAgreement, [CountAgreement(session=e.session, drop=e.drop, entry=e, source="match",
                                                 total_cents=e.total_cents, agreed_at=e.entered_at) for e in entries])
    writer.write(CountSignature, [CountSignature(session=s, member=m, initials=m.initials, signed_at=s.opened_at)
                                  for s in sessions.values() for m in (staff, second)])
    if recordings:
        writer.write(Recording, recordings)
