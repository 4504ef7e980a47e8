"""Twenty-one tournaments are North Dakota's (08-15): a site of another pack records none, and
is told so as a house control naming its own rules, never North Dakota's."""

import pytest
from django.core.exceptions import ValidationError

from cardroom.access import SESSION_KEY
from cardroom.models import Role
from tests.conformance.words import ND_WORDS, law_words_in
from tests.page_support import at_site

from .conftest import announce

# Game 21 as each pack's texts name it (packs.GameNames): never North Dakota's "twenty-one" elsewhere.
GAME = {"WA-HB": "blackjack", "WA-BJ": "blackjack", "NY": "Black Jack"}


@pytest.mark.parametrize("code", ["WA-HB", "WA-BJ", "NY"])
def test_another_packs_site_records_no_tournament(site, cast, code):
    site.jurisdiction = code
    site.save()
    with pytest.raises(ValidationError) as refusal:
        announce(cast[Role.SHIFT_MANAGER], site)
    message = refusal.value.message_dict["site"][0]
    assert message.startswith("House control: ") and f"define no {GAME[code]} tournament" in message
    assert not law_words_in(message, ND_WORDS), message


@pytest.mark.parametrize("code", ["WA-HB", "NY"])
def test_the_tournament_pages_cite_no_nd_rule_at_another_packs_site(client, cast, site, code):
    site.jurisdiction = code
    site.save()
    client.force_login(cast[Role.GAMING_MANAGER].user)
    session = client.session
    session[SESSION_KEY] = site.pk
    session.save()
    for url in ("/tournaments/", "/tournaments/new/"):
        page = client.get(url)
        assert page.status_code == 200, url
        text = page.content.decode()
        assert not law_words_in(text, ND_WORDS), (url, law_words_in(text, ND_WORDS))


def test_an_nd_tournament_cites_nd(client, cast, site, tournament):
    client.force_login(cast[Role.GAMING_MANAGER].user)
    text = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "ND 99-01.3-08-16(1)(e)" in text and "ND 99-01.3-08-15(1)" in text
    disclosure = client.get(f"/tournaments/{tournament.pk}/disclosure/").content.decode()
    assert "North Dakota Administrative Code chapter 99-01.3-08" in disclosure
    with pytest.raises(ValidationError) as refusal:
        announce(cast[Role.SHIFT_MANAGER], site, entry_fee_cents=20_001)
    assert refusal.value.message_dict["entry_fee_cents"][0].startswith("ND 99-01.3-08-15(1): ")


@pytest.mark.parametrize("code", ["WA-HB", "WA-BJ", "NY"])
def test_a_site_without_tournaments_is_offered_no_announcement_no_nd_fee_cap_nor_the_menu_or_report(
    client, cast, site, code
):
    """The list offered "Announce a tournament", and the form stated ND's $200 cap (08-15(1)),
    at a site whose pack has no tournament, only for the service to refuse it on submission."""
    site.jurisdiction = code
    site.save()
    browser = at_site(client, cast[Role.GAMING_MANAGER], site)
    listing = browser.get("/tournaments/").content.decode()
    assert 'id="announce"' not in listing and "$200.00" not in listing
    form = browser.get("/tournaments/new/")
    text = form.content.decode()
    assert form.status_code == 200 and 'id="announce-form"' not in text and "$200.00" not in text
    assert f"define no {GAME[code]} tournament" in text and "twenty-one" not in text.lower()
    posted = browser.post("/tournaments/new/", {"name": "Friday", "entry_fee_cents": "100.00"})
    assert posted.status_code == 400 and f"define no {GAME[code]} tournament" in posted.content.decode()
    assert f"{GAME[code][0].upper()}{GAME[code][1:]} tournaments" in listing  # the heading
    start = browser.get("/").content.decode()
    assert 'href="/tournaments/"' not in start
    reports = browser.get("/reports/").content.decode()
    assert "Tournament record" not in reports


def test_an_nd_site_keeps_the_announcement_its_cap_the_menu_and_the_report(client, cast, site):
    browser = at_site(client, cast[Role.GAMING_MANAGER], site)
    listing = browser.get("/tournaments/").content.decode()
    assert 'id="announce"' in listing and "ND 99-01.3-08-15(1)" in listing and "$200.00 per player" in listing
    assert 'id="announce-form"' in browser.get("/tournaments/new/").content.decode()
    assert 'href="/tournaments/"' in browser.get("/").content.decode()
    assert "Tournament record" in browser.get("/reports/").content.decode()
