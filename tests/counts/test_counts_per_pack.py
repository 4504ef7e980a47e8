"""The count's rules at a site of another pack (issue 32): at a Washington house-banked or a New
York site the drop box and the two-person count keep applying as house controls, and every
refusal, page and sheet cites "House control", never North Dakota's 08-14; a Washington
blackjack (fees only) site keeps no drop box at all, citing WAC 230-40-125(1). North Dakota's
words are unchanged (the other count tests)."""

import pytest
import time_machine
from django.core.exceptions import ValidationError

from cardroom.models import Role
from counts import services
from counts.models import CountEntry, DropBox
from counts.pdf import build_count_sheet
from tests.conformance.words import ND_WORDS, law_words_in
from tests.factories import OrganizationFactory, TableFactory, make_person

from .conftest import COUNT_TIME, GAMING_DATE, remove_box

FEES_RULE = "WAC 230-40-125(1) (1999 proposed amendment)"


def nd_words_in(text: str) -> list[str]:
    """Each North Dakota word found, with what stands around it (tests/conformance/words.py: as
    words, never inside a page's random tokens)."""
    return law_words_in(text, ND_WORDS)


def speaks_no_nd(text: str) -> bool:
    return not nd_words_in(text)


@pytest.fixture(params=["WA-HB", "NY"])
def elsewhere(request, site):
    """The test's site, run under another pack than North Dakota's (before any record is made)."""
    site.jurisdiction = request.param
    site.save()
    return site


def messages(refused) -> str:
    return " ".join(m for ms in refused.value.message_dict.values() for m in ms)


def test_the_count_team_rule_is_a_house_control_elsewhere(elsewhere, client_for, counters, removed):
    counters[1].supervisor = counters[0]
    counters[1].save()
    response = client_for(counters[0]).post(
        "/api/v1/count-sessions/",
        {"site": elsewhere.pk, "gaming_date": str(GAMING_DATE), "members": [c.pk for c in counters]},
        format="json",
    )
    assert response.status_code == 400
    text = str(response.json())
    assert "House control: " in text and "supervisor and subordinate" in text and speaks_no_nd(text)


def test_removal_and_key_refusals_cite_house_control_elsewhere(elsewhere, shift_manager, boxes, counters, org):
    with pytest.raises(ValidationError) as refused:
        remove_box(shift_manager, boxes[0], counters[0], storage_place="")
    assert messages(refused).startswith("House control: say where the box is stored") and speaks_no_nd(
        messages(refused)
    )
    stranger = make_person(org, Role.DEALER, elsewhere)
    with pytest.raises(ValidationError) as refused:
        remove_box(shift_manager, boxes[0], stranger)
    assert messages(refused).startswith("House control: the key to the box's contents") and speaks_no_nd(
        messages(refused)
    )


def test_a_drop_box_numbered_off_its_table_is_refused_as_a_house_control(elsewhere, manager, tables):
    with pytest.raises(ValidationError) as refused:
        services.register_drop_box(acting_user=manager.user, table=tables[0], number=9)
    assert messages(refused).startswith("House control: a drop box must have the number of its table")


def test_signing_an_unfinished_count_cites_house_control_and_the_sheet_too(elsewhere, counters, session):
    with pytest.raises(ValidationError) as refused:
        services.sign_count(acting_user=counters[0].user, session=session, at=COUNT_TIME)
    assert messages(refused).startswith("House control: ") and speaks_no_nd(messages(refused))
    assert build_count_sheet(session).citation == "House control"


def test_a_mistyped_quantity_cites_house_control_elsewhere(elsewhere, client, client_for, counters, session, boxes):
    client.force_login(counters[0].user)
    with time_machine.travel(COUNT_TIME, tick=False):
        page = client.post(f"/counts/sessions/{session.pk}/boxes/{boxes[0].pk}/count/", {"q_bill_10000": "2.5"})
        api = client_for(counters[1]).post(
            f"/api/v1/count-sessions/{session.pk}/counts/",
            {"box": boxes[0].pk, "currency": [{"denomination_cents": 10000, "quantity": "x"}]},
            format="json",
        )
    words = "House control: the quantity of $100 bills must be a whole number, zero or more"
    assert page.status_code == 400 and words in page.content.decode()
    assert api.status_code == 400 and api.json()["currency"][0].startswith(words)
    assert speaks_no_nd(page.content.decode()) and speaks_no_nd(str(api.json()))
    assert not CountEntry.objects.exists()


def test_the_count_pages_speak_no_north_dakota_elsewhere(elsewhere, client, counters, session, shift_manager):
    client.force_login(counters[0].user)
    for url in ("/counts/", f"/counts/sessions/{session.pk}/"):
        page = client.get(url).content.decode()
        assert "House control" in page, url
        assert speaks_no_nd(page), (url, nd_words_in(page))
    client.force_login(shift_manager.user)
    page = client.get("/counts/boxes/").content.decode()
    assert speaks_no_nd(page)


def test_north_dakota_keeps_its_words(client, counters, session):
    client.force_login(counters[0].user)
    page = client.get(f"/counts/sessions/{session.pk}/").content.decode()
    assert (
        "ND 99-01.3-08-14(4)" in page and "WAC 2" not in page and "NYCRR " not in page
    )  # a citation, not a CSRF token's letters
    assert build_count_sheet(session).citation == "ND 99-01.3-08-14(4)"


# --- Washington blackjack: the house's revenue is its fees ----------------------------------------


@pytest.fixture
def fees_site(site):
    site.jurisdiction = "WA-BJ"
    site.save()
    return site


def test_a_fees_only_site_registers_no_drop_box(fees_site, client_for, manager):
    table = TableFactory(site=fees_site, number=1, max_wager_cents=2500)
    response = client_for(manager).post("/api/v1/drop-boxes/", {"table": table.pk}, format="json")
    assert response.status_code == 400
    text = response.json()["box"][0]
    assert text.startswith(f"{FEES_RULE}: the house's revenue here is the fees") and speaks_no_nd(text)
    assert not DropBox.objects.filter(site=fees_site).exists()


def test_a_fees_only_site_counts_no_drop(fees_site, client_for, counters):
    response = client_for(counters[0]).post(
        "/api/v1/count-sessions/",
        {"site": fees_site.pk, "gaming_date": str(GAMING_DATE), "members": [c.pk for c in counters]},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["gaming_date"][0].startswith(f"{FEES_RULE}: ")


def test_a_fees_only_sites_count_pages_offer_no_box_or_count_form_and_say_why(fees_site, client, manager, counters):
    """The count pages offered to open a count, register and remove boxes and set the box
    exchange at a site whose pack keeps no drop box: each form only for the service to refuse it."""
    from html import unescape

    from cardroom.access import SESSION_KEY

    TableFactory(site=fees_site, number=1, max_wager_cents=2500)
    for person, pages in ((manager, ("/counts/boxes/", "/counts/drop-boxes/")), (counters[0], ("/counts/",))):
        client.force_login(person.user)
        session = client.session
        session[SESSION_KEY] = fees_site.pk
        session.save()
        for url in pages:
            page = client.get(url)
            html = unescape(page.content.decode())
            assert page.status_code == 200, url
            assert 'id="fees-only"' in html and f"{FEES_RULE}: the house's revenue here is the fees" in html, url
            for form in ("open-session", "register-box", "remove-box", "box-exchange-form", "count-settings-form"):
                assert f'id="{form}"' not in html, (url, form)


def test_a_count_posted_at_a_fees_only_site_gets_the_packs_refusal_before_any_box_is_judged(
    fees_site, client, counters
):
    """A count team member's bad boxes (no such date, no such partner) at a site keeping no drop box:
    400 with the service's refusal alone (WAC 230-40-125(1)), said once, no box's error; no session."""
    from html import unescape

    from cardroom.access import SESSION_KEY
    from counts.models import CountSession

    client.force_login(counters[0].user)
    session = client.session
    session[SESSION_KEY] = fees_site.pk
    session.save()
    posted = client.post("/counts/", {"gaming_date": "not a date", "partner": "nobody"})
    html = unescape(posted.content.decode())
    notice = f"{FEES_RULE}: the house's revenue here is the fees collected at the table; it keeps no drop box"
    assert posted.status_code == 400 and not CountSession.objects.exists()
    assert 'id="error-gaming_date"><div>' + notice in html and html.count(notice) == 1
    assert html.count('id="error-') == 1 and "Enter a valid date" not in html


def test_a_drop_site_keeps_its_count_forms(site, client, manager, counters):
    from cardroom.access import SESSION_KEY

    TableFactory(site=site, number=1)
    client.force_login(manager.user)
    session = client.session
    session[SESSION_KEY] = site.pk
    session.save()
    boxes, settings = client.get("/counts/boxes/").content.decode(), client.get("/counts/drop-boxes/").content.decode()
    assert 'id="fees-only"' not in boxes + settings
    assert 'id="register-box"' in boxes and 'id="box-exchange-form"' in boxes and 'id="count-settings-form"' in settings


@pytest.mark.parametrize(
    ("jurisdiction", "rule"), [("ND", "ND 99-01.3-08-14(1)"), ("WA-HB", "House control"), ("NY", "House control")]
)
def test_the_escort_refusals_cite_the_removal_rule_at_the_site(
    site, shift_manager, boxes, counters, jurisdiction, rule
):
    """The escort who is the transporter himself, or of another organization, is refused citing
    the removal rule as the site's pack states it (it cited nothing)."""
    site.jurisdiction = jurisdiction
    site.save()
    stranger = make_person(OrganizationFactory(), Role.PIT_BOSS, None)
    for escort, words in (
        (shift_manager, "the escort is another employee than the shift manager transporting the box."),
        (stranger, "the escort must be an employee of this organization."),
    ):
        with pytest.raises(ValidationError) as refused:
            remove_box(shift_manager, boxes[0], counters[0], sole_employee_on_duty=False, escorted_by=escort)
        assert refused.value.message_dict == {"escorted_by": [f"{rule}: {words}"]}
        assert jurisdiction == "ND" or speaks_no_nd(messages(refused))


@pytest.fixture(params=[("ND", "ND 99-01.3-08-14(4)"), ("WA-HB", "House control"), ("NY", "House control")])
def count_rule_at(request, site):
    """The test's site under each pack keeping a drop box (before any record is made), and the
    count rule's citation there."""
    site.jurisdiction, rule = request.param
    site.save()
    return rule


def test_the_figures_and_forms_refusals_cite_the_count_rule_at_the_site(
    count_rule_at, client_for, counters, session, boxes
):
    """A denomination that is no US bill or coin, one listed twice, a form found of no slip kind or
    listed twice: each refused at its field citing the count rule as the site's pack states it
    (ND 99-01.3-08-14(4); House control where the pack states none), never another pack's law. They
    cited nothing."""
    rule = count_rule_at
    twenty = {"denomination_cents": 2000, "quantity": 1}
    cases = [
        ({"currency": [{"denomination_cents": 300, "quantity": 1}]}, "currency", "300 cents is not a US bill or coin"),
        ({"currency": [twenty, {**twenty, "quantity": 2}]}, "currency", "$20 bill is listed twice"),
        ({"forms": [{"kind": "marker", "number": 1}]}, "forms", "a form found is a fill slip copy or a credit slip"),
        ({"forms": [{"kind": "fill", "number": 4}] * 2}, "forms", "fill slip 4 is listed twice"),
    ]
    with time_machine.travel(COUNT_TIME, tick=False):
        for body, field, words in cases:
            answer = client_for(counters[0]).post(
                f"/api/v1/count-sessions/{session.pk}/counts/",
                {"box": boxes[0].pk, "currency": [twenty], "forms": [], **body},
                format="json",
            )
            assert answer.status_code == 400, (body, answer.content[:300])
            assert answer.json()[field][0].startswith(f"{rule}: {words}"), answer.json()
            if rule == "House control":
                assert speaks_no_nd(str(answer.json()))
    assert not CountEntry.objects.exists()
