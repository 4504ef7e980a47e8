"""A site's count settings and its register of drop boxes."""

from django.core.exceptions import ValidationError
from django.db import transaction

from cardroom.access import require_role
from cardroom.models import Role, Site, Table
from core import acts
from core.audit import record_site_event as _audit
from core.audit import snapshot
from core.rules import HOUSE_CONTROL

from .. import queries
from ..models import BoxExchange, CountSettings, DropBox
from ..rules import BOX_NUMBER, REMOVAL, dealer_hold_absent, refuse_drop_boxes, settings_warnings


def update_count_settings(*, acting_user, site: Site, **values) -> CountSettings:
    """A site's box exchange (per gaming day, or per dealer shift where its pack's revenue is a drop:
    `rules.dealer_hold_absent`) and its twenty-one auditor; the
    saved settings carry `warnings`, what the site's rules say of them (`rules.settings_warnings`:
    nothing refused), which the pages, the admin and the API show."""
    require_role(acting_user, site, Role.GAMING_MANAGER, action="change the count settings", rule=HOUSE_CONTROL)
    if values.get("box_exchange") == BoxExchange.DEALER_SHIFT and (absent := dealer_hold_absent(site)):
        raise ValidationError({"box_exchange": absent})
    auditor = values.get("twenty_one_auditor")
    if auditor is not None and auditor.organization_id != site.organization_id:
        raise ValidationError(
            {"twenty_one_auditor": f"{HOUSE_CONTROL}: the auditor must be a person of this organization."}
        )
    with transaction.atomic():
        settings = CountSettings.objects.select_for_update().filter(site=site).first() or CountSettings(site=site)
        before = None if settings._state.adding else snapshot(settings)
        for name, value in values.items():
            setattr(settings, name, value)
        settings.full_clean()
        settings._history_user = acting_user
        settings.save()
        _audit(acting_user, "count_settings.updated", settings, site, before=before)
    settings.warnings = settings_warnings(site, settings.box_exchange)
    return settings


def _numbers_its_boxes(site: Site) -> bool:
    """Whether a drop box at `site` must carry its table's number (`BOX_NUMBER`, ND 99-01.3-08-02(2):
    "If there is more than one table at a site")."""
    return site.tables.count() > 1


def register_drop_box(
    *, acting_user, table: Table, number: int | None = None, label: str = "", locks: int = 1
) -> DropBox:
    """Register a drop box for a table; its number matches the table's (`BOX_NUMBER`). Refused where
    the house's revenue is fees only (`refuse_drop_boxes`)."""
    site = table.site
    require_role(acting_user, site, Role.GAMING_MANAGER, action="register a drop box", rule=HOUSE_CONTROL)
    refuse_drop_boxes(site)
    number = table.number if number is None else number
    if number != table.number and _numbers_its_boxes(site):
        raise ValidationError(
            {"number": f"{BOX_NUMBER.at(site)}: a drop box must have the number of its table ({table.number})."}
        )
    box = DropBox(site=site, table=table, number=number, label=(label or "").strip(), locks=locks)
    with transaction.atomic():
        box.full_clean()
        box._history_user = acting_user
        box.save()
        _audit(acting_user, "drop_box.registered", box, site)
    return box


def renumbered_table_errors(table: Table) -> dict[str, str]:
    """A registered table check (`packs.register_table_check`): a table whose active drop boxes carry
    its number (`BOX_NUMBER`, ND 99-01.3-08-02(2): "a drop box must have a number matching the table
    number") is not renumbered away from them, whichever interface saves it (the API, the setup page,
    the admin). Where the site has one table, as at registration, a box's number is not held to it."""
    if table.pk is None or table.site_id is None or table.number is None:
        return {}
    stored = Table.objects.filter(pk=table.pk).values_list("number", flat=True).first()
    if stored is None or stored == table.number:
        return {}
    boxes = list(DropBox.objects.filter(table_id=table.pk, active=True).exclude(number=table.number))
    if not boxes or not _numbers_its_boxes(table.site):
        return {}
    named = ", ".join(str(box) for box in boxes)
    return {
        "number": f"{BOX_NUMBER.at(table.site)}: a drop box must have the number of its table; {named} of table "
        f"{stored} would no longer match table {table.number}. Retire {'it' if len(boxes) == 1 else 'them'} first "
        f"(once counted), then renumber the table and register its boxes numbered {table.number}."
    }


def retire_drop_box(*, acting_user, drop_box: DropBox) -> DropBox:
    """Take a box out of use (a gaming manager; house control). The box and its drops stay on
    record; a retired box is never placed again (custody.place_drop_box). A box still on its
    table, or holding cash not yet counted, is not retired (`REMOVAL`)."""
    site = drop_box.site
    require_role(acting_user, site, Role.GAMING_MANAGER, action="retire a drop box", rule=HOUSE_CONTROL)
    with transaction.atomic():
        box = acts.hold(drop_box)
        if not box.active:
            raise ValidationError({"box": f"{HOUSE_CONTROL}: {box} is already retired."})
        if queries.open_drop(box) is not None:
            raise ValidationError(
                {"box": f"{REMOVAL.at(site)}: {box} is still on its table; record its removal first."}
            )
        if queries.uncounted_drop(box) is not None:
            raise ValidationError({"box": f"{REMOVAL.at(site)}: {box} still holds uncounted cash; count it first."})
        before = snapshot(box)
        box.active = False
        box._history_user = acting_user
        box.save(update_fields=["active"])
        _audit(acting_user, "drop_box.retired", box, site, before=before)
    return box
