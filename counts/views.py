"""Count pages: sessions, the tablet count grid, custody of the boxes, and the count sheet PDF.
Views parse and call one service; a refusal shows the service's message inline."""

from datetime import timedelta

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from cardroom.access import access_for
from cardroom.models import Employee, Role, Table

from . import forms, pdf, queries, services
from .models import DropBox
from .rules import COUNT_RECORDS, CURRENCY


def _errors(exc: ValidationError) -> dict:
    return exc.message_dict if hasattr(exc, "error_dict") else {"__all__": exc.messages}


def _site(request):
    site = request.site
    access = access_for(request.user)
    if site is None or not COUNT_RECORDS.allows(access, site.pk):
        raise PermissionDenied(COUNT_RECORDS.refusal())
    return site, access


def _counters(site):
    return (
        Employee.objects.filter(memberships__site=site, memberships__role=Role.COUNT_TEAM, active=True)
        .select_related("user")
        .distinct()
    )


@login_required
def sessions(request):
    site, access = _site(request)
    me = access.employee
    form = forms.OpenSessionForm(
        request.POST or None,
        partners=_counters(site).exclude(pk=me.pk),
        initial={"gaming_date": queries.gaming_date_of(site, timezone.now()) - timedelta(days=1)},
    )
    errors = {}
    if request.method == "POST" and form.is_valid():
        try:
            session = services.open_count_session(
                acting_user=request.user,
                site=site,
                gaming_date=form.cleaned_data["gaming_date"],
                members=[me, form.cleaned_data["partner"]],
            )
            return redirect("counts:session", pk=session.pk)
        except ValidationError as exc:
            errors = _errors(exc)
    return render(
        request,
        "counts/sessions.html",
        {
            "site": site,
            "form": form,
            "errors": errors,
            "can_open": access.has_role(site.pk, Role.COUNT_TEAM),
            "sessions": queries.visible_sessions(access).filter(site=site).prefetch_related("signatures")[:60],
        },
        status=400 if errors else 200,
    )


@login_required
def boxes(request):
    site, access = _site(request)
    register_form = forms.RegisterBoxForm(
        request.POST if request.POST.get("action") == "register" else None,
        tables=Table.objects.filter(site=site, active=True),
    )
    people = Employee.objects.filter(memberships__site=site, active=True).distinct().select_related("user")
    removal_form = forms.RemovalForm(
        request.POST if request.POST.get("action") == "remove" else None,
        boxes=DropBox.objects.filter(site=site, active=True),
        people=people,
        counters=_counters(site),
        initial={"gaming_date": queries.gaming_date_of(site, timezone.now())},
    )
    settings = queries.count_settings(site)
    exchange_form = forms.BoxExchangeForm(
        request.POST if request.POST.get("action") == "exchange" else None,
        initial={"box_exchange": settings.box_exchange},
    )
    errors = {}
    if request.method == "POST":
        try:
            if request.POST.get("action") == "exchange" and exchange_form.is_valid():
                services.update_count_settings(acting_user=request.user, site=site, **exchange_form.cleaned_data)
                return redirect("counts:boxes")
            if request.POST.get("action") == "register" and register_form.is_valid():
                services.register_drop_box(acting_user=request.user, **register_form.cleaned_data)
                return redirect("counts:boxes")
            if request.POST.get("action") == "remove" and removal_form.is_valid():
                data = dict(removal_form.cleaned_data)
                services.remove_drop_box(acting_user=request.user, drop_box=data.pop("box"), **data)
                return redirect("counts:boxes")
        except ValidationError as exc:
            errors = _errors(exc)
    now = timezone.now()
    return render(
        request,
        "counts/boxes.html",
        {
            "site": site,
            "register_form": register_form,
            "exchange_form": exchange_form,
            "box_exchange": settings.get_box_exchange_display(),
            "removal_form": removal_form,
            "errors": errors,
            "can_register": access.has_role(site.pk, Role.GAMING_MANAGER),
            "can_remove": access.has_role(site.pk, Role.SHIFT_MANAGER),
            "boxes": DropBox.objects.filter(site=site).select_related("table"),
            "unremoved": queries.unremoved_drops(site, now=now),
            "late": queries.late_removals(site),
            "removals": queries.DropRemoval.objects.filter(drop__site=site)
            .select_related(
                "drop__drop_box",
                "drop__table",
                "transported_by__user",
                "escorted_by__user",
                "key_holder__user",
                "second_key_holder__user",
            )
            .order_by("-removed_at")[:50],
        },
        status=400 if errors else 200,
    )


def _session(request, pk):
    access = access_for(request.user)
    session = get_object_or_404(queries.visible_sessions(access), pk=pk)
    return session, access


def _rows(box_count) -> list[dict]:
    """One row per denomination: each visible member's quantity and the agreed quantity."""
    rows = []
    for d in CURRENCY:
        key = (d.cents, d.form)
        quantities = [m.lines.get(key, 0) for m in box_count.visible]
        agreed = box_count.agreed_lines.get(key, 0) if box_count.agreement else None
        if any(quantities) or agreed:
            rows.append(
                {"label": d.label, "quantities": quantities, "agreed": agreed, "differs": len(set(quantities)) > 1}
            )
    return rows


@login_required
def session_detail(request, pk, errors=None, status=200):
    session, access = _session(request, pk)
    me = access.employee.pk if access.employee else None
    board = queries.session_board(session, me)
    signatures = list(session.signatures.select_related("member__user"))
    return render(
        request,
        "counts/session.html",
        {
            "session": session,
            "board": [(b, _rows(b)) for b in board],
            "signatures": signatures,
            "is_member": me in session.member_ids,
            "signed_by_me": any(s.member_id == me for s in signatures),
            "locked": len(signatures) >= 2,
            "errors": errors or {},
            "problems": services.signing_problems(session) if len(signatures) < 2 else [],
            "can_explain": access.has_role(session.site_id, Role.GAMING_MANAGER, Role.SHIFT_MANAGER),
        },
        status=status,
    )


def _grid(data=None, agreed=None):
    values = data or {}
    return [
        {
            "key": d.key,
            "label": d.label,
            "cents": d.cents,
            "value": values.get(f"q_{d.key}", "" if agreed is None else (agreed.get((d.cents, d.form)) or "")),
        }
        for d in CURRENCY
    ]


@login_required
def count_box(request, pk, box_pk, mode="count"):
    """The tablet page: a large denomination grid with running totals and the forms found."""
    session, access = _session(request, pk)
    box = get_object_or_404(DropBox, pk=box_pk, site_id=session.site_id)
    errors = {}
    if request.method == "POST":
        currency, found = forms.currency_from_post(request.POST), forms.forms_from_post(request.POST)
        try:
            if mode == "resolve":
                services.resolve_difference(
                    acting_user=request.user,
                    session=session,
                    drop_box=box,
                    currency=currency,
                    forms=found,
                    note=request.POST.get("note", ""),
                )
            else:
                services.record_blind_count(
                    acting_user=request.user, session=session, drop_box=box, currency=currency, forms=found
                )
            return redirect("counts:session", pk=session.pk)
        except ValidationError as exc:
            errors = _errors(exc)
    return render(
        request,
        "counts/count_box.html",
        {
            "session": session,
            "box": box,
            "mode": mode,
            "grid": _grid(request.POST or None),
            "errors": errors,
            "fill_numbers": request.POST.get("fill_numbers", ""),
            "credit_numbers": request.POST.get("credit_numbers", ""),
            "note": request.POST.get("note", ""),
        },
        status=400 if errors else 200,
    )


@login_required
def resolve_box(request, pk, box_pk):
    return count_box(request, pk, box_pk, mode="resolve")


@login_required
@require_POST
def sign(request, pk):
    session, _access = _session(request, pk)
    try:
        services.sign_count(acting_user=request.user, session=session)
    except ValidationError as exc:
        return session_detail(request, pk, errors=_errors(exc), status=400)
    return redirect("counts:session", pk=session.pk)


@login_required
@require_POST
def explain(request, pk, box_pk):
    session, _access = _session(request, pk)
    drop = next((b.drop for b in queries.session_board(session, None) if b.drop.drop_box_id == box_pk), None)
    if drop is None:
        raise Http404("That box was not counted in this session.")
    try:
        services.explain_forms_exception(
            acting_user=request.user,
            drop=drop,
            kind=request.POST.get("kind", ""),
            number=int(request.POST.get("number") or 0),
            explanation=request.POST.get("explanation", ""),
        )
    except ValidationError as exc:
        return session_detail(request, pk, errors=_errors(exc), status=400)
    return redirect("counts:session", pk=session.pk)


@login_required
def sheet_pdf(request, pk):
    session, access = _session(request, pk)
    figures = pdf.build_count_sheet(session)
    content = pdf.render_count_sheet(
        figures,
        generated_at=timezone.now(),
        generated_by=str(access.employee or request.user),
        generated_by_initials=access.employee.initials if access.employee else "",
    )
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="count-sheet-{session.site_id}-{session.gaming_date}.pdf"'
    return response
