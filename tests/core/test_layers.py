"""Imports point down the layers, so the folder list reads as the architecture (issue 19).

    core < cardroom < packs < floor < counts | cage | surveillance | tournaments | approvals | fees < accounting < compliance < reports < dashboard

An app may import from the layers below it, never from its own layer's other apps or from
above, at module level or inside a function. Where a lower layer needs an answer only a higher
one has, the lower layer defines a hook and the higher registers it when its app loads
(`core.closing`, `cardroom.wager_caps`, `floor.tips`). Wiring assembles the apps and may
reach across: settings, URLs, the Celery app, app configs (hooks and menus), menus, the admin,
demo builders, management commands and migrations.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS = (
    ("core",),
    ("cardroom",),
    ("packs",),
    ("floor",),
    ("counts", "cage", "surveillance", "tournaments", "approvals", "fees"),
    ("accounting",),
    ("compliance",),
    ("reports",),
    ("dashboard",),
)
LAYER_OF = {app: height for height, apps in enumerate(LAYERS) for app in apps}

WIRING_FILES = {"config/settings.py", "config/urls.py", "config/api_urls.py", "config/celery.py"}
WIRING_NAMES = {"apps.py", "menu.py", "admin.py", "demo.py", "urls.py", "api_routes.py"}
WIRING_FOLDERS = {"migrations", "management"}


def is_wiring(relative: str) -> bool:
    parts = relative.split("/")
    return relative in WIRING_FILES or parts[-1] in WIRING_NAMES or bool(WIRING_FOLDERS & set(parts[1:-1]))


def imported_modules(tree: ast.AST):
    """(line, dotted name) of every import anywhere in the tree (module level, functions,
    classes); a relative import, which stays in its own app, as None."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            yield node.lineno, None if node.level else node.module


def violations_in(source: str, relative: str) -> list[str]:
    """'file:line: ...' for each import in `source` (the file `relative` to the repository)
    that points up the layers or sideways to another app of the same layer."""
    app = relative.split("/")[0]
    found = []
    for line, name in imported_modules(ast.parse(source, relative)):
        target = name.split(".")[0] if name else app
        if target == app or target not in LAYER_OF:
            continue
        if LAYER_OF[target] >= LAYER_OF[app]:
            way = "sideways" if LAYER_OF[target] == LAYER_OF[app] else "up"
            found.append(f"{relative}:{line}: {app} imports {name} ({way}: {target} is not below {app})")
    return found


def app_modules():
    for app in LAYER_OF:
        for path in sorted((ROOT / app).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if not is_wiring(relative):
                yield relative


def test_every_app_of_the_layers_exists():
    assert all((ROOT / app / "apps.py").exists() for app in LAYER_OF)


def test_imports_point_down_the_layers():
    found = [v for relative in app_modules() for v in violations_in((ROOT / relative).read_text(), relative)]
    assert found == [], "Imports that point up or sideways:\n" + "\n".join(found)


@pytest.mark.parametrize(
    ("relative", "source", "expected"),
    [
        ("cardroom/models.py", "def clean():\n    from surveillance.services import cap\n", ["cardroom/models.py:2"]),
        ("floor/services.py", "import cage.queries\n", ["floor/services.py:1"]),
        ("counts/queries.py", "x = 1\nfrom surveillance import queries\n", ["counts/queries.py:2"]),
        ("accounting/summaries.py", "from counts.queries import a\nfrom floor.models import Slip\n", []),
        ("floor/views.py", "from . import services\nfrom .models import Slip\nimport django\n", []),
        ("dashboard/views.py", "from accounting import summaries\nfrom reports import kinds\n", []),
    ],
)
def test_the_check_names_file_and_line_of_an_import_up_or_sideways(relative, source, expected):
    assert [":".join(v.split(":")[:2]) for v in violations_in(source, relative)] == expected


@pytest.mark.parametrize(
    ("relative", "wiring"),
    [
        ("config/settings.py", True),
        ("config/api_urls.py", True),
        ("floor/urls.py", True),
        ("cage/apps.py", True),
        ("cage/demo.py", True),
        ("floor/management/commands/bench_slips.py", True),
        ("floor/migrations/0002_content_types_follow_the_move.py", True),
        ("floor/services.py", False),
        ("cardroom/models.py", False),
        ("counts/queries.py", False),
    ],
)
def test_only_wiring_may_reach_across(relative, wiring):
    assert is_wiring(relative) is wiring
