"""A game approval's enclosed rules of play (WSGC approval of Double Down Madness: "The game shall
be played and operated under the terms and conditions set forth under the Double Down Madness
rules of play you provided and are enclosed"): recorded with the approval (service, API),
bounded as a house control, shown on the approval's page and printed on the players' handout at a
table offering the game, each line cited by the approval."""

import json

import pytest
from django.core.exceptions import ValidationError

from approvals import services
from approvals.demo import DDM_APPROVAL
from approvals.models import GameApproval
from approvals.rules import MAX_RULE_OF_PLAY_LENGTH, MAX_RULES_OF_PLAY
from cardroom.models import Role
from tests.reports.test_reports import auditor_api, pdf_text, request  # noqa: F401  (fixture)

REFERENCE = "WSGC approval of 2024-08-08, submission #3172"
TOO_LONG = "A" * (MAX_RULE_OF_PLAY_LENGTH + 1)
TOO_MANY = [f"Rule {n}." for n in range(MAX_RULES_OF_PLAY + 1)]


def _body(**changes) -> dict:
    return {**DDM_APPROVAL, "approved_on": DDM_APPROVAL["approved_on"].isoformat(), **changes}


def _handout(api, site) -> str:
    created = request(api, kind="house_rules_wa_hb", site=site.pk, end="2026-11-20")
    assert created.status_code == 201, created.json()
    content = api.get(f"/api/v1/reports/{created.json()['id']}/download/").content
    return " ".join(pdf_text(content).split())


def test_the_service_records_the_rules_of_play_one_line_each_without_blank_lines(manager, org):
    approval = services.record_game_approval(
        acting_user=manager.user, organization=org, **{**DDM_APPROVAL, "rules_of_play": ["  One card each. ", "", " "]}
    )
    approval.refresh_from_db()
    assert approval.rules_of_play == ["One card each."]


@pytest.mark.parametrize(
    ("lines", "words"),
    [
        ([TOO_LONG], f"each is at most {MAX_RULE_OF_PLAY_LENGTH} (House control)"),
        (TOO_MANY, f"At most {MAX_RULES_OF_PLAY} rules of play, not {MAX_RULES_OF_PLAY + 1} (House control)"),
        ("Played with 6 or 8 decks.", "House control: rules_of_play is a list of lines"),
        ([6], "House control: each line of rules_of_play is text"),
    ],
)
def test_the_service_refuses_bad_rules_of_play_on_their_field_and_writes_nothing(manager, org, lines, words):
    with pytest.raises(ValidationError) as refused:
        services.record_game_approval(
            acting_user=manager.user, organization=org, **{**DDM_APPROVAL, "rules_of_play": lines}
        )
    assert words in " ".join(refused.value.message_dict["rules_of_play"])
    assert not GameApproval.objects.exists()


def test_the_api_records_and_answers_the_rules_of_play(client_for, manager):
    answer = client_for(manager).post("/api/v1/game-approvals/", _body(), format="json")
    assert answer.status_code == 201, answer.content
    assert answer.json()["rules_of_play"] == DDM_APPROVAL["rules_of_play"]
    listed = client_for(manager).get("/api/v1/game-approvals/").json()
    assert listed["results"][0]["rules_of_play"][1] == "Played with 6 or 8 decks."


@pytest.mark.parametrize(
    ("lines", "words"),
    [([TOO_LONG], "each is at most"), (TOO_MANY, "At most"), ("One card each.", "expected a list")],
)
def test_the_api_refuses_bad_rules_of_play_naming_the_field_and_writes_nothing(client_for, manager, lines, words):
    answer = client_for(manager).post("/api/v1/game-approvals/", _body(rules_of_play=lines), format="json")
    assert answer.status_code == 400, answer.content
    assert words in json.dumps(answer.json()["rules_of_play"])
    assert not GameApproval.objects.exists()


def test_an_auditor_reads_an_approvals_page_with_its_rules_of_play(client, cast, ddm):
    client.force_login(cast[Role.AUDITOR].user)
    assert f'href="/approvals/{ddm.pk}/"' in client.get("/approvals/").content.decode()
    page = client.get(f"/approvals/{ddm.pk}/").content.decode()
    assert REFERENCE in page and "<li>Played with 6 or 8 decks.</li>" in page


def test_the_handout_prints_the_rules_of_play_at_the_ddm_table_only(auditor_api, wa_table, ddm_table, site):  # noqa: F811
    text = _handout(auditor_api, site)
    ddm_part = text[text.index("Table 2") :]
    assert f"Rules of play ({REFERENCE})" in ddm_part
    assert f"• Played with 6 or 8 decks. ({REFERENCE})" in ddm_part
    assert f"• The dealer hits soft 17. ({REFERENCE})" in ddm_part
    plain_part = text[text.index("Table 1") : text.index("Table 2")]
    assert "Rules of play" not in plain_part and "Played with 6 or 8 decks" not in plain_part
    assert text.count("Rules of play (") == 1
    # The State's limit on a double is said once, in dollars, with the approved game's lines; the
    # rules of play say the approval's "up to the total amount already in play" only.
    assert ddm_part.count("never above") == 1 and "never above $300.00 for a single wager" in ddm_part
    assert f"• Each double down may be up to the total amount already in play. ({REFERENCE})" in ddm_part


def test_the_handouts_csv_carries_each_rule_of_play_with_the_approval(auditor_api, wa_table, ddm_table, site):  # noqa: F811
    created = request(auditor_api, kind="house_rules_wa_hb", site=site.pk, end="2026-11-20")
    rows = auditor_api.get(f"/api/v1/reports/{created.json()['id']}/download/?format=csv").content.decode()
    assert f'2,Played with 6 or 8 decks.,"{REFERENCE}"' in rows.splitlines()
    assert not any(line.startswith("1,Played with") for line in rows.splitlines())
