"""A slip's purpose "Jar bar" is North Dakota's alone (ND 99-01.3-08-05(1): a fill and credit slip
"to temporarily transfer a chip tray to or from a table and jar bar"): offered and accepted at an
ND site; at a Washington house-banked or New York site neither offered on the slip form nor
accepted by the page or the API, refused on `purpose` naming the site's pack. A jar bar slip
already made keeps printing its purpose."""

import io

import pytest
from pypdf import PdfReader

from cardroom.models import Role
from floor.models import Slip
from floor.pdf_slips import build_slip_document, render_slip_pdf

from .conftest import FILL, pack_site, pack_table

PACK_NAMES = {"WA-HB": "Washington house-banked blackjack", "NY": "New York games of chance"}


@pytest.fixture(params=["ND", "WA-HB", "NY"])
def code(request):
    return request.param


@pytest.fixture
def site(org, code):
    return pack_site(org, code)


@pytest.fixture
def table(site, code):
    return pack_table(site, code)


def test_the_slip_form_offers_a_jar_bar_only_where_the_pack_states_one(client, cast, open_table, code):
    client.force_login(cast[Role.CASHIER].user)
    form = client.get("/floor/slips/new/fill/").content.decode()
    assert 'value="tray_transfer"' in form
    assert ('value="jar_bar"' in form) == (code == "ND") and ("Jar bar" in form) == (code == "ND")


def test_the_api_accepts_a_jar_bar_slip_only_where_the_pack_states_one(client_for, cast, open_table, site, code):
    api = client_for(cast[Role.CASHIER])
    response = api.post(
        "/api/v1/fill-slips/", {"table": open_table.pk, "chips": FILL, "purpose": "jar_bar"}, format="json"
    )
    if code == "ND":
        assert response.status_code == 201, response.json()
        assert Slip.objects.get().purpose == "jar_bar"
        return
    assert response.status_code == 400
    assert response.json() == {
        "purpose": [
            f"House control: purpose jar_bar is not a slip's purpose in {PACK_NAMES[code]}'s law ({site.name}); "
            "the purpose is regular or tray_transfer."
        ]
    }
    assert not Slip.objects.exists()
    tray = api.post(
        "/api/v1/fill-slips/", {"table": open_table.pk, "chips": FILL, "purpose": "tray_transfer"}, format="json"
    )
    assert tray.status_code == 201, tray.json()


def test_the_slip_page_refuses_a_jar_bar_inline_where_the_pack_states_none(client, cast, open_table, site, code):
    client.force_login(cast[Role.CASHIER].user)
    grid = {"table": open_table.pk, "purpose": "jar_bar", "qty_500": "2"}
    response = client.post("/floor/slips/new/fill/", grid)
    if code == "ND":
        assert response.status_code == 302 and Slip.objects.get().purpose == "jar_bar"
        return
    assert response.status_code == 400
    assert f"purpose jar_bar is not a slip&#x27;s purpose in {PACK_NAMES[code]}&#x27;s law" in response.content.decode()
    assert not Slip.objects.exists()


@pytest.mark.parametrize("code", ["ND"])
def test_a_jar_bar_slip_already_made_keeps_printing_its_purpose_under_another_pack(client_for, cast, open_table, site):
    api = client_for(cast[Role.CASHIER])
    made = api.post("/api/v1/fill-slips/", {"table": open_table.pk, "chips": FILL, "purpose": "jar_bar"}, format="json")
    assert made.status_code == 201, made.json()
    site.jurisdiction = "WA-HB"  # the site's pack changed after the slip was made
    site.save()
    slip = Slip.objects.select_related("site").get()
    pdf = render_slip_pdf(build_slip_document(slip, generated_by="Pat Manager"))
    text = " ".join(" ".join((page.extract_text() or "").split()) for page in PdfReader(io.BytesIO(pdf)).pages)
    assert text.count("Purpose Jar bar") == 2  # the ORIGINAL and the COPY
