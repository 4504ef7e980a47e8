"""The chip rules that read an organization's chips and sites, as a pack's chip law states them
(`cardroom.chip_rules.ChipLaw`; North Dakota's 99-01.3-08-03 in `packs/nd/chips.py`). The
colour rules, which need no query, are `cardroom.chip_colours`.

`laws_for` is the chip law an organization is held to (its active sites' packs) and
`default_spec` the colours a new chip of a value takes by it. `require_twenty_five_chips` is
asked wherever a table starts accepting wagers (its opener, a dealer seated) and wherever the
$25 chip is withdrawn; it applies only at a site whose pack states it.
"""

from __future__ import annotations

from collections.abc import Collection

from django.core.exceptions import ValidationError

from core.money import format_money

from .chip_rules import ChipLaw, law_at, laws_of, unmarked_chips_text
from .models import ChipDenomination, Game, Site
from .rules import ChipSpec


def laws_for(organization_id: int | None) -> list[ChipLaw]:
    """The chip laws an organization is held to (one query): those of its active sites' packs."""
    if organization_id is None:
        return []
    return laws_of(Site.jurisdictions_of(organization_id))


def described(chip) -> str:
    """A chip as the notices and alerts name it: "$5.00 (red)"."""
    return f"{format_money(chip.value_cents)} ({chip.primary_colour})"


def marking_notices(chips) -> list[str]:
    """The chips' page notice: the listed active chips with no marking recorded (made before it was
    kept, or while no site's pack asked it), where a law the organization is held to asks it (ND
    99-01.3-08-03(2)); in the nightly alert's words. No query where every chip is marked; one else."""
    unmarked = [chip for chip in chips if chip.unmarked]
    if not unmarked:
        return []
    citations = sorted({law.marking_citation for law in laws_for(unmarked[0].organization_id) if law.marking_citation})
    return [unmarked_chips_text(citation, [described(chip) for chip in unmarked]) for citation in citations]


def default_spec(organization_id: int | None, value_cents: int) -> ChipSpec | None:
    """The colour and edge spots a new chip of this value takes by default: the law's, else None."""
    for law in laws_for(organization_id):
        if value_cents in law.specs:
            return law.specs[value_cents]
    return None


def accepts_twenty_five_dollar_wagers(table, law: ChipLaw) -> bool:
    return table.game == Game.TWENTY_ONE and table.max_wager_cents >= law.twenty_five_dollars_cents


def has_twenty_five_dollar_chips(organization_id: int, law: ChipLaw) -> bool:
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


def not_a_chip_value(citation: str, given, values: Collection[int]) -> str:
    """The message refusing `given` as a chip of the organization whose active chips' values in
    cents are `values`: what it may give instead, or that it has no chips yet."""
    if not values:
        return (
            f"{citation}: {given!r} is not a chip value of the organization, which has no chips yet "
            "(a gaming manager adds them: Administration, chip denominations)."
        )
    listed = ", ".join(f"{value} ({format_money(value)})" for value in sorted(values))
    return f"{citation}: {given!r} is not a chip value of the organization; give a chip's value in cents: {listed}."
