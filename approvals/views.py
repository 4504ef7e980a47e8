"""The register of game approvals and internal controls, and a table's approved game with its
settings (changed through cardroom.services.update_table, or with a new game through
approvals.services.link_table_game: the same refusals as the API's)."""

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render

from cardroom import services as cardroom_services
from cardroom.access import access_for
from cardroom.models import Game, Table
from core.forms import call_service, page_status
from core.rules import joined_citations

from . import forms, rules, services
from .models import GameApproval, InternalControls, Licence, TableGame, WrittenProcedure
from .queries import controls_in_effect, current_link, procedures_in_force, site_today


def _access(request, reader=rules.RECORDS):
    access = access_for(request.user)
    if not reader.held_somewhere(access):
        raise PermissionDenied(reader.refusal())
    return access


@dataclass(frozen=True)
class TableRow:
    """A table of the register and its current link (None: it never offered an approved game)."""

    table: Table
    link: TableGame | None
    page: bool = True  # its game page: the site's pack approves games and the table is in use


@login_required
def register_page(request):
    access = _access(request)
    sites = rules.RECORDS.sites(access)  # where one reads the register, as the API (approvals.api)
    approvals = GameApproval.objects.filter(organization_id=access.organization_id).prefetch_related("pay_tables")
    controls = (
        InternalControls.objects.filter(site__in=sites)
        .select_related("site", "game_approval")
        .order_by("site__name", "game_approval_id", "-version")
    )
    links = {}
    for link in (
        TableGame.objects.filter(table__site__in=sites)
        .select_related("table__site", "approval")
        .order_by("linked_at", "id")
    ):
        links[link.table_id] = link  # the latest stays
    # Every active blackjack table where the site's pack approves games, with the game it offers
    # (its page moves it to another), and any other table still offering an approved game.
    judged = [site.pk for site in sites if rules.GAME_APPROVAL.applies(site)]
    offered = Table.objects.filter(site_id__in=judged, active=True, game=Game.TWENTY_ONE).select_related("site")
    tables = sorted(
        [TableRow(table, links.get(table.pk)) for table in offered]
        + [
            TableRow(link.table, link, page=False)
            for link in links.values()
            if link.approval_id and link.table.site_id not in judged
        ],
        key=lambda row: (row.table.site.name, row.table.number),
    )
    licences = Licence.objects.filter(organization_id=access.organization_id).order_by(
        "jurisdiction", "-effective_on", "-id"
    )
    # Each section only where the law of one of the organization's sites' packs states it.
    codes = set(sites.values_list("jurisdiction", flat=True))
    states = {
        name: any(rule.applies(code) for code in codes)
        for name, rule in (
            ("controls", rules.INTERNAL_CONTROLS),
            ("approvals", rules.GAME_APPROVAL),
            ("licences", rules.LICENCE),
        )
    }
    # The internal controls' rule as the packs stating it cite it (WA-HB: the WSGC rules).
    controls_rule = joined_citations(
        sorted(rules.INTERNAL_CONTROLS.at(c) for c in codes if rules.INTERNAL_CONTROLS.applies(c)), "; "
    )
    # How irregularities are addressed, as the packs stating it cite it (WA-HB: the WSGC rules).
    irregularities_rule = joined_citations(
        sorted(rules.IRREGULARITIES.at(c) for c in codes if rules.IRREGULARITIES.applies(c)), "; "
    )
    return render(
        request,
        "approvals/list.html",
        {
            "approvals": approvals.order_by("game_name", "approved_on"),
            "controls": controls,
            "links": tables,
            "standard_game": forms.STANDARD_GAME,
            "licences": licences,
            "states": states,
            "controls_rule": controls_rule,
            "irregularities_rule": irregularities_rule,
            "option_columns": [option.column for option in rules.DOCUMENTED_OPTIONS],
        },
    )


@login_required
def approval_page(request, pk):
    """One game approval as recorded: the letter, its conditions, pay tables and rules of play."""
    access = _access(request)
    approval = get_object_or_404(GameApproval.objects.filter(organization_id=access.organization_id), pk=pk)
    return render(request, "approvals/approval.html", {"approval": approval, "pay_tables": approval.pay_tables.all()})


@login_required
def table_game(request, pk):
    access = _access(request)
    table = get_object_or_404(Table.objects.filter(site__in=rules.RECORDS.sites(access)).select_related("site"), pk=pk)
    if table.game != Game.TWENTY_ONE or not rules.GAME_APPROVAL.applies(table.site):
        # Only where the site's pack approves games (WA-HB): elsewhere a table's settings are the
        # setup form's, judged by its own pack, and it offers no approved game.
        raise Http404("No game approvals at this table's site.")
    link = current_link(table.pk)
    approval = link.approval if link else None
    can_change = access.is_gaming_manager
    form = forms.TableSettingsForm(request.POST or None, instance=Table.objects.get(pk=table.pk))
    game_form = forms.TableGameForm(request.POST or None, table=table, link=link)
    if request.method == "POST":
        if not can_change:
            raise PermissionDenied(f"{rules.RECORDER_RULE}: only a gaming manager may change a table's settings.")
        if form.is_valid() and game_form.is_valid() and _save_table_game(request, table, form, game_form):
            return redirect("approvals:table", pk=table.pk)
    context = {
        "table": table,
        "link": link,
        "approval": approval,
        "form": form,
        "game_form": game_form,
        "standard_game": forms.STANDARD_GAME,
        "can_change": can_change,
        "controls": controls_in_effect(table.site, approval),
        "pay_tables": list(approval.pay_tables.all()) if approval else [],
    }
    return render(request, "approvals/table.html", context, status=page_status(form, game_form))


def _save_table_game(request, table, form, game_form) -> bool:
    """The table's settings, and its game where the game form changes it: a new link with the
    settings changed beside it, in one step (approvals.services.link_table_game), so a table moves
    to a game whose conditions its old settings break; a setting the new game's approval fixes to one
    value follows it unless the form changed it. A refusal goes on the form showing the value it
    names (the settings' fields on the settings form), else on the game form."""
    values = {name: form.cleaned_data[name] for name in forms.SETTINGS if name in form.fields}
    if not game_form.changed():
        return (
            call_service(form, lambda: cardroom_services.update_table(acting_user=request.user, table=table, **values))
            is not None
        )
    settings = {name: value for name, value in values.items() if value != getattr(table, name)}
    approval = game_form.cleaned_data["approval"]
    for name, permitted in (approval.conditions if approval else {}).items():
        # A setting the new game's approval fixes to one value follows it, unless the form changed it.
        if (
            len(permitted) == 1
            and name in form.fields
            and name not in settings
            and getattr(table, name) != permitted[0]
        ):
            settings[name] = permitted[0]
    linked = call_service(
        game_form,
        lambda: services.link_table_game(
            acting_user=request.user, table=table, settings=settings, **game_form.cleaned_data
        ),
        form,  # the settings' fields: their refusals on the settings form
    )
    return linked is not None


@login_required
def procedures_page(request):
    """The organization's written procedures (where its sites' pack states them): the version of
    each in force today and every version recorded, with a form adding a version (gaming managers;
    the API's service and messages: approvals.services.record_written_procedure). Every employee
    reads it (`rules.PROCEDURE_READERS`)."""
    access = _access(request, rules.PROCEDURE_READERS)
    organization = access.employee_org()
    sites = [s for s in access.sites() if any(rule.applies(s) for rule in rules.PROCEDURES.values())]
    stated = [
        (kind, label)
        for kind, label in WrittenProcedure.Kind.choices
        if any(rules.PROCEDURES[kind].applies(s) for s in sites)
    ]
    form = forms.WrittenProcedureForm(request.POST or None, kinds=stated)
    if request.method == "POST":
        if not access.is_gaming_manager:
            raise PermissionDenied(f"{rules.RECORDER_RULE}: only a gaming manager may record a written procedure.")
        if form.is_valid():
            saved = call_service(
                form,
                lambda: services.record_written_procedure(
                    acting_user=request.user, organization=organization, **form.cleaned_data
                ),
            )
            if saved is not None:
                cite = rules.PROCEDURES[saved.kind].at(sites[0])
                messages.success(
                    request,
                    f"{cite}: {saved.get_kind_display()}, version {saved.version}, is recorded, in force from "
                    f"{saved.effective_on.isoformat()}.",
                )
                return redirect("approvals:procedures")
    today = site_today(sites[0]) if sites else None
    in_force = procedures_in_force([organization.pk], today) if today else {}
    history = WrittenProcedure.objects.filter(organization=organization).select_related("adopted_by")
    rows = [
        {
            "kind": kind,
            "label": label,
            "citation": rules.PROCEDURES[kind].at(sites[0]),
            "in_force": in_force.get((organization.pk, kind)),
            "versions": sorted((v for v in history if v.kind == kind), key=lambda v: -v.version),
        }
        for kind, label in stated
    ]
    context = {
        "rows": rows,
        "form": form,
        "can_record": access.is_gaming_manager and bool(stated),
        "idle_rule": rules.RESHUFFLE_IDLE.at(sites[0]) if sites else "",
        "today": today,
    }
    return render(request, "approvals/procedures.html", context, status=page_status(form))
