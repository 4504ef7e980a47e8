"""No module imports another module's private name (issue 34: "no private name imported across
modules").

A name that starts with one underscore is its module's own. Another module of the project may not
take it: not by `from x import _name` (relative imports too, and imports inside functions count),
not by `x._name` on a module it imported, and not by importing a private module (`x._y`). A helper
that several modules share is public in the module that owns it (`floor.services.steps.save_count`).

Scanned: every package of the project (the apps, `config`, `benchmarks`), migrations excepted (they
are generated and frozen). Not scanned: `tests/`. A test may reach into the module it tests (patch
a private cache, call a private step to pin its SQL), which is what white-box tests are for; code
that ships may not.

Attribute uses are judged only on names bound to a project module: `Model._meta` and the like are
Django's documented API on a class, not another module's private name.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOT_SCANNED = {"tests", ".venv", "node_modules"}


def project_packages(root: Path = ROOT) -> list[str]:
    return sorted(p.name for p in root.iterdir() if (p / "__init__.py").is_file() and p.name not in NOT_SCANNED)


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_module(dotted: str, root: Path) -> bool:
    base = root.joinpath(*dotted.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def imported_from(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def private_uses(path: Path, root: Path, packages: set[str]) -> list[str]:
    """Each use in `path` of another project module's private name, as 'file:line: what'."""
    module = module_name(path, root)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found, bound = [], {}  # bound: local name -> the dotted project name it stands for
    where = f"{path.relative_to(root)}"
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = imported_from(node, module, path.name == "__init__.py")
            if source.split(".")[0] not in packages:
                continue
            if any(is_private(part) for part in source.split(".")):
                found.append(f"{where}:{node.lineno}: imports the private module {source}")
            for alias in node.names:
                if is_private(alias.name) and source != module:
                    found.append(f"{where}:{node.lineno}: from {source} import {alias.name}")
                bound[alias.asname or alias.name] = f"{source}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] not in packages:
                    continue
                if any(is_private(part) for part in alias.name.split(".")):
                    found.append(f"{where}:{node.lineno}: imports the private module {alias.name}")
                if alias.asname:
                    bound[alias.asname] = alias.name
                else:
                    bound[alias.name.split(".")[0]] = alias.name.split(".")[0]
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and is_private(node.attr)):
            continue
        chain, value = [], node.value
        while isinstance(value, ast.Attribute):
            chain.insert(0, value.attr)
            value = value.value
        if isinstance(value, ast.Name) and value.id in bound:
            owner = ".".join([bound[value.id], *chain])
            if owner != module and is_module(owner, root):
                found.append(f"{where}:{node.lineno}: {owner}.{node.attr}")
    return found


def scan(root: Path = ROOT) -> list[str]:
    packages = project_packages(root)
    found = []
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            if "migrations" not in path.parts:
                found += private_uses(path, root, set(packages))
    return found


def test_no_module_imports_another_modules_private_name():
    found = scan()
    assert not found, (
        "Another module's private name is used (make it public in the module that owns it, "
        "or move it there):\n" + "\n".join(found)
    )


def test_the_scan_reads_every_app():
    assert {"config", "core", "cardroom", "floor", "accounting", "compliance", "reports"} <= set(project_packages())


@pytest.mark.parametrize(
    ("source", "flagged"),
    [
        ("from app.steps import _helper\n", True),
        ("from .steps import _helper\n", True),
        ("def f():\n    from app.steps import _helper\n", True),
        ("from app import steps\nsteps._helper()\n", True),
        ("import app.steps as s\ns._helper()\n", True),
        ("from app import _private_module\n", True),
        ("from app.steps import helper\n", False),
        ("from app.models import Thing\nThing._meta.db_table\n", False),
        ("from app.user import _own\n", False),  # the module's own name (a self-import)
        ("from django.utils import _os\n", False),  # not the project's
    ],
)
def test_the_scan_finds_a_private_name_taken_from_another_module(tmp_path, source, flagged):
    app = tmp_path / "app"
    app.mkdir()
    (app / "__init__.py").write_text("")
    (app / "steps.py").write_text("def _helper():\n    pass\n")
    (app / "models.py").write_text("class Thing:\n    pass\n")
    (app / "_private_module.py").write_text("")
    (app / "user.py").write_text(source)
    found = private_uses(app / "user.py", tmp_path, {"app"})
    assert bool(found) is flagged, found
