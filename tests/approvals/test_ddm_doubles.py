"""Double Down Madness (WSGC approval of 2024-08-08, submission #3172): "The amount for each
double down can be up to the total amount already in play, (not to exceed maximum State wagering
limits for a single wager)", and the approval binds operators to WAC 230-15-140's limits."""

from approvals.checks import double_limit_cents
from approvals.queries import current_link
from cardroom.models import Table
from tests.pack_setup import record_controls
from tests.reports.test_reports import auditor_api, pdf_text, request  # noqa: F401  (fixture)


def test_a_ddm_tables_doubles_stay_within_the_single_wager_limit(client_for, manager, ddm_table):
    assert double_limit_cents(ddm_table, current_link(ddm_table.pk).approval) == 30_000
    answer = client_for(manager).patch(f"/api/v1/tables/{ddm_table.pk}/", {"max_wager_cents": 1_000_000}, format="json")
    assert answer.status_code == 400
    message = answer.json()["max_wager_cents"][0]
    assert "WAC 230-15-140" in message and "$300" in message and "99-01.3" not in message
    assert Table.objects.get(pk=ddm_table.pk).max_wager_cents == ddm_table.max_wager_cents


def test_the_handout_posts_the_ddm_double_limit(auditor_api, ddm_table, site):  # noqa: F811
    created = request(auditor_api, kind="house_rules_wa_hb", site=site.pk, end="2026-11-20")
    assert created.status_code == 201, created.json()
    text = " ".join(pdf_text(auditor_api.get(f"/api/v1/reports/{created.json()['id']}/download/").content).split())
    assert "This table offers Double Down Madness Blackjack" in text
    assert "Each double down may be up to the amount already in play, never above $300.00 for a single wager" in text
    assert "WAC 230-15-140" in text and "NYCRR" not in text  # (the retention footer is the reports area's)
    # WSGC rule 7: the payouts of the game offered are posted, the table's pay tables as approved
    assert "Blackjack pays (pay table 01): Suited Blackjack 2 to 1; Unsuited Blackjack 3 to 2." in text
    assert "Push 22 pays (pay table 1): Dealer Same Suit 22 50 to 1;" in text


def test_doubling_on_any_card_or_up_to_the_total_is_an_approved_games_play_only(
    client_for, manager, site, wa_table, ddm_table
):
    """The approval letter: "each Player receives a single card initially, with the ability to
    continually double down", each "up to the total amount already in play". The table settings say
    so at the Double Down Madness table; a standard blackjack table may not choose either (refused
    on its field, citing the game approval at the site, nothing changed), nor an ND table."""
    ddm_table.refresh_from_db()
    assert (ddm_table.double_on, ddm_table.double_down) == ("any_card", "total")
    api = client_for(manager)
    # Both are documented options, refused first by the house-banked controls in effect (they
    # document the standard game's): the double-down wager an immaterial modification of "a second
    # wager equal to the original bet" (the WSGC rules' Irregularities, last paragraph).
    answer = api.patch(f"/api/v1/tables/{wa_table.pk}/", {"double_on": "any_card"}, format="json")
    assert answer.status_code == 400, answer.content
    assert "not Any card, again after each card received" in answer.json()["double_on"][0]
    answer = api.patch(f"/api/v1/tables/{wa_table.pk}/", {"double_down": "total"}, format="json")
    assert answer.status_code == 400, answer.content
    assert "not Double-down wager up to the total amount already in play" in answer.json()["double_down"][0]
    # Controls that document every value leave the approved game's refusal.
    record_controls(manager, site)
    answer = api.patch(f"/api/v1/tables/{wa_table.pk}/", {"double_down": "total"}, format="json")
    assert answer.status_code == 400, answer.content
    message = answer.json()["double_down"][0]
    assert message.startswith("WSGC game approval: Double-down wager up to the total amount already in play is")
    assert "not of standard blackjack" in message and "99-01.3" not in message
    wa_table.refresh_from_db()
    assert (wa_table.double_on, wa_table.double_down) != ("any_card", "total")


def test_the_handout_posts_the_ddm_doubles_as_approved(auditor_api, ddm_table, site):  # noqa: F811
    created = request(auditor_api, kind="house_rules_wa_hb", site=site.pk, end="2026-11-20")
    text = " ".join(pdf_text(auditor_api.get(f"/api/v1/reports/{created.json()['id']}/download/").content).split())
    assert "Any card, again after each card received" in text and "Any first two cards" not in text
    assert "Each double down may be up to the amount already in play" in text


def test_an_nd_table_does_not_double_up_to_the_total(client_for, org, other_site):
    from cardroom.models import Role
    from tests.factories import TableFactory, make_person

    table = TableFactory(site=other_site, number=7)
    manager = make_person(org, Role.GAMING_MANAGER, None)
    answer = client_for(manager).patch(f"/api/v1/tables/{table.pk}/", {"double_down": "total"}, format="json")
    assert answer.status_code == 400, answer.content
    message = answer.json()["double_down"][0]
    assert message.startswith("House control: Double-down wager up to the total amount already in play is")
    assert "WSGC" not in message and "WAC" not in message
    table.refresh_from_db()
    assert table.double_down != "total"
