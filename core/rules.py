"""What a refusal cites when no law states the rule, and the order citations are listed in."""

import re
from collections.abc import Iterable

# What a refusal cites when the regulation does not say who may act: the product's own control
# (shared/docs/domain.md), never a section that does not say it.
HOUSE_CONTROL = "House control"


def citation_order(citation: str) -> tuple:
    """A key that lists citations as a reader counts them: "rule 3" before "rule 11", a section's
    subsection (2) before its (10) (each run of digits compared as a number, the text between as
    text)."""
    return tuple(
        (0, int(part), "") if part.isascii() and part.isdigit() else (1, 0, part)
        for part in re.findall(r"\d+|\D+", citation)
    )


def joined_citations(citations: Iterable[str], separator: str = ", ") -> str:
    """Several citations joined, each said once, in the order given: a citation repeated, or a bare
    section that another of them refines, is left out ("ND 99-01.3-08-14(1), ND 99-01.3-08-14,
    ND 99-01.3-08-14(4)" reads "ND 99-01.3-08-14(1), ND 99-01.3-08-14(4)"), since the refined
    citation already names the section."""
    listed = list(dict.fromkeys(citations))
    return separator.join(c for c in listed if not any(other.startswith(f"{c}(") for other in listed))


def lower_first(sentence: str) -> str:
    """`sentence` with its first letter lowered, to follow a citation and its colon ("House
    control: this password is too short."): a framework's sentence, or one of ours, said after
    the rule it rests on."""
    return sentence[:1].lower() + sentence[1:]


_STOCK_SUBJECT = re.compile(r"^(This field|This list|This dictionary|This value)\b|^Ensure this (field|value|list)\b")
_STOCK_FORMAT = re.compile(r"^(Date|Datetime|Time|Duration) has wrong format\. Use one of these formats instead: ")


def stock_message_named(name: str, message: str) -> str:
    """A framework's stock refusal (DRF's or Django's) naming the field and House control, the
    framework's words after it, one wording for the API and the browser forms: "This field may not
    be null." -> "House control: table may not be null.", "Ensure this value is greater than or
    equal to 1." -> "House control: Ensure number is greater than or equal to 1.", "Date has wrong
    format. Use one of these formats instead: {format}." -> "House control: gaming_date has the
    wrong format; use {format}.", else "House control: quantity: a valid integer is required."."""
    if _STOCK_FORMAT.match(message):
        return f"{HOUSE_CONTROL}: " + _STOCK_FORMAT.sub(f"{name} has the wrong format; use ", message)
    if _STOCK_SUBJECT.match(message):
        return f"{HOUSE_CONTROL}: " + _STOCK_SUBJECT.sub(lambda m: f"Ensure {name}" if m.group(2) else name, message)
    first, rest = message.split(". ", 1) if ". " in message else (message, "")
    said = lower_first(first) + (f"; {lower_first(rest)}" if rest else "")
    return f"{HOUSE_CONTROL}: {name}: {said}"
