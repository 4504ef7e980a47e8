"""9 NYCRR 4620.5(h): "The selection of the option shall be set forth in the license application in
schedule 7 of GC-2B. The license shall reflect one of the following options". The tie option is the
organization's licence's, for every table under it, not a table's own choice: at a New York site
the table forms (the setup page and the admin) show the licence's option read-only, citing (h);
a table takes it, and a value posted anyway that differs is refused at the field citing (h), in
the browser and in the API alike. The option is New York's: no North Dakota or Washington site's
form, admin list or API answer shows it. `pack_site` (tests/core/conftest.py) records the NY
licence NY-GC-1, tie option 1, as a New York site's tables follow it."""

import re

import pytest
from django.utils.html import escape

from approvals import services as approvals
from approvals.queries import site_today
from cardroom.models import Table
from core.citations import cite

from .test_table_options import as_posted, body

H = "9 NYCRR 4620.5(h)"
LICENCE_NOTE = (
    f"{H}: the licence (NY-GC-1, effective 2024-01-01) reflects tie option 1 (Option one: all ties are pushes); "
    "every table under it follows it. A change of option is a new licence (Approvals and licences)."
)


def tie_select(page: str) -> str:
    """The tie option's <select> as the page renders it, its options included."""
    found = re.search(r'<select name="tie_option".*?</select>', page, re.S)
    assert found, "no tie option on the page"
    return found.group(0)


def as_a_browser_posts(answer, **more) -> dict:
    """The form of `answer`'s page as a browser posts it: every field but a read-only one."""
    form = answer.context["form"]
    values = {name: bound.value() for name, bound in form._bound_items() if not bound.field.disabled}
    return {**as_posted(values), **more}


def new_table_form(client, site) -> dict:
    """A New York table 1 within 4620.5 ((a)(2) decks, (f)(2) the $5 maximum) as posted."""
    answer = client.get("/setup/tables/new/")
    assert answer.status_code == 200
    return as_a_browser_posts(answer, number="1", decks="4", min_wager_cents="1", max_wager_cents="5")


def test_the_new_york_table_form_shows_the_licences_tie_option_read_only_citing_h(client, manager, pack_site):
    site = pack_site("NY")
    client.force_login(manager.user)
    answer = client.get("/setup/tables/new/")
    field = answer.context["form"].fields["tie_option"]
    assert field.disabled and field.help_text == LICENCE_NOTE
    page = answer.content.decode()
    select = tie_select(page)
    assert " disabled" in select.split(">")[0] and '<option value="1" selected>' in select
    assert escape(LICENCE_NOTE) in page
    # The admin's table form at the site says the same.
    added = client.get(f"/admin/cardroom/table/add/?site={site.pk}").content.decode()
    assert " disabled" in tie_select(added).split(">")[0] and escape(LICENCE_NOTE) in added
    # Posted as a browser posts it (no read-only field), the table takes the licence's option.
    saved = client.post("/setup/tables/new/", new_table_form(client, site))
    assert saved.status_code == 302, saved.content.decode()[:3000]
    table = Table.objects.get(site=site, number=1)
    assert (table.tie_option, table.blackjack_payout) == (1, "3:2")
    # The admin's list of the organization's tables has the column at a New York site.
    assert "column-tie_option" in client.get("/admin/cardroom/table/").content.decode()


def test_a_table_recorded_under_the_old_licence_takes_the_new_ones_option_on_its_next_save(
    client, client_for, manager, pack_site
):
    """A change of option is a new licence (h): the table's form shows the new licence's option,
    saying the table was recorded with another, and the save takes it (with the natural's payout
    (h)(2) asks under it)."""
    site = pack_site("NY")
    table_id = client_for(manager).post("/api/v1/tables/", body(site, "NY"), format="json").json()["id"]
    new_licence(manager, site, tie_option=3)
    client.force_login(manager.user)
    answer = client.get(f"/setup/tables/{table_id}/")
    field = answer.context["form"].fields["tie_option"]
    assert field.disabled and field.help_text.startswith(f"{H}: the licence (NY-GC-2, effective ")
    assert "reflects tie option 3 (Option three: the house wins all ties)" in field.help_text
    assert field.help_text.endswith("This table was recorded with 1: saving it takes the licence's.")
    assert '<option value="3" selected>' in tie_select(answer.content.decode())
    saved = client.post(f"/setup/tables/{table_id}/", as_a_browser_posts(answer, blackjack_payout="2:1"))
    assert saved.status_code == 302, saved.content.decode()[:3000]
    assert Table.objects.get(pk=table_id).tie_option == 3


# A value the licence does not reflect: another of (h)'s options, and one (h) does not offer.
POSTED = [
    ("3", "the licence (NY-GC-1, effective 2024-01-01) reflects tie option 1 (Option one: all ties are pushes); "
          "every table under it follows it (this table: 3)"),
    ("4", "the licence reflects one of the options 1, 2 or 3 (got 4)"),
]  # fmt: skip


@pytest.mark.parametrize(("posted", "named"), POSTED, ids=["another-option", "no-option-of-h"])
def test_a_tie_option_posted_against_the_licence_is_refused_at_the_field_citing_h(
    client, manager, pack_site, posted, named
):
    """A value posted anyway for the read-only option (a browser posts none) is refused, not
    replaced: at the field, citing (h), and the page shown again offers the licence's option only."""
    site = pack_site("NY")
    client.force_login(manager.user)
    refused = client.post("/setup/tables/new/", {**new_table_form(client, site), "tie_option": posted})
    assert refused.status_code == 400
    errors = refused.context["form"].errors["tie_option"]
    assert errors and all(error.startswith(H) for error in errors), errors
    assert any(named in error for error in errors), errors
    page = refused.content.decode()
    assert 'id="error-tie_option"' in page and "House control" not in page.split('id="error-tie_option"')[1][:600]
    select = tie_select(page)
    assert " disabled" in select.split(">")[0] and '<option value="1" selected>' in select
    assert not Table.objects.filter(site=site).exists()


def test_the_api_refuses_a_tie_option_the_licence_does_not_reflect_citing_h(client_for, manager, pack_site):
    """Through the API as on the page: a value the licence does not reflect is refused at the field
    citing (h), one (h) does not offer (4) too, not as a bare list of choices (House control); a
    table not given the option takes the licence's; the schema says the option is the licence's."""
    site = pack_site("NY")
    api = client_for(manager)
    given = {name: value for name, value in body(site, "NY").items() if name != "tie_option"}
    for posted, named in POSTED:
        refused = api.post("/api/v1/tables/", {**given, "tie_option": int(posted)}, format="json")
        assert refused.status_code == 400
        messages = refused.json()["tie_option"]
        assert messages and all(message.startswith(H) for message in messages), messages
        assert any(named in message for message in messages), messages
    assert not Table.objects.filter(site=site).exists()
    created = api.post("/api/v1/tables/", given, format="json")
    assert created.status_code == 201, created.json()
    assert (created.json()["tie_option"], created.json()["blackjack_payout"]) == (1, "3:2")
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    described = schema["components"]["schemas"]["TableInputRequest"]["properties"]["tie_option"]["description"]
    assert "licence" in described and "refused" in described


@pytest.mark.parametrize("code", ["ND", "WA-HB", "WA-BJ"])
def test_no_other_packs_site_shows_or_takes_a_tie_option(client, client_for, manager, pack_site, code):
    site = pack_site(code)
    api = client_for(manager)
    created = api.post("/api/v1/tables/", body(site, code, number=2), format="json")
    assert created.status_code == 201 and "tie_option" not in created.json()
    refused = api.post("/api/v1/tables/", body(site, code, number=3, tie_option=4), format="json")
    assert refused.status_code == 400
    message = refused.json()["tie_option"][0]  # in the pack's own words (its rule of ties), never New York's
    assert message.startswith(f'{cite("table.tie_option", code)}: "tie_option" is not a table option at {site}')
    assert "NYCRR" not in message
    client.force_login(manager.user)
    for path in ("/setup/tables/new/", f"/setup/tables/{created.json()['id']}/", "/admin/cardroom/table/"):
        page = client.get(path).content.decode()
        assert 'name="tie_option"' not in page and "column-tie_option" not in page, path
        assert "4620.5" not in page and "Tie option" not in page, path


def new_licence(manager, site, *, tie_option: int) -> None:
    """A change of option is a new licence (h): NY-GC-2, in force from the site's date today."""
    approvals.record_licence(
        acting_user=manager.user,
        organization=site.organization,
        licence_number="NY-GC-2",
        tie_option=tie_option,
        effective_on=site_today(site),
    )


def payout_select(page: str) -> str:
    found = re.search(r'<select name="blackjack_payout".*?</select>', page, re.S)
    assert found, "no payout on the page"
    return found.group(0)


def test_the_naturals_payout_follows_the_licences_tie_option_read_only_citing_h2(client, manager, pack_site):
    """9 NYCRR 4620.5(h)(2): the natural's payout follows from the tie option (option one pays 3 to
    2, options two and three 2 to 1). The form offered every payout, each but one refused on
    submit; it shows the one the licence's option gives, read-only, citing (h)(2), and a table
    recorded under the old licence takes the new one's payout when saved. One posted anyway that
    differs is refused at the field citing (h)(2)."""
    site = pack_site("NY")
    client.force_login(manager.user)
    answer = client.get("/setup/tables/new/")
    field = answer.context["form"].fields["blackjack_payout"]
    note = f"{H}(2): follows from the licence's tie option 1."
    assert field.disabled and field.help_text == note, field.help_text
    select = payout_select(answer.content.decode())
    assert " disabled" in select.split(">")[0] and '<option value="3:2" selected>' in select
    refused = client.post("/setup/tables/new/", {**new_table_form(client, site), "blackjack_payout": "2:1"})
    assert refused.status_code == 400 and not Table.objects.filter(site=site).exists()
    assert refused.context["form"].errors["blackjack_payout"][0].startswith(f"{H}(2): ")
    assert client.post("/setup/tables/new/", new_table_form(client, site)).status_code == 302
    table = Table.objects.get(site=site, number=1)
    new_licence(manager, site, tie_option=2)
    answer = client.get(f"/setup/tables/{table.pk}/")
    field = answer.context["form"].fields["blackjack_payout"]
    assert (
        field.help_text
        == f"{H}(2): follows from the licence's tie option 2. This table was recorded with 3:2: saving it takes this."
    )
    assert '<option value="2:1" selected>' in payout_select(answer.content.decode())
    assert client.post(f"/setup/tables/{table.pk}/", as_a_browser_posts(answer)).status_code == 302
    table.refresh_from_db()
    assert (table.tie_option, table.blackjack_payout) == (2, "2:1")
