"""The import graph inside each app has no circle, counting the imports inside functions (a
function-level import hides a circle from Python, not from a reader), and other apps read
accounting only through its published modules (issue 34: published read paths)."""

import ast
from pathlib import Path

import pytest
from django.apps import apps

ROOT = Path(__file__).resolve().parents[2]

# Apps whose circles are not broken yet: none (cardroom, core and packs had theirs broken by moving
# the shared piece down: `cardroom.chip_colours`, `Site.jurisdictions_of`, `cardroom.pack_demo`'s
# organization list; core's `row_events` hook and `core.audit_verify.verify_chain`; `packs.base.PACKS`
# filled by `packs.registry`). Kept, so an app may be listed while its circles are broken.
NOT_YET: set[str] = set()
# The platform's and the domain's own endpoints are listed in config/api_urls.py itself.
API_IN_CONFIG = {"cardroom", "core"}
# The state's registry is another party's API (/registry/api/v1/, its licensees' credentials), not
# the organization's /api/v1/: its own URLs hold it.
API_ELSEWHERE = {"registry"}

# What another app may import of accounting: reads, writes and rule keys.
ACCOUNTING_FRONT = {"accounting.published", "accounting.services", "accounting.rules"}
# Files that wire apps together or load demo data may reach further (none do today).
ACCOUNTING_READERS = ("reports", "dashboard", "compliance", "cage", "counts", "floor", "surveillance")


def project_apps() -> list[str]:
    names = {c.name.split(".")[0] for c in apps.get_app_configs() if Path(c.path).resolve().is_relative_to(ROOT)}
    return sorted(names | {"packs"})


def modules_of(app: str) -> dict[str, Path]:
    found = {}
    for path in (ROOT / app).rglob("*.py"):
        if "migrations" in path.parts:
            continue
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imported(module: str, path: Path) -> set[str]:
    """Every dotted name `module` imports, anywhere in the file (module level and in functions)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module
            names |= {source} | {f"{source}.{alias.name}" for alias in node.names}
    return names


def graph(app: str) -> dict[str, set[str]]:
    modules = modules_of(app)
    return {m: {t for t in imported(m, p) if t in modules and t != m} for m, p in modules.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


@pytest.mark.parametrize("app", [a for a in project_apps() if a not in NOT_YET])
def test_no_circle_between_the_modules_of_an_app(app):
    assert circles(graph(app)) == []


def test_the_circle_finder_sees_a_circle_hidden_in_a_function(tmp_path):
    edges = {"a.x": {"a.y"}, "a.y": {"a.z"}, "a.z": {"a.x"}, "a.w": set()}
    assert circles(edges) == [["a.x", "a.y", "a.z"]]
    module = tmp_path / "y.py"
    module.write_text("def f():\n    from . import z\n")
    assert "a.z" in imported("a.y", module)


def test_every_project_app_is_scanned():
    assert {"accounting", "compliance", "reports", "dashboard", "floor", "counts", "surveillance"} <= set(
        project_apps()
    )


@pytest.mark.parametrize("app", ACCOUNTING_READERS)
def test_other_apps_read_accounting_through_its_published_modules(app):
    reaching = sorted(
        f"{path.relative_to(ROOT)}: {name}"
        for module, path in modules_of(app).items()
        for name in imported(module, path)
        if name.startswith("accounting.") and name.count(".") == 1 and name not in ACCOUNTING_FRONT
    )
    assert reaching == []


def test_menu_entries_are_registered_in_each_apps_menu_module_only():
    """One way to add to the menu: `<app>/menu.py` calls `cardroom.navigation.register`."""
    elsewhere = sorted(
        str(path.relative_to(ROOT))
        for app in project_apps()
        if app != "cardroom"
        for module, path in modules_of(app).items()
        if not module.endswith(".menu")
        and {"cardroom.navigation", "cardroom.navigation.register"} & imported(module, path)
    )
    assert elsewhere == []


def test_api_routes_are_registered_in_each_apps_api_routes_module_only():
    """One way to add to /api/v1/: `<app>/api_routes.register(routes)`; no app module holds urlpatterns of the API."""
    with_patterns = sorted(
        str(path.relative_to(ROOT))
        for app in project_apps()
        if app not in API_IN_CONFIG | API_ELSEWHERE
        for module, path in modules_of(app).items()
        if module.rpartition(".")[2].startswith("api") and "urlpatterns" in path.read_text()
    )
    assert with_patterns == []
    apps_with_api = {app for app in project_apps() if (ROOT / app / "api.py").exists()} - API_IN_CONFIG - API_ELSEWHERE
    assert all((ROOT / app / "api_routes.py").exists() for app in apps_with_api)
