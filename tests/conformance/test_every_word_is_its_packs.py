"""Every word at a site is its own pack's (issue 32).

At a site of each pack, with a stretch of activity made through the services and the API
(tests/conformance/sites.py) and the compliance scan run as the schedule runs it, each kind of
user reads every page and API address found from the URL conf (tests/conformance/walk.py), every
report kind they may generate there (PDF read back with pypdf, CSV, XLSX with openpyxl), every
alert, and the refusals of a few typical bad inputs; none may carry another state's law
(tests/conformance/words.py). A failure names the page, endpoint, report, alert or refusal and the
foreign words found, with their context. A report's PDF also writes every time in one clock, its
slips' 12-hour a.m./p.m. (`other_clocks`).

And an organization's menus and report lists show nothing of a pack it has no site of.

Adding a pack: one entry in PACKS (its site builder and its words).
"""

import csv
import io
import logging
import re
from collections import defaultdict
from dataclasses import dataclass
from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from openpyxl import load_workbook
from pypdf import PdfReader

from cardroom.models import Membership, Role
from floor.rules import PLAYER_DEALER
from tests.conftest import FAST_HASHERS
from tests.shared_world import rolled_back_after

from . import sites, walk, words


@dataclass(frozen=True)
class Conformance:
    build: object  # (demo) -> sites.BuiltSite: the pack's site and its activity
    words: tuple  # the patterns of the pack's own law (words.MARKS)


PACKS = {
    "ND": Conformance(sites.build_nd, words.ND_MARKS),
    "WA-HB": Conformance(sites.build_wa_hb, words.WA_MARKS),
    "WA-BJ": Conformance(sites.build_wa_bj, words.WA_MARKS),
    "NY": Conformance(sites.build_ny, words.NY_MARKS),
}
MARKS = {code: entry.words for code, entry in PACKS.items()}
USERS = sites.USER_KINDS
REPORTERS = ("gaming_manager", "auditor")
pytestmark = pytest.mark.django_db  # each test in its own transaction over the pack's site


def foreign(code: str):
    return words.foreign_marks(code, MARKS)


@pytest.fixture(autouse=True)
def _quiet_request_log():
    """The walk meets refusals (403), POST-only addresses (405) and missing rows (404) by the
    hundred: not warnings to print."""
    logger = logging.getLogger("django.request")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    yield
    logger.setLevel(level)


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker) -> dict:
    """The demo's master data (sites.demo_master_data), built once for the module's packs in a
    transaction that each pack's site is built in a savepoint of (so each pack starts from the
    demo alone), rolled back after them as Django's TestCase.setUpClass data is. It was built
    again for each pack: 2-4 s each."""
    with rolled_back_after(django_db_blocker, FAST_HASHERS):
        yield sites.demo_master_data()


@pytest.fixture(
    scope="module", params=[pytest.param(code, marks=pytest.mark.xdist_group(f"conformance-{code}")) for code in PACKS]
)
def built(request, demo, django_db_blocker) -> sites.BuiltSite:
    """The site of one pack (the parameter) with its activity and the compliance scan run:
    built once for the tests of that pack in a savepoint of the demo's transaction that each
    test's own nests in (so what a test writes rolls back), rolled back after them. One process
    builds each pack (its xdist group)."""
    code = request.param
    with rolled_back_after(django_db_blocker, FAST_HASHERS):
        try:
            made = PACKS[code].build(sites.reread(demo))
            sites.request_a_report([made])
            sites.run_the_compliance_scan([made])
            yield made
        finally:
            _ADDRESSES.pop(code, None)
            _OPENED.pop(code, None)


# --- the addresses of a site ------------------------------------------------------------------------


def _slip(b):
    from floor.models import Slip

    slip = Slip.objects.filter(table__site=b.site).order_by("pk").first()
    return slip and {"pk": slip.pk, "step": "verify"}


def _first(model_path: str, **filters):
    def values(b):
        from django.apps import apps

        model = apps.get_model(model_path)
        row = (
            model.objects.filter(**{k: (b.site if v == "site" else v) for k, v in filters.items()})
            .order_by("pk")
            .first()
        )
        return row and {"pk": row.pk}

    return values


def _count_box(b):
    from counts.models import CountSession, DropBox

    session = CountSession.objects.filter(site=b.site).order_by("pk").first()
    box = DropBox.objects.filter(site=b.site).order_by("pk").first()
    return session and box and {"pk": session.pk, "box_pk": box.pk}


def _count_settings(b) -> int:
    from counts.queries import count_settings

    return count_settings(b.site).pk


def _table(kind=None):
    def values(b):
        table = b.site.tables.order_by("number").first()
        return table and {"pk": table.pk, **({"kind": kind} if kind else {})}

    return values


# Routes whose ids no page of the site links to (an empty day's floor, a list without rows):
# filled from the builder's objects. Keyed by URL name.
FALLBACKS = {
    "slip": _slip,
    "slip_pdf": _slip,
    "slip_step": _slip,
    "dealer_shift": _table(),
    "tray_count": _table("opener"),
    "end_shift": _first("floor.DealerShift", table__site="site"),
    "prepare_slip": lambda b: {"kind": "fill"},
    "iou_repay": _first("cage.Iou", site="site"),
    "tip_redeem": _first("cage.TipDeclaration", site="site"),
    "deposit_record": _first("floor.GamingDay", site="site"),
    "deposit_verify": _first("cage.BankDeposit", site="site"),
    "retire_box": _first("counts.DropBox", site="site"),
    "session": _first("counts.CountSession", site="site"),
    "sign": _first("counts.CountSession", site="site"),
    "my_counts": _first("counts.CountSession", site="site"),
    "sheet": _first("counts.CountSession", site="site"),
    "count_box": _count_box,
    "resolve_box": _count_box,
    "explain": _count_box,
    "table": _table(),
    "alert": _first("compliance.Alert", site="site"),
    "run": _first("reports.ReportRun", site="site"),
    "download": lambda b: (
        (_first("reports.ReportRun", site="site")(b) or None)
        and {**_first("reports.ReportRun", site="site")(b), "fmt": "pdf"}
    ),
    "dealer": lambda b: {"pk": b.users["dealer"].pk} if "dealer" in b.users else None,  # none where players deal
    "books": lambda b: {"what": "day"},
    "setup_list": lambda b: {"kind": "tables"},
    "setup_new": lambda b: {"kind": "tables"},
    "setup_edit": lambda b: {"kind": "tables", "pk": b.site.tables.order_by("number").first().pk},
    "count-settings-detail": lambda b: {"pk": _count_settings(b)},
}
# Views that read a date or a quarter from the query: the site's.
QUERY_OF = {
    "api-daily-summary": lambda b: f"?date={b.days[-1]}",
    "api-quarter-summary": lambda b: f"?quarter={b.quarter}",
    "api-quarter-filing": lambda b: f"?quarter={b.quarter}",
    "api-organization-tax": lambda b: f"?quarter={b.quarter}",
    "api-other-games-agp": lambda b: f"?quarter={b.quarter}",
    "api-dealer-hold": lambda b: f"?start={b.days[0]}&end={b.days[-1]}",
    "slip-register-list": lambda b: f"?start={b.days[0]}&end={b.days[-1]}",
}


def _extra(b) -> list[str]:
    """The figure pages on the days played (they open on today by default)."""
    return [
        *(f"/dashboard/daily/?date={day}" for day in b.days),
        f"/dashboard/quarter/?quarter={b.quarter}",
        f"/dashboard/dealers/?start={b.days[0]}&end={b.days[-1]}",
        *(f"/cage/?date={day}" for day in b.days),
        f"/compliance/calendar/?month={b.quarter.end:%Y-%m}",
    ]


_ADDRESSES: dict[str, walk.Addresses] = {}
# The answers to the pages the gaming manager opened while the addresses were found, by path.
_OPENED: dict[str, dict] = {}


def addresses(code: str, b) -> walk.Addresses:
    """The site's addresses, found once as its gaming manager."""
    if code not in _ADDRESSES:
        client = signed_in(b, "gaming_manager")
        _OPENED[code] = {}
        _ADDRESSES[code] = walk.site_addresses(client, b, FALLBACKS, QUERY_OF, _extra(b), _OPENED[code])
    return _ADDRESSES[code]


def signed_in(b, kind: str) -> Client:
    """A browser of `kind`'s user with the site chosen (the site switcher)."""
    client = Client()
    client.force_login(b.users[kind].user)
    client.post("/switch-site/", {"site": b.site.pk})
    return client


def get(client: Client, path: str):
    """The answer to a GET, and the text to read in it. A 403 that names no rule makes the
    suite's check (tests/conftest.py) raise: its message is the text then."""
    try:
        if path.startswith("/api/"):
            response = client.get(path, HTTP_ACCEPT="application/json")
        else:
            response = client.get(path)
    except AssertionError as refusal:
        return 403, str(refusal)
    return read(response)


def read(response):
    """A response's status and the text to read in it (a PDF's or a workbook's text)."""
    content_type = response.get("Content-Type", "")
    if "pdf" in content_type:
        return response.status_code, pdf_text(response.content)
    if "spreadsheetml" in content_type:
        return response.status_code, xlsx_text(response.content)
    return response.status_code, response.content.decode(errors="replace")


def pdf_text(content: bytes) -> str:
    return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(content)).pages)


def xlsx_text(content: bytes) -> str:
    book = load_workbook(io.BytesIO(content))
    return "\n".join(
        " ".join("" if cell is None else str(cell) for cell in row)
        for sheet in book.worksheets
        for row in sheet.iter_rows(values_only=True)
    )


def csv_text(content: bytes) -> str:
    return "\n".join(" ".join(row) for row in csv.reader(io.StringIO(content.decode("utf-8"))))


def report(findings: dict[str, list], code: str, kind: str) -> str:
    lines = [f"Foreign law at the {code} site ({kind}): {len(findings)} places"]
    for where, hits in sorted(findings.items()):
        lines.append(f"  {where}: " + "; ".join(str(h) for h in hits))
    return "\n".join(lines)


def print_skipped(code: str, found: walk.Addresses) -> None:
    print(f"\n{code}: {len(found.paths)} addresses walked; routes not walked:")
    by_reason = defaultdict(list)
    for route, why in found.skipped.items():
        by_reason[why].append(route)
    for why, routes in sorted(by_reason.items()):
        print(f"  {why}: {len(routes)}")
        for route in sorted(routes):
            print(f"    {route}")


# --- the tests ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", USERS)
def test_every_page_and_api_address_at_a_site_speaks_only_its_packs_law(built, kind):
    b, code = built, built.pack
    # Every kind walked is a user the site has (a dealer, not where the player deals: conftest.py).
    assert kind in b.users, (code, kind)
    found_now = code not in _ADDRESSES
    found = addresses(code, b)
    # The pages the gaming manager opened to find the addresses, in this test's transaction, are
    # read from those answers, not asked again (the same GET as the same user, moments before).
    opened = _OPENED.pop(code, {}) if found_now and kind == "gaming_manager" else {}
    client = signed_in(b, kind)
    marks = foreign(code)
    findings, statuses = {}, defaultdict(int)
    for path in found.paths:
        status, text = read(opened[path]) if path in opened else get(client, path)
        statuses[status] += 1
        hits = words.find(text, marks)
        if hits:
            findings[f"GET {path} ({status})"] = hits
    print(f"{code} {kind}: {dict(statuses)}")
    assert statuses[200] >= 10, f"{kind} at {code} opened only {statuses[200]} addresses: the walk found nothing"
    assert not findings, report(findings, code, kind)


def test_the_walk_reaches_the_sites_pages_and_says_what_it_skips(built):
    found = addresses(built.pack, built)
    print_skipped(built.pack, found)
    pages = [p for p in found.paths if not p.startswith("/api/")]
    # a walk that finds almost nothing proves nothing (what it could not fill is printed above:
    # the routes of records the pack does not keep, e.g. slips and counts at a fee-collecting site)
    assert len(pages) >= 60 and len(found.paths) - len(pages) >= 60, (built.pack, len(pages), len(found.paths))


CLOCK = re.compile(r"\b\d{1,2}:\d{2}\b(?!:)(\s+[ap]\.m\.)?")


def other_clocks(text: str) -> list[str]:
    """The times of a PDF not written as its slips and its "Generated" line write them (12-hour,
    a.m. or p.m.: `core.pdf.format_clock`): one document, one clock."""
    return [text[max(0, m.start() - 40) : m.end() + 10] for m in CLOCK.finditer(text) if not m.group(1)]


def _period(kind, b) -> dict:
    if kind.period == "quarter":
        return {"quarter": str(b.quarter)}
    if kind.period == "as_of":
        return {"end": b.days[-1]}
    return {"start": b.days[0], "end": b.days[1]}


@pytest.mark.parametrize("kind", REPORTERS)
def test_every_report_kind_a_user_generates_at_a_site_speaks_only_its_packs_law(built, kind):
    """Each kind offered at the site (the registry's), generated as the user and read back: the
    PDF's text (pypdf), the CSV, the XLSX's cells (openpyxl)."""
    from reports import services
    from reports.catalogue import load_kinds

    b, code = built, built.pack
    user = b.users[kind].user
    client = signed_in(b, kind)
    marks = foreign(code)
    findings, generated, not_offered = {}, [], []
    for report_kind in load_kinds().values():
        if not report_kind.applies_to(b.site):
            not_offered.append(report_kind.code)
            continue
        try:
            run = services.request_report(
                acting_user=user, kind=report_kind.code, site=b.site, at_once=True, **_period(report_kind, b)
            )
        except (ValidationError, PermissionDenied) as refusal:
            text = " ".join(getattr(refusal, "messages", [str(refusal)]))
            hits = words.find(text, marks)
            if hits:
                findings[f"report {report_kind.code}: the refusal"] = hits
            not_offered.append(f"{report_kind.code} (refused: {text[:120]})")
            continue
        generated.append(report_kind.code)
        for fmt, read in (("pdf", pdf_text), ("csv", csv_text), ("xlsx", xlsx_text)):
            response = client.get(f"/api/v1/reports/{run.pk}/download/", {"format": fmt})
            assert response.status_code == 200, (report_kind.code, fmt, response.content[:300])
            text = read(response.content)
            hits = words.find(text, marks)
            if hits:
                findings[f"report {report_kind.code} ({fmt.upper()})"] = hits
            if fmt == "pdf" and (other_clock := other_clocks(text)):
                findings[f"report {report_kind.code} (PDF): a 24-hour time beside its 12-hour ones"] = other_clock
    print(f"{code} {kind}: generated {generated}; not offered or refused: {not_offered}")
    assert len(generated) >= 5, f"only {generated} generated at {code}"
    assert not findings, report(findings, code, f"reports generated as {kind}")


def test_every_alert_at_a_site_speaks_only_its_packs_law(built):
    """Each alert's own text (title, citation, action, figures), its page and its API answer."""
    from compliance.models import Alert

    b, code = built, built.pack
    client = signed_in(b, "gaming_manager")
    marks = foreign(code)
    findings = {}
    alerts = list(Alert.objects.filter(site=b.site).order_by("pk"))
    for alert in alerts:
        name = f"alert {alert.rule} #{alert.pk} ({alert.period_start}..{alert.period_end})"
        own = " | ".join(str(getattr(alert, f.name)) for f in Alert._meta.concrete_fields)
        for where, text in (
            ("record", own),
            ("page", get(client, f"/compliance/alerts/{alert.pk}/")[1]),
            ("API", get(client, f"/api/v1/alerts/{alert.pk}/")[1]),
        ):
            hits = words.find(text, marks)
            if hits:
                findings[f"{name} {where}"] = hits
    print(f"{code}: {len(alerts)} alerts: {sorted({a.rule for a in alerts})}")
    assert not findings, report(findings, code, "alerts")


def bad_inputs(b) -> dict[str, tuple[str, str, dict]]:
    """A few typical mistakes at the site: (user kind, API address, body)."""
    table = b.site.tables.order_by("number").first()
    day = str(b.days[-1] + timedelta(days=1))
    u = b.users
    preparer = "dealer" if "dealer" in u else "count_team"  # no dealer where the player deals
    mistakes = {
        f"a fill slip prepared by the {preparer.replace('_', ' ')}": (
            preparer,
            "/api/v1/fill-slips/",
            {"table": table.pk, "chips": [{"denomination": 2500, "quantity": 4}]},
        ),
        "a count opened by a one-person team": (
            "count_team",
            "/api/v1/count-sessions/",
            {"site": b.site.pk, "gaming_date": day, "members": [u["count_team"].pk, u["count_team"].pk]},
        ),
        "a table outside the pack's limits": (
            "gaming_manager",
            "/api/v1/tables/",
            {
                # eight decks dealt by hand, nine players, a $10,000 maximum: each pack refuses some of it
                "site": b.site.pk,
                "number": 9,
                "game": "21",
                "min_wager_cents": 100,
                "max_wager_cents": 1_000_000,
                "decks": 8,
                "dealt_from": "hand",
                "max_players": 9,
                "betting_spaces": 9,
            },
        ),
    }
    if "fee" in b.objects:  # a fee-collecting site: its own records
        mistakes["a table fee collected by the count team"] = (
            "count_team",  # a fees room's player deals: no dealer there (floor.rules.PLAYER_DEALER)
            "/api/v1/fee-collections/",
            {
                "table": table.pk,
                "basis": "per_player",
                "period_minutes": 30,
                "rate_cents": 200,
                "count": 4,
                "amount_cents": 800,
            },
        )
        mistakes["the fee cash counted by one person"] = (
            "cashier",
            "/api/v1/fee-counts/",
            {
                "site": b.site.pk,
                "gaming_date": day,
                "counted_cents": 1000,
                "witness": u["cashier"].pk,
                "witness_pin": "000000",
            },
        )
    return mistakes


def test_the_refusals_of_typical_mistakes_at_a_site_speak_only_its_packs_law(built):
    from rest_framework.test import APIClient

    b, code = built, built.pack
    marks = foreign(code)
    findings, answers = {}, {}
    for mistake, (kind, path, body) in bad_inputs(b).items():
        client = APIClient()
        client.force_authenticate(b.users[kind].user)
        try:
            response = client.post(path, body, format="json")
            status, text = response.status_code, response.content.decode(errors="replace")
        except AssertionError as no_rule:  # a 403 naming no rule (tests/conftest.py)
            status, text = 403, str(no_rule)
        answers[mistake] = (status, text[:300])
        if status not in (400, 403):  # a mistake the site's pack should refuse was taken
            findings[f"{mistake} was not refused (POST {path}, {status})"] = [text[:300]]
        hits = words.find(text, marks)
        if hits:
            findings[f"refusal of {mistake} (POST {path}, {status})"] = hits
    for mistake, answer in answers.items():
        print(f"{code}: {mistake}: {answer}")
    assert not findings, report(findings, code, "refusals")


def _nav(html: str) -> str:
    start = html.find('<nav class="navbar')
    return html[start : html.find("</nav>", start)] if start >= 0 else ""


def _kind_options(html: str) -> str:
    start = html.find('id="kind"')
    return html[start : html.find("</select>", start)] if start >= 0 else ""


@pytest.mark.parametrize("kind", REPORTERS)
def test_an_organizations_menus_and_report_lists_show_only_its_packs(built, kind):
    """The menu of every page and the report lists (the page's and the API's) of an organization
    name no pack it has no site of, nor that pack's law."""
    from cardroom.models import Site

    b, code = built, built.pack
    own = set(Site.objects.filter(organization=b.organization).values_list("jurisdiction", flat=True))
    others = {c: m for c, m in words.PACK_LABELS.items() if c not in own}
    marks = foreign(code) + [(label, re.compile(p)) for ms in others.values() for label, p in ms]
    client = signed_in(b, kind)
    findings = {}
    home = client.get("/", follow=True).content.decode()
    reports_page = client.get("/reports/").content.decode()
    kinds = client.get("/api/v1/reports/kinds/", HTTP_ACCEPT="application/json").json()
    for where, text in (
        ("the menu", _nav(home)),
        ("the report list of /reports/", _kind_options(reports_page)),
        ("/api/v1/reports/kinds/", str(kinds)),
    ):
        assert text, f"{where} is empty for {kind} of {b.organization}"
        hits = words.find(text, marks)
        if hits:
            findings[where] = hits
    offered_elsewhere = [k["kind"] for k in kinds if k["jurisdictions"] and not own & set(k["jurisdictions"])]
    if offered_elsewhere:
        findings["/api/v1/reports/kinds/ offers kinds of other packs"] = offered_elsewhere
    assert not findings, report(findings, f"{code} organization's", kind)


def test_the_users_walked_hold_their_roles_at_the_site(built):
    """The walk is as each kind of user: each holds that role at the site (or org-wide). Where the
    player deals and banks (WA-BJ) the house seats no dealer: no dealer walks, and no one, the
    demo's logins included, holds a dealer's role there."""
    roles = {
        "gaming_manager": Role.GAMING_MANAGER,
        "auditor": Role.AUDITOR,
        "shift_manager": Role.SHIFT_MANAGER,
        "pit_boss": Role.PIT_BOSS,
        "cashier": Role.CASHIER,
        "dealer": Role.DEALER,
        "count_team": Role.COUNT_TEAM,
    }
    players_deal = PLAYER_DEALER.applies(built.site)
    assert ("dealer" in built.users) == (not players_deal), built.pack
    if players_deal:
        assert not Membership.objects.filter(site=built.site, role=Role.DEALER).exists(), built.pack
    for kind in [kind for kind in USERS if kind in built.users]:
        memberships = built.users[kind].memberships.filter(role=roles[kind])
        assert memberships.filter(site=built.site).exists() or memberships.filter(site__isnull=True).exists(), (
            built.pack,
            kind,
        )
