from django.apps import AppConfig

# Report kinds holding only dealer percent-of-hold or video review records (08-16(1)(h)).
SHORT_RETENTION_KINDS = frozenset({"dealer_hold"})


class ReportsConfig(AppConfig):
    name = "reports"

    def ready(self):
        from cardroom.retention import DEALER_HOLD_AND_VIDEO_REVIEW, STANDARD, retain
        from core import hooks

        from . import menu  # noqa: F401
        from .queries import period_report_digests, stored_pdf

        hooks.REPORT_DIGESTS.register(period_report_digests)  # a filed quarter's package names its reports
        hooks.REPORT_PDF.register(stored_pdf)  # and its quarterly PDF goes with it
        from .models import ReportRun

        # ND 99-01.3-08-16: a report is kept as long as the records it holds; the dealer
        # percent-of-hold report one year at a site with a video surveillance system (08-16(1)(h)).
        def rule(run):
            if run.kind in SHORT_RETENTION_KINDS and run.site_id and _surveillance_site(run.site_id, run.end):
                return DEALER_HOLD_AND_VIDEO_REVIEW
            return STANDARD

        retain(ReportRun, lambda r: r.end, rule)


def _surveillance_site(site_id: int, on) -> bool:
    """Whether the site had a video surveillance system required (and so kept) on `on`."""
    from surveillance.models import SurveillanceStatus

    latest = (
        SurveillanceStatus.objects.filter(site_id=site_id, since__lte=on).order_by("since", "recorded_at", "id").last()
    )
    return bool(latest and latest.required)
