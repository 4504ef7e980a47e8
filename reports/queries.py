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
