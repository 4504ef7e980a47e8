"""A number typed in the browser or an address is read by `core.limits.digits` (ASCII digits only):
str.isdigit() also accepts "²" and "1²", which int() refuses, so each page that checked with it and
then called int() answered a 500 (found by fuzzing the demo's forms and addresses, 2026-12-03). Now
they answer as for any other bad value, and nothing in the project's code calls isdigit() itself."""

import re
from pathlib import Path

import pytest

from cardroom.models import Role
from core.limits import digits, record_id

ROOT = Path(__file__).resolve().parents[2]
# The one definition, and the citation sort key of core.rules (below core.limits: it checks ASCII itself).
ALLOWED = {"core/limits.py", "core/rules.py"}


def test_digits_are_ascii_digits_only():
    assert digits("12") and digits("0")
    for text in ("", "-1", "1.5", "²", "1²", "١٢", " 1", "1e3"):
        assert not digits(text), text
    assert record_id("²") is None and record_id("1²") is None


def test_no_code_but_core_limits_asks_isdigit():
    found = []
    for path in ROOT.rglob("*.py"):
        relative = path.relative_to(ROOT).as_posix()
        if relative.split("/")[0] in {".venv", "tests", "benchmarks"} or relative in ALLOWED:
            continue
        found += [f"{relative}:{n}" for n, line in enumerate(path.read_text().splitlines(), 1) if ".isdigit()" in line]
    assert not found, f"use core.limits.digits (str.isdigit() takes '²', which int() refuses): {found}"


@pytest.mark.parametrize(
    "address",
    [
        "/dashboard/daily/?site=%C2%B2",
        "/dashboard/daily/?site=1%C2%B2&date=2026-11-02",
        "/dashboard/quarter/?site=%C2%B2",
        "/dashboard/dealers/?site=%C2%B2",
        "/compliance/alerts/?site=%C2%B2",
        "/dashboard/audit/?older=%C2%B2",
        "/dashboard/audit/?newer=1%C2%B2",
        "/cage/?date=9999-12-31",
        "/cage/?date=0001-01-01",
    ],
)
def test_an_address_with_a_superscript_digit_or_a_date_past_the_books_is_no_500(client, cast, address):
    client.force_login(cast[Role.GAMING_MANAGER].user)
    assert client.get(address).status_code < 500


@pytest.mark.parametrize(
    "target", ["-1", "0", "NaN", "2026-02-30", "dashboard", "//evil.example/", "https://evil.example/"]
)
def test_switching_site_with_a_next_that_is_not_a_path_goes_home(client, cast, site, target):
    """redirect() took a word ("-1") for a view's name and failed to find it: a 500."""
    client.force_login(cast[Role.GAMING_MANAGER].user)
    answer = client.post("/switch-site/", {"site": site.pk, "next": target})
    assert answer.status_code == 302 and answer["Location"] == "/"
    assert client.post("/switch-site/", {"site": site.pk, "next": "/cage/"})["Location"] == "/cage/"


def test_a_table_number_with_a_superscript_digit_is_refused_on_the_books_form(client, cast, site):
    """The daily page's adjusting entry names a table by its number."""
    client.force_login(cast[Role.GAMING_MANAGER].user)
    answer = client.post(
        f"/dashboard/daily/books/adjust/?site={site.pk}",
        {"date": "2026-11-02", "field": "drop", "table_number": "1²", "amount": "1", "reason": "test"},
    )
    assert answer.status_code < 500
    assert not re.search(r"Traceback|Server Error", answer.content.decode())
