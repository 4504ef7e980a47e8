"""North Dakota's chips (99-01.3-08-03): the values chips may be issued in, the organization's
name (or unique identification) marked on each chip, each value's primary colour and edge spots,
no reversed combination of colours, $25 chips where $25 wagers are accepted. Held by every
organization with a North Dakota site (chips are the organization's), through
`cardroom.chip_rules`.
"""

from types import MappingProxyType

from cardroom.chip_rules import ChipLaw
from cardroom.rules import ChipSpec
from core.rules import HOUSE_CONTROL

from .core import CITATIONS

# 08-03(1): "Chips may be issued in values of fifty cents, one dollar, two dollars, five dollars,
# twenty-five dollars, and one hundred dollars"; 08-03(3): the primary colours and edge spots.
# The last field: what a new chip's edge spots default to, the prescribed colour, else a house
# default chosen to contrast with the primary and to form no reversed pair with another value.
SPECS = MappingProxyType(
    {
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
)

# The colours a chip may be recorded in: the six 08-03(3) prescribes and common edge spot
# colours. Choosing from a list (not free text) is a house control, so that the colour rules of
# 08-03(3) can be checked by machine.
COLOURS = (
    "mustard yellow",
    "white",
    "pink",
    "red",
    "green",
    "black",
    "blue",
    "light blue",
    "yellow",
    "orange",
    "purple",
    "grey",
    "brown",
    "gold",
    "silver",
)

TWENTY_FIVE_DOLLARS_CENTS = 2500  # 08-03(1): "If an organization accepts a twenty-five dollar wager ..."

LAW = ChipLaw(
    values_citation=CITATIONS["core.chip_values"],
    colours_citation=CITATIONS["core.chip_colours"],
    twenty_five_citation=CITATIONS["core.twenty_five_chips"],
    specs=SPECS,
    colours=COLOURS,
    colour_list_citation=HOUSE_CONTROL,
    twenty_five_dollars_cents=TWENTY_FIVE_DOLLARS_CENTS,
    marking_citation=CITATIONS["core.chip_marking"],
)
