"""An organization's chip rules, asked from below.

Chips belong to the organization, and the law that prescribes their values, colours and
marking (the organization's name on one side) is a jurisdiction's (a pack's, in `packs`, the
layer above). So `ChipDenomination`, the chip checks of `cardroom.chips` and the forms ask here,
and the packs register the answer when their app loads (`packs.apps`): `law_at(jurisdiction)` is
the chip law a pack states, or None where its law states none.

An organization is held to a pack's chip law when it has an active site of that pack. Where
none of its sites' packs states one (a Washington or New York organization: their texts we
hold prescribe no chip values or colours), any value above zero and any colour is accepted,
as a house control: the house knows its own chips. Until the packs register, every chip is
refused: no chip is saved unjudged. (The laws an organization is held to, which read its
sites, are `cardroom.chips.laws_for`: this module reads no model, so the models can ask it.)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from core.hooks import CHIP_LAW
from core.plurals import noun_for

from .rules import ChipSpec


@dataclass(frozen=True)
class ChipLaw:
    """What a pack's law says of chips, with the citation of each rule."""

    values_citation: str  # chips may be issued only in `specs`' values
    colours_citation: str  # the prescribed primary colours and edge spots, no reversed pairs
    twenty_five_citation: str  # a table accepting $25 wagers provides $25 chips
    specs: Mapping[int, ChipSpec]
    # The colours a chip may be recorded in, so that the colour rules can be checked by machine
    # (choosing from a list is the house's control, cited `colour_list_citation`).
    colours: tuple[str, ...]
    colour_list_citation: str
    twenty_five_dollars_cents: int = 2500
    # Each chip bears the organization's name (or a unique identification) on one side and its
    # value on the other: a chip is refused without its marking recorded. None: not stated.
    marking_citation: str | None = None


def unmarked_chips_text(citation: str, chips: list[str]) -> str:
    """What the law (`ChipLaw.marking_citation`) asks of the active chips `chips` (described, "$5.00
    (red)") with no marking recorded, said alike by the chips' setup page and the nightly alert
    (`compliance.rules.chip_marking_missing`)."""
    return (
        f"{citation}: each chip must bear the organization's name, or a unique identification of its chips, on one "
        f"side; no marking is recorded for the active {noun_for(len(chips), 'chip')} {', '.join(chips)}. "
        "Record each chip's marking in the chips' setup (or retire a chip no longer issued)."
    )


def register_chip_law(law_of: Callable[[str], ChipLaw | None]) -> None:
    CHIP_LAW.register(law_of)


def law_at(jurisdiction: str) -> ChipLaw | None:
    """The chip law of a jurisdiction's pack, or None where it states none."""
    return CHIP_LAW(jurisdiction)


def laws_of(jurisdictions) -> list[ChipLaw]:
    """The chip laws stated by these jurisdictions' packs, each once, in a stable order."""
    laws = []
    for code in sorted(set(jurisdictions)):
        law = law_at(code)
        if law is not None and law not in laws:
            laws.append(law)
    return laws
