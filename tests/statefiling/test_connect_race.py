"""Two links to a state's registry made at once for one organization and pack (house control:
one live link a pack, the later replacing the earlier), on whichever database the suite runs
(SQLite by default, PostgreSQL with DATABASE_URL): the second waits for the first and replaces it,
as it does after it, rather than both finding no live link and the database refusing the second.
SQLite's writers queue (IMMEDIATE transactions), so there the two never cross; the test pins the
same outcome."""

import pytest

from cardroom.models import Organization
from core.audit_verify import verify_chain
from core.models import AuditEvent
from statefiling import services
from statefiling.models import RegistryLink
from tests.race_support import while_writing

FIRST, SECOND = "lic_" + "a" * 20, "lic_" + "b" * 20


def _connect(user, organization, credential):
    return services.connect_registry(
        acting_user=user, organization=organization, jurisdiction="ND", url="http://127.0.0.1:9", credential=credential
    )


@pytest.mark.django_db(transaction=True)
def test_two_links_made_at_once_leave_the_later_one_live(monkeypatch, org, manager):
    # The first link, its earlier ones retired, is about to be written: the other terminal links then.
    other = while_writing(
        monkeypatch,
        RegistryLink.objects,
        "create",
        lambda user: _connect(user, Organization.objects.get(pk=org.pk), SECOND),
        manager.user,
        when=lambda **values: values.get("credential") == FIRST,
    )
    first = _connect(manager.user, org, FIRST)
    done = [other.result()]

    assert isinstance(done[0], RegistryLink), done
    links = list(RegistryLink.objects.order_by("pk").values_list("credential", "active"))
    assert links == [(FIRST, False), (SECOND, True)]
    assert first.credential == FIRST
    assert AuditEvent.objects.filter(action="registry.connected").count() == 2
    assert verify_chain().ok
