"""The colours of an organization's chips judged against a pack's chip law, as its law states
them (`cardroom.chip_rules.ChipLaw`; North Dakota's 99-01.3-08-03 in `packs/nd/chips.py`).

Pure: colours and the law in, problems out, no query. `colour_spec_problems` is what a site must
meet once the law makes its colour specification apply (the compliance rule `chip_colours` flags
it); `reversed_pair` is asked by `ChipDenomination.clean` for every chip saved.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from core.money import format_money

from .chip_rules import ChipLaw


@dataclass(frozen=True)
class ChipColours:
    value_cents: int
    primary: str
    edges: tuple[str, ...]  # one or two edge spot colours; () for none


def colours_of(chip) -> ChipColours:
    return ChipColours(
        chip.value_cents, chip.primary_colour, tuple(c for c in (chip.edge_colour, chip.second_edge_colour) if c)
    )


def reversed_pair(a: ChipColours, b: ChipColours) -> bool:
    """A secondary colour of one value identical to the primary of another, and the
    other way round: a reversed combination of primary and secondary colours."""
    return a.value_cents != b.value_cents and b.primary in a.edges and a.primary in b.edges


def reversed_pair_message(a: ChipColours, b: ChipColours, law: ChipLaw) -> str:
    return (
        f"{law.colours_citation}: the {format_money(a.value_cents)} chip ({a.primary} with {'/'.join(a.edges)} edge spots) "
        f"and the {format_money(b.value_cents)} chip ({b.primary} with {'/'.join(b.edges)} edge spots) are a reversed "
        "combination of primary and secondary colours."
    )


def colour_spec_problems(chips: Iterable[ChipColours], law: ChipLaw) -> list[str]:
    """Every way an organization's active chips miss the colours of `law`, as messages."""
    chips = sorted(chips, key=lambda c: c.value_cents)
    citation = law.colours_citation
    problems = []
    for chip in chips:
        spec = law.specs.get(chip.value_cents)
        if spec is None:
            continue
        value = format_money(chip.value_cents)
        if chip.primary != spec.primary_colour:
            problems.append(f"{citation}: the {value} chip must be {spec.primary_colour} (it is {chip.primary}).")
        if spec.edge_colour == "":
            if chip.edges:
                problems.append(f"{citation}: the {value} chip has no edge spots.")
            continue
        if not 1 <= len(chip.edges) <= 2:
            problems.append(
                f"{citation}: the {value} chip needs one or two contrasting edge spot colours ({spec.edge_spots})."
            )
        elif chip.primary in chip.edges:
            problems.append(f"{citation}: the {value} chip's edge spots must contrast with its primary colour.")
        if spec.edge_colour and chip.edges and spec.edge_colour not in chip.edges:
            problems.append(f"{citation}: the {value} chip must have {spec.edge_spots}.")
    for i, a in enumerate(chips):
        problems += [reversed_pair_message(a, b, law) for b in chips[i + 1 :] if reversed_pair(a, b)]
    return problems
