"""The thresholds page (/compliance/thresholds/): every effective-dated threshold, read-only, with
its citation, value and the dates it is in force; for gaming managers and auditors."""

import html
import re
from datetime import date
from decimal import Decimal

import pytest

from cardroom.models import Role
from compliance.models import Threshold
from compliance.threshold_views import threshold_rows, value_text
from compliance.thresholds import ensure_seeded
from packs import get_pack
from tests.conformance.words import ND_WORDS, law_words_in
from tests.conftest import ALL_ROLES

URL = "/compliance/thresholds/"
# A key as the page keeps it for the admin: small, muted, beside the name a manager reads.
KEY = '<code class="small text-muted">{}</code>'


@pytest.fixture
def seeded(db):
    ensure_seeded()


def as_user(client, employee):
    client.force_login(employee.user)
    return client


@pytest.mark.parametrize(
    "value,unit,text",
    [
        (Decimal("0.10"), "ratio", "10%"),
        (Decimal("0.155"), "ratio", "15.5%"),
        (Decimal("1000000"), "cents", "$10,000.00"),
        (Decimal("30.000000"), "days", "30 days"),
        (Decimal("48"), "hours", "48 hours"),
    ],
)
def test_a_value_reads_as_the_regulation_writes_it(value, unit, text):
    assert value_text(value, unit) == text


@pytest.mark.parametrize("role", ALL_ROLES)
def test_gaming_managers_and_auditors_read_it_other_roles_are_refused(client, cast, seeded, role):
    response = as_user(client, cast[role]).get(URL)
    if role in (Role.GAMING_MANAGER, Role.AUDITOR):
        assert response.status_code == 200
    else:
        assert response.status_code == 403
        assert (
            "House control: only a gaming manager or auditor may see the thresholds page." in response.content.decode()
        )


def test_the_page_lists_each_threshold_with_citation_value_and_dates(client, cast, seeded):
    text = as_user(client, cast[Role.GAMING_MANAGER]).get(URL).content.decode()
    assert "Low-hold threshold, twenty-one" in text and KEY.format("low_hold.ratio_21") in text
    assert "ND 99-01.3-08-04(9)" in text and "10%" in text and "2018-07-01" in text
    assert "$10,000.00" in text  # surveillance.gp_average_cents
    assert "<form" not in text.split('id="thresholds"')[1]  # read-only


def test_a_later_row_ends_the_earlier_one_the_day_before(seeded):
    Threshold.objects.create(
        code="low_hold.ratio_21",
        value=Decimal("0.12"),
        unit="ratio",
        citation="ND 99-01.3-08-04(9)",
        summary="Amended.",
        effective_from=date(2030, 1, 1),
    )
    rows = [r for r in threshold_rows(date(2026, 11, 23)) if r.threshold.code == "low_hold.ratio_21"]
    assert [(r.value, r.until, r.in_force) for r in rows] == [
        ("10%", date(2029, 12, 31), True),
        ("12%", None, False),
    ]
    later = [r for r in threshold_rows(date(2030, 1, 1)) if r.threshold.code == "low_hold.ratio_21"]
    assert [r.in_force for r in later] == [False, True]


def test_the_page_marks_the_rows_in_force(client, cast, seeded):
    Threshold.objects.create(
        code="outage.activity_hours",
        value=24,
        unit="hours",
        citation="ND 99-01.3-08-04(7)",
        summary="Shortened (a future amendment).",
        effective_from=date(2099, 1, 1),
    )
    text = as_user(client, cast[Role.AUDITOR]).get(URL).content.decode()
    assert text.split('id="thresholds"')[1].count("in force</span>") == Threshold.objects.count() - 1
    assert "2098-12-31" in text and "2099-01-01" in text


@pytest.mark.parametrize("code", ["WA-HB", "WA-BJ", "NY"])
@pytest.mark.parametrize("role", [Role.GAMING_MANAGER, Role.AUDITOR])
def test_an_organization_of_another_pack_sees_only_its_packs_thresholds(client, cast, site, seeded, code, role):
    """A Washington or New York organization's gaming manager or auditor: none of North Dakota's
    thresholds (their rules do not run there), only the house's own reminder, cited House control."""
    site.jurisdiction = code
    site.save()
    text = as_user(client, cast[role]).get(URL).content.decode()
    table = text.split('id="thresholds"')[1]
    assert "Reminder before an alert is due" in table and KEY.format("reminder.days_before_due") in table
    assert "House control" in table
    assert (
        "low_hold.ratio_21" not in table and "Low-hold threshold" not in table and "deposit.banking_days" not in table
    )
    assert not law_words_in(text, ND_WORDS), law_words_in(text, ND_WORDS)


def test_an_organization_with_north_dakota_and_washington_sites_sees_north_dakotas_with_their_pack(
    client, cast, site, other_site, seeded
):
    other_site.jurisdiction = "WA-HB"
    other_site.save()
    rows = threshold_rows(date(2026, 11, 23), [get_pack("ND")])
    assert {r.pack for r in rows if r.threshold.code == "low_hold.ratio_21"} == {"North Dakota"}
    text = as_user(client, cast[Role.AUDITOR]).get(URL).content.decode()
    assert KEY.format("low_hold.ratio_21") in text and "ND 99-01.3-08-04(9)" in text
    assert "WAC" not in text.split('id="thresholds"')[1]


def test_the_washington_house_banked_wager_cap_is_shown_with_its_source_only_to_its_organization(
    client, cast, site, seeded
):
    """Issue 32: each pack's limits on the page (WAC 230-15-140's $300 single wager), only the
    organization's packs'."""
    site.jurisdiction = "WA-HB"
    site.save()
    text = as_user(client, cast[Role.AUDITOR]).get(URL).content.decode()
    limits = text.split('id="limits"')[1].split("</table>")[0]
    assert "$300.00" in limits and "WAC 230-15-140" in limits and "Washington house-banked blackjack" in limits
    assert "99-01.3" not in limits


def test_north_dakotas_limits_are_shown_with_section_and_effective_date(client, cast, seeded):
    text = as_user(client, cast[Role.GAMING_MANAGER]).get(URL).content.decode()
    limits = text.split('id="limits"')[1].split("</table>")[0]
    assert "ND 99-01.3-08-09(1)" in limits and "$25.00" in limits
    assert "$200.00 per player" in limits and "ND 99-01.3-08-15(1)" in limits and "2006-10-01" in limits
    assert "ND 99-01.3-03-10(1)" in limits and "WAC" not in limits


def test_each_limit_and_threshold_is_named_in_words_its_key_only_in_small_print(client, cast, seeded):
    """Found walking the demo: the page showed "surveillance.outage_activity in force" and
    "low_hold.ratio_21", keys a manager cannot read. Each row now opens with its name (its citation
    in the row's own column); the key stays beside it, small and muted, for the admin."""
    text = as_user(client, cast[Role.GAMING_MANAGER]).get(URL).content.decode()
    limits = text.split('id="limits"')[1].split("</table>")[0]
    thresholds = text.split('id="thresholds"')[1].split("</table>")[0]
    [row] = [r for r in limits.split("<tr")[1:] if "<td>48 hours of activity on the table</td>" in r]
    name, _value, citation = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)[:3]
    assert name.startswith("Repair of a camera or recorder: hours of activity on the table ")
    assert KEY.format("surveillance.outage_activity") in name and citation == "ND 99-01.3-08-04(7)"
    for table in (limits, thresholds):
        cells = [
            html.unescape(re.sub(r"<code[^>]*>.*?</code>|<[^>]+>", " ", c))
            for c in re.findall(r"<tr[^>]*>\s*<td>(.*?)</td>", table, re.S)
        ]
        assert cells and not [c for c in cells if re.search(r"\b[a-z_]+\.[a-z_0-9]+\b", c)], cells
    assert "Low-hold threshold, twenty-one" in thresholds and "Low-hold threshold, paddlewheel" in thresholds


def test_every_key_and_code_a_pack_holds_has_its_name():
    """The names (`compliance.threshold_views.NAMES`) cover every limit key and threshold code of
    every pack and the house's own: a new one added without its name fails here."""
    from compliance.threshold_views import NAMES
    from compliance.thresholds import SEED
    from packs import all_packs

    keys = {x.key for pack in all_packs() for x in pack.limits} | {row[0] for row in SEED}
    assert sorted(keys - set(NAMES)) == []
    assert sorted(set(NAMES) - keys) == []  # no stale name
