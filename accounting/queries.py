"""Reads used in several places: who deals where, open days and tables, registers, queues."""

from datetime import datetime

from django.db.models import Q, QuerySet

from cardroom.models import Employee, Site, Table

from .models import DealerShift


def shifts_overlapping(start: datetime, end: datetime) -> QuerySet[DealerShift]:
    """Dealer shifts that were running at some moment of [start, end)."""
    return DealerShift.objects.filter(started_at__lt=end).filter(Q(ended_at__isnull=True) | Q(ended_at__gt=start))


def employee_dealt_at(employee: Employee, site: Site, start: datetime, end: datetime) -> bool:
    """Did `employee` conduct games (deal or operate a wheel) at `site` in [start, end)?
    Used for ND 99-01.3-08-14(2) (count team) and 08-04(9) (video reviewer)."""
    return shifts_overlapping(start, end).filter(dealer=employee, table__site=site).exists()


def shifts_running(at: datetime) -> QuerySet[DealerShift]:
    """Dealer shifts running at the moment `at` (started at or before it, not yet ended)."""
    return DealerShift.objects.filter(started_at__lte=at).filter(Q(ended_at__isnull=True) | Q(ended_at__gt=at))


def current_shift(table: Table, at: datetime) -> DealerShift | None:
    """The dealer shift running at `table` at the moment `at`."""
    return shifts_running(at).filter(table=table).order_by("-started_at").first()


def current_dealer(table: Table, at: datetime) -> Employee | None:
    shift = current_shift(table, at)
    return shift.dealer if shift else None


def is_dealing(employee: Employee, site: Site, at: datetime) -> bool:
    """Is `employee` on a dealer shift at any table of `site` at `at` ("presently dealing")?"""
    return shifts_running(at).filter(dealer=employee, table__site=site).exists()
