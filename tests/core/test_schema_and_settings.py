import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_openapi_schema_lists_the_core_endpoints_and_their_errors(client, manager):
    client.force_login(manager.user)
    response = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    schema = response.json()
    for path in (
        "/api/v1/sites/",
        "/api/v1/tables/",
        "/api/v1/employees/",
        "/api/v1/chip-denominations/",
        "/api/v1/auth/token/",
    ):
        assert path in schema["paths"]
    assert {"400", "403", "201"} <= set(schema["paths"]["/api/v1/tables/"]["post"]["responses"])


def test_swagger_ui_is_served_from_our_own_static_files(client, manager):
    client.force_login(manager.user)
    page = client.get("/api/docs/").content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in page
    assert "cdn" not in page.lower()


def test_production_settings_refuse_to_start_without_a_secret(tmp_path):
    env = {**os.environ, "DEBUG": "false", "VAR_DIR": str(tmp_path)}
    env.pop("SECRET_KEY", None)
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


@pytest.mark.parametrize(
    "cents,text", [(0, "$0.00"), (123450, "$1,234.50"), (-1200, "-$12.00"), (5, "$0.05"), (None, "\u2014")]
)
def test_one_money_formatter(cents, text):
    from core.money import format_money

    assert format_money(cents) == text


@pytest.mark.parametrize("text,cents", [("5", 500), ("5.25", 525), ("$1,000.10", 100010), ("-2", -200)])
def test_dollars_parse_to_exact_cents(text, cents):
    from core.money import decimal_to_cents

    assert decimal_to_cents(text) == cents


@pytest.mark.parametrize("text", ["1.005", "abc", "NaN", "Infinity", ""])
def test_fractions_of_a_cent_and_garbage_are_refused(text):
    from core.money import decimal_to_cents

    with pytest.raises(ValueError):
        decimal_to_cents(text)


def test_ratios_round_half_up_for_display_only():
    from decimal import Decimal

    from core.money import format_ratio

    assert format_ratio(Decimal("0.12345")) == "12.35%"
    assert format_ratio(None) == "n/a"


def test_the_openapi_schema_builds_without_warnings():
    from django.core.management import call_command

    call_command("spectacular", "--file", os.devnull, "--fail-on-warn", "--validate")
