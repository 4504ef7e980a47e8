"""Demo cage records for `make run`: bank counts for every demo gaming day that exists, a
few IOUs, tips, deposits (one late), a chip receipt and a physical count.

Idempotent: every step looks for what it would create first. Written through the services,
acting as the demo people, so the audit log reads as if the floor did it.
"""

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from cardroom import demo_progress
from floor.models import GamingDay

from . import services
from .calculations import deposit_due_on
from .models import BankCount, BankDeposit, ChipInventoryCount, ChipMovement, IdealBank, Iou, TipDeclaration, TipPolicy

IDEAL = {"busy": 800000, "small": 300000, "seasonal": 400000}
# Starting bank per site key: {cash value: quantity}, {chip value: quantity}.
BANKS = {
    "busy": ({10000: 30, 2000: 150, 500: 80, 100: 100}, {10000: 10, 2500: 600, 500: 200, 100: 1500}),
    "small": ({10000: 10, 2000: 50, 500: 40, 100: 50}, {2500: 200, 500: 80, 100: 600}),
    "seasonal": ({10000: 15, 2000: 60, 500: 40, 100: 50}, {2500: 300, 500: 100, 100: 800}),
}


def extend_demo(demo) -> None:
    organization, sites, people = demo["organization"], demo["sites"], demo["people"]
    gm, cashier = people["gm"].user, people["cashier"].user
    with transaction.atomic():
        _inventory(organization, sites, gm)
        if not TipPolicy.objects.filter(organization=organization).exists():
            services.record_tip_policy(
                acting_user=gm,
                organization=organization,
                pooled=False,
                effective_on=timezone.localdate() - timedelta(days=365),
                description="Each dealer keeps and redeems their own tips at the end of the shift.",
            )
        for key, site in sites.items():
            if not IdealBank.objects.filter(site=site).exists():
                services.set_ideal_bank(
                    acting_user=gm,
                    site=site,
                    amount_cents=IDEAL[key],
                    effective_on=timezone.localdate() - timedelta(days=365),
                )
            days = list(GamingDay.objects.filter(site=site).select_related("close").order_by("gaming_date"))
            _ious_and_tips(site, days, people, cashier)  # before the books of their days close
            for index, day in enumerate(days):
                _bank_counts(site, day, BANKS[key], index, cashier)
                _close_books(site, day, gm)
                _deposit(site, day, index, cashier)
                demo_progress.advance("days banked and closed")


def _net_fills(site, day) -> int:
    """Fills less credits of the day: the chips of fills leave the bank, those of credits come
    back. (The drop box cash is counted apart and enters cash profit on its own.)"""
    from accounting.summaries import table_days

    rows = table_days([site.pk], day.gaming_date, day.gaming_date)
    return sum(r.custody.fills_cents - r.custody.credits_cents for r in rows)


def _moved(by_value: dict, cents: int, unit: int) -> dict:
    """Add (or take) `cents` in `unit` pieces, the rest in $1 pieces, never below zero."""
    result = dict(by_value)
    pieces, rest = divmod(cents, unit)
    result[unit] = max(0, result.get(unit, 0) + pieces)
    result[100] = max(0, result.get(100, 0) + rest // 100)
    return result


def _bank_counts(site, day, bank, index, cashier) -> None:
    cash, chips = bank
    error = (index % 5) - 2 if index % 4 == 0 else 0  # now and then a few dollars long or short
    counts = {
        "start": (cash, chips),
        "end": (_moved(cash, error * 100, 100), _moved(chips, -_net_fills(site, day), 2500)),
    }
    for kind, (counted_cash, counted_chips) in counts.items():
        if BankCount.objects.filter(site=site, gaming_date=day.gaming_date, kind=kind).exists():
            continue
        services.record_bank_count(
            acting_user=cashier,
            site=site,
            gaming_date=day.gaming_date,
            kind=kind,
            cash=counted_cash,
            chips=counted_chips,
        )


def _close_books(site, day, manager) -> None:
    """Close the day's books once it is closed, counted and its bank counted (else leave it open)."""
    from django.core.exceptions import ValidationError

    from accounting.models import BooksClose
    from accounting.services import close_books

    if day.closed_at is None or BooksClose.objects.filter(site=site, gaming_date=day.gaming_date).exists():
        return
    try:
        close_books(acting_user=manager, site=site, gaming_date=day.gaming_date)
    except ValidationError:
        pass  # not all of the day's boxes were counted: the books stay open, as on the floor


def _deposit(site, day, index, cashier) -> None:
    from accounting.queries import books_closed

    if not books_closed(site, day.gaming_date) or BankDeposit.objects.filter(gaming_day=day).exists():
        return
    due = deposit_due_on(day.gaming_date)
    deposited_on = due + timedelta(days=2) if index == 1 else due - timedelta(days=1)  # the second day: late
    if deposited_on > timezone.localdate():
        return
    services.record_deposit(
        acting_user=cashier,
        gaming_day=day,
        amount_cents=50000 + 1250 * (index % 7),
        deposited_on=deposited_on,
        reference=f"Deposit slip {day.gaming_date:%Y%m%d}-{site.pk}",
    )


def _ious_and_tips(site, days, people, cashier) -> None:
    if not days or Iou.objects.filter(site=site).exists():
        return
    first, last = days[0], days[-1]
    iou = services.lend_iou(
        acting_user=cashier,
        site=site,
        gaming_date=first.gaming_date,
        source="bank",
        destination="pull_tabs",
        amount_cents=20000,
        note="Change for the pull-tab booth",
    )
    services.repay_iou(acting_user=cashier, iou=iou, gaming_date=last.gaming_date)
    services.lend_iou(
        acting_user=cashier,
        site=site,
        gaming_date=last.gaming_date,
        source="reserve",
        destination="bank",
        amount_cents=50000,
        note="Extra twenties for a busy night",
    )
    dealer = people["dealer"]
    if not dealer.memberships.filter(site=site).exists() or TipDeclaration.objects.filter(site=site, total_cents__gt=0).exists():
        return
    declaration = services.declare_tips(
        acting_user=dealer.user, site=site, gaming_date=last.gaming_date, chips={100: 14, 500: 2}
    )
    services.redeem_tips(acting_user=cashier, declaration=declaration, dealer=dealer)


def _inventory(organization, sites, gm) -> None:
    if ChipMovement.objects.filter(organization=organization).exists():
        return
    received_on = timezone.localdate() - timedelta(days=200)
    services.receive_chips(
        acting_user=gm,
        organization=organization,
        received_on=received_on,
        reference="Manufacturer invoice 2026-0412",
        chips={50: 200, 100: 2000, 200: 200, 500: 2000, 2500: 600, 10000: 100},
    )
    services.destroy_chips(
        acting_user=gm,
        organization=organization,
        destroyed_on=received_on + timedelta(days=90),
        reference="Worn chips destroyed, witnessed by AT",
        chips={100: 40, 500: 12},
    )
    if not ChipInventoryCount.objects.filter(organization=organization).exists():
        services.record_chip_inventory_count(
            acting_user=gm,
            organization=organization,
            counted_on=timezone.localdate() - timedelta(days=7),
            locations=[
                {"location": "bank", "site": sites["busy"].pk, "chips": {10000: 10, 2500: 60, 500: 200, 100: 300}},
                {"location": "trays", "site": sites["busy"].pk, "chips": {2500: 120, 500: 600, 100: 600}},
                {"location": "bank", "site": sites["small"].pk, "chips": {2500: 20, 500: 80, 100: 150}},
                {"location": "storage", "chips": {50: 200, 100: 880, 200: 200, 500: 1090, 2500: 395, 10000: 88}},
            ],
        )
