"""The daily review documents the camera's field of view (ND 99-01.3-08-04(1)(c), (2), (4)): the
face of the dealing shoe, every betting space, the discard holder, the chip tray, the currency
plunger and the table number (and the site's identification where the organization has more than
one site) on the recording, under a clean dome. An incomplete one is a camera not producing a view
of the cards, currency or chips (08-04(7)): it opens the table's outage as the other checks do.
Asked only where the site's pack states it; an entry made before it was asked reads "—"."""

import re
from contextlib import contextmanager
from dataclasses import replace
from datetime import date
from types import MappingProxyType

import pytest

from cardroom.models import Role
from packs import get_pack, registry
from surveillance.models import Outage, ReviewLogEntry
from tests.factories import TableFactory
from tests.reports.test_kind_daily import csv_rows, download, pdf_tables, run_report

from .conftest import add_shift, local

DAY = date(2026, 2, 3)
API = "/api/v1/surveillance/review-log/"
PAGE = "/surveillance/review-log/"
CITED = "ND 99-01.3-08-04(1)(c), (2), (4)"
CHECKS = {"camera_recording": True, "unobstructed_view": True, "clear_picture": True}
# Another pack's tables, as tests/surveillance/test_packs.py makes them.
TABLES = {
    "WA-HB": {"max_wager_cents": 5000, "payout_rounding": "down", "decks": 2, "dealt_from": "hand"},
    "WA-BJ": {"max_wager_cents": 2500, "banker": "player", "min_bank_cents": 30000, "decks": 1},
    "NY": {"max_wager_cents": 500, "decks": 1, "tie_option": 2, "blackjack_payout": "2:1", "double_on": "ten_eleven"},
}


@pytest.fixture
def activity(table, dealer):
    return add_shift(table, dealer, local(2026, 2, 3, 19), local(2026, 2, 4, 1))


def review(client, table, **answers):
    return client.post(API, {"table": table.pk, "gaming_date": str(DAY), **CHECKS, **answers}, format="json")


def form_post(client, table, **boxes):
    """The page's form as a browser sends it: a ticked box is "on", an unticked one is not sent (the
    field of view ticked as the form offers it, unless told)."""
    ticked = {name: "on" for name, on in {**CHECKS, "field_of_view": True, **boxes}.items() if on}
    return client.post(PAGE, {"table": table.pk, "gaming_date": str(DAY), **ticked}, follow=True)


def field_of_view_box(page: str) -> str:
    box = re.search(r'<input type="checkbox" name="field_of_view"[^>]*>', page)
    assert box, "the form asks the field of view"
    return box.group(0)


def log_cells(page: str) -> list[list[str]]:
    body = page.split('id="review-log"')[1].split("<tbody>")[1].split("</tbody>")[0]
    return [re.findall(r"<td[^>]*>(.*?)</td>", row, re.S) for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)]


@contextmanager
def asked_before():
    """The product before the question was asked: North Dakota's pack without the rule (back after)."""
    nd = get_pack("ND")
    citations = MappingProxyType({k: v for k, v in nd.citations.items() if k != "surveillance.field_of_view"})
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(registry.PACKS, "ND", replace(nd, citations=citations))
        yield


def test_an_incomplete_field_of_view_opens_the_outage_citing_08_04_1_c(client_for, shift_manager, table, activity):
    answer = review(client_for(shift_manager), table, field_of_view=False, notes="Chip tray cut off")
    assert answer.status_code == 201, answer.json()
    entry = ReviewLogEntry.objects.get()
    outage = Outage.objects.get(table=table)
    assert answer.json()["outage"] == outage.pk and answer.json()["field_of_view"] is False
    assert not entry.all_clear and entry.field_of_view is False
    assert (outage.kind, outage.began_at, outage.reported_by) == ("view", entry.reviewed_at, shift_manager.user)
    assert outage.description == (
        f"ND 99-01.3-08-04(7): found in the daily review log of 2026-02-03 (entry {entry.pk}): field of view "
        f"incomplete or dome not clean ({CITED}). Chip tray cut off"
    )


def test_a_complete_field_of_view_with_the_other_checks_clear_opens_no_outage(
    client_for, shift_manager, table, activity
):
    answer = review(client_for(shift_manager), table, field_of_view=True)
    assert answer.status_code == 201, answer.json()
    assert answer.json()["outage"] is None and answer.json()["field_of_view"] is True
    assert ReviewLogEntry.objects.get().all_clear and not Outage.objects.exists()


def test_the_api_asks_it_of_a_new_entry_where_the_pack_states_it(client_for, shift_manager, table, activity):
    refused = review(client_for(shift_manager), table)
    assert refused.status_code == 400
    (message,) = refused.json()["field_of_view"]
    assert message.startswith(f"{CITED}: say whether the camera's field of view takes in the face of the dealing")
    assert not ReviewLogEntry.objects.exists() and not Outage.objects.exists()


def test_the_forms_box_is_for_the_reviewer_to_tick_and_says_what_the_camera_must_show(client, shift_manager, table):
    client.force_login(shift_manager.user)
    page = client.get(PAGE).content.decode()
    box = field_of_view_box(page)
    assert " checked" not in box  # documented by the reviewer, as the other three checks are, never pre-answered
    assert "Whole table in view, dome clean" in page
    assert "the face of the shoe, every betting spot, the discard holder, the chip tray, the currency plunger" in page
    assert "site identification" not in page  # one site: no site identification to see
    assert f"takes in the whole table under a clean dome ({CITED})" in page


def test_where_the_organization_has_another_site_the_form_names_the_site_identification(
    client, shift_manager, table, other_site
):
    client.force_login(shift_manager.user)
    assert "the table number, the site identification." in client.get(PAGE).content.decode()


def test_the_form_unticked_opens_the_outage_and_the_page_shows_each_answer(client, shift_manager, table, activity):
    client.force_login(shift_manager.user)
    with asked_before():
        form_post(client, table)  # an entry made before the question was asked
    ticked = form_post(client, table).content.decode()
    unticked = form_post(client, table, field_of_view=False).content.decode()
    old, complete, incomplete = ReviewLogEntry.objects.order_by("pk")
    assert (old.field_of_view, complete.field_of_view, incomplete.field_of_view) == (None, True, False)
    assert "opened for table" not in ticked and Outage.objects.count() == 1  # the ticked entry opened none
    outage = Outage.objects.get()
    assert f"ND 99-01.3-08-04(7): outage {outage.pk} opened for table 1 from this review" in unticked
    assert f"field of view incomplete or dome not clean ({CITED})" in outage.description
    assert "<th>Field of view</th>" in unticked
    column = [cells[5] for cells in log_cells(unticked)]  # newest first
    assert column == ["no", "yes", "—"]


def test_the_pdf_and_csv_show_the_answer_and_an_old_entry_reads_a_dash(
    client_for, cast, shift_manager, site, table, activity
):
    api = client_for(shift_manager)
    with asked_before():
        assert review(api, table).status_code == 201  # before the question was asked
    assert review(api, table, field_of_view=True).status_code == 201
    assert review(api, table, field_of_view=False).status_code == 201
    auditor_api = client_for(cast[Role.AUDITOR])
    run = run_report(auditor_api, kind="surveillance_log", site=site.pk, start=str(DAY), end=str(DAY))
    grid = next(g for g in pdf_tables(download(auditor_api, run)) if g[0][:2] == ["#", "Gaming date"])
    assert grid[0][6] == "Field of view"
    assert [row[6] for row in grid[1:]] == ["—", "yes", "NO"]
    rows = csv_rows(auditor_api, run)
    at = rows[0].index("Field of view")
    assert [r[at] for r in rows[1:] if r[0] == "log"] == ["—", "yes", "no"]


@pytest.mark.parametrize("code", ["WA-HB", "WA-BJ", "NY"])
def test_where_the_pack_does_not_state_it_nothing_new_appears(
    client, client_for, cast, shift_manager, dealer, site, code
):
    """The review log is kept there as the house's own control (its three checks): no box, no
    column, a value posted refused naming the field, the report without the column."""
    site.jurisdiction = code
    site.save()
    table = TableFactory(site=site, number=1, **TABLES[code])
    add_shift(table, dealer, local(2026, 2, 3, 19), local(2026, 2, 4, 1))
    api = client_for(shift_manager)
    refused = review(api, table, field_of_view=True)
    assert refused.status_code == 400
    assert refused.json()["field_of_view"][0].startswith("House control: the field of view is not a check")
    answer = review(api, table, clear_picture=False)
    assert answer.status_code == 201 and answer.json()["field_of_view"] is None
    assert "field of view" not in Outage.objects.get().description
    client.force_login(shift_manager.user)
    page = client.get(PAGE).content.decode()
    assert "field_of_view" not in page and "Field of view" not in page and "dome" not in page
    auditor_api = client_for(cast[Role.AUDITOR])
    run = run_report(auditor_api, kind="surveillance_log", site=site.pk, start=str(DAY), end=str(DAY))
    grid = next(g for g in pdf_tables(download(auditor_api, run)) if g[0][:2] == ["#", "Gaming date"])
    assert "Field of view" not in grid[0] and grid[0][6] == "Notes"
    assert "Field of view" not in csv_rows(auditor_api, run)[0]
