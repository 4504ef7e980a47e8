"""A compact builder of signed records across accounting, counts and cage, for figure tests."""

from datetime import UTC, date, datetime, timedelta

from cage.models import BankCount
from counts.models import CountAgreement, CountEntry, CountSession, CountSignature, Drop, DropBox, FormFound
from floor.models import GamingDay, GamingDayClose, Slip, SlipStep, TableInventory


def at(day: date, hour: int) -> datetime:
    return datetime.combine(day, datetime.min.time(), tzinfo=UTC) + timedelta(hours=hour)


class Scenario:
    def __init__(self, site, people):
        self.site, self.people = site, people
        self.days = {}

    def day(self, gaming_date: date, *, closed=True) -> GamingDay:
        if gaming_date not in self.days:
            day = GamingDay.objects.create(
                site=self.site, gaming_date=gaming_date, opened_at=at(gaming_date, 18), opened_by=self.people["shift"]
            )
            if closed:
                GamingDayClose.objects.create(
                    gaming_day=day, closed_at=at(gaming_date, 30), closed_by=self.people["shift"]
                )
            self.days[gaming_date] = day
        return self.days[gaming_date]

    def tray(self, table, gaming_date, kind, cents):
        day = self.day(gaming_date)
        return TableInventory.objects.create(
            gaming_day=day,
            table=table,
            kind=kind,
            total_cents=cents,
            counted_at=at(gaming_date, 19 if kind == "opener" else 29),
            counted_by=self.people["shift"],
        )

    def slip(self, table, gaming_date, kind, cents, *, number, void=False):
        day = self.day(gaming_date)
        slip = Slip.objects.create(
            site=self.site,
            kind=kind,
            number=number,
            table=table,
            gaming_day=day,
            game=table.game,
            table_number=table.number,
            prepared_at=at(gaming_date, 21),
            prepared_by=self.people["shift"],
            total_cents=cents,
        )
        if void:
            SlipStep.objects.create(
                slip=slip, kind="void", employee=self.people["shift"], initials="SM", at=at(gaming_date, 22)
            )
        else:  # a box already counted found it (ND 99-01.3-08-05(2): every slip accounted for)
            for entry in CountEntry.objects.filter(drop__table=table, drop__gaming_date=gaming_date):
                FormFound.objects.create(entry=entry, kind=kind, number=number)
        return slip

    def drop(self, table, gaming_date, cents, *, signed=True, dealer_shift_id=None):
        box, _ = DropBox.objects.get_or_create(site=self.site, table=table, number=table.number)
        drop = Drop.objects.create(
            site=self.site,
            drop_box=box,
            table=table,
            gaming_date=gaming_date,
            dealer_shift_id=dealer_shift_id,
            placed_at=at(gaming_date, 18),
            placed_by=self.people["shift"],
        )
        session = CountSession.objects.filter(site=self.site, gaming_date=gaming_date).first()
        new_session = session is None
        if new_session:
            session = CountSession.objects.create(
                site=self.site,
                gaming_date=gaming_date,
                first_member=self.people["count1"],
                second_member=self.people["count2"],
                opened_by=self.people["count1"],
                opened_at=at(gaming_date, 34),
            )
        entry = CountEntry.objects.create(
            session=session,
            drop=drop,
            kind="member",
            entered_by=self.people["count1"],
            entered_at=at(gaming_date, 35),
            total_cents=cents,
        )
        # The count finds the table's slips of the day in its box (ND 99-01.3-08-05(2)).
        issued = Slip.objects.filter(table=table, gaming_day__gaming_date=gaming_date).exclude(steps__kind="void")
        FormFound.objects.bulk_create(
            FormFound(entry=entry, kind=kind, number=number) for kind, number in issued.values_list("kind", "number")
        )
        CountAgreement.objects.create(
            session=session, drop=drop, entry=entry, source="match", total_cents=cents, agreed_at=at(gaming_date, 36)
        )
        if signed and new_session:
            for member in (self.people["count1"], self.people["count2"]):
                CountSignature.objects.create(
                    session=session, member=member, initials=member.initials, signed_at=at(gaming_date, 37)
                )
        return drop

    def played(self, gaming_date, table):
        """A plain day played at `table`: tray $2,000 -> $1,850, $1,000 dropped, both banks counted
        ($5,000 cash, $3,000 chips); no slips."""
        self.tray(table, gaming_date, "opener", 200_000)
        self.tray(table, gaming_date, "closer", 185_000)
        self.drop(table, gaming_date, 100_000)
        for kind in ("start", "end"):
            self.bank(gaming_date, kind, 500_000, 300_000)

    def bank(self, gaming_date, kind, cash_cents, chips_cents):
        return BankCount.objects.create(
            site=self.site,
            gaming_date=gaming_date,
            kind=kind,
            counted_at=at(gaming_date, 18),
            counted_by=self.people["cashier"],
            initials="CO",
            cash_cents=cash_cents,
            chips_cents=chips_cents,
        )


def shift(scenario, table, dealer, gaming_date, start_hour, end_hour):
    from floor.models import DealerShift

    day = scenario.day(gaming_date)
    return DealerShift.objects.create(
        table=table,
        dealer=dealer,
        gaming_day=day,
        started_at=at(gaming_date, start_hour),
        ended_at=at(gaming_date, end_hour),
        started_by=scenario.people["shift"],
    )


def change_count(scenario, table, gaming_date, for_shift, cents):
    return TableInventory.objects.create(
        gaming_day=scenario.day(gaming_date),
        table=table,
        kind="change",
        total_cents=cents,
        counted_at=for_shift.started_at,
        dealer_shift=for_shift,
        counted_by=scenario.people["shift"],
    )
