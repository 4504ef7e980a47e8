"""Regulatory limits as data, each with the section it comes from.

Validation code reads these; no threshold is written as a literal anywhere else. Time-based
compliance thresholds with effective dates live in the compliance tables (later issues).
"""

from dataclasses import dataclass

# What a refusal cites when the regulation does not say who may act: the product's own control
# (shared/docs/domain.md), never a section that does not say it.
HOUSE_CONTROL = "House control"


@dataclass(frozen=True)
class ChipSpec:
    value_cents: int
    primary_colour: str
    edge_spots: str
    # The edge spot colour 08-03(3) prescribes ("white" for $25 and $100), or None where it
    # prescribes only "contrasting" (and "" for the fifty cent chip, which has no edge spots).
    edge_colour: str | None
    # What a new chip's edge spots default to: the prescribed colour, else a house default
    # chosen to contrast with the primary and to form no reversed pair with another value.
    default_edge_colour: str


# ND 99-01.3-08-03(1): chips may be issued only in these values; 08-03(3): colours and spots.
CHIP_CITATION = "ND 99-01.3-08-03(1)"
CHIP_COLOUR_CITATION = "ND 99-01.3-08-03(3)"
CHIP_SPECS: dict[int, ChipSpec] = {
    spec.value_cents: spec
    for spec in (
        ChipSpec(50, "mustard yellow", "no edge spots", "", ""),
        ChipSpec(100, "white", "four solid edge spots", None, "blue"),
        ChipSpec(200, "pink", "four split edge spots", None, "white"),
        ChipSpec(500, "red", "six solid edge spots", None, "white"),
        ChipSpec(2500, "green", "eight or three white solid edge spots", "white", "white"),
        ChipSpec(10000, "black", "four white triple split edge spots", "white", "white"),
    )
}

# ND 99-01.3-08-03(1): "If an organization accepts a twenty-five dollar wager, it shall provide
# twenty-five dollar chips to players for their optional use."
TWENTY_FIVE_DOLLARS_CENTS = 2500
TWENTY_FIVE_CHIPS_CITATION = "ND 99-01.3-08-03(1)"
# ND 99-01.3-08-03(2): the chips must meet subsection 3 at a site whose twenty-one gross
# proceeds averaged $10,000 for two consecutive quarters, or where an organization installs a
# video surveillance system, "regardless of the value of wagers accepted at the site".
CHIP_SPEC_TRIGGER_CITATION = "ND 99-01.3-08-03(2)"

# The colours a chip may be recorded in: the six 08-03(3) prescribes and common edge spot
# colours. Choosing from a list (not free text) is a house control, so that the colour rules
# of 08-03(3) can be checked by machine.
CHIP_COLOUR_LIST_CONTROL = HOUSE_CONTROL
CHIP_COLOURS = (
    "mustard yellow", "white", "pink", "red", "green", "black",
    "blue", "light blue", "yellow", "orange", "purple", "grey", "brown", "gold", "silver",
)

