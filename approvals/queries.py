"""Reads shared by the table check, the services and the API."""

from datetime import date

from django.db.models import OuterRef, Subquery

from cardroom.models import Site
from cardroom.table_rules import LicensedOption

from . import rules
from .models import GameApproval, InternalControls, Licence, TableGame, WrittenProcedure


def site_today(site: Site) -> date:
    """Today in the site's own time zone (an internal-controls version takes effect on a date there)."""
    return site.today()


def current_link(table_id: int | None) -> TableGame | None:
    """The table's latest link to an approved game (None: never linked)."""
    if table_id is None:
        return None
    return current_links([table_id]).get(table_id)


def current_links(table_ids) -> dict[int, TableGame]:
    """Each table's latest link to an approved game, by table id (a table never linked is not a
    key), with its approval and pay tables. One query, whatever the number of tables."""
    latest = TableGame.objects.filter(table_id=OuterRef("table_id")).order_by("-linked_at", "-id").values("pk")[:1]
    links = TableGame.objects.filter(table_id__in=table_ids, pk=Subquery(latest)).select_related(
        "approval", "blackjack_pay_table", "side_bet_pay_table"
    )
    return {link.table_id: link for link in links}


def controls_in_effect(site: Site, approval: GameApproval | None, on: date | None = None) -> InternalControls | None:
    """The version of the site's internal controls for the game in effect on `on` (default: today)."""
    on = on or site_today(site)
    return (
        InternalControls.objects.filter(site=site, game_approval=approval, effective_on__lte=on)
        .order_by("-effective_on", "-version")
        .first()
    )


def controls_in_force(sites: list[Site]) -> list[InternalControls]:
    """The version of each site's internal controls for each game (house-banked blackjack, each
    approved game) in effect today at the site, with its approved game. One query."""
    if not sites:
        return []
    today = {site.pk: site_today(site) for site in sites}
    versions = (
        InternalControls.objects.filter(site__in=sites, effective_on__lte=max(today.values()))
        .select_related("game_approval")
        .order_by("site_id", "game_approval_id", "-effective_on", "-version")
    )
    latest: dict[tuple, InternalControls] = {}
    for controls in versions:
        key = (controls.site_id, controls.game_approval_id)
        if controls.effective_on <= today[controls.site_id] and key not in latest:
            latest[key] = controls
    return list(latest.values())


def licence_in_force(site: Site, on: date | None = None) -> Licence | None:
    """The organization's licence for the site's jurisdiction in force on `on` (default: today there)."""
    on = on or site_today(site)
    return (
        Licence.objects.filter(
            organization_id=site.organization_id, jurisdiction=site.jurisdiction, effective_on__lte=on
        )
        .order_by("-effective_on", "-id")
        .first()
    )


def no_licence_words(site: Site) -> str:
    """The tie option where the site's law puts it on the licence (`rules.LICENCE`) and none of the
    organization's is in force at the site today: a table waits for the licence (9 NYCRR 4620.5(h))."""
    return (
        f"{rules.LICENCE.at(site)}: the selection of the tie option is set forth in the licence application and the "
        f"licence reflects it; no licence of the organization is in force at {site} today: record the licence first."
    )


def licence_words(site: Site, licence: Licence) -> str:
    """The tie option a licence in force at the site reflects, for every table under it (9 NYCRR
    4620.5(h)): what a table form says under the option, and the start of the refusal of a table
    that differs (`checks.licence_errors`)."""
    return (
        f"{rules.LICENCE.at(site)}: the licence ({licence.licence_number}, effective "
        f"{licence.effective_on.isoformat()}) reflects tie option {licence.tie_option} "
        f"({licence.get_tie_option_display()}); every table under it follows it"
    )


def licensed_table_values(site: Site) -> dict[str, LicensedOption]:
    """The options the organization's licence sets for every table under it (its tie option, 9
    NYCRR 4620.5(h)), where the site's law puts one on the licence, each with the value of the
    licence in force at `site` today (None where none is) and what the table form says of it; else {}."""
    if not rules.LICENCE.applies(site):
        return {}
    licence = licence_in_force(site)
    if licence is None:
        return {"tie_option": LicensedOption(None, no_licence_words(site))}
    note = f"{licence_words(site, licence)}. A change of option is a new licence (Approvals and licences)."
    return {"tie_option": LicensedOption(licence.tie_option, note)}


def session_licences(site: Site, on: date) -> tuple[list[tuple[str, date]], str | None]:
    """The organization's licences on file for the site's jurisdiction, oldest first (number,
    effective date), and the number of the one in force on `on` (the latest not after it), in one
    query (fees.rules.session_licences)."""
    on_file = list(
        Licence.objects.filter(organization_id=site.organization_id, jurisdiction=site.jurisdiction)
        .order_by("effective_on", "id")
        .values_list("licence_number", "effective_on")
    )
    in_force = [number for number, effective_on in on_file if effective_on <= on]
    return on_file, (in_force[-1] if in_force else None)


def procedures_in_force(organization_ids, on: date) -> dict[tuple[int, str], WrittenProcedure]:
    """(organization id, kind) -> the version of the organization's written procedure of that kind
    in force on `on` (the latest whose `effective_on` is not after it). One query."""
    versions = WrittenProcedure.objects.filter(organization_id__in=organization_ids, effective_on__lte=on).order_by(
        "organization_id", "kind", "-effective_on", "-version"
    )
    in_force: dict[tuple[int, str], WrittenProcedure] = {}
    for procedure in versions:
        in_force.setdefault((procedure.organization_id, procedure.kind), procedure)
    return in_force
