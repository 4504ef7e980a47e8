"""Demo: a week of fee collections at "Tacoma Blackjack Room" table 1 (WA-BJ) with the fee cash
counted each day (one day $5 short), its bank counted and its books closed each night, the night's
fee cash deposited once due (none of these days has a gaming day), and a games-of-chance session for each night the demo
played at "Kingston Fire Hall" (NY), all through the services. Skipped when the packs' demo did
not create those sites.

A Kingston session's receipts and prizes are its night's at the table as the floor and counts
demos recorded them (the drop counted, the chips paid out), so the session record and the drop
count of the same night agree. Runs after the counts demo and before the cage demo closes the
night's books (a session is refused in closed books). Only the nights the demo built
(`floor.demo.built_dates`): a night a person entered is theirs to record."""

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.db import transaction
from django.utils import timezone

from cardroom.demo import DEMO_PIN
from cardroom.models import Employee, SigningPin, Site, Table
from cardroom.pins import set_pin
from core.moments import gaming_day_bounds
from core.periods import add_banking_days

from . import services
from .models import FeeCollection, GameSession

DAYS = 7
SHORT_DAY = 3  # days ago: the fee cash counted $5 short


def _local(site: Site, day, hour: int, minute: int = 0) -> datetime:
    return datetime.combine(day, time(hour, minute), tzinfo=ZoneInfo(site.time_zone))


def extend_demo(demo: dict) -> dict:
    tacoma = Site.objects.filter(name="Tacoma Blackjack Room", jurisdiction="WA-BJ").first()
    kingston = Site.objects.filter(name="Kingston Fire Hall", jurisdiction="NY").first()
    with transaction.atomic():
        if tacoma is not None and not FeeCollection.objects.filter(site=tacoma).exists():
            _fees(tacoma)
        if kingston is not None:
            _sessions(kingston)
    return demo


def _fees(site: Site) -> None:
    table = Table.objects.get(site=site, number=1)
    shift = Employee.objects.get(user__username="washift")
    cashier = Employee.objects.get(user__username="wacashier")
    # The witness of each night's count (the shift manager) confirms it with their signing PIN.
    if not SigningPin.objects.filter(employee=shift).exists():
        set_pin(acting_user=shift.user, employee=shift, pin=DEMO_PIN)
    today = site.today()
    for ago in range(DAYS, 0, -1):
        day = today - timedelta(days=ago)
        collected = 0
        for hour, players in ((14, 4), (15, 6), (16, 7), (17, 5)):  # a half-hour fee each hour, per player
            for minute in (0, 30):
                services.record_fee(
                    acting_user=cashier.user,
                    table=table,
                    basis="per_player",
                    period_minutes=30,
                    rate_cents=200,
                    count=players,
                    amount_cents=200 * players,
                    collected_at=_local(site, day, hour, minute),
                )
                collected += 200 * players
        short = 500 if ago == SHORT_DAY else 0
        services.count_fees(
            acting_user=cashier.user,
            site=site,
            gaming_date=day,
            counted_cents=collected - short,
            witness=shift,
            witness_pin=DEMO_PIN,
            counted_at=_local(site, day, 22),
        )
        _bank_and_close(site, day, cashier, collected - short)


# Tacoma's cash bank (cash only: the room takes no chips), the same every morning; the night's
# counted fee cash goes into it in singles.
TACOMA_BANK = {10000: 5, 2000: 20, 500: 20, 100: 100}


def _bank_and_close(site: Site, day, cashier: Employee, counted_cents: int) -> None:
    """The day's bank counted as it opened and closed (the fee cash in it) and its books closed
    by the gaming manager, as a fee room's night ends (accounting.services.close_books): the
    demo's own days only (this runs only where the site had no fee yet), and only a day whose
    business day has ended (close_books refuses one still running: loaded after midnight, before
    the site's start hour, yesterday's date is still in play)."""
    from accounting.services import close_books
    from cage.services import record_bank_count

    end = {**TACOMA_BANK, 100: TACOMA_BANK[100] + counted_cents // 100}
    for kind, cash, hour in (("start", TACOMA_BANK, 13), ("end", end, 23)):
        record_bank_count(
            acting_user=cashier.user,
            site=site,
            gaming_date=day,
            kind=kind,
            cash=cash,
            chips={},
            at=_local(site, day, hour),
        )
    if timezone.now() < gaming_day_bounds(site, day)[1]:
        return  # the gaming day still runs (the site's date is the calendar's before its start hour): its books stay open
    manager = Employee.objects.get(user__username="wagm")
    close_books(acting_user=manager.user, site=site, gaming_date=day)
    _deposit(site, day, cashier, counted_cents)


def _deposit(site: Site, day, cashier: Employee, counted_cents: int) -> None:
    """The night's fee cash to the bank on the second banking day after it, in time for the third
    (a day of the books with no gaming day is deposited as a gaming day is:
    cage.services.record_deposit); a day whose second banking day has not come waits."""
    from cage.services import record_deposit

    deposited_on = add_banking_days(day, 2)
    if deposited_on > site.today():  # as the service asks
        return
    record_deposit(
        acting_user=cashier.user,
        site=site,
        gaming_date=day,
        amount_cents=counted_cents,
        deposited_on=deposited_on,
        reference=f"Deposit slip {day:%Y%m%d}-{site.pk}",
    )


def _sessions(site: Site) -> None:
    from accounting.published import books_closed, table_days
    from floor.demo import OPEN_AT, SESSION, built_dates

    shift = Employee.objects.get(user__username="nyshift")
    recorded = set(GameSession.objects.filter(site=site).values_list("gaming_date", flat=True))
    nights = sorted(d for d in built_dates(site) - recorded if not books_closed(site, d))
    if not nights:
        return
    figures: dict = {}  # gaming date -> [receipts (the drop), prizes]
    for row in table_days([site.pk], nights[0], nights[-1]):
        night = figures.setdefault(row.gaming_date, [0, 0])
        night[0] += row.custody.drop_cents
        night[1] += row.custody.prizes_cents
    for day in nights:
        receipts, prizes = figures.get(day, (0, 0))
        if not receipts:
            continue  # not counted (yet): no session figures to report
        started_at = datetime.combine(day, OPEN_AT, tzinfo=ZoneInfo(site.time_zone))
        services.record_session(
            acting_user=shift.user,
            site=site,
            licence_number="NY-GC-4620",
            started_at=started_at,
            ended_at=started_at + SESSION,
            receipts_cents=receipts,
            prizes_cents=max(0, prizes),
        )
