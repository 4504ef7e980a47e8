"""ND 99-01.3-08-09(2)(a): "An organization may permit tip betting. [...] A tip bet [...] may range
from fifty cents up to a table's maximum wager, but may be limited to less than the table's maximum
wager at an organization's option."

A North Dakota table's `tip_bet_max_cents` is that limit (blank: up to the table's maximum wager),
set through the API, the setup form (in dollars) and the admin; refused below fifty cents, above the
table's maximum wager, and where tip betting is not permitted, each a refusal naming the field and
citing the rule, nothing written. At a Washington or New York site it is another pack's option:
not shown, and refused. The handout says a tip bet's range."""

import csv
import io

import pytest

from cardroom.models import Table
from core.models import AuditEvent
from tests.reports.test_reports import auditor_api, pdf_text, request  # noqa: F401  (fixture)

from .test_table_options import PACKS, as_posted, body

FIELD = "tip_bet_max_cents"
RULE = "ND 99-01.3-08-09(2)(a): "
# (what is sent with the limit, the limit in cents, words of the refusal)
REFUSALS = {
    "below fifty cents": ({}, 25, "the tip bet limit is at least $0.50 (got $0.25)."),
    "above the maximum wager": ({}, 2600, "the tip bet limit is at most $25.00 (got $26.00)."),
    "tip betting not permitted": ({"tip_betting_allowed": False}, 500, "this table does not"),
}


def refusal(answer, field=FIELD) -> str:
    assert answer.status_code == 400, answer.content
    assert list(answer.json()) == [field], answer.json()
    return answer.json()[field][0]


def test_the_api_sets_the_limit_reads_it_back_and_clears_it(client_for, manager, site):
    api = client_for(manager)
    created = api.post("/api/v1/tables/", body(site, "ND", **{FIELD: 1000}), format="json")
    assert created.status_code == 201, created.json()
    table_id = created.json()["id"]
    assert created.json()[FIELD] == 1000 and Table.objects.get(pk=table_id).tip_bet_max_cents == 1000
    assert api.get(f"/api/v1/tables/{table_id}/").json()[FIELD] == 1000
    at_the_maximum = api.patch(f"/api/v1/tables/{table_id}/", {FIELD: 2500}, format="json")
    assert at_the_maximum.status_code == 200 and at_the_maximum.json()[FIELD] == 2500
    cleared = api.patch(f"/api/v1/tables/{table_id}/", {FIELD: None}, format="json")
    assert cleared.status_code == 200 and cleared.json()[FIELD] is None
    assert Table.objects.get(pk=table_id).tip_bet_max_cents is None
    fifty = api.post("/api/v1/tables/", body(site, "ND", number=2, **{FIELD: 50}), format="json")
    assert fifty.status_code == 201 and fifty.json()[FIELD] == 50  # the floor itself


@pytest.mark.parametrize("case", list(REFUSALS))
def test_the_api_refuses_a_limit_out_of_the_range_naming_the_field_and_the_rule(client_for, manager, site, case):
    more, limit, words = REFUSALS[case]
    api = client_for(manager)
    message = refusal(api.post("/api/v1/tables/", body(site, "ND", **more, **{FIELD: limit}), format="json"))
    assert message.startswith(RULE) and words in message, message
    assert not Table.objects.filter(site=site).exists()
    table_id = api.post("/api/v1/tables/", body(site, "ND", **more), format="json").json()["id"]
    events = AuditEvent.objects.count()
    message = refusal(api.patch(f"/api/v1/tables/{table_id}/", {FIELD: limit, "min_wager_cents": 200}, format="json"))
    assert message.startswith(RULE) and words in message, message
    table = Table.objects.get(pk=table_id)
    assert (table.tip_bet_max_cents, table.min_wager_cents) == (None, 100) and AuditEvent.objects.count() == events


def test_a_table_with_a_limit_keeps_it_within_its_maximum_and_its_tip_betting(client_for, manager, site):
    """Lowering the maximum wager below the limit, or no longer permitting tip betting, is refused
    naming the limit: the limit is cleared or changed first."""
    api = client_for(manager)
    table_id = api.post("/api/v1/tables/", body(site, "ND", **{FIELD: 1000}), format="json").json()["id"]
    lowered = refusal(api.patch(f"/api/v1/tables/{table_id}/", {"max_wager_cents": 500}, format="json"))
    assert lowered.startswith(RULE) and "at most $5.00 (got $10.00)" in lowered
    stopped = refusal(api.patch(f"/api/v1/tables/{table_id}/", {"tip_betting_allowed": False}, format="json"))
    assert stopped.startswith(RULE) and "this table does not" in stopped
    table = Table.objects.get(pk=table_id)
    assert (table.max_wager_cents, table.tip_betting_allowed, table.tip_bet_max_cents) == (2500, True, 1000)
    both = api.patch(f"/api/v1/tables/{table_id}/", {"tip_betting_allowed": False, FIELD: None}, format="json")
    assert both.status_code == 200 and both.json()["tip_betting_allowed"] is False


def new_table_form(client, site) -> dict:
    answer = client.get("/setup/tables/new/")
    form = as_posted(
        {**{name: bound.value() for name, bound in answer.context["form"]._bound_items()}, **body(site, "ND")}
    )
    form["min_wager_cents"], form["max_wager_cents"] = "1", "25"  # the form takes dollars
    return form


def test_the_setup_form_takes_the_limit_in_dollars(client, manager, site):
    client.force_login(manager.user)
    assert 'name="tip_bet_max_cents"' in client.get("/setup/tables/new/").content.decode()
    saved = client.post("/setup/tables/new/", {**new_table_form(client, site), FIELD: "7.50"})
    assert saved.status_code == 302, saved.context["form"].errors
    table = Table.objects.get(site=site, number=1)
    assert table.tip_bet_max_cents == 750
    edit = client.get(f"/setup/tables/{table.pk}/")
    assert edit.context["form"][FIELD].value() == "7.50" and 'value="7.50"' in edit.content.decode()
    form = as_posted({name: bound.value() for name, bound in edit.context["form"]._bound_items()})
    form["min_wager_cents"], form["max_wager_cents"], form[FIELD] = "1", "25", ""
    assert client.post(f"/setup/tables/{table.pk}/", form).status_code == 302
    assert Table.objects.get(pk=table.pk).tip_bet_max_cents is None  # blank: up to the maximum wager


@pytest.mark.parametrize(
    ("case", "posted"),
    [("below fifty cents", "0.25"), ("above the maximum wager", "26"), ("tip betting not permitted", "5")],
)
def test_the_setup_form_refuses_it_inline_citing_the_rule(client, manager, site, case, posted):
    client.force_login(manager.user)
    form = {**new_table_form(client, site), FIELD: posted}
    if case == "tip betting not permitted":
        form.pop("tip_betting_allowed")  # an unticked box is not posted
    refused = client.post("/setup/tables/new/", form)
    assert refused.status_code == 400
    errors = refused.context["form"].errors[FIELD]
    assert len(errors) == 1 and errors[0].startswith(RULE) and REFUSALS[case][2] in errors[0], errors
    assert "ND 99-01.3-08-09(2)(a): " in refused.content.decode()
    assert not Table.objects.filter(site=site).exists()


def test_the_admin_shows_the_limit_and_refuses_one_out_of_the_range(client, client_for, manager, site):
    table_id = client_for(manager).post("/api/v1/tables/", body(site, "ND"), format="json").json()["id"]
    client.force_login(manager.user)
    address = f"/admin/cardroom/table/{table_id}/change/"
    answer = client.get(address)
    form = as_posted({name: bound.value() for name, bound in answer.context["adminform"].form._bound_items()})
    assert f'name="{FIELD}"' in answer.content.decode()
    for cents, words in ((25, "at least $0.50"), (2600, "at most $25.00")):
        refused = client.post(address, {**form, FIELD: str(cents)})
        assert refused.status_code == 400
        errors = refused.context["adminform"].form.errors[FIELD]
        assert errors[0].startswith(RULE) and words in errors[0], errors
        assert Table.objects.get(pk=table_id).tip_bet_max_cents is None
    saved = client.post(address, {**form, FIELD: "1000"}, follow=True)
    assert saved.redirect_chain, saved.context["adminform"].form.errors
    assert Table.objects.get(pk=table_id).tip_bet_max_cents == 1000


@pytest.mark.parametrize("code", ["WA-HB", "WA-BJ", "NY"])
def test_another_packs_site_has_no_tip_bet_limit(client, client_for, manager, pack_site, code):
    site = pack_site(code)
    api = client_for(manager)
    message = refusal(api.post("/api/v1/tables/", body(site, code, **{FIELD: 500}), format="json"))
    assert message == (
        f'House control: "{FIELD}" is not a table option at {site} ({site.get_jurisdiction_display()} rules); '
        "leave it out."
    )
    assert not Table.objects.filter(site=site).exists()
    created = api.post("/api/v1/tables/", body(site, code), format="json")
    assert created.status_code == 201 and FIELD not in created.json()
    table_id = created.json()["id"]
    assert FIELD not in api.get(f"/api/v1/tables/{table_id}/").json()
    assert all(FIELD not in listed for listed in api.get("/api/v1/tables/").json()["results"])
    patched = api.patch(f"/api/v1/tables/{table_id}/", {FIELD: 500}, format="json")
    assert refusal(patched).startswith("House control: ") and Table.objects.get(pk=table_id).tip_bet_max_cents is None
    client.force_login(manager.user)
    page = client.get("/setup/tables/new/")
    assert FIELD not in page.content.decode() and "Tip bet limit" not in page.content.decode()
    form = as_posted({name: bound.value() for name, bound in page.context["form"]._bound_items()})
    form.update(body(site, code, number=2))
    form["min_wager_cents"], form["max_wager_cents"] = "1", str(PACKS[code][0]["max_wager_cents"] // 100)
    if "min_bank_cents" in PACKS[code][0]:
        form["min_bank_cents"] = str(PACKS[code][0]["min_bank_cents"] // 100)
    refused = client.post("/setup/tables/new/", {**form, FIELD: "5"})
    assert refused.status_code == 400 and f"&quot;{FIELD}&quot; is not a table option" in refused.content.decode()
    assert not Table.objects.filter(site=site, number=2).exists()
    assert f'name="{FIELD}"' not in client.get(f"/admin/cardroom/table/{table_id}/change/").content.decode()


def handout(api, site) -> str:
    created = request(api, kind="house_rules", site=site.pk, end="2026-11-20")
    assert created.status_code == 201, created.json()
    return " ".join(pdf_text(api.get(f"/api/v1/reports/{created.json()['id']}/download/").content).split())


def handout_rows(api, site) -> list[dict]:
    created = request(api, kind="house_rules", site=site.pk, end="2026-11-20")
    assert created.status_code == 201, created.json()
    answer = api.get(f"/api/v1/reports/{created.json()['id']}/download/", {"format": "csv"})
    return list(csv.DictReader(io.StringIO(answer.content.decode())))


def test_the_handout_says_a_tip_bets_range(auditor_api, client_for, manager, site):  # noqa: F811
    api = client_for(manager)
    for number, more in ((1, {FIELD: 1000}), (2, {}), (3, {"tip_betting_allowed": False})):
        made = api.post("/api/v1/tables/", body(site, "ND", number=number, **more), format="json")
        assert made.status_code == 201, made.json()
    text = handout(auditor_api, site)
    cited = "(ND 99-01.3-08-13(2)(l), ND 99-01.3-08-09(2)(a))"
    limited = f"Tip betting permitted: a tip bet from $0.50 to $10.00. {cited}"  # the organization's limit
    up_to_the_maximum = f"Tip betting permitted: a tip bet from $0.50 to $25.00. {cited}"  # the table's maximum
    not_permitted = "Tip betting not permitted. (ND 99-01.3-08-13(2)(l))"
    tables = [text.index(f"Table {number}") for number in (1, 2, 3)]
    assert tables[0] < text.index(limited) < tables[1] < text.index(up_to_the_maximum) < tables[2]
    assert tables[2] < text.index(not_permitted) and text.count("Tip betting") == 3
    # The export's options, as typed money: the largest tip bet each table takes, none where not permitted.
    rows = handout_rows(auditor_api, site)
    assert [(row["Table"], row["Tip betting"], row["Tip bet max"]) for row in rows] == [
        ("1", "Tip betting permitted", "10.00"),
        ("2", "Tip betting permitted", "25.00"),
        ("3", "Tip betting not permitted", ""),
    ]


# ND 99-01.3-08-09(2)(b), last sentence, of the even money option: "This rule does not apply if an
# insurance bet is not permitted." ND 99-01.3-08-09(2)(d): "An organization may permit doubling-down
# on tips bets": a tip bet's double-down, where tip betting (08-09(2)(a)) is permitted. A table's
# record that says otherwise would print a handout (08-13(2)(k)-(m)) contradicting itself.
OPTION_REFUSALS = {
    "even money without insurance": (
        {"insurance_allowed": False, "even_money_offered": True},
        "even_money_offered",
        "ND 99-01.3-08-09(2)(b): ",
        "insurance bet is not permitted",
    ),
    "tip double-down without tip betting": (
        {"tip_betting_allowed": False, "tip_double_down": "equal"},
        "tip_double_down",
        "ND 99-01.3-08-09(2)(d): ",
        "tip betting",
    ),
}


@pytest.mark.parametrize("case", list(OPTION_REFUSALS))
def test_an_option_that_presupposes_another_is_refused_without_it(client_for, manager, site, case):
    values, field, rule, words = OPTION_REFUSALS[case]
    api = client_for(manager)
    message = refusal(api.post("/api/v1/tables/", body(site, "ND", **values), format="json"), field)
    assert message.startswith(rule) and words in message, message
    assert not Table.objects.filter(site=site).exists()
    table_id = api.post("/api/v1/tables/", body(site, "ND", **{field: values[field]}), format="json").json()["id"]
    events = AuditEvent.objects.count()
    (other,) = set(values) - {field}
    message = refusal(api.patch(f"/api/v1/tables/{table_id}/", {other: values[other]}, format="json"), field)
    assert message.startswith(rule) and words in message, message
    assert getattr(Table.objects.get(pk=table_id), other) != values[other] and AuditEvent.objects.count() == events
