"""The cage demo builder: runs with or without gaming days, and twice without duplicating."""

from datetime import timedelta

from django.utils import timezone

from cage.demo import close_last_night, extend_demo
from cage.models import BankCount, BankDeposit, ChipInventoryCount, ChipMovement, Iou
from cardroom.demo import load_demo
from core.audit_verify import verify_chain
from floor.demo import mark_built

from .conftest import make_gaming_day


def test_the_demo_runs_without_any_gaming_day(db):
    extend_demo(load_demo())
    assert ChipMovement.objects.count() == 2 and ChipInventoryCount.objects.count() == 1
    assert not BankCount.objects.exists()


def test_the_demo_counts_every_gaming_day_with_one_late_deposit_and_is_idempotent(db):
    demo = load_demo()
    busy, shift = demo["sites"]["busy"], demo["people"]["shift"]
    today = timezone.localdate()
    for back in (30, 29, 28):  # days of the floor's demo (marked as its own); the cage's demo closes their books
        mark_built(make_gaming_day(busy, today - timedelta(days=back), shift, books=False))
    extend_demo(demo)
    # The busy site's last night is counted but left open for the books' demo (its amendment): no deposit yet.
    assert BankCount.objects.count() == 6 and BankDeposit.objects.count() == 2
    close_last_night(demo)
    counts, deposits, ious = BankCount.objects.count(), BankDeposit.objects.count(), Iou.objects.count()
    extend_demo(demo)
    close_last_night(demo)
    assert (BankCount.objects.count(), BankDeposit.objects.count(), Iou.objects.count()) == (counts, deposits, ious)
    assert counts == 6 and deposits == 3 and ious == 2
    assert verify_chain().ok  # every record the demo wrote is covered by its event
    assert [d.late for d in BankDeposit.objects.order_by("gaming_date")] == [False, True, False]
    # A bank takes deposits on banking days only (never a Sunday or a holiday); a nil one says so.
    from core.periods import is_banking_day

    assert all(is_banking_day(d.deposited_on) for d in BankDeposit.objects.all())
    assert all((d.amount_cents == 0) == (d.reference == "Nil: no cash profit") for d in BankDeposit.objects.all())
