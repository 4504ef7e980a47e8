"""The layers are a contract import-linter holds (`.importlinter`, `lint-imports`): every project
app of INSTALLED_APPS is in it, wiring that reaches across is an explicit list of file-to-module
pairs, and dynamic imports (which no import graph sees) are made only in the project package
(`config`)."""

import ast
import configparser
import re
import subprocess
import sys
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
CONTRACT = ROOT / ".importlinter"
PROJECT_PACKAGE = "config"


def _contract() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(inline_comment_prefixes=None)
    parser.read(CONTRACT)
    return parser


def _lines(value: str) -> list[str]:
    return [line.strip() for line in value.splitlines() if line.strip() and not line.strip().startswith("#")]


def _layers() -> list[list[str]]:
    return [re.split(r"\s*[|:]\s*", layer) for layer in _lines(_contract()["importlinter:contract:layers"]["layers"])]


def _project_apps() -> list[str]:
    """The apps of INSTALLED_APPS that are this repository's (a folder at its root)."""
    names = [app.split(".")[0] for app in settings.INSTALLED_APPS]
    return [name for name in names if (ROOT / name / "__init__.py").exists()]


def test_lint_imports_keeps_the_contract():
    lint = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(lint), "--config", str(CONTRACT)], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_every_project_app_is_a_layer_of_the_contract():
    in_layers = [app for layer in _layers() for app in layer]
    assert sorted(in_layers) == sorted([*_project_apps(), PROJECT_PACKAGE])
    assert sorted(_lines(_contract()["importlinter"]["root_packages"])) == sorted(in_layers)
    assert _layers()[0] == [PROJECT_PACKAGE] and _layers()[-1] == ["core"]  # config on top, the platform at the bottom


def test_the_wiring_exemptions_are_file_to_module_pairs_that_exist():
    pairs = [line.split(" -> ") for line in _lines(_contract()["importlinter:contract:layers"]["ignore_imports"])]
    problems = []
    for pair in pairs:
        if len(pair) != 2 or any("*" in side for side in pair):
            problems.append(f"not one file to one module: {' -> '.join(pair)}")
            continue
        importer, imported = pair
        path = ROOT.joinpath(*importer.split("."))
        source = path.with_suffix(".py")
        if not source.exists():
            problems.append(f"no file for {importer}")
            continue
        tree = ast.parse(source.read_text())
        named = set()  # each module a statement may import: `from a import b` may be a.b
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                named.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                named.add(node.module)
                named.update(f"{node.module}.{alias.name}" for alias in node.names)
        if imported not in named:
            problems.append(f"stale: {importer} no longer imports {imported}")
    assert problems == []


# --- Dynamic imports -----------------------------------------------------------------------

DYNAMIC = re.compile(r"\bimport_module\b|\b__import__\b|\bget_model\(")


def dynamic_imports(source: str, relative: str) -> list[str]:
    """'file:line: text' for each dynamic import in `source`: importlib's `import_module`,
    `__import__`, or a model looked up by name (`apps.get_model`)."""
    found = []
    for number, line in enumerate(source.splitlines(), 1):
        code = line.split("#")[0]
        if DYNAMIC.search(code):
            found.append(f"{relative}:{number}: {line.strip()}")
    return found


def _outside_the_project_package():
    for app in _project_apps():
        for path in sorted((ROOT / app).rglob("*.py")):
            # A data migration reads its app's historical models by name: that is what Django
            # gives a migration (RunPython's `apps`), not a way around the layers.
            if "migrations" not in path.relative_to(ROOT).parts:
                yield path.relative_to(ROOT).as_posix(), path.read_text()


def test_dynamic_imports_are_made_only_in_the_project_package():
    found = [hit for relative, source in _outside_the_project_package() for hit in dynamic_imports(source, relative)]
    assert found == [], "Dynamic imports outside config/:\n" + "\n".join(found)


def test_the_scan_finds_each_kind_of_dynamic_import():
    source = (
        "from importlib import import_module\n"
        "x = __import__('cage.queries')\n"
        "m = apps.get_model('floor', 'Slip')\n"
        "ok = apps.get_models()  # every model, none by name\n"
    )
    assert [hit.split(":")[1] for hit in dynamic_imports(source, "floor/x.py")] == ["1", "2", "3"]
