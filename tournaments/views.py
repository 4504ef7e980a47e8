"""Tournament pages at the current site: the list, announcing a tournament, its detail (the
register of players, fees and prizes, with forms to collect a fee and record a prize), and the
printable disclosure to players (ND 99-01.3-08-15). Views parse with tournaments.forms and
call one service; the service's refusal shows on the form with the API's message."""

from zoneinfo import ZoneInfo

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from cardroom.access import access_for
from core.forms import call_service
from core.money import format_money

from . import forms, queries, rules, services
from .models import FeeKind, TournamentFee, TournamentPlayer, TournamentPrize


def _site(request):
    site, access = request.site, access_for(request.user)
    if site is None or not rules.TOURNAMENT_RECORDS.allows(access, site.pk):
        raise PermissionDenied(rules.TOURNAMENT_RECORDS.refusal())
    return site, access


def _tournament(request, pk):
    access = access_for(request.user)
    tournament = get_object_or_404(queries.readable_tournaments(access).select_related("site", "announced_by"), pk=pk)
    timezone.activate(ZoneInfo(tournament.site.time_zone))
    return tournament, access


@login_required
def tournament_list(request):
    site, access = _site(request)
    tournaments = list(queries.readable_tournaments(access).filter(site=site).order_by("-gaming_date", "-id")[:100])
    figures = queries.figures_by_tournament([t.pk for t in tournaments])
    rows = [(t, figures[t.pk]) for t in tournaments]
    # Announcing is offered only where the site's pack states tournaments (the service refuses elsewhere).
    can_announce = rules.TOURNAMENT.applies(site) and access.has_role(site.pk, *rules.DIRECTORS)
    today = timezone.localdate()
    cap = rules.MAX_CUMULATIVE_FEE.on(site, today) if rules.TOURNAMENT.applies(site) else None
    context = {"site": site, "rows": rows, "can_announce": can_announce,
               "fee_cap": format_money(cap.value) if cap else ""}  # fmt: skip
    return render(request, "tournaments/list.html", context)


@login_required
def announce(request):
    site, access = _site(request)
    if not access.has_role(site.pk, *rules.DIRECTORS):
        raise PermissionDenied(
            f"{rules.DIRECTOR_RULE}: only a gaming manager or shift manager may announce a tournament."
        )
    if not rules.TOURNAMENT.applies(site):
        # No form to fill where the pack states no tournament (nor its fee cap): the refusal instead.
        context = {"site": site, "form": None, "refusal": services.no_tournament_here(site)}
        return render(request, "tournaments/announce.html", context, status=400 if request.method == "POST" else 200)
    form = forms.TournamentForm(request.POST or None, initial={"gaming_date": timezone.localdate()})
    cap = rules.MAX_CUMULATIVE_FEE.on(site, timezone.localdate())  # the cap in force today, as the help reads
    form.fields["entry_fee_cents"].help_text = f"At most {format_money(cap.value)} per player with rebuys and add-ons."
    if request.method == "POST" and form.is_valid():
        fields = dict(form.cleaned_data)
        at = fields.pop("announced_at")  # the service's `at`; its refusals name announced_at
        tournament = call_service(
            form, lambda: services.announce_tournament(acting_user=request.user, site=site, at=at, **fields)
        )
        if tournament is not None:
            messages.success(
                request,
                f"{tournament.name} of {tournament.gaming_date} announced: now print its disclosure for the players "
                "and collect the entry fees.",
            )
            return redirect("tournaments:detail", pk=tournament.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "tournaments/announce.html", {"site": site, "form": form}, status=status)


def _players(tournament):
    return TournamentPlayer.objects.filter(tournament=tournament).order_by("name")


def _detail(
    request, tournament, access, *, entry_form=None, buy_form=None, prize_form=None, void_failed=None, status=200
):
    site_id = tournament.site_id
    players = _players(tournament)
    return render(
        request,
        "tournaments/detail.html",
        {
            "t": tournament,
            "figures": queries.tournament_figures(tournament),
            "players": queries.player_register(tournament),
            "fees": queries.fee_register(tournament),
            "prizes": queries.prize_register(tournament),
            "can_collect": access.has_role(site_id, *rules.COLLECTORS),
            "can_direct": access.has_role(site_id, *rules.DIRECTORS),
            "entry_form": entry_form or forms.EntryForm(),
            "buy_form": buy_form or forms.BuyForm(players=players),
            "prize_form": prize_form or forms.PrizeForm(players=players),
            "void_failed": void_failed,
            "rules": rules,
        },
        status=status,
    )


def _failed_void(kind: str, pk: int, form) -> dict:
    """A refused void, shown inline at its row: what was typed and the service's messages."""
    return {
        "kind": kind,
        "pk": pk,
        "reason": form.data.get("reason", ""),
        "voided_at": form.data.get("voided_at", ""),
        "errors": [message for messages in form.errors.values() for message in messages],
    }


@login_required
def detail(request, pk):
    tournament, access = _tournament(request, pk)
    return _detail(request, tournament, access)


@login_required
@require_POST
def enter_player(request, pk):
    """Collect an entry fee (registering the player), or a rebuy or add-on."""
    tournament, access = _tournament(request, pk)
    if request.POST.get("kind") in (FeeKind.REBUY, FeeKind.ADD_ON):
        form = forms.BuyForm(request.POST, players=_players(tournament))
        done = form.is_valid() and call_service(
            form,
            lambda: services.collect_fee(
                acting_user=request.user,
                tournament=tournament,
                kind=form.cleaned_data["kind"],
                player=form.cleaned_data["player"],
                at=form.cleaned_data["collected_at"],
                reason=form.cleaned_data["reason"],
            ),
        )
        if done:
            _fee_recorded(request, done)
            return redirect("tournaments:detail", pk=pk)
        return _detail(request, tournament, access, buy_form=form, status=400)
    form = forms.EntryForm(request.POST)
    done = form.is_valid() and call_service(
        form,
        lambda: services.collect_fee(
            acting_user=request.user,
            tournament=tournament,
            kind=FeeKind.ENTRY,
            player_name=form.cleaned_data["player_name"],
            at=form.cleaned_data["collected_at"],
            reason=form.cleaned_data["reason"],
        ),
    )
    if done:
        _fee_recorded(request, done)
        return redirect("tournaments:detail", pk=pk)
    return _detail(request, tournament, access, entry_form=form, status=400)


def _fee_recorded(request, fee) -> None:
    messages.success(
        request,
        f"{fee.get_kind_display()} of {format_money(fee.fee_cents)} collected from {fee.player.name}: "
        f"hand them their {fee.chips} tournament chips; the register of players lists it.",
    )


def _award(request, tournament, fields: dict):
    at = fields.pop("awarded_at")  # the service's `at`; its refusals name awarded_at
    return services.award_prize(acting_user=request.user, tournament=tournament, at=at, **fields)


@login_required
@require_POST
def record_prize(request, pk):
    tournament, access = _tournament(request, pk)
    form = forms.PrizeForm(request.POST, players=_players(tournament))
    done = form.is_valid() and call_service(form, lambda: _award(request, tournament, dict(form.cleaned_data)))
    if done:
        messages.success(
            request,
            f"Prize of {format_money(done.amount_cents)} to {done.player.name} ({done.round_name}) recorded in the "
            "prize register: the record of win lists it.",
        )
        return redirect("tournaments:detail", pk=pk)
    return _detail(request, tournament, access, prize_form=form, status=400)


@login_required
@require_POST
def void_fee(request, pk, fee_pk):
    tournament, access = _tournament(request, pk)
    fee = get_object_or_404(TournamentFee, pk=fee_pk, tournament=tournament)
    form = forms.VoidForm(request.POST)
    if form.is_valid() and call_service(
        form,
        lambda: services.void_fee(
            acting_user=request.user, fee=fee, reason=form.cleaned_data["reason"], at=form.cleaned_data["voided_at"]
        ),
    ):
        messages.success(
            request, f"{fee.get_kind_display()} of {fee.player.name} voided: the register of players shows the void."
        )
        return redirect("tournaments:detail", pk=pk)
    failed = _failed_void("fee", fee.pk, form)
    return _detail(request, tournament, access, void_failed=failed, status=400)


@login_required
@require_POST
def void_prize(request, pk, prize_pk):
    tournament, access = _tournament(request, pk)
    prize = get_object_or_404(TournamentPrize, pk=prize_pk, tournament=tournament)
    form = forms.VoidForm(request.POST)
    if form.is_valid() and call_service(
        form,
        lambda: services.void_prize(
            acting_user=request.user, prize=prize, reason=form.cleaned_data["reason"], at=form.cleaned_data["voided_at"]
        ),
    ):
        messages.success(
            request, f"Prize to {prize.player.name} voided: record the right prize anew if one was awarded."
        )
        return redirect("tournaments:detail", pk=pk)
    failed = _failed_void("prize", prize.pk, form)
    return _detail(request, tournament, access, void_failed=failed, status=400)


@login_required
def disclosure(request, pk):
    """The rules disclosed to players (ND 99-01.3-08-15), printable."""
    tournament, _ = _tournament(request, pk)
    fee_cap = rules.MAX_CUMULATIVE_FEE.on(tournament.site, tournament.gaming_date).value
    return render(request, "tournaments/disclosure.html", {"t": tournament, "rules": rules, "fee_cap_cents": fee_cap})
