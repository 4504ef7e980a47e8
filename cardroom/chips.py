"""The chip rules that look at an organization's whole chip set, as a pack's chip law states
them (`cardroom.chip_rules.ChipLaw`; North Dakota's 99-01.3-08-03 in `packs/nd/chips.py`).

`colour_spec_problems` is pure (colours and the law in, problems out); it is what a site must
meet once the law makes its colour specification apply (the compliance rule `chip_colours`
flags it). `require_twenty_five_chips` is asked wherever a table starts accepting wagers (its
opener, a dealer seated) and wherever the $25 chip is withdrawn; it applies only at a site whose
pack states it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

from django.core.exceptions import ValidationError

from core.money import format_money

from .chip_rules import ChipLaw, law_at


@dataclass(frozen=True)
class ChipColours:
    value_cents: int
    primary: str
    edges: tuple[str, ...]  # one or two edge spot colours; () for none


def colours_of(chip) -> ChipColours:
    return ChipColours(chip.value_cents, chip.primary_colour, tuple(c for c in (chip.edge_colour, chip.second_edge_colour) if c))


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
            problems.append(f"{citation}: the {value} chip needs one or two contrasting edge spot colours "
                            f"({spec.edge_spots}).")
        elif chip.primary in chip.edges:
            problems.append(f"{citation}: the {value} chip's edge spots must contrast with its primary colour.")
        if spec.edge_colour and chip.edges and spec.edge_colour not in chip.edges:
            problems.append(f"{citation}: the {value} chip must have {spec.edge_spots}.")
    for i, a in enumerate(chips):
        problems += [reversed_pair_message(a, b, law) for b in chips[i + 1:] if reversed_pair(a, b)]
    return problems


def accepts_twenty_five_dollar_wagers(table, law: ChipLaw) -> bool:
    from .models import Game

    return table.game == Game.TWENTY_ONE and table.max_wager_cents >= law.twenty_five_dollars_cents


def has_twenty_five_dollar_chips(organization_id: int, law: ChipLaw) -> bool:
    from .models import ChipDenomination

    return ChipDenomination.objects.filter(
        organization_id=organization_id, value_cents=law.twenty_five_dollars_cents, active=True
    ).exists()


def require_twenty_five_chips(table, field: str = "table", *, active_values: Collection[int] | None = None) -> None:
    """A table accepting $25 wagers needs the organization's $25 chips (for players' optional
    use), at a site whose pack's chip law states it (North Dakota's 08-03(1)); elsewhere the
    house decides. `active_values`: the values of the organization's active chips when the
    caller has read them already (else they are asked)."""
    law = law_at(table.site.jurisdiction)
    if law is None or not accepts_twenty_five_dollar_wagers(table, law):
        return
    twenty_five = law.twenty_five_dollars_cents
    if active_values is not None:
        provided = twenty_five in active_values
    else:
        provided = has_twenty_five_dollar_chips(table.site.organization_id, law)
    if not provided:
        raise ValidationError(
            {
                field: f"{law.twenty_five_citation}: {table} accepts {format_money(twenty_five)} "
                f"wagers, so {format_money(twenty_five)} chips must be provided to players; add an "
                f"active {format_money(twenty_five)} chip first (or lower the table's maximum)."
            }
        )
