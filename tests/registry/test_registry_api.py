"""The registry's API in one process: credentials, receipts (one per Idempotency-Key),
amendments pointing back, anchors, the chain of receipts, and who reads what."""

import copy
from datetime import date, datetime
from io import StringIO
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from rest_framework.test import APIClient

from core import filing_package
from core.appendonly import drop_trigger_sql, trigger_sql
from registry import services
from registry.models import Agency, Licensee, ReceivedFiling, Regulator, RegulatorRole

FILINGS, ANCHORS, LICENSEES = "/registry/api/v1/filings/", "/registry/api/v1/anchors/", "/registry/api/v1/licensees/"


def package(site_id=7, quarter="2026Q3", jurisdiction="ND", amends=None, agp=50_000, licence="G-1", name="Elks"):
    figures = {"summary": {"site": site_id, "quarter": quarter, "total": {"drop_cents": 100_000, "agp_cents": agp}}}
    return {
        "format": filing_package.FORMAT,
        "organization": {"name": name, "licence_number": licence},
        "site": {"id": site_id, "name": "Elks Lodge", "jurisdiction": jurisdiction},
        "quarter": quarter,
        "filed_at": "2026-10-05T15:00:00+00:00",
        "filed_by": "GM",
        "figures": figures,
        "figures_sha256": filing_package.digest(figures),
        "tax": {"organization_tax_cents": 500},
        "chain_head": {"chain": "org-1", "seq": 12, "hash": "a" * 64},
        "reports": [],
        "amends": amends,
    }


@pytest.fixture
def agency(db):
    return Agency.objects.create(name="North Dakota Attorney General - Gaming Division", jurisdiction="ND")


def _licensee(agency, name, licence):
    licensee = Licensee.objects.create(agency=agency, name=name, licence_number=licence, expected_from=date(2026, 1, 1))
    return licensee, services.issue_credential(acting_user=None, licensee=licensee)


@pytest.fixture
def elks(agency):
    return _licensee(agency, "Elks", "G-1")


def licensee_client(issued):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Licensee {issued.secret}")
    return client


def regulator_client(agency, role=RegulatorRole.STATE_AUDITOR, username="state"):
    user = get_user_model().objects.create_user(username, password="x")
    Regulator.objects.create(user=user, agency=agency, role=role)
    client = APIClient()
    client.force_authenticate(user)
    return client


def post_filing(client, body, key="k-1"):
    return client.post(FILINGS, {"package": body}, format="json", HTTP_IDEMPOTENCY_KEY=key)


def test_a_filing_is_answered_with_a_receipt_and_kept_as_received(elks):
    _licensee_row, issued = elks
    response = post_filing(licensee_client(issued), package())
    assert response.status_code == 201
    receipt = response.json()
    received_in = datetime.fromisoformat(receipt["received_at"]).astimezone(ZoneInfo("America/Chicago")).year
    assert receipt["receipt_number"] == f"ND-{received_in}-000001"  # the state's year, not UTC's
    assert receipt["package_sha256"] == filing_package.digest(package())
    filing = ReceivedFiling.objects.get()
    assert filing.hash == receipt["receipt_sha256"] and filing.package == package()


def test_the_same_key_answers_the_same_receipt_and_files_nothing_twice(elks):
    client = licensee_client(elks[1])
    first = post_filing(client, package()).json()
    again = post_filing(client, package())
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert again.json()["receipt_number"] == first["receipt_number"]
    assert ReceivedFiling.objects.count() == 1


def test_the_same_key_with_another_package_is_a_conflict(elks):
    client = licensee_client(elks[1])
    post_filing(client, package())
    response = post_filing(client, package(agp=1))
    assert response.status_code == 409 and "another package" in response.json()["detail"]
    assert ReceivedFiling.objects.count() == 1


def test_a_second_original_of_a_quarter_is_refused_and_an_amendment_points_back(elks):
    client = licensee_client(elks[1])
    first = post_filing(client, package()).json()
    refused = post_filing(client, package(agp=1), key="k-2")
    assert refused.status_code == 400 and first["receipt_number"] in refused.json()["amends"][0]
    amended = post_filing(client, package(agp=1, amends=first["receipt_number"]), key="k-3")
    assert amended.status_code == 201 and amended.json()["amends"] == first["receipt_number"]
    assert (
        ReceivedFiling.objects.get(receipt_number=amended.json()["receipt_number"]).amends.receipt_number
        == first["receipt_number"]
    )


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"figures_sha256": "b" * 64}, "figures_sha256"),
        ({"quarter": "2026Q5"}, "quarter"),
        ({"format": "other/9"}, "format"),
        ({"site": {"id": 7, "name": "Elks Lodge", "jurisdiction": "WA-HB"}}, "site"),
    ],
)
def test_a_bad_package_is_a_400_naming_the_field_and_nothing_is_received(elks, change, field):
    response = post_filing(licensee_client(elks[1]), {**package(), **change})
    assert response.status_code == 400 and response.json()[field][0].startswith("House control")
    assert not ReceivedFiling.objects.exists()


def test_a_package_naming_another_licence_is_refused_naming_the_field_and_nothing_is_received(elks):
    """House control: a package is filed under the credential's licensee; one whose organization
    names another licence number was received under it all the same."""
    other = {**package(), "organization": {"name": "Eagles", "licence_number": "G-2"}}
    response = post_filing(licensee_client(elks[1]), other)
    assert response.status_code == 400
    (message,) = response.json()["organization.licence_number"]
    assert message.startswith("House control") and "G-1" in message and "'G-2'" in message
    assert not ReceivedFiling.objects.exists()


@pytest.mark.parametrize("sent", [1, ["G-1"], {"number": "G-1"}])
def test_a_licence_number_not_text_is_a_400_naming_it_not_a_500(elks, sent):
    body = {**package(), "organization": {"name": "Elks", "licence_number": sent}}
    response = post_filing(licensee_client(elks[1]), body)
    assert response.status_code == 400
    assert response.json()["organization.licence_number"][0].startswith("House control")
    assert not ReceivedFiling.objects.exists()


@pytest.mark.parametrize("sent", ["G-1", " g-1 ", "", None])
def test_a_package_naming_the_licence_or_none_is_received(elks, sent):
    """The same licence (case and surrounding spaces aside), or none recorded by the organization."""
    body = {**package(), "organization": {"name": "Elks", "licence_number": sent}}
    assert post_filing(licensee_client(elks[1]), body).status_code == 201
    assert ReceivedFiling.objects.get().licensee == elks[0]


def test_a_licensee_the_registry_holds_no_licence_for_may_file_a_package_naming_one(agency):
    row, issued = _licensee(agency, "Elks", "")
    assert post_filing(licensee_client(issued), package()).status_code == 201
    assert ReceivedFiling.objects.get().licensee == row


def test_a_revoked_or_unknown_credential_is_refused(elks):
    _lic, issued = elks
    services.revoke_credential(acting_user=None, credential=issued.credential)
    assert post_filing(licensee_client(issued), package()).status_code == 401
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Licensee lic_not-a-credential")
    assert client.get(FILINGS).status_code == 401
    assert APIClient().get(FILINGS).status_code in (401, 403)


def test_anchors_are_held_once_and_another_hash_at_the_same_place_is_a_conflict(elks):
    client = licensee_client(elks[1])
    head = {"chain": "org-1", "seq": 5, "hash": "c" * 64, "head_at": "2026-11-01T09:20:00+00:00"}
    assert client.post(ANCHORS, {"anchors": [head]}, format="json").json() == {"stored": 1, "already_held": 0}
    assert client.post(ANCHORS, {"anchors": [head]}, format="json").json() == {"stored": 0, "already_held": 1}
    rewritten = client.post(ANCHORS, {"anchors": [{**head, "hash": "d" * 64}]}, format="json")
    assert rewritten.status_code == 409 and "org-1 #5" in rewritten.json()["detail"]
    assert [a["hash"] for a in client.get(ANCHORS).json()["results"]] == ["c" * 64]
    [row] = regulator_client(elks[0].agency).get(LICENSEES).json()["results"]
    assert (row["anchors"], row["anchor_conflicts"]) == (1, 1)  # the agency sees the rewrite


def test_one_place_sent_with_two_hashes_in_one_request_is_a_400_naming_it_and_nothing_is_held(elks):
    client = licensee_client(elks[1])
    head = {"chain": "org-1", "seq": 5, "hash": "c" * 64, "head_at": "2026-11-01T09:20:00+00:00"}
    other = {"chain": "org-1", "seq": 6, "hash": "e" * 64, "head_at": "2026-11-01T09:20:00+00:00"}
    refused = client.post(ANCHORS, {"anchors": [other, head, {**head, "hash": "d" * 64}]}, format="json")
    assert refused.status_code == 400
    assert "org-1 #5 is sent with two hashes" in refused.json()["anchors[2].hash"][0]
    assert client.get(ANCHORS).json()["results"] == []  # not the last one silently, not the other place
    # The same head twice in one request is one head held.
    assert client.post(ANCHORS, {"anchors": [head, head]}, format="json").json() == {"stored": 1, "already_held": 0}
    assert [a["hash"] for a in client.get(ANCHORS).json()["results"]] == ["c" * 64]


def test_a_rewritten_head_is_a_conflict_kept_as_evidence_even_beside_the_hash_held(elks):
    """The place held with "c": a request with "d" then "c" for it kept "c" (the last) and answered
    201 "already held", hiding the rewrite from the agency."""
    client = licensee_client(elks[1])
    head = {"chain": "org-1", "seq": 5, "hash": "c" * 64, "head_at": "2026-11-01T09:20:00+00:00"}
    client.post(ANCHORS, {"anchors": [head]}, format="json")
    rewritten = client.post(ANCHORS, {"anchors": [{**head, "hash": "d" * 64}, head]}, format="json")
    assert rewritten.status_code == 409 and "org-1 #5" in rewritten.json()["detail"]
    [row] = regulator_client(elks[0].agency).get(LICENSEES).json()["results"]
    assert (row["anchors"], row["anchor_conflicts"]) == (1, 1)


def test_the_licensees_page_counts_contradicting_heads_singular_for_one(elks):
    client = licensee_client(elks[1])
    heads = [{"chain": "org-1", "seq": seq, "hash": "c" * 64, "head_at": "2026-11-01T09:20:00+00:00"} for seq in (5, 6)]
    client.post(ANCHORS, {"anchors": heads}, format="json")
    state = get_user_model().objects.create_user("state", password="x")
    Regulator.objects.create(user=state, agency=elks[0].agency, role=RegulatorRole.STATE_AUDITOR)
    reader = APIClient()
    reader.force_login(state)
    client.post(ANCHORS, {"anchors": [{**heads[0], "hash": "d" * 64}]}, format="json")
    assert "1 head contradicting one held" in reader.get("/registry/").content.decode()
    client.post(ANCHORS, {"anchors": [{**heads[1], "hash": "d" * 64}]}, format="json")
    assert "2 heads contradicting one held" in reader.get("/registry/").content.decode()


def test_a_licensee_reads_the_first_head_of_its_chain_held_at_or_after_an_event(elks, agency):
    """What a licensee reads of a filed row's event before it sends the
    package (statefiling.services.registry_anchors): one head at most, of its own chain."""
    client = licensee_client(elks[1])
    at = "2026-11-01T09:20:00+00:00"
    held = [{"chain": "org-1", "seq": 5, "hash": "a" * 64, "head_at": at},
            {"chain": "org-1", "seq": 9, "hash": "b" * 64, "head_at": at},
            {"chain": "org-2", "seq": 7, "hash": "c" * 64, "head_at": at}]  # fmt: skip
    client.post(ANCHORS, {"anchors": held}, format="json")
    other = licensee_client(_licensee(agency, "Moose", "G-2")[1])  # its own org-1, not the Elks'
    other.post(ANCHORS, {"anchors": [{**held[0], "seq": 6, "hash": "d" * 64}]}, format="json")

    def first(query):
        page = client.get(f"{ANCHORS}?{query}").json()
        assert page["count"] == len(page["results"]) <= 1
        return [(a["seq"], a["hash"][0]) for a in page["results"]]

    assert first("chain=org-1&from_seq=1") == first("chain=org-1&from_seq=5") == [(5, "a")]
    assert first("chain=org-1&from_seq=6") == [(9, "b")]
    assert first("chain=org-1&from_seq=10") == first("chain=org-3&from_seq=1") == []
    assert [a["seq"] for a in client.get(f"{ANCHORS}?chain=org-1").json()["results"]] == [5, 9]


@pytest.mark.parametrize("query", ["chain=org-1&from_seq=five", "chain=org-1&from_seq=0", "from_seq=5"])
def test_a_first_head_asked_badly_is_a_400_naming_from_seq(elks, query):
    refused = licensee_client(elks[1]).get(f"{ANCHORS}?{query}")
    assert refused.status_code == 400
    assert refused.json()["from_seq"].startswith("House control: ")


def test_the_agencys_staff_asking_a_first_head_are_answered_a_400_naming_from_seq(elks):
    refused = regulator_client(elks[0].agency).get(f"{ANCHORS}?chain=org-1&from_seq=5")
    assert refused.status_code == 400
    assert "a licensee's own chain" in refused.json()["from_seq"]


# --- Who reads what: the matrix ---------------------------------------------------------------------


@pytest.fixture
def two_states(agency, elks):
    other_agency = Agency.objects.create(name="Washington State Gambling Commission", jurisdiction="WA-HB")
    eagles = _licensee(agency, "Eagles", "G-2")
    evergreen = _licensee(other_agency, "Evergreen", "WSGC-1")
    post_filing(licensee_client(elks[1]), package(site_id=1))
    post_filing(licensee_client(eagles[1]), package(site_id=2, licence="G-2", name="Eagles"))
    post_filing(
        licensee_client(evergreen[1]), package(site_id=3, jurisdiction="WA-HB", licence="WSGC-1", name="Evergreen")
    )
    return {"agency": agency, "other": other_agency, "elks": elks, "eagles": eagles, "evergreen": evergreen}


def _receipt_sites(response):
    return sorted(r["site"] for r in response.json()["results"])


@pytest.mark.parametrize(
    ("who", "sites"),
    [("elks", [1]), ("eagles", [2]), ("evergreen", [3]), ("state", [1, 2]), ("wa_state", [3])],
)
def test_each_party_reads_only_its_own_receipts_or_its_jurisdictions(two_states, who, sites):
    if who == "state":
        client = regulator_client(two_states["agency"])
    elif who == "wa_state":
        client = regulator_client(two_states["other"], username="wa")
    else:
        client = licensee_client(two_states[who][1])
    assert _receipt_sites(client.get(FILINGS)) == sites


def test_a_licensee_cannot_read_another_licensees_filing_or_the_licensee_list(two_states):
    theirs = ReceivedFiling.objects.get(site_ref=2).receipt_number
    client = licensee_client(two_states["elks"][1])
    assert client.get(f"{FILINGS}{theirs}/").status_code == 404
    assert client.get(LICENSEES).status_code == 403


def test_a_regulator_cannot_read_another_states_filing_nor_file(two_states):
    theirs = ReceivedFiling.objects.get(site_ref=3).receipt_number
    client = regulator_client(two_states["agency"])
    assert client.get(f"{FILINGS}{theirs}/").status_code == 404
    assert post_filing(client, package(site_id=9)).status_code == 403


def test_an_organizations_login_reads_nothing_of_the_registry(two_states, manager):
    client = APIClient()
    client.force_authenticate(manager.user)
    assert client.get(FILINGS).status_code == 403
    assert client.get(LICENSEES).status_code == 403


def test_the_regulator_sees_its_licensees_with_sites_and_missing_quarters(two_states):
    body = regulator_client(two_states["agency"]).get(LICENSEES).json()["results"]
    assert [(r["name"], [s["name"] for s in r["sites"]]) for r in body] == [
        ("Eagles", ["Elks Lodge"]),
        ("Elks", ["Elks Lodge"]),
    ]
    missing = {m["quarter"] for m in body[1]["missing"]}
    assert "2026Q1" in missing and "2026Q3" not in missing


def test_the_quarter_page_downloads_every_filing_of_the_jurisdiction_as_csv(two_states, client):
    user = get_user_model().objects.create_user("state2", password="x")
    Regulator.objects.create(user=user, agency=two_states["agency"], role=RegulatorRole.STATE_AUDITOR)
    client.force_login(user)
    response = client.get("/registry/quarter/?quarter=2026Q3&format=csv")
    lines = response.content.decode().splitlines()
    assert lines[0].startswith("licensee,licence_number,site") and len(lines) == 3
    assert "Evergreen" not in response.content.decode()
    from io import BytesIO

    from openpyxl import load_workbook

    book = load_workbook(BytesIO(client.get("/registry/quarter/?quarter=2026Q3&format=xlsx").content))
    values = list(book.active.values)
    assert values[0][:3] == ("licensee", "licence_number", "site") and len(values) == 3
    assert values[1][values[0].index("agp_cents")] == 50_000  # a typed cell, cents as an integer
    assert client.get("/").url == "/registry/"
    assert "Eagles" in client.get("/registry/").content.decode()


@pytest.mark.parametrize(
    ("asked", "said"),
    [
        ("1999Q1", "The quarter must be in 2000-2100 (house control)."),
        ("2101Q4", "The quarter must be in 2000-2100 (house control)."),
        ("2026Q5", "House control: write quarter as YYYYQn, for example 2026Q3 (got &#x27;2026Q5&#x27;)."),
    ],
)
def test_the_quarter_page_says_what_is_wrong_with_the_quarter_asked(agency, client, asked, said):
    user = get_user_model().objects.create_user("state2", password="x")
    Regulator.objects.create(user=user, agency=agency, role=RegulatorRole.STATE_AUDITOR)
    client.force_login(user)
    for fmt in ("", "csv"):
        response = client.get("/registry/quarter/", {"quarter": asked, "format": fmt})
        assert response.status_code == 400 and said in response.content.decode()


# --- The registry's own chain ------------------------------------------------------------------------


def test_verify_registry_names_the_first_filing_whose_package_was_changed(two_states):
    assert services.verify_filings(two_states["agency"]).ok
    out = StringIO()
    call_command("verify_registry", stdout=out)
    assert out.getvalue().startswith("OK: 3 filings verified")
    table = ReceivedFiling._meta.db_table
    first = ReceivedFiling.objects.filter(agency=two_states["agency"]).order_by("seq").first()
    changed = copy.deepcopy(first.package)
    changed["figures"]["summary"]["total"]["agp_cents"] = 1
    with connection.cursor() as cursor:
        for sql in drop_trigger_sql(connection.vendor, table):
            cursor.execute(sql)
    ReceivedFiling.objects.filter(pk=first.pk).update(package=changed)
    with connection.cursor() as cursor:
        for sql in trigger_sql(connection.vendor, table):
            cursor.execute(sql, [])
    check = services.verify_filings(two_states["agency"])
    assert not check.ok and f"filing #1 ({first.receipt_number})" in check.problem and "package" in check.problem
    with pytest.raises(CommandError, match=f"BROKEN: .*filing #1 \\({first.receipt_number}\\)"):
        call_command("verify_registry")


# --- A state supervisor issues and revokes credentials ------------------------------------------------


def test_a_supervisor_issues_a_credential_that_files_and_revokes_it(two_states):
    supervisor = regulator_client(two_states["agency"], role=RegulatorRole.STATE_SUPERVISOR, username="boss")
    eagles = two_states["eagles"][0]
    issued = supervisor.post(f"/registry/api/v1/licensees/{eagles.pk}/credentials/")
    assert issued.status_code == 201
    secret = issued.json()["secret"]
    assert not services.Credential.objects.filter(secret_sha256=secret).exists()  # only its digest is kept
    holder = APIClient()
    holder.credentials(HTTP_AUTHORIZATION=f"Licensee {secret}")
    assert holder.get(FILINGS).status_code == 200
    assert supervisor.post(f"/registry/api/v1/credentials/{issued.json()['id']}/revoke/").status_code == 200
    assert holder.get(FILINGS).status_code == 401


@pytest.mark.parametrize("who", ["auditor", "wa_supervisor", "licensee"])
def test_no_one_else_issues_or_revokes_a_credential(two_states, who):
    eagles, issued = two_states["eagles"]
    if who == "auditor":
        client = regulator_client(two_states["agency"])
    elif who == "wa_supervisor":
        client = regulator_client(two_states["other"], role=RegulatorRole.STATE_SUPERVISOR, username="wa")
    else:
        client = licensee_client(issued)
    assert client.post(f"/registry/api/v1/licensees/{eagles.pk}/credentials/").status_code in (403, 404)
    assert client.post(f"/registry/api/v1/credentials/{issued.credential.pk}/revoke/").status_code in (403, 404)
    assert licensee_client(issued).get(FILINGS).status_code == 200


def test_writes_with_one_credential_are_rate_limited_naming_the_limit(elks, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"writes": "2/minute", "login": "10/minute"},
    }
    client = licensee_client(elks[1])
    head = {"chain": "org-1", "seq": 1, "hash": "c" * 64, "head_at": "2026-11-01T09:20:00+00:00"}
    statuses = [client.post(ANCHORS, {"anchors": [{**head, "seq": n}]}, format="json").status_code for n in (1, 2, 3)]
    assert statuses == [201, 201, 429]
    assert client.get(FILINGS).status_code == 200  # reads are not limited


@pytest.mark.parametrize("page", ["/registry/", "/registry/filings/", "/registry/quarter/?quarter=2026Q3&format=csv"])
def test_an_organizations_login_gets_none_of_the_regulators_pages(two_states, manager, client, page):
    client.force_login(manager.user)
    response = client.get(page)
    assert response.status_code == 403 and "Eagles" not in response.content.decode()
    assert client.get("/").status_code != 302 or client.get("/").url != "/registry/"


def test_each_agency_numbers_its_receipts_without_gaps_whoever_files_and_whatever_is_refused(two_states):
    """The receipts of one agency run 1, 2, 3... across its licensees, a replay answering its first
    number and a refusal taking none; another agency's run from 1 under its own pack's code."""

    def number(response):
        return response.json()["receipt_number"].rsplit("-", 1)[1]

    elks, eagles, evergreen = (licensee_client(two_states[n][1]) for n in ("elks", "eagles", "evergreen"))
    first = ReceivedFiling.objects.get(site_ref=1).receipt_number
    assert post_filing(elks, package(site_id=1), key="k-again").status_code == 400  # a second original: no number
    assert number(post_filing(elks, package(site_id=1))) == "000001"  # the first key again: its receipt
    assert number(post_filing(eagles, package(site_id=4, licence="G-2", name="Eagles"), key="k-4")) == "000003"
    amended = post_filing(elks, package(site_id=1, amends=first, agp=60_000), key="k-amend")
    assert number(amended) == "000004" and amended.json()["amends"] == first
    wa = post_filing(evergreen, package(site_id=5, jurisdiction="WA-HB", licence="WSGC-1", name="Evergreen"), key="k-5")
    assert wa.json()["receipt_number"].startswith("WA-HB-") and number(wa) == "000002"
    for agency in (two_states["agency"], two_states["other"]):
        held = list(
            ReceivedFiling.objects.filter(agency=agency).order_by("seq").values_list("receipt_number", flat=True)
        )
        assert [n.rsplit("-", 1)[1] for n in held] == [f"{i:06d}" for i in range(1, len(held) + 1)]
        assert services.verify_filings(agency).ok
