"""The state supervisor's pages: a licensee's credentials read by the agency's staff, and a
supervisor (only) issuing and revoking them and registering licensees in the browser, through the
services the API's acts and `registry_licensee` go through (so audited as they are). Before, a
supervisor registered a licensee only with the command and issued or revoked credentials only
through the API: these addresses answered 404."""

import hashlib
import re
from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from core.form_tokens import ALREADY_RECORDED, FIELD
from core.models import AuditEvent
from registry import services
from registry.models import Agency, Credential, Licensee, Regulator, RegulatorRole

from .test_registry_api import ANCHORS, licensee_client, package, post_filing

AGENCY_NAME = "North Dakota Attorney General - Gaming Division"
REGISTER = "/registry/licensees/new/"
OTHER_AGENCY = "Washington State Gambling Commission"
LICENCE_TAKEN = (
    "House control: the agency has registered this licence number already, whatever its case; a licence identifies "
    "one licensee at the agency."
)
ACTIONS = ("registry.licensee_registered", "registry.credential_issued", "registry.credential_revoked")


def licensee_page(licensee) -> str:
    return f"/registry/licensees/{licensee.pk}/"


def issue_address(licensee) -> str:
    return f"/registry/licensees/{licensee.pk}/credentials/"


def revoke_address(credential) -> str:
    return f"/registry/credentials/{credential.pk}/revoke/"


def confirmed(credential) -> dict:
    return {f"c{credential.pk}-confirm": "on"}


@pytest.fixture
def world(db):
    """North Dakota's agency with Elks registered and holding a credential, Washington's agency
    with a licensee of its own; the ND agency's supervisor and auditor, Washington's supervisor.
    Registered and issued through the services, as the command does."""
    elks, _ = services.register_licensee(
        acting_user=None, agency_name=AGENCY_NAME, jurisdiction="ND", contact="",
        name="Elks", licence_number="G-1", expected_from=date(2026, 1, 1),
    )  # fmt: skip
    evergreen, _ = services.register_licensee(
        acting_user=None, agency_name=OTHER_AGENCY, jurisdiction="WA-HB", contact="",
        name="Evergreen", licence_number="WSGC-1", expected_from=date(2026, 1, 1),
    )  # fmt: skip
    issued = services.issue_credential(acting_user=None, licensee=elks)
    agency, other = Agency.objects.get(name=AGENCY_NAME), Agency.objects.get(name=OTHER_AGENCY)
    return {
        "agency": agency,
        "elks": elks,
        "issued": issued,
        "evergreen": evergreen,
        "evergreen_credential": services.issue_credential(acting_user=None, licensee=evergreen).credential,
        "supervisor": staff(agency, "boss", RegulatorRole.STATE_SUPERVISOR),
        "auditor": staff(agency, "reader", RegulatorRole.STATE_AUDITOR),
        "other_supervisor": staff(other, "wa-boss", RegulatorRole.STATE_SUPERVISOR),
    }


def staff(agency, username, role) -> Client:
    user = get_user_model().objects.create_user(username, password="x")
    Regulator.objects.create(user=user, agency=agency, role=role)
    client = Client()
    client.force_login(user)
    return client


def events(action: str):
    return AuditEvent.objects.filter(action=action).order_by("pk")


def error_at(html: str, field: str) -> str:
    """The errors the page shows at `field` (templates/cardroom/_form.html's list)."""
    found = re.search(rf'<ul class="errorlist" id="error-{field}">(.*?)</ul>', html, re.S)
    return found.group(1) if found else ""


# --- Who may do what: the matrix ---------------------------------------------------------------------

ACTS = ("view", "issue", "revoke", "register_page", "register")
EXPECTED = {
    "supervisor": {"view": 200, "issue": 201, "revoke": 302, "register_page": 200, "register": 302},
    "auditor": {"view": 200, "issue": 403, "revoke": 403, "register_page": 403, "register": 403},
    # Another agency's supervisor finds none of this agency's (404) and registers with its own.
    "other_supervisor": {"view": 404, "issue": 404, "revoke": 404, "register_page": 200, "register": 302},
    "gaming_manager": {"view": 403, "issue": 403, "revoke": 403, "register_page": 403, "register": 403},
    "anonymous": {"view": 302, "issue": 302, "revoke": 302, "register_page": 302, "register": 302},
}


def client_of(world, who, manager) -> Client:
    if who in ("supervisor", "auditor", "other_supervisor"):
        return world[who]
    client = Client()
    if who == "gaming_manager":
        client.force_login(manager.user)
    return client


@pytest.mark.parametrize("act", ACTS)
@pytest.mark.parametrize("who", EXPECTED)
def test_who_reads_a_licensees_credentials_and_who_issues_revokes_and_registers(world, manager, who, act):
    client, elks, credential = client_of(world, who, manager), world["elks"], world["issued"].credential
    before = {action: events(action).count() for action in ACTIONS}
    response = {
        "view": lambda: client.get(licensee_page(elks)),
        "issue": lambda: client.post(issue_address(elks)),
        "revoke": lambda: client.post(revoke_address(credential), confirmed(credential)),
        "register_page": lambda: client.get(REGISTER),
        "register": lambda: client.post(
            REGISTER, {"name": "Moose Lodge", "licence_number": "G-7", "expected_from": "2026-07-01"}
        ),
    }[act]()
    assert response.status_code == EXPECTED[who][act]
    if who == "anonymous":
        assert response.url.startswith("/login/")
    if EXPECTED[who][act] == 403 and who == "auditor":
        assert services.SUPERVISOR_ONLY.replace("'", "&#x27;") in response.content.decode()
    written = {action: events(action).count() - before[action] for action in ACTIONS}
    acted = EXPECTED[who][act] in (201, 302) and who != "anonymous"
    assert written == {
        "registry.licensee_registered": int(acted and act == "register"),
        "registry.credential_issued": int(acted and act == "issue"),
        "registry.credential_revoked": int(acted and act == "revoke"),
    }
    assert Credential.objects.get(pk=credential.pk).revoked_at is None or (who, act) == ("supervisor", "revoke")
    if who == "other_supervisor" and act in ("view", "issue", "revoke"):
        # Its 404 is the agency's: the same act on its own agency's licensee is answered.
        own, theirs = world["evergreen"], world["evergreen_credential"]
        answered = {
            "view": lambda: client.get(licensee_page(own)),
            "issue": lambda: client.post(issue_address(own)),
            "revoke": lambda: client.post(revoke_address(theirs), confirmed(theirs)),
        }[act]()
        assert answered.status_code == {"view": 200, "issue": 201, "revoke": 302}[act]
    registered_with = {("supervisor", "register"): [AGENCY_NAME], ("other_supervisor", "register"): [OTHER_AGENCY]}
    registered = Licensee.objects.filter(licence_number="G-7").values_list("agency__name", flat=True)
    assert list(registered) == registered_with.get((who, act), [])


def test_the_staff_read_each_credential_and_only_a_supervisor_is_offered_the_acts(world):
    services.revoke_credential(acting_user=None, credential=world["issued"].credential)
    live = services.issue_credential(acting_user=None, licensee=world["elks"])
    revoked = world["issued"].credential
    for who in ("supervisor", "auditor"):
        html = world[who].get(licensee_page(world["elks"])).content.decode()
        rows = html.split('id="credentials"', 1)[1]
        assert f"<code>{live.credential.prefix}...</code>" in rows and f"<code>{revoked.prefix}...</code>" in rows
        assert rows.index(live.credential.prefix) < rows.index(revoked.prefix)  # the newest first
        assert re.search(rf'id="credential-{revoked.pk}">.*?by system</td>', rows, re.S)
        assert re.search(
            rf'id="credential-{live.credential.pk}">.*?<td data-label="Revoked" class="revoked">live', rows, re.S
        )
        offered = ['id="issue-credential"', f'id="revoke-{live.credential.pk}"', 'id="register-a-licensee"']
        home = world[who].get("/registry/").content.decode()
        shown = [marker in html + home for marker in offered]
        assert shown == [who == "supervisor"] * 3
        assert ("Register a licensee" in home.split("</nav>")[0]) is (who == "supervisor")  # the menu
        assert f'href="{licensee_page(world["elks"])}"' in home
    assert f'id="revoke-{revoked.pk}"' not in world["supervisor"].get(licensee_page(world["elks"])).content.decode()


# --- Issue and revoke -----------------------------------------------------------------------------------


def test_a_credential_issued_on_the_page_is_shown_once_files_and_once_revoked_is_refused(world):
    supervisor, elks = world["supervisor"], world["elks"]
    answer = supervisor.post(issue_address(elks))
    assert answer.status_code == 201
    assert "no-store" in answer["Cache-Control"]  # the browser keeps no copy of the answer
    html = answer.content.decode()
    secret = re.search(r'id="credential-secret" value="(lic_[^"]+)"', html).group(1)
    assert "House control: this secret is shown once, now. The registry keeps only its SHA-256" in html
    credential = Credential.objects.get(secret_sha256=hashlib.sha256(secret.encode()).hexdigest())
    assert credential.licensee == elks and credential.issued_by == "boss" and secret.startswith(credential.prefix)
    # Never again: not on the licensee's page (its prefix only), not in the audit log.
    after = supervisor.get(licensee_page(elks)).content.decode()
    assert f"<code>{credential.prefix}...</code>" in after and secret not in after
    assert not any(secret in str((e.before, e.after, e.object_id)) for e in AuditEvent.objects.all())

    holder = licensee_client(services.Issued(credential, secret))
    assert post_filing(holder, package(site_id=1)).status_code == 201
    head = {"chain": "org-1", "seq": 1, "hash": "c" * 64, "head_at": "2026-11-01T09:20:00+00:00"}
    assert holder.post(ANCHORS, {"anchors": [head]}, format="json").status_code == 201

    revoked = supervisor.post(revoke_address(credential), confirmed(credential))
    assert revoked.status_code == 302 and revoked.url == licensee_page(elks)
    page = supervisor.get(licensee_page(elks)).content.decode()
    assert f"Credential {credential.prefix}... of Elks (G-1) is revoked" in page
    assert re.search(
        rf'id="credential-{credential.pk}">.*?class="revoked">\d{{4}}-\d\d-\d\d \d\d:\d\d C[SD]T by boss', page, re.S
    )
    assert post_filing(holder, package(site_id=2), key="k-2").status_code == 401
    assert holder.post(ANCHORS, {"anchors": [{**head, "seq": 2}]}, format="json").status_code == 401
    assert world["issued"].credential.licensee == elks  # the other credential of Elks still files
    assert post_filing(licensee_client(world["issued"]), package(site_id=3), key="k-3").status_code == 201


def test_the_issue_form_sent_twice_issues_one_credential_and_sends_the_second_to_the_licensees_page(world):
    """A double click or a reload of the answer: the form's one-time token (core.form_tokens) keeps
    the first answer, shown once, and sends the second copy to the page listing what it issued."""
    supervisor, elks = world["supervisor"], world["elks"]
    page = supervisor.get(licensee_page(elks)).content.decode()
    form = re.search(r'<form[^>]*id="issue-form"[^>]*>(.*?)</form>', page, re.S).group(1)
    token = re.search(rf'name="{FIELD}" value="([^"]+)"', form).group(1)
    before = Credential.objects.filter(licensee=elks).count()

    first = supervisor.post(issue_address(elks), {FIELD: token})
    again = supervisor.post(issue_address(elks), {FIELD: token}, follow=True)
    assert first.status_code == 201 and 'id="credential-secret"' in first.content.decode()
    assert again.redirect_chain == [(licensee_page(elks), 302)]
    shown = again.content.decode()
    assert ALREADY_RECORDED in shown and 'id="credential-secret"' not in shown
    assert Credential.objects.filter(licensee=elks).count() == before + 1
    assert AuditEvent.objects.filter(action="registry.credential_issued", actor__username="boss").count() == 1


def test_the_acts_are_audited_as_the_services_audit_them_with_the_supervisor_acting(world):
    supervisor, elks = world["supervisor"], world["elks"]
    boss = get_user_model().objects.get(username="boss")
    supervisor.post(issue_address(elks))
    credential = Credential.objects.filter(issued_by="boss").get()
    supervisor.post(revoke_address(credential), confirmed(credential))
    supervisor.post(REGISTER, {"name": "Moose Lodge", "licence_number": "G-7", "expected_from": "2026-07-01"})
    moose = Licensee.objects.get(licence_number="G-7")
    issued, revoked = events("registry.credential_issued").last(), events("registry.credential_revoked").get()
    registered = events("registry.licensee_registered").last()
    assert [(e.actor, e.object_id) for e in (issued, revoked, registered)] == [
        (boss, str(credential.pk)),
        (boss, str(credential.pk)),
        (boss, str(moose.pk)),
    ]
    assert issued.after == revoked.after == {"licensee": elks.pk, "prefix": credential.prefix}
    assert registered.after == {
        "agency": world["agency"].pk,
        "agency_name": AGENCY_NAME,
        "agency_created": False,
        "jurisdiction": "ND",
        "name": "Moose Lodge",
        "licence_number": "G-7",
        "expected_from": "2026-07-01",
    }


def test_a_revocation_unconfirmed_or_of_a_revoked_credential_is_refused_at_it_and_changes_nothing(world):
    supervisor, credential = world["supervisor"], world["issued"].credential
    unconfirmed = supervisor.post(revoke_address(credential), {})
    assert unconfirmed.status_code == 400
    said = unconfirmed.content.decode().split(f'id="error-revoke-{credential.pk}"', 1)[1].split("</ul>")[0]
    assert "House control: tick the box to confirm the revocation; a revoked credential is never reinstated." in said
    assert Credential.objects.get(pk=credential.pk).revoked_at is None and not events("registry.credential_revoked")

    assert supervisor.post(revoke_address(credential), confirmed(credential)).status_code == 302
    held = Credential.objects.get(pk=credential.pk)
    again = supervisor.post(revoke_address(credential), confirmed(credential))  # a stale page's form
    assert again.status_code == 400
    said = again.content.decode().split(f'id="error-revoke-{credential.pk}"', 1)[1].split("</ul>")[0]
    assert f"House control: this credential was revoked on {held.revoked_at:%Y-%m-%d}." in said
    assert Credential.objects.get(pk=credential.pk).revoked_at == held.revoked_at and held.revoked_by == "boss"
    assert events("registry.credential_revoked").count() == 1


def test_an_unknown_credential_or_licensee_is_a_404(world):
    supervisor = world["supervisor"]
    assert supervisor.post("/registry/credentials/999999/revoke/", {"c999999-confirm": "on"}).status_code == 404
    assert supervisor.post("/registry/licensees/999999/credentials/").status_code == 404
    assert supervisor.get("/registry/licensees/999999/").status_code == 404
    assert supervisor.get(issue_address(world["elks"])).status_code == 405  # issuing is a POST


# --- Register a licensee --------------------------------------------------------------------------------


def test_a_supervisor_registers_a_licensee_of_the_agency_and_issues_it_a_credential_on_its_page(world):
    supervisor = world["supervisor"]
    form = supervisor.get(REGISTER).content.decode()
    today = datetime.now(ZoneInfo("America/Chicago")).date()  # the agency's
    assert f'value="{today.replace(day=1):%Y-%m-%d}"' in form  # the command's default, first of the month
    response = supervisor.post(
        REGISTER, {"name": "Moose Lodge", "licence_number": "ND-GC-0777", "expected_from": "2026-07-01"}
    )
    moose = Licensee.objects.get(licence_number="ND-GC-0777")
    assert response.status_code == 302 and response.url == licensee_page(moose)
    assert (moose.agency, moose.name, moose.expected_from) == (world["agency"], "Moose Lodge", date(2026, 7, 1))
    page = supervisor.get(licensee_page(moose)).content.decode()
    assert "Moose Lodge (ND-GC-0777) is registered with" in page and "No credential issued yet." in page
    assert "Returns expected from 2026Q3." in page
    assert supervisor.post(issue_address(moose)).status_code == 201
    assert moose.credentials.count() == 1
    # No return received yet: the list says where its sites come from (a walk read "none filed
    # yet" beside a licensee anchoring every night as a licensee with no site).
    row = supervisor.get("/registry/").content.decode().split("Moose Lodge</a>")[1].split("</tr>")[0]
    assert "none yet: a site is listed from its first return received" in row


# A registration refused at its field, in the house control's words (the page's and the API's, `test_registry_api_licensees`).
REFUSALS = [
    ({"name": "  "}, "name", "House control: Name is required; the record is not kept without it."),
    ({"licence_number": ""}, "licence_number", "House control: Licence number is required"),
    ({"licence_number": "G" * 61}, "licence_number", "at most 60 characters"),
    ({"expected_from": "2026-02-30"}, "expected_from", "House control: expected_from names no day of the calendar"),
    ({"expected_from": "1999-12-31"}, "expected_from", "2000-01-01"),
    ({"licence_number": "G-1"}, "licence_number", LICENCE_TAKEN),
    ({"licence_number": " g-1 "}, "licence_number", LICENCE_TAKEN),  # one licence whatever its case
]


@pytest.mark.parametrize(("posted", "field", "said"), REFUSALS)
def test_a_registration_refused_says_so_at_its_field_with_a_400_and_writes_nothing(world, posted, field, said):
    before = (Licensee.objects.count(), Agency.objects.count(), events("registry.licensee_registered").count())
    body = {"name": "Moose Lodge", "licence_number": "G-7", "expected_from": "2026-07-01", **posted}
    response = world["supervisor"].post(REGISTER, body)
    assert response.status_code == 400
    assert said.replace("'", "&#x27;") in error_at(response.content.decode(), field)
    after = (Licensee.objects.count(), Agency.objects.count(), events("registry.licensee_registered").count())
    assert after == before
    assert Licensee.objects.get(licence_number="G-1").name == "Elks"
