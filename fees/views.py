"""The table fees page of the current site (WA-BJ): record a fee collection, the day-by-day
reconciliation of fees collected against the fee cash counted, and the latest collections. At a
site of another pack it says whose revenue model fees are and shows nothing else.

The games-of-chance sessions page of the current site (NY): a gaming day's sessions with their
total, the form to record one and the Correct link at each that stands. At a site whose pack's
revenue is not its sessions it says so, as the fees page does at a site whose revenue is not fees,
and records nothing."""

from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, F, OuterRef
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from cardroom.access import access_for, refusal, roles_text
from cardroom.models import Employee, Table
from cardroom.views import page_at_current_site
from core import moments
from core.closing import books_closed, books_closers, closed_books_refusal, closed_dates
from core.forms import call_service
from core.limits import record_id
from core.money import format_money
from floor.calculations import site_today
from packs import pack_for

from . import forms, queries, rules, services
from .models import FeeCollection, GameSession

RECENT_DAYS = 7
RECENT_ROWS = 50


def _site(request):
    """The current site and the person's access: the fee records' readers, and the fee cash's
    counters (fees.rules.COUNTERS, as the API's fee-counts allow), who may count without reading."""
    site, access = request.site, access_for(request.user)
    if site is None or not (rules.FEE_RECORDS.allows(access, site.pk) or access.has_role(site.pk, *rules.COUNTERS)):
        raise PermissionDenied(rules.FEE_RECORDS.refusal(site=site))
    return site, access


def _count_form(site, access, data=None):
    """The two-person fee cash count (for a counter): the day counted (today's at the site), the
    cash, the witness (anyone else at the site) and, from paper, when it was counted."""
    if not access.has_role(site.pk, *rules.COUNTERS):
        return None
    witnesses = (
        Employee.objects.filter(memberships__site=site, active=True)
        .exclude(pk=getattr(access.employee, "pk", None))
        .select_related("user")
        .distinct()
    )
    return forms.FeeCountForm(data, witnesses=witnesses, initial={"gaming_date": site_today(site)})


def _page(request, site, access, *, form=None, count_form=None, void_failed=None, status=200):
    """The page: the fee form (for a collector), the count form (for a counter), the
    reconciliation and the latest collections (for a reader of the fee records), each with both
    its times (when it happened, when it was entered) and, for a voider, a void form at each fee
    not voided yet."""
    if count_form is None:
        count_form = _count_form(site, access)
    if not rules.FEE_RECORDS.allows(access, site.pk):  # a counter who does not read the records: the count only
        context = {"site": site, "pack": pack_for(site), "applies": True, "form": form, "count_form": count_form}
        return render(request, "fees/page.html", context, status=status)
    today = timezone.localdate()
    voided = FeeCollection.objects.filter(voids=OuterRef("pk"))
    collections = list(
        FeeCollection.objects.filter(site=site)
        .select_related("table", "collected_by")
        .annotate(voided=Exists(voided))
        .order_by("-collected_at", "-id")[:RECENT_ROWS]
    )
    context = {
        "site": site,
        "pack": pack_for(site),
        "applies": True,
        "form": form,
        "count_form": count_form,
        "can_read": True,
        "can_void": access.has_role(site.pk, *rules.VOIDERS),
        "void_failed": void_failed,
        "days": queries.fee_days([site.pk], today - timedelta(days=RECENT_DAYS), today),
        "collections": collections,
        # A fee of a day whose books are closed stands (fees.services.void_fee refuses): no Void form at it.
        "closed_dates": closed_dates(site.pk, {c.gaming_date for c in collections}),
    }
    return render(request, "fees/page.html", context, status=status)


def _initial(request, tables, site) -> dict:
    """The form's start: the site's last terms (`queries.last_terms`), and the table the pit's
    "Collect fee" names (`?table=`), where it is one of the site's."""
    table_id = record_id(request.GET.get("table"))
    chosen = {"table": table_id} if table_id is not None and any(t.pk == table_id for t in tables) else {}
    return {**queries.last_terms(site), **chosen}


@login_required
def fee_page(request):
    site, access = _site(request)
    if not rules.keeps_table_fees(site):  # a fee posted here is refused (400), as a count of fee cash is
        context = {"site": site, "pack": pack_for(site), "applies": False}
        return render(request, "fees/page.html", context, status=400 if request.method == "POST" else 200)
    tables = Table.objects.filter(site=site, active=True).order_by("number")
    can_collect = access.has_role(site.pk, *rules.COLLECTORS)
    form = (
        forms.FeeForm(request.POST or None, tables=tables, site=site, initial=_initial(request, tables, site))
        if can_collect
        else None
    )
    if request.method == "POST":
        if form is None:
            raise PermissionDenied(
                f"{rules.ROLE_RULE}: only a shift manager, pit boss or cashier collects a table fee."
            )
        done = form.is_valid() and call_service(
            form, lambda: services.record_fee(acting_user=request.user, **form.cleaned_data)
        )
        if done:
            messages.success(
                request,
                f"Fee of {format_money(done.amount_cents)} at table {done.table.number} recorded for "
                f"{done.gaming_date}: once the day's fees are collected, count the fee cash with a second person below.",
            )
            return redirect("fees:page")
        return _page(request, site, access, form=form, status=400)
    return _page(request, site, access, form=form)


@login_required
@require_POST
def count_fee_cash(request):
    """The day's fee cash counted by two people (a cashier, count team member or shift manager with
    a witness), through fees.services.count_fees as `POST /api/v1/fee-counts/` records it; a refusal
    shows at its field (400) and writes nothing."""
    site, access = _site(request)
    if not rules.keeps_table_fees(site):
        return render(request, "fees/page.html", {"site": site, "pack": pack_for(site), "applies": False}, status=400)
    form = _count_form(site, access, request.POST)
    if form is None:
        raise PermissionDenied(refusal(rules.ROLE_RULE, rules.COUNTERS, "count the fee cash", site))
    count = form.is_valid() and call_service(
        form, lambda: services.count_fees(acting_user=request.user, site=site, **form.cleaned_data)
    )
    if count:
        messages.success(
            request,
            f"Fee cash of {count.gaming_date} counted: {format_money(count.counted_cents)}, by "
            f"{count.counted_by.initials} with {count.witness.initials}. Once the bank is counted, "
            f"{roles_text(books_closers(), site)} closes the day's books on the daily page (House control).",
        )
        return redirect("fees:page")
    collect = _fee_form(site, access)
    return _page(request, site, access, form=collect, count_form=form, status=400)


def _fee_form(site, access):
    tables = Table.objects.filter(site=site, active=True).order_by("number")
    return forms.FeeForm(tables=tables, site=site) if access.has_role(site.pk, *rules.COLLECTORS) else None


@login_required
@require_POST
def void_fee(request, pk):
    """Void a fee of the current site (a gaming or shift manager): its reason and, from paper, when
    it was voided; a refusal (fees.services.void_fee) shows at the fee's row and writes nothing."""
    site, access = _site(request)
    fee = get_object_or_404(FeeCollection, pk=pk, site=site)
    form = forms.VoidForm(request.POST)
    done = form.is_valid() and call_service(
        form,
        lambda: services.void_fee(
            acting_user=request.user,
            fee=fee,
            reason=form.cleaned_data["reason"],
            voided_at=form.cleaned_data["voided_at"],
        ),
    )
    if done:
        messages.success(
            request,
            f"Fee {fee.pk} of {format_money(fee.amount_cents)} at table {fee.table.number} voided: "
            "record the right fee anew if one was collected.",
        )
        return redirect("fees:page")
    failed = {
        "pk": fee.pk,
        "reason": form.data.get("reason", ""),
        "voided_at": form.data.get("voided_at", ""),
        "errors": [message for messages in form.errors.values() for message in messages],
    }
    return _page(request, site, access, form=_fee_form(site, access), void_failed=failed, status=400)


def _may_read_sessions(access, site):
    """The API's readers (fees.rules.SESSION_RECORDS)."""
    if not rules.SESSION_RECORDS.allows(access, site.pk):
        raise PermissionDenied(rules.SESSION_RECORDS.refusal())


def _sessions_page(
    request, site, access, *, gaming_date, form, day_form, correcting=None, replaced=None, void_failed=None, status=200
):
    """The day's sessions, every row (a corrected one marked, a correction naming what it
    corrects, a void with its reason), the day's total as the sessions stand
    (fees.queries.session_totals) and the form."""
    rows = (
        GameSession.objects.filter(site=site, gaming_date=gaming_date)
        .select_related("recorded_by__user")
        .annotate(correction_id=F("corrected_by__id"), voided=F("corrected_by__is_void"))
        .order_by("started_at", "id")
    )
    context = {
        "site": site,
        "applies": True,
        "gaming_date": gaming_date,
        "previous_day": gaming_date - timedelta(days=1),
        "next_day": gaming_date + timedelta(days=1),
        "day_form": day_form,
        "form": form,
        "correcting": correcting,
        "replaced": replaced,
        "sessions": rows,
        "void_failed": void_failed,
        "totals": queries.session_totals([site.pk], gaming_date, gaming_date),
        # A session of a day whose books are closed stands (fees.services.record_session refuses a
        # correction of it): no Correct link at it, and the page says why in the service's words.
        "books_closed": closed_books_refusal(site, gaming_date, "a games-of-chance session"),
    }
    return render(request, "fees/sessions.html", context, status=status)


def _correcting(request, site) -> GameSession | None:
    """The session a Correct link (`?correct=<id>`) names: one of the site's, else 404."""
    wanted = request.GET.get("correct", "")
    if not wanted:
        return None
    pk = record_id(wanted)
    if pk is None:
        raise Http404("No such session.")
    return get_object_or_404(GameSession, pk=pk, site=site)


def _session_form(site, correcting: GameSession | None):
    """A blank form (the licence of the site's last session proposed), or one filled with the
    session it corrects."""
    if correcting is None:
        last = GameSession.objects.filter(site=site).order_by("-id").values_list("licence_number", flat=True).first()
        return forms.GameSessionForm(site=site, initial={"licence_number": last or ""})
    fields = ("licence_number", "started_at", "ended_at", "receipts_cents", "prizes_cents")
    initial = {name: getattr(correcting, name) for name in fields}
    return forms.GameSessionForm(site=site, initial={**initial, "corrects": correcting.pk})


def _chosen_day(request, site):
    """The gaming day asked for (`?date=`; blank or refused: today's at the site) and its form."""
    today = site_today(site)
    day_form = forms.SessionDayForm(request.GET if "date" in request.GET else None)
    return (day_form.is_bound and day_form.is_valid() and day_form.cleaned_data["date"]) or today, day_form


@page_at_current_site(_may_read_sessions)
def sessions_page(request, site, access):
    """Games-of-chance sessions of the current site's chosen gaming day (`?date=`, else today's).
    A gaming or shift manager records one, or corrects one (a new row that `corrects` it), through
    fees.services.record_session as the API does; a refusal shows at its field and writes nothing."""
    if not rules.keeps_sessions(site):  # the pack is asked (fees.rules), as the menu asks it
        status = 400 if request.method == "POST" else 200
        return render(request, "fees/sessions.html", {"site": site, "pack": pack_for(site)}, status=status)
    can_record = access.has_role(site.pk, *rules.SESSION_RECORDERS)
    gaming_date, day_form = _chosen_day(request, site)
    if request.method != "POST":
        return _show_sessions(request, site, access, gaming_date, day_form, can_record)
    if not can_record:
        raise PermissionDenied(refusal(rules.ROLE_RULE, rules.SESSION_RECORDERS, "record a games-of-chance session"))
    form = forms.GameSessionForm(request.POST, site=site)
    session = form.is_valid() and call_service(
        form, lambda: services.record_session(acting_user=request.user, site=site, **form.cleaned_data)
    )
    if session:
        messages.success(
            request,
            f"Session {moments.shown(site, session.started_at)} to {moments.shown(site, session.ended_at)} "
            f"{'recorded, correcting the earlier one' if session.corrects_id else 'recorded'}: net "
            f"{format_money(session.receipts_cents - session.prizes_cents)}, counted in the day's total below.",
        )
        return redirect(f"{reverse('fees:sessions')}?date={session.gaming_date.isoformat()}")
    correcting = form.cleaned_data.get("corrects")
    day = correcting.gaming_date if correcting is not None else gaming_date
    return _sessions_page(
        request, site, access, gaming_date=day, form=form, day_form=day_form, correcting=correcting, status=400
    )


@page_at_current_site(_may_read_sessions)
@require_POST
def void_session(request, site, access, pk):
    """Void a session of the current site recorded that did not take place (a gaming or shift
    manager): its reason; a refusal (fees.services.void_session) shows at the session's row and
    writes nothing."""
    session = get_object_or_404(GameSession, pk=pk, site=site)
    if not access.has_role(site.pk, *rules.SESSION_RECORDERS):
        raise PermissionDenied(refusal(rules.ROLE_RULE, rules.SESSION_RECORDERS, "void a games-of-chance session"))
    form = forms.SessionVoidForm(request.POST)
    void = form.is_valid() and call_service(
        form,
        lambda: services.void_session(acting_user=request.user, session=session, reason=form.cleaned_data["reason"]),
    )
    if void:
        messages.success(
            request,
            f"Session {session.pk} voided by session {void.pk}: it no longer counts in the day's total below.",
        )
        return redirect(f"{reverse('fees:sessions')}?date={session.gaming_date.isoformat()}")
    failed = {
        "pk": session.pk,
        "reason": form.data.get("reason", ""),
        "errors": [message for messages in form.errors.values() for message in messages],
    }
    day_form = forms.SessionDayForm(None)
    return _sessions_page(
        request,
        site,
        access,
        gaming_date=session.gaming_date,
        form=_session_form(site, None),
        day_form=day_form,
        void_failed=failed,
        status=400,
    )


def _show_sessions(request, site, access, gaming_date, day_form, can_record):
    """The page as asked: a Correct link (`?correct=`) shows its session's day with the form filled
    from it, or, where that session is corrected already, says by which (only a session as it
    stands is corrected: fees.services.record_session) and offers a blank form."""
    correcting = _correcting(request, site) if can_record else None
    replaced = None
    if correcting is not None:
        gaming_date = correcting.gaming_date
        if hasattr(correcting, "corrected_by") or correcting.is_void:
            replaced, correcting = correcting, None  # the page says by what, and offers a blank form
        elif books_closed(site.pk, gaming_date):
            correcting = None  # its day's books are closed: the page says so and offers no correction
    return _sessions_page(
        request,
        site,
        access,
        gaming_date=gaming_date,
        form=_session_form(site, correcting) if can_record else None,
        day_form=day_form,
        correcting=correcting,
        replaced=replaced,
        status=400 if day_form.errors else 200,  # a date refused is said on the page, as the figures pages say it
    )
