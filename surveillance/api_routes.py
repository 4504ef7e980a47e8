"""This app's API endpoints on /api/v1/ (config.api_urls)."""

from . import api

ROUTES = [
    ("surveillance/statuses", api.StatusViewSet, "surveillance-status"),
    ("surveillance/equipment", api.EquipmentViewSet, "surveillance-equipment"),
    ("surveillance/equipment-changes", api.ChangeViewSet, "surveillance-equipment-change"),
    ("surveillance/sample-submissions", api.SubmissionViewSet, "surveillance-sample-submission"),
    ("surveillance/sample-evaluations", api.EvaluationViewSet, "surveillance-sample-evaluation"),
    ("surveillance/vendor-purchases", api.PurchaseViewSet, "surveillance-vendor-purchase"),
    ("surveillance/recordings", api.RecordingViewSet, "surveillance-recording"),
    ("surveillance/video-access", api.AccessViewSet, "surveillance-video-access"),
    ("surveillance/review-log", api.ReviewLogViewSet, "surveillance-review-log"),
    ("surveillance/outages", api.OutageViewSet, "surveillance-outage"),
    ("surveillance/outage-repairs", api.RepairViewSet, "surveillance-outage-repair"),
    ("surveillance/special-events", api.SpecialEventViewSet, "surveillance-special-event"),
    ("surveillance/review-programs", api.ProgramViewSet, "surveillance-review-program"),
    ("surveillance/review-program-closures", api.ClosureViewSet, "surveillance-review-program-closure"),
    ("surveillance/review-tasks", api.TaskViewSet, "surveillance-review-task"),
    ("surveillance/review-entries", api.EntryViewSet, "surveillance-review-entry"),
]


def register(routes) -> None:
    for prefix, viewset, basename in ROUTES:
        routes.register(prefix, viewset, basename=basename)
