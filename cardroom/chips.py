"""The chip rules of ND 99-01.3-08-03 that look at an organization's whole chip set.

`colour_spec_problems` is pure (colours in, problems out); it is what a site must meet once
08-03(2) triggers the specification of 08-03(3) (the compliance rule `chip_colours` flags it).
`require_twenty_five_chips` is asked wherever a table starts accepting wagers (its opener, a
dealer seated) and wherever the $25 chip is withdrawn.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

from django.core.exceptions import ValidationError

from .money import format_money
from .rules import CHIP_COLOUR_CITATION, CHIP_SPECS, TWENTY_FIVE_CHIPS_CITATION, TWENTY_FIVE_DOLLARS_CENTS


@dataclass(frozen=True)
class ChipColours:
    value_cents: int
    primary: str
    edges: tuple[str, ...]  # one or two edge spot colours; () for none


def colours_of(chip) -> ChipColours:
    return ChipColours(chip.value_cents, chip.primary_colour, tuple(c for c in (chip.edge_colour, chip.second_edge_colour) if c))


def reversed_pair(a: ChipColours, b: ChipColours) -> bool:
    """08-03(3): a secondary colour of one value identical to the primary of another, and the
    other way round: a reversed combination of primary and secondary colours."""
    return a.value_cents != b.value_cents and b.primary in a.edges and a.primary in b.edges


def reversed_pair_message(a: ChipColours, b: ChipColours) -> str:
    return (
        f"{CHIP_COLOUR_CITATION}: the {format_money(a.value_cents)} chip ({a.primary} with {'/'.join(a.edges)} edge spots) "
        f"and the {format_money(b.value_cents)} chip ({b.primary} with {'/'.join(b.edges)} edge spots) are a reversed "
        "combination of primary and secondary colours."
    )


def colour_spec_problems(chips: Iterable[ChipColours]) -> list[str]:
    """Every way an organization's active chips miss ND 99-01.3-08-03(3), as messages."""
    chips = sorted(chips, key=lambda c: c.value_cents)
    problems = []
    for chip in chips:
        spec = CHIP_SPECS.get(chip.value_cents)
        if spec is None:
            continue
        value = format_money(chip.value_cents)
        if chip.primary != spec.primary_colour:
            problems.append(f"{CHIP_COLOUR_CITATION}: the {value} chip must be {spec.primary_colour} (it is {chip.primary}).")
        if spec.edge_colour == "":
            if chip.edges:
                problems.append(f"{CHIP_COLOUR_CITATION}: the {value} chip has no edge spots.")
            continue
        if not 1 <= len(chip.edges) <= 2:
            problems.append(f"{CHIP_COLOUR_CITATION}: the {value} chip needs one or two contrasting edge spot colours "
                            f"({spec.edge_spots}).")
        elif chip.primary in chip.edges:
            problems.append(f"{CHIP_COLOUR_CITATION}: the {value} chip's edge spots must contrast with its primary colour.")
        if spec.edge_colour and chip.edges and spec.edge_colour not in chip.edges:
            problems.append(f"{CHIP_COLOUR_CITATION}: the {value} chip must have {spec.edge_spots}.")
    for i, a in enumerate(chips):
        problems += [reversed_pair_message(a, b) for b in chips[i + 1:] if reversed_pair(a, b)]
    return problems


def accepts_twenty_five_dollar_wagers(table) -> bool:
    from .models import Game

    return table.game == Game.TWENTY_ONE and table.max_wager_cents >= TWENTY_FIVE_DOLLARS_CENTS


def has_twenty_five_dollar_chips(organization_id: int) -> bool:
    from .models import ChipDenomination

    return ChipDenomination.objects.filter(
        organization_id=organization_id, value_cents=TWENTY_FIVE_DOLLARS_CENTS, active=True
    ).exists()


def require_twenty_five_chips(table, field: str = "table", *, active_values: Collection[int] | None = None) -> None:
    """ND 99-01.3-08-03(1): a table accepting $25 wagers needs the organization's $25 chips
    (for players' optional use). North Dakota's sites only. `active_values`: the values of the
    organization's active chips when the caller has read them already (else they are asked)."""
    from .models import Jurisdiction

    if table.site.jurisdiction != Jurisdiction.ND or not accepts_twenty_five_dollar_wagers(table):
        return
    if active_values is not None:
        provided = TWENTY_FIVE_DOLLARS_CENTS in active_values
    else:
        provided = has_twenty_five_dollar_chips(table.site.organization_id)
    if not provided:
        raise ValidationError(
            {
                field: f"{TWENTY_FIVE_CHIPS_CITATION}: {table} accepts {format_money(TWENTY_FIVE_DOLLARS_CENTS)} "
                f"wagers, so {format_money(TWENTY_FIVE_DOLLARS_CENTS)} chips must be provided to players; add an "
                f"active {format_money(TWENTY_FIVE_DOLLARS_CENTS)} chip first (or lower the table's maximum)."
            }
        )
