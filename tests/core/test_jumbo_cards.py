"""ND 99-01.3-08-02(3): "The cards must be the same size, shape, design, and be jumbo-faced. However,
if a mechanical or electronic hole card reader is used on a table, cards that are not jumbo-faced
may be used provided that the organization has received approval from the attorney general."

A North Dakota table's `jumbo_faced_cards` (ticked by default) and `non_jumbo_approval` (the
approval's reference and date, as the organization records it), set through the API, the setup
form and the admin. Cards that are not jumbo-faced are refused unless the table deals by the
Hole-Card-with-Card-Reading-Device method and the approval is recorded, the refusal naming the
field, citing the rule and saying which of the two is missing, nothing written; a change of
dealing method that leaves such a table without its reader is refused the same way. A reader's
malfunction (08-10(1)(c)(5)) is never refused for the cards. At a Washington or New York site both
are another pack's options: not shown, and refused."""

import pytest
from django.core.exceptions import ValidationError
from django.utils.html import escape

from cardroom.models import Game, Table
from core.models import AuditEvent

from .test_table_options import PACKS, as_posted, body

FIELD = "jumbo_faced_cards"
APPROVAL = "non_jumbo_approval"
RULE = "ND 99-01.3-08-02(3): "
READER = {"dealing_method": "card_reader"}
APPROVED = {APPROVAL: "AG letter G-2026-114, 2026-10-05"}
NO_READER = "Twenty-one table 1 deals by the Hole-Card-No-Peek method (no card reader)"
NO_APPROVAL = "has no approval of the attorney general recorded for its cards"
# (what is sent with cards that are not jumbo-faced, words the refusal has, words it has not)
REFUSALS = {
    "no card reader": (APPROVED, NO_READER, NO_APPROVAL),
    "no approval": (READER, f"Twenty-one table 1 {NO_APPROVAL}", "no card reader"),
    "neither": ({}, f"{NO_READER} and {NO_APPROVAL}", None),
}


def refusal(answer, field=FIELD) -> str:
    assert answer.status_code == 400, answer.content
    assert list(answer.json()) == [field], answer.json()
    return answer.json()[field][0]


def says(message: str, case: str) -> bool:
    _, words, not_said = REFUSALS[case]
    return message.startswith(RULE) and words in message and (not_said is None or not_said not in message)


def test_a_table_has_jumbo_faced_cards_unless_told_otherwise(client_for, manager, site):
    created = client_for(manager).post("/api/v1/tables/", body(site, "ND"), format="json")
    assert created.status_code == 201, created.json()
    assert (created.json()[FIELD], created.json()[APPROVAL]) == (True, "")
    assert Table.objects.get(pk=created.json()["id"]).jumbo_faced_cards is True


def test_the_api_takes_cards_not_jumbo_faced_with_the_reader_and_the_approval(client_for, manager, site):
    api = client_for(manager)
    created = api.post("/api/v1/tables/", body(site, "ND", **READER, **APPROVED, **{FIELD: False}), format="json")
    assert created.status_code == 201, created.json()
    table = Table.objects.get(pk=created.json()["id"])
    assert (table.jumbo_faced_cards, table.non_jumbo_approval) == (False, APPROVED[APPROVAL])
    read = api.get(f"/api/v1/tables/{table.pk}/").json()
    assert (read[FIELD], read[APPROVAL]) == (False, APPROVED[APPROVAL])
    back = api.patch(f"/api/v1/tables/{table.pk}/", {FIELD: True}, format="json")
    assert back.status_code == 200 and Table.objects.get(pk=table.pk).jumbo_faced_cards is True


@pytest.mark.parametrize("case", list(REFUSALS))
def test_the_api_refuses_cards_not_jumbo_faced_saying_what_is_missing(client_for, manager, site, case):
    more = REFUSALS[case][0]
    api = client_for(manager)
    events = AuditEvent.objects.count()
    message = refusal(api.post("/api/v1/tables/", body(site, "ND", **more, **{FIELD: False}), format="json"))
    assert says(message, case), message
    assert not Table.objects.filter(site=site).exists() and AuditEvent.objects.count() == events
    table_id = api.post("/api/v1/tables/", body(site, "ND", **more), format="json").json()["id"]
    events = AuditEvent.objects.count()
    message = refusal(api.patch(f"/api/v1/tables/{table_id}/", {FIELD: False, "min_wager_cents": 200}, format="json"))
    assert says(message, case), message
    table = Table.objects.get(pk=table_id)
    assert (table.jumbo_faced_cards, table.min_wager_cents) == (True, 100) and AuditEvent.objects.count() == events


def test_a_blank_approval_is_no_approval_on_every_path(site):
    """The API and the forms trim what they are sent; the rule itself reads spaces as nothing too."""
    table = Table(site=site, number=1, min_wager_cents=100, max_wager_cents=2500, **READER, **{FIELD: False})
    table.non_jumbo_approval = "   "
    with pytest.raises(ValidationError) as refused:
        table.full_clean()
    assert list(refused.value.message_dict) == [FIELD] and says(refused.value.message_dict[FIELD][0], "no approval")


def test_a_paddlewheel_deals_no_cards_so_they_are_not_asked_of_it(site):
    Table(
        site=site, number=1, game=Game.PADDLEWHEEL, min_wager_cents=100, max_wager_cents=2500, **{FIELD: False}
    ).full_clean()


def test_a_table_with_cards_not_jumbo_faced_keeps_its_reader_and_its_approval(client_for, manager, site):
    """Dealing by another method, at the table or at the whole site (08-10(1): one method at a
    site), or clearing the approval, is refused naming the cards: the table goes back to
    jumbo-faced cards first."""
    api = client_for(manager)
    sent = body(site, "ND", **READER, **APPROVED, **{FIELD: False})
    table_id = api.post("/api/v1/tables/", sent, format="json").json()["id"]
    events = AuditEvent.objects.count()
    changed = refusal(api.patch(f"/api/v1/tables/{table_id}/", {"dealing_method": "no_peek"}, format="json"))
    assert says(changed, "no card reader"), changed
    cleared = refusal(api.patch(f"/api/v1/tables/{table_id}/", {APPROVAL: ""}, format="json"))
    assert says(cleared, "no approval"), cleared
    whole_site = refusal(api.patch(f"/api/v1/sites/{site.pk}/", {"dealing_method": "no_hole_card"}, format="json"))
    assert whole_site.startswith(RULE) and "deals by the No-Hole-Card method (no card reader)" in whole_site
    table = Table.objects.get(pk=table_id)
    assert (table.dealing_method, table.non_jumbo_approval) == ("card_reader", APPROVED[APPROVAL])
    assert AuditEvent.objects.count() == events
    both = api.patch(f"/api/v1/tables/{table_id}/", {"dealing_method": "no_peek", FIELD: True}, format="json")
    assert both.status_code == 200 and both.json()["dealing_method"] == "no_peek"


def test_a_card_readers_malfunction_is_never_refused_for_the_cards(client_for, manager, site):
    """08-10(1)(c)(5): the reader out of order, the table deals no-peek or no-hole-card meanwhile;
    recorded when it happens, mid-shift, it is taken, and so is the repair."""
    api = client_for(manager)
    sent = body(site, "ND", **READER, **APPROVED, **{FIELD: False})
    table_id = api.post("/api/v1/tables/", sent, format="json").json()["id"]
    broken = {"card_reader_malfunction": True, "dealing_method": "no_hole_card"}
    assert api.patch(f"/api/v1/tables/{table_id}/", broken, format="json").status_code == 200
    table = Table.objects.get(pk=table_id)
    assert (table.card_reader_malfunction, table.dealing_method) == (
        True,
        "no_hole_card",
    ) and not table.jumbo_faced_cards
    repaired = {"card_reader_malfunction": False, "dealing_method": "card_reader"}
    assert api.patch(f"/api/v1/tables/{table_id}/", repaired, format="json").status_code == 200


def new_table_form(client, site, **more) -> dict:
    answer = client.get("/setup/tables/new/")
    form = as_posted(
        {**{name: bound.value() for name, bound in answer.context["form"]._bound_items()}, **body(site, "ND", **more)}
    )
    form["min_wager_cents"], form["max_wager_cents"] = "1", "25"  # the form takes dollars
    form.pop(FIELD)  # an unticked box is not posted
    return form


def test_the_setup_form_shows_the_cards_in_a_gaming_managers_words_and_takes_them(client, manager, site):
    client.force_login(manager.user)
    page = client.get("/setup/tables/new/").content.decode()
    assert f'name="{FIELD}"' in page and f'name="{APPROVAL}"' in page
    assert "Jumbo-faced cards" in page and "Approval of non-jumbo cards (attorney general&#x27;s reference" in page
    saved = client.post("/setup/tables/new/", new_table_form(client, site, **READER, **APPROVED))
    assert saved.status_code == 302, saved.context["form"].errors
    table = Table.objects.get(site=site, number=1)
    assert (table.jumbo_faced_cards, table.non_jumbo_approval) == (False, APPROVED[APPROVAL])


@pytest.mark.parametrize("case", list(REFUSALS))
def test_the_setup_form_refuses_them_inline_citing_the_rule(client, manager, site, case):
    client.force_login(manager.user)
    refused = client.post("/setup/tables/new/", new_table_form(client, site, **REFUSALS[case][0]))
    assert refused.status_code == 400
    errors = refused.context["form"].errors
    assert list(errors) == [FIELD] and len(errors[FIELD]) == 1 and says(errors[FIELD][0], case), errors
    assert f'id="error-{FIELD}"' in refused.content.decode() and escape(errors[FIELD][0]) in refused.content.decode()
    assert not Table.objects.filter(site=site).exists()


def test_the_admin_shows_the_cards_and_refuses_them_without_the_reader(client, client_for, manager, site):
    table_id = client_for(manager).post("/api/v1/tables/", body(site, "ND", **APPROVED), format="json").json()["id"]
    client.force_login(manager.user)
    address = f"/admin/cardroom/table/{table_id}/change/"
    answer = client.get(address)
    form = as_posted({name: bound.value() for name, bound in answer.context["adminform"].form._bound_items()})
    page = answer.content.decode()
    assert f'name="{FIELD}"' in page and f'name="{APPROVAL}"' in page
    unticked = {name: value for name, value in form.items() if name != FIELD}
    refused = client.post(address, unticked)
    assert refused.status_code == 400
    errors = refused.context["adminform"].form.errors[FIELD]
    assert says(errors[0], "no card reader"), errors
    assert Table.objects.get(pk=table_id).jumbo_faced_cards is True
    saved = client.post(address, {**unticked, **READER}, follow=True)
    assert saved.redirect_chain, saved.context["adminform"].form.errors
    assert Table.objects.get(pk=table_id).jumbo_faced_cards is False


@pytest.mark.parametrize("code", ["WA-HB", "WA-BJ", "NY"])
@pytest.mark.parametrize(("name", "value", "posted"), [(FIELD, False, ""), (APPROVAL, "AG 1", "AG 1")])
def test_another_packs_site_has_no_jumbo_cards_option(
    client, client_for, manager, pack_site, code, name, value, posted
):
    site = pack_site(code)
    api = client_for(manager)
    message = refusal(api.post("/api/v1/tables/", body(site, code, **{name: value}), format="json"), name)
    assert message == (
        f'House control: "{name}" is not a table option at {site} ({site.get_jurisdiction_display()} rules); '
        "leave it out."
    )
    assert not Table.objects.filter(site=site).exists()
    created = api.post("/api/v1/tables/", body(site, code), format="json")
    assert created.status_code == 201 and FIELD not in created.json() and APPROVAL not in created.json()
    table_id = created.json()["id"]
    assert not {FIELD, APPROVAL} & set(api.get(f"/api/v1/tables/{table_id}/").json())
    patched = api.patch(f"/api/v1/tables/{table_id}/", {name: value}, format="json")
    assert refusal(patched, name).startswith("House control: ")
    table = Table.objects.get(pk=table_id)
    assert (table.jumbo_faced_cards, table.non_jumbo_approval) == (True, "")
    client.force_login(manager.user)
    page = client.get("/setup/tables/new/")
    assert FIELD not in page.content.decode() and "Jumbo-faced" not in page.content.decode()
    form = as_posted({name: bound.value() for name, bound in page.context["form"]._bound_items()})
    form.update(body(site, code, number=2))
    form["min_wager_cents"], form["max_wager_cents"] = "1", str(PACKS[code][0]["max_wager_cents"] // 100)
    if "min_bank_cents" in PACKS[code][0]:
        form["min_bank_cents"] = str(PACKS[code][0]["min_bank_cents"] // 100)
    refused = client.post("/setup/tables/new/", {**form, name: posted})
    assert refused.status_code == 400 and f"&quot;{name}&quot; is not a table option" in refused.content.decode()
    assert not Table.objects.filter(site=site, number=2).exists()
    admin = client.get(f"/admin/cardroom/table/{table_id}/change/").content.decode()
    assert f'name="{FIELD}"' not in admin and f'name="{APPROVAL}"' not in admin


def test_a_lone_table_without_a_reader_cannot_claim_its_malfunction_for_the_cards(client_for, manager, site):
    """The loophole the malfunction would open: a lone table that never dealt by a reader, its cards
    not jumbo-faced and an approval recorded, saying its (absent) reader is out of order. The
    malfunction is refused, on creation and on a change, naming its field and rule; nothing saved."""
    api = client_for(manager)
    events = AuditEvent.objects.count()
    claimed = {"card_reader_malfunction": True, "dealing_method": "no_peek", **APPROVED, FIELD: False}
    created = refusal(
        api.post("/api/v1/tables/", body(site, "ND", **claimed), format="json"), "card_reader_malfunction"
    )
    assert created.startswith("ND 99-01.3-08-10(1)(c)(5): ") and "is new" in created
    table_id = api.post("/api/v1/tables/", body(site, "ND"), format="json").json()["id"]
    changed = refusal(api.patch(f"/api/v1/tables/{table_id}/", claimed, format="json"), "card_reader_malfunction")
    assert "deals by the Hole-Card-No-Peek method" in changed
    table = Table.objects.get(pk=table_id)
    assert (table.card_reader_malfunction, table.jumbo_faced_cards) == (False, True)
    assert AuditEvent.objects.count() == events + 1  # the one table created, nothing more
