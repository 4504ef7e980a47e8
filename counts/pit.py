"""A drop box removed with a change of dealer, where the site exchanges its drop boxes at each
dealer change (house control: one drop per dealer shift, `models.BoxExchange`): what the pit
terminal's Change dealer asks for the removal, and the removal itself, recorded in the change's
own transaction before the new dealer's shift begins, so the box is credited to the outgoing
dealer's shift (as `queries.shifts_served` credits a removal to the latest shift begun at its
table). The floor asks it through the `dealer_change_box` hook (core.hooks, answered in
counts.apps), so imports keep pointing down; the removal is `services.remove_drop_box`'s, with
its checks (`rules.REMOVAL`: the shift manager transports the box, escorted, to safe storage;
`rules.KEYS`: its keys with the count team) and its audit row.

A fixed number of queries for a terminal at such a site (the boxes to remove, the site's tables
and those with a box, its escorts and its count team), however many tables; none elsewhere."""

from dataclasses import dataclass
from datetime import date, datetime

from django.core.exceptions import ValidationError

from cardroom.models import Employee, Role, Site, Table
from core.rules import HOUSE_CONTROL

from . import queries
from .forms import RemoveAllForm
from .models import DropBox, DropRemoval
from .rules import KEYS, REMOVAL
from .services import remove_drop_box

# The change of dealer's own fields (the API's, floor.api.DealerShiftInputSerializer) for the
# removal's: a refusal names the field the terminal and the API were given.
CHANGE_FIELDS = {
    "escorted_by": "box_escorted_by",
    "key_holder": "box_key_holder",
    "second_key_holder": "box_second_key_holder",
    "storage_place": "box_storage_place",
}
REMOVE_BOX = "remove_box"


def _badge(employee: Employee) -> dict:
    return {"id": employee.pk, "initials": employee.initials, "name": str(employee)}


@dataclass(frozen=True)
class BoxAtChange:
    """The box's removal at a change of dealer at `site`."""

    site: Site

    def note(self) -> str:
        return (
            f"{HOUSE_CONTROL}: {self.site.name} exchanges the drop box at each dealer change (one drop per dealer "
            f"shift). This change removes the table's box first, credited to the outgoing dealer's shift: "
            f"{REMOVAL.at(self.site)}, the shift manager transports it, escorted by another employee, to safe "
            f"storage; {KEYS.at(self.site)}, the key to its contents is held by a count team member."
        )

    def data(self, gaming_date: date) -> dict:
        """The terminal's removal fields: who may escort (the site's active employees; the service
        refuses the transporter), who may hold the keys (the count team), the storage place the
        removal pages propose, and each active table's box to remove for `gaming_date` or why none
        is left (the refusal `remove` would give)."""
        boxes = _boxes_by_table(self.site, gaming_date)
        tables = Table.objects.filter(site=self.site, active=True).order_by("number")
        registered = set(
            DropBox.objects.filter(site=self.site, active=True).values_list("table_id", flat=True).distinct()
        )
        escorts = Employee.objects.filter(memberships__site=self.site, active=True).distinct()
        counters = Employee.objects.filter(
            memberships__site=self.site, memberships__role=Role.COUNT_TEAM, active=True
        ).distinct()
        by_table = {}
        for table in tables:
            found = boxes.get(table.pk, [])
            by_table[str(table.pk)] = (
                {"boxes": [str(box) for box in found], "two_locks": any(box.locks == 2 for box in found)}
                if found
                else {"refusal": self._no_box(table, gaming_date, table.pk in registered)}
            )
        return {
            "note": self.note(),
            "storage_place": RemoveAllForm.base_fields["storage_place"].initial,
            "escorts": [_badge(e) for e in escorts.select_related("user").order_by("initials")],
            "key_holders": [_badge(e) for e in counters.select_related("user").order_by("initials")],
            "tables": by_table,
        }

    def remove(
        self,
        *,
        acting_user,
        table: Table,
        shift,
        removed_at: datetime,
        escorted_by: Employee | None = None,
        key_holder: Employee | None = None,
        second_key_holder: Employee | None = None,
        storage_place: str = "",
    ) -> list[DropRemoval]:
        """Remove `table`'s box in use (`queries.boxes_to_remove`: the one placed, else its first free
        box) at `removed_at`, the change's moment, for the gaming date of the outgoing `shift`, and
        credit it to that shift (a box placed for a shift keeps it). At a change of dealer the
        outgoing dealer is on duty, so the transport is escorted (`REMOVAL`). Refused, nothing is
        removed: the caller's transaction rolls the change back."""
        gaming_date = shift.gaming_day.gaming_date
        boxes = _boxes_by_table(self.site, gaming_date).get(table.pk, [])
        if not boxes:
            registered = DropBox.objects.filter(table=table, active=True).exists()
            raise ValidationError({REMOVE_BOX: self._no_box(table, gaming_date, registered)})
        try:
            return [
                remove_drop_box(
                    acting_user=acting_user,
                    drop_box=box,
                    gaming_date=gaming_date,
                    storage_place=storage_place or "",
                    key_holder=key_holder,
                    second_key_holder=second_key_holder if box.locks == 2 else None,
                    escorted_by=escorted_by,
                    removed_at=removed_at,
                    dealer_shift_id=shift.pk,
                )
                for box in boxes
            ]
        except ValidationError as refused:
            raise _as_the_change_names_it(refused) from refused

    def _no_box(self, table: Table, gaming_date: date, registered: bool) -> str:
        """Why a change of dealer at `table` removes no box, and so is refused."""
        exchanged = f"{HOUSE_CONTROL}: {self.site.name} exchanges the drop box at each dealer change"
        if not registered:
            return (
                f"{exchanged}, and table {table.number} has no drop box registered: register one on Drop boxes. "
                "The dealer was not changed."
            )
        return (
            f"{exchanged}, and no box of table {table.number} is left to remove for {gaming_date} "
            f"({REMOVAL.at(self.site)}: its boxes are already removed, or on it for another day; a box holding "
            "uncounted cash is not used again before its count). The dealer was not changed."
        )


def _boxes_by_table(site: Site, gaming_date: date) -> dict[int, list[DropBox]]:
    """{table id: its boxes in use for `gaming_date`} (`queries.boxes_to_remove`'s proposed: the
    box placed, else the first free box of a table in play). Five queries."""
    found: dict[int, list[DropBox]] = {}
    for candidate in queries.boxes_to_remove(site, gaming_date):
        if candidate.proposed:
            found.setdefault(candidate.box.table_id, []).append(candidate.box)
    return found


def _as_the_change_names_it(refused: ValidationError) -> ValidationError:
    """The removal's refusal keyed by the change of dealer's fields (`CHANGE_FIELDS`); any other
    (the box, its gaming date, its moment) under `remove_box`."""
    if not hasattr(refused, "error_dict"):
        return ValidationError({REMOVE_BOX: refused.messages})
    keyed: dict[str, list[str]] = {}
    for field, messages in refused.message_dict.items():
        keyed.setdefault(CHANGE_FIELDS.get(field, REMOVE_BOX), []).extend(messages)
    return ValidationError(keyed)


def box_at_dealer_change(site) -> BoxAtChange | None:
    """None where `site` does not exchange its drop boxes at each dealer change; else its step."""
    return BoxAtChange(site) if queries.exchanges_at_dealer_change(site) else None
