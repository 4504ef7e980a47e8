"""Game 21 by each pack's own name (`packs.GameNames`): North Dakota's chapter says twenty-one,
Washington's texts blackjack, New York's 4620.5 Black Jack. A page, a slip PDF, a form's choices
and a message at a site read the site's pack's word, never the model's fixed label; the code
("21") stays the API's value."""

import io

import pytest
from pypdf import PdfReader

from accounting.books import differences
from cage.models import fund_choices
from cardroom.forms import TableForm
from cardroom.models import Role, Site, Table
from counts.rules import auditor_bar_message
from floor.models import Slip
from floor.pdf_slips import build_slip_document, render_slip_pdf
from tests.page_support import at_site

NAMES = {"ND": "Twenty-one", "WA-HB": "Blackjack", "WA-BJ": "Blackjack", "NY": "Black Jack"}


def as_pack(site, code: str) -> Site:
    site.jurisdiction = code
    site.save()
    return site


@pytest.mark.parametrize("code", ["ND", "WA-HB", "NY"])
def test_the_floor_page_names_the_tables_game_in_the_sites_packs_words(client, cast, site, open_table, code):
    as_pack(site, code)
    text = at_site(client, cast[Role.GAMING_MANAGER], site).get("/floor/").content.decode()
    assert f'<td data-label="Game">{NAMES[code]}</td>' in text
    assert ("twenty-one" in text.lower()) == (code == "ND")


# The game as a slip names it: North Dakota's reference to twenty-one (21) beside its name (ND
# 99-01.3-08-05(3)(a)); Washington's and New York's texts ask for no code, so the name only.
SLIP_GAMES = {"ND": "21 (Twenty-one)", "WA-HB": "Blackjack", "NY": "Black Jack"}


@pytest.mark.parametrize("code", ["ND", "WA-HB", "NY"])
def test_a_slip_pdf_names_game_21_in_the_sites_packs_words(site, fill, code):
    as_pack(site, code)
    slip = Slip.objects.select_related("site").get(pk=fill.pk)
    pdf = render_slip_pdf(build_slip_document(slip, generated_by="Pat Manager"))
    text = " ".join(" ".join((page.extract_text() or "").split()) for page in PdfReader(io.BytesIO(pdf)).pages)
    assert text.count(f"Game {SLIP_GAMES[code]} Site") == 2  # the ORIGINAL and the COPY
    assert ("Game 21" in text) == (code == "ND") and ("21 (" in text) == (code == "ND")
    assert ("twenty-one" in text.lower()) == (code == "ND")


@pytest.mark.parametrize("code", ["ND", "WA-HB", "NY"])
def test_the_slip_page_names_the_game_as_the_slip_does(client, cast, site, fill, code):
    as_pack(site, code)
    text = at_site(client, cast[Role.GAMING_MANAGER], site).get(f"/floor/slips/{fill.pk}/").content.decode()
    assert f'<span id="slip-game">{SLIP_GAMES[code]}</span> table 1' in text


@pytest.mark.parametrize("code", ["ND", "WA-HB", "WA-BJ", "NY"])
def test_the_table_form_the_table_itself_and_the_iou_funds_use_the_packs_name(site, table, code):
    as_pack(site, code)
    table = Table.objects.get(pk=table.pk)
    assert str(table) == f"{NAMES[code]} table 1" and table.game == "21"
    form = TableForm(instance=table, sites=Site.objects.filter(pk=site.pk))
    assert ("21", NAMES[code]) in form.fields["game"].choices
    # A fees-only site (WA-BJ) holds no house chips: its bank is a cash bank.
    bank = "cash bank" if code == "WA-BJ" else "cash and chip bank"
    assert ("bank", f"{NAMES[code]} {bank}") in fund_choices(site)


def test_the_quarter_page_of_a_washington_site_has_a_blackjack_row_not_a_twenty_one_row(client, cast, site, table):
    as_pack(site, "WA-HB")
    text = at_site(client, cast[Role.GAMING_MANAGER], site).get("/dashboard/quarter/").content.decode()
    assert '<tr data-game="21"><th>Blackjack</th>' in text
    assert "twenty-one" not in text.lower()


@pytest.mark.parametrize("code", ["ND", "WA-HB", "NY"])
def test_a_figure_that_differs_from_the_closed_books_names_game_21_in_the_sites_packs_words(site, code):
    as_pack(site, code)
    then, now = {"twenty_one": {"drop_cents": 70_000}}, {"twenty_one": {"drop_cents": 75_000}}
    word = {"ND": "twenty-one", "WA-HB": "blackjack", "NY": "Black Jack"}[code]
    assert differences(then, now, "closed", site_id=site.pk) == (f"{word} drop: $700.00 closed, $750.00 now",)


@pytest.mark.parametrize("code", ["ND", "WA-BJ", "NY"])
def test_the_auditor_kept_off_the_count_team_audits_game_21_by_the_sites_packs_name(site, code):
    as_pack(site, code)
    word = {"ND": "twenty-one", "WA-BJ": "blackjack", "NY": "Black Jack"}[code]
    assert auditor_bar_message("Ann Lee", site, site.name) == (
        f"Ann Lee audits {word} at {site.name} and may not be on its count team."
    )
