"""Washington internal controls and game approvals through the API: the Double Down Madness
table's happy path and each refusal (400 naming the field and citing the rule or the approval)."""

import json
from datetime import timedelta

import pytest
import time_machine

from approvals.demo import DDM_APPROVAL, DDM_CONTROLS, DDM_TABLE_SETTINGS, SHUFFLER
from approvals.models import GameApproval, InternalControls, PayTable, TableGame
from approvals.rules import DOCUMENTED_FIELDS
from cardroom.models import Role, Table
from core.models import AuditEvent
from tests.factories import TableFactory

from .conftest import HOUSE_CONTROLS


def refused(response, field: str) -> str:
    assert response.status_code == 400, (response.status_code, response.content[:500])
    body = response.json()
    assert field in body, body
    return json.dumps(body[field])


def _approval_body(**changes) -> dict:
    body = {**DDM_APPROVAL, "approved_on": DDM_APPROVAL["approved_on"].isoformat(), **changes}
    return body


def test_a_gaming_manager_sets_up_the_double_down_madness_table_through_the_api(
    client_for, manager, site, house_controls, today
):
    client = client_for(manager)
    answer = client.post("/api/v1/game-approvals/", _approval_body(), format="json")
    assert answer.status_code == 201, answer.content
    approval = answer.json()
    assert approval["reference"] == "WSGC approval of 2024-08-08, submission #3172"
    assert approval["conditions"]["decks"] == [6, 8]
    push22 = {p["code"]: p["id"] for p in approval["pay_tables"] if p["side_bet"] == "Push 22"}
    blackjack = {p["code"]: p["id"] for p in approval["pay_tables"] if not p["side_bet"]}
    assert set(push22) == {"1", "2", "3"} and set(blackjack) == {"01", "02", "03"}

    controls = {
        "site": site.pk,
        "game_approval": approval["id"],
        "effective_on": str(today),
        "approved_on": str(today - timedelta(days=3)),
        "approved_by": "B. Lane, WSGC",
        **DDM_CONTROLS,
    }
    answer = client.post("/api/v1/internal-controls/", controls, format="json")
    assert answer.status_code == 201, answer.content
    assert answer.json()["version"] == 1 and answer.json()["game"] == "Double Down Madness Blackjack"

    table = client.post(
        "/api/v1/tables/",
        {
            "site": site.pk,
            "number": 2,
            "game": "21",
            "min_wager_cents": 1000,
            "max_wager_cents": 20000,
            "payout_rounding": "down",
        },
        format="json",
    )
    assert table.status_code == 201, table.content
    link = {
        "table": table.json()["id"],
        "approval": approval["id"],
        "blackjack_pay_table": blackjack["01"],
        "side_bet_pay_table": push22["2"],
        "shuffler_model": SHUFFLER,
        "settings": DDM_TABLE_SETTINGS,
    }
    answer = client.post("/api/v1/table-games/", link, format="json")
    assert answer.status_code == 201, answer.content
    ddm_table = Table.objects.get(pk=table.json()["id"])
    assert (ddm_table.decks, ddm_table.dealer_hits_soft_17, ddm_table.split_pairs, ddm_table.surrender) == (
        6,
        True,
        "none",
        "none",
    )
    listed = client.get("/api/v1/table-games/", {"table": ddm_table.pk}).json()["results"]
    assert [row["side_bet_pay_table"] for row in listed] == [push22["2"]]
    actions = set(AuditEvent.objects.values_list("action", flat=True))
    assert {"game_approval.recorded", "internal_controls.recorded", "table_game.linked", "table.updated"} <= actions


def test_an_option_the_internal_controls_do_not_document_is_refused_citing_the_wsgc_note(client_for, manager, wa_table):
    answer = client_for(manager).patch(f"/api/v1/tables/{wa_table.pk}/", {"surrender": "late"}, format="json")
    message = refused(answer, "surrender")
    assert "WSGC Blackjack Game Rules (rev. April 2018), Surrender (note)" in message
    assert "version 1" in message
    answer = client_for(manager).patch(f"/api/v1/tables/{wa_table.pk}/", {"dealer_hits_soft_17": True}, format="json")
    assert "rule 9.iii" in refused(answer, "dealer_hits_soft_17")
    answer = client_for(manager).patch(f"/api/v1/tables/{wa_table.pk}/", {"payout_rounding": "up"}, format="json")
    assert "rule 7" in refused(answer, "payout_rounding")
    wa_table.refresh_from_db()
    assert (wa_table.surrender, wa_table.dealer_hits_soft_17) == ("none", False)


def test_a_new_version_effective_tomorrow_does_not_apply_today(client_for, manager, site, wa_table, today):
    body = {
        "site": site.pk,
        "effective_on": str(today + timedelta(days=1)),
        "approved_on": str(today),
        "approved_by": "B. Lane, WSGC",
        **HOUSE_CONTROLS,
        "surrender": ["none", "late"],
    }
    answer = client_for(manager).post("/api/v1/internal-controls/", body, format="json")
    assert answer.status_code == 201 and answer.json()["version"] == 2
    assert InternalControls.objects.get(version=2).supersedes.version == 1
    refused(
        client_for(manager).patch(f"/api/v1/tables/{wa_table.pk}/", {"surrender": "late"}, format="json"), "surrender"
    )
    with time_machine.travel(timedelta(days=2)):
        answer = client_for(manager).patch(f"/api/v1/tables/{wa_table.pk}/", {"surrender": "late"}, format="json")
        assert answer.status_code == 200, answer.content


def test_controls_in_effect_today_must_document_what_the_tables_use(client_for, manager, site, wa_table, today):
    body = {
        "site": site.pk,
        "effective_on": str(today),
        "approved_on": str(today),
        "approved_by": "B. Lane, WSGC",
        **HOUSE_CONTROLS,
        "split_pairs": ["identical"],
    }
    assert "Table 1" in refused(
        client_for(manager).post("/api/v1/internal-controls/", body, format="json"), "split_pairs"
    )
    assert InternalControls.objects.count() == 1


def test_internal_controls_must_document_every_option_with_known_values(client_for, manager, site, today):
    base = {
        "site": site.pk,
        "effective_on": str(today),
        "approved_on": str(today),
        "approved_by": "B. Lane, WSGC",
        **HOUSE_CONTROLS,
    }
    assert "Surrender" in refused(
        client_for(manager).post("/api/v1/internal-controls/", {**base, "surrender": []}, format="json"), "surrender"
    )
    refused(
        client_for(manager).post("/api/v1/internal-controls/", {**base, "double_on": ["anything"]}, format="json"),
        "double_on",
    )
    body = {k: v for k, v in base.items() if k != "blackjack_payout"}
    assert "rule 7" in refused(
        client_for(manager).post("/api/v1/internal-controls/", body, format="json"), "blackjack_payout"
    )


def test_an_nd_site_keeps_no_wsgc_internal_controls(client_for, manager, other_site, today):
    body = {
        "site": other_site.pk,
        "effective_on": str(today),
        "approved_on": str(today),
        "approved_by": "x",
        **HOUSE_CONTROLS,
    }
    refused(client_for(manager).post("/api/v1/internal-controls/", body, format="json"), "site")


@pytest.mark.parametrize(
    "change,field",
    [
        ({"decks": 4}, "decks"),
        ({"dealer_hits_soft_17": False}, "dealer_hits_soft_17"),
        ({"surrender": "late"}, "surrender"),
        ({"split_pairs": "aces_eights"}, "split_pairs"),
        ({"blackjack_payout": "6:5"}, "blackjack_payout"),
    ],
)
def test_a_table_breaking_its_approvals_conditions_is_refused_citing_the_approval(
    client_for, manager, ddm_table, change, field
):
    answer = client_for(manager).patch(f"/api/v1/tables/{ddm_table.pk}/", change, format="json")
    message = refused(answer, field)
    assert "Double Down Madness Blackjack (WSGC approval of 2024-08-08, submission #3172)" in message
    assert "needs a new approval" in message
    assert Table.objects.get(pk=ddm_table.pk).decks == 6


def test_a_side_bet_pay_table_not_in_the_approval_is_refused(
    client_for, manager, org, ddm, ddm_controls, house_controls, site
):
    other = (
        client_for(manager)
        .post("/api/v1/game-approvals/", _approval_body(game_name="Other Game", submission_number="1"), format="json")
        .json()
    )
    table = TableFactory(site=site, number=3, payout_rounding="down")
    foreign = next(p["id"] for p in other["pay_tables"] if p["side_bet"])
    link = {
        "table": table.pk,
        "approval": ddm.pk,
        "blackjack_pay_table": PayTable.objects.get(approval=ddm, code="01").pk,
        "side_bet_pay_table": foreign,
        "shuffler_model": SHUFFLER,
        "settings": DDM_TABLE_SETTINGS,
    }
    message = refused(client_for(manager).post("/api/v1/table-games/", link, format="json"), "side_bet_pay_table")
    assert "not among the approval's selectable pay tables" in message
    assert not TableGame.objects.filter(table=table).exists()


def test_a_shuffler_table_names_its_approved_shuffler_and_the_game_needs_its_internal_controls(
    client_for, manager, ddm, site, house_controls
):
    table = TableFactory(site=site, number=3, payout_rounding="down")
    pay = PayTable.objects.get(approval=ddm, code="01").pk
    link = {"table": table.pk, "approval": ddm.pk, "blackjack_pay_table": pay, "settings": DDM_TABLE_SETTINGS}
    assert "submit their internal controls" in refused(
        client_for(manager).post("/api/v1/table-games/", link, format="json"), "game_approval"
    )


def test_a_standard_table_dealt_from_a_shuffler_names_the_approved_model(client_for, manager, site, house_controls):
    """WSGC rule 3: blackjack is dealt "from a dealing shoe or a shuffling device we have approved",
    standard blackjack as an approved game: a table moves to the shuffler on its game link, which
    names the model; without one the move is refused, and so is a shuffler table's creation."""
    client = client_for(manager)
    body = {"site": site.pk, "number": 7, "game": "21", "payout_rounding": "down", "dealt_from": "shuffler",
            "min_wager_cents": 1000, "max_wager_cents": 20000}  # fmt: skip
    message = refused(client.post("/api/v1/tables/", body, format="json"), "dealt_from")
    assert "rule 3" in message and "create it dealt from a shoe" in message
    table = TableFactory(site=site, number=3, payout_rounding="down")
    refused(client.patch(f"/api/v1/tables/{table.pk}/", {"dealt_from": "shuffler"}, format="json"), "dealt_from")
    link = {"table": table.pk, "approval": None, "settings": {"dealt_from": "shuffler"}}
    message = refused(client.post("/api/v1/table-games/", link, format="json"), "dealt_from")
    assert "shuffling device the Commission has approved" in message
    assert Table.objects.get(pk=table.pk).dealt_from == "shoe" and not TableGame.objects.filter(table=table).exists()
    answer = client.post("/api/v1/table-games/", {**link, "shuffler_model": SHUFFLER}, format="json")
    assert answer.status_code == 201, answer.content
    assert Table.objects.get(pk=table.pk).dealt_from == "shuffler"
    assert TableGame.objects.get(table=table).shuffler_model == SHUFFLER
    # The model is not dropped while the table stays dealt from it.
    refused(client.post("/api/v1/table-games/", {"table": table.pk, "approval": None}, format="json"), "dealt_from")


def test_modifying_a_fixed_setting_needs_a_new_approval_that_permits_it(
    client_for, manager, ddm, ddm_table, site, today
):
    client = client_for(manager)
    refused(client.patch(f"/api/v1/tables/{ddm_table.pk}/", {"surrender": "late"}, format="json"), "surrender")
    revised = _approval_body(
        submission_number="3172-A",
        supersedes=ddm.pk,
        conditions={**DDM_APPROVAL["conditions"], "surrender": ["none", "late"]},
    )
    answer = client.post("/api/v1/game-approvals/", revised, format="json")
    assert answer.status_code == 201 and answer.json()["supersedes"] == ddm.pk
    new = GameApproval.objects.get(pk=answer.json()["id"])
    controls = {
        "site": site.pk,
        "game_approval": new.pk,
        "effective_on": str(today),
        "approved_on": str(today),
        "approved_by": "B. Lane, WSGC",
        **DDM_CONTROLS,
        "surrender": ["none", "late"],
    }
    assert client.post("/api/v1/internal-controls/", controls, format="json").status_code == 201
    link = {
        "table": ddm_table.pk,
        "approval": new.pk,
        "blackjack_pay_table": new.pay_tables.get(code="01").pk,
        "shuffler_model": SHUFFLER,
        "settings": {"surrender": "late"},
    }
    answer = client.post("/api/v1/table-games/", link, format="json")
    assert answer.status_code == 201, answer.content
    assert Table.objects.get(pk=ddm_table.pk).surrender == "late"
    # Back on the original approval, surrender is again refused.
    back = {
        "table": ddm_table.pk,
        "approval": ddm.pk,
        "blackjack_pay_table": ddm.pay_tables.get(code="01").pk,
        "shuffler_model": SHUFFLER,
    }
    refused(client.post("/api/v1/table-games/", back, format="json"), "surrender")


def test_an_approval_fixes_only_known_settings_with_valid_values(client_for, manager):
    client = client_for(manager)
    refused(
        client.post("/api/v1/game-approvals/", _approval_body(conditions={"max_wager_cents": [100]}), format="json"),
        "conditions",
    )
    refused(client.post("/api/v1/game-approvals/", _approval_body(conditions={"decks": [12]}), format="json"), "decks")
    refused(
        client.post("/api/v1/game-approvals/", _approval_body(conditions={"surrender": [True]}), format="json"),
        "surrender",
    )
    assert not GameApproval.objects.exists()


def test_a_link_changes_only_table_settings_an_approval_or_the_controls_concern(
    client_for, manager, ddm, ddm_controls, site, house_controls
):
    table = TableFactory(site=site, number=3, payout_rounding="down")
    link = {
        "table": table.pk,
        "approval": ddm.pk,
        "blackjack_pay_table": ddm.pay_tables.get(code="01").pk,
        "shuffler_model": SHUFFLER,
        "settings": {**DDM_TABLE_SETTINGS, "max_wager_cents": 1},
    }
    refused(client_for(manager).post("/api/v1/table-games/", link, format="json"), "settings")


# --- Who may read and record -------------------------------------------------------------------


@pytest.mark.parametrize("role", list(Role))
def test_the_registers_readers_read_the_approvals_and_only_the_gaming_manager_records(
    client_for, cast, ddm, ddm_table, house_controls, role
):
    """Read by the roles its pages open to (gaming manager, auditor: tests/approvals/test_readers.py)."""
    client = client_for(cast[role])
    reads = role in (Role.GAMING_MANAGER, Role.AUDITOR)
    assert client.get(f"/api/v1/game-approvals/{ddm.pk}/").status_code == (200 if reads else 404)
    assert client.get("/api/v1/internal-controls/").json()["count"] == (2 if reads else 0)
    assert client.get("/api/v1/table-games/").json()["count"] == (1 if reads else 0)
    answer = client.post("/api/v1/game-approvals/", _approval_body(submission_number="9"), format="json")
    assert answer.status_code == (201 if role == Role.GAMING_MANAGER else 403)


def test_another_organization_sees_none_of_it(client_for, stranger_site, ddm, ddm_table, house_controls):
    from tests.factories import make_person

    stranger = make_person(stranger_site.organization, Role.GAMING_MANAGER)
    client = client_for(stranger)
    assert client.get(f"/api/v1/game-approvals/{ddm.pk}/").status_code == 404
    assert client.get(f"/api/v1/internal-controls/{house_controls.pk}/").status_code == 404
    for path in ("game-approvals", "internal-controls", "table-games"):
        assert client.get(f"/api/v1/{path}/").json()["count"] == 0
    link = {"table": ddm_table.pk, "approval": None}
    assert "table" in client.post("/api/v1/table-games/", link, format="json").json()


def test_site_roles_at_another_site_do_not_see_its_controls(client_for, org, other_site, house_controls):
    from tests.factories import make_person

    dealer = make_person(org, Role.DEALER, other_site)
    assert client_for(dealer).get(f"/api/v1/internal-controls/{house_controls.pk}/").status_code == 404


def test_tables_outside_washington_house_banked_are_not_judged_by_wsgc_internal_controls(
    client_for, manager, other_site, house_controls
):
    table = TableFactory(site=other_site, number=5)  # North Dakota: its own pack's rules only
    answer = client_for(manager).patch(f"/api/v1/tables/{table.pk}/", {"dealer_hits_soft_17": True}, format="json")
    assert answer.status_code == 200, answer.content
    link = {"table": table.pk, "approval": None}
    message = refused(client_for(manager).post("/api/v1/table-games/", link, format="json"), "table")
    assert "House control" in message and not [w for w in ("WSGC", "WAC", "Washington") if w in message]


# --- The immaterial modifications (the WSGC rules' Irregularities, last paragraph) --------------

MODIFICATIONS = "WSGC Blackjack Game Rules (rev. April 2018), Irregularities (immaterial modifications)"
# The rules' own play of each option the paragraph (or, for even money, the Insurance note) covers.
RULES_PLAY = dict(
    resplit_allowed=True, split_aces_one_card=False, double_after_split=True, double_down="equal",
    even_money_offered=False,
)  # fmt: skip
A_TABLE = {"number": 3, "game": "21", "min_wager_cents": 500, "max_wager_cents": 30000, "payout_rounding": "down"}


def _controls(site, today, **changes) -> dict:
    return {
        "site": site.pk,
        "effective_on": str(today),
        "approved_on": str(today),
        "approved_by": "B. Lane, WSGC",
        **HOUSE_CONTROLS,
        **changes,
    }


def test_one_card_to_split_aces_is_refused_until_a_version_of_the_controls_documents_it(
    client_for, manager, site, today
):
    """The rules treat each split card "as it were the first card dealt in a hand": one card only to
    a split ace is the card room's modification, documented in its internal controls first."""
    api = client_for(manager)
    table = {"site": site.pk, **A_TABLE, "split_aces_one_card": True}
    message = refused(api.post("/api/v1/tables/", table, format="json"), "split_aces_one_card")
    assert (
        MODIFICATIONS in message and "No internal controls" in message and "one card only to each split ace" in message
    )
    assert (
        api.post(
            "/api/v1/internal-controls/", _controls(site, today, split_aces_one_card=[False]), format="json"
        ).status_code
        == 201
    )
    message = refused(api.post("/api/v1/tables/", table, format="json"), "split_aces_one_card")
    assert MODIFICATIONS in message and "document one card only to each split ace: no; not yes" in message
    assert not Table.objects.filter(site=site).exists()
    documented = api.post(
        "/api/v1/internal-controls/", _controls(site, today, split_aces_one_card=[False, True]), format="json"
    )
    assert documented.status_code == 201 and documented.json()["split_aces_one_card"] == [False, True]
    accepted = api.post("/api/v1/tables/", table, format="json")
    assert accepted.status_code == 201, accepted.json()
    assert accepted.json()["split_aces_one_card"] is True


@pytest.mark.parametrize(
    "field,value,citation",
    [
        ("resplit_allowed", False, MODIFICATIONS),
        ("split_aces_one_card", True, MODIFICATIONS),
        ("double_after_split", False, MODIFICATIONS),
        ("double_down", "up_to", MODIFICATIONS),
        ("even_money_offered", True, "WSGC Blackjack Game Rules (rev. April 2018), Insurance (note)"),
    ],
)
def test_each_options_rules_play_needs_no_controls_and_another_value_is_refused_citing_the_rules(
    client_for, manager, site, field, value, citation
):
    """With no internal controls in effect the table is refused (its payout is always the room's to
    document), but never for the rules' own play of these options; another value is."""
    api = client_for(manager)
    at_rules_play = api.post("/api/v1/tables/", {"site": site.pk, **A_TABLE, **RULES_PLAY}, format="json")
    assert at_rules_play.status_code == 400 and "blackjack_payout" in at_rules_play.json()
    assert not set(RULES_PLAY) & set(at_rules_play.json()), at_rules_play.json()
    modified = api.post("/api/v1/tables/", {"site": site.pk, **A_TABLE, **RULES_PLAY, field: value}, format="json")
    message = refused(modified, field)
    assert citation in message and "internal controls" in message and "99-01.3" not in message


def test_a_new_wa_hb_table_given_no_options_plays_the_rules_and_is_accepted(client_for, manager, site, today):
    """The model's defaults (one card to split aces, any two ten-valued cards split) are no WSGC
    play: a WA-HB table given no options takes the pack's (`packs.wa_hb.tables.table_defaults`),
    which controls documenting only the rules' play accept."""
    api = client_for(manager)
    only_rules_play = {name: [value] for name, value in {**RULES_PLAY, "split_pairs": "identical"}.items()}
    assert (
        api.post("/api/v1/internal-controls/", _controls(site, today, **only_rules_play), format="json").status_code
        == 201
    )
    created = api.post("/api/v1/tables/", {"site": site.pk, **A_TABLE}, format="json")
    assert created.status_code == 201, created.json()
    assert {name: created.json()[name] for name in RULES_PLAY} == RULES_PLAY
    assert created.json()["split_pairs"] == "identical"


def test_a_version_recorded_before_the_options_were_asked_documents_only_the_rules_play(site, today):
    """Such a version lists none of them (the migration's empty list): nothing documented, so the
    rules' own play passes and a modification is refused, saying what to record."""
    from approvals.checks import controls_errors

    older = InternalControls(site=site, version=1, effective_on=today, approved_on=today, approved_by="WSGC",
                             **{k: v for k, v in HOUSE_CONTROLS.items() if k not in RULES_PLAY})  # fmt: skip
    table = Table(site=site, number=9, min_wager_cents=500, max_wager_cents=30000, payout_rounding="down")
    for name, value in RULES_PLAY.items():
        setattr(table, name, value)
    assert controls_errors(table, older) == {}
    table.split_aces_one_card = True
    [(field, message)] = controls_errors(table, older).items()
    assert field == "split_aces_one_card" and MODIFICATIONS in message
    assert "document one card only to each split ace: nothing (the rules' own play only); not yes" in message
    assert message.endswith("Record a new version listing one card only to each split ace: yes.")
    # The register says the same of the version: nothing listed, so the rules' own play.
    documented = dict(zip(DOCUMENTED_FIELDS, older.documented, strict=True))
    assert documented["split_aces_one_card"] == "none listed (the rules' play: Split aces played as any other hand)"
    assert documented["double_down"] == "none listed (the rules' play: Double-down wager must equal the original wager)"
    assert documented["even_money_offered"] == "none listed (the rules' play: No even money)"


@pytest.mark.parametrize("code", ["ND", "NY"])
def test_nd_and_ny_tables_are_untouched_by_the_wsgc_modifications(client_for, manager, other_site, code):
    """Their packs state no internal controls: one card to split aces (which their own rules ask:
    ND 99-01.3-08-09(2)(c), 9 NYCRR 4620.5(k)(4)), an up-to double or even money need none, and a
    new table there keeps the model's one card to split aces, not Washington's default."""
    from tests.core.test_pack_table_rules import ND_OK, NY_OK
    from tests.pack_setup import record_licence

    other_site.jurisdiction = code
    other_site.save()
    if code == "NY":
        record_licence(manager, other_site, tie_option=1)
    options = {**ND_OK, "double_down": "up_to", "even_money_offered": True} if code == "ND" else NY_OK
    api = client_for(manager)
    created = api.post("/api/v1/tables/", {"site": other_site.pk, "number": 1, "game": "21", **options}, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["split_aces_one_card"] is True and created.json()["resplit_allowed"] is True


def test_options_of_split_hands_are_moot_where_no_pair_is_split(client_for, manager, ddm, ddm_table, ddm_controls):
    """Double Down Madness splits no pair: its controls list nothing of resplitting, split aces or
    doubling after a split (the register says so), and its table may set them either way. A table
    that splits is still judged: its controls must list what it does."""
    assert (ddm_controls.resplit_allowed, ddm_controls.split_aces_one_card, ddm_controls.double_after_split) == (
        [],
        [],
        [],
    )
    documented = dict(zip(DOCUMENTED_FIELDS, ddm_controls.documented, strict=True))
    assert documented["double_after_split"] == "none listed (no pair is split)"
    api = client_for(manager)
    for name, value in (("double_after_split", False), ("resplit_allowed", True), ("split_aces_one_card", True)):
        changed = api.patch(f"/api/v1/tables/{ddm_table.pk}/", {name: value}, format="json")
        assert changed.status_code == 200, changed.json()
        assert changed.json()[name] is value
    # The approval's own conditions still hold: no splitting.
    refused = api.patch(f"/api/v1/tables/{ddm_table.pk}/", {"split_pairs": "identical"}, format="json")
    assert refused.status_code == 400 and "split_pairs" in refused.json()


def test_controls_that_split_pairs_must_document_the_options_of_split_hands(client_for, manager, site, today):
    """Only controls allowing no splitting at all may leave them out."""
    body = _controls(site, today, split_pairs=["identical", "none"])
    del body["double_after_split"]
    refused = client_for(manager).post("/api/v1/internal-controls/", body, format="json")
    assert refused.status_code == 400 and "double_after_split" in refused.json(), refused.json()


def test_linking_a_table_back_to_standard_blackjack_keeping_the_approved_play_is_a_400(client_for, manager, ddm_table):
    """A link with no approval judged the table's approved-only play against no conditions (a 500)."""
    answer = client_for(manager).post("/api/v1/table-games/", {"table": ddm_table.pk, "approval": None}, format="json")
    assert answer.status_code == 400, answer.content
    assert "Any card, again after each card received" in answer.json()["double_on"][0]
    assert TableGame.objects.filter(table=ddm_table).count() == 1


def test_an_organization_with_no_site_under_game_approvals_records_none(db, client_for):
    """A New York games-of-chance organization (9 NYCRR 4620.5 has no game approvals) posting the
    Double Down Madness letter is refused at `jurisdiction`, nothing recorded, and so is the service
    told the approval is Washington house-banked: before, it was recorded as a Washington approval
    (the pack chosen among every pack's when none of the organization's sites had game approvals),
    so the organization's records held the WSGC's letter and WAC 230-15-140 for no table of its to
    offer."""
    from django.core.exceptions import ValidationError

    from approvals import services
    from tests.factories import OrganizationFactory, SiteFactory, make_person

    organization = OrganizationFactory()
    SiteFactory(organization=organization, name="Kingston Fire Hall", jurisdiction="NY", time_zone="America/New_York")
    manager = make_person(organization, Role.GAMING_MANAGER, None)
    answer = client_for(manager).post("/api/v1/game-approvals/", _approval_body(), format="json")
    message = refused(answer, "jurisdiction")
    assert "House control" in message and "(none)" in message
    with pytest.raises(ValidationError) as refusal:
        services.record_game_approval(
            acting_user=manager.user, organization=organization, jurisdiction="WA-HB", **DDM_APPROVAL
        )
    assert "jurisdiction" in refusal.value.message_dict
    assert not GameApproval.objects.filter(organization=organization).exists()
