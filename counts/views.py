"""Count pages: sessions, the tablet count grid, custody of the boxes, and the count sheet PDF.
Views parse and call one service; a refusal shows the service's message inline."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.views.decorators.http import require_POST

from cardroom.access import access_for
from cardroom.models import Employee, Role, Table
from cardroom.pins import acting_user_for, signer_for
from core.audit import chain_head
from core.forms import call_service, page_status, run_service
from core.limits import record_id
from core.pdf import audit_head_text
from core.plurals import plural
from core.rules import HOUSE_CONTROL

from . import forms, pdf, queries, rules, services
from .models import BoxExchange, CountEntry, CountSignature, DropBox
from .rules import COUNT_RECORDS, COUNT_TEAM, CURRENCY, REMOVAL


def _errors(exc: ValidationError) -> dict:
    return exc.message_dict if hasattr(exc, "error_dict") else {"__all__": exc.messages}


def _site(request):
    site = request.site
    access = access_for(request.user)
    tablet = access.station is not None and site is not None and site.pk == access.station.site_id
    if site is None or not (tablet or COUNT_RECORDS.allows(access, site.pk)):
        raise PermissionDenied(COUNT_RECORDS.refusal())
    return site, access


def _acting(request, errors: dict):
    """Who does the step: on a count tablet (a station) the member whose badge and PIN are on
    the form, checked by cardroom.pins (a wrong PIN counts towards its lock); otherwise the
    person logged in. A refused PIN goes into `errors` and nobody acts."""
    try:
        return acting_user_for(
            request.user, badge=request.POST.get("signer_badge", ""), pin=request.POST.get("signer_pin", "")
        )
    except PermissionDenied as exc:
        errors["signer_pin"] = [str(exc)]
        return None


def _attempt(errors: dict, step):
    """Run one service call; its refusal (a rule broken, said as every page says it:
    core.forms.run_service; or a role that may not act: the PIN holder's, on a tablet) goes
    into `errors`, keyed by its field."""
    try:
        done, refused = run_service(step)
    except PermissionDenied as exc:
        errors["role"] = [str(exc)]
        return None
    if refused is not None:
        errors.update(_errors(refused))
    return done


def _status(errors: dict) -> int:
    """403 when the PIN or the PIN holder's role is refused, 400 for any other refusal."""
    if not errors:
        return 200
    return 403 if ("signer_pin" in errors or "role" in errors) else 400


def _signer_form(access, site, **kwargs):
    return forms.SignerForm(site=site, **kwargs) if access.station is not None else None


def _members(session):
    return Employee.objects.filter(pk__in=session.member_ids).select_related("user")


def _members_left(session, done: set[int]):
    """The session's members still to take a step the others in `done` have taken (count a box,
    initial the count): on a tablet only they are offered, one preselected; both while none is left."""
    left = [pk for pk in session.member_ids if pk not in done]
    return Employee.objects.filter(pk__in=left or session.member_ids).select_related("user")


SESSIONS_PER_PAGE = 10


def _counters(site):
    return (
        Employee.objects.filter(memberships__site=site, memberships__role=Role.COUNT_TEAM, active=True)
        .select_related("user")
        .distinct()
    )


@login_required
def sessions(request):
    site, access = _site(request)
    station = access.station is not None
    partners = _counters(site) if station else _counters(site).exclude(pk=access.employee.pk)
    # Where the site keeps no drop box, a count posted is refused in the service's words before any
    # box is judged (a box's error would have the user fix a count the pack does not keep at all).
    notice = rules.fees_only_notice(site)
    form = forms.OpenSessionForm(
        None if notice else request.POST or None,
        partners=partners,
        site=site,
        initial={"gaming_date": queries.date_to_count(site, timezone.now())},
    )
    signer_form = _signer_form(access, site, members=_counters(site))
    errors = {} if form.is_valid() or not form.is_bound else dict(form.errors)  # a refused form: 400, inline
    if notice and request.method == "POST":
        errors = {"gaming_date": [notice]}  # the service's field and words (rules.refuse_drop_boxes)
    if request.method == "POST" and form.is_valid():
        acting = _acting(request, errors)
        session = acting and _attempt(
            errors,
            lambda: services.open_count_session(
                acting_user=acting,
                site=site,
                gaming_date=form.cleaned_data["gaming_date"],
                members=[access_for(acting).employee, form.cleaned_data["partner"]],
            ),
        )
        if session:
            messages.success(
                request,
                f"Count of {session.gaming_date} opened for {session.first_member} and {session.second_member}: "
                "each counts every box on their own, then both initial the count.",
            )
            return redirect("counts:session", pk=session.pk)
    keeps_drop = rules.keeps_drop_boxes(site)
    sessions = queries.visible_sessions(access).filter(site=site).order_by("-gaming_date", "-pk")
    signed = CountSignature.objects.filter(session=OuterRef("pk")).order_by().values("session")
    sessions = sessions.annotate(signed=Coalesce(Subquery(signed.annotate(n=Count("pk")).values("n")), 0))
    page = Paginator(sessions, SESSIONS_PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "counts/sessions.html",
        {
            "site": site,
            "form": form,
            "signer_form": signer_form,
            "errors": errors,
            # No count to open where the site keeps no drop box (its revenue is fees): the notice instead.
            "fees_only": None if errors else notice,  # said once: as the POST's refusal, or as the page's notice
            "can_open": keeps_drop and (station or access.has_role(site.pk, Role.COUNT_TEAM)),
            # The count under way first (not yet initialled by both), then every session, paged.
            "open_sessions": list(sessions.filter(signed__lt=2)[:3]),
            "page": page,
        },
        status=_status(errors),
    )


def _escorts(request, site):
    """Who may escort a box's transport: the site's active employees other than the one removing it
    (the service refuses a self-escort, house control: offered, it was refused only at the confirm)."""
    people = Employee.objects.filter(memberships__site=site, active=True).exclude(user_id=request.user.pk)
    return people.distinct().select_related("user")


@login_required
def boxes(request):
    site, access = _site(request)
    register_form = forms.RegisterBoxForm(
        request.POST if request.POST.get("action") == "register" else None,
        tables=Table.objects.filter(site=site, active=True),
    )
    people = _escorts(request, site)
    removing = request.POST if request.POST.get("action") == "remove" else None
    gaming_date = queries.removal_gaming_date(site, timezone.now())
    removal_form = forms.RemovalForm(
        removing,
        boxes=DropBox.objects.filter(site=site, active=True),
        people=people,
        counters=_counters(site),
        shifts=_shifts_offered(site, removing, gaming_date),
        initial={"gaming_date": gaming_date},
    )
    settings = queries.count_settings(site)
    exchange_form = forms.BoxExchangeForm(
        request.POST if request.POST.get("action") == "exchange" else None,
        site=site,
        initial={"box_exchange": settings.box_exchange},
    )
    keeps_drop = rules.keeps_drop_boxes(site)
    if request.method == "POST" and (done := _post_boxes(request, site, exchange_form, register_form, removal_form)):
        return done
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
            # No box to register, place or remove where the site keeps none (its revenue is fees).
            "fees_only": rules.fees_only_notice(site),
            "can_register": keeps_drop and access.has_role(site.pk, Role.GAMING_MANAGER),
            "can_remove": keeps_drop and access.has_role(site.pk, Role.SHIFT_MANAGER),
            "station": keeps_drop and access.station is not None,
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
        # A form sent invalid is refused as the service's refusal is: 400, nothing changed.
        status=page_status(register_form, exchange_form, removal_form),
    )


def _shifts_offered(site, posted, gaming_date):
    """The dealer shifts a removal may name, where boxes are exchanged at each dealer change
    (house control): those of the posted gaming date, else of the date proposed; None elsewhere."""
    if queries.box_exchange(site) != BoxExchange.DEALER_SHIFT:
        return None
    day_form = forms.GamingDateForm(posted if posted and "gaming_date" in posted else None)
    if day_form.is_bound and day_form.is_valid():
        gaming_date = day_form.cleaned_data["gaming_date"]
    return queries.shift_choices(site, gaming_date)


def _post_boxes(request, site, exchange_form, register_form, removal_form):
    """The boxes page's posted form through its service, a refusal on the form at its field
    (call_service); where to go once it is done, None while refused."""
    action = request.POST.get("action")
    if action == "exchange" and exchange_form.is_valid():
        data = exchange_form.cleaned_data
        saved = call_service(
            exchange_form, lambda: services.update_count_settings(acting_user=request.user, site=site, **data)
        )
        if saved is None:
            return None
        for warning in saved.warnings:
            messages.warning(request, warning)
        return redirect("counts:boxes")
    if action == "register" and register_form.is_valid():
        data = register_form.cleaned_data
        registered = call_service(register_form, lambda: services.register_drop_box(acting_user=request.user, **data))
        return None if registered is None else redirect("counts:boxes")
    if action == "remove" and removal_form.is_valid():
        data = dict(removal_form.cleaned_data)
        box = data.pop("box")
        if "dealer_shift" in data:  # boxes exchanged at each dealer change (house control)
            chosen = data.pop("dealer_shift")
            data["dealer_shift_id"] = chosen or queries.shift_for_removal(
                site, box, data["gaming_date"], timezone.now()
            )
        removed = call_service(
            removal_form, lambda: services.remove_drop_box(acting_user=request.user, drop_box=box, **data)
        )
        return None if removed is None else redirect("counts:boxes")
    return None


@login_required
def remove_all(request):
    """Remove all of a gaming day's boxes in one form: tick the boxes, give the transport and
    keys once, review, then confirm; each box is removed and audited on its own
    (services.remove_drop_boxes; `REMOVAL`, `KEYS`)."""
    site, access = _site(request)
    station = access.station is not None
    if not (station or access.has_role(site.pk, Role.SHIFT_MANAGER)):
        raise PermissionDenied(f"{REMOVAL.at(site)}: only a shift manager may remove and transport a drop box.")
    source = request.POST or request.GET
    day_form = forms.GamingDateForm(
        source if "gaming_date" in source else None,
        initial={"gaming_date": queries.removal_gaming_date(site, timezone.now())},
    )
    gaming_date = day_form.cleaned_data["gaming_date"] if day_form.is_bound and day_form.is_valid() else None
    gaming_date = gaming_date or day_form.initial["gaming_date"]
    candidates = queries.boxes_to_remove(site, gaming_date)
    form = forms.RemoveAllForm(
        request.POST or None,
        boxes=DropBox.objects.filter(pk__in=[c.box.pk for c in candidates]),
        people=_escorts(request, site),
        counters=_counters(site),
        initial={"gaming_date": gaming_date, "boxes": _proposed(candidates, request.GET.get("table"))},
    )
    errors, step = {}, request.POST.get("step", "")
    confirming = request.method == "POST" and step in ("review", "confirm") and form.is_valid()
    served = _shifts_served(site, gaming_date, candidates)
    if confirming and step == "confirm":
        data = dict(form.cleaned_data)
        if served is not None:  # each box's dealer shift, as the review showed it (house control)
            data["dealer_shift_ids"] = {pk: shift.pk for pk, shift in served.items() if shift is not None}
        acting = _transporter(request, site, form.cleaned_data["escorted_by"], errors)
        removals = acting and _attempt(
            errors,
            lambda: services.remove_drop_boxes(acting_user=acting, site=site, drop_boxes=data.pop("boxes"), **data),
        )
        if removals:
            messages.success(
                request,
                f"{plural(len(removals), 'drop box', 'drop boxes')} of {gaming_date} removed to "
                f"{removals[0].storage_place}.",
            )
            return redirect("counts:boxes")
    if confirming and not form.cleaned_data["boxes"] and not errors:
        errors["boxes"] = [services.NO_BOX_CHOSEN]
    escort = form.cleaned_data["escorted_by"] if confirming else None
    return render(
        request,
        "counts/remove_all.html",
        {
            "site": site,
            "gaming_date": gaming_date,
            "day_form": day_form,
            "form": form,
            "candidates": [(c, str(c.box.pk) in _ticked(form)) for c in candidates],
            "reviewed": _reviewed(site, form, served) if confirming else [],
            "confirming": confirming and not errors,
            # REMOVAL: the shift manager transporting the boxes, never their escort.
            "signer_form": _signer_form(
                access,
                site,
                roles={Role.SHIFT_MANAGER},
                excluding=escort,
                why_excluded=f"{services.self_escort_refusal(site)} {escort} escorts them." if escort else "",
            ),
            "errors": errors,
        },
        status=_status(errors) if request.method == "POST" else 200,
    )


def _transporter(request, site, escort, errors: dict):
    """Who transports the boxes (`_acting`); on a count tablet a badge that is the escort's is
    refused before its PIN is checked (REMOVAL: the escort is another employee)."""
    badge = request.POST.get("signer_badge", "").strip()
    if escort is not None and access_for(request.user).station is not None and badge.lower() == escort.initials.lower():
        errors["signer_badge"] = [services.self_escort_refusal(site)]
        return None
    return _acting(request, errors)


def _proposed(candidates, table: str | None) -> list[int]:
    """The boxes ticked as the page opens: those in use that day (`BoxToRemove.proposed`); only
    table `table`'s where one is named (`?table=`: the floor's change of dealer at a site
    exchanging boxes at each dealer change, floor.pit_terminal.box_at_change)."""
    return [c.box.pk for c in candidates if c.proposed and (not table or str(c.box.table_id) == table)]


def _shifts_served(site, gaming_date, candidates):
    """{box id: its dealer shift or None} where boxes are exchanged at each dealer change (house
    control), resolved at the moment of the removal (now); None elsewhere."""
    if queries.box_exchange(site) != BoxExchange.DEALER_SHIFT:
        return None
    return queries.shifts_served(site, gaming_date, candidates, timezone.now())


def _reviewed(site, form, served) -> list[tuple]:
    """(box, what its dealer shift reads) of each box ticked; the second "" where boxes are
    exchanged once a gaming day."""
    if served is None:
        return [(box, "") for box in form.cleaned_data["boxes"]]
    return [
        (
            box,
            f"dealer shift: {queries.dealer_shift_label(site, served[box.pk])}"
            if served.get(box.pk) is not None
            else f"{HOUSE_CONTROL}: no dealer shift at table {box.table.number} on {form.cleaned_data['gaming_date']} "
            "begun before the removal: this box is not removed until one is recorded",
        )
        for box in form.cleaned_data["boxes"]
    ]


def _ticked(form) -> set[str]:
    if form.is_bound:
        return set(form.data.getlist("boxes"))
    return {str(pk) for pk in form.initial.get("boxes", [])}


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
def session_detail(request, pk, errors=None, status=200, viewer=None):
    """The session's boxes as the viewer may see them. On a count tablet nobody is logged in
    as a member: no member's figures show until both counts are in, unless that member gives
    their PIN to see their own (`my_counts`; `COUNT`: each counts independently)."""
    session, access = _session(request, pk)
    station = access.station is not None
    me = access.employee.pk if access.employee else viewer
    board = queries.session_board(session, me)
    shifts = queries.shift_labels(session.site, [b.drop for b in board])
    signatures = list(session.signatures.select_related("member__user"))
    is_member = me in session.member_ids and not station
    return render(
        request,
        "counts/session.html",
        {
            "session": session,
            "board": [(b, _rows(b), _may_count(b, me, station), shifts.get(b.drop.dealer_shift_id)) for b in board],
            "signatures": signatures,
            "is_member": is_member,
            "station": station,
            "revealed_for": viewer,
            "signed_by_me": any(s.member_id == me for s in signatures) and not station,
            "locked": len(signatures) >= 2,
            "errors": errors or {},
            "problems": services.signing_problems(session) if len(signatures) < 2 else [],
            "can_explain": access.has_role(session.site_id, Role.GAMING_MANAGER, Role.SHIFT_MANAGER),
            "sign_form": _signer_form(
                access,
                session.site,
                auto_id="sign_%s",
                members=_members_left(session, {s.member_id for s in signatures}),
            ),
            "reveal_form": _signer_form(access, session.site, auto_id="mine_%s", members=_members(session)),
        },
        status=status,
    )


def _may_count(box, me, station: bool) -> bool:
    """Offer "Count this box" to a member who has not counted it; on a tablet while a count is
    missing (the PIN says whose count it is)."""
    if station:
        return len(box.counted_by) < 2
    return me not in box.counted_by


@login_required
@require_POST
def my_counts(request, pk):
    """On a count tablet: a member gives their badge and PIN to see their own figures (the
    other member's stay hidden until both are in). Nothing is written but a wrong PIN's count."""
    session, access = _session(request, pk)
    errors = {}
    try:
        signer = signer_for(
            request.user, badge=request.POST.get("signer_badge", ""), pin=request.POST.get("signer_pin", "")
        )
    except PermissionDenied as exc:
        return session_detail(request, pk, errors={"signer_pin": [str(exc)]}, status=403)
    if signer.signer.pk not in session.member_ids:
        errors["member"] = [
            f"{COUNT_TEAM.at(session.site)}: only the two members of this count see its figures before both counts are in."
        ]
        return session_detail(request, pk, errors=errors, status=403)
    return session_detail(request, pk, viewer=signer.signer.pk)


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


def _recount_start(request, access, session, box):
    """What a recount starts from: the member's own previous count (a logged-in member), or on
    a tablet the count of the member chosen with `?from=<id>`, offered only once both counts are
    in (before that each count stays blind, `COUNT`)."""
    counts = queries.member_counts(session, box)
    both_in = all(m in counts for m in session.member_ids)
    if access.employee is not None:
        return counts.get(access.employee.pk), []
    chosen = request.GET.get("from", "")
    choices = list(counts.values()) if both_in else []
    start = next((m for m in choices if str(m.member_id) == chosen), None)
    return start, choices


@login_required
def count_box(request, pk, box_pk, mode="count"):
    """The tablet page: a large denomination grid with running totals and the forms found; on a
    count tablet, the member initials their count with their badge and PIN."""
    session, access = _session(request, pk)
    box = get_object_or_404(DropBox, pk=box_pk, site_id=session.site_id)
    errors = {}
    if request.method == "POST":
        currency, found = forms.currency_from_post(request.POST), forms.forms_from_post(request.POST)
        acting = _acting(request, errors)
        if mode == "resolve":
            step = lambda: services.resolve_difference(  # noqa: E731
                acting_user=acting,
                session=session,
                drop_box=box,
                currency=currency,
                forms=found,
                note=request.POST.get("note", ""),
            )
        else:
            step = lambda: services.record_blind_count(  # noqa: E731
                acting_user=acting, session=session, drop_box=box, currency=currency, forms=found
            )
        if acting is not None and _attempt(errors, step) is not None:
            messages.success(request, _counted(box, mode))
            following = _next_to_count(session, access, box) if mode == "count" else None
            if following is not None:
                return redirect("counts:count_box", pk=session.pk, box_pk=following)
            return redirect("counts:session", pk=session.pk)
    start, start_choices = _recount_start(request, access, session, box) if mode == "resolve" else (None, [])
    fills = " ".join(str(n) for k, n in start.forms if k == "fill") if start else ""
    credits = " ".join(str(n) for k, n in start.forms if k == "credit") if start else ""
    return render(
        request,
        "counts/count_box.html",
        {
            "session": session,
            "box": box,
            "mode": mode,
            "grid": _grid(request.POST or None, start.lines if start else None),
            "errors": errors,
            "prefilled_from": start,
            "start_choices": start_choices,
            "signer_form": _count_signer_form(access, session, box, mode),
            "fill_numbers": request.POST.get("fill_numbers", fills),
            "credit_numbers": request.POST.get("credit_numbers", credits),
            "note": request.POST.get("note", ""),
        },
        status=_status(errors),
    )


def _next_to_count(session, access, box) -> int | None:
    """After a blind count, the next count still owed, its form opened at once rather than the
    session's list to tap it from: on a tablet the first box with a member's count missing (the
    same box first, for the other member; each still counts blind, ND 99-01.3-08-14(2) and the
    count rule), on a member's own login the next box they have not counted. None (the session,
    to sign) once every count is in, or when the box just counted differs: the team sees the
    difference and recounts it from the session."""
    me = access.employee.pk if access.employee else None
    board = queries.session_board(session, me)
    if any(b.drop.drop_box_id == box.pk and b.status == "difference" for b in board):
        return None
    return next((b.drop.drop_box_id for b in board if _may_count(b, me, access.station is not None)), None)


def _count_signer_form(access, session, box, mode: str):
    """On a tablet, who initials a count of `box`: the member who has not counted it yet (a
    recount: either member)."""
    if access.station is None:
        return None
    members = _members(session)
    if mode == "count":
        counted = CountEntry.objects.filter(session=session, drop__drop_box=box, kind="member")
        members = _members_left(session, set(counted.values_list("entered_by_id", flat=True)))
    return _signer_form(access, session.site, members=members)


def _counted(box, mode: str) -> str:
    """What a count of a box recorded says, and what comes next."""
    if mode == "resolve":
        return f"Recount of drop box {box.number} recorded: once every box agrees, both members initial the count."
    return (
        f"Your count of drop box {box.number} recorded: once both members have counted it, a difference is "
        "recounted; then both initial the count."
    )


@login_required
def resolve_box(request, pk, box_pk):
    return count_box(request, pk, box_pk, mode="resolve")


@login_required
@require_POST
def sign(request, pk):
    session, _access = _session(request, pk)
    errors = {}
    acting = _acting(request, errors)
    if acting is not None:
        _attempt(errors, lambda: services.sign_count(acting_user=acting, session=session))
    if errors:
        return session_detail(request, pk, errors=errors, status=_status(errors))
    signed = session.signatures.count()
    messages.success(
        request,
        f"Count of {session.gaming_date} initialled ({signed} of 2): "
        + ("it is signed and stands." if signed >= 2 else "now the second member initials it."),
    )
    return redirect("counts:session", pk=session.pk)


@login_required
@require_POST
def explain(request, pk, box_pk):
    session, _access = _session(request, pk)
    drop = next((d for d in queries.session_drops(session) if d.drop_box_id == box_pk), None)
    if drop is None:
        raise Http404("That box was not counted in this session.")
    typed = request.POST.get("explained_at", "").strip()
    try:
        at = parse_datetime(typed) if typed else None  # the site's local time, from the paper (empty: now)
    except ValueError:
        at = None
    if typed and at is None:
        return session_detail(
            request,
            pk,
            errors={"explained_at": [f"{HOUSE_CONTROL}: give a date and time, for example 2026-07-10T19:00."]},
            status=400,
        )
    number = record_id(request.POST.get("number"))
    if number is None:  # the form's hidden field, altered: a 400 on the field, never a 500
        return session_detail(
            request, pk, errors={"number": [f"{HOUSE_CONTROL}: give the slip's printed number."]}, status=400
        )
    _explained, refused = run_service(
        lambda: services.explain_forms_exception(
            acting_user=request.user,
            drop=drop,
            kind=request.POST.get("kind", ""),
            number=number,
            explanation=request.POST.get("explanation", ""),
            at=at,
        )
    )
    if refused is not None:
        return session_detail(request, pk, errors=_errors(refused), status=400)
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
        audit_head=audit_head_text(chain_head(session.site.organization_id)),
    )
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="count-sheet-{session.site_id}-{session.gaming_date}.pdf"'
    return response
