"""The chip inventory (`rules.CHIP_INVENTORY`): chips received and destroyed, and counts of the inventory."""

from datetime import date

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from cardroom.models import ChipDenomination, Organization, Site
from core.audit import snapshot
from core.money import format_money
from floor import rules as floor_rules

from .. import queries, rules
from ..models import ChipInventoryCount, ChipInventoryCountLine, ChipMovement, ChipMovementLine, Location
from .steps import acting_in_organization, chip_total_cents, parse_chip_lines, record_audit, require_chips


def receive_chips(
    *, acting_user, organization: Organization, chips, received_on: date, reference: str, note: str = ""
) -> ChipMovement:
    """Add chips received from the manufacturer to the inventory book."""
    return _move_chips(acting_user, organization, ChipMovement.Kind.RECEIPT, chips, received_on, reference, note)


def destroy_chips(
    *, acting_user, organization: Organization, chips, destroyed_on: date, reference: str, note: str = ""
) -> ChipMovement:
    """Take destroyed chips off the inventory book; never more than the book owns."""
    return _move_chips(acting_user, organization, ChipMovement.Kind.DESTRUCTION, chips, destroyed_on, reference, note)


def _move_chips(acting_user, organization, kind, chips, occurred_on, reference, note) -> ChipMovement:
    verb = "receive chips" if kind == ChipMovement.Kind.RECEIPT else "destroy chips"
    employee = acting_in_organization(acting_user, organization, rules.INVENTORY_KEEPERS, verb)
    citation = rules.at_organization(rules.CHIP_INVENTORY, organization.pk)
    lines = parse_chip_lines(chips, organization.pk, citation=citation)
    require_chips(lines, "chips", citation)
    if not isinstance(occurred_on, date) or occurred_on > organization.today():
        raise ValidationError({"occurred_on": f"{citation}: give the date it happened, not a future one."})
    if not reference.strip():
        raise ValidationError({"reference": f"{citation}: give the invoice, or the witness of the destruction."})
    with transaction.atomic():
        Organization.objects.select_for_update().get(pk=organization.pk)
        if kind == ChipMovement.Kind.DESTRUCTION:
            _check_book_holds(organization, lines, occurred_on, citation)
        movement = ChipMovement.objects.create(
            organization=organization,
            kind=kind,
            occurred_on=occurred_on,
            reference=reference.strip(),
            note=note,
            recorded_at=timezone.now(),
            recorded_by=employee,
            initials=employee.initials,
            total_cents=chip_total_cents(lines),
        )
        ChipMovementLine.objects.bulk_create(
            [
                ChipMovementLine(movement=movement, chip=c, value_cents=c.value_cents, quantity=q)
                for c, q in lines.items()
            ]
        )
        record_audit(
            acting_user,
            f"chips.{kind}",
            movement,
            organization_id=organization.pk,
            site_id=None,
            after={**snapshot(movement), "chips": {c.value_cents: q for c, q in lines.items()}},
        )
    return movement


def _check_book_holds(
    organization: Organization, lines: dict[ChipDenomination, int], on_date: date, citation: str
) -> None:
    book = queries.chip_book(organization, on_date)
    for chip, quantity in lines.items():
        if quantity > book.get(chip.value_cents, 0):
            raise ValidationError(
                {
                    "chips": f"{citation}: the book owns {book.get(chip.value_cents, 0)} "
                    f"{format_money(chip.value_cents)} chips; {quantity} cannot be destroyed."
                }
            )


def record_chip_inventory_count(
    *, acting_user, organization: Organization, counted_on: date, locations, note: str = ""
) -> ChipInventoryCount:
    """A physical count of the organization's chips where they are: each site's chip bank and
    table trays, and storage. `locations`: [{"location": "bank"|"trays"|"storage",
    "site": <Site or id; required for bank and trays>, "chips": [...]}, ...]."""
    employee = acting_in_organization(
        acting_user, organization, rules.INVENTORY_KEEPERS, "record a chip inventory count"
    )
    citation = rules.at_organization(rules.CHIP_INVENTORY, organization.pk)
    if not isinstance(counted_on, date) or counted_on > organization.today():
        raise ValidationError({"counted_on": f"{citation}: give the date of the count, not a future one."})
    parsed = _parse_locations(organization, locations, citation)
    with transaction.atomic():
        count = ChipInventoryCount.objects.create(
            organization=organization,
            counted_on=counted_on,
            counted_at=timezone.now(),
            counted_by=employee,
            initials=employee.initials,
            note=note,
            total_cents=sum(chip_total_cents(chips) for _, _, chips in parsed),
        )
        ChipInventoryCountLine.objects.bulk_create(
            [
                ChipInventoryCountLine(
                    count=count, location=loc, site=site, chip=c, value_cents=c.value_cents, quantity=q
                )
                for loc, site, chips in parsed
                for c, q in chips.items()
            ]
        )
        record_audit(acting_user, "chip_inventory.counted", count, organization_id=organization.pk, site_id=None)
    return count


def _parse_locations(organization: Organization, locations, citation: str) -> list[tuple[str, Site | None, dict]]:
    if not isinstance(locations, list | tuple) or not locations:
        raise ValidationError({"locations": f"{citation}: give the chips counted at each location."})
    sites = {s.pk: s for s in Site.objects.filter(organization=organization)}
    parsed, seen = [], set()
    for item in locations:
        if not isinstance(item, dict) or item.get("location") not in Location.values:
            raise ValidationError({"locations": f"{citation}: each location is one of {', '.join(Location.values)}."})
        raw_site = item.get("site")
        site = (
            sites.get(raw_site.pk if isinstance(raw_site, Site) else raw_site) if raw_site not in (None, "") else None
        )
        if raw_site not in (None, "") and site is None:
            raise ValidationError({"locations": f"{citation}: site {raw_site!r} is not a site of the organization."})
        if site is None and item["location"] != Location.STORAGE:
            raise ValidationError(
                {"locations": f"{citation}: say which site's {Location(item['location']).label.lower()} were counted."}
            )
        if site is not None and not floor_rules.house_chips(site):
            # A fees-only site holds no house chips: its bank is counted in cash only, the chips
            # at its tables are not the house's.
            consequence = "it holds no house chips, so its bank and table trays are not locations of the house's chips"
            raise ValidationError({"locations": floor_rules.no_house_chips(site, consequence)})
        key = (item["location"], site.pk if site else None)
        if key in seen:
            raise ValidationError({"locations": f"{citation}: a location is listed twice."})
        seen.add(key)
        parsed.append(
            (
                item["location"],
                site,
                parse_chip_lines(item.get("chips"), organization.pk, field="locations", citation=citation),
            )
        )
    return parsed
