"""The handouts' law is their packs' (issue 32): `reports/` holds no jurisdiction's words, and each
pack's house-rules handout, generated at a site of that pack through the API, reads back (PDF and
CSV) with every citation its own pack's lines give the table and no other pack's words."""

import ast
from datetime import date
from pathlib import Path

import pytest

from approvals.services import record_licence
from cardroom.models import Role
from packs import get_pack
from tests.factories import TableFactory
from tests.pack_setup import record_controls
from tests.reports.test_pack_handouts import CASES
from tests.reports.test_reports import auditor_api, pdf_text, request  # noqa: F401  (fixture)

ROOT = Path(__file__).resolve().parents[2]
LAW = ("99-01.3", "WAC", "WSGC", "NYCRR", "N.D.C.C.")
# Words only one pack's handout prints.
OWN_WORDS = {
    "ND": ("99-01.3", "N.D.C.C.", "class C felony"),
    "WA-HB": ("WSGC", "WAC 230-15"),
    "WA-BJ": ("WAC 230-40", "dealer/banker"),
    "NY": ("NYCRR",),
}


def _docstrings(tree) -> set[int]:
    """The ids of the docstrings (module, class, function and attribute): documentation cites the
    rule a piece of code follows, as the house style asks; only the strings code prints count."""
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for before, statement in zip([None, *body], body, strict=False):
            if not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)):
                continue
            if before is None or isinstance(before, (ast.Assign, ast.AnnAssign)):
                found.add(id(statement.value))
    return found


def law_in_code(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    return [
        f"{path.relative_to(ROOT)}:{node.lineno}: {node.value[:60]!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
        and any(word in node.value for word in LAW)
    ]  # fmt: skip


def test_the_reports_app_prints_no_jurisdictions_law():
    """Every string the reports app can print comes from the site's pack, never from its own code."""
    found = [hit for path in sorted((ROOT / "reports").rglob("*.py")) for hit in law_in_code(path)]
    templates = sorted((ROOT / "templates" / "reports").rglob("*.html"))
    found += [str(path) for path in templates if any(word in path.read_text(encoding="utf-8") for word in LAW)]
    assert not found, "\n".join(found)


def test_the_house_rules_kind_holds_no_jurisdictions_law_even_in_its_comments():
    text = (ROOT / "reports" / "kinds" / "house_rules.py").read_text(encoding="utf-8")
    assert not [word for word in LAW if word in text]


def flat(text: str) -> str:
    return "".join(text.split())


@pytest.mark.parametrize("code", ["ND", "NY", "WA-HB", "WA-BJ"])
def test_each_packs_handout_at_its_own_site_cites_its_own_law_only(auditor_api, site, cast, code):  # noqa: F811
    site.jurisdiction = code
    site.save()
    manager = cast[Role.GAMING_MANAGER]
    if code == "WA-HB":
        record_controls(manager, site)
    if code == "NY":
        record_licence(acting_user=manager.user, organization=site.organization, licence_number="NY-GC-1",
                       tie_option=2, effective_on=date(2024, 1, 1))  # fmt: skip
    options = CASES[code][0] if code in CASES else {}
    table = TableFactory(site=site, number=1, min_wager_cents=100, **options)
    table.full_clean()
    handout = get_pack(code).handout
    created = request(auditor_api, kind=handout.kind, site=site.pk, end="2026-11-20")
    assert created.status_code == 201, created.json()
    download = f"/api/v1/reports/{created.json()['id']}/download/"
    pdf = flat(pdf_text(auditor_api.get(download).content))
    cited = {citation for section in handout.sections for _, citation in section.lines(table)}
    cited |= {citation for _, citation in handout.notice} | {heading for heading, _ in handout.closing}
    assert len(cited) > 2
    missing = [citation for citation in cited if flat(citation) not in pdf]
    assert not missing, missing
    csv = auditor_api.get(f"{download}?format=csv").content.decode()
    others = [word for other, words in OWN_WORDS.items() if other != code for word in words]
    foreign = [word for word in others if flat(word) in pdf or word in csv]
    assert not foreign, foreign
    assert any(flat(word) in pdf for word in OWN_WORDS[code])


@pytest.mark.parametrize("code", ["ND", "NY", "WA-HB", "WA-BJ"])
def test_a_pack_offers_only_its_own_handout(auditor_api, site, code):  # noqa: F811
    site.jurisdiction = code
    site.save()
    kinds = {k["kind"] for k in auditor_api.get("/api/v1/reports/kinds/").json()}
    handouts = {get_pack(c).handout.kind for c in OWN_WORDS}
    assert kinds & handouts == {get_pack(code).handout.kind}
