"""Every 403 names the rule that refuses and who may act: the regulation's section where it says
who acts, "House control" where it does not.

`tests/conftest.py` checks every 403 any test of the suite receives; here the role-refusal paths
of the API are walked on purpose, role by role, and the sections cited are the ones whose text
says who acts (shared/regulations, chapter 99-01.3-08)."""

import ast
import re
from pathlib import Path

import pytest

from cardroom.access import refusal, roles_text
from cardroom.models import Role
from floor import services as floor
from tests.conftest import ALL_ROLES, REFUSAL
from tests.factories import make_chips, make_person
from tests.floor.conftest import FILL, TRAY, today

ROOT = Path(__file__).resolve().parents[2]
APPS = ["cardroom", "floor", "accounting", "cage", "counts", "surveillance", "compliance", "reports", "dashboard"]
ROLE_NAMES = [role.label.lower() for role in Role]


def test_roles_are_named_in_the_order_of_the_roles_with_their_article():
    assert (
        roles_text({Role.CASHIER, Role.SHIFT_MANAGER, Role.PIT_BOSS})
        == "a shift manager, pit boss or chip bank cashier"
    )
    assert roles_text([Role.AUDITOR]) == "an auditor"
    assert refusal("ND 99-01.3-08-05(3)", [Role.DEALER, Role.PIT_BOSS], "prepare a credit slip") == (
        "ND 99-01.3-08-05(3): only a pit boss or dealer may prepare a credit slip."
    )


def _calls(name: str):
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == name:
                    yield path.relative_to(ROOT), node


def test_every_role_check_in_the_code_names_its_rule():
    calls = list(_calls("require_role"))
    assert len(calls) > 30
    for path, node in calls:
        assert any(k.arg == "rule" for k in node.keywords), f"{path}:{node.lineno} require_role without rule="


RULE_SOURCES = re.compile(r"HOUSE_CONTROL|refusal|CITATION|rules\.\w+|\b[A-Z_]+\.at\(|NOT_AN_EMPLOYEE|REQUEST_REFUSAL")


def test_every_permission_refusal_in_the_code_is_built_from_a_rule():
    raised = [(path, node) for path, node in _calls("PermissionDenied") if node.args]
    assert len(raised) > 10
    for path, node in raised:
        source = ast.unparse(node.args[0])
        assert RULE_SOURCES.search(source), f"{path}:{node.lineno} PermissionDenied({source}) cites no rule"


# Every app and the platform: where a refusal's text is written in the code.
EVERY_APP = [*APPS, "approvals", "fees", "tournaments", "registry", "statefiling", "core", "packs"]
# A citation, or a name that carries one (HOUSE_CONTROL, a Rule's `.at(site)`, a rules module's
# constant, a closed-books or bounds helper that heads its text with House control).
CITES = re.compile(
    r"\bND\b|WAC|NYCRR|WSGC|House control|house control|HOUSE|CONTROL|_control|\.at\(|_rule\b|\brules?\b|rules\.|cite"
    r"|citation|CITATION|refusal|_BAR|LOGIN_NAME_UNIQUE|_bounds|bounds\("
)
# Texts whose citation a helper's value carries inside them: the pack's own (`pack.cite`) in the
# revenue each site rests on; the internal controls' option (`option.cited`) in the controls' message.
CITED_INSIDE = {("accounting/games.py", "said"), ("approvals/services.py", "message")}


def _texts(node):
    """The string literals and f-strings a refusal's message is built of (directly, or as the
    values of a dict or list of messages, or joined by +)."""
    if isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        yield node
    elif isinstance(node, ast.Dict):
        for value in node.values:
            yield from _texts(value)
    elif isinstance(node, (ast.List, ast.Tuple)):
        for item in node.elts:
            yield from _texts(item)
    elif isinstance(node, ast.BinOp):
        yield from _texts(node.left)
        yield from _texts(node.right)


def test_every_validation_error_written_as_text_in_the_code_names_its_rule():
    """A `ValidationError(...)` or a form's `add_error(...)` whose message is text written here (not
    a constant or helper defined with its rule) names its rule in that text: the pack's citation at
    the site, or House control (the commands' own CommandErrors are not refusals a user reads)."""
    written, uncited = 0, []
    for app in EVERY_APP:
        for path in (ROOT / app).rglob("*.py"):
            if {"migrations", "management"} & set(path.parts):
                continue
            where = str(path.relative_to(ROOT))
            for node in ast.walk(ast.parse(path.read_text())):
                name = getattr(node, "func", None) and getattr(node.func, "id", getattr(node.func, "attr", None))
                if name not in {"ValidationError", "add_error"}:
                    continue
                for text in (t for arg in node.args[name == "add_error" :][:1] for t in _texts(arg)):
                    written += 1
                    source = ast.unparse(text)
                    if not CITES.search(source) and not any(
                        where == path_ and "{" + held in source for path_, held in CITED_INSIDE
                    ):
                        uncited.append(f"{where}:{node.lineno} {source[:100]}")
    assert written > 300
    assert uncited == []


# --- The walk ------------------------------------------------------------------------------------


@pytest.fixture
def floor_in_play(org, site, cast):
    """An open gaming day: table 1 opened with a dealer seated, a fill waiting for verification
    and a verified fill waiting for the dealer; table 2 not opened."""
    make_chips(org)
    from tests.factories import TableFactory

    boss, cashier = cast[Role.SHIFT_MANAGER], cast[Role.CASHIER]
    table, spare = TableFactory(site=site, number=1), TableFactory(site=site, number=2)
    floor.open_gaming_day(acting_user=boss.user, site=site, gaming_date=today(site))
    floor.record_table_inventory(acting_user=boss.user, table=table, kind="opener", chips=TRAY)
    floor.start_dealer_shift(acting_user=boss.user, table=table, dealer=cast[Role.DEALER])
    waiting = floor.prepare_fill(acting_user=cashier.user, table=table, chips=FILL)
    verified = floor.prepare_fill(acting_user=cashier.user, table=table, chips=FILL)
    floor.verify_slip(acting_user=boss.user, slip=verified)
    return {
        "site": site,
        "table": table,
        "spare": spare,
        "waiting": waiting,
        "verified": verified,
        "counter": make_person(org, Role.COUNT_TEAM, site, employment_type="independent"),
    }


def walk(f, cast):
    """(name, the section the refusal must cite, request) for each refusal path walked."""
    site, day = f["site"], str(today(f["site"]))
    return [
        (
            "prepare a fill slip",
            "ND 99-01.3-08-05(3)",
            lambda c: c.post("/api/v1/fill-slips/", {"table": f["table"].pk, "chips": FILL}, format="json"),
        ),
        (
            "prepare a credit slip",
            "ND 99-01.3-08-05(3)",
            lambda c: c.post("/api/v1/credit-slips/", {"table": f["table"].pk, "chips": FILL}, format="json"),
        ),
        (
            "verify a slip",
            "ND 99-01.3-08-05(5)",
            lambda c: c.post(f"/api/v1/fill-slips/{f['waiting'].pk}/verify/", format="json"),
        ),
        (
            "receive a fill slip",
            "ND 99-01.3-08-05(6)",
            lambda c: c.post(f"/api/v1/fill-slips/{f['verified'].pk}/receive/", format="json"),
        ),
        (
            "record a table opener or closer",
            "House control",
            lambda c: c.post(
                "/api/v1/table-inventories/", {"table": f["spare"].pk, "kind": "opener", "chips": TRAY}, format="json"
            ),
        ),
        (
            "open a count session",
            "ND 99-01.3-08-14(2)",
            lambda c: c.post(
                "/api/v1/count-sessions/",
                {"site": site.pk, "gaming_date": day, "members": [f["counter"].pk, cast[Role.COUNT_TEAM].pk]},
                format="json",
            ),
        ),
        (
            "declare tips",
            "ND 99-01.3-08-06(2)",
            lambda c: c.post(
                "/api/v1/cage/tip-declarations/",
                {"site": site.pk, "gaming_date": day, "chips": [{"value_cents": 100, "quantity": 3}]},
                format="json",
            ),
        ),
        (
            "count the bank",
            "House control",
            lambda c: c.post(
                "/api/v1/cage/bank-counts/",
                {"site": site.pk, "gaming_date": day, "kind": "starting", "cash": {"10000": 1}, "chips": {}},
                format="json",
            ),
        ),
        (
            "see a site's daily figures",
            "House control",
            lambda c: c.get(f"/api/v1/sites/{site.pk}/daily-summary/", {"date": day}),
        ),
        (
            "see a site's quarterly figures",
            "House control",
            lambda c: c.get(f"/api/v1/sites/{site.pk}/quarter-summary/", {"quarter": "2026Q4"}),
        ),
        (
            "request reports",
            "House control",
            lambda c: c.post("/api/v1/reports/", {"kind": "house_rules", "site": site.pk, "end": day}, format="json"),
        ),
        (
            "add a site",
            "House control",
            lambda c: c.post("/api/v1/sites/", {"name": "New Hall", "jurisdiction": "ND"}, format="json"),
        ),
        (
            "run the compliance checks",
            "House control",
            lambda c: c.post("/api/v1/compliance-runs/", {"site": site.pk, "quarter": "2026Q4"}, format="json"),
        ),
    ]


def test_every_role_refusal_of_the_api_names_its_section_or_house_control_and_who_may_act(
    client_for, cast, floor_in_play
):
    refused = {}
    for role in ALL_ROLES:
        for name, section, call in walk(floor_in_play, cast):
            response = call(client_for(cast[role]))
            if response.status_code != 403:
                continue
            detail = response.json()["detail"]
            assert detail.startswith(f"{section}: only "), (role, name, detail)
            assert REFUSAL.match(detail) and any(r in detail for r in ROLE_NAMES), (role, name, detail)
            assert name.split(" a ")[0].split()[0] in detail, (role, name, detail)
            refused.setdefault(name, set()).add(role)
    # The walk reached a refusal on every path (else it proves nothing about that path).
    assert set(refused) == {name for name, _, _ in walk(floor_in_play, cast)}
    assert refused["prepare a fill slip"] == {
        Role.GAMING_MANAGER,
        Role.DEALER,
        Role.WHEEL_OPERATOR,
        Role.COUNT_TEAM,
        Role.AUDITOR,
    }


def test_the_issues_example_reads_as_the_regulation_says(client_for, cast, floor_in_play):
    response = client_for(cast[Role.DEALER]).post(
        "/api/v1/fill-slips/", {"table": floor_in_play["table"].pk, "chips": FILL}, format="json"
    )
    assert response.status_code == 403
    # ND 99-01.3-08-05(3): "A fill slip must be prepared by a chip bank cashier, pit boss, or shift manager."
    assert response.json()["detail"] == (
        "ND 99-01.3-08-05(3): only a shift manager, pit boss or chip bank cashier may prepare a fill slip."
    )


def test_a_login_without_an_employee_is_refused_by_a_house_control(client_for, db, django_user_model, site):
    from cardroom.models import Employee

    user = django_user_model.objects.create_user("loner", password="x-y-z-long-password")
    response = client_for(Employee(user=user)).post(
        "/api/v1/sites/", {"name": "Nowhere", "jurisdiction": "ND"}, format="json"
    )
    assert response.status_code == 403
    assert response.json()["detail"].startswith("House control: only an employee of the organization may act")


# --- A required field left out (400) ---------------------------------------------------------------
# Not a refusal by role, but bad input: the 400 names the field and the rule that requires it, the
# record's own regulation cited at its site (core.api.StrictInputMixin.required_rules), else House
# control; never DRF's bare "This field is required.".

REQUIRED = [
    # (who posts, url, body, the field left out, the rule cited at the cast's North Dakota site)
    (Role.CASHIER, "/api/v1/fill-slips/", {"chips": FILL}, "table", "ND 99-01.3-08-05(3)"),
    (Role.DEALER, "/api/v1/credit-slips/", {"chips": FILL}, "table", "ND 99-01.3-08-05(3)"),
    (Role.COUNT_TEAM, "/api/v1/count-sessions/", {"gaming_date": "2026-11-13"}, "members", "ND 99-01.3-08-14(2)"),
    (Role.COUNT_TEAM, "/api/v1/count-sessions/", {}, "gaming_date", "ND 99-01.3-08-14(4)"),
    (Role.CASHIER, "/api/v1/cage/bank-counts/", {"cash": [], "chips": []}, "kind", "ND 99-01.3-08-16(1)(a)"),
    (Role.SHIFT_MANAGER, "/api/v1/table-inventories/", {"kind": "opener"}, "table", "House control"),
    (Role.SHIFT_MANAGER, "/api/v1/dealer-shifts/", {}, "dealer", "House control"),
    (Role.GAMING_MANAGER, "/api/v1/sites/", {"jurisdiction": "ND"}, "name", "House control"),
    (Role.GAMING_MANAGER, "/api/v1/tables/", {"number": 7}, "site", "House control"),
    # a fee (WAC 230-40-125(1) at a Washington blackjack site) is no North Dakota rule: House control
    (Role.SHIFT_MANAGER, "/api/v1/fee-collections/", {"basis": "per_seat"}, "rate_cents", "House control"),
]


@pytest.mark.parametrize(("role", "url", "body", "field", "rule"), REQUIRED, ids=[f"{r[1]}{r[3]}" for r in REQUIRED])
def test_a_required_field_left_out_is_a_400_naming_the_field_and_its_rule(
    client_for, cast, role, url, body, field, rule
):
    response = client_for(cast[role]).post(url, body, format="json")
    assert response.status_code == 400, response.content
    message = response.json()[field][0]
    assert message.startswith(f"{rule}: {field} is required; "), message
    assert REFUSAL.match(message)


def test_a_required_field_is_cited_in_the_words_of_the_records_own_site(client_for, org, site):
    """The same left-out field at a Washington blackjack site cites Washington's fee rule, and a slip's
    table left out by someone of a New York site cites nothing of North Dakota's."""
    from tests.factories import SiteFactory, fees_site, player_banked_table

    tacoma = fees_site(org)
    table = player_banked_table(tacoma)
    shift = make_person(org, Role.SHIFT_MANAGER, tacoma)
    response = client_for(shift).post("/api/v1/fee-collections/", {"table": table.pk}, format="json")
    assert response.status_code == 400
    message = response.json()["rate_cents"][0]
    assert message.startswith("WAC 230-40-125(1)") and message.endswith(
        ": rate_cents is required; a fee is charged at a rate; give it in cents."
    ), message

    kingston = SiteFactory(organization=org, name="Kingston Hall", jurisdiction="NY", time_zone="America/New_York")
    cashier = make_person(org, Role.CASHIER, kingston)
    response = client_for(cashier).post("/api/v1/fill-slips/", {"chips": FILL}, format="json")
    assert response.status_code == 400
    message = response.json()["table"][0]
    assert message.endswith("table is required; a slip names its table.") and "ND" not in message, message


# --- DRF's stock messages (400) ----------------------------------------------------------------------
# A date in the wrong format, an id of nothing, a word for a number, a null: the 400 names the field and
# House control before DRF's own words of what is wrong (core.api.StrictInputMixin), never DRF's bare
# "Date has wrong format." or "Invalid pk "99" - object does not exist.".

NOWHERE = 999_999
SLIP = "/api/v1/fill-slips/"
BANK_COUNT = "/api/v1/cage/bank-counts/"
DEPOSIT = "/api/v1/cage/deposits/"
COUNT_SESSION = "/api/v1/count-sessions/"

STOCK = [
    # (who posts, url, the body's fields besides, the field, its bad value)
    (Role.CASHIER, SLIP, {"chips": FILL}, "table", NOWHERE),
    (Role.CASHIER, SLIP, {"chips": FILL}, "table", None),
    (Role.CASHIER, SLIP, {"chips": FILL}, "number", "twelve"),
    (Role.CASHIER, SLIP, {"chips": FILL}, "purpose", None),
    (Role.CASHIER, BANK_COUNT, {"kind": "start", "cash": {}, "chips": {}}, "gaming_date", "13/11/2026"),
    (Role.CASHIER, BANK_COUNT, {"kind": "start", "cash": {}, "chips": {}}, "corrects", NOWHERE),
    (Role.CASHIER, BANK_COUNT, {"kind": "start", "cash": {}, "chips": {}}, "site", None),
    (Role.CASHIER, BANK_COUNT, {"gaming_date": "2026-11-13", "cash": {}, "chips": {}}, "kind", None),
    (Role.CASHIER, DEPOSIT, {"amount_cents": 100}, "deposited_on", "next Tuesday"),
    (Role.CASHIER, DEPOSIT, {"deposited_on": "2026-11-14"}, "amount_cents", "a hundred"),
    (Role.CASHIER, DEPOSIT, {"deposited_on": "2026-11-14"}, "amount_cents", None),
    (Role.CASHIER, DEPOSIT, {"amount_cents": 100, "deposited_on": "2026-11-14"}, "gaming_day", NOWHERE),
    (Role.COUNT_TEAM, COUNT_SESSION, {"members": []}, "gaming_date", "13 November 2026"),
    (Role.COUNT_TEAM, COUNT_SESSION, {"gaming_date": "2026-11-13"}, "members", [NOWHERE]),
    (Role.COUNT_TEAM, COUNT_SESSION, {"gaming_date": "2026-11-13"}, "members", None),
    (Role.COUNT_TEAM, COUNT_SESSION, {"gaming_date": "2026-11-13", "members": []}, "site", "Bismarck"),
]


@pytest.mark.parametrize(
    ("role", "url", "body", "field", "value"), STOCK, ids=[f"{s[1]}{s[3]}={s[4]!r}" for s in STOCK]
)
def test_a_value_drf_refuses_is_a_400_naming_the_field_and_its_rule(client_for, cast, role, url, body, field, value):
    response = client_for(cast[role]).post(url, {**body, field: value}, format="json")
    assert response.status_code == 400, response.content
    message = str(response.json()[field][0])
    assert REFUSAL.match(message) and f" {field}" in message.split(";")[0], message


def test_drfs_words_follow_the_field_named_and_a_fields_own_message_is_kept(client_for, cast):
    api = client_for(cast[Role.CASHIER])
    response = api.post(BANK_COUNT, {"gaming_date": "13/11/2026", "kind": "start"}, format="json")
    assert response.json()["gaming_date"] == ["House control: gaming_date has the wrong format; use YYYY-MM-DD."]
    response = api.post(SLIP, {"table": None, "chips": FILL}, format="json")
    assert response.json()["table"] == ["House control: table may not be null."]
    response = api.post(DEPOSIT, {"amount_cents": 10**15, "deposited_on": "2026-11-14"}, format="json")
    assert response.status_code == 400
    # CentsField's own message (core.limits, which cites the house's control its own way) is kept
    assert response.json()["amount_cents"] == [
        "The amount must be at most 1,000,000,000 cents ($10,000,000.00; house control)."
    ]


def test_a_bank_count_line_with_the_wrong_keys_is_refused_in_words_with_its_rule(client_for, cast, site):
    response = client_for(cast[Role.CASHIER]).post(
        BANK_COUNT,
        {
            "site": site.pk,
            "gaming_date": str(today(site)),
            "kind": "start",
            "cash": [{"value": 10000, "quantity": 1}],
            "chips": [],
        },
        format="json",
    )
    assert response.status_code == 400, response.content
    (message,) = response.json()["cash"]
    assert REFUSAL.match(message) and "{" not in message and "value_cents" in message, message
