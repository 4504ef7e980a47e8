"""The words that name a jurisdiction's law, and finding them in what a site shows.

Each pack's MARKS are the patterns of its own law: its citations, forms, tax statute and state
name, and the words its text alone uses (North Dakota's gross proceeds, AGP and twenty-one for the
game). At a site of one pack the marks of every pack of another state are foreign (a Washington
house-banked site and a Washington player-banked site share their state's words). The patterns
are citation-shaped so that what is not law does not match: a time zone ("America/New_York"),
an employee's initials (a New York dealer's may be "ND"), a hash or token (no word boundary).
"""

import html
import re
from dataclasses import dataclass

from packs import get_pack

ND_MARKS = (
    ("99-01.3", r"99-01\.3"),
    ("ND 0X-YY(n) shorthand", r"(?<![\w.-])0[1-9]-\d\d\(\d+\)"),  # chapter 99-01.3's sections cited short
    ("SFN", r"\bSFN\b"),
    ("N.D.C.C.", r"\bN\.\s?D\.\s?C\.\s?C\."),
    ("North Dakota", r"\bNorth\s+Dakota\b"),
    # Its regulator (08-04(7), 08-16: reports to the attorney general); Washington's is its gambling
    # commission, New York's its gaming commission.
    ("attorney general", r"(?i)\battorney\s+general\b"),
    # The names its text gives a table's figures (ND 99-01.3-08-01(3), 08-16(1)(g)): another pack
    # names them in its own words or the trade's (drop, win: packs.RevenueWords).
    ("gross proceeds", r"\b[Gg]ross\s+proceeds\b"),
    ("AGP", r"\bAGP\b"),
    ("GP", r"(?<![\w-])GP(?![\w-])"),  # its short name for the gross proceeds ("AGP / GP")
    # Its name for the ratio AGP / GP (08-01(3): "percent-of-hold is computed as ..."): the trade's
    # "hold" elsewhere (packs.RevenueWords.hold_name), hyphenated or not, any case.
    ("percent-of-hold", r"(?i)\bpercent[-\s]+of[-\s]+hold\b"),
    # Its record of a tournament's fees less its prizes (08-16(1)(f): the record of win, 99-01.3-03-08).
    ("record of win", r"(?i)\brecord\s+of\s+win\b"),
    # Its name for game 21 (the chapter's "Twenty-one"): Washington's texts say blackjack, New
    # York's Black Jack (packs.GameNames). Not a player's age ("twenty-one years of age").
    ("twenty-one", r"(?i)\btwenty-one\b(?!\s+years)"),
)
WA_MARKS = (
    ("WAC", r"\bWAC\s+\d"),
    ("WSGC", r"\bWSGC\b"),
    ("Washington", r"\bWashington\b"),
)
NY_MARKS = (
    ("NYCRR", r"\bNYCRR\b"),
    ("New York", r"\bNew\s+York\b"),
)

# Each pack's own words. Adding a pack: its words here (its site builder in tests/conformance/sites.py).
MARKS = {
    "ND": ND_MARKS,
    "WA-HB": WA_MARKS,
    "WA-BJ": WA_MARKS,
    "NY": NY_MARKS,
}

# Pack codes and short names a menu or a report list uses for another pack's entries.
PACK_LABELS = {
    "ND": (("ND pack", r"\(ND\)"),),
    "WA-HB": (("WA-HB", r"\bWA-HB\b"), ("(WA)", r"\(WA\)")),
    "WA-BJ": (("WA-BJ", r"\bWA-BJ\b"), ("(WA)", r"\(WA\)")),
    "NY": (("(NY)", r"\(NY\)"),),
}


def foreign_marks(code: str, marks=MARKS) -> list[tuple[str, re.Pattern]]:
    """The marks of every pack of another state than `code`'s."""
    state = get_pack(code).state
    seen, out = set(), []
    for other, patterns in marks.items():
        if get_pack(other).state == state:
            continue
        for label, pattern in patterns:
            if label not in seen:
                seen.add(label)
                out.append((label, re.compile(pattern)))
    return out


@dataclass(frozen=True)
class Hit:
    label: str  # the mark found
    context: str  # the words around it

    def __str__(self) -> str:
        return f"{self.label!r} in '...{self.context}...'"


TAGS = re.compile(r"<style\b.*?</style>|<[^>]+>", re.S | re.I)
# Where every pack is listed to choose one, by its name and text: the jurisdiction of a site being
# set up (its form's select) and the admin's "By jurisdiction" filter. A chooser of packs, not the
# law of the site; nothing else is exempt.
PACK_CHOOSERS = re.compile(
    r'<select[^>]*name="jurisdiction"[^>]*>.*?</select>'
    r'|<a[^>]*href="[^"]*jurisdiction__exact=[^"]*"[^>]*>.*?</a>',
    re.S | re.I,
)


def visible_text(body: str) -> str:
    """An HTML page's text and attribute values as read (tags dropped, entities decoded), one
    space between words; other text as is, one space between words."""
    if "<" in body and ">" in body:
        body = PACK_CHOOSERS.sub(" ", body)
        attributes = " ".join(re.findall(r'(?:title|placeholder|aria-label|value|alt|data-label)="([^"]*)"', body))
        body = TAGS.sub(" ", body) + " " + attributes
    return " ".join(html.unescape(body).split())


def find(text: str, marks: list[tuple[str, re.Pattern]], around: int = 60) -> list[Hit]:
    """Each foreign mark found in `text`, once per distinct context."""
    text = visible_text(text)
    hits, seen = [], set()
    for label, pattern in marks:
        for match in pattern.finditer(text):
            context = text[max(0, match.start() - around) : match.end() + around]
            if (label, context) not in seen:
                seen.add((label, context))
                hits.append(Hit(label, context))
    return hits


def compiled(marks) -> list[tuple[str, re.Pattern]]:
    return [(label, re.compile(pattern)) for label, pattern in marks]


# For the per-area tests of each pack: North Dakota's words at another pack's site, and at a North
# Dakota site the other states' citations (their state names are left to the conformance walk,
# which knows a time zone from a state). Found as words in what a page shows (`find`), never as
# bare substrings: "SFN" or "WAC" can stand inside a page's random tokens (a CSRF token is 64
# letters and digits), which failed a substring check once in CI.
ND_WORDS = compiled(ND_MARKS)
OTHER_WORDS = compiled(mark for mark in WA_MARKS + NY_MARKS if mark[0] in ("WAC", "WSGC", "NYCRR"))


def law_words_in(text: str, marks) -> list[str]:
    """Each of `marks` (compiled) found in `text`, with what stands around it."""
    return [str(hit) for hit in find(text, marks)]


def refused_in_its_packs_words(errors: dict, field: str, citation: str, code: str) -> str:
    """A service's refusal (`ValidationError.message_dict`) at a site of pack `code`: one message, at
    `field` alone, citing `citation` first and no other pack's law. Returns the message."""
    assert list(errors) == [field], errors
    (message,) = errors[field]
    assert message.startswith(f"{citation}: "), message
    assert not law_words_in(message, OTHER_WORDS if code == "ND" else ND_WORDS), message
    return message
