"""A day sheet: a whole gaming day entered from paper in one request, all or nothing.

The sheet (already parsed: tables, boxes and employees resolved, times aware; see
accounting.api_day_sheets) is applied through the floor's and the count's own services, in the
order the day happened: open the day, openers, dealer shifts (starts and ends in time order),
slips (prepared, verified, received), the games-of-chance sessions where the site's pack keeps
them (New York: 9 NYCRR 4620.5; fees.services.record_session), closers, drop box removals, the
count (session, blind counts, recounts, signatures), close the day. Each step is done *as its signer*
(cardroom.access.Signer): the services check the signer's roles and the rules exactly as for a
live entry and record the signer as the one who did it, while the audit log records the login
that entered the sheet as the actor. The first refusal stops the sheet; everything is rolled
back and the refusal is raised located at its item (`slips[3].chips`).

Who may enter a sheet (house controls; the regulation does not say who keys paper in): a
gaming manager or a shift manager of the site; the count section only a gaming manager, since
the count team is independent of the floor whose drop it counts (ND 99-01.3-08-14(2)).
"""

from dataclasses import dataclass, field
from datetime import date

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from cardroom.access import Signer, require_role
from cardroom.models import Role, Site
from core.audit import record_site_event as _audit
from core.rules import HOUSE_CONTROL
from counts import services as counts
from fees import services as fees
from floor import queries as floor_queries
from floor import rules as floor_rules
from floor import services as floor
from floor.models import GamingDay, SlipKind

ENTERERS = (Role.GAMING_MANAGER, Role.SHIFT_MANAGER)
COUNT_ENTERERS = (Role.GAMING_MANAGER,)
ENTER_RULE = HOUSE_CONTROL
COUNT_RULE = HOUSE_CONTROL  # the count team's independence (08-14(2)) is why; no text says who keys it in

SECTIONS = ("open", "openers", "dealer_shifts", "slips", "sessions", "closers", "drops", "count", "close")


class DaySheetError(Exception):
    """The sheet was refused: `errors` maps each located path to its messages."""

    def __init__(self, errors: dict[str, list[str]]):
        super().__init__("; ".join(f"{path}: {' '.join(messages)}" for path, messages in errors.items()))
        self.errors = errors


@dataclass
class Applied:
    """What a sheet created, by section, in the sheet's own order."""

    gaming_day: GamingDay | None = None
    openers: list = field(default_factory=list)
    dealer_shifts: list = field(default_factory=list)
    slips: list = field(default_factory=list)
    sessions: list = field(default_factory=list)
    closers: list = field(default_factory=list)
    drops: list = field(default_factory=list)
    count_session: object | None = None
    closed: bool = False


def check_enterer(acting_user, site: Site, sheet: dict) -> None:
    """403 unless the login may enter this sheet at the site (house controls, module docstring)."""
    require_role(acting_user, site, *ENTERERS, action="enter a day sheet", rule=ENTER_RULE)
    if sheet.get("count"):
        require_role(
            acting_user,
            site,
            *COUNT_ENTERERS,
            action="enter the count section of a day sheet (the count team is independent of the floor)",
            rule=COUNT_RULE,
        )


def apply_day_sheet(*, acting_user, site: Site, sheet: dict) -> Applied:
    """Apply a parsed day sheet atomically. Raises PermissionDenied (the login may not enter
    it) or DaySheetError (the first refusal, located), and then nothing is changed."""
    check_enterer(acting_user, site, sheet)
    applied = Applied()
    with transaction.atomic():
        _Run(acting_user, site, sheet, applied).run()
        _audit(
            acting_user,
            "day_sheet.applied",
            applied.gaming_day,
            site=site,
            after={
                "gaming_date": sheet["gaming_date"],
                "openers": [i.pk for i in applied.openers],
                "dealer_shifts": [i.pk for i in applied.dealer_shifts],
                "slips": [i.pk for i in applied.slips],
                "sessions": [i.pk for i in applied.sessions],
                "closers": [i.pk for i in applied.closers],
                "drops": [i.pk for i in applied.drops],
                "count_session": applied.count_session.pk if applied.count_session else None,
                "closed": applied.closed,
            },
        )
    return applied


def _messages(error: ValidationError) -> dict[str, list[str]]:
    if hasattr(error, "error_dict"):
        return {name: list(messages) for name, messages in error.message_dict.items()}
    return {"": list(error.messages)}


class _Step:
    """Runs one service call for the item at `path`: a refusal is raised located there, the
    service's field names translated to the sheet's (`at` -> `prepared_at`)."""

    def __init__(self, path: str, rename: dict[str, str] | None = None, refused_field: str = ""):
        self.path, self.rename, self.refused_field = path, rename or {}, refused_field

    def __enter__(self):
        return self

    def __exit__(self, kind, error, _traceback):
        if isinstance(error, ValidationError):
            located: dict[str, list[str]] = {}
            for name, messages in _messages(error).items():
                name = self.rename.get(name, name)  # "" (or a message without a field): the item itself
                key = f"{self.path}.{name}" if name and name != "__all__" else self.path
                located.setdefault(key, []).extend(messages)
            raise DaySheetError(located) from error
        if isinstance(error, PermissionDenied):
            # The login may enter the sheet; the signer it names may not do this step: bad input.
            key = f"{self.path}.{self.refused_field}" if self.refused_field else self.path
            raise DaySheetError({key: [str(error)]}) from error
        return False


class _Run:
    def __init__(self, acting_user, site: Site, sheet: dict, applied: Applied):
        self.user, self.site, self.sheet, self.applied = acting_user, site, sheet, applied
        self.gaming_date: date = sheet["gaming_date"]

    def as_(self, employee) -> Signer:
        return Signer(self.user, employee)

    def run(self) -> None:
        self.open_day()
        for index, item in enumerate(self.sheet.get("openers") or []):
            self.applied.openers.append(self.tray_count(f"openers[{index}]", item, "opener"))
        self.dealer_shifts()
        for index, item in enumerate(self.sheet.get("slips") or []):
            self.applied.slips.append(self.slip(f"slips[{index}]", item))
        for index, item in enumerate(self.sheet.get("sessions") or []):
            self.applied.sessions.append(self.session(f"sessions[{index}]", item))
        for index, item in enumerate(self.sheet.get("closers") or []):
            self.applied.closers.append(self.tray_count(f"closers[{index}]", item, "closer"))
        for index, item in enumerate(self.sheet.get("drops") or []):
            self.applied.drops.append(self.drop(f"drops[{index}]", item))
        if self.sheet.get("count"):
            self.count(self.sheet["count"])
        self.close_day()

    # --- the gaming day -------------------------------------------------------------------

    def open_day(self) -> None:
        opening = self.sheet.get("open")
        if opening:
            with _Step("open", {"at": "opened_at"}, "opened_by"):
                self.applied.gaming_day = floor.open_gaming_day(
                    acting_user=self.as_(opening["opened_by"]),
                    site=self.site,
                    gaming_date=self.gaming_date,
                    at=opening["opened_at"],
                )
            return
        day = floor_queries.open_gaming_day(self.site)
        if day is None or day.gaming_date != self.gaming_date:
            now_open = f"the open gaming day is {day.gaming_date}" if day else "no gaming day is open"
            raise DaySheetError(
                {
                    "open": [
                        f"{floor_rules.BUSINESS_DAY.at(self.site)}: {now_open} at {self.site}; give the opening of "
                        f"{self.gaming_date} (opened_at, opened_by) or enter the sheet of the open day."
                    ]
                }
            )
        self.applied.gaming_day = day

    def close_day(self) -> None:
        closing = self.sheet.get("close")
        if not closing:
            return
        with _Step("close", {"at": "closed_at", "gaming_day": "", "reason": "carry_reason", "items": ""}, "closed_by"):
            if closing.get("carry_reason"):
                self.carry_open_items(closing)
            floor.close_gaming_day(
                acting_user=self.as_(closing["closed_by"]), gaming_day=self.applied.gaming_day, at=closing["closed_at"]
            )
        self.applied.closed = True

    def carry_open_items(self, closing: dict) -> None:
        """The closer carries what is still open past the close with the sheet's reason."""
        day = self.applied.gaming_day
        keys = [item.key for item in floor.items_left_open(day) if item.carryable]
        if keys:
            floor.carry_open_items(
                acting_user=self.as_(closing["closed_by"]), gaming_day=day, keys=keys,
                reason=closing["carry_reason"], at=closing["closed_at"],
            )  # fmt: skip

    # --- tables -----------------------------------------------------------------------------

    def tray_count(self, path: str, item: dict, kind: str):
        with _Step(path, {"at": "counted_at", "kind": "table"}, "counted_by"):
            return floor.record_table_inventory(
                acting_user=self.as_(item["counted_by"]),
                table=item["table"],
                kind=kind,
                chips=item["chips"],
                variance_reason=item.get("variance_reason") or "",
                at=item["counted_at"],
            )

    def dealer_shifts(self) -> None:
        """Starts and ends in the order they happened (an end before a start at the same
        minute: a dealer leaving one table may sit at the next)."""
        items = list(enumerate(self.sheet.get("dealer_shifts") or []))
        events = [(item["started_at"], 1, index) for index, item in items]
        events += [(item["ended_at"], 0, index) for index, item in items if item.get("ended_at")]
        created: dict[int, object] = {}
        for _moment, is_start, index in sorted(events, key=lambda e: (e[0], e[1], e[2])):
            item, path = items[index][1], f"dealer_shifts[{index}]"
            if is_start:
                with _Step(path, {"chips": "chips"}, "started_by"):
                    created[index] = floor.start_dealer_shift(
                        acting_user=self.as_(item["started_by"]),
                        table=item["table"],
                        dealer=item["dealer"],
                        started_at=item["started_at"],
                        chips=item.get("chips") or None,
                    )
            else:
                if index not in created:  # ends before it starts: say so where it is written
                    raise DaySheetError({f"{path}.ended_at": ["A dealer shift cannot end before it starts."]})
                with _Step(path, {}, "ended_by"):
                    created[index] = floor.end_dealer_shift(
                        acting_user=self.as_(item.get("ended_by") or item["started_by"]),
                        shift=created[index],
                        ended_at=item["ended_at"],
                    )
        self.applied.dealer_shifts = [created[index] for index, _item in items]

    # --- slips ------------------------------------------------------------------------------

    def slip(self, path: str, item: dict):
        fill = item["kind"] == SlipKind.FILL
        prepare = floor.prepare_fill if fill else floor.prepare_credit
        extra = {"cashier": item["cashier"]} if fill and item.get("cashier") else {}
        with _Step(path, {"at": "prepared_at", "cashier": "cashier"}, "prepared_by"):
            slip = prepare(
                acting_user=self.as_(item["prepared_by"]),
                table=item["table"],
                chips=item["chips"],
                purpose=item.get("purpose") or "regular",
                number=item.get("number"),
                at=item["prepared_at"],
                **extra,
            )
        if item.get("verified_by"):
            with _Step(path, {"at": "verified_at", "slip": "verified_by"}, "verified_by"):
                floor.verify_slip(acting_user=self.as_(item["verified_by"]), slip=slip, at=item["verified_at"])
        if item.get("received_by"):
            with _Step(path, {"at": "received_at", "slip": "received_by"}, "received_by"):
                floor.receive_slip(acting_user=self.as_(item["received_by"]), slip=slip, at=item["received_at"])
        return slip

    # --- games-of-chance sessions -------------------------------------------------------------

    def session(self, path: str, item: dict):
        """A session from the paper, recorded by who the paper names (refused, located, where the
        site's pack keeps no sessions: ND and Washington)."""
        with _Step(path, {"site": "", "acting_user": "recorded_by"}, "recorded_by"):
            return fees.record_session(
                acting_user=self.as_(item["recorded_by"]),
                site=self.site,
                licence_number=item["licence_number"],
                started_at=item["started_at"],
                ended_at=item["ended_at"],
                receipts_cents=item["receipts_cents"],
                prizes_cents=item["prizes_cents"],
            )

    # --- drop boxes and the count -------------------------------------------------------------

    def drop(self, path: str, item: dict):
        shift_index = item.get("dealer_shift")
        shift_id = None
        if shift_index is not None:
            if shift_index >= len(self.applied.dealer_shifts):
                raise DaySheetError(
                    {f"{path}.dealer_shift": [f"There is no dealer_shifts[{shift_index}] in the sheet."]}
                )
            shift_id = self.applied.dealer_shifts[shift_index].pk
        with _Step(path, {"at": "removed_at"}, "removed_by"):
            return counts.remove_drop_box(
                acting_user=self.as_(item["removed_by"]),
                drop_box=item["box"],
                gaming_date=self.gaming_date,
                dealer_shift_id=shift_id,
                removed_at=item["removed_at"],
                storage_place=item.get("storage_place") or "",
                key_holder=item.get("key_holder"),
                second_key_holder=item.get("second_key_holder"),
                escorted_by=item.get("escorted_by"),
                sole_employee_on_duty=bool(item.get("sole_employee_on_duty")),
            )

    def count(self, count: dict) -> None:
        with _Step("count", {"at": "opened_at", "member": "opened_by"}, "opened_by"):
            session = counts.open_count_session(
                acting_user=self.as_(count["opened_by"]),
                site=self.site,
                gaming_date=self.gaming_date,
                members=count["members"],
                at=count["opened_at"],
            )
        self.applied.count_session = session
        for index, entry in enumerate(count.get("entries") or []):
            with _Step(f"count.entries[{index}]", {"at": "counted_at", "member": "counted_by"}, "counted_by"):
                counts.record_blind_count(
                    acting_user=self.as_(entry["counted_by"]),
                    session=session,
                    drop_box=entry["box"],
                    currency=entry["currency"],
                    forms=entry.get("forms") or [],
                    at=entry["counted_at"],
                )
        for index, entry in enumerate(count.get("recounts") or []):
            with _Step(f"count.recounts[{index}]", {"at": "counted_at", "member": "counted_by"}, "counted_by"):
                counts.resolve_difference(
                    acting_user=self.as_(entry["counted_by"]),
                    session=session,
                    drop_box=entry["box"],
                    currency=entry["currency"],
                    forms=entry.get("forms") or [],
                    note=entry.get("note") or "",
                    at=entry["counted_at"],
                )
        for index, signature in enumerate(count.get("signatures") or []):
            with _Step(f"count.signatures[{index}]", {"at": "signed_at", "member": "signed_by"}, "signed_by"):
                counts.sign_count(
                    acting_user=self.as_(signature["signed_by"]), session=session, at=signature["signed_at"]
                )
