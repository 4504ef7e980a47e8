"""One date format on every page (issue 15): ISO 8601 (`2026-11-23`, times `18:05`), never
`11/23/2026`, `Nov. 23, 2026` or `8:05 p.m.`. Every page the gaming manager reaches is walked
(the URL conf and the links of the pages, as the N+1 walk does) over a night of the demo."""

import re

import pytest

from benchmarks import pages

pytestmark = pytest.mark.django_db

MONTH = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)"
OTHER_FORMATS = {
    "month/day/year": re.compile(r"\b\d{1,2}/\d{1,2}/(?:\d{4}|\d{2})\b"),
    "month/day and a time": re.compile(r"\b\d{1,2}/\d{1,2} \d{1,2}:\d\d\b"),
    "a month's name and a day": re.compile(rf"\b{MONTH}\.? \d{{1,2}}(?:, \d{{4}})?\b"),
    "a.m. or p.m.": re.compile(r"\b\d{1,2}(?::\d\d)? ?(?:a\.m\.|p\.m\.|[ap]m\b)", re.IGNORECASE),
    "a month's full name and a day": re.compile(
        r"\b(?:January|February|March|April|June|July|August|September|October|November|December) \d{1,2}\b"
    ),
}


def visible_text(html: str) -> str:
    """The page without its scripts, styles and tags' attributes (a URL may hold `2/3`)."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


@pytest.mark.parametrize("text", ["11/23/2026", "Nov. 23, 2026", "Nov 23", "8:05 p.m.", "11/23 8:05", "November 23"])
def test_the_check_recognises_the_other_formats(text):
    assert any(pattern.search(text) for pattern in OTHER_FORMATS.values())


@pytest.mark.parametrize(
    "text", ["2026-11-23", "2026-11-23 18:05", "Table 1/2 · 3 to 2", "$1,387.00", "Mon 2026-11-23"]
)
def test_the_check_lets_the_house_format_and_other_numbers_pass(text):
    assert not any(pattern.search(text) for pattern in OTHER_FORMATS.values())


def test_every_page_writes_dates_one_way():
    pages.load_nights(pages.SMALL_NIGHTS)
    pages.fill_day_figures()
    client = pages.manager_client()
    walked, offences = 0, []
    for path in pages.discover(client):
        if path.startswith("/api/"):
            continue
        response = client.get(path)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        walked += 1
        text = visible_text(response.content.decode())
        for name, pattern in OTHER_FORMATS.items():
            for match in pattern.finditer(text):
                offences.append(f"{path}: {name}: {text[max(0, match.start() - 40) : match.end() + 20]!r}")
    assert walked >= 40
    assert offences == [], "\n".join(offences[:40])
    assert re.search(r"\b20\d\d-\d\d-\d\d \d\d:\d\d\b", visible_text(client.get("/floor/register/").content.decode()))
