"""The day sheet page: download the CSV template, upload a filled one. The rows are turned into
the API's sheet (accounting.day_sheet_csv), parsed by the API's serializers and applied by
accounting.day_sheets: all or nothing, every error shown at its row, nothing changed on error."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render

from cardroom.access import access_for, current_site
from cardroom.models import ChipDenomination
from core import limits
from core.forms import NamesTheRule
from core.plurals import plural
from counts.models import BoxExchange
from counts.queries import box_exchange
from fees import rules as fees_rules
from floor.calculations import site_today
from floor.models import SlipBook
from floor.rules import house_chips, no_house_chips

from . import day_sheet_csv, day_sheets
from .api_day_sheets import check_may_enter, parse_sheet

MAX_UPLOAD_BYTES = limits.MAX_BODY_BYTES
Located = list[tuple[str, list[str]]]


class UploadForm(NamesTheRule, forms.Form):
    sheet = forms.FileField(label="Filled day sheet (CSV)")


def _site(request):
    return current_site(request)


def _chip_values(site) -> list[int]:
    """The site's organization's chips in use, for the template's example (none without a site)."""
    if site is None:
        return []
    return list(
        ChipDenomination.objects.filter(organization_id=site.organization_id, active=True).values_list(
            "value_cents", flat=True
        )
    )


@login_required
def day_sheet_template(request):
    site = _site(request)
    today = site_today(site) if site is not None else None
    # The count's rows only for who may enter them (the count team is independent of the floor).
    with_count = site is not None and access_for(request.user).has_role(site.pk, *day_sheets.COUNT_ENTERERS)
    template = day_sheet_csv.template_csv(
        _chip_values(site),
        today,
        with_count=with_count,
        session_licence=_session_licence(site, today),
        printed_numbers=site is None or _keeps_slip_books(site),
        box_per_shift=site is not None and box_exchange(site) == BoxExchange.DEALER_SHIFT,
    )
    response = HttpResponse(template, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="day-sheet-template.csv"'
    return response


def _keeps_slip_books(site) -> bool:
    """Whether the site's slips carry printed numbers from registered books (else the electronic
    series numbers them: ND 99-01.3-08-05(2))."""
    return SlipBook.objects.filter(site=site).exists()


def _session_licence(site, today) -> str | None:
    """The licence in force a session row of the template names ("" where none is on file), or None
    where the site's pack keeps no games-of-chance sessions (the template has no session row)."""
    if site is None or not fees_rules.keeps_sessions(site):
        return None
    return fees_rules.session_licences(site, today)[1] or ""


@login_required
def day_sheet(request):
    site = _site(request)
    check_may_enter(request.user, site)  # 403 naming the house control
    if not house_chips(site):  # a fees-only site: no opener, slip, drop or count to enter
        refused = no_house_chips(site, "so no day sheet of openers, slips, drops and counts is entered there")
        status = 400 if request.method == "POST" else 200  # nothing read, nothing written
        return render(request, "accounting/day_sheet.html", {"refused": refused}, status=status)
    form = UploadForm(request.POST or None, request.FILES or None)
    errors: Located = []
    status = 200
    if request.method == "POST" and form.is_valid():
        errors, status = _apply(request, site, form.cleaned_data["sheet"])
        if not errors:
            return redirect("accounting:day_sheet")
    elif request.method == "POST":
        status = 400
    example = day_sheet_csv.chips_example(_chip_values(site))["opener"]  # in the site's own chips
    sessions = fees_rules.keeps_sessions(site)
    return render(
        request,
        "accounting/day_sheet.html",
        {
            "form": form,
            "errors": errors,
            "chips_example": example,
            "sessions": sessions,
            "printed_numbers": _keeps_slip_books(site),
            "box_per_shift": box_exchange(site) == BoxExchange.DEALER_SHIFT,
        },
        status=status,
    )


def _apply(request, site, upload) -> tuple[Located, int]:
    if upload.size > MAX_UPLOAD_BYTES:
        too_big = f"The file is larger than {MAX_UPLOAD_BYTES // 1024} KiB ({limits.HOUSE_CONTROL})."
        return [("sheet", [too_big])], 400
    try:
        text = upload.read().decode("utf-8-sig")
    except UnicodeDecodeError:
        return [("sheet", [f"{limits.CITED_HOUSE_CONTROL}: save the file as CSV in UTF-8."])], 400
    rows = day_sheet_csv.to_sheet(text, site)
    if rows.errors:
        return rows.located(rows.errors), 400
    try:
        sheet = parse_sheet(rows.sheet, site)
        applied = day_sheets.apply_day_sheet(acting_user=request.user, site=site, sheet=sheet)
    except day_sheets.DaySheetError as refused:
        return rows.located(refused.errors), 400
    except PermissionDenied as refused:
        return [("sheet", [str(refused)])], 403
    messages.success(
        request,
        f"Day sheet of {applied.gaming_day.gaming_date} applied: {plural(len(applied.openers), 'opener')}, "
        f"{plural(len(applied.dealer_shifts), 'dealer shift')}, {plural(len(applied.slips), 'slip')}, "
        + (f"{plural(len(applied.sessions), 'session')}, " if applied.sessions else "")
        + f"{plural(len(applied.closers), 'closer')}, {plural(len(applied.drops), 'drop box removal')}"
        f"{', the count' if applied.count_session else ''}{', day closed' if applied.closed else ''}.",
    )
    return [], 200
