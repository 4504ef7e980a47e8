"""The regulator's pages: licensees, filings received, a quarter across licensees (with CSV).
Only the agency's staff read them, and only their agency's (house control)."""

import csv
from functools import wraps

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone

from core.periods import Quarter

from . import queries
from .services import HOUSE

PAGE = 100


def regulator_page(view):
    @login_required
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        regulator = queries.regulator_of(request.user)
        if regulator is None:
            raise PermissionDenied(f"{HOUSE}: the registry's pages are its agency's staff's.")
        return view(request, regulator, *args, **kwargs)

    return wrapped


def _offset(request) -> int:
    try:
        return max(0, min(int(request.GET.get("offset", 0)), 10_000_000))
    except ValueError:
        return 0


@regulator_page
def licensees(request, regulator):
    offset = _offset(request)
    views = queries.licensees(regulator.agency, offset=offset, limit=PAGE)
    return render(
        request,
        "registry/licensees.html",
        {
            "agency": regulator.agency,
            "regulator": regulator,
            "views": views,
            "offset": offset,
            "next_offset": offset + PAGE if len(views) == PAGE else None,
        },
    )


@regulator_page
def filings(request, regulator):
    offset = _offset(request)
    rows = list(queries.filings(regulator.agency, with_documents=True)[offset : offset + PAGE])
    return render(
        request,
        "registry/filings.html",
        {
            "agency": regulator.agency,
            "filings": rows,
            "offset": offset,
            "next_offset": offset + PAGE if len(rows) == PAGE else None,
        },
    )


@regulator_page
def quarter(request, regulator):
    text = request.GET.get("quarter") or str(Quarter.containing(timezone.localdate()).previous())
    try:
        chosen = Quarter.parse(text)
    except Exception:  # noqa: BLE001  (a malformed quarter: the form says how to write one)
        return render(
            request,
            "registry/quarter.html",
            {"agency": regulator.agency, "error": "A quarter is YYYYQn, for example 2026Q3."},
            status=400,
        )
    rows = queries.quarter_rows(regulator.agency, chosen)
    if request.GET.get("format") == "xlsx":
        return _xlsx(regulator.agency, chosen, rows)
    if request.GET.get("format") == "csv":
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{regulator.agency.jurisdiction}-{chosen}-filings.csv"'
        writer = csv.DictWriter(response, fieldnames=queries.QUARTER_COLUMNS)
        writer.writeheader()
        writer.writerows(rows)
        return response
    return render(
        request,
        "registry/quarter.html",
        {"agency": regulator.agency, "quarter": chosen, "rows": rows, "due": queries.due_on(regulator.agency, chosen)},
    )


def _xlsx(agency, quarter, rows) -> HttpResponse:
    """The quarter's rows as a workbook: one sheet, typed cells (amounts in cents as integers)."""
    from io import BytesIO

    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = str(quarter)
    sheet.append(list(queries.QUARTER_COLUMNS))
    for row in rows:
        sheet.append([row[c] for c in queries.QUARTER_COLUMNS])
    out = BytesIO()
    book.save(out)
    response = HttpResponse(
        out.getvalue(), content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    )
    response["Content-Disposition"] = f'attachment; filename="{agency.jurisdiction}-{quarter}-filings.xlsx"'
    return response
