"""The players' handout reads every table's approved game in a fixed number of queries (issue 18:
no N+1): generated through the API at a Washington house-banked site whose Double Down Madness
tables were added and linked through the services, it asks the database as many questions with
three such tables as with one."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from cardroom.services import create_table
from tests.reports.test_reports import auditor_api, pdf_text, request  # noqa: F401  (fixture)

from .conftest import link_ddm


def _ddm_table(manager, site, ddm, number):
    table = create_table(
        acting_user=manager.user, site=site, number=number, game="21", min_wager_cents=500,
        max_wager_cents=30000, payout_rounding="down",
    )  # fmt: skip
    link_ddm(manager, table, ddm)


def _handout_queries(api, site, tables: int) -> int:
    """The queries of generating the handout, which prints each table's rules of play."""
    with CaptureQueriesContext(connection) as queries:
        created = request(api, kind="house_rules_wa_hb", site=site.pk, end="2026-11-20")
    assert created.status_code == 201 and created.json()["status"] == "done", created.json()
    text = pdf_text(api.get(f"/api/v1/reports/{created.json()['id']}/download/").content)
    assert text.count("Rules of play (") == tables
    return len(queries)


def test_the_handout_reads_the_approved_games_of_three_tables_in_the_queries_of_one(
    auditor_api,  # noqa: F811
    manager,
    site,
    ddm,
    ddm_controls,
    house_controls,
):
    _ddm_table(manager, site, ddm, 1)
    _handout_queries(auditor_api, site, 1)  # the first also reads the auditor's access (kept on the user)
    one = _handout_queries(auditor_api, site, 1)
    _ddm_table(manager, site, ddm, 2)
    _ddm_table(manager, site, ddm, 3)
    assert _handout_queries(auditor_api, site, 3) == one
