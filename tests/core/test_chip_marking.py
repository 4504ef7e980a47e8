"""The organization's name on its chips: where a pack's chip law asks for it (North Dakota's
99-01.3-08-03(2): the organization's name, or a unique identification, on one side of each chip
and its value on the other), a chip without its marking is refused by the API, the setup form
and the admin alike, naming the field; elsewhere the marking is optional and nothing of North
Dakota's is said."""

import pytest
from django.urls import reverse
from django.utils.html import escape

from cardroom.models import ChipDenomination, Role
from tests.conformance.words import ND_WORDS, law_words_in
from tests.factories import OrganizationFactory, SiteFactory, make_chips, make_person
from tests.page_support import page

CITATION = "ND 99-01.3-08-03(2)"
MARKING = "Prairie Charities"
ASKED = ("the organization's name", "unique identification", "on one side", "value on the other")
# A $5 chip as the setup form is posted: the value in dollars, the active box ticked.
FORM = {"value_cents": "5", "primary_colour": "red", "edge_spots": "six solid edge spots", "edge_colour": "white",
        "active": "on"}  # fmt: skip


def says_the_rule(text: str) -> bool:
    return CITATION in text and all(words in text for words in ASKED)


@pytest.fixture(params=["WA-HB", "NY"])
def elsewhere(request, db):
    """(organization, gaming manager) of an organization whose only site is of another pack."""
    org = OrganizationFactory(name=f"{request.param} Charity")
    SiteFactory(organization=org, name=f"{request.param} Hall", jurisdiction=request.param)
    return org, make_person(org, Role.GAMING_MANAGER)


def admin_add(client, org, **values):
    url = reverse("admin:cardroom_chipdenomination_add")
    return client.post(url, {"organization": org.pk, **FORM, "value_cents": "500", **values})


# --- North Dakota: the marking is asked ----------------------------------------------------------


def test_the_api_refuses_a_north_dakota_chip_without_its_marking_naming_the_field_and_rule(client_for, manager):
    api = client_for(manager)
    refused = api.post("/api/v1/chip-denominations/", {"value_cents": 500}, format="json")
    assert refused.status_code == 400
    assert list(refused.json()) == ["marking"] and says_the_rule(refused.json()["marking"][0])
    assert not ChipDenomination.objects.exists()
    created = api.post("/api/v1/chip-denominations/", {"value_cents": 500, "marking": MARKING}, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["marking"] == MARKING
    assert ChipDenomination.objects.get(value_cents=500).marking == MARKING


def test_a_marking_of_spaces_is_no_marking(client_for, manager):
    refused = client_for(manager).post(
        "/api/v1/chip-denominations/", {"value_cents": 500, "marking": "   "}, format="json"
    )
    assert refused.status_code == 400 and says_the_rule(refused.json()["marking"][0])
    assert not ChipDenomination.objects.exists()


def test_the_setup_form_refuses_a_blank_marking_inline_then_lists_the_marking_given(client, manager):
    client.force_login(manager.user)
    assert 'name="marking"' in page(client.get("/setup/chips/new/"))
    refused = client.post("/setup/chips/new/", {**FORM, "marking": ""})
    assert refused.status_code == 400
    assert says_the_rule(refused.context["form"].errors["marking"][0])
    assert 'id="error-marking"' in page(refused) and CITATION in page(refused)
    assert not ChipDenomination.objects.exists()
    assert client.post("/setup/chips/new/", {**FORM, "marking": MARKING}).status_code == 302
    assert ChipDenomination.objects.get(value_cents=500).marking == MARKING
    listed = page(client.get("/setup/chips/"))
    assert "Marking" in listed and MARKING in listed


def test_the_admin_refuses_a_blank_marking_on_its_field(client, org, manager):
    client.force_login(manager.user)
    refused = admin_add(client, org, marking="")
    assert refused.status_code == 400
    assert says_the_rule(refused.context["adminform"].form.errors["marking"][0])
    assert not ChipDenomination.objects.exists()
    assert admin_add(client, org, marking=MARKING).status_code == 302
    assert ChipDenomination.objects.get(value_cents=500).marking == MARKING


def test_an_existing_chip_without_a_marking_changes_only_once_it_is_given(client, client_for, org, manager):
    """A chip recorded before its marking was (a row the migration left blank): changing its
    edge colour is refused, in the API and the form, until the marking is given with it; the
    chip keeps its value."""
    chip = ChipDenomination.objects.create(
        organization=org, value_cents=500, primary_colour="red", edge_spots="six solid edge spots", edge_colour="white"
    )
    url = f"/api/v1/chip-denominations/{chip.pk}/"
    refused = client_for(manager).patch(url, {"edge_colour": "blue"}, format="json")
    assert refused.status_code == 400 and says_the_rule(refused.json()["marking"][0])
    client.force_login(manager.user)
    inline = client.post(f"/setup/chips/{chip.pk}/", {**FORM, "edge_colour": "blue", "marking": ""})
    assert inline.status_code == 400
    assert list(inline.context["form"].errors) == ["marking"]
    assert says_the_rule(inline.context["form"].errors["marking"][0])
    assert 'id="error-marking"' in page(inline) and CITATION in page(inline)
    chip.refresh_from_db()
    assert (chip.edge_colour, chip.marking) == ("white", "")
    changed = client.post(f"/setup/chips/{chip.pk}/", {**FORM, "edge_colour": "blue", "marking": MARKING})
    assert changed.status_code == 302
    chip.refresh_from_db()
    assert (chip.value_cents, chip.edge_colour, chip.marking) == (500, "blue", MARKING)
    assert client_for(manager).patch(url, {"edge_colour": "white"}, format="json").status_code == 200


def test_the_chips_page_names_the_active_chips_with_no_marking_until_each_is_given(client, org, manager):
    """Rows from before the field: the page says what the nightly alert says (ND 99-01.3-08-03(2)),
    naming each active chip without a marking, and stops once it is given or the chip retired."""
    chips = make_chips(org)
    ChipDenomination.objects.filter(pk__in=[chips[500].pk, chips[2500].pk]).update(marking="")  # before the field
    client.force_login(manager.user)
    listed = page(client.get("/setup/chips/"))
    notice = listed.split('class="alert alert-warning py-2 setup-notice" role="alert">')[1].split("</div>")[0]
    assert notice == (
        "ND 99-01.3-08-03(2): each chip must bear the organization's name, or a unique identification of its "
        "chips, on one side; no marking is recorded for the active chips $5.00 (red), $25.00 (green). Record each "
        "chip's marking in the chips' setup (or retire a chip no longer issued)."
    )
    ChipDenomination.objects.filter(pk=chips[500].pk).update(marking=MARKING)
    ChipDenomination.objects.filter(pk=chips[2500].pk).update(active=False)
    assert "setup-notice" not in page(client.get("/setup/chips/"))


def test_a_chip_without_its_marking_may_still_be_retired(client_for, org, manager):
    """A chip retired is no longer issued: taking it out of use is not refused for the marking it
    was never recorded with (a row from before the field); putting it back in use is."""
    chip = make_chips(org)[200]
    ChipDenomination.objects.filter(pk=chip.pk).update(marking="")  # as a row from before the field
    url = f"/api/v1/chip-denominations/{chip.pk}/"
    assert client_for(manager).patch(url, {"active": False}, format="json").status_code == 200
    back = client_for(manager).patch(url, {"active": True}, format="json")
    assert back.status_code == 400 and says_the_rule(back.json()["marking"][0])
    chip.refresh_from_db()
    assert chip.active is False


# --- Elsewhere: the house decides -------------------------------------------------------------


def test_elsewhere_a_chip_without_a_marking_is_accepted_by_the_api_and_no_nd_rule_is_said(client_for, elsewhere):
    org, manager = elsewhere
    api = client_for(manager)
    chip = {"value_cents": 300, "primary_colour": "teal", "edge_spots": "six"}
    created = api.post("/api/v1/chip-denominations/", chip, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["marking"] == ""
    refused = api.post("/api/v1/chip-denominations/", {**chip, "value_cents": 0}, format="json")
    assert refused.status_code == 400 and "marking" not in refused.json()
    assert not law_words_in(str(created.json()) + str(refused.json()), ND_WORDS)
    assert ChipDenomination.objects.get(organization=org).marking == ""


def test_elsewhere_the_setup_form_saves_a_chip_without_a_marking(client, elsewhere):
    org, manager = elsewhere
    client.force_login(manager.user)
    form = {**FORM, "value_cents": "3", "primary_colour": "orange", "edge_colour": "", "marking": ""}
    answer = client.post("/setup/chips/new/", form)
    assert answer.status_code == 302, answer.context["form"].errors
    chip = ChipDenomination.objects.get(organization=org, value_cents=300)
    assert chip.marking == ""
    edited = client.post(f"/setup/chips/{chip.pk}/", {**form, "primary_colour": "purple"})
    assert edited.status_code == 302, edited.context["form"].errors
    chip.refresh_from_db()
    assert (chip.value_cents, chip.primary_colour, chip.marking) == (300, "purple", "")
    assert CITATION not in page(client.get("/setup/chips/"))


def test_elsewhere_the_form_promises_no_law_s_colours_and_asks_them_as_required(client, elsewhere):
    """Its help said "Blank: the colour the chip law prescribes" where no chip law prescribes one, and
    a blank was then refused as "This field cannot be blank": now the colour and edge spots are
    asked as required, with no promise, and a blank is refused on its field before the model."""
    org, manager = elsewhere
    client.force_login(manager.user)
    text = page(client.get("/setup/chips/new/"))
    assert "chip law prescribes" not in text and "chip law's default" not in text
    answer = client.post("/setup/chips/new/", {**FORM, "primary_colour": "", "edge_spots": ""})
    assert answer.status_code == 400
    errors = answer.context["form"].errors
    # a setup form: the house's control, the field named (core.forms.NamesTheRule), shown at the field
    for name in ("primary_colour", "edge_spots"):
        label = answer.context["form"][name].label
        said = f"House control: {label} is required; the record is not kept without it."
        assert errors[name] == [said] and escape(said) in page(answer)
    assert not ChipDenomination.objects.filter(organization=org).exists()


def test_in_north_dakota_a_blank_colour_takes_the_law_s_and_the_form_says_so(client, manager):
    client.force_login(manager.user)
    assert "Blank: the colour the chip law prescribes." in page(client.get("/setup/chips/new/"))
