"""Reports in the browser: pick a report, a site and a period; watch it; download it."""

from datetime import timedelta

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone

from cardroom.access import access_for
from core import limits
from core.periods import Quarter
from core.rules import HOUSE_CONTROL
from packs import pack_for

from . import services
from .api import FORMATS, file_response, not_ready
from .catalogue import kinds_at, load_kinds
from .models import ReportRun
from .queries import readable_runs, require_reader, runs_for

# House control: a report still queued this long after its request is said to wait on a worker.
QUEUED_TOO_LONG = timedelta(minutes=1)


def _may_request(request) -> bool:
    return bool(access_for(request.user).all_roles() & set(services.REPORT_ROLES))


def _require_requester(request):
    if not _may_request(request):
        raise PermissionDenied(services.REQUEST_REFUSAL)


@login_required
def index(request):
    _require_requester(request)
    errors = {}
    if request.method == "POST":
        site_id = limits.record_id(request.POST.get("site"))
        site = access_for(request.user).sites().filter(pk=site_id).first() if site_id else None
        start, end = request.POST.get("start") or None, request.POST.get("end") or None
        try:
            run = services.request_report(
                acting_user=request.user,
                kind=request.POST.get("kind", ""),
                site=site,
                start=start,
                end=end,
                quarter=_quarter_asked(request.POST.get("kind", ""), request.POST.get("quarter"), start, end),
            )
            return redirect("reports:run", pk=run.pk)
        except ValidationError as exc:
            errors = exc.message_dict
    # The kinds offered at the current site, as its pack titles them (another pack's kind would
    # only be refused there).
    # The sites offered are those of the current site's pack: another pack's site is offered other
    # kinds in other words (switch to it in the header).
    site = request.site
    chosen = str(request.POST.get("site") or (site.pk if site is not None else ""))
    kinds = [kind.describe([pack_for(site)]) for kind in kinds_at(site)] if site is not None else []
    return render(
        request,
        "reports/index.html",
        {
            "kinds": kinds,
            # A kind the site's law states no rule for is named without one, and said once, here.
            "house_control": HOUSE_CONTROL,
            "house_kept": _house_kept(site, kinds),
            "report_sites": [
                (s.pk, s.name, str(s.pk) == chosen)
                for s in getattr(request, "visible_sites", [])
                if site is not None and s.jurisdiction == site.jurisdiction
            ],
            "runs": readable_runs(request.user)[:30],
            "errors": errors,
            "posted": request.POST,
            "quarter": str(Quarter.containing(timezone.localdate()).previous()),  # the quarter to file, prefilled
        },
        status=400 if errors else 200,
    )


def _quarter_asked(kind: str, quarter: str | None, start, end) -> str | None:
    """The form's quarter (prefilled) counts for a quarterly kind, or when no dates are given:
    a report over dates is not silently widened to the prefilled quarter."""
    period = getattr(load_kinds().get(kind), "period", None)
    return (quarter or None) if period == "quarter" or not (start or end) else None


@login_required
def run_detail(request, pk):
    run = get_object_or_404(runs_for(request.user), pk=pk)
    require_reader(request.user, run)
    template = "reports/_run_status.html" if request.htmx else "reports/run.html"
    # Still queued well after its request: no worker has taken it (one may not be running).
    stalled = run.status == ReportRun.Status.QUEUED and timezone.now() - run.requested_at > QUEUED_TOO_LONG
    # The list of reports is the requesters' page: a reader of this report alone is not sent to a 403.
    return render(request, template, {"run": run, "stalled": stalled, "may_request": _may_request(request)})


@login_required
def download(request, pk, fmt):
    if fmt not in FORMATS:  # an address no page links to: not found, as the API's own 400 would be a 500 here
        raise Http404(f"A report downloads as {', '.join(FORMATS)}.")
    run = get_object_or_404(runs_for(request.user).select_related("file"), pk=pk)
    require_reader(request.user, run)
    if run.status != "done":
        raise Http404(not_ready(run))
    return file_response(run, run.file, fmt)


def _house_kept(site, kinds: list[dict]) -> str:
    """The one sentence for the kinds offered that the site's law states no rule for: the house
    keeps them as its own records (House control); empty when every kind cites its rule."""
    kept = [kind["title"] for kind in kinds if kind["rule"] == HOUSE_CONTROL]
    if not kept:
        return ""
    which = "Every report here" if len(kept) == len(kinds) else "A report shown without a citation"
    return (
        f"{which} is kept as the house's own record ({HOUSE_CONTROL}): the rules held for "
        f"{pack_for(site).name} ask for no such record."
    )
