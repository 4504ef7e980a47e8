"""The compliance page lists only the chosen site's pack's rules: North Dakota's checks at an ND
site, none of them at a WA or NY site, and each pack's table rule citations."""

import html
import re

import pytest

from cardroom.access import SESSION_KEY


def rules_section(client, site):
    session = client.session
    session[SESSION_KEY] = site.pk
    session.save()
    page = client.get("/compliance/alerts/")
    assert page.status_code == 200
    return re.search(r'<section class="card mt-4" id="pack-rules">(.*?)</section>', page.content.decode(), re.S).group(
        1
    )


def test_a_north_dakota_site_lists_the_nd_checks(client, manager, site):
    client.force_login(manager.user)
    section = rules_section(client, site)
    assert "ND 99-01.3-08-05" in section and "ND 99-01.3-08-02(3)" in section


@pytest.mark.parametrize(
    ("code", "citation"),
    [
        ("NY", "9 NYCRR 4620.5(f)(2)"),
        ("WA-HB", "WSGC Blackjack Game Rules (rev. April 2018), rule 7"),
        ("WA-BJ", "WAC 230-40-125(4) (1999 proposed amendment)"),
    ],
)
def test_another_packs_site_lists_its_own_rules_and_no_nd_rule(client, manager, site, code, citation):
    site.jurisdiction = code
    site.save()
    client.force_login(manager.user)
    section = rules_section(client, site)
    assert citation in section
    assert "ND 99-01.3" not in section and "SFN" not in section
    # The house controls kept at every site run there (the bank deposit's deadline; the chip float,
    # issue 36, where the house holds chips: not at a fees-only WA-BJ site), and the pack's own
    # check where its law has one (the tables follow the licence, NY, or the internal controls, WA-HB, whose
    # controls document how irregularities are addressed).
    checks = re.findall(r"<li>(.*?)</li>", section.split("Table rules checked")[0], re.S)
    what = "each active table follows the licence or internal controls in force today."
    own = {"NY": f"9 NYCRR 4620.5(h): {what}", "WA-HB": f"WSGC Blackjack Game Rules (rev. April 2018): {what}"}
    irregularities = (
        "WSGC Blackjack Game Rules (rev. April 2018), Irregularities: the internal controls in force for each game "
        "say how they are addressed."
    )
    assert checks == [
        "House control: each day of the books is deposited by the third banking day after it.",
        *([irregularities] if code == "WA-HB" else []),
        *([own[code]] if code in own else []),
        *(
            []
            if code == "WA-BJ"
            else ["House control: the banks and trays hold no more chips than the inventory log says exist."]
        ),
    ]
    assert ("only the house controls above run here" in section) == (code == "WA-BJ")


def test_the_table_rules_are_listed_once_each_in_the_order_a_reader_counts_them(client, manager, site):
    """rule 3 before rule 11 (not as text, where "11" comes before "3"), and one spelling of a
    rule cited by the table rules and by the approvals alike."""
    from core.rules import citation_order

    site.jurisdiction = "WA-HB"
    site.save()
    client.force_login(manager.user)
    listed = re.findall(r"<li>(.*?)</li>", rules_section(client, site).split("Table rules checked")[1], re.S)
    wsgc = [c for c in listed if c.startswith("WSGC Blackjack Game Rules")]
    numbered = [c.rsplit(", ", 1)[1] for c in wsgc if ", rule " in c]
    assert numbered == ["rule 1", "rule 3", "rule 7", "rule 9.iii", "rule 11"]
    assert len(listed) == len(set(listed)) and not [c for c in wsgc if " rule " in c and ", rule " not in c]
    assert sorted(["A 5(10)", "A 5(2)", "A 5"], key=citation_order) == ["A 5", "A 5(2)", "A 5(10)"]


def test_each_check_is_said_in_a_whole_sentence_and_each_rule_once_in_full(client, manager, site):
    """Found walking the demo: the ND checks were each the first line of a wrapped docstring, cut
    mid-sentence ("ND 99-01.3-08-04: two consecutive quarters (or a seasonal site's fiscal year)
    of"), and the table rules listed the slip label's short form "08-05(3)(c)" beside its full
    citation. Each check is now its whole first sentence, without the code names written for
    developers; each rule is listed once, in full."""
    client.force_login(manager.user)
    section = rules_section(client, site)
    checks = re.findall(r"<li>(.*?)</li>", section.split("Table rules checked")[0], re.S)
    assert checks and all(line.endswith(".") for line in checks), [c for c in checks if not c.endswith(".")]
    assert (
        "ND 99-01.3-08-04: a site whose twenty-one gross proceeds averaged $10,000 or more per quarter for two entire "
        "consecutive quarters"
    ) in section
    assert not [c for c in checks if "`" in c or "surveillance.coverage" in c or "floor.queries" in c], checks
    listed = re.findall(r"<li>(.*?)</li>", section.split("Table rules checked")[1], re.S)
    assert "08-05(3)(c)" not in listed and "ND 99-01.3-08-05(3)(c)" in listed


def checks_at(client, manager, site) -> list[str]:
    client.force_login(manager.user)
    section = rules_section(client, site)
    return [html.unescape(c) for c in re.findall(r"<li>(.*?)</li>", section.split("Table rules checked")[0], re.S)]


def test_the_dealer_hold_check_says_what_08_04_8_says_and_marks_the_box_exchange_as_the_houses(client, manager, site):
    """Found walking the demo: the line said "a dealer's percent-of-hold is tracked, so its drop boxes
    are exchanged at each dealer change", as if the exchange were the rule's. ND 99-01.3-08-04(8)
    says only that the organization "shall track a dealer's and wheel operator's percent-of-hold
    performance"; the exchange is the house's way to track it."""
    [line] = [c for c in checks_at(client, manager, site) if c.startswith("ND 99-01.3-08-04(8):")]
    assert "shall track each dealer's and wheel operator's percent-of-hold performance" in line
    assert "(house control, to track percent-of-hold)" in line
    assert "is tracked, so" not in line and "leaves no shift" not in line


def test_citations_of_one_section_are_joined_without_the_bare_section_another_refines(client, manager, site):
    """Found walking the demo: "ND 99-01.3-08-14(1), ND 99-01.3-08-14, ND 99-01.3-08-14(4)"."""
    checks = checks_at(client, manager, site)
    [counts] = [c for c in checks if "drop box not removed" in c]
    assert counts.startswith("ND 99-01.3-08-14(1), ND 99-01.3-08-14(4): ")
    assert not [c for c in checks if "ND 99-01.3-08-14," in c], checks


# The words a reviewer found would not parse, or that named the product's run for the manager.
UNCLEAR = (
    "never makes require",
    "leaves no shift a drop",
    "is tracked, so",
    "on a day of the run",
    "gets the alert",
    "judged where the site's pack states it",
    "the level over",
)


def test_each_north_dakota_check_reads_as_one_plain_sentence(client, manager, site):
    checks = checks_at(client, manager, site)
    assert len(checks) > 20
    assert not [c for c in checks for words in UNCLEAR if words in c], checks
    # each line: its citations, then what is flagged, starting in lower case after the colon
    assert all(re.match(r"^(ND 99-01\.3-\d\d-\d\d[^:]*|House control): [a-z]", c) for c in checks), checks


@pytest.mark.parametrize("code", ["WA-HB", "WA-BJ", "NY"])
def test_the_rewritten_north_dakota_lines_appear_at_no_other_packs_site(client, manager, site, code):
    site.jurisdiction = code
    site.save()
    checks = " ".join(checks_at(client, manager, site))
    for words in ("percent-of-hold", "house control, to track", "twenty-one", "attorney general", "gross proceeds"):
        assert words not in checks, (code, words)
