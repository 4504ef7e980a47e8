"""The OpenAPI schema is one a client can be built from: it validates (openapi-spec-validator),
and a client generated from it (openapi-python-client, into a temporary directory, never
committed) signs in, opens a gaming day, prepares a fill slip (retried with its
Idempotency-Key: one slip), has it verified and received, and reads the daily summary."""

import importlib
import json
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from openapi_spec_validator import validate

from cardroom.models import Role
from floor.models import Slip
from tests.factories import PASSWORD
from tests.floor.conftest import FILL, TRAY, today

PACKAGE = "cardroom_api_client"


def _schema() -> dict:
    return json.loads(OpenApiJsonRenderer().render(SchemaGenerator().get_schema(request=None, public=True)))


def test_the_schema_validates():
    validate(_schema())


def test_every_post_takes_an_idempotency_key_and_documents_409():
    schema = _schema()
    for path, methods in schema["paths"].items():
        post = methods.get("post")
        if post is None:
            continue
        assert any(p["in"] == "header" and p["name"] == "Idempotency-Key" for p in post["parameters"]), path
        assert "409" in post["responses"], path


def test_request_bodies_forbid_unknown_fields():
    components = _schema()["components"]["schemas"]
    bodies = {name: c for name, c in components.items() if name.endswith("Request") and "properties" in c}
    assert len(bodies) > 40
    assert all(c["additionalProperties"] is False for c in bodies.values())
    line = components["ChipLineInputRequest"]
    assert line["properties"]["denomination"]["type"] == "integer"
    assert "value in cents" in line["properties"]["denomination"]["description"]


@pytest.fixture
def generated_client(tmp_path):
    """The generated package, importable for the test only."""
    (tmp_path / "schema.json").write_text(json.dumps(_schema()))
    (tmp_path / "config.yaml").write_text("post_hooks: []\n")
    generator = shutil.which("openapi-python-client") or str(Path(sys.executable).with_name("openapi-python-client"))
    subprocess.run(
        [
            generator,
            "generate",
            "--path",
            str(tmp_path / "schema.json"),
            "--output-path",
            str(tmp_path / PACKAGE),
            "--meta",
            "none",
            "--config",
            str(tmp_path / "config.yaml"),
        ],
        check=True,
        capture_output=True,
        timeout=600,
    )
    sys.path.insert(0, str(tmp_path))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(tmp_path))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(f"{PACKAGE}.")]:
            del sys.modules[name]


def _api(name: str):
    return importlib.import_module(f"{PACKAGE}.api.v1.{name}")


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_generated_client_runs_a_slip_from_open_day_to_daily_summary(
    generated_client, live_server, site, chips, table, cast
):
    from cardroom_api_client import AuthenticatedClient, Client
    from cardroom_api_client import models as m

    def sign_in(employee):
        anonymous = Client(base_url=live_server.url)
        answer = _api("v1_auth_token_create").sync_detailed(
            client=anonymous, body=m.LoginRequest(username=employee.user.username, password=PASSWORD)
        )
        assert answer.status_code == 200, answer.content
        return AuthenticatedClient(base_url=live_server.url, token=answer.parsed.token, prefix="Token")

    def lines(chip_lines):
        return [m.ChipLineInputRequest(denomination=c["denomination"], quantity=c["quantity"]) for c in chip_lines]

    boss, cashier, dealer = sign_in(cast[Role.SHIFT_MANAGER]), sign_in(cast[Role.CASHIER]), sign_in(cast[Role.DEALER])
    date = today(site)

    day = _api("v1_gaming_days_create").sync_detailed(
        client=boss, body=m.GamingDayInputRequest(site=site.pk, gaming_date=date)
    )
    assert day.status_code == 201, day.content
    assert day.parsed.gaming_date == date
    opener = _api("v1_table_inventories_create").sync_detailed(
        client=boss,
        body=m.TableInventoryInputRequest(table=table.pk, kind=m.TableInventoryInputKindEnum.OPENER, chips=lines(TRAY)),
    )
    assert opener.status_code == 201, opener.content
    shift = _api("v1_dealer_shifts_create").sync_detailed(
        client=boss, body=m.DealerShiftInputRequest(table=table.pk, dealer=cast[Role.DEALER].pk)
    )
    assert shift.status_code == 201, shift.content

    key = str(uuid.uuid4())
    prepare = _api("v1_fill_slips_create")
    body = m.SlipInputRequest(table=table.pk, chips=lines(FILL))
    slip = prepare.sync_detailed(client=cashier, body=body, idempotency_key=key)
    retried = prepare.sync_detailed(client=cashier, body=body, idempotency_key=key)
    assert slip.status_code == retried.status_code == 201, slip.content
    assert isinstance(slip.parsed, m.Slip)
    assert retried.parsed.id == slip.parsed.id
    assert retried.headers["Idempotent-Replayed"] == "true"
    assert Slip.objects.count() == 1

    verified = _api("v1_fill_slips_verify_create").sync_detailed(slip.parsed.id, client=boss)
    assert verified.status_code == 200, verified.content
    received = _api("v1_fill_slips_receive_create").sync_detailed(slip.parsed.id, client=dealer)
    assert received.status_code == 200, received.content
    assert received.parsed.status == "received"

    summary = _api("v1_sites_daily_summary_retrieve").sync_detailed(site.pk, client=boss, date=date)
    assert summary.status_code == 200, summary.content
    assert isinstance(summary.parsed, m.DailySummaryOut)
    fills = sum(line["denomination"] * line["quantity"] for line in FILL)
    assert [t.fills_cents for t in summary.parsed.tables] == [fills]
    assert summary.parsed.total.fills_cents == fills
