from collections import defaultdict

from django.db.models import Q

from cardroom.access import access_for

from .catalogue import load_kinds
from .models import ReportRun


def runs_for(user):
    """Reports of the sites the user may see (another organization's answer 404)."""
    return ReportRun.objects.filter(site__in=access_for(user).sites()).select_related("site", "requested_by")


def readable_runs(user):
    """The reports whose figures the user may read: at each of their sites, the kinds whose
    reader rule names one of their roles there (the rule of the figures' own API)."""
    access = access_for(user)
    kinds = load_kinds()
    sites_by_kinds: dict[tuple[str, ...], list[int]] = defaultdict(list)
    for site in access.sites():
        codes = tuple(sorted(code for code, kind in kinds.items() if kind.reader.allows(access, site.pk)))
        if codes:
            sites_by_kinds[codes].append(site.pk)
    readable = Q(pk__in=[])
    for codes, site_ids in sites_by_kinds.items():
        readable |= Q(site_id__in=site_ids, kind__in=codes)
    return runs_for(user).filter(readable)


def require_reader(user, run: ReportRun) -> None:
    """403 naming the rule and the roles unless the user may read the figures `run` holds."""
    kind = load_kinds()[run.kind]
    kind.reader.require(user, run.site, because=f" (the {kind.title_at(run.site).lower()} holds them)")


def stored_pdf(site_id: int, pdf_sha256: str) -> bytes | None:
    """The PDF of a report stored for the site with that SHA-256 (a filed quarter's package
    names it; statefiling sends it with the package), or None."""
    from .models import ReportFile

    pdf = ReportFile.objects.filter(run__site_id=site_id, pdf_sha256=pdf_sha256).values_list("pdf", flat=True).first()
    return None if pdf is None else bytes(pdf)


def period_report_digests(site_id: int, start, end, limit: int = 100) -> list[dict]:
    """The digests of the reports generated for a site within a period (a filed quarter's
    package sends them to the state's registry, statefiling): kind, PDF and data SHA-256."""
    from .models import ReportFile

    rows = (
        ReportFile.objects.filter(run__site_id=site_id, run__start__gte=start, run__end__lte=end)
        .order_by("generated_at", "pk")
        .values_list("run__kind", "run__start", "run__end", "generated_at", "pdf_sha256", "data_sha256")[:limit]
    )
    return [
        {
            "kind": kind,
            "start": str(s),
            "end": str(e),
            "generated_at": at.isoformat(),
            "pdf_sha256": pdf,
            "data_sha256": data,
        }
        for kind, s, e, at, pdf, data in rows
    ]
