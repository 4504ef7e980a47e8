"""What a refusal cites when no law states the rule, and the order citations are listed in."""

import re

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
