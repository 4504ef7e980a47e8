"""Alerts, the obligations calendar, and running the checks from the browser."""

import re
from collections import defaultdict

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from cardroom.access import access_for, current_site, refusal, require_role
from cardroom.models import Role
from cardroom.views import show_site
from core import form_tokens
from core.forms import call_service
from core.limits import digits
from core.periods import Quarter
from core.plurals import plural
from core.rules import HOUSE_CONTROL, citation_order, joined_citations

from . import engine, obligations, services
from .forms import ResolveForm, RunForm, StepForm
from .labels import figure_rows
from .models import ComplianceRun
from .month import WEEKDAYS, Month, month_grid
from .queries import ALERTS, alerts_for, in_quarter, is_overdue, last_run, open_before, status_of
from .schedule import next_runs

ALERT_ROWS = 500  # a quarter's alerts at one organization's sites stay far below this


def _require_alert_reader(request):
    # The pages list the alerts of the sites where ALERTS lets the user read (compliance.queries).
    if not ALERTS.held_somewhere(access_for(request.user)):
        raise PermissionDenied(refusal(ALERTS.rule, ALERTS.roles, "see the compliance pages"))


def _quarter_asked(request, today) -> Quarter:
    """The quarter in ?quarter=2026Q3, else the current one (a bad value is said, not a 500)."""
    try:
        return Quarter.parse(request.GET["quarter"])
    except KeyError:
        return Quarter.containing(today)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return Quarter.containing(today)


def _opened_here(alerts, run) -> int | None:
    """A run over every site (the schedule's) spans every organization: its own counts are the
    whole system's, which no reader of one organization may see. Its result on this page is the
    alerts it opened at the reader's sites (opened while it ran); None for a run of one site,
    whose own counts are that site's."""
    if run is None or run.site_id is not None or run.status != run.Status.SUCCEEDED:
        return None
    return alerts.filter(opened_at__gte=run.started_at, opened_at__lte=run.finished_at).count()


@login_required
def alert_list(request):
    """The quarter's alerts (the current quarter unless another is asked for), what is still
    open from earlier, the last run of the checks and the next scheduled ones."""
    _require_alert_reader(request)
    access = access_for(request.user)
    alerts = alerts_for(access).order_by("is_resolved", "due_date", "-opened_at")
    if digits(request.GET.get("site", "")):
        alerts = alerts.filter(site_id=request.GET["site"])
        if shown := access.sites().filter(pk=request.GET["site"]).first():
            show_site(request, shown)  # that site's list: its pack's checks, its last run, its date
    today = timezone.localdate()
    quarter = _quarter_asked(request, today)
    run = last_run(access, request.site)
    earlier = open_before(alerts, quarter) if quarter == Quarter.containing(today) else alerts.none()
    return render(
        request,
        "compliance/alert_list.html",
        {
            "quarter": quarter,
            "is_current": quarter == Quarter.containing(today),
            "has_begun_next": quarter.next().start <= today,  # no link on to a quarter still to come
            "rows": _alert_rows(in_quarter(alerts, quarter)[:ALERT_ROWS]),
            "earlier_rows": _alert_rows(earlier[:ALERT_ROWS]),
            "last_run": run,
            "opened_here": _opened_here(alerts_for(access), run),
            "next_runs": next_runs(timezone.now()),
            "run_form": RunForm(today=today),
            "can_run": access.is_gaming_manager,
            **site_rules(request.site),
        },
    )


def site_rules(site) -> dict:
    """The rules of the chosen site's jurisdiction pack only: the compliance checks that run there
    (those whose rules the pack states: each with its rules' citations at the site and the
    provider's first docstring line after its citation) and the pack's citations. A WA or NY
    site lists no North Dakota rule."""
    if site is None:
        return {}
    from packs import pack_for

    pack = pack_for(site)
    providers = [p for p in engine.QUARTER_PROVIDERS + engine.DAY_PROVIDERS if engine.runs_at(p, pack)]
    checks = [_check_line(p, pack) for p in providers]
    table_rules = _without_short_forms(set(pack.citations.values()))
    states = any(r.applies(pack) for p in providers for r in engine.rules_of(p))
    return {"rules_site": site, "rules_pack": pack, "pack_checks": checks, "pack_table_rules": table_rules,
            "pack_states_a_check": states}  # fmt: skip


def _check_line(provider, pack) -> str:
    """ "<citations at the pack>: <what the check looks for>" (the docstring's first line, less
    the citation it opens with)."""
    house = getattr(provider, "house_control", False)  # kept everywhere: "House control" where not stated
    citations = joined_citations(r.at(pack) for r in engine.rules_of(provider) if house or r.applies(pack))
    first = _first_sentence(provider.__doc__ or provider.__name__)
    what = first.split(": ", 1)[1] if ": " in first else first
    return f"{citations}: {what}"


# The code a docstring names for its developers (`module.name`, module.path), not for the page.
CODE_NAMES = (
    re.compile(r"\s*\(`[^`]+`(?::[^)]*)?\)"),  # "(`floor.queries.card_checks_kept_since`: ...)"
    re.compile(r",\s*`[^`]+`"),  # "(the site's recorded events, `surveillance.models.SpecialEvent`)"
    re.compile(r"\s*\([a-z_]+(?:\.[a-z_]+)+\)"),  # "(surveillance.coverage)"
)


def _first_sentence(doc: str) -> str:
    """The docstring's first sentence, its lines joined (a wrapped line cut mid-sentence read "...
    two consecutive quarters (or a seasonal site's fiscal year) of"), less the code it names."""
    paragraph = " ".join(line.strip() for line in doc.strip().split("\n\n")[0].splitlines())
    sentence = re.split(r"(?<=[\w)\]$%])\.\s", paragraph, maxsplit=1)[0].rstrip(".")
    for pattern in CODE_NAMES:
        sentence = pattern.sub("", sentence)
    return sentence.replace("`", "") + "."


def _without_short_forms(citations: set[str]) -> list[str]:
    """The citations less those that are only the tail of another listed (a slip's own label
    "08-05(3)(c)" beside "ND 99-01.3-08-05(3)(c)"), in the order a reader counts them."""
    kept = {c for c in citations if not any(o != c and o.endswith(c) and o[-len(c) - 1] in "-. " for o in citations)}
    return sorted(kept, key=citation_order)


def _offered_form(access, alert, data=None):
    """The one action the user may take on an open alert: a gaming manager resolves it (with its
    documentation); a shift manager adds documentation; anyone else only reads (house control,
    compliance.services.RESOLVE_ROLES and ACKNOWLEDGE_ROLES)."""
    if access.has_role(alert.site_id, *services.RESOLVE_ROLES):
        return "resolve", ResolveForm(data, prefix="resolve")
    if access.has_role(alert.site_id, *services.ACKNOWLEDGE_ROLES):
        return "document", StepForm(data, prefix="document")
    return None, None


def _alert_rows(alerts) -> list[tuple]:
    """(alert, status, overdue) a row: each judged overdue on its own site's date."""
    return [(a, status, is_overdue(a, status)) for a in alerts for status in (status_of(a),)]


@login_required
def alert_detail(request, pk):
    _require_alert_reader(request)
    access = access_for(request.user)
    alert = get_object_or_404(alerts_for(access), pk=pk)
    show_site(request, alert.site)
    status = status_of(alert)
    action, form = _offered_form(access, alert, request.POST if request.method == "POST" else None)
    if request.method == "POST":
        if action is None or request.POST.get("action") != action:
            roles = services.RESOLVE_ROLES if request.POST.get("action") == "resolve" else services.ACKNOWLEDGE_ROLES
            raise PermissionDenied(refusal(HOUSE_CONTROL, roles, f"{request.POST.get('action') or 'work'} an alert"))
        if form.is_valid() and call_service(form, lambda: _act(action, request.user, alert, form)) is not None:
            messages.success(request, "Alert resolved." if action == "resolve" else "Documentation added.")
            return redirect("compliance:alert", pk=alert.pk)
    return render(
        request,
        "compliance/alert_detail.html",
        {
            "alert": alert,
            "status": status,
            "figures": figure_rows(alert.figures, alert.site),
            "today": timezone.localdate(),
            "action": action if status != "resolved" else None,
            "form": form,
        },
        status=400 if form is not None and form.errors else 200,
    )


def _act(action, user, alert, form):
    note, documentation = form.cleaned_data["note"], form.documentation()
    if action == "resolve":
        return services.resolve_alert_with_documentation(
            acting_user=user, alert=alert, note=note, documentation=documentation
        )
    return services.document_alert(acting_user=user, alert=alert, note=note, documentation=documentation)


@login_required
def calendar(request):
    """A month of due dates (?month=2026-11): the alerts', and beside them the obligations running
    with no alert of their own (compliance.obligations: review weeks, dealer records, deposits,
    returns),
    with what is overdue from before it listed above the grid."""
    _require_alert_reader(request)
    today = timezone.localdate()
    errors = {}
    try:
        month = Month.parse(request.GET.get("month"), default=today)
    except ValidationError as exc:  # said inline, as the figures pages say a bad date; this month shown
        errors = {field: " ".join(messages) for field, messages in exc.message_dict.items()}
        month = Month.parse(None, default=today)
    first, last = month.grid_range()
    access = access_for(request.user)
    alerts = alerts_for(access)
    by_day = defaultdict(list)
    for alert in alerts.filter(due_date__range=(first, last)).order_by("due_date", "site__name", "pk"):
        by_day[alert.due_date].append((alert, status_of(alert)))
    overdue = alerts.filter(is_resolved=False, due_date__lt=min(first, today)).order_by("due_date", "pk")
    # What is running with no alert of its own: review weeks, dealer records, deposits, returns
    # (compliance.obligations).
    running = obligations.obligations_between(access, first, last, today)
    return render(
        request,
        "compliance/calendar.html",
        {
            "month": month,
            "sites": list(ALERTS.sites(access).order_by("name").values_list("name", flat=True)),
            "weeks": month_grid(month, by_day, today, obligations.by_day(o for o in running if o.due_date >= first)),
            "weekdays": WEEKDAYS,
            "today": today,
            "overdue": overdue,
            "obligations_overdue": [o for o in running if o.due_date < first],
            "due_in_month": sum(len(v) for d, v in by_day.items() if d.month == month.first.month)
            + sum(1 for o in running if o.due_date >= first and o.due_date.month == month.first.month),
            "errors": errors,
        },
        status=400 if errors else 200,
    )


@login_required
@require_POST
def run_checks(request):
    site = current_site(request)
    require_role(request.user, site, Role.GAMING_MANAGER, action="run the compliance checks", rule=HOUSE_CONTROL)
    form = RunForm(request.POST, today=timezone.localdate())
    if not form.is_valid():
        messages.error(request, f"{HOUSE_CONTROL}: choose one of the quarters offered.")
        return form_tokens.refused(redirect("compliance:alerts"))
    quarter = Quarter.parse(form.cleaned_data["quarter"])
    try:
        result = engine.run_checks(
            site_ids=[site.pk], quarter=quarter, trigger=ComplianceRun.Trigger.BROWSER, acting_user=request.user
        )
    except ValidationError as refused:  # a quarter before the law held (engine.refuse_before_the_law)
        messages.error(request, " ".join(refused.messages))
        return form_tokens.refused(redirect("compliance:alerts"))
    messages.success(
        request,
        f"Checks run for {site.name}, {quarter}: {plural(len(result.opened), 'alert')} opened, "
        f"{result.already_open} already open.",
    )
    return redirect(f"{reverse('compliance:alerts')}?quarter={quarter}")
