"""The thresholds page: every effective-dated threshold of the rules, read-only, with its
citation, value and the dates it is in force (compliance.thresholds)."""

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import render
from django.utils import timezone

from cardroom.access import access_for, refusal
from cardroom.models import Role
from cardroom.money import format_money
from cardroom.rules import HOUSE_CONTROL

from .models import Threshold

THRESHOLD_READERS = frozenset({Role.GAMING_MANAGER, Role.AUDITOR})


@dataclass(frozen=True)
class ThresholdRow:
    threshold: Threshold
    value: str  # "10%", "$10,000.00", "30 days"
    until: date | None  # the last day in force; None while no later row replaces it
    in_force: bool  # on today's date


def value_text(value: Decimal, unit: str) -> str:
    """A threshold's value as the regulation writes it: a ratio as a percentage, cents as dollars."""
    if unit == Threshold.Unit.RATIO:
        return f"{(Decimal(value) * 100).normalize():f}%"
    if unit == Threshold.Unit.CENTS:
        return format_money(int(value))
    number = Decimal(value).normalize()
    return f"{number:f} {unit}"


def threshold_rows(on: date) -> list[ThresholdRow]:
    """Every row, by code then date; a row is in force from its date to the day before the next."""
    rows = list(Threshold.objects.order_by("code", "effective_from"))
    result = []
    for i, row in enumerate(rows):
        following = rows[i + 1] if i + 1 < len(rows) and rows[i + 1].code == row.code else None
        until = following.effective_from - timedelta(days=1) if following else None
        in_force = row.effective_from <= on and (until is None or on <= until)
        result.append(ThresholdRow(row, value_text(row.value, row.unit), until, in_force))
    return result


@login_required
def thresholds(request):
    if not access_for(request.user).all_roles() & THRESHOLD_READERS:
        raise PermissionDenied(refusal(HOUSE_CONTROL, THRESHOLD_READERS, "see the thresholds page"))
    today = timezone.localdate()
    return render(request, "compliance/thresholds.html", {"rows": threshold_rows(today), "today": today})
