"""A second table of one number sent at once from two terminals: both pass the check (the second
here as if it looked before the first was written), the second meets the database's unique
constraint, and is refused in the check's own sentence, citing what the site's pack cites for a
table's number (ND 99-01.3-08-02(1) in North Dakota; House control elsewhere), never the
constraint's "House control" where the pack states a rule (cardroom.services._save_checked_again).
A 400 at the number, nothing written. Through the API at each pack's site, and the setup page."""

import pytest
from django.utils.html import escape

import packs.common
from cardroom.models import Table
from core.models import AuditEvent
from tests.page_support import page

from .test_table_options import CODES, as_posted, body

CITED = {"ND": "ND 99-01.3-08-02(1)", "WA-HB": "House control", "WA-BJ": "House control", "NY": "House control"}


def looking_before(patch, looks: int = 1):
    """The table checks (the pack's number check and the model's constraints) skipped for the
    request's first `looks` looks (the API's one, the service's; the page's form's and the
    service's, two): the copy that looked before the other was written; a later look (the
    service's, once the database refused) sees it."""
    real_number, real_constraints = packs.common.number_errors, Table.validate_constraints
    looked = {"number": 0, "constraints": 0}

    def number_errors(table):
        looked["number"] += 1
        return {} if looked["number"] <= looks else real_number(table)

    def validate_constraints(self, exclude=None):
        looked["constraints"] += 1
        return None if looked["constraints"] <= looks else real_constraints(self, exclude=exclude)

    patch.setattr(packs.common, "number_errors", number_errors)
    patch.setattr(Table, "validate_constraints", validate_constraints)


def written():
    return Table.objects.count(), AuditEvent.objects.count()


@pytest.mark.parametrize("code", CODES)
def test_the_api_refuses_a_raced_table_number_in_the_checks_words_citing_the_pack(client_for, manager, pack_site, code):
    site = pack_site(code)
    api = client_for(manager)
    assert api.post("/api/v1/tables/", body(site, code), format="json").status_code == 201
    before = written()
    checked = api.post("/api/v1/tables/", body(site, code), format="json")
    with pytest.MonkeyPatch.context() as patch:
        looking_before(patch)
        raced = api.post("/api/v1/tables/", body(site, code), format="json")
    assert (checked.status_code, raced.status_code) == (400, 400), raced.json()
    assert raced.json() == checked.json()
    assert raced.json()["number"][0].startswith(f"{CITED[code]}: table number 1 is already used at this site")
    assert written() == before


def test_the_setup_page_refuses_a_raced_table_number_inline_citing_north_dakota(client, manager, pack_site):
    site = pack_site("ND")
    client.force_login(manager.user)
    shown = client.get("/setup/tables/new/").context["form"]
    posted = as_posted({**{name: bound.value() for name, bound in shown._bound_items()}, **body(site, "ND")})
    posted |= {"min_wager_cents": "1", "max_wager_cents": "25"}  # the page's wagers are in dollars
    first = client.post("/setup/tables/new/", posted)
    assert first.status_code == 302, first.context["form"].errors
    before = written()
    with pytest.MonkeyPatch.context() as patch:
        looking_before(patch, looks=2)  # the form's check, then the service's
        raced = client.post("/setup/tables/new/", posted)
    assert raced.status_code == 400, page(raced)[:500]
    assert raced.context["form"].errors["number"] == [
        "ND 99-01.3-08-02(1): table number 1 is already used at this site."
    ]
    assert escape("ND 99-01.3-08-02(1): table number 1") in raced.content.decode()
    assert written() == before
