"""Cashier's cage pages at the current site: parse a form, call one service, show the result.
A refusal from a service appears inline on the form, with the same words as the API."""

from datetime import date

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.views.decorators.http import require_POST

from cardroom.access import refusal
from cardroom.models import ChipDenomination, Employee, Site
from cardroom.views import page_at_current_site
from core import limits
from core.forms import call_service, page_status
from core.money import format_money
from core.rules import HOUSE_CONTROL
from floor.calculations import site_today
from floor.models import GamingDay
from floor.rules import house_chips, no_house_chips

from . import forms, queries, rules, services
from .calculations import deposit_due_on, deposit_is_late
from .models import BankCount, BankDeposit, ChipMovement, ChipRedemption, Iou, TipDeclaration, TipPolicy
from .rules import (
    CAGE_CLERKS,
    CAGE_READERS,
    DEPOSIT_VERIFIERS,
    INVENTORY_KEEPERS,
    INVENTORY_READERS,
    POLICY_SETTERS,
    TIP_REDEEMERS,
    TIP_ROLES,
)


def cage_page(readers):
    """Login, a current site where the user holds one of `readers`, the site's time zone."""

    def may_read(access, site):
        if not access.has_role(site.pk, *readers):
            raise PermissionDenied(refusal(HOUSE_CONTROL, readers, "see these cage records", site))

    return page_at_current_site(may_read)


def _chip_values(site: Site) -> list[int]:
    chips = ChipDenomination.objects.filter(organization_id=site.organization_id, active=True)
    return list(chips.order_by("-value_cents").values_list("value_cents", flat=True))


def _posted(request, name: str):
    return request.POST if request.method == "POST" and request.POST.get("form") == name else None


def _page(request, template, context, *forms_):
    return render(request, template, context, status=page_status(*forms_))


def _saved(form, save):
    """The record the service saved from a valid bound form, else None (its refusal is on the form)."""
    if form is None or not form.is_bound or not form.is_valid():
        return None
    return call_service(form, save)


def _without_house_chips(request, template: str, site: Site, consequence: str):
    """A chip page at a fees-only site (floor.rules.house_chips) only says why it takes nothing
    there, with no form; a POST is refused (400) in a service's words for house chips there
    (floor.rules.FEES_ONLY), recording nothing."""
    refused = no_house_chips(site, consequence) if request.method == "POST" else ""
    return render(request, template, {"house_chips": False, "refused": refused}, status=400 if refused else 200)


def _done(request, saved, confirmation) -> bool:
    """Was a record saved? If so, say on the next page what was recorded and what comes next
    (`confirmation(saved)`), as the floor's pages do."""
    if saved is None:
        return False
    messages.success(request, confirmation(saved))
    return True


# --- Bank counts -----------------------------------------------------------------------------


@cage_page(CAGE_READERS)
def bank(request, site, access):
    gaming_date = _date_param(request, site)
    form = forms.BankCountForm(
        _posted(request, "count"),
        site=site,
        chip_values=_chip_values(site),
        initial={"gaming_date": gaming_date, "kind": _kind_to_count(site, gaming_date)},
    )
    count = _saved(
        form, lambda: services.record_bank_count(acting_user=request.user, site=site, **form.service_kwargs())
    )
    if _done(request, count, _counted):
        return redirect(f"{request.path}?date={form.cleaned_data['gaming_date']}")
    counts = BankCount.objects.filter(site=site).select_related("counted_by__user").prefetch_related("lines")
    return _page(
        request,
        "cage/bank.html",
        {
            "site": site,
            "form": form,
            "gaming_date": gaming_date,
            "day": queries.bank_day(site, gaming_date),
            "counts": counts.order_by("-gaming_date", "-counted_at", "-pk")[: forms.RECENT_BANK_COUNTS],
            "can_count": access.has_role(site.pk, *CAGE_CLERKS),
            # Where the house's revenue is its fees its bank is cash only: the page offers no chip
            # fields (chips posted anyway reach the service, which refuses them: floor.rules.FEES_ONLY).
            "house_chips": house_chips(site),
        },
        form,
    )


def _kind_to_count(site: Site, gaming_date) -> str:
    """The count the form proposes: the ending bank once the day's starting bank is counted and
    its ending bank is not, else the starting bank (house control: the cashier may still choose
    either; a correction names the count it corrects)."""
    kinds = set(BankCount.objects.filter(site=site, gaming_date=gaming_date).values_list("kind", flat=True))
    if BankCount.Kind.START in kinds and BankCount.Kind.END not in kinds:
        return BankCount.Kind.END
    return BankCount.Kind.START


def _counted(count: BankCount) -> str:
    what = f"{count.get_kind_display()} of {count.gaming_date} counted ({format_money(count.total_cents)})"
    if count.corrects_id:
        what = f"{what}, correcting count #{count.corrects_id}"
    if count.kind == BankCount.Kind.START:
        return f"{what}: count the ending bank when the day closes."
    return (
        f"{what}: the books of {count.gaming_date} can now be closed on the daily page, then the day's cash deposited."
    )


def _date_param(request, site):
    from datetime import date

    try:
        asked = date.fromisoformat(request.GET.get("date", ""))
    except ValueError:
        return site_today(site)
    return asked if limits.date_in_range(asked) else site_today(site)  # the books' dates, none past them


# --- IOUs --------------------------------------------------------------------------------------


def _ious_page(request, site, access, repay_form=None, repay_for=None):
    form = forms.IouForm(_posted(request, "lend"), initial={"gaming_date": site_today(site)}, site=site)
    iou = _saved(form, lambda: services.lend_iou(acting_user=request.user, site=site, **form.cleaned_data))
    if _done(
        request,
        iou,
        lambda iou: (
            f"IOU of {format_money(iou.amount_cents)} from {iou.source_label} to {iou.destination_label} on "
            f"{iou.gaming_date} recorded: record its repayment here when the money comes back."
        ),
    ):
        return redirect("cage:ious")
    rows = []
    for iou in queries.ious_with_repaid(site).select_related("lent_by__user").order_by("-gaming_date", "-pk")[:100]:
        repaid = iou.repaid or 0
        rows.append(
            {
                "iou": iou,
                "repaid": repaid,
                "outstanding": iou.amount_cents - repaid,
                "repayments": iou.repayments.select_related("repaid_by__user"),
            }
        )
    return _page(
        request,
        "cage/ious.html",
        {
            "form": form,
            "rows": rows,
            "repay_form": repay_form,
            "blank_repay_form": forms.RepayForm(),
            "repay_for": repay_for,
            "can_sign": access.has_role(site.pk, *CAGE_CLERKS),
        },
        form,
        repay_form,
    )


ious = cage_page(CAGE_READERS)(_ious_page)


@require_POST
@cage_page(CAGE_READERS)
def iou_repay(request, site, access, pk):
    iou = get_object_or_404(Iou, pk=pk, site=site)
    form = forms.RepayForm(request.POST)
    repaid = _saved(form, lambda: services.repay_iou(acting_user=request.user, iou=iou, **form.cleaned_data))
    if _done(
        request,
        repaid,
        lambda repaid: (
            f"Repayment of {format_money(repaid.amount_cents)} to the IOU from {iou.source_label} to "
            f"{iou.destination_label} of {iou.gaming_date} recorded on {repaid.gaming_date}."
        ),
    ):
        return redirect("cage:ious")
    return _ious_page(request, site, access, repay_form=form, repay_for=iou.pk)


# --- Chip redemptions ----------------------------------------------------------------------------


@cage_page(CAGE_READERS)
def redemptions(request, site, access):
    form = forms.ChipLinesForm(
        _posted(request, "redeem"), chip_values=_chip_values(site), initial={"gaming_date": site_today(site)}
    )
    redeemed = _saved(form, lambda: services.redeem_chips(acting_user=request.user, site=site, **form.service_kwargs()))
    if _done(
        request,
        redeemed,
        lambda redeemed: (
            f"Chips redeemed on {redeemed.gaming_date}: pay the player {format_money(redeemed.total_cents)} in cash; "
            "the chips go into the bank."
        ),
    ):
        return redirect("cage:redemptions")
    rows = ChipRedemption.objects.filter(site=site).select_related("cashier__user").prefetch_related("lines")
    return _page(
        request,
        "cage/redemptions.html",
        {
            "form": form,
            "rows": rows.order_by("-redeemed_at")[:100],
            "can_redeem": access.has_role(site.pk, *CAGE_CLERKS),
            # Where the house's revenue is its fees it holds no chips: nothing to redeem (the
            # service refuses, citing floor.rules.FEES_ONLY); the page says why instead of a form.
            "house_chips": house_chips(site),
            # The organization's sites where twenty-one stopped, shown where the stopped site's pack
            # states the thirty days' redemption (`cage.discontinued_redemption`; the compliance
            # alert carries the window's end).
            "discontinued": Site.objects.filter(
                organization_id=site.organization_id, twenty_one_discontinued_on__isnull=False
            ).order_by("-twenty_one_discontinued_on")[:5],
        },
        form,
    )


# --- Tips ------------------------------------------------------------------------------------------


def _tips_page(request, site, access, redeem_form=None, redeem_for=None):
    if not house_chips(site):  # the service refuses tip chips there too (cage.services.declare_tips)
        return _without_house_chips(
            request, "cage/tips.html", site, "it holds no house chips, so no tip chips are declared to its cage"
        )
    is_dealer = access.has_role(site.pk, *TIP_ROLES)
    declare = forms.ChipLinesForm(
        _posted(request, "declare"), chip_values=_chip_values(site), initial={"gaming_date": site_today(site)}
    )
    declared = _saved(
        declare, lambda: services.declare_tips(acting_user=request.user, site=site, **declare.service_kwargs())
    )
    if _done(
        request,
        declared,
        lambda declared: (
            f"Tips of {format_money(declared.total_cents)} declared for {declared.gaming_date}: "
            "have the cashier redeem them at the cage window."
        ),
    ):
        return redirect("cage:tips")
    policy_form = forms.TipPolicyForm(_posted(request, "policy"), initial={"effective_on": site_today(site)})
    policy = _saved(
        policy_form,
        lambda: services.record_tip_policy(
            acting_user=request.user, organization=site.organization, **policy_form.cleaned_data
        ),
    )
    if _done(request, policy, lambda policy: f"Tip policy in force from {policy.effective_on} recorded."):
        return redirect("cage:tips")
    declarations = TipDeclaration.objects.filter(site=site).select_related("dealer__user", "redemption__cashier__user")
    if not access.has_role(site.pk, *CAGE_READERS):
        declarations = declarations.filter(dealer=access.employee)
    return _page(
        request,
        "cage/tips.html",
        {
            "declare_form": declare,
            "house_chips": True,
            "policy_form": policy_form,
            "is_dealer": is_dealer,
            "declarations": declarations.prefetch_related("lines").order_by("-declared_at")[:100],
            "policy": TipPolicy.objects.filter(organization_id=site.organization_id)
            .order_by("-effective_on", "-pk")
            .first(),
            "can_redeem": access.has_role(site.pk, *TIP_REDEEMERS),
            "can_set_policy": access.has_role(site.pk, *POLICY_SETTERS),
            "redeem_form": redeem_form,
            "redeem_for": redeem_for,
            "blank_redeem_form": forms.TipRedeemForm(dealers=_dealers(site)),
        },
        declare,
        policy_form,
        redeem_form,
    )


tips = cage_page(CAGE_READERS | TIP_ROLES)(_tips_page)


def _dealers(site):
    return (
        Employee.objects.filter(memberships__site=site, memberships__role__in=TIP_ROLES, active=True)
        .distinct()
        .select_related("user")
    )


@require_POST
@cage_page(CAGE_READERS)
def tip_redeem(request, site, access, pk):
    declaration = get_object_or_404(TipDeclaration, pk=pk, site=site)
    form = forms.TipRedeemForm(request.POST, dealers=_dealers(site))
    redeemed = _saved(
        form, lambda: services.redeem_tips(acting_user=request.user, declaration=declaration, **form.cleaned_data)
    )
    if _done(
        request,
        redeemed,
        lambda redeemed: (
            f"Tips of {declaration.dealer} redeemed: pay {format_money(redeemed.amount_cents)} in cash at the window."
            + _counted_later(redeemed)
        ),
    ):
        return redirect("cage:tips")
    return _tips_page(request, site, access, redeem_form=form, redeem_for=declaration.pk)


def _counted_later(redeemed) -> str:
    """Where tips of a day whose books had closed are counted (`rules.TIPS_OF_CLOSED_DAYS`)."""
    declared_on = redeemed.declaration.gaming_date
    if redeemed.gaming_date == declared_on:
        return ""
    return (
        f" Counted in the books of {redeemed.gaming_date}, the day they are paid, as those of {declared_on}, "
        f"when they were declared, are closed ({rules.TIPS_OF_CLOSED_DAYS})."
    )


# --- Deposits ---------------------------------------------------------------------------------------


def _deposits_page(
    request,
    site,
    access,
    form=None,
    form_for=None,
    verify_form=None,
    verify_for=None,
    correct_form=None,
    correct_for=None,
):
    today = timezone.localdate()
    rows = []
    # The books' state, not the floor's: a day is deposited once its books are closed (the daily
    # page's "Close the books"), which may be well after its gaming day closed; a fees, session or
    # tournament day with no gaming day is listed once its books are closed (a day whose only
    # records are adjusting entries collected nothing: never listed, `queries.deposit_days`).
    for day in queries.deposit_days(site):
        deposit = day.deposit
        due = deposit.due_on if deposit else deposit_due_on(site, day.gaming_date)
        rows.append(
            {
                "day": day,
                "key": f"day-{day.gaming_day.pk}" if day.gaming_day else f"date-{day.gaming_date.isoformat()}",
                "deposit": deposit,
                "due": due,
                "closed": day.closed,
                # As it stands: a correction's date deposited (`queries.with_standing`).
                "late": deposit_is_late(deposit.standing_deposited_on if deposit else None, due, today),
            }
        )
    return _page(
        request,
        "cage/deposits.html",
        {
            "rows": rows,
            "form": form,
            "form_for": form_for,
            # A refused deposit of a date the page does not list (nothing of its books on it): its
            # refusal is shown above the list.
            "unlisted_form": form if form is not None and form_for not in {row["key"] for row in rows} else None,
            "verify_form": verify_form,
            "verify_for": verify_for,
            "correct_form": correct_form,
            "correct_for": correct_for,
            # Each day without a deposit carries the blank deposit form, each unverified deposit
            # the blank verification: each rendered once, not once a row (issue 37).
            "blank_form": render_to_string(
                "cardroom/_form.html", {"form": forms.DepositForm(initial={"deposited_on": today})}, request
            ),
            "blank_verify_form": render_to_string("cardroom/_form.html", {"form": forms.VerifyForm()}, request),
            "blank_correct_form": render_to_string(
                "cardroom/_form.html", {"form": forms.DepositCorrectionForm()}, request
            ),
            "can_deposit": access.has_role(site.pk, *CAGE_CLERKS),
            "can_verify": access.has_role(site.pk, *DEPOSIT_VERIFIERS),
        },
        form,
        verify_form,
        correct_form,
    )


deposits = cage_page(CAGE_READERS)(_deposits_page)


@require_POST
@cage_page(CAGE_READERS)
def deposit_record(request, site, access, pk):
    day = get_object_or_404(GamingDay, pk=pk, site=site)
    form = forms.DepositForm(request.POST)
    deposit = _saved(
        form, lambda: services.record_deposit(acting_user=request.user, gaming_day=day, **form.cleaned_data)
    )
    if _deposit_done(request, deposit):
        return redirect("cage:deposits")
    return _deposits_page(request, site, access, form=form, form_for=f"day-{day.pk}")


@require_POST
@cage_page(CAGE_READERS)
def deposit_record_on(request, site, access, gaming_date):
    """The deposit of a day of the books with no gaming day (a fees or session day), by its date."""
    try:
        gaming_date = date.fromisoformat(gaming_date)
    except ValueError:
        raise Http404("No such date.") from None
    form = forms.DepositForm(request.POST)
    record = lambda: services.record_deposit(  # noqa: E731
        acting_user=request.user, site=site, gaming_date=gaming_date, **form.cleaned_data
    )
    deposit = _saved(form, record)
    if _deposit_done(request, deposit):
        return redirect("cage:deposits")
    return _deposits_page(request, site, access, form=form, form_for=f"date-{gaming_date.isoformat()}")


def _deposit_done(request, deposit: BankDeposit | None) -> bool:
    """Was the deposit saved? If so, say what was recorded, and, as a warning, how far it is from
    what the day's closed books expect (the daily page and its PDF show it too)."""
    if deposit is None:
        return False
    deposit = queries.with_expected(BankDeposit.objects.filter(pk=deposit.pk)).get()
    differs = queries.deposit_difference_words(deposit)
    text = (
        f"Deposit of {format_money(deposit.standing_amount_cents)} for {deposit.gaming_date} recorded "
        f"(deposited {deposit.deposited_on}, due {deposit.due_on}){differs}: a gaming manager now verifies it "
        "against the bank statement."
    )
    (messages.warning if differs else messages.success)(request, text)
    return True


@require_POST
@cage_page(CAGE_READERS)
def deposit_verify(request, site, access, pk):
    deposit = get_object_or_404(BankDeposit, pk=pk, site=site)
    form = forms.VerifyForm(request.POST)
    verified = _saved(
        form, lambda: services.verify_deposit(acting_user=request.user, deposit=deposit, **form.cleaned_data)
    )
    if _done(
        request,
        verified,
        lambda verified: (
            f"Deposit of {deposit.gaming_date} verified against the statement of {verified.statement_date} "
            f"({format_money(verified.statement_amount_cents)})."
        ),
    ):
        return redirect("cage:deposits")
    return _deposits_page(request, site, access, verify_form=form, verify_for=deposit.pk)


@require_POST
@cage_page(CAGE_READERS)
def deposit_correct(request, site, access, pk):
    """A correction of a recorded deposit, a new row pointing back at it (`services.correct_deposit`)."""
    deposit = get_object_or_404(BankDeposit, pk=pk, site=site)
    form = forms.DepositCorrectionForm(request.POST)
    corrected = _saved(
        form, lambda: services.correct_deposit(acting_user=request.user, deposit=deposit, **form.service_kwargs())
    )
    if _deposit_corrected(request, corrected):
        return redirect("cage:deposits")
    return _deposits_page(request, site, access, correct_form=form, correct_for=deposit.pk)


def _deposit_corrected(request, correction) -> bool:
    """Was the correction saved? If so, say what it changed and, as a warning, how far the deposit as
    it now stands is from what the day's closed books expect."""
    if correction is None:
        return False
    deposit = queries.with_expected(BankDeposit.objects.filter(pk=correction.deposit_id)).get()
    entry = queries.deposit_corrections([deposit.site_id], deposit.gaming_date, deposit.gaming_date)[-1]
    differs = queries.deposit_difference_words(deposit)
    text = f"Deposit of {deposit.gaming_date} corrected: {entry.what} ({entry.reason}){differs}."
    (messages.warning if differs else messages.success)(request, text)
    return True


# --- Chip inventory log --------------------------------------------------------------------------


@cage_page(INVENTORY_READERS)
def inventory(request, site, access):
    if not house_chips(site):  # the organization's log is kept and read at its sites that hold chips
        return _without_house_chips(
            request, "cage/inventory.html", site, "it holds no house chips, so none are logged or counted here"
        )
    organization = site.organization
    values = _chip_values(site)
    movement = forms.ChipMovementForm(
        _posted(request, "movement"), chip_values=values, initial={"occurred_on": timezone.localdate()}
    )
    count = forms.InventoryCountForm(
        _posted(request, "count"),
        sites=Site.objects.filter(organization=organization, active=True),
        chip_values=values,
        initial={"counted_on": timezone.localdate()},
    )
    moved = _saved(movement, lambda: _move(request, organization, movement))
    counted = moved or _saved(
        count,
        lambda: services.record_chip_inventory_count(
            acting_user=request.user, organization=organization, **count.service_kwargs()
        ),
    )
    if _done(request, counted, _logged):
        return redirect("cage:inventory")
    return _page(
        request,
        "cage/inventory.html",
        {
            "house_chips": True,
            "values": sorted(values),
            "log": queries.chip_inventory_log(organization),
            "outstanding": queries.chips_outstanding(organization, timezone.localdate()),
            "chip_float": queries.chip_float(organization, timezone.localdate()),
            "movement_form": movement,
            "count_form": count,
            "can_keep": access.has_role(None, *INVENTORY_KEEPERS),
            # The log is kept everywhere (house control where no pack states it); the state's form
            # is named only where the organization's pack states one (North Dakota's SFN 17930).
            "inventory_rule": rules.at_organization(rules.CHIP_INVENTORY, organization.pk),
            "inventory_form": _stated_or_blank(rules.at_organization(rules.CHIP_INVENTORY_FORM, organization.pk)),
        },
        movement,
        count,
    )


def _logged(record) -> str:
    if isinstance(record, ChipMovement):
        what = f"{record.get_kind_display()}: {format_money(record.total_cents)} of chips"
    else:
        what = f"Chip inventory count of {format_money(record.total_cents)}"
    return f"{what} recorded in the chip inventory log."


def _stated_or_blank(citation: str) -> str:
    return "" if citation == HOUSE_CONTROL else citation


def _move(request, organization, form):
    data = form.cleaned_data
    kwargs = {
        "acting_user": request.user,
        "organization": organization,
        "chips": form.lines("chip", form.chip_values),
        "reference": data["reference"],
        "note": data["note"],
    }
    if data["kind"] == "destruction":
        return services.destroy_chips(destroyed_on=data["occurred_on"], **kwargs)
    return services.receive_chips(received_on=data["occurred_on"], **kwargs)
