"""The registry's HTTPS API, under /registry/api/v1/.

Licensees authenticate with the credential the agency issued them
(`Authorization: Licensee <secret>`): they POST filing packages (with an Idempotency-Key:
the same key and package answer the same receipt) and chain heads, and read their own
receipts and anchors back. The agency's staff (a Regulator login, session or token) read
every licensee of the agency's jurisdiction and nothing else. House controls throughout.
"""

import re
from contextlib import ExitStack

from django.contrib.auth.models import AnonymousUser
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, permissions
from rest_framework.authentication import BaseAuthentication, SessionAuthentication, get_authorization_header
from rest_framework.response import Response
from rest_framework.views import APIView

from core import filing_package, idempotency
from core.api_filters import Pagination
from core.limits import record_id
from core.periods import Quarter
from core.throttles import WriteRateThrottle
from core.tokens import TokenAuthentication
from packs import get_pack

from . import api_schema as doc
from . import queries, services
from .forms import RegisterLicenseeForm
from .models import Credential, Licensee, ReceivedAnchor, ReceivedDocument, ReceivedFiling

KEYWORD = "Licensee"
HOUSE = services.HOUSE


class LicenseeAuthentication(BaseAuthentication):
    """`Authorization: Licensee <secret>`: the request is the licensee's (request.auth is its
    Credential), its use noted (`services.record_credential_use`, at most hourly). A revoked or
    unknown secret answers 401."""

    def authenticate(self, request):
        parts = get_authorization_header(request).split()
        if not parts or parts[0].decode(errors="replace") != KEYWORD:
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(f"{HOUSE}: send `Authorization: {KEYWORD} <credential>`.")
        credential = services.credential_for(parts[1].decode(errors="replace"))
        if credential is None:
            raise exceptions.AuthenticationFailed(f"{HOUSE}: this credential is unknown or was revoked by the agency.")
        services.record_credential_use(credential)
        return AnonymousUser(), credential

    def authenticate_header(self, request):
        return KEYWORD


class Party:
    """Who is asking: a licensee (by credential) or the agency's staff (by login)."""

    def __init__(self, request):
        self.credential = request.auth if isinstance(request.auth, services.Credential) else None
        self.regulator = None if self.credential else queries.regulator_of(request.user)

    @property
    def agency(self):
        return self.credential.licensee.agency if self.credential else self.regulator.agency


class LicenseeOrRegulator(permissions.BasePermission):
    message = f"{HOUSE}: the registry answers its licensees (by credential) and its agency's staff only."

    def has_permission(self, request, view):
        party = Party(request)
        request.party = party
        if party.credential is not None:
            return True
        if party.regulator is None:
            return False
        return request.method in permissions.SAFE_METHODS


class LicenseeOnly(LicenseeOrRegulator):
    message = f"{HOUSE}: only a licensee, with the credential the agency issued, sends filings, anchors and alerts."

    def has_permission(self, request, view):
        return super().has_permission(request, view) and request.party.credential is not None


class CredentialWriteThrottle(WriteRateThrottle):
    """The house's write limit, counted per credential for a licensee (per login for staff)."""

    description = "changes with one credential or by one user"

    def get_cache_key(self, request, view):
        if isinstance(request.auth, services.Credential):
            return self.cache_format % {"scope": self.scope, "ident": f"licensee-credential-{request.auth.pk}"}
        return super().get_cache_key(request, view)


PAGE_PARAMETERS = [
    OpenApiParameter("limit", int, description="Rows per page."),
    OpenApiParameter("offset", int, description="Rows to skip."),
]
QUARTER_PARAMETER = OpenApiParameter("quarter", str, description="Only this quarter (YYYYQn).")
ANCHOR_PARAMETERS = [
    OpenApiParameter("chain", str, description="Only this chain's heads."),
    OpenApiParameter(
        "from_seq", int, description="With `chain` (a licensee): only the first head held at or after this event."
    ),
]


class RegistryView(APIView):
    # The registry's API is the agency's, not the organization's: it stays out of the
    # organization's schema at /api/schema/ (and its fuzzing) and has its own,
    # /registry/api/v1/schema/ (registry.api_schema).
    schema_document = doc.DOCUMENT
    permission_classes = [LicenseeOrRegulator]
    throttle_classes = [CredentialWriteThrottle]
    # The methods that are a state supervisor's acts (registering a licensee, issuing a credential):
    # SupervisorOnly answers them, the view's permission_classes the others.
    supervisor_methods: frozenset[str] = frozenset()
    # The methods only a licensee sends (a filing, anchors, alerts): LicenseeOnly answers them.
    licensee_methods: frozenset[str] = frozenset()
    # Whether its POST honours an Idempotency-Key (the schema states the header, its 409 and the
    # replayed answer only where it does): a filing (services.receive_filing) and a registration
    # (core.idempotency.once) do; an anchor or an alert sent twice is held once by its own identity,
    # and issuing a credential takes no key (the registry keeps only the secret's digest, README).
    honours_idempotency_key = False

    def get_permissions(self):
        if self.request.method in self.supervisor_methods:
            return [SupervisorOnly()]
        if self.request.method in self.licensee_methods:
            return [LicenseeOnly()]
        return super().get_permissions()

    def get_authenticators(self):
        return [LicenseeAuthentication(), TokenAuthentication(), SessionAuthentication()]

    def dispatch(self, request, *args, **kwargs):
        # The agency's times and dates (a return's due day, a receipt's date), not the server's,
        # from the moment the party is known (`initial`) to the answer's end, whatever happens
        # between (a refusal, an error): one exit, not an enter and an exit in two hooks.
        with ExitStack() as self._zone:
            return super().dispatch(request, *args, **kwargs)

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)  # who is asking (request.party), or refused
        party = getattr(request, "party", None)
        if party is not None:
            self._zone.enter_context(timezone.override(party.agency.time_zone))

    def page(self, request, qs, serialize):
        paginator = Pagination()
        rows = paginator.paginate_queryset(qs, request, view=self)
        return paginator.get_paginated_response([serialize(r) for r in rows])


def _filing_json(f: ReceivedFiling, *, regulator: bool) -> dict:
    out = {
        "receipt_number": f.receipt_number,
        "received_at": f.received_at.isoformat(),
        "package_sha256": f.package_sha256,
        "receipt_sha256": f.hash,
        "site": f.site_ref,
        "site_name": f.site_name,
        "quarter": f.quarter,
        "amends": f.amends.receipt_number if f.amends_id else None,
    }
    if regulator:
        out["licensee"] = {"id": f.licensee_id, "name": f.licensee.name, "licence_number": f.licensee.licence_number}
    return out


class FilingsView(RegistryView):
    honours_idempotency_key = True
    licensee_methods = frozenset({"POST"})

    @extend_schema(
        operation_id="filings_list",
        summary="Receipts: a licensee's own, or every licensee's of the agency for its staff",
        parameters=[*PAGE_PARAMETERS, QUARTER_PARAMETER],
        responses=doc.FilingPageOut,
    )
    def get(self, request):
        party = request.party
        qs = queries.filings(party.agency)
        if party.credential is not None:  # a licensee reads its own receipts only
            qs = qs.filter(licensee=party.credential.licensee)
        quarter = request.query_params.get("quarter")
        if quarter:
            qs = qs.filter(quarter=str(Quarter.parse(quarter)))
        return self.page(request, qs, lambda f: _filing_json(f, regulator=party.credential is None))

    @extend_schema(
        operation_id="filings_create",
        summary="File a package (a licensee): answered with its receipt",
        request=doc.FilingIn,
        responses={201: doc.ReceiptOut, 200: doc.ReceiptOut},
    )
    def post(self, request):
        key = request.headers.get("Idempotency-Key", "")
        try:
            filing, created = services.receive_filing(
                credential=request.party.credential,
                idempotency_key=key,
                package=request.data.get("package") if isinstance(request.data, dict) else None,
                pdfs=request.data.get("pdfs") if isinstance(request.data, dict) else None,
            )
        except services.Conflict as exc:
            return Response({"detail": str(exc)}, status=409)
        filing.agency = request.party.agency
        response = Response({**services.receipt_json(filing)}, status=201 if created else 200)
        if not created:
            response["Idempotent-Replayed"] = "true"
        return response


def _readable_filing(request, receipt_number) -> ReceivedFiling:
    """A filing of the asking party's agency; a licensee's own only (another's is a 404)."""
    party = request.party
    qs = queries.filings(party.agency)
    if party.credential is not None:
        qs = qs.filter(licensee=party.credential.licensee)
    return get_object_or_404(qs, receipt_number=receipt_number)


class FilingView(RegistryView):
    """One filing as received: its receipt, the package, byte for byte as canonical JSON, and the
    PDFs received with it."""

    @extend_schema(
        operation_id="filing_retrieve",
        summary="One filing as received, with its package and PDFs",
        responses=doc.FilingDetailOut,
    )
    def get(self, request, receipt_number):
        filing = _readable_filing(request, receipt_number)
        documents = [
            {
                "kind": d.kind,
                "pdf_sha256": d.pdf_sha256,
                "size_bytes": d.size_bytes,
                "url": reverse("registry:api-document", args=[filing.receipt_number, d.pdf_sha256]),
            }
            for d in queries.documents(filing)
        ]
        body = _filing_json(filing, regulator=request.party.credential is None)
        return Response({**body, "package": filing.package, "documents": documents})


class DocumentView(RegistryView):
    """A PDF as received with a filing, byte for byte: the agency's staff read every licensee's
    of the agency, a licensee its own only."""

    @extend_schema(
        operation_id="filing_pdf_retrieve",
        summary="A PDF received with a filing, byte for byte",
        responses={(200, "application/pdf"): OpenApiResponse(OpenApiTypes.BINARY, description="The PDF.")},
    )
    def get(self, request, receipt_number, pdf_sha256):
        filing = _readable_filing(request, receipt_number)
        document = get_object_or_404(ReceivedDocument.objects.filter(filing=filing), pdf_sha256=pdf_sha256)
        response = HttpResponse(bytes(document.content), content_type="application/pdf")
        # The kind as the licensee's package named it, made a file name's word (a row received
        # before kinds were checked may hold a quote or a line break, which a header cannot carry).
        kind = re.sub(r"[^A-Za-z0-9_-]", "-", document.kind) or "report"
        response["Content-Disposition"] = f'attachment; filename="{filing.receipt_number}-{kind}.pdf"'
        response["Digest"] = f"sha-256={document.pdf_sha256}"
        return response


class AnchorsView(RegistryView):
    licensee_methods = frozenset({"POST"})

    @extend_schema(
        operation_id="anchors_list",
        summary="Chain heads held",
        parameters=[*PAGE_PARAMETERS, *ANCHOR_PARAMETERS],
        responses=doc.AnchorPageOut,
    )
    def get(self, request):
        """The heads the registry holds, oldest first: a licensee's own (verify_audit_log
        --registry reads them), or every licensee's of the agency for its staff; `chain`, one
        chain's; `from_seq`, the first one at or after an event (`_first_from`)."""
        party = request.party
        qs = ReceivedAnchor.objects.filter(licensee__agency=party.agency).order_by("licensee_id", "chain", "seq")
        if party.credential is not None:
            qs = qs.filter(licensee=party.credential.licensee)
        chain = request.query_params.get("chain")
        if chain is not None:
            qs = qs.filter(chain=chain)
        if "from_seq" in request.query_params:
            qs = _first_from(request, qs, chain)
        return self.page(
            request,
            qs,
            lambda a: {
                "licensee": a.licensee_id,
                "chain": a.chain,
                "seq": a.seq,
                "hash": a.hash,
                "head_at": a.head_at,
                "received_at": a.received_at.isoformat(),
            },
        )

    @extend_schema(
        operation_id="anchors_create",
        summary="Send chain heads (a licensee)",
        request=doc.AnchorsIn,
        responses={201: doc.AnchorsReceivedOut},
    )
    def post(self, request):
        anchors = request.data.get("anchors") if isinstance(request.data, dict) else None
        try:
            received = services.receive_anchors(credential=request.party.credential, anchors=anchors)
        except services.Conflict as exc:
            return Response({"detail": str(exc)}, status=409)
        return Response({"stored": received.stored, "already_held": received.already_held}, status=201)


def _first_from(request, qs, chain: str | None):
    """The first head of the licensee's `chain` it holds at or after event `from_seq`: one row at
    most, by the index on (licensee, chain, seq), however many it holds (what a licensee reads of
    a filed row's event, before it sends the package). A licensee's
    question of its own chain: staff, or no chain, are refused naming the parameter."""
    seq = record_id(request.query_params.get("from_seq"))
    if seq is None:
        raise exceptions.ValidationError({"from_seq": f"{HOUSE}: give from_seq as an event's number (1 or more)."})
    if request.party.credential is None or chain is None:
        raise exceptions.ValidationError(
            {"from_seq": f"{HOUSE}: from_seq asks a licensee's own chain: send it with the credential and a chain."}
        )
    return qs.filter(seq__gte=seq)[:1]


def _alert_json(a) -> dict:
    return {
        "licensee": a.licensee_id,
        "alert": a.alert_ref,
        "site": a.site_ref,
        "site_name": a.site_name,
        "rule": a.rule,
        "citation": a.citation,
        "title": a.title,
        "period_key": a.period_key,
        "table": a.table,
        "period": a.period,
        "subject": a.subject,
        "opened_at": a.opened_at.isoformat(),
        "state": a.state,
        "resolved_at": a.resolved_at.isoformat() if a.resolved_at else None,
        "received_at": a.received_at.isoformat(),
    }


class AlertsView(RegistryView):
    licensee_methods = frozenset({"POST"})

    @extend_schema(
        operation_id="alerts_list",
        summary="Compliance alerts reported, each in its latest state: a licensee's own, or every licensee's "
        "of the agency for its staff (`?licensee=`)",
        parameters=[
            *PAGE_PARAMETERS,
            OpenApiParameter("licensee", int, description="One licensee (staff)."),
            OpenApiParameter("state", str, enum=["open", "closed"], description="Only alerts in this state."),
        ],
        responses=doc.AlertPageOut,
    )
    def get(self, request):
        party = request.party
        licensee = party.credential.licensee_id if party.credential else _licensee_param(request)
        state = request.query_params.get("state") or None
        if state not in (None, "open", "closed"):
            raise exceptions.ValidationError({"state": f"{HOUSE}: state is open or closed."})
        return self.page(request, queries.alerts(party.agency, licensee_id=licensee, state=state), _alert_json)

    @extend_schema(
        operation_id="alerts_create",
        summary="Send the compliance alerts with the nightly anchors (a licensee)",
        request=doc.AlertsIn,
        responses={201: doc.AnchorsReceivedOut},
    )
    def post(self, request):
        alerts = request.data.get("alerts") if isinstance(request.data, dict) else None
        received = services.receive_alerts(credential=request.party.credential, alerts=alerts)
        return Response({"stored": received.stored, "already_held": received.already_held}, status=201)


class DealersView(RegistryView):
    """The cross-organization dealer view (staff only): a dealer by the identifier the state
    issued them, at every licensee of the agency, site and quarter, with their percent-of-hold."""

    @extend_schema(
        operation_id="dealers_list",
        summary="A dealer across licensees, by their state-issued identifier (staff)",
        parameters=[
            OpenApiParameter(
                "identifier",
                str,
                required=True,
                pattern=filing_package.IDENTIFIER.pattern,
                description="The state-issued identifier: letters, digits and hyphens, at most 40.",
            )
        ],
        responses=doc.DealerViewOut,
    )
    def get(self, request):
        party = request.party
        if party.regulator is None:
            raise exceptions.PermissionDenied(f"{HOUSE}: the dealer view is the agency's staff's.")
        absent = get_pack(party.agency.jurisdiction).dealer_view_absent()
        if absent:
            return Response({"offered": False, "reason": absent, "identifier": None, "results": [], "total": None})
        identifier = (request.query_params.get("identifier") or "").strip()
        problem = queries.identifier_problem(identifier)
        if problem:
            raise exceptions.ValidationError({"identifier": problem})
        rows = queries.dealer_rows(party.agency, identifier)
        total = queries.dealer_total(rows)
        return Response({"offered": True, "reason": "", "identifier": identifier, "results": rows, "total": total})


def _licensee_param(request) -> int | None:
    raw = request.query_params.get("licensee")
    if raw is None:
        return None
    pk = record_id(raw)
    if pk is None:
        raise exceptions.ValidationError({"licensee": f"{HOUSE}: give a licensee's id."})
    return pk


class LicenseesView(RegistryView):
    """The agency's licensees with their sites, filings, late and missing quarters (staff only);
    a state supervisor registers one with the agency (POST), as the supervisor's page does."""

    supervisor_methods = frozenset({"POST"})
    honours_idempotency_key = True

    def dispatch(self, request, *args, **kwargs):
        # A retry with the same Idempotency-Key registers once (core.idempotency, as under /api/).
        return idempotency.once(request, lambda r: super(LicenseesView, self).dispatch(r, *args, **kwargs))

    @extend_schema(
        operation_id="licensees_list",
        summary="The agency's licensees (staff)",
        parameters=PAGE_PARAMETERS,
        responses=doc.LicenseePageOut,
    )
    def get(self, request):
        party = request.party
        if party.regulator is None:
            raise exceptions.PermissionDenied(f"{HOUSE}: the list of licensees is the agency's staff's.")
        paginator = Pagination()
        limit, offset = paginator.get_limit(request), paginator.get_offset(request)
        views = queries.licensees(party.agency, offset=offset, limit=limit)
        return Response({"results": [licensee_json(v) for v in views], "offset": offset, "limit": limit})

    @extend_schema(
        operation_id="licensees_create",
        summary="Register a licensee with the agency (a state supervisor)",
        request=doc.LicenseeIn,
        responses={201: doc.LicenseeOut},
    )
    def post(self, request):
        """The fields and checks of the supervisor's page (`views.register_licensee`: its form, then
        `services.register_licensee(refuse_existing=True)`, audited), the body read strictly first
        (`doc.LicenseeIn`; a body that is no JSON object reads as no fields): a field refused is a
        400 keyed by it, a licence the agency holds in any case refused at licence_number
        (`LICENCE_TAKEN`); expected_from, the first of this month if not sent (the page's default)."""
        agency = request.party.regulator.agency
        sent = doc.LicenseeIn(data=request.data if isinstance(request.data, dict) else {})
        sent.is_valid(raise_exception=True)
        form = RegisterLicenseeForm({"expected_from": timezone.localdate().replace(day=1), **sent.validated_data})
        if not form.is_valid():
            raise exceptions.ValidationError({name: list(errors) for name, errors in form.errors.items()})
        licensee, _ = services.register_licensee(
            acting_user=request.user,
            agency_name=agency.name,
            jurisdiction=agency.jurisdiction,
            contact=agency.contact,
            refuse_existing=True,
            **form.cleaned_data,
        )
        return Response(licensee_json(queries.LicenseeView(licensee)), status=201)


def licensee_json(view: queries.LicenseeView) -> dict:
    def quarter(q):
        return {
            "site": q.site_name,
            "quarter": q.quarter,
            "due": str(q.due) if q.due else None,
            "receipt_number": q.receipt_number or None,
        }

    lic = view.licensee
    return {
        "id": lic.pk,
        "name": lic.name,
        "licence_number": lic.licence_number,
        "sites": [{"id": ref, "name": name} for ref, name in sorted(view.sites.items())],
        "filings": view.filings,
        "anchors": view.anchors,
        "anchor_conflicts": view.anchor_conflicts,
        "alerts_open": view.alerts_open,
        "alerts_closed": view.alerts_closed,
        "last_anchor_at": view.last_anchor_at.isoformat() if view.last_anchor_at else None,
        "expected_from_quarter": str(view.first_expected),
        "late": [quarter(q) for q in view.late],
        "missing": [quarter(q) for q in view.missing],
    }


class SupervisorOnly(LicenseeOrRegulator):
    message = services.SUPERVISOR_ONLY

    def has_permission(self, request, view):
        request.party = Party(request)
        regulator = request.party.regulator
        return regulator is not None and regulator.supervises


class CredentialsView(RegistryView):
    """A licensee's credentials, read by the agency's staff (GET), as its page lists them; a state
    supervisor issues it a credential (POST): the secret is in this answer only (the registry keeps
    its SHA-256)."""

    supervisor_methods = frozenset({"POST"})

    @extend_schema(
        operation_id="credentials_list",
        summary="A licensee's credentials, newest first, with their last use (staff)",
        responses=doc.CredentialRowOut(many=True),
    )
    def get(self, request, pk):
        party = request.party
        if party.regulator is None:
            raise exceptions.PermissionDenied(f"{HOUSE}: a licensee's credentials are the agency's staff's.")
        licensee = get_object_or_404(Licensee.objects.filter(agency=party.agency), pk=pk)
        return Response([credential_json(c) for c in queries.credentials(licensee)])

    @extend_schema(
        operation_id="credentials_create",
        summary="Issue a credential (a state supervisor)",
        request=None,
        responses={201: doc.CredentialOut},
    )
    def post(self, request, pk):
        licensee = get_object_or_404(Licensee.objects.filter(agency=request.party.agency), pk=pk)
        issued = services.issue_credential(acting_user=request.user, licensee=licensee)
        return Response(
            {
                "id": issued.credential.pk,
                "licensee": licensee.pk,
                "prefix": issued.credential.prefix,
                "secret": issued.secret,
            },
            status=201,
        )


class RevokeView(RegistryView):
    """A state supervisor revokes a credential of a licensee of the agency (never reinstated)."""

    permission_classes = [SupervisorOnly]

    @extend_schema(
        operation_id="credentials_revoke",
        summary="Revoke a credential (a state supervisor)",
        request=None,
        responses=doc.RevokedOut,
    )
    def post(self, request, pk):
        credential = get_object_or_404(Credential.objects.filter(licensee__agency=request.party.agency), pk=pk)
        credential = services.revoke_credential(acting_user=request.user, credential=credential)
        return Response({"id": credential.pk, "revoked_at": credential.revoked_at.isoformat()})


def credential_json(credential: Credential) -> dict:
    """A credential as the licensee's page lists it: never its secret nor the secret's digest."""

    def when(moment):
        return moment.isoformat() if moment else None

    return {
        "id": credential.pk,
        "prefix": credential.prefix,
        "issued_at": when(credential.issued_at),
        "issued_by": credential.issued_by,
        "revoked_at": when(credential.revoked_at),
        "revoked_by": credential.revoked_by,
        "last_used_at": when(credential.last_used_at),
    }
