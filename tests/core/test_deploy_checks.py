"""`check --deploy` catches static files that were not collected (every page using one would
answer 500 under the manifest storage)."""

import json

import pytest
from django.apps import apps
from django.contrib.staticfiles import finders

from core.checks import static_files_collected

MANIFEST_STORAGE = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}


@pytest.fixture
def manifest_storage(settings, tmp_path):
    settings.STORAGES = MANIFEST_STORAGE
    settings.STATIC_ROOT = tmp_path
    return tmp_path


def write_manifest(static_root, paths) -> None:
    manifest = {"version": "1.1", "hash": "", "paths": {path: path for path in paths}}
    (static_root / "staticfiles.json").write_text(json.dumps(manifest))


def known_static_files() -> list[str]:
    ignore = apps.get_app_config("staticfiles").ignore_patterns
    return sorted({path for finder in finders.get_finders() for path, _ in finder.list(ignore)})


def test_nothing_collected_is_an_error_that_says_to_run_collectstatic(manifest_storage):
    [error] = static_files_collected(None)
    assert error.id == "cardroom.E001" and "collectstatic" in error.hint


def test_a_file_added_since_the_last_collectstatic_is_an_error_naming_it(manifest_storage):
    files = known_static_files()
    write_manifest(manifest_storage, [f for f in files if f != "cardroom/app.js"])
    [error] = static_files_collected(None)
    assert "): 1, e.g. cardroom/app.js;" in error.msg


def test_every_file_collected_passes(manifest_storage):
    write_manifest(manifest_storage, known_static_files())
    assert static_files_collected(None) == []


def test_development_storage_needs_no_collecting(settings):
    settings.STORAGES = {
        **MANIFEST_STORAGE,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    assert static_files_collected(None) == []
