"""Browser pages for table chip custody at the current site: the floor, tray counts, dealer
rotations, fill and credit slips, queues and the slip register.

Views parse with floor.forms and call one service or query; the service's refusal is shown
on the form with the API's message (core.forms.call_service). Objects of sites the user may
not see answer 404; an action the role may not take answers 403.
"""

from datetime import timedelta
from functools import partial, wraps
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count, Max
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render, resolve_url
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.views.decorators.http import require_POST

from cardroom.access import SESSION_KEY, access_for, current_site, require_role
from cardroom.forms import add_pin_fields
from cardroom.models import Employee, Role, Site, Station, Table
from cardroom.pins import acting_user_for
from cardroom.views import show_site
from core import form_tokens
from core.audit import chain_head
from core.forms import call_service
from core.limits import record_id
from core.pdf import audit_head_text
from core.plurals import one_of, plural
from core.rules import HOUSE_CONTROL

from . import forms, pit_terminal, queries, rules, services
from .active_tables import low_minimum_standing, low_table_left, unchecked_standing, unstaffed_standing
from .calculations import site_today
from .models import CarriedItem, DealerShift, Slip, SlipBook, SlipKind, SlipStep, TableInventory
from .open_items import CLOSE_CONTROL
from .pdf_slips import build_slip_document, render_slip_pdf
from .services.steps import fees_only, refuse_house_chips_at_fees_site


def site_page(view):
    """Log-in required; `request.site` must exist (its time zone set by config.middleware)."""

    @login_required
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        current_site(request)
        return view(request, *args, **kwargs)

    return wrapper


def _site_table(request, pk) -> Table:
    """The table at the current site; a link to a table at another of one's sites switches to
    that site (as the site switcher does) rather than answering 404. A form posted for another
    site's table is not taken: the page it came from was of another site."""
    table = Table.objects.select_related("site").filter(pk=pk, site__in=access_for(request.user).sites()).first()
    if table is None or (table.site_id != getattr(request.site, "pk", None) and request.method != "GET"):
        raise Http404("No such table at this site.")
    if table.site_id != getattr(request.site, "pk", None):
        request.session[SESSION_KEY] = table.site_id
        request.site = table.site
        timezone.activate(ZoneInfo(table.site.time_zone))  # the page's times in its site's zone
        messages.info(request, f"Switched to {table.site.name}, where table {table.number} is.")
    return table


def _visible_slip(request, pk) -> Slip:
    sites = access_for(request.user).sites()
    slip = get_object_or_404(
        Slip.objects.select_related("site", "table", "prepared_by__user", "gaming_day__close"), pk=pk, site__in=sites
    )
    timezone.activate(ZoneInfo(slip.site.time_zone))
    return slip


def _can(request, roles) -> bool:
    return access_for(request.user).has_role(request.site.pk, *roles)


# --- The floor ------------------------------------------------------------------------------


def _table_rows(site, day, house_chips: bool, house_dealers: bool):
    """Each active table with its status in the open gaming day (the pit board's states,
    `queries.board_state`), in a fixed number of queries whatever the number of tables; and, for
    the one-tap opener, the total and kind of its last closer or dealer-change count
    (`queries.last_tray_count`, what its next opener should match)."""
    counts, shifts = {}, {}
    if day is not None:
        for count in TableInventory.objects.filter(gaming_day=day).exclude(kind=TableInventory.Kind.CHANGE):
            counts[(count.table_id, count.kind)] = count
        shifts = queries.running_shifts(day, timezone.now())
    tables = Table.objects.filter(site=site, active=True).order_by("number")
    if house_chips:
        tables = queries.with_last_count(tables)
    rows = []
    for table in tables:
        opener, closer = counts.get((table.pk, "opener")), counts.get((table.pk, "closer"))
        kinds = {kind for kind, count in (("opener", opener), ("closer", closer)) if count is not None}
        shift = shifts.get(table.pk)
        status = queries.board_state(kinds, shift, house_chips, house_dealers)
        rows.append(
            {"table": table, "opener": opener, "closer": closer, "shift": shift, "status": status, "last": _last(table)}
        )
    return rows


def _last(table) -> dict | None:
    """The one-tap opener's copy of a table annotated by `queries.with_last_count`: its last
    count's total and kind ("closer", "dealer change"), or None for a table never counted."""
    if getattr(table, "last_total", None) is None:
        return None
    return {"total_cents": table.last_total, "label": TableInventory.Kind(table.last_kind).label.lower()}


def _one_tap_opener(day, site) -> bool:
    """A day already over is entered from paper: its opener takes the paper's time on the
    opener's page, so no page offers a one-tap opener then (tray_count's `day_over`)."""
    return day is not None and day.gaming_date >= site_today(site)


def _floor(request, status=200, **forms_shown):
    site = request.site
    day = queries.open_gaming_day(site)
    house_chips = not fees_only(site)  # a fees-only site has no fills, credits or tray counts to offer
    house_dealers = rules.house_dealers(site)  # a player-dealt game has no dealer shifts to offer
    context = {
        "day": day,
        "rows": _table_rows(site, day, house_chips, house_dealers),
        "one_tap_opener": _one_tap_opener(day, site),
        "player_dealer_rule": _player_dealer_rule(site),
        "offers_a_day": rules.floor_needs_a_day(site),
        "open_day_form": forms.OpenGamingDayForm(initial={"gaming_date": queries.next_gaming_date(site)}, site=site),
        "close_day_form": forms.ActionForm(),
        "can_run_floor": _can(request, rules.FLOOR_SUPERVISORS),
        "can_count_trays": house_chips,
        "can_fill": house_chips and _can(request, rules.FILL_PREPARERS),
        "can_credit": house_chips and _can(request, rules.CREDIT_PREPARERS),
        "fees_only_rule": _fees_only_rule(site),
    }
    return render(request, "floor/floor.html", {**context, **forms_shown}, status=status)


def _player_dealer_rule(site) -> str | None:
    """Where a player deals and banks the game at `site` (the house seats no dealer), why, cited at
    the site (rules.PLAYER_DEALER); the floor's pages say so in place of a dealer to seat."""
    return None if rules.house_dealers(site) else rules.no_house_dealer(site)


def _fees_only_rule(site) -> str | None:
    """Where the house's revenue at `site` is its fees (no house chips at its tables: no slips, no
    openers or closers), the rule it rests on, cited at the site; the floor's pages say so."""
    return rules.FEES_ONLY.at(site) if fees_only(site) else None


@site_page
def floor(request):
    return _floor(request)


@site_page
@require_POST
def open_day(request):
    form = forms.OpenGamingDayForm(request.POST, site=request.site)
    if form.is_valid():
        done = call_service(
            form,
            lambda: services.open_gaming_day(
                acting_user=request.user,
                site=request.site,
                gaming_date=form.cleaned_data["gaming_date"],
                at=form.cleaned_data["opened_at"],
            ),
        )
        if done is not None:
            messages.success(request, f"Gaming day {done.gaming_date} is open.")
            return redirect("floor:floor")
    return _floor(request, status=400, open_day_form=form)


def _resolve_url(item, day) -> str:
    """Where an open item is resolved: the slip, the table's closer, the counts, or, for a box
    not removed, the form removing all of the day's boxes at once (its boxes ticked), not the
    custody page where the shift manager would follow one more link to it."""
    kind, pk = item.key.split(":")[:2]
    if kind == "slip":
        return reverse("floor:slip", kwargs={"pk": pk})
    if kind == "table":
        return reverse("floor:tray_count", kwargs={"pk": pk, "kind": TableInventory.Kind.CLOSER})
    if item.kind == "box_not_counted":
        return reverse("counts:sessions")
    return f"{reverse('counts:remove_all')}?gaming_date={day.gaming_date.isoformat()}"


def _close_page(request, day, status=200, close_form=None, carry_form=None):
    """The day's open items, those carried with their reasons, the carry form and the close."""
    left = services.items_left_open(day)
    carryable = [item for item in left if item.carryable]
    context = {
        "day": day,
        "items": [(item, _resolve_url(item, day)) for item in left],
        "carryable": carryable,
        "carried": CarriedItem.objects.filter(gaming_day=day).select_related("carried_by"),
        "close_form": close_form or forms.ActionForm(),
        "carry_form": carry_form or forms.CarryItemsForm(keys=[i.key for i in carryable]),
        "can_close": _can(request, rules.FLOOR_SUPERVISORS),
        "close_control": CLOSE_CONTROL,
    }
    return render(request, "floor/close_day.html", context, status=status)


def _day_to_close(request):
    require_role(request.user, request.site, *rules.OPEN_ITEM_CARRIERS, action="see a gaming day's open items",
                 rule=CLOSE_CONTROL)  # fmt: skip
    return queries.open_gaming_day(request.site)


def _nothing_to_close(request):
    """No gaming day open (closed already, by this form sent again or in another tab): back to
    the floor, saying so, rather than a page not found."""
    messages.info(request, f"No gaming day is open at {request.site}: there is nothing to close.")
    return redirect("floor:floor")


@site_page
def close_day(request):
    """GET: what is still open in the day. POST: close it; a refusal lists the open items
    (house control, floor.open_items) on the same page."""
    day = _day_to_close(request)
    if day is None:
        return _nothing_to_close(request)
    if request.method != "POST":
        return _close_page(request, day)
    form = forms.ActionForm(request.POST)
    form.is_valid()
    if call_service(form, lambda: services.close_gaming_day(acting_user=request.user, gaming_day=day)) is not None:
        messages.success(request, f"Gaming day {day.gaming_date} is closed.")
        return redirect("floor:floor")
    return _close_page(request, day, status=400, close_form=form)


@site_page
@require_POST
def carry_items(request):
    """Carry the chosen open items past the close with one reason (shift or gaming manager)."""
    day = _day_to_close(request)
    if day is None:
        return _nothing_to_close(request)
    keys = [item.key for item in services.items_left_open(day) if item.carryable]
    form = forms.CarryItemsForm(request.POST, keys=keys)
    if form.is_valid():
        chosen, reason = form.cleaned_data["items"], form.cleaned_data["reason"]
        done = call_service(
            form,
            lambda: services.carry_open_items(acting_user=request.user, gaming_day=day, keys=chosen, reason=reason),
        )
        if done is not None:
            messages.success(request, f"{len(done)} item{'s' if len(done) != 1 else ''} carried past the close.")
            return redirect("floor:close_day")
    return _close_page(request, day, status=400, carry_form=form)


# --- The live pit view ---------------------------------------------------------------------


def polled_fragment(view):
    """A fragment that htmx polls: once the session has ended, the browser goes to the login
    form (HX-Redirect) rather than the form being swapped into the page."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated and request.htmx:
            return HttpResponse(headers={"HX-Redirect": resolve_url(settings.LOGIN_URL)})
        return view(request, *args, **kwargs)

    return wrapper


def _pit_site(request, site_id: int | None) -> Site:
    """The pit view's site: the current one, or `site_id` among the user's sites (404 for any
    other). A role that may not watch the pit gets 403 naming the rule; a pit terminal (station)
    watches its own site."""
    access = access_for(request.user)
    site = request.site if site_id is None else get_object_or_404(access.sites(), pk=site_id)
    if access.station is None:
        rules.PIT_VIEW.require(request.user, site)
    return site


def _pit_context(request, site_id: int | None) -> dict:
    site = _pit_site(request, site_id)
    here, station = site.pk == request.site.pk, _is_station(request)
    show_site(request, site)  # another site's pit is that site's page; `here` is the session's site
    now = timezone.now()
    board = queries.pit_board(site, now)
    return {
        "board": board,
        "here": here,
        "station": station,
        # A station's pit is its terminal: every step inline, each with a badge and PIN
        # (floor.pit_terminal; static/floor/pit_terminal.js).
        "terminal": pit_terminal.terminal_data(site, board, station=True, at=now) if station and here else None,
        # A terminal that is also the site's count tablet links to its count pages (Station.kind).
        "counts_here": station and access_for(request.user).station.presents(Station.Kind.COUNT),
        # The link to the floor's form opening the day, for who opens it (a pit boss is told who does).
        "can_open_day": here and not station and _can(request, rules.FLOOR_SUPERVISORS),
        "can_fill": here and (station or _can(request, rules.FILL_PREPARERS)),
        "can_credit": here and (station or _can(request, rules.CREDIT_PREPARERS)),
        # Signed in as themselves at a fees room (WA-BJ): each table links to the fees page's form.
        "fee_collector": here and not station and pit_terminal.may_collect_fee(site, request.user),
        "cites": rules.citations_at(site),
        "fees_only_rule": _fees_only_rule(site),
        "player_dealer_rule": _player_dealer_rule(site),
        "offers_a_day": rules.floor_needs_a_day(site),
        "low_minimum": low_minimum_standing(board),  # ND 99-01.3-08-09(1) while it stands
        "unstaffed": unstaffed_standing(board),  # ND 99-01.3-08-03(4), 08-07(1), (2) while it stands
        "unchecked": unchecked_standing(board),  # ND 99-01.3-08-07(1), (2): cards not checked today
        # Each open twenty-one table's card checks, where the pack states them; signed in as a shift
        # manager, one button records each (a terminal's badge and PIN: floor.pit_terminal).
        "card_checks": rules.card_checks_kept(site) and board.day is not None,
        "can_check_cards": here and not station and _can(request, rules.FLOOR_SUPERVISORS),
        "card_check_cites": {kind: rule.at(site) for kind, rule in rules.CARD_CHECK_RULES.items()},
    }


@site_page
def pit(request, site_id=None):
    """The live pit view: every table's state, dealer and waiting slips, and the queue counts;
    the board refreshes itself from `pit_live` every `settings.PIT_REFRESH_SECONDS`."""
    context = _pit_context(request, site_id)
    if context["terminal"]:
        context["outbox"] = _outbox(request, context["board"].site)
    return render(request, "floor/pit.html", context)


def _outbox(request, site) -> dict:
    """Where the terminal keeps its steps waiting to send (static/floor/pit_terminal.js): the
    browser's storage, one queue per station login and site, sealed (AES-GCM) with a key the
    server derives from its secret for that login and site (`outbox_seal`), never stored and
    handed only to that login's pages: a PIN in a queued step is never stored readable, another
    login cannot open the queue, and the same station signed in again opens it (house control)."""
    return {
        "store": f"pit-outbox:{request.user.pk}:{site.pk}",
        "seal": outbox_seal(request.user, site),
        "retry_seconds": settings.PIT_OUTBOX_RETRY_SECONDS,
    }


def outbox_seal(user, site) -> str:
    """The key sealing a station login's queue at a site: an HMAC of the login (its id and when
    it was made, so a later login given a reused id gets another) and the site, under the
    server's SECRET_KEY. The same for every sign-in of that login; no other login's."""
    value = f"{user.pk}:{user.date_joined.isoformat()}:{site.pk}"
    return salted_hmac(OUTBOX_SEAL, value, algorithm="sha256").hexdigest()


@polled_fragment
@site_page
def pit_live(request, site_id):
    return render(request, "floor/_pit_board.html", _pit_context(request, site_id))


@site_page
@require_POST
def card_check(request, pk, kind):
    """One button of the pit board: a table's dealing shoe inspected by the shift manager signed in,
    or its decks approved by the dealer seated there (`checked_by`), in the open day (ND
    99-01.3-08-07(1), (2), where the site's pack states them; the service refuses elsewhere)."""
    if kind not in rules.CARD_CHECK_RULES:
        raise Http404("A card check is the decks approved or the shoe inspected.")
    table = _site_table(request, pk)
    form = forms.ActionForm(request.POST)
    form.is_valid()
    named = record_id(request.POST.get("checked_by", ""))
    checker = Employee.objects.filter(pk=named, organization_id=table.site.organization_id).first() if named else None
    saved = _call(
        form, lambda: services.record_card_check(acting_user=request.user, table=table, kind=kind, checked_by=checker)
    )
    if saved is None:
        messages.error(request, " ".join(form.non_field_errors()))
        return form_tokens.refused(redirect("floor:pit_here"))
    messages.success(request, f"Table {table.number}: {saved.get_kind_display().lower()} by {saved.checked_by}.")
    return redirect("floor:pit_here")


OUTBOX_SEAL = "floor.pit_outbox_seal"  # the salt of the key sealing the terminal's queued steps


def _prepared_message(slip) -> str:
    """What comes next for a slip just prepared: its verification by someone on duty (named), or,
    with nobody but its preparer on duty who could verify, its receipt unverified with a reason
    (08-05(5)): "have it verified" would send a lone shift manager looking for nobody."""
    done = f"{slip.get_kind_display()} {slip.number} prepared"
    verifiers = queries.verifiers_on_duty(slip.site, slip.prepared_at, rules.VERIFIERS, excluding=slip.prepared_by)
    if verifiers:
        return f"{done}: now have it verified ({', '.join(str(e) for e in verifiers)} on duty)."
    rule = rules.SLIP_VERIFICATION.at(slip.site)
    here = queries.verifiers_not_signed_in(slip.site, slip.prepared_at, rules.VERIFIERS, excluding=slip.prepared_by)
    if here:  # on duty by verifying: the register is not the building
        return (
            f"{done}: someone on duty who is not dealing verifies it ({rule}); nobody else is signed in on duty "
            f"yet. If {_either(here)} is here and not dealing, they verify it, signing in on duty as they do; if "
            "nobody is, it is received unverified, its receiver saying why."
        )
    return f"{done}: nobody else on duty can verify it ({rule}), so it is received unverified, its receiver saying why."


def _either(people, most: int = 4) -> str:
    """'A', 'A or B', 'A, B or C' (and how many more past `most`)."""
    names = [str(p) for p in people[:most]]
    more = len(people) - len(names)
    if more:
        names.append(plural(more, "other"))
    return one_of(names)


# --- Tray counts -----------------------------------------------------------------------------


@site_page
def tray_count(request, pk, kind):
    if kind not in (TableInventory.Kind.OPENER, TableInventory.Kind.CLOSER):
        raise Http404("A tray count is an opener or a closer.")
    table = _site_table(request, pk)
    require_role(
        request.user, table.site, *rules.FLOOR_SUPERVISORS, action="record a table opener or closer", rule=HOUSE_CONTROL
    )
    if refusal := _fees_only_refusal(table.site, "table opener or closer"):
        kind_label = TableInventory.Kind(kind).label
        return _not_kept_here(
            request, "floor/tray_count.html", refusal, "fees-only", table=table, kind_label=kind_label
        )
    form = forms.TrayCountForm(request.POST or None, organization_id=table.site.organization_id)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        counted = {"same_as_last_closer": True} if data["same_as_last_closer"] else form.chip_input()
        saved = call_service(
            form,
            lambda: services.record_table_inventory(
                acting_user=request.user,
                table=table,
                kind=kind,
                variance_reason=data["variance_reason"],
                at=data["counted_at"],
                **counted,
            ),
        )
        if saved is not None:
            messages.success(request, f"{saved.get_kind_display()} of table {table.number} recorded.")
            if kind == TableInventory.Kind.CLOSER and (
                left := low_table_left(table, saved.gaming_day, saved.counted_at)
            ):
                messages.warning(request, left)
            return redirect(_after_tray_count(saved))
    previous = queries.last_tray_count(table)
    previous_lines = dict(previous.lines.values_list("value_cents", "quantity")) if previous else {}
    open_day = queries.open_gaming_day(table.site)
    if kind == TableInventory.Kind.OPENER and not form.is_bound:
        form.prefill(previous_lines)  # change only the denominations that differ
    if kind == TableInventory.Kind.CLOSER and not form.is_bound and open_day is not None:
        # The cursor in the opener's first denomination; every figure is still counted and typed.
        form.focus(next(iter(queries.opener_denominations(table, open_day)), None))
    return render(
        request,
        "floor/tray_count.html",
        {
            "table": table,
            "kind": kind,
            "kind_label": TableInventory.Kind(kind).label,
            "form": form,
            "previous": previous,
            "grid": form.chip_rows(previous_lines),
            "day": open_day,
            "day_over": open_day is not None and open_day.gaming_date < site_today(table.site),
            # A closer of a table not opened in the day is refused (the service's order of counts):
            # the page says so before anything is typed, and leads to the opener.
            "not_opened": (
                f"{rules.TRAY_COUNT}: table {table.number} was not opened in this gaming day; count its opener first."
                if kind == TableInventory.Kind.CLOSER
                and open_day is not None
                and not queries.table_was_opened(table, open_day)
                else None
            ),
            **(_closer_waiting(table) if kind == TableInventory.Kind.CLOSER else {}),
        },
        status=400 if form.errors else 200,
    )


def _after_tray_count(count) -> str:
    """Where a tray count leads: an opener to its table's next step, seating a dealer (the table
    chosen: one tap fewer than the floor's Dealers), where the house seats dealers and nobody is
    seated yet; a closer, or an opener of a player-dealt game (rules.PLAYER_DEALER), back to the floor."""
    table = count.table
    next_is_a_dealer = (
        count.kind == TableInventory.Kind.OPENER
        and rules.house_dealers(table.site)
        and queries.current_shift(table, timezone.now()) is None
    )
    return reverse("floor:dealer_shift", kwargs={"pk": table.pk}) if next_is_a_dealer else reverse("floor:floor")


def _closer_waiting(table) -> dict:
    """A table closes with slips still waiting for their receipt, by design: the day's close lists
    each as an open item and carries it (floor.open_items, a house control); the closer's page
    says so and names them."""
    waiting = queries.awaiting_receipt_at_table(table)
    them = "it" if len(waiting) == 1 else "them"
    return {
        "awaiting_receipt": waiting,
        "awaiting_receipt_note": (
            f"{plural(len(waiting), 'slip')} of table {table.number} not received yet: the table may close with "
            f"{them}. The gaming day's close lists each as an open item and carries it past the close with a "
            f"reason ({CLOSE_CONTROL}); each is received at its paper's time, entered with the time written on it."
        ),
    }


# --- Dealer rotations ---------------------------------------------------------------------


@site_page
def dealer_shift(request, pk):
    table = _site_table(request, pk)
    require_role(
        request.user, table.site, *rules.FLOOR_SUPERVISORS, action="record a dealer rotation", rule=HOUSE_CONTROL
    )
    if refusal := _player_dealer_rule(table.site):
        return _not_kept_here(request, "floor/dealer_shift.html", refusal, "player-dealer", table=table)
    current = queries.current_shift(table, timezone.now())
    seated = current.dealer if current is not None else None
    form = forms.DealerShiftForm(request.POST or None, site=table.site, game=table.game, seated=seated)
    if request.method == "POST" and form.is_valid():
        saved = call_service(
            form,
            lambda: services.start_dealer_shift(
                acting_user=request.user,
                table=table,
                dealer=form.cleaned_data["dealer"],
                started_at=form.cleaned_data["started_at"],
                **form.chip_input(optional=True),
            ),
        )
        if saved is not None:
            messages.success(request, f"{saved.dealer} is dealing at table {table.number}.")
            return redirect("floor:floor")
    day = queries.open_gaming_day(table.site)
    shifts = list(
        DealerShift.objects.filter(table=table, gaming_day=day).select_related("dealer__user").order_by("started_at")
    )
    return render(
        request,
        "floor/dealer_shift.html",
        {
            "table": table,
            "form": form,
            "grid": form.chip_rows(),
            "current": current,
            # Relieving a dealer where the site exchanges its boxes at each dealer change: the box first.
            "box_at_change": pit_terminal.box_at_change(table.site) if current is not None else None,
            "shifts": shifts,
            "open_next": None if shifts else _open_next(table, day),
        },
        status=400 if form.errors else 200,
    )


def _open_next(table, day) -> dict | None:
    """A table just opened (its opener in the open day, nobody seated there yet: where an opener
    lands, `_after_tray_count`) offers the next table without an opener, so a shift manager who
    opens every table before seating dealers goes on in one tap, not back to the floor first:
    its one-tap opener as its last count where the floor would offer one, else its opener's form."""
    if day is None:
        return None
    if not TableInventory.objects.filter(table=table, gaming_day=day, kind=TableInventory.Kind.OPENER).exists():
        return None
    following = queries.next_table_to_open(day)
    if following is None:
        return None
    return {"table": following, "last": _last(following) if _one_tap_opener(day, table.site) else None}


@site_page
@require_POST
def end_shift(request, pk):
    shift = get_object_or_404(
        DealerShift.objects.select_related("table__site", "dealer__user"), pk=pk, table__site=request.site
    )
    form = forms.ActionForm(request.POST)
    form.is_valid()
    left_site = request.POST.get("left_site") == "on"
    ended = call_service(
        form, lambda: services.end_dealer_shift(acting_user=request.user, shift=shift, left_site=left_site)
    )
    if ended is None:
        messages.error(request, " ".join(form.non_field_errors()))
        return form_tokens.refused(redirect("floor:dealer_shift", pk=shift.table_id))
    messages.success(request, f"{shift.dealer} left table {shift.table.number}.")
    if left := low_table_left(shift.table, ended.gaming_day, ended.ended_at, closed=False):
        messages.warning(request, left)
    return redirect("floor:dealer_shift", pk=shift.table_id)


# --- Slips ----------------------------------------------------------------------------------


@site_page
def prepare_slip(request, kind):
    if kind not in SlipKind.values:
        raise Http404("A slip is a fill or a credit.")
    site, station = request.site, _is_station(request)
    if not station:  # a station presents the form; the preparer's PIN says who prepares
        require_role(
            request.user,
            site,
            *rules.PREPARERS[kind],
            action=f"prepare a {kind} slip",
            rule=rules.SLIP_CONTENT.at(site),
        )
    if refusal := _fees_only_refusal(site, f"{kind} slip"):
        return _not_kept_here(request, "floor/prepare_slip.html", refusal, "fees-only", kind_label=SlipKind(kind).label)
    day = queries.open_gaming_day(site)
    open_tables = queries.tables_open(day) if day else []
    initial = {"table": request.GET.get("table")} if request.GET.get("table") else None
    cashier = None if station else Role.CASHIER in access_for(request.user).roles_at(site.pk)
    form = forms.PrepareSlipForm(
        request.POST or None, initial=initial, site=site, open_tables=open_tables, kind=kind, preparer_cashier=cashier
    )
    if station:
        add_pin_fields(form, site, rules.PREPARERS[kind])
    # The cursor in the table's last fill's denomination; the quantity is still typed.
    if kind == SlipKind.FILL and not form.is_bound and (table := _offered_table(open_tables, initial)):
        form.focus(queries.last_fill_denominations(Table.objects.filter(pk=table.pk)).get(table.pk))
    status = 200
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        prepare = services.prepare_credit
        if kind == SlipKind.FILL:
            prepare = partial(services.prepare_fill, cashier=data.get("cashier"))
        acting = _acting(request, form)
        slip = acting and _call(
            form,
            lambda: prepare(
                acting_user=acting,
                table=data["table"],
                purpose=data["purpose"],
                number=data["number"],
                at=data["prepared_at"],
                **form.chip_input(),
            ),
        )
        if slip is not None:
            messages.success(request, _prepared_message(slip))
            return redirect("floor:slip", pk=slip.pk)
    return render(
        request,
        "floor/prepare_slip.html",
        {
            "kind": kind,
            "kind_label": SlipKind(kind).label,
            "form": form,
            "day": day,
            "grid": form.chip_rows(),
            "uses_books": SlipBook.objects.filter(site=site, kind=kind).exists(),
            "station": station,
            "cites": rules.citations_at(site),
            # With no day open: who may open it does so on the floor; anyone else asks them.
            "opens_days": day is None and access_for(request.user).has_role(site.pk, *rules.FLOOR_SUPERVISORS),
        },
        status=_error_status(form, status),
    )


def _offered_table(open_tables, initial: dict | None) -> Table | None:
    """The open table the form was opened for (`?table=`, the floor's Fill), if it is one."""
    wanted = record_id((initial or {}).get("table"))
    return next((table for table in open_tables if table.pk == wanted), None)


def _fees_only_refusal(site, what: str) -> str | None:
    """Where the house's revenue is its fees, why `what` (a fill slip, a table opener or closer, a
    slip book) is not recorded at `site`: the service's own words (refuse_house_chips_at_fees_site),
    which its page says in place of a form; None where the site's pack keeps it."""
    try:
        refuse_house_chips_at_fees_site(site, "table", what)
    except ValidationError as exc:
        return exc.messages[0]
    return None


def _not_kept_here(request, template: str, refusal: str, refusal_id: str, **context):
    """A page whose record the site's pack refuses outright (a slip, a slip book or a tray count
    where the house's revenue is its fees, a dealer seated where a player deals): the service's `refusal` is all it
    says, with no form; a POST is refused (400) with it before any box is judged (a box's
    House-control error would have the user fix a record not kept there at all), nothing written.
    `refusal_id` is the id the site's other pages give its rule ("fees-only", "player-dealer")."""
    refused = request.method == "POST"
    context |= {"refusal": refusal, "refusal_id": refusal_id, "refused": refused}
    return render(request, template, context, status=400 if refused else 200)


def _is_station(request) -> bool:
    return access_for(request.user).station is not None


def _acting(request, form):
    """Who does the step: on a station the person whose badge and PIN are on the form, checked
    (cardroom.pins); otherwise the logged-in person. A refused PIN goes on the form (403)."""
    try:
        return acting_user_for(
            request.user, badge=form.data.get("signer_badge", ""), pin=form.data.get("signer_pin", "")
        )
    except PermissionDenied as exc:
        form.add_error(None, str(exc))
        form.pin_refused = True
        return None


def _call(form, save):
    """`call_service`, with a refusal of the person (a badge whose holder may not take this step, a
    dealer asked to verify) on the form too (403), where what was typed stays, as a refused PIN
    does, not a bare 403 page that loses it."""
    try:
        return call_service(form, save)
    except PermissionDenied as exc:
        form.add_error(None, str(exc))
        form.pin_refused = True
        return None


def _error_status(form, ok: int = 200) -> int:
    if getattr(form, "pin_refused", False):
        return 403
    return 400 if form.errors else ok


def _signed_as_label(signed_as: str) -> str:
    return rules.SignedAs(signed_as).label if signed_as in rules.SignedAs.values else ""


def _passes(check, *args) -> bool:
    try:
        check(*args)
    except ValidationError:
        return False
    return True


def _allowed_steps(access, slip, status: str) -> dict[str, bool]:
    """The steps offered on the slip page, decided by the services' own rule functions
    (services.check_verifier, services.receiver_capacity) for the person logged in. On a station
    the person is known only by their PIN, so every step the slip's state allows is offered and
    the service decides when the PIN is given."""
    now, employee, station = timezone.now(), access.employee, access.station is not None
    roles = access.roles_at(slip.site_id)
    receives = station or bool(roles & set(rules.RECEIVERS[slip.kind]))
    # rules.SLIP_VERIFICATION: an issued slip is received unverified when nobody who could verify is on duty.
    nobody_to_verify = (
        status == "issued"
        and receives
        and not queries.verifiers_on_duty(slip.site, now, rules.VERIFIERS, excluding=slip.prepared_by)
    )
    verify = status == "issued" and (
        station or (bool(roles & set(rules.VERIFIERS)) and _passes(services.check_verifier, slip, employee, now))
    )
    receive = ((status == "verified" and receives) or nobody_to_verify) and (
        station or _passes(services.receiver_capacity, slip, employee, roles, now)
    )
    # rules.VOID_CITATION and its house controls: the preparer, before receipt, while the gaming
    # day is open.
    void = (
        status in ("issued", "verified")
        and (station or (employee is not None and employee.pk == slip.prepared_by_id))
        and slip.gaming_day.is_open
    )
    # A voided slip offers a new one only to whom may prepare that kind (ND 99-01.3-08-05(3)).
    reissue = status == "voided" and (station or bool(roles & rules.PREPARERS[slip.kind]))
    return {"can_verify": verify, "can_receive": receive, "can_void": void, "can_reissue": reissue}


def _slip_context(request, slip, void_form=None, action_form=None):
    access = access_for(request.user)
    status = slip.status
    station = access.station is not None
    steps = {s.kind: s for s in slip.steps.all()}
    if station and action_form is None:
        action_form = forms.ActionForm()
        add_pin_fields(action_form, slip.site, _step_roles(slip, SlipStep.Kind.VERIFY))
    if station and void_form is None:
        void_form = forms.VoidSlipForm(auto_id="void_%s")
        add_pin_fields(void_form, slip.site, _step_roles(slip, SlipStep.Kind.VOID))
    return {
        "slip": slip,
        "game": rules.slip_game(slip.site, slip.game),  # "21 (Twenty-one)" in ND, the pack's name elsewhere
        "status": status,
        "lines": slip.lines.all(),
        "steps": steps,
        "labels": {
            "prepared": _signed_as_label(slip.prepared_as),
            "signed": _signed_as_label(slip.signed_as),
            **{kind: _signed_as_label(step.signed_as) for kind, step in steps.items()},
        },
        **_allowed_steps(access, slip, status),
        "station": station,
        "void_form": void_form or forms.VoidSlipForm(),
        "action_form": action_form,
        "reissue_url_kind": slip.kind,
        "cites": rules.citations_at(slip.site),
        "house_control": HOUSE_CONTROL,  # a rule the pack leaves to the house is not cited twice
    }


def _step_roles(slip, step: str) -> frozenset[str]:
    """Whose badges a station's form for a step of `slip` lists: its preparers' for the VOID (only
    the preparer voids, 08-05(2)); for the verify-or-receive form, the verifiers' (08-05(5)) and
    the receivers' of its kind (08-05(6))."""
    if step == SlipStep.Kind.VOID:
        return rules.PREPARERS[slip.kind]
    return rules.VERIFIERS | rules.RECEIVERS[slip.kind]


@login_required
def slip_detail(request, pk):
    slip = _visible_slip(request, pk)
    return render(request, "floor/slip_detail.html", _slip_context(request, slip))


@login_required
@require_POST
def slip_step(request, pk, step):
    slip = _visible_slip(request, pk)
    station = _is_station(request)
    if step == SlipStep.Kind.VOID:
        form = forms.VoidSlipForm(request.POST, auto_id="void_%s" if station else "id_%s")
    elif step in (SlipStep.Kind.VERIFY, SlipStep.Kind.RECEIVE):
        form = forms.ActionForm(request.POST)
    else:
        raise Http404("No such step on a slip.")
    if station:
        add_pin_fields(form, slip.site, _step_roles(slip, step))
    form.is_valid()
    acting = _acting(request, form)
    if step == SlipStep.Kind.VOID:
        save = lambda: services.void_slip(  # noqa: E731
            acting_user=acting, slip=slip, reason=form.cleaned_data.get("reason", "")
        )
    elif step == SlipStep.Kind.VERIFY:
        save = lambda: services.verify_slip(acting_user=acting, slip=slip)  # noqa: E731
    else:  # an unverified receipt states why (floor.services.receive_slip)
        reason = form.data.get("unverified_reason", "")
        save = lambda: services.receive_slip(acting_user=acting, slip=slip, unverified_reason=reason)  # noqa: E731
    if acting is not None and _call(form, save) is not None:
        messages.success(request, f"{slip.get_kind_display()} {slip.number}: {SlipStep.Kind(step).label.lower()}.")
        return redirect("floor:slip", pk=slip.pk)
    context = _slip_context(
        request,
        slip,
        void_form=form if step == SlipStep.Kind.VOID else None,
        action_form=None if step == SlipStep.Kind.VOID else form,
    )
    return render(request, "floor/slip_detail.html", context, status=_error_status(form, 400))


@login_required
def slip_pdf(request, pk):
    slip = _visible_slip(request, pk)
    employee = access_for(request.user).employee
    document = build_slip_document(slip, generated_by=employee.name if employee else request.user.get_username())
    head = audit_head_text(chain_head(slip.site.organization_id))
    response = HttpResponse(render_slip_pdf(document, audit_head=head), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{slip.kind}-slip-{slip.number}.pdf"'
    return response


# --- Queues and register ------------------------------------------------------------------------


@site_page
def slip_queues(request):
    return render(request, "floor/queues.html", _queues_context(request))


@polled_fragment
@site_page
def slip_queues_live(request):
    """The queues' fragment, polled by the queues page (htmx)."""
    return render(request, "floor/_queues.html", _queues_context(request))


def _queues_context(request) -> dict:
    day = queries.open_gaming_day(request.site)
    return {
        "queues": queries.page_queues(request.site, day),
        "day": day,
        "cites": rules.citations_at(request.site),
        "fees_only_rule": _fees_only_rule(request.site),
    }


@polled_fragment
@site_page
def to_receive_live(request):
    """The fills waiting for the signed-in dealer to receive them (08-05(6)), polled by their home
    page's panel: those at the table where they deal now, verified, each one tap from its slip's
    page, where the slip is read and Receive signed (before, the Chips menu, Slips waiting, then
    the slip). Who receives is still the service's call (services.receiver_capacity). Read from
    that table's fills alone (queries.fills_to_receive_at), not the site's whole queues."""
    site = request.site
    require_role(
        request.user, site, *rules.RECEIVERS[SlipKind.FILL], action="receive a fill", rule=rules.SLIP_RECEIPT.at(site)
    )
    employee = access_for(request.user).employee
    shift = (
        queries.shifts_running(timezone.now()).filter(dealer=employee, table__site=site).select_related("table").first()
    )
    context = {
        "shift": shift,
        "slips": queries.fills_to_receive_at(shift.table) if shift is not None and not fees_only(site) else [],
        "cites": rules.citations_at(site),
        "fees_only_rule": _fees_only_rule(site),
    }
    return render(request, "floor/_to_receive.html", context)


@site_page
def slip_register(request):
    rules.SLIP_REGISTER.require(request.user, request.site)
    today = site_today(request.site)
    data = request.GET if "start" in request.GET else {"start": today - timedelta(days=6), "end": today}
    form = forms.RegisterPeriodForm(data)
    register = None
    if form.is_valid():
        register = queries.slip_register(request.site, form.cleaned_data["start"], form.cleaned_data["end"])
    books = SlipBook.objects.filter(site=request.site).select_related("registered_by")
    return render(
        request,
        "floor/register.html",
        {"form": form, "register": register, "books": books, "fees_only_rule": _fees_only_rule(request.site)},
        status=200 if register else 400,
    )


# --- Books of pre-printed slips (rules.SLIP_NUMBERING) ----------------------------------------------


@site_page
def slip_books(request):
    """The site's slip books with how far each is used, and a form registering one (the API's
    service and messages: floor.services.register_slip_book)."""
    site = request.site
    require_role(request.user, site, *rules.SLIP_BOOK_REGISTRARS, action="register a slip book", rule=HOUSE_CONTROL)
    if refusal := _fees_only_refusal(site, "slip book"):
        return _not_kept_here(request, "floor/slip_books.html", refusal, "fees-only", site=site)
    form = forms.SlipBookForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        book = call_service(
            form, lambda: services.register_slip_book(acting_user=request.user, site=site, **form.cleaned_data)
        )
        if book is not None:
            messages.success(request, f"{book} is registered at {site}.")
            return redirect("floor:slip_books")
    books = (
        SlipBook.objects.filter(site=site)
        .select_related("registered_by")
        .annotate(used=Count("slips"), last_used=Max("slips__number"))
    )
    return render(
        request,
        "floor/slip_books.html",
        {
            "form": form,
            "books": books,
            "site": site,
            "cites": rules.citations_at(site),
        },
        status=400 if form.errors else 200,
    )
