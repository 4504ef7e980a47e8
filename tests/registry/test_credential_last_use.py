"""A credential's last use: where a licensee's request authenticates with it (the registry's API),
the registry notes the moment, at most once an hour (`services.LAST_USE_GRANULARITY`: one
conditional UPDATE, none at all within the hour), so the supervisor sees on the licensee's page
whether a credential is still in use before revoking it ("never" where no request came). A
revoked or unknown credential's request, refused, notes nothing. Before, the registry kept no
such moment and the page could not say."""

from datetime import UTC, datetime, timedelta

import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from registry import services
from registry.models import Credential

from . import test_registry_supervisor_pages as pages
from .test_registry_api import FILINGS, licensee_client
from .test_registry_supervisor_pages import licensee_page

world = pages.world  # the agencies, Elks with its credential, and the staff of the supervisor's pages

NOON = datetime(2026, 11, 20, 18, tzinfo=UTC)  # 12:00 in North Dakota, the agency's zone


def last_used(credential) -> datetime | None:
    return Credential.objects.get(pk=credential.pk).last_used_at


def row_of(html: str, credential) -> str:
    return html[html.index(f'<tr id="credential-{credential.pk}">') :].split("</tr>")[0]


def updates(queries) -> list[str]:
    return [q["sql"] for q in queries if q["sql"].startswith("UPDATE") and "registry_credential" in q["sql"]]


def test_a_credential_never_used_reads_never_on_the_licensees_page(world):
    credential = world["issued"].credential
    html = world["auditor"].get(licensee_page(world["elks"])).content.decode()
    assert "<th>Last used</th>" in html
    assert '<td data-label="Last used" class="last-used text-nowrap">never</td>' in row_of(html, credential)


def test_an_authenticated_request_notes_the_credentials_use_shown_on_the_licensees_page(world):
    credential = world["issued"].credential
    with time_machine.travel(NOON, tick=False):
        assert licensee_client(world["issued"]).get(FILINGS).status_code == 200
    assert last_used(credential) == NOON
    html = world["supervisor"].get(licensee_page(world["elks"])).content.decode()
    assert '<td data-label="Last used" class="last-used text-nowrap">2026-11-20 12:00 CST</td>' in row_of(
        html, credential
    )
    assert last_used(world["evergreen_credential"]) is None  # another credential's use is its own


def test_a_use_within_the_hour_writes_nothing_and_one_after_it_notes_the_new_moment(world):
    credential, client = world["issued"].credential, licensee_client(world["issued"])
    with time_machine.travel(NOON, tick=False):
        client.get(FILINGS)
    for later, noted in ((timedelta(minutes=59), NOON), (timedelta(minutes=61), NOON + timedelta(minutes=61))):
        with time_machine.travel(NOON + later, tick=False), CaptureQueriesContext(connection) as queries:
            assert client.get(FILINGS).status_code == 200
        assert last_used(credential) == noted
        assert len(updates(queries)) == (0 if noted == NOON else 1)


def test_the_conditional_update_keeps_a_moment_noted_since_the_credential_was_read(world):
    """Two requests at once read the credential before either noted its use: the second's UPDATE,
    conditional on the stored moment, finds it recent and changes nothing."""
    credential = world["issued"].credential
    stale_copy = Credential.objects.get(pk=credential.pk)
    with time_machine.travel(NOON, tick=False):
        services.record_credential_use(Credential.objects.get(pk=credential.pk))
    with time_machine.travel(NOON + timedelta(seconds=1), tick=False):
        services.record_credential_use(stale_copy)
    assert last_used(credential) == NOON


def test_a_revoked_credentials_refused_request_notes_no_use(world):
    credential = world["issued"].credential
    services.revoke_credential(acting_user=None, credential=credential)
    assert licensee_client(world["issued"]).get(FILINGS).status_code == 401
    assert last_used(credential) is None
