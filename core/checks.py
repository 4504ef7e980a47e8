"""System checks: every hook answered (always), and the production configuration (`manage.py check --deploy`)."""

from django.apps import apps
from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.core.checks import Error, Tags, register


@register(Tags.staticfiles, deploy=True)
def static_files_collected(app_configs, **kwargs):
    """With the manifest storage (DEBUG=false) every `{% static %}` looks its file up in
    STATIC_ROOT's manifest; a file missing there makes the page that uses it answer 500.
    So every file the finders know must be in the manifest: collectstatic has run, and since
    the last upgrade."""
    if not isinstance(staticfiles_storage, ManifestFilesMixin):  # DEBUG: files served from the finders
        return []
    collected, _ = staticfiles_storage.load_manifest()
    ignore = apps.get_app_config("staticfiles").ignore_patterns
    missing = sorted({path for finder in finders.get_finders() for path, _ in finder.list(ignore)} - collected.keys())
    if not missing:
        return []
    return [
        Error(
            f"Static files missing from the manifest in STATIC_ROOT ({settings.STATIC_ROOT}): {len(missing)}, "
            f"e.g. {missing[0]}; pages using them would answer 500.",
            hint="Run `manage.py collectstatic --noinput` with these settings.",
            id="cardroom.E001",
        )
    ]


@register()
def hooks_answered(app_configs, **kwargs):
    """Every hook of `core.hooks` has its answer registered by the app that knows it: a hook
    with none would refuse every question asked of it, so the project does not start."""
    from .hooks import missing

    return [
        Error(
            f"The hook {hook.name!r} ({hook.asked_by}) has no answer.",
            hint=f"{hook.answered_by} registers it when its app loads: is that app in INSTALLED_APPS?",
            obj=hook,
            id="core.E001",
        )
        for hook in missing()
    ]
