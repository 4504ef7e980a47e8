"""The registry reachable in this process: a urllib handler that answers the organization's
HTTP requests to the registry (`statefiling.client`, unchanged) with this deployment's own
Django, through the test client. The organization's side and the registry's run their real
code on both ends of the wire; `down` makes the registry unreachable (a refused connection)."""

import io
import urllib.error
import urllib.request
import urllib.response
from datetime import date
from email.message import Message

import pytest
from django.test import Client

from registry import services as registry
from registry.models import Agency, Licensee
from statefiling import services

AGENCY = "North Dakota Attorney General - Gaming Division"
URL = "http://127.0.0.1:9"  # port 9 answers nothing: only the handler below answers it


class InProcessRegistry(urllib.request.BaseHandler):
    handler_order = 100  # before urllib's own HTTP handler

    def __init__(self):
        self.down = False
        self.requests: list[tuple[str, str]] = []
        self.client = Client()

    def http_open(self, request):
        if self.down:
            raise urllib.error.URLError(ConnectionRefusedError(111, "Connection refused"))
        self.requests.append((request.get_method(), request.selector))
        headers = {name.lower(): value for name, value in request.header_items()}
        extra = {
            f"HTTP_{name.upper().replace('-', '_')}": value for name, value in headers.items() if name != "content-type"
        }
        answer = self.client.generic(
            request.get_method(),
            request.selector,
            data=request.data or b"",
            content_type=headers.get("content-type", "application/octet-stream"),
            **extra,
        )
        info = Message()
        for name, value in answer.items():
            info[name] = value
        response = urllib.response.addinfourl(io.BytesIO(answer.content), info, request.full_url, answer.status_code)
        response.msg = answer.reason_phrase
        return response


@pytest.fixture
def in_process_registry():
    handler = InProcessRegistry()
    urllib.request.install_opener(urllib.request.build_opener(handler))
    yield handler
    urllib.request.install_opener(None)


@pytest.fixture
def licensee(db, org):
    agency, _ = Agency.objects.get_or_create(name=AGENCY, defaults={"jurisdiction": "ND"})
    return Licensee.objects.create(
        agency=agency, name=org.name, licence_number=org.licence_number or "G-1", expected_from=date(2026, 1, 1)
    )


@pytest.fixture
def linked(in_process_registry, licensee, org, manager):
    """The organization connected to the in-process registry with a credential of its licensee."""
    issued = registry.issue_credential(acting_user=None, licensee=licensee)
    return services.connect_registry(
        acting_user=manager.user, organization=org, jurisdiction="ND", url=URL, credential=issued.secret
    )
