"""A temporary special-event table is North Dakota's (ND 99-01.3-08-04, special events): the table
forms offer that location only where the site's pack states special events. At a New York or
Washington site the setup form offers "Regularly located" alone, saying why (House control); one
posted anyway, in the browser or the API, is refused at the field, nothing written. A table already
recorded with it keeps showing its value."""

import re

import pytest

from cardroom.models import Table
from core.models import AuditEvent

from .test_table_options import PACKS, as_posted, body

NOT_HERE = 'House control: {rules} rules state no special events, so a table at {site} is regularly located; "location"'


def location_select(page: str) -> str:
    found = re.search(r'<select name="location".*?</select>', page, re.S)
    assert found, "no location on the page"
    return found.group(0)


def posted_form(answer, site, code, **more) -> dict:
    form = answer.context["form"]
    values = {name: bound.value() for name, bound in form._bound_items() if not bound.field.disabled}
    form = as_posted({**values, **{k: v for k, v in body(site, code).items() if k != "tie_option"}, **more})
    form["min_wager_cents"], form["max_wager_cents"] = "1", str(PACKS[code][0]["max_wager_cents"] // 100)
    if "min_bank_cents" in PACKS[code][0]:
        form["min_bank_cents"] = str(PACKS[code][0]["min_bank_cents"] // 100)
    return form


@pytest.mark.parametrize("code", ["NY", "WA-HB", "WA-BJ"])
def test_a_site_whose_pack_states_no_special_events_is_offered_and_takes_no_special_event_table(
    client, client_for, manager, pack_site, code
):
    site = pack_site(code)
    client.force_login(manager.user)
    answer = client.get("/setup/tables/new/")
    page = answer.content.decode()
    assert 'value="special_event"' not in location_select(page)
    reason = NOT_HERE.format(rules=site.get_jurisdiction_display(), site=site)
    assert answer.context["form"].fields["location"].help_text.startswith(reason)
    refused = client.post("/setup/tables/new/", posted_form(answer, site, code, location="special_event"))
    assert refused.status_code == 400
    assert refused.context["form"].errors["location"][0].startswith(reason)
    assert not Table.objects.filter(site=site).exists()
    api = client_for(manager)
    refused = api.post("/api/v1/tables/", body(site, code, location="special_event"), format="json")
    assert refused.status_code == 400 and refused.json()["location"][0].startswith(reason)
    assert not Table.objects.filter(site=site).exists()
    created = api.post("/api/v1/tables/", body(site, code), format="json").json()
    events = AuditEvent.objects.count()
    patched = api.patch(f"/api/v1/tables/{created['id']}/", {"location": "special_event"}, format="json")
    assert patched.status_code == 400 and patched.json()["location"][0].startswith(reason)
    assert Table.objects.get(pk=created["id"]).location == "regular" and AuditEvent.objects.count() == events
    # A table recorded with it before keeps showing its own value (saving it asks for another).
    Table.objects.filter(pk=created["id"]).update(location="special_event")
    select = location_select(client.get(f"/setup/tables/{created['id']}/").content.decode())
    assert '<option value="special_event" selected>' in select


def test_a_north_dakota_site_is_offered_and_takes_a_special_event_table(client, manager, pack_site):
    site = pack_site("ND")
    client.force_login(manager.user)
    answer = client.get("/setup/tables/new/")
    assert 'value="special_event"' in location_select(answer.content.decode())
    saved = client.post("/setup/tables/new/", posted_form(answer, site, "ND", location="special_event"))
    assert saved.status_code == 302, saved.content.decode()[:3000]
    assert Table.objects.get(site=site).location == "special_event"
