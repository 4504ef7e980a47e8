"""Every write of the registry: credentials issued and revoked, filings and anchors received.

House controls (the regulations we hold do not say how a state receives returns
electronically): a credential is a random secret of which only the SHA-256 is kept; a
filing is received once per Idempotency-Key (the same key and package answer the same
receipt); receipts are numbered without gaps per agency and chained.
"""

import base64
import binascii
import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, timedelta
from zoneinfo import ZoneInfo

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from core import filing_package, limits
from core.audit import record_event
from core.database_refusals import database_refusal
from packs import get_pack

from .models import (
    GENESIS,
    LICENCE_TAKEN,
    Agency,
    Credential,
    Licensee,
    ReceivedAlert,
    ReceivedAnchor,
    ReceivedDealerHold,
    ReceivedDocument,
    ReceivedFiling,
)

HOUSE = "House control"
MAX_KEY_LENGTH = 200
MAX_ANCHORS = 500
MAX_ALERTS = 1000
MAX_DOCUMENTS = 3  # the filed quarter's PDFs sent with a filing (the quarterly report)
REPORT_KIND = re.compile(r"^[A-Za-z0-9_-]{1,40}$")  # "quarterly": a word of a file name
MAX_DOCUMENT_BYTES = 700 * 1024  # a PDF, decoded (the request's body is at most limits.MAX_BODY_BYTES)
ANCHOR_CONFLICT = "registry.anchor_conflict"
LICENSEE_OBJECT = "registry.licensee"
# A credential's last use is written at most once this often: a request finding it recorded more
# recently writes nothing, so the API's requests are not each a write (house control).
LAST_USE_GRANULARITY = timedelta(hours=1)
SUPERVISOR_ONLY = (
    f"{HOUSE}: only a state supervisor of the agency registers licensees and issues or revokes credentials."
)


class Conflict(Exception):
    """A request that contradicts what the registry already holds (answered 409)."""


def _secret_digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True)
class Issued:
    credential: Credential
    secret: str  # shown once; the registry keeps only its SHA-256


def register_licensee(
    *,
    acting_user,
    agency_name: str,
    jurisdiction: str | None,
    contact: str,
    name: str,
    licence_number: str,
    expected_from,
    refuse_existing: bool = False,
) -> tuple[Licensee, bool]:
    """The licensee with `licence_number` at the agency named `agency_name` (the agency created if
    new, under `jurisdiction`, North Dakota's where none is given), registered if new and audited
    as the credentials are; (licensee, registered). The number is kept trimmed, and one the agency
    holds in another case is that licence ("nd-0042 " is "ND-0042", as the filing check reads
    it). An existing agency of another pack than the `jurisdiction` given is refused naming both:
    its licensees would file under a pack not theirs. `refuse_existing` (the supervisor's page,
    which registers and does not issue): a licence the agency holds already is refused naming
    `licence_number` (`LICENCE_TAKEN`, the database's words too), nothing written, where the
    command and the demo find it to issue it a credential."""
    licence_number = licence_number.strip()
    with transaction.atomic():
        agency, agency_created = _agency(agency_name, jurisdiction, contact)
        licensee = licence_holder(agency, licence_number)
        registered = licensee is None
        if registered:
            licensee, registered = _register(agency, name, licence_number, expected_from, refuse_existing)
        if not registered and refuse_existing:
            raise ValidationError({"licence_number": LICENCE_TAKEN})
        if registered:
            record_event(
                actor=acting_user,
                action="registry.licensee_registered",
                obj=licensee,
                after={
                    "agency": agency.pk,
                    "agency_name": agency.name,
                    "agency_created": agency_created,
                    "jurisdiction": agency.jurisdiction,
                    "name": name,
                    "licence_number": licence_number,
                    "expected_from": expected_from.isoformat(),
                },
            )
    return licensee, registered


def _agency(agency_name: str, jurisdiction: str | None, contact: str) -> tuple[Agency, bool]:
    """The agency named `agency_name`, created if new; (agency, created)."""
    agency = Agency.objects.filter(name=agency_name).first()
    if agency is not None and jurisdiction is not None and agency.jurisdiction != jurisdiction:
        raise ValidationError(
            {
                "jurisdiction": f"{HOUSE}: the agency {agency.name!r} is under {agency.jurisdiction}, "
                f"not {jurisdiction}; name the agency of {jurisdiction}'s sites."
            }
        )
    if agency is not None:
        return agency, False
    return Agency.objects.create(name=agency_name, jurisdiction=jurisdiction or "ND", contact=contact), True


def licence_holder(agency: Agency, licence_number: str) -> Licensee | None:
    """The agency's licensee holding this licence number, whatever its case."""
    return Licensee.objects.filter(agency=agency, licence_number__iexact=licence_number).first()


def _register(agency, name, licence_number, expected_from, refuse_existing) -> tuple[Licensee, bool]:
    """The licensee written: (licensee, True). Where another registration of the licence, in any
    case, was written since the look before it (two sent at once), the database's constraint
    refuses this one in the check's own words (`LICENCE_TAKEN`); the command and the demo take
    the one written, as they take a licence held: (that licensee, False)."""
    try:
        with transaction.atomic():
            return Licensee.objects.create(
                agency=agency, name=name, licence_number=licence_number, expected_from=expected_from
            ), True
    except IntegrityError as exc:
        held = licence_holder(agency, licence_number)
        if held is None or refuse_existing:
            raise database_refusal(exc) from exc
        return held, False


def issue_credential(*, acting_user, licensee: Licensee) -> Issued:
    """Issue a credential to a licensee; the secret is returned once and never stored."""
    secret = "lic_" + secrets.token_urlsafe(32)
    with transaction.atomic():
        credential = Credential.objects.create(
            licensee=licensee,
            prefix=secret[:12],
            secret_sha256=_secret_digest(secret),
            issued_at=timezone.now(),
            issued_by=_who(acting_user),
        )
        record_event(
            actor=acting_user,
            action="registry.credential_issued",
            obj=credential,
            after={"licensee": licensee.pk, "prefix": credential.prefix},
        )
    return Issued(credential, secret)


def revoke_credential(*, acting_user, credential: Credential) -> Credential:
    """Revoke a credential: every later request made with it is refused (401)."""
    with transaction.atomic():
        credential = Credential.objects.select_for_update().get(pk=credential.pk)
        if credential.revoked_at is not None:
            raise ValidationError(
                {"credential": f"{HOUSE}: this credential was revoked on {credential.revoked_at:%Y-%m-%d}."}
            )
        credential.revoked_at, credential.revoked_by = timezone.now(), _who(acting_user)
        credential.save(update_fields=["revoked_at", "revoked_by"])
        record_event(
            actor=acting_user,
            action="registry.credential_revoked",
            obj=credential,
            after={"licensee": credential.licensee_id, "prefix": credential.prefix},
        )
    return credential


def _who(user) -> str:
    return user.get_username() if user is not None and user.is_authenticated else "system"


def credential_for(secret: str) -> Credential | None:
    """The live credential whose secret this is, with its licensee and agency; None otherwise."""
    if not secret or len(secret) > 200:
        return None
    return (
        Credential.objects.select_related("licensee__agency")
        .filter(secret_sha256=_secret_digest(secret), revoked_at__isnull=True)
        .first()
    )


def record_credential_use(credential: Credential) -> None:
    """Note that a request authenticated with `credential` now, for the supervisor to see whether
    it is still in use before revoking it: at most once per `LAST_USE_GRANULARITY`, one
    conditional UPDATE (none where the moment loaded with it is that recent), so a licensee's
    requests are not each a write. Not audited: a moment of use, not an act of anyone's."""
    now = timezone.now()
    since = now - LAST_USE_GRANULARITY
    if credential.last_used_at is not None and credential.last_used_at >= since:
        return
    stale = Q(last_used_at__isnull=True) | Q(last_used_at__lt=since)
    if Credential.objects.filter(pk=credential.pk).filter(stale).update(last_used_at=now):
        credential.last_used_at = now


# --- Filings ---------------------------------------------------------------------------------------


def receipt_hash(prev_hash: str, filing: ReceivedFiling, amends_number: str | None) -> str:
    """SHA-256 of the previous filing's hash and this filing's receipt (canonical JSON)."""
    return filing_package.digest(
        {
            "prev_hash": prev_hash,
            "seq": filing.seq,
            "receipt_number": filing.receipt_number,
            "received_at": filing.received_at.astimezone(UTC).isoformat(),
            "licensee": filing.licensee_id,
            "site_ref": filing.site_ref,
            "quarter": filing.quarter,
            "amends": amends_number,
            "package_sha256": filing.package_sha256,
        }
    )


def receipt_json(filing: ReceivedFiling) -> dict:
    return {
        "receipt_number": filing.receipt_number,
        "received_at": filing.received_at.astimezone(UTC).isoformat(),
        "package_sha256": filing.package_sha256,
        "receipt_sha256": filing.hash,
        "agency": filing.agency.name if hasattr(filing, "agency") else "",
        "quarter": filing.quarter,
        "site": filing.site_ref,
        "amends": filing.amends.receipt_number if filing.amends_id else None,
    }


def receive_filing(*, credential: Credential, idempotency_key: str, package, pdfs=None) -> tuple[ReceivedFiling, bool]:
    """Receive a filing package and answer its receipt; (filing, created). The same
    Idempotency-Key with the same package answers the first receipt again; with another
    package it is a Conflict. `pdfs` ([{pdf_sha256, content_base64}]): report PDFs sent with
    it, each one whose SHA-256 the package lists, kept append-only beside the filing."""
    key = (idempotency_key or "").strip()
    if not 1 <= len(key) <= MAX_KEY_LENGTH:
        raise ValidationError(
            {"Idempotency-Key": f"{HOUSE}: send an Idempotency-Key of 1 to {MAX_KEY_LENGTH} characters."}
        )
    found = filing_package.problems(package)
    if found:
        raise ValidationError({field: f"{HOUSE}: {message}" for field, message in found.items()})
    documents = _documents(package, pdfs)
    licensee = credential.licensee
    agency = licensee.agency
    package_sha = filing_package.digest(package)
    with transaction.atomic():
        Agency.objects.select_for_update().get(pk=agency.pk)  # one chain per agency: appends wait in turn
        earlier = ReceivedFiling.objects.filter(licensee=licensee, idempotency_key=key).first()
        if earlier is not None:
            if earlier.package_sha256 != package_sha:
                raise Conflict(
                    f"{HOUSE}: this Idempotency-Key was used for another package; send a new key for a new filing."
                )
            return earlier, False
        _check_jurisdiction(agency, package)
        _check_licence(licensee, package)
        amends = _amended(licensee, package)
        last = ReceivedFiling.objects.filter(agency=agency).order_by("-seq").values_list("seq", "hash").first()
        seq, prev = (last[0] + 1, last[1]) if last else (1, GENESIS)
        now = timezone.now()
        # The year the state received it, on its own calendar (the year its pages show), not UTC's.
        year = timezone.localtime(now, ZoneInfo(agency.time_zone)).year
        filing = ReceivedFiling(
            agency=agency,
            licensee=licensee,
            seq=seq,
            receipt_number=f"{agency.jurisdiction}-{year}-{seq:06d}",
            received_at=now,
            idempotency_key=key,
            site_ref=package["site"]["id"],
            site_name=package["site"]["name"][:200],
            quarter=package["quarter"],
            amends=amends,
            package=package,
            package_sha256=package_sha,
            prev_hash=prev,
        )
        filing.hash = receipt_hash(prev, filing, amends.receipt_number if amends else None)
        filing.save()
        for document in documents:
            document.filing, document.received_at = filing, now
        ReceivedDocument.objects.bulk_create(documents)
        ReceivedDealerHold.objects.bulk_create(_dealer_holds(filing, agency, package))
    return filing, True


def _dealer_holds(filing: ReceivedFiling, agency: Agency, package: dict) -> list[ReceivedDealerHold]:
    """The package's dealers' hold as rows beside the filing (not yet saved). Only where the
    agency's pack names a state-issued identifier for its employees and its games have a hold
    (`Pack.dealer_view_absent`): elsewhere a package sending them is refused, naming `dealers`."""
    dealers = package.get("dealers")
    if not dealers:
        return []
    absent = get_pack(agency.jurisdiction).dealer_view_absent()
    if absent:
        raise ValidationError({"dealers": f"{HOUSE}: {absent}"})
    places = [(d["identifier"], d["game"]) for d in dealers]
    if len(set(places)) != len(places):
        raise ValidationError({"dealers": f"{HOUSE}: each dealer and game once in a package's dealers."})
    numbers = filing_package.DEALER_NUMBERS
    return [
        ReceivedDealerHold(
            filing=filing,
            licensee=filing.licensee,
            identifier=d["identifier"],
            name=d["name"],
            site_ref=filing.site_ref,
            site_name=filing.site_name,
            quarter=filing.quarter,
            game=d["game"],
            hold_ratio=d.get("hold_ratio"),
            **{name: d[name] for name in numbers},
        )
        for d in dealers
    ]


def _documents(package: dict, pdfs) -> list[ReceivedDocument]:
    """The PDFs sent with a package, each decoded and checked against the SHA-256 the package
    lists for it (ValidationError naming `pdfs` otherwise); not yet saved."""
    if pdfs is None:
        return []
    if not isinstance(pdfs, list) or len(pdfs) > MAX_DOCUMENTS:
        raise ValidationError(
            {"pdfs": f"{HOUSE}: send at most {MAX_DOCUMENTS} PDFs as [{{pdf_sha256, content_base64}}]."}
        )
    reports = package.get("reports") if isinstance(package.get("reports"), list) else []
    listed = {r["pdf_sha256"]: r.get("kind", "") for r in reports if isinstance(r, dict) and _text(r.get("pdf_sha256"))}
    documents, seen = [], set()
    for sent in pdfs:
        sha = sent.get("pdf_sha256") if isinstance(sent, dict) else None
        if not _text(sha) or sha not in listed or sha in seen:
            raise ValidationError({"pdfs": f"{HOUSE}: a PDF sent with a filing is one its package lists, once."})
        if not (_text(listed[sha]) and REPORT_KIND.match(listed[sha])):
            raise ValidationError(
                {"pdfs": f"{HOUSE}: the package lists the PDF {sha} under a report's kind (letters, digits, _ and -)."}
            )
        content = _decoded(sent.get("content_base64"))
        if hashlib.sha256(content).hexdigest() != sha:
            raise ValidationError({"pdfs": f"{HOUSE}: the PDF sent as {sha} does not hash to that SHA-256."})
        seen.add(sha)
        documents.append(ReceivedDocument(kind=listed[sha], pdf_sha256=sha, size_bytes=len(content), content=content))
    return documents


def _text(value) -> bool:
    return isinstance(value, str)


def _decoded(text) -> bytes:
    try:
        content = base64.b64decode(text if isinstance(text, str) else "", validate=True)
    except (binascii.Error, ValueError):
        content = b""
    if not content or len(content) > MAX_DOCUMENT_BYTES:
        raise ValidationError(
            {"pdfs": f"{HOUSE}: give each PDF as base64 in content_base64, at most {MAX_DOCUMENT_BYTES} bytes decoded."}
        )
    return content


def _check_jurisdiction(agency: Agency, package: dict) -> None:
    code = package["site"].get("jurisdiction")
    if code != agency.jurisdiction:
        name = get_pack(agency.jurisdiction).name
        raise ValidationError(
            {"site": f"{HOUSE}: {agency} receives the filings of {name} sites; this site is under {code!r}."}
        )


def _check_licence(licensee: Licensee, package: dict) -> None:
    """House control: a package is filed under the credential's licensee, so one naming another
    licence number is refused, naming `organization.licence_number` (compared ignoring case and
    surrounding spaces). A blank on either side is received: an organization may not have
    recorded its licence number, nor the agency its licensee's."""
    organization = package["organization"]
    sent = organization.get("licence_number") if isinstance(organization, dict) else None
    if sent is not None and not isinstance(sent, str):
        raise ValidationError(
            {"organization.licence_number": f"{HOUSE}: give the organization's licence number as text (blank if none)."}
        )
    held = licensee.licence_number.strip()
    if sent and sent.strip() and held and sent.strip().casefold() != held.casefold():
        raise ValidationError(
            {
                "organization.licence_number": f"{HOUSE}: this credential files for {licensee.name}, licence "
                f"{held}; the package names licence {sent.strip()!r}. File it with that licensee's credential."
            }
        )


def _amended(licensee: Licensee, package: dict) -> ReceivedFiling | None:
    site_ref, quarter, number = package["site"]["id"], package["quarter"], package.get("amends")
    if number is None:
        first = ReceivedFiling.objects.filter(licensee=licensee, site_ref=site_ref, quarter=quarter).first()
        if first is not None:
            raise ValidationError(
                {
                    "amends": f"{HOUSE}: {quarter} of site {site_ref} was received as {first.receipt_number}; "
                    "file a correction as an amendment naming that receipt."
                }
            )
        return None
    amended = ReceivedFiling.objects.filter(licensee=licensee, receipt_number=number).first()
    if amended is None or amended.site_ref != site_ref or amended.quarter != quarter:
        raise ValidationError(
            {"amends": f"{HOUSE}: no filing {number!r} of this licensee for {quarter} of site {site_ref}."}
        )
    return amended


# --- Anchors ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AnchorsReceived:
    stored: int
    already_held: int


def receive_anchors(*, credential: Credential, anchors) -> AnchorsReceived:
    """Store the heads a licensee sends (chain, seq, hash, head_at). A head the registry already
    holds at the same place is skipped; the same place with another hash is a Conflict (the
    licensee's history there was rewritten), and nothing of the request is stored. One place sent
    twice with the same hash is held once; with two hashes, a 400 naming the place."""
    if not isinstance(anchors, list) or not 1 <= len(anchors) <= MAX_ANCHORS:
        raise ValidationError({"anchors": f"{HOUSE}: send a list of 1 to {MAX_ANCHORS} chain heads."})
    for index, anchor in enumerate(anchors):
        found = filing_package.anchor_problems(anchor)
        if found:
            field, message = next(iter(found.items()))
            raise ValidationError({f"anchors[{index}].{field}": f"{HOUSE}: {message}"})
    licensee = credential.licensee
    places = {}
    for anchor in anchors:  # one head a place: the same head sent twice is held once
        places.setdefault((anchor["chain"], anchor["seq"]), anchor)
    with transaction.atomic():
        # One push of the licensee's heads at a time: the same heads sent twice at once (a retry
        # while the first is in flight) are held once, the second finding them held, not a 500.
        Licensee.objects.select_for_update().get(pk=licensee.pk)
        held = {
            (row.chain, row.seq): row.hash
            for row in ReceivedAnchor.objects.filter(licensee=licensee, seq__in={a["seq"] for a in anchors})
        }
        # Every head sent is checked against those held, not only the first of its place: a rewrite
        # is evidence even where the request also repeats the hash held.
        clash = next((a for a in anchors if held.get((a["chain"], a["seq"]), a["hash"]) != a["hash"]), None)
        if clash is None:
            _refuse_two_hashes_at_one_place(anchors, places)
            return _store_anchors(licensee, places, held)
    chain, seq = clash["chain"], clash["seq"]
    # Evidence for the agency: the licensee's history at that place was rewritten after it was
    # anchored here. Kept in the registry's audit log (its own transaction), then refused.
    with transaction.atomic():
        record_event(
            actor=None,
            action=ANCHOR_CONFLICT,
            object_type=LICENSEE_OBJECT,
            object_id=str(licensee.pk),
            after={"chain": chain, "seq": seq, "held": held[chain, seq], "sent": clash["hash"]},
        )
    raise Conflict(
        f"{HOUSE}: the registry holds another hash for {chain} #{seq} ({held[chain, seq]}): "
        "the chain was rewritten after it was anchored."
    )


def _refuse_two_hashes_at_one_place(anchors, places) -> None:
    """A request giving one place of a chain two hashes contradicts itself: a 400 naming the place
    (kept silently, the last one sent was held, whichever it was)."""
    for index, anchor in enumerate(anchors):
        first = places[anchor["chain"], anchor["seq"]]
        if first["hash"] != anchor["hash"]:
            raise ValidationError(
                {
                    f"anchors[{index}].hash": f"{HOUSE}: {anchor['chain']} #{anchor['seq']} is sent with two "
                    f"hashes ({first['hash']} and {anchor['hash']}); a place of the chain has one head."
                }
            )


def _store_anchors(licensee, places, held) -> "AnchorsReceived":
    """The heads not held yet, stored (inside the caller's transaction)."""
    now = timezone.now()
    new = [
        ReceivedAnchor(licensee=licensee, chain=c, seq=s, hash=a["hash"], head_at=a["head_at"][:40], received_at=now)
        for (c, s), a in places.items()
        if (c, s) not in held
    ]
    ReceivedAnchor.objects.bulk_create(new)
    return AnchorsReceived(stored=len(new), already_held=len(places) - len(new))


# --- Alerts --------------------------------------------------------------------------------------


def receive_alerts(*, credential: Credential, alerts) -> AnchorsReceived:
    """Store the compliance alerts a licensee sends with its nightly anchors ({id, site: {id,
    name}, rule, citation, title, period_key, optionally table, period and subject, opened_at,
    resolved_at or null}): one row per alert and state; an alert already held in that state is
    skipped (stored, already_held)."""
    if not isinstance(alerts, list) or len(alerts) > MAX_ALERTS:
        raise ValidationError({"alerts": f"{HOUSE}: send a list of at most {MAX_ALERTS} alerts."})
    rows = [_alert_row(index, a) for index, a in enumerate(alerts)]
    licensee = credential.licensee
    with transaction.atomic():
        Licensee.objects.select_for_update().get(pk=licensee.pk)  # one night's push at a time
        held = set(
            ReceivedAlert.objects.filter(licensee=licensee, alert_ref__in=[r.alert_ref for r in rows]).values_list(
                "alert_ref", "state"
            )
        )
        now, new, seen = timezone.now(), [], set()
        for row in rows:
            if (row.alert_ref, row.state) in held or (row.alert_ref, row.state) in seen:
                continue
            seen.add((row.alert_ref, row.state))
            row.licensee, row.received_at = licensee, now
            new.append(row)
        ReceivedAlert.objects.bulk_create(new)
    return AnchorsReceived(stored=len(new), already_held=len(rows) - len(new))


def _alert_row(index: int, alert) -> ReceivedAlert:
    def refuse(field: str, message: str):
        raise ValidationError({f"alerts[{index}].{field}": f"{HOUSE}: {message}"})

    if not isinstance(alert, dict):
        refuse("alert", "an alert is a JSON object.")
    where = limits.unkeepable_text(alert)
    if where is not None:
        refuse(where or "alert", limits.UNKEEPABLE_TEXT)
    site = alert.get("site")
    if not filing_package.whole(alert.get("id"), 1):
        refuse("id", "give the alert's id as a whole number.")
    if not (isinstance(site, dict) and filing_package.whole(site.get("id"), 1) and isinstance(site.get("name"), str)):
        refuse("site", "give the site as {id, name}.")
    texts = {name: alert.get(name) for name in ("rule", "citation", "title", "period_key")}
    for name, value in texts.items():
        if not isinstance(value, str) or not value:
            refuse(name, f"give the alert's {name}.")
    told_apart = {name: alert.get(name, "") for name in ("table", "period", "subject")}
    for name, value in told_apart.items():
        if not isinstance(value, str):
            refuse(name, f"give the alert's {name} as text (blank if none).")
    opened = _moment(alert.get("opened_at"))
    if opened is None:
        refuse("opened_at", "give when the alert was opened (ISO 8601, with its offset).")
    resolved = alert.get("resolved_at")
    resolved_at = _moment(resolved)
    if resolved is not None and resolved_at is None:
        refuse("resolved_at", "give when the alert was resolved (ISO 8601, with its offset), or null while it is open.")
    return ReceivedAlert(
        alert_ref=alert["id"],
        site_ref=site["id"],
        site_name=site["name"][:200],
        rule=texts["rule"][:60],
        citation=texts["citation"][:80],
        title=texts["title"][:200],
        period_key=texts["period_key"][:40],
        table=told_apart["table"][:60],
        period=told_apart["period"][:80],
        subject=told_apart["subject"][:80],
        opened_at=opened,
        state=ReceivedAlert.State.CLOSED if resolved_at else ReceivedAlert.State.OPEN,
        resolved_at=resolved_at,
    )


def _moment(text):
    """An ISO 8601 moment sent as text, with its offset; None for anything else, a day or hour that
    does not exist included, and a time without an offset (a moment of no known zone: kept, it was
    read in the registry's own zone, hours off the licensee's)."""
    try:
        moment = parse_datetime(text) if isinstance(text, str) else None
    except ValueError:
        return None
    return moment if moment is not None and moment.utcoffset() is not None else None


# --- Verification ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChainCheck:
    ok: bool
    filings: int
    problem: str = ""


def verify_filings(agency: Agency, chunk: int = 2000) -> ChainCheck:
    """Walk the agency's filings in order: each links to the one before, hashes to its stored
    hash, and its package still hashes to its digest. Reads in chunks; no query per row."""
    prev, count, after = GENESIS, 0, 0
    numbers: dict[int, str] = {}
    while True:
        rows = list(ReceivedFiling.objects.filter(agency=agency, seq__gt=after).order_by("seq")[:chunk])
        if not rows:
            return ChainCheck(True, count)
        for filing in rows:
            numbers[filing.pk] = filing.receipt_number
            problem = _filing_problem(filing, prev, after + 1, numbers)
            if problem:
                return ChainCheck(False, count, f"{agency}: filing #{filing.seq} ({filing.receipt_number}): {problem}")
            prev, after, count = filing.hash, filing.seq, count + 1


def _filing_problem(filing: ReceivedFiling, prev: str, expected_seq: int, numbers: dict[int, str]) -> str:
    if filing.seq != expected_seq:
        return f"filings #{expected_seq} to #{filing.seq - 1} are missing"
    if filing.prev_hash != prev:
        return "it does not link to the filing before it"
    if filing_package.digest(filing.package) != filing.package_sha256:
        return "its package no longer hashes to the digest in its receipt"
    if filing.amends_id and filing.amends_id not in numbers:
        return "the filing it amends is not before it"
    amends_number = numbers[filing.amends_id] if filing.amends_id else None
    if receipt_hash(prev, filing, amends_number) != filing.hash:
        return "its receipt no longer hashes to its stored hash"
    return ""
