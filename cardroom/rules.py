"""Regulatory limits as data, each with the section it comes from.

Validation code reads these; no threshold is written as a literal anywhere else. Time-based
compliance thresholds with effective dates live in the compliance tables (later issues).
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class ChipSpec:
    value_cents: int
    primary_colour: str
    edge_spots: str
    # The edge spot colour the law prescribes (North Dakota: "white" for $25 and $100), or None
    # where it prescribes only "contrasting" (and "" for a chip that has no edge spots).
    edge_colour: str | None
    # What a new chip's edge spots default to: the prescribed colour, else a house default
    # chosen to contrast with the primary and to form no reversed pair with another value.
    default_edge_colour: str


# A jurisdiction's chip values, colours and edge spots are its pack's (`cardroom.chip_rules`,
# North Dakota's in `packs/nd/chips.py`); an organization none of whose packs states them records
# any value above zero in any colour (house control).
