"""Surveillance pages at the current site: parse a form, call one service, show the result.
A refusal from a service appears inline on the form, with the same words as the API."""

from zoneinfo import ZoneInfo

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from cardroom.models import Table
from cardroom.views import page_at_current_site
from core.forms import call_service

from . import forms, queries, services
from .api import readable_sites
from .models import (
    Equipment,
    EquipmentChange,
    Outage,
    Recording,
    RecordingAccess,
    ReviewEntry,
    ReviewLogEntry,
    ReviewProgram,
    SpecialEvent,
)
from .rules import (
    DAILY_LOG_ROLES,
    FIELD_OF_VIEW,
    OUTAGE_DEADLINE,
    OUTAGE_REPORT_ROLES,
    REVIEW_MIN_FOOTAGE,
    REVIEW_PROGRAM,
    REVIEW_PROGRAM_LENGTH,
    SPECIAL_EVENT,
    SPECIAL_EVENT_MAX_DAYS,
    SPECIAL_EVENT_MAX_PER_QUARTER,
    STAFF_ROLES,
    SURVEILLANCE_RECORDS,
)
from .services.special_events import RECORDERS as SPECIAL_EVENT_RECORDERS
from .services.special_events import require_recorder
from .special_events import exemption


def _may_read(access, site):
    if not readable_sites(access).filter(pk=site.pk).exists():
        raise PermissionDenied(SURVEILLANCE_RECORDS.refusal())


# Login, a current site the user may read surveillance records at, its time zone.
site_page = page_at_current_site(_may_read)


def run_service(form, save) -> bool:
    """Call the service with a valid form; its ValidationError goes onto the form's fields
    (core.forms.call_service). True when it saved."""
    if not form.is_valid():
        return False
    call_service(form, lambda: save(form.cleaned_data))
    return not form.errors


def _can(access, site, roles) -> bool:
    return access.has_role(site.pk, *roles)


def _render(request, template, context, form_errors=False):
    return render(request, template, context, status=400 if form_errors else 200)


# --- Overview ------------------------------------------------------------------------------


@site_page
def overview(request, site, access):
    today = timezone.localdate()
    form = forms.StatusForm(request.POST or None, site=site)
    if request.method == "POST" and run_service(
        form,
        lambda d: services.set_surveillance_status(
            request.user, site, d["required"], d["since"], d["operational_on"], d["reason"]
        ),
    ):
        return redirect("surveillance:overview")
    tables = Table.objects.filter(site=site, active=True).prefetch_related("surveillance_equipment")
    register = queries.EquipmentRegister([site.pk])
    rows = [
        (
            t,
            queries.wager_cap(t),
            [e for e in t.surveillance_equipment.all() if e.in_service],
            register.has_system(t, today),
        )
        for t in tables
    ]
    return _render(
        request,
        "surveillance/overview.html",
        {
            "status": queries.current_status(site, today),
            "deadline": queries.operational_deadline(site, today),
            "required": queries.surveillance_required(site, today),
            "rows": rows,
            "form": form,
            "can_set_status": access.is_gaming_manager,
            "open_outages": queries.open_outages(site).count(),
            "programs": ReviewProgram.objects.filter(site=site)[:3],
        },
        form.errors,
    )


# --- Outages -------------------------------------------------------------------------------


def _outage_rows(site):
    now = timezone.now()
    rows = []
    for outage in Outage.objects.filter(table__site=site).select_related("table__site", "equipment", "repair"):
        deadline = queries.deadline_for(outage)
        repaired = getattr(outage, "repair", None)
        rows.append(
            {
                "outage": outage,
                "deadline": deadline,
                "repair": repaired,
                "overdue": repaired is None and now >= deadline.at,
                "late_repair": repaired is not None and repaired.repaired_at > deadline.at,
            }
        )
    return rows


def _outages_page(request, site, access, repair_form=None, repair_for=None):
    form = forms.OutageForm(request.POST if request.method == "POST" and repair_for is None else None, site=site)
    if (
        request.method == "POST"
        and repair_for is None
        and run_service(form, lambda d: services.report_outage(acting_user=request.user, **d))
    ):
        return redirect("surveillance:outages")
    return _render(
        request,
        "surveillance/outages.html",
        {
            "rows": _outage_rows(site),
            "form": form,
            "repair_form": repair_form,
            "blank_repair_form": forms.RepairForm(),
            "repair_for": repair_for,
            "can_report": _can(access, site, OUTAGE_REPORT_ROLES),
            "can_repair": _can(access, site, STAFF_ROLES),
        },
        form.errors or (repair_form is not None and repair_form.errors),
    )


outages = site_page(_outages_page)


@require_POST
@site_page
def outage_repair(request, site, access, pk):
    outage = get_object_or_404(Outage, pk=pk, table__site=site)
    form = forms.RepairForm(request.POST)
    if run_service(form, lambda d: services.record_outage_repair(acting_user=request.user, outage=outage, **d)):
        return redirect("surveillance:outages")
    return _outages_page(request, site, access, repair_form=form, repair_for=outage.pk)


# --- Daily review log ----------------------------------------------------------------------


@site_page
def review_log(request, site, access):
    form = forms.ReviewLogForm(
        request.POST or None, site=site, initial={"gaming_date": queries.gaming_date_of(site, timezone.now())}
    )
    added = []
    if request.method == "POST" and run_service(
        form, lambda d: added.append(services.add_review_log_entry(acting_user=request.user, **d))
    ):
        if added[0].outage is not None:
            outage = added[0].outage
            messages.warning(
                request,
                f"{OUTAGE_DEADLINE.at(site)}: outage {outage.pk} opened for table {outage.table.number} from this "
                f"review ({outage.get_kind_display().lower()})"
                # Where the pack states no repair deadline, the outage is a house record only (the outages page).
                + ("; the deadline to repair it runs from now" if OUTAGE_DEADLINE.applies(site) else "")
                + ". Record its repair on the outages page.",
            )
        return redirect("surveillance:review_log")
    entries = ReviewLogEntry.objects.filter(site=site).select_related("table", "reviewed_by__user")[:200]
    return _render(
        request,
        "surveillance/review_log.html",
        {
            "entries": entries,
            "form": form,
            "can_add": _can(access, site, DAILY_LOG_ROLES),
            "asks_field_of_view": FIELD_OF_VIEW.applies(site),
        },
        form.errors,
    )


# --- Equipment, samples and purchases ------------------------------------------------------


@site_page
def equipment(request, site, access):
    posted = request.POST.get("form") if request.method == "POST" else None
    install = forms.EquipmentForm(request.POST if posted == "install" else None, site=site)
    sample = forms.SampleForm(request.POST if posted == "sample" else None, site=site)
    purchase = forms.PurchaseForm(request.POST if posted == "purchase" else None, site=site)
    actions = {
        "install": (install, lambda d: services.install_equipment(acting_user=request.user, site=site, **d)),
        "sample": (sample, lambda d: services.submit_sample(acting_user=request.user, **d)),
        "purchase": (purchase, lambda d: services.record_vendor_purchase(acting_user=request.user, site=site, **d)),
    }
    if posted in actions and run_service(*actions[posted]):
        return redirect("surveillance:equipment")
    changes = (
        EquipmentChange.objects.filter(site=site)
        .select_related("table", "equipment")
        .prefetch_related("submissions__evaluation")
    )
    return _render(
        request,
        "surveillance/equipment.html",
        {
            "equipment": Equipment.objects.filter(site=site).select_related("table"),
            "changes": changes,
            "install": install,
            "sample": sample,
            "purchase": purchase,
            "can_edit": _can(access, site, STAFF_ROLES),
        },
        posted in actions,
    )


# --- Recordings and access -----------------------------------------------------------------


@site_page
def recordings(request, site, access):
    posted = request.POST.get("form") if request.method == "POST" else None
    recording = forms.RecordingForm(request.POST if posted == "recording" else None, site=site)
    access_form = forms.AccessForm(request.POST if posted == "access" else None, site=site)
    actions = {
        "recording": (recording, lambda d: services.record_recording(acting_user=request.user, **d)),
        "access": (access_form, lambda d: services.record_video_access(acting_user=request.user, site=site, **d)),
    }
    if posted in actions and run_service(*actions[posted]):
        return redirect("surveillance:recordings")
    return _render(
        request,
        "surveillance/recordings.html",
        {
            "recordings": Recording.objects.filter(table__site=site).select_related("table", "operated_by__user")[:200],
            "accesses": RecordingAccess.objects.filter(site=site).select_related("accessed_by__user", "table")[:200],
            "today": timezone.localdate(),
            "recording_form": recording,
            "access_form": access_form,
            "can_record": services.may_handle_video(access.employee, site),
        },
        posted in actions,
    )


# --- Video review programs -----------------------------------------------------------------


@site_page
def programs(request, site, access):
    form = forms.ProgramForm(request.POST or None, site=site)
    if request.method == "POST" and run_service(form, lambda d: services.open_review_program(request.user, site, **d)):
        return redirect("surveillance:programs")
    return _render(
        request,
        "surveillance/programs.html",
        {
            "programs": ReviewProgram.objects.filter(site=site).select_related("closure"),
            "form": form,
            "can_open": access.is_gaming_manager,
            # The pack's numbers of 08-04(9), or the house's own where its law states no such program.
            "stated": REVIEW_PROGRAM.applies(site),
            "footage": REVIEW_MIN_FOOTAGE.on(site, timezone.localdate()),
            "length": REVIEW_PROGRAM_LENGTH.on(site, timezone.localdate()),
        },
        form.errors,
    )


@site_page
def program_detail(request, site, access, pk):
    program = get_object_or_404(ReviewProgram, pk=pk, site=site)
    program.site = site  # its pack's required footage (queries.task_done) without another query
    posted = request.POST.get("form") if request.method == "POST" else None
    entry = forms.ReviewEntryForm(request.POST if posted == "entry" else None, site=site, program=program)
    closure = forms.ClosureForm(request.POST if posted == "closure" else None)
    actions = {
        "entry": (entry, lambda d: services.record_review_entry(acting_user=request.user, **d)),
        "closure": (closure, lambda d: services.close_review_program(acting_user=request.user, program=program, **d)),
    }
    if posted in actions and run_service(*actions[posted]):
        return redirect("surveillance:program", pk=program.pk)
    tasks = [
        (task, queries.task_footage(task), queries.task_done(task))
        for task in queries.with_active_entries(program.tasks.select_related("table"))
    ]
    return _render(
        request,
        "surveillance/program_detail.html",
        {
            "program": program,
            # What the program asked when opened (the pack's numbers, or the house's own, cited).
            "asked_length": queries.program_length(program),
            "asked_footage": queries.program_footage(program),
            "ended_on": queries.program_ended_on(program),
            "tasks": tasks,
            "entries": ReviewEntry.objects.filter(task__program=program).select_related("table", "reviewer__user"),
            "entry_form": entry,
            "closure_form": closure,
            "closure": getattr(program, "closure", None),
            "can_review": _can(access, site, STAFF_ROLES),
            "can_close": access.is_gaming_manager,
        },
        posted in actions,
    )


# --- Special events ------------------------------------------------------------------------


def _event_rows(site) -> list[dict]:
    """Each event of the site, newest first, with how the exemption reads on its first day (the
    events in force of its quarters). Two queries."""
    events = list(SpecialEvent.objects.filter(site=site).select_related("recorded_by", "corrected_by", "corrects"))
    in_force = [(e.first_day, e.last_day) for e in events if getattr(e, "corrected_by", None) is None]
    rows = []
    for event in sorted(events, key=lambda e: (e.first_day, e.pk), reverse=True):
        replaced = getattr(event, "corrected_by", None) is not None
        reading = None if replaced else exemption(in_force, event.first_day, site)
        rows.append(
            {
                "event": event,
                "days": (event.last_day - event.first_day).days + 1,
                "replaced": replaced,
                "exemption": reading,
                "refused": reading.cited(site) if reading is not None and not reading.exempt else "",
            }
        )
    return rows


@site_page
def special_events(request, site, access):
    """A site's special events and, for a gaming manager, the form to record one. Only where the
    site's pack states the exemption (ND 99-01.3-08-04): elsewhere there is no such page."""
    if not SPECIAL_EVENT.applies(site):
        raise Http404("The law of this site's pack states no special-event exemption.")
    can_record = _can(access, site, SPECIAL_EVENT_RECORDERS)
    if request.method == "POST":
        require_recorder(request.user, site)  # the service's refusal, before any input is read
    form = forms.SpecialEventForm(request.POST or None, site=site)
    today = timezone.now().astimezone(ZoneInfo(site.time_zone)).date()  # the limits in force today
    if request.method == "POST" and run_service(
        form, lambda d: services.record_special_event(acting_user=request.user, site=site, **d)
    ):
        return redirect("surveillance:special_events")
    return _render(
        request,
        "surveillance/special_events.html",
        {
            "rows": _event_rows(site),
            "form": form,
            "can_record": can_record,
            "max_days": SPECIAL_EVENT_MAX_DAYS.on(site, today),
            "per_quarter": SPECIAL_EVENT_MAX_PER_QUARTER.on(site, today),
        },
        form.errors,
    )
