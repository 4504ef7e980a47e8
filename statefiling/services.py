"""Filing with the state's registry: the package a filed quarter sends, its delivery with
retries until the receipt arrives, the chain heads sent with the nightly anchors, and
verification of the organization's chain against the heads the registry holds.

House controls (the regulations we hold do not describe electronic filing): a filing never
waits on the network (the package is queued in the filing's transaction and delivered by a
Celery task); one Idempotency-Key per package, so a retry can never file twice.
"""

import uuid
from datetime import UTC, datetime, timedelta
from urllib.parse import urlencode

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Exists, OuterRef, Q, Subquery
from django.utils import timezone

from accounting.models import FilingAmendment, QuarterFiling
from cardroom.access import require_gaming_manager
from cardroom.models import Organization
from compliance import labels
from compliance.models import Alert, AlertStep
from core import acts, filing_package, hooks
from core.audit import chain_head, hold_chain, record_event
from core.audit_anchors import Anchor, RegistryCheck
from core.models import AuditEvent
from core.periods import Quarter
from core.rules import HOUSE_CONTROL
from packs.registry import PACKS

from . import as_filed, client, returns
from .delivery import ANCHORS_PATH
from .models import FiledDealers, FilingReceipt, RegistryLink, Submission
from .tasks import deliver_filing, push_alerts, push_anchor

PAGE = 500

# --- The link to a registry ------------------------------------------------------------------------


def connect_registry(
    *,
    acting_user,
    organization: Organization,
    jurisdiction: str,
    url: str,
    credential: str,
    share_alerts: bool = False,
) -> RegistryLink:
    """Send the organization's filings for `jurisdiction`'s sites to the registry at `url`
    with the credential its agency issued; replaces the pack's earlier link (audited, the
    credential itself is never written in the audit log), and the packages not yet delivered
    under it (pending, or refused: a revoked credential's 401) go again under this one, naming
    the organization as it now stands (`_resend_undelivered`). `share_alerts`: the organization
    consents to its compliance alerts of those sites going with the nightly anchors."""
    require_gaming_manager(acting_user, organization.pk, action="connect the organization to a state registry")
    if jurisdiction not in PACKS:
        raise ValidationError({"jurisdiction": f"{HOUSE_CONTROL}: no pack {jurisdiction!r}."})
    problem = client.check_url(url or "")
    if problem:
        raise ValidationError({"url": f"{HOUSE_CONTROL}: {problem}"})
    if not 8 <= len(credential or "") <= 200:
        raise ValidationError({"credential": f"{HOUSE_CONTROL}: give the credential the agency issued."})
    with transaction.atomic():
        # The organization's row, for no key update: two links made at once wait in turn, and the
        # second replaces the first as it would after it (one live link a pack), rather than both
        # finding none live and the database refusing the second's.
        acts.hold(organization)
        RegistryLink.objects.filter(organization=organization, jurisdiction=jurisdiction, active=True).update(
            active=False
        )
        link = RegistryLink.objects.create(
            organization=organization,
            jurisdiction=jurisdiction,
            url=url,
            credential=credential,
            share_alerts=bool(share_alerts),
        )
        resent, rebuilt = _resend_undelivered(link)
        record_event(
            actor=acting_user,
            action="registry.connected",
            obj=link,
            organization_id=organization.pk,
            after={
                "jurisdiction": jurisdiction,
                "url": url,
                "credential": credential[:12] + "...",
                "share_alerts": bool(share_alerts),
                "resent": resent,
                "rebuilt": rebuilt,  # of those resent, the ones naming the organization as it now stands
            },
        )
    return link


def _resend_undelivered(link: RegistryLink) -> tuple[list[int], list[int]]:
    """Inside the new link's transaction: the pack's packages an earlier link of the organization
    never delivered (waiting, or refused, as a revoked credential is) go under the new link, no
    longer refused, in the order queued, each sent once the transaction commits; their ids, and
    those whose envelope was rebuilt (`_with_filer_now`). Left on the old link they went on to its
    address and credential, or stayed refused for good."""
    undelivered = Submission.objects.filter(
        link__organization_id=link.organization_id, link__jurisdiction=link.jurisdiction, delivered_at__isnull=True
    ).exclude(link=link)
    ids = list(undelivered.order_by("queued_at", "pk").values_list("pk", flat=True))
    rebuilt = _with_filer_now(link.organization_id, ids)
    Submission.objects.filter(pk__in=ids).update(link=link, refused=False)
    for submission_id in ids:
        deliver_filing.delay_on_commit(submission_id)
    return ids, rebuilt


def _with_filer_now(organization_id: int, ids: list[int]) -> list[int]:
    """The packages `ids`, never delivered, name the filer (the organization's name and licence
    number) as it stands now, not as when they were first built: a return the registry refused
    for the licence number it named goes with the number the gaming manager corrected since.
    Only that envelope is rebuilt, and the package's digest with it; the filed figures and their
    digest, the dealers, the reports and the chain head stay as frozen. The Idempotency-Key is
    kept: the registry keeps nothing of a request it refused (`registry.services.receive_filing`
    writes the filing last, in one transaction), and a package it did receive whose answer was
    lost is answered a Conflict under the same key (kept for a person), never filed twice. The
    ids rebuilt (House control: our texts do not describe electronic filing)."""
    # read from the row (held by the caller), not from the caller's object: as it stands now
    filer = Organization.objects.values("name", "licence_number").get(pk=organization_id)
    rebuilt = []
    for submission in Submission.objects.filter(pk__in=ids).order_by("pk"):
        if submission.package.get("organization") == filer:
            continue
        package = {**submission.package, "organization": filer}
        Submission.objects.filter(pk=submission.pk).update(
            package=package, package_sha256=filing_package.digest(package)
        )
        rebuilt.append(submission.pk)
    return rebuilt


def live_link(organization_id: int, jurisdiction: str) -> RegistryLink | None:
    return RegistryLink.objects.filter(organization_id=organization_id, jurisdiction=jurisdiction, active=True).first()


# --- Filing ----------------------------------------------------------------------------------------


def build_package(filing: QuarterFiling, head) -> dict:
    """The version-2 filing package of a filed quarter (core.filing_package), with each
    dealer's hold for the quarter under their state-issued identifier as filed (`filed_dealers`):
    a package built later, for a quarter filed before the organization linked, names the
    dealers as the quarter was filed, not as they stand when it is sent. Built only from what
    was filed: where the figures or the frozen hold no longer hash to the digests stored with
    them (`as_filed.read`), nothing is built and the refusal names the row."""
    frozen, problem = as_filed.read(filing)
    if problem:
        raise ValidationError({"filing": problem})
    site = filing.site
    organization = site.organization
    # The return's documents are those made by its filing (a package built later, for a quarter filed
    # before the organization linked, lists the same: not a report made after an amendment).
    reports = [
        d
        for digests in hooks.REPORT_DIGESTS.answers()
        for d in digests(site.pk, filing.start, filing.end)
        if datetime.fromisoformat(d["generated_at"]) <= filing.filed_at
    ]
    holds = filed_dealers(filing, frozen)
    return {
        "format": filing_package.FORMAT,
        "organization": {"name": organization.name, "licence_number": organization.licence_number},
        "site": {"id": site.pk, "name": site.name, "jurisdiction": site.jurisdiction},
        "quarter": filing.quarter,
        "filed_at": filing.filed_at.astimezone(UTC).isoformat(),
        "filed_by": filing.filed_by.initials,
        "reference": filing.reference,
        "figures": filing.figures,
        "figures_sha256": filing.figures_sha256,
        "tax": filing.figures.get("tax"),
        "chain_head": {"chain": head.chain, "seq": head.seq, "hash": head.hash} if head else None,
        "reports": reports,
        "amends": None,
        "dealers": holds.dealers,
        "dealers_without_identifier": holds.without_identifier,
    }


def filed_dealers(filing: QuarterFiling, frozen: FiledDealers | None) -> "returns.DealerHolds":
    """The dealers' hold frozen when the quarter was filed (`frozen`, its `FiledDealers` row). A
    quarter filed before the hold was frozen at filing has no row: its hold is read now, as its
    package always was (never frozen after the fact: today's identifiers would be claimed as filed)."""
    if frozen is None:
        return returns.dealer_holds(filing.site, Quarter.parse(filing.quarter))
    return returns.DealerHolds(frozen.dealers, frozen.dealers_without_identifier)


def record_filing(filing: QuarterFiling) -> Submission | None:
    """The answer to `hooks.QUARTER_FILED`, inside the filing's transaction: the dealers' hold
    frozen as filed (`freeze_dealers`), whether or not a registry is linked, then the package
    queued for the registry of the site's pack where there is one (`queue_filing`)."""
    freeze_dealers(filing)
    return queue_filing(filing)


def freeze_dealers(filing: QuarterFiling) -> FiledDealers:
    """The dealers' hold of the filed quarter as it stands at filing (`returns.dealer_holds`),
    kept append-only beside the filing with its SHA-256 (audited by its `row.created` event):
    what a package sent later names, as filed (`filed_dealers`)."""
    holds = returns.dealer_holds(filing.site, Quarter.parse(filing.quarter))
    return FiledDealers.objects.create(
        filing=filing,
        dealers=holds.dealers,
        dealers_without_identifier=holds.without_identifier,
        dealers_sha256=FiledDealers.digest(holds.dealers, holds.without_identifier),
        frozen_at=timezone.now(),
    )


def queue_filing(filing: QuarterFiling) -> Submission | None:
    """Inside the filing's transaction: queue its package for the registry of the site's pack
    (none configured: nothing to send), then each amendment already recorded for it, in the
    order recorded (`_queue_with_amendments`). Delivered by a Celery task after the commit."""
    site = filing.site
    link = live_link(site.organization_id, site.jurisdiction)
    if link is None:
        return None
    return _queue_with_amendments(filing, link)


def queue_unsent_filings(link: RegistryLink) -> list[Submission]:
    """The link's pack's filed quarters never sent to a registry (filed before the organization
    linked), oldest first, each queued with the amendments recorded for it since, after it and
    in the order recorded: the state gets the return and every change to it, not the filed
    figures alone. A filing sent already is not queued again (run twice, nothing is sent twice)."""
    sent = Submission.objects.filter(filing=OuterRef("pk"), amendment__isnull=True)
    filings = (
        QuarterFiling.objects.filter(site__organization_id=link.organization_id, site__jurisdiction=link.jurisdiction)
        .filter(~Exists(sent))
        .select_related("site__organization", "filed_by")
        .order_by("start", "site_id")
    )
    with transaction.atomic():
        return [_queue_with_amendments(filing, link) for filing in filings]


def send_earlier_filings(*, acting_user, organization: Organization, jurisdiction: str) -> list[Submission]:
    """A gaming manager's choice to send the quarters of `jurisdiction`'s sites filed before the
    organization linked to that pack's registry, each with its amendments
    (`queue_unsent_filings`); never done by linking alone, as the state may hold those returns on
    paper. Audited (one event naming the filings and amendments queued); run again, nothing is
    sent twice and nothing recorded. House control: our texts do not describe electronic filing."""
    require_gaming_manager(acting_user, organization.pk, action="send earlier filings to a state registry")
    with transaction.atomic():
        # The organization's row, as connect_registry holds it: two runs at once queue in turn, and
        # the second finds the first's filings sent.
        acts.hold(organization)
        link = live_link(organization.pk, jurisdiction)
        if link is None:
            raise ValidationError(
                {
                    "jurisdiction": f"{HOUSE_CONTROL}: the organization is not linked to a registry for "
                    f"{jurisdiction!r}; connect it first (connect_registry)."
                }
            )
        queued = queue_unsent_filings(link)
        if not queued:
            return queued  # nothing left unsent: no act to record
        sent = Submission.objects.filter(filing_id__in=[s.filing_id for s in queued], amendment__isnull=False)
        record_event(
            actor=acting_user,
            action="registry.earlier_filings_sent",
            obj=link,
            organization_id=organization.pk,
            after={
                "jurisdiction": jurisdiction,
                "filings": [s.filing_id for s in queued],
                "quarters": [s.package["quarter"] for s in queued],
                "amendments": sorted(sent.values_list("amendment_id", flat=True)),
            },
        )
    return queued


def _queue_with_amendments(filing: QuarterFiling, link: RegistryLink) -> Submission:
    """A filing's first package and, after it, each amendment recorded for it and not yet queued
    (recorded before the filing was first sent: `queue_amendment` had nothing to amend), oldest
    first. Each amendment's package waits for the filing's receipt (`delivery`). Its amendments
    are read under the organization's audit chain lock (`_hold_filing`): one recorded at this
    moment is read here, or finds the filing sent and queues itself (`queue_amendment`)."""
    _hold_filing(filing)
    head = chain_head(filing.site.organization_id)
    submission = _queue(filing, link, build_package(filing, head))
    related = ("recorded_by", "adjustment__books_close", "adjustment__table", "other_games_agp", "site_filing__site")
    voids = ("tournament_fee__voids", "tournament_prize__voids")
    recorded = filing.amendments.filter(submission__isnull=True).select_related(*related, *voids)
    for amendment in recorded.order_by("recorded_at", "pk"):
        _queue(filing, link, build_amendment_package(amendment, head, None), amendment)
    return submission


def _hold_filing(filing: QuarterFiling) -> None:
    """Inside the caller's transaction, before reading whether `filing` was sent or which of its
    amendments are queued: its organization's audit chain, locked to the end of the transaction
    (`core.audit.hold_chain`). An amending entry holds that lock from its first audited write (its
    own event, its FilingAmendment's row event) to its commit; sending the earlier filings
    (`_queue_with_amendments`) takes it before reading the amendments, and `queue_amendment`
    before looking for the filing's first package (held already: nothing more). So of an
    amendment recorded while its filing is first sent, the second to lock waits for the other's
    commit and then reads it (READ COMMITTED reads again at each statement): the sending queues
    the amendment, or the amendment finds the filing sent and queues itself; never neither
    (house control: the state gets a return and every change to it).

    Not the filing's row: the amending entry holds the chain when it reaches `queue_amendment`,
    and the sending records its event (the chain) after reading, so a row lock taken there
    first deadlocks the two (tests/statefiling/test_send_earlier_race.py); taken after the
    chain it would never wait. Lock order, the same on every path: the organization's row
    (filing a quarter, the other games' AGP, linking, sending the earlier filings), the site's
    (closing books, filing, an adjustment; key share: a tournament void), then the chain;
    nothing here is locked after it but the rows inserted referring to others (key share)."""
    hold_chain(filing.site.organization_id)


# --- Amendments -----------------------------------------------------------------------------------


def amendment_figures(amendment: FilingAmendment, now: "returns.ReturnNow | None" = None) -> dict:
    """What an amendment files: the change to one figure of the filed return, the entry that
    made it, the digest of the filed figures it amends (the original's figures are not sent
    again: the registry holds them under the original's receipt) and the return as it now
    stands beside the filed one (`returns.return_now`)."""
    now = now or returns.return_now(amendment.filing)
    return {
        "amendment": {
            "id": amendment.pk,
            "source": amendment.source,
            "figure": amendment.figure,
            "delta_cents": amendment.delta_cents,
            "recorded_at": amendment.recorded_at.astimezone(UTC).isoformat(),
            "recorded_by": amendment.recorded_by.initials,
            "entry": _amending_entry(amendment),
        },
        "amends_figures_sha256": amendment.filing.figures_sha256,
        "return_now": now.lines,
    }


def _amending_entry(amendment: FilingAmendment) -> dict:
    if amendment.adjustment_id:
        a = amendment.adjustment
        return {
            "adjustment": a.pk,
            "corrected_date": str(a.books_close.gaming_date),
            "recorded_on": str(a.recorded_on),
            "table_number": a.table.number if a.table_id else None,
            "field": a.field,
            "amount_cents": a.amount_cents,
            "reason": a.reason,
        }
    void = amendment.tournament_fee or amendment.tournament_prize
    if void is not None and void.corrects_date is not None:  # found after the filed day's books closed
        return _found_late_entry(amendment, void)
    if void is not None:  # a void of a tournament fee or prize of a filed day: counted on its own day
        return _voided_entry(amendment, void)
    if amendment.site_filing_id:  # another site's filing of the quarter: the AGP recorded at the sites it froze
        filed = amendment.site_filing
        return {
            "site_filing": filed.pk,
            "site": filed.site.name,
            "quarter": filed.quarter,
            "figures_sha256": filed.figures_sha256,
            "agp_cents": filed.figures["tax"]["agp_cents"],
        }
    row = amendment.other_games_agp
    return {"other_games_agp": row.pk, "quarter": row.quarter, "agp_cents": row.agp_cents, "note": row.note}


def _found_late_entry(amendment: FilingAmendment, row) -> dict:
    """A tournament fee or prize of a filed day found after its books closed: the row, the filed day it
    belongs to and the day it counts on (entered then, with its reason)."""
    what, amount = ("fee", "fee_cents") if amendment.tournament_fee_id else ("prize", "amount_cents")
    return {
        f"tournament_{what}": row.pk,
        "kind": row.kind,
        amount: getattr(row, amount),
        "tournament": row.tournament_id,
        "corrects_date": str(row.corrects_date),
        "entered_on": str(row.gaming_date),
        "reason": row.reason,
    }


def _voided_entry(amendment: FilingAmendment, void) -> dict:
    """The void row of a tournament fee or prize and the row it voids (its day, on the return amended)."""
    voided = void.voids
    entry = {
        "tournament": void.tournament_id,
        "voided_date": str(voided.gaming_date),
        "entered_on": str(void.gaming_date),
        "reason": void.reason,
    }
    what, amount = ("fee", "fee_cents") if amendment.tournament_fee_id else ("prize", "amount_cents")
    return {
        f"tournament_{what}_void": void.pk,
        what: voided.pk,
        "kind": voided.kind,
        amount: getattr(voided, amount),
        **entry,
    }


def build_amendment_package(amendment: FilingAmendment, head, amends: str | None) -> dict:
    """The version-2 package of an amendment: the site and quarter of the filing it amends, its
    figures `amendment_figures` (the return now beside the filed one), the tax filed and now,
    the dealers' hold now, and `amends`, the receipt number of that filing (None while the
    receipt has not come: filled in before the first attempt, `statefiling.delivery`)."""
    filing = amendment.filing
    site = filing.site
    now = returns.return_now(filing)
    figures = amendment_figures(amendment, now)
    holds = returns.dealer_holds(site, Quarter.parse(filing.quarter))
    return {
        "format": filing_package.FORMAT,
        "organization": {"name": site.organization.name, "licence_number": site.organization.licence_number},
        "site": {"id": site.pk, "name": site.name, "jurisdiction": site.jurisdiction},
        "quarter": filing.quarter,
        "filed_at": amendment.recorded_at.astimezone(UTC).isoformat(),
        "filed_by": amendment.recorded_by.initials,
        "reference": filing.reference,
        "figures": figures,
        "figures_sha256": filing_package.digest(figures),
        "tax": now.tax,
        "chain_head": {"chain": head.chain, "seq": head.seq, "hash": head.hash} if head else None,
        "reports": [],
        "amends": amends,
        "dealers": holds.dealers,
        "dealers_without_identifier": holds.without_identifier,
    }


def queue_amendment(amendment: FilingAmendment) -> Submission | None:
    """Inside the amending entry's transaction: queue the amendment's package for the registry
    the filing was sent to, pointing back at the filing's receipt. A filing that was never sent
    (no registry then) has nothing at the registry to amend: nothing is queued; it goes when the
    filing is sent, whose sending reads it (`_hold_filing`: the two never cross)."""
    filing = amendment.filing
    _hold_filing(filing)  # a sending of the filing at this moment: one of us waits for the other
    if not Submission.objects.filter(filing=filing, amendment__isnull=True).exists():
        return None
    site = filing.site
    link = live_link(site.organization_id, site.jurisdiction)
    if link is None:
        return None
    receipt = FilingReceipt.objects.filter(filing=filing).values_list("receipt_number", flat=True).first()
    return _queue(
        filing, link, build_amendment_package(amendment, chain_head(site.organization_id), receipt), amendment
    )


def _queue(filing, link, package: dict, amendment=None) -> Submission:
    """A package queued for delivery under a key of its own, sent once the caller's transaction commits."""
    submission = Submission.objects.create(
        filing=filing,
        amendment=amendment,
        link=link,
        idempotency_key=uuid.uuid4().hex,
        package=package,
        package_sha256=filing_package.digest(package),
        queued_at=timezone.now(),
    )
    deliver_filing.delay_on_commit(submission.pk)
    return submission


# --- Anchors ---------------------------------------------------------------------------------------


def queue_anchors(heads) -> None:
    """After the nightly anchor: send each organization's head to every registry it files with,
    and its compliance alerts where it consented (`RegistryLink.share_alerts`)."""
    by_org = {h.organization_id: h for h in heads if h.organization_id is not None}
    for link in RegistryLink.objects.filter(active=True, organization_id__in=by_org):
        head = by_org[link.organization_id]
        push_anchor.delay(link.pk, anchor_json(head))
        alerts = alerts_to_share(link)
        if alerts:
            push_alerts.delay(link.pk, alerts)


ALERTS_SINCE_DAYS = 400  # the alerts opened in the last 400 days (five quarters) and every one still open
MAX_ALERTS = 1000


def alerts_to_share(link: RegistryLink) -> list[dict]:
    """The organization's compliance alerts of the link's pack's sites as the registry takes them
    (`registry.services.receive_alerts`), newest first; none without its consent. One query.

    Only the alerts of a rule the pack's law states: an alert citing "House control" (a late bank
    deposit at a Washington site, whose texts set no deposit day) is the organization's own
    control, not the state's, and stays at home."""
    if not link.share_alerts:
        return []
    resolved = AlertStep.objects.filter(alert=OuterRef("pk"), kind=AlertStep.Kind.RESOLVED).order_by("at")
    since = timezone.now() - timedelta(days=ALERTS_SINCE_DAYS)
    rows = (
        Alert.objects.filter(organization_id=link.organization_id, site__jurisdiction=link.jurisdiction)
        .exclude(citation=HOUSE_CONTROL)
        .annotate(resolved_at=Subquery(resolved.values("at")[:1]))
        .filter(Q(opened_at__gte=since) | Q(resolved_at__isnull=True))
        .select_related("site")
        .order_by("-opened_at", "-pk")[:MAX_ALERTS]
    )
    return [
        {
            "id": a.pk,
            "site": {"id": a.site_id, "name": a.site.name},
            "rule": a.rule,
            "citation": a.citation,
            "title": a.title,
            "period_key": a.period_key,
            # what the alert's own page shows to tell it apart: its table, its period in words and
            # its slip or drop box; a dealer is not named (the state knows dealers by the
            # identifier it issued, in the filing's dealers' hold)
            "table": labels.table_of(a),
            "period": labels.period_of(a),
            "subject": _shared_subject(a),
            "opened_at": a.opened_at.astimezone(UTC).isoformat(),
            "resolved_at": a.resolved_at.astimezone(UTC).isoformat() if a.resolved_at else None,
        }
        for a in rows
    ]


def _shared_subject(alert) -> str:
    """What tells a shared alert apart from others of its rule (compliance.labels.subject_of), but a
    dealer's name, which stays at home: a dealer's shift is named by its number and its day (two
    shifts of one table in the rule's window read alike otherwise)."""
    figures = alert.figures or {}
    if not figures.get("dealer_name"):
        return labels.subject_of(alert)
    if figures.get("shift_id") is None:
        return ""
    return f"Dealer shift {figures['shift_id']}" + (f" on {alert.due_date}" if alert.due_date else "")


def anchor_json(head) -> dict:
    return {
        "chain": head.chain,
        "seq": head.seq,
        "hash": head.hash,
        "head_at": head.occurred_at.astimezone(UTC).isoformat(),
    }


# --- Verification against the registry -------------------------------------------------------------


def registry_heads(link: RegistryLink) -> list[dict]:
    """Every head the registry holds for the organization, oldest first, page by page."""
    heads, offset = [], 0
    while True:
        _status, page = client.call(link.url, link.credential, "GET", f"{ANCHORS_PATH}?limit={PAGE}&offset={offset}")
        rows = page.get("results", [])
        heads.extend(rows)
        if not page.get("next") or not rows:
            return heads
        offset += len(rows)


def verify_against_registry(organization_id: int | None = None) -> RegistryCheck:
    """Every head each registry holds is still in the organization's chain at its seq with its
    hash; names the first that no longer matches (rewriting history and the local anchors
    together is found here: the registry's copy is beyond the organization's reach)."""
    links = RegistryLink.objects.filter(active=True).select_related("organization").order_by("organization_id", "pk")
    if organization_id is not None:
        links = links.filter(organization_id=organization_id)
    checked = 0
    for link in links:
        try:
            heads = registry_heads(link)
        except (client.Unreachable, client.Refused) as exc:
            return RegistryCheck(
                False, checked, f"the {link.jurisdiction} registry at {link.url} did not answer: {exc}"
            )
        problem = _first_mismatch(link, heads)
        if problem:
            return RegistryCheck(False, checked, problem)
        checked += len(heads)
    return RegistryCheck(True, checked)


def registry_anchors(organization_id: int | None, chain: str, seq: int) -> list[Anchor]:
    """The answer to `hooks.REGISTRY_ANCHORS`: of each registry the organization files with (its
    live links, one query), the first head of `chain` it holds at or after event `seq`, one
    request a registry (`?chain=&from_seq=`: one row of its index, however many heads it holds).
    A registry that does not answer, or refuses, is passed over: nothing it holds can be compared
    now (a package for it is not delivered either, `delivery`), and `verify_audit_log --registry`
    names it."""
    anchors = []
    query = urlencode({"chain": chain, "from_seq": seq})
    for link in RegistryLink.objects.filter(organization_id=organization_id, active=True).order_by("pk"):
        try:
            _status, page = client.call(link.url, link.credential, "GET", f"{ANCHORS_PATH}?{query}")
        except (client.Unreachable, client.Refused):
            continue
        held_by = f"the {link.jurisdiction} registry at {link.url}"
        anchors += [
            Anchor(chain, organization_id, head["seq"], head["hash"], head.get("received_at", ""), held_by)
            for head in page.get("results", [])
        ]
    return anchors


def _first_mismatch(link: RegistryLink, heads: list[dict]) -> str:
    """One query per chain: the hashes of the events at the seqs the registry holds."""
    by_chain: dict[str, list[dict]] = {}
    for head in heads:
        by_chain.setdefault(head["chain"], []).append(head)
    for chain, held in sorted(by_chain.items()):
        held.sort(key=lambda h: h["seq"])
        ours = dict(AuditEvent.objects.filter(chain=chain, seq__in=[h["seq"] for h in held]).values_list("seq", "hash"))
        for head in held:
            where = (
                f"organization {link.organization_id} (chain {chain}), event #{head['seq']}: the {link.jurisdiction} "
                f"registry's head of {head.get('head_at', '')} (received {head.get('received_at', '')})"
            )
            if head["seq"] not in ours:
                return f"{where} is missing from the chain: events were removed from its end"
            if ours[head["seq"]] != head["hash"]:
                return f"{where} has hash {head['hash']}, the chain now {ours[head['seq']]}: the chain was rewritten"
    return ""
