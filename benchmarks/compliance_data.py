"""Scratch data for `manage.py bench_compliance`: many sites, several quarters, written with
bulk inserts (the services would audit every row; the benchmark measures the scan, not the
writes). Run inside a transaction that the command rolls back."""

from datetime import UTC, date, datetime, timedelta

from django.contrib.auth import get_user_model

from cardroom.models import Employee, Organization, Site, Table
from cardroom.periods import Quarter
from counts.models import CountAgreement, CountEntry, CountSession, CountSignature, Drop, DropBox, DropRemoval
from floor.models import GamingDay, GamingDayClose, Slip, SlipStep, TableInventory


def _at(day: date, hours: int) -> datetime:
    return datetime.combine(day, datetime.min.time(), tzinfo=UTC) + timedelta(hours=hours)


def build(*, sites: int, quarters: int, last: Quarter, days_per_quarter: int = 6, tables: int = 2) -> list[Site]:
    User = get_user_model()
    org = Organization.objects.create(name=f"Benchmark org {datetime.now(UTC).timestamp()}")
    staff, second = (Employee.objects.create(organization=org, user=User.objects.create(username=f"bench-{org.pk}-{i}"),
                                             initials=f"B{i}") for i in (1, 2))
    created_sites = Site.objects.bulk_create([Site(organization=org, name=f"Bench site {n}") for n in range(sites)])
    table_rows = Table.objects.bulk_create([Table(site=s, number=n + 1, min_wager_cents=100, max_wager_cents=2500)
                                            for s in created_sites for n in range(tables)])
    boxes = {t.pk: b for t, b in zip(table_rows, DropBox.objects.bulk_create(
        [DropBox(site_id=t.site_id, table=t, number=t.number) for t in table_rows]), strict=True)}
    quarter_list = [last]
    while len(quarter_list) < quarters:
        quarter_list.insert(0, quarter_list[0].previous())
    days = [q.start + timedelta(days=7 * i) for q in quarter_list for i in range(days_per_quarter)]
    gaming_days = GamingDay.objects.bulk_create([GamingDay(site=s, gaming_date=d, opened_at=_at(d, 18), opened_by=staff)
                                                 for s in created_sites for d in days])
    GamingDayClose.objects.bulk_create([GamingDayClose(gaming_day=g, closed_at=_at(g.gaming_date, 30), closed_by=staff)
                                        for g in gaming_days])
    by_site_day = {(g.site_id, g.gaming_date): g for g in gaming_days}
    trays, slips, drops = [], [], []
    number = {s.pk: 0 for s in created_sites}
    for d in days:  # slip numbers run in time order at each site
        for table in table_rows:
            g = by_site_day[(table.site_id, d)]
            trays += [TableInventory(gaming_day=g, table=table, kind=k, total_cents=150_000, counted_at=_at(d, h),
                                     counted_by=staff) for k, h in (("opener", 19), ("closer", 29))]
            number[table.site_id] += 1
            slips.append(Slip(site_id=table.site_id, kind="fill", number=number[table.site_id], table=table, gaming_day=g,
                              game="21", table_number=table.number, prepared_at=_at(d, 21), prepared_by=staff,
                              total_cents=20_000))
            drops.append(Drop(site_id=table.site_id, drop_box=boxes[table.pk], table=table, gaming_date=d,
                              placed_at=_at(d, 18), placed_by=staff))
    TableInventory.objects.bulk_create(trays)
    slips = Slip.objects.bulk_create(slips)
    SlipStep.objects.bulk_create([SlipStep(slip=s, kind=k, employee=staff, initials="BN", at=_at(s.gaming_day.gaming_date, 22))
                                  for s in slips for k in ("verify", "receive")])
    drops = Drop.objects.bulk_create(drops)
    DropRemoval.objects.bulk_create([DropRemoval(drop=d, removed_at=_at(d.gaming_date, 29), transported_by=staff,
                                                 sole_employee_on_duty=True, storage_place="safe", key_holder=staff,
                                                 recorded_at=_at(d.gaming_date, 29)) for d in drops])
    sessions = {key: s for key, s in zip(sorted(by_site_day), CountSession.objects.bulk_create(
        [CountSession(site_id=k[0], gaming_date=k[1], first_member=staff, second_member=second, opened_by=staff,
                      opened_at=_at(k[1], 34)) for k in sorted(by_site_day)]), strict=True)}
    entries = CountEntry.objects.bulk_create([CountEntry(session=sessions[(d.site_id, d.gaming_date)], drop=d, kind="member",
                                                         entered_by=staff, entered_at=_at(d.gaming_date, 35),
                                                         total_cents=160_000) for d in drops])
    CountAgreement.objects.bulk_create([CountAgreement(session=e.session, drop=e.drop, entry=e, source="match",
                                                       total_cents=e.total_cents, agreed_at=e.entered_at) for e in entries])
    CountSignature.objects.bulk_create([CountSignature(session=s, member=m, initials=m.initials, signed_at=s.opened_at)
                                        for s in sessions.values() for m in (staff, second)])
    return created_sites
