"""The regulator's pages: licensees, filings received, a quarter across licensees (with CSV), a
licensee's credentials. Only the agency's staff read them, and only their agency's; only its
state supervisors register licensees and issue and revoke credentials, through the services the
API's acts go through (house control)."""

import csv
from decimal import Decimal, InvalidOperation
from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_POST

from core import form_tokens
from core.forms import call_service, page_status
from core.limits import record_id
from core.periods import Quarter
from packs import game_names, get_pack

from . import queries, services
from .forms import RegisterLicenseeForm, RevokeCredentialForm
from .models import Credential, Licensee
from .services import HOUSE

PAGE = 100
REVOKED = "Credential {prefix}... of {licensee} is revoked: every request made with it is refused from now on."


def regulator_page(view):
    @login_required
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        regulator = queries.regulator_of(request.user)
        if regulator is None:
            raise PermissionDenied(f"{HOUSE}: the registry's pages are its agency's staff's.")
        with timezone.override(regulator.agency.time_zone):  # the agency's times and dates
            return view(request, regulator, *args, **kwargs)

    return wrapped


def supervisor_page(view):
    """A regulator's page that writes: its agency's state supervisors only (`SUPERVISOR_ONLY`, as
    the API answers them); an auditor is refused with 403."""

    @regulator_page
    @wraps(view)
    def wrapped(request, regulator, *args, **kwargs):
        if not regulator.supervises:
            raise PermissionDenied(services.SUPERVISOR_ONLY)
        return view(request, regulator, *args, **kwargs)

    return wrapped


def _offset(request) -> int:
    try:
        return max(0, min(int(request.GET.get("offset", 0)), 10_000_000))
    except ValueError:
        return 0


@regulator_page
def licensees(request, regulator):
    offset = _offset(request)
    views = queries.licensees(regulator.agency, offset=offset, limit=PAGE)
    return render(
        request,
        "registry/licensees.html",
        {
            "agency": regulator.agency,
            "regulator": regulator,
            "views": views,
            "offset": offset,
            "next_offset": offset + PAGE if len(views) == PAGE else None,
            # a pack whose law sets no day a return is due: no return is late or missing
            "dated": get_pack(regulator.agency.jurisdiction).return_due_months is not None,
        },
    )


@regulator_page
def filings(request, regulator):
    """The agency's filings as received, newest first; `?licensee=` keeps one licensee's (its page
    links here), as the alerts page does."""
    agency = regulator.agency
    licensees = list(agency.licensees.order_by("name"))
    licensee_id, error = _licensee_filter(request, agency, licensees)
    context = {"agency": agency, "licensees": licensees, "licensee": licensee_id}
    if error:
        return render(request, "registry/filings.html", {**context, "error": error, "filings": []}, status=400)
    offset = _offset(request)
    rows = list(queries.filings(agency, licensee_id=licensee_id, with_documents=True)[offset : offset + PAGE])
    for row in rows:  # each PDF with when it was generated and its return filed (the package's)
        row.as_filed = queries.documents_as_filed(row, row.documents.all())
    return render(
        request,
        "registry/filings.html",
        {
            **context,
            "filings": rows,
            "offset": offset,
            "next_offset": offset + PAGE if len(rows) == PAGE else None,
        },
    )


@regulator_page
def quarter(request, regulator):
    text = request.GET.get("quarter") or str(Quarter.containing(timezone.localdate()).previous())
    try:
        chosen = Quarter.parse(text)
    except ValidationError as exc:  # malformed, or out of the years the product keeps: said as parsed
        error = " ".join(exc.message_dict["quarter"])
        return render(request, "registry/quarter.html", {"agency": regulator.agency, "error": error}, status=400)
    pack = get_pack(regulator.agency.jurisdiction)
    columns = queries.quarter_columns(pack)
    # A download's times in ISO 8601 with their offset; the page's as the filings page writes them.
    rows = queries.quarter_rows(regulator.agency, chosen, shown=request.GET.get("format") not in ("csv", "xlsx"))
    headers = queries.column_headers(pack.revenue_words, columns)
    download = _download(request, rows, columns, f"{regulator.agency.jurisdiction}-{chosen}-filings", headers)
    if download is not None:
        return download
    return render(
        request,
        "registry/quarter.html",
        {
            "agency": regulator.agency,
            "quarter": chosen,
            "rows": rows,
            "due": queries.due_on(regulator.agency, chosen),
            # The licensees whose returns the registry expects from a later quarter: not due of them
            "not_expected": sorted({r["licensee"] for r in rows if r["timeliness"] == "not expected"}),
            "words": pack.revenue_words,  # the pack's names of the figures
            "taxed": "tax_cents" in columns,  # the tax columns, where the pack's law levies one
            # The revenue columns of the pack's own model: drop, win and hold; table fees; sessions
            "drop": "drop_cents" in columns,
            "tournaments": "tournament_agp_cents" in columns,  # where the pack states tournaments (ND)
            "fees": "fees_collected_cents" in columns,
            "sessions": "session_net_cents" in columns,
            "identified": "dealers_without_identifier" in columns,  # the pack's dealers hold a state identifier
            "dated": "due_on" in columns,  # a due day column only where the pack's law sets one
        },
    )


def _download(request, rows: list[dict], columns, name: str, headers=None) -> HttpResponse | None:
    """`?format=csv` or `?format=xlsx`: the rows as a file named `name`, under `headers` (the
    columns' names in the pack's words, `queries.column_headers`; the columns themselves if none);
    None otherwise."""
    chosen = request.GET.get("format")
    headers = list(headers or columns)
    if chosen == "csv":
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{name}.csv"'
        writer = csv.writer(response)
        writer.writerow(headers)
        writer.writerows([("" if row.get(c) is None else row[c]) for c in columns] for row in rows)
        return response
    if chosen == "xlsx":
        return _xlsx(name, columns, rows, headers)
    return None


def _xlsx(name: str, columns, rows, headers) -> HttpResponse:
    """The rows as a workbook: one sheet, typed cells (amounts in cents as integers)."""
    from io import BytesIO

    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = name[:31]
    sheet.append(headers)
    for row in rows:
        sheet.append([_cell(c, row[c]) for c in columns])
    out = BytesIO()
    book.save(out)
    response = HttpResponse(
        out.getvalue(), content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    )
    response["Content-Disposition"] = f'attachment; filename="{name}.xlsx"'
    return response


def _cell(column: str, value):
    """A ratio received as text ("0.056673") is a number in the workbook (a Decimal, exact);
    text that is not a number stays as it is."""
    if column == "hold_ratio" and isinstance(value, str):
        try:
            number = Decimal(value)
        except InvalidOperation:
            return value
        return number if number.is_finite() else value
    return value


@regulator_page
def dealers(request, regulator):
    """The cross-organization dealer view: a dealer, by the identifier the state issued them, at
    every licensee of the agency they dealt for, with their percent-of-hold per site and quarter.
    Offered only where the agency's pack names such an identifier (`Pack.dealer_view_absent`)."""
    agency = regulator.agency
    context = {"agency": agency, "absent": get_pack(agency.jurisdiction).dealer_view_absent()}
    if context["absent"]:
        return render(request, "registry/dealers.html", context)
    context["label"] = get_pack(agency.jurisdiction).employee_identifier
    context["words"] = get_pack(agency.jurisdiction).revenue_words  # the pack's names of the figures and of hold
    identifier = (request.GET.get("identifier") or "").strip()
    if not identifier:
        return render(request, "registry/dealers.html", context)
    problem = queries.identifier_problem(identifier)
    if problem:
        return render(
            request, "registry/dealers.html", {**context, "identifier": identifier, "error": problem}, status=400
        )
    rows = queries.dealer_rows(agency, identifier)
    pack = get_pack(agency.jurisdiction)
    words = pack.revenue_words  # the pack's names of the figures
    columns = queries.dealer_columns(pack)
    headers = queries.column_headers(words, columns)
    download = _download(request, rows, columns, f"{agency.jurisdiction}-dealer-{identifier}", headers)
    if download is not None:
        return download
    names = game_names(agency.jurisdiction)  # the game as the pack's texts name it: Blackjack, not "21"
    shown = [{**r, "game_label": names.label(r["game"])} for r in rows]
    context.update(identifier=identifier, rows=shown, total=queries.dealer_total(rows))
    return render(request, "registry/dealers.html", context)


@regulator_page
def alerts(request, regulator):
    """The compliance alerts the agency's licensees shared, each in its latest state, newest first:
    per licensee, open or closed, the rule cited; CSV/XLSX of every one the filter keeps."""
    agency = regulator.agency
    licensees = list(agency.licensees.order_by("name"))
    licensee, state, error = _alert_filters(request, agency, licensees)
    context = {"agency": agency, "licensees": licensees, "state": state}
    if error:
        return render(request, "registry/alerts.html", {**context, "error": error, "rows": []}, status=400)
    qs = queries.alerts(agency, licensee_id=licensee, state=state)
    if request.GET.get("format") in ("csv", "xlsx"):
        rows = queries.alert_rows(qs[: queries.MAX_ALERT_ROWS])
        return _download(request, rows, queries.ALERT_COLUMNS, f"{agency.jurisdiction}-alerts")
    offset = _offset(request)
    rows = queries.alert_rows(list(qs[offset : offset + PAGE]), shown=True)
    next_offset = offset + PAGE if len(rows) == PAGE else None
    return render(
        request,
        "registry/alerts.html",
        {**context, "rows": rows, "licensee": licensee, "offset": offset, "next_offset": next_offset},
    )


def _alert_filters(request, agency, licensees) -> tuple[int | None, str | None, str]:
    """(licensee id, state, "" or what is wrong) from ?licensee= and ?state=."""
    state = request.GET.get("state") or None
    if state not in (None, "open", "closed"):
        return None, None, f"{HOUSE}: state is open or closed."
    licensee, error = _licensee_filter(request, agency, licensees)
    return licensee, state, error


def _licensee_filter(request, agency, licensees) -> tuple[int | None, str]:
    """(licensee id or None for every licensee, "" or what is wrong) from ?licensee=: one of
    `licensees` (the agency's, read once for the page's list), by id."""
    raw = request.GET.get("licensee") or ""
    if not raw:
        return None, ""
    pk = record_id(raw)
    if pk is None or pk not in {licensee.pk for licensee in licensees}:
        return None, f"{HOUSE}: licensee: no licensee {raw!r} of {agency}."
    return pk, ""


# --- A licensee's credentials; the supervisor's acts ----------------------------------------------


def _licensee(regulator, pk) -> Licensee:
    """A licensee of the regulator's own agency; another agency's is a 404, as in the API."""
    return get_object_or_404(Licensee.objects.filter(agency=regulator.agency), pk=pk)


@regulator_page
def licensee(request, regulator, pk):
    """A licensee and its credentials (prefix, issued and revoked when and by whom), for the
    agency's staff; a supervisor issues and revokes them here."""
    return _licensee_page(request, regulator, _licensee(regulator, pk))


def _licensee_page(request, regulator, licensee, refused: tuple[int, RevokeCredentialForm] | None = None):
    """The licensee's page; `refused`: (credential id, its revocation form refused), shown in its row (400)."""
    rows = []
    for credential in queries.credentials(licensee):
        form = None
        if refused and refused[0] == credential.pk:
            form = refused[1]
        elif regulator.supervises and credential.revoked_at is None:
            form = _revoke_form(credential)
        rows.append((credential, form))
    context = {
        "agency": regulator.agency,
        "regulator": regulator,
        "licensee": licensee,
        "first_expected": queries.first_expected(licensee),
        "rows": rows,
    }
    return render(request, "registry/licensee.html", context, status=page_status(refused[1] if refused else None))


def _revoke_form(credential, data=None) -> RevokeCredentialForm:
    """A credential's revocation form, its fields named apart from its neighbours' on the page."""
    return RevokeCredentialForm(data, prefix=f"c{credential.pk}")


@supervisor_page
@require_POST
def issue_credential(request, regulator, pk):
    """Issue the licensee a credential (`services.issue_credential`, audited with its prefix only):
    its secret is in this answer and nowhere else, never cached by the browser. The form sent twice
    issues one: the second copy goes to the licensee's page, where the credential's prefix is listed
    (`form_tokens.answered_once`)."""
    licensee = _licensee(regulator, pk)
    issued = services.issue_credential(acting_user=request.user, licensee=licensee)
    context = {"agency": regulator.agency, "licensee": licensee, "issued": issued}
    response = render(request, "registry/credential_issued.html", context, status=201)
    add_never_cache_headers(response)
    return form_tokens.answered_once(response, reverse("registry:licensee", args=[licensee.pk]))


@supervisor_page
@require_POST
def revoke_credential(request, regulator, pk):
    """Revoke a credential of the agency's licensee once confirmed (`services.revoke_credential`:
    never reinstated; a second revocation is refused citing the first's day)."""
    credentials = Credential.objects.filter(licensee__agency=regulator.agency).select_related("licensee")
    credential = get_object_or_404(credentials, pk=pk)
    form = _revoke_form(credential, request.POST)
    if form.is_valid():
        done = call_service(form, lambda: services.revoke_credential(acting_user=request.user, credential=credential))
        if done is not None:
            messages.success(request, REVOKED.format(prefix=done.prefix, licensee=credential.licensee))
            return redirect("registry:licensee", pk=credential.licensee_id)
    return _licensee_page(request, regulator, credential.licensee, refused=(credential.pk, form))


@supervisor_page
def register_licensee(request, regulator):
    """Register a licensee with the supervisor's own agency, with the fields and checks of
    `manage.py registry_licensee` (`services.register_licensee`, audited); a licence the agency
    holds already is refused at its field. Its credential is issued on its page."""
    agency = regulator.agency
    form = RegisterLicenseeForm(
        request.POST if request.method == "POST" else None,
        initial={"expected_from": timezone.localdate().replace(day=1)},  # as the command's default
    )
    if form.is_bound and form.is_valid():
        registered = call_service(
            form,
            lambda: services.register_licensee(
                acting_user=request.user,
                agency_name=agency.name,
                jurisdiction=agency.jurisdiction,
                contact=agency.contact,
                refuse_existing=True,
                **form.cleaned_data,
            ),
        )
        if registered is not None:
            messages.success(request, f"{registered[0]} is registered with {agency}; issue it a credential below.")
            return redirect("registry:licensee", pk=registered[0].pk)
    # A licence refused as held: which licensee holds it, one click to its page (House control:
    # a licence identifies one licensee at the agency, whatever its case).
    taken = form.is_bound and "licence_number" in form.errors and form.data.get("licence_number", "").strip()
    holder = services.licence_holder(agency, form.data["licence_number"].strip()) if taken else None
    context = {"agency": agency, "form": form, "holder": holder}
    return render(request, "registry/register_licensee.html", context, status=page_status(form))
