from cardroom.access import access_for

from .models import ReportRun


def runs_for(user):
    """Reports of the sites the user may see (another organization's answer 404)."""
    return ReportRun.objects.filter(site__in=access_for(user).sites()).select_related("site", "requested_by")
