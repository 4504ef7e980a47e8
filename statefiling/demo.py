"""Demo: the North Dakota Attorney General's registry in the same deployment (a deployment
may be an organization's back office and a regulator's registry at once), with its state
auditor `state` and its state supervisor `statesup`, the demo organization as its licensee, the
organization's filed quarters received with their receipts kept on both sides, and the
organization's chain head anchored there with its compliance alerts (the demo organization
consents to share them). Beside it, a registry of each other pack the demo's sites are under
(`PACK_AGENCIES`: Washington's house-banked rooms, its blackjack table-fee rooms, New York's games
of chance; an agency holds one pack's returns), each with its own state auditor and the
Washington and New York organizations as its licensees, their chain heads and alerts received
(their demo nights are in the current quarter, so no return of theirs is filed yet).

The demo delivers in this process, with the registry's and the organization's services,
so `load_demo` needs no server. The link it makes points at this deployment
(http://127.0.0.1:$PORT): a quarter filed later in the running demo is delivered by the
Celery worker over HTTP, as in production. Idempotent: a filing already delivered is not
sent again; the user, agency, licensee and link are made once.
"""

import os
from datetime import date

from django.contrib.auth import get_user_model
from django.utils import timezone

from accounting.models import QuarterFiling
from cardroom.demo import DEMO_PASSWORD
from cardroom.models import Site
from core.audit import chain_head
from core.periods import Quarter
from registry import services as registry
from registry.models import Agency, Licensee, Regulator, RegulatorRole

from . import delivery, services
from .models import Submission

AGENCY = "North Dakota Attorney General - Gaming Division"
CONTACT = "Office of Attorney General, Gaming Division, 600 E Boulevard Ave Dept 125, Bismarck ND 58505"
# North Dakota's state supervisor (registers licensees, issues and revokes credentials): login, first and last name
SUPERVISOR = ("statesup", "Sam", "Reyes")
# The other packs' registries: {pack: (agency, its state auditor's login, first and last name)}
PACK_AGENCIES = {
    "WA-HB": ("Washington State Gambling Commission - house-banked card rooms", "wastate", "Wes", "Harlow"),
    "WA-BJ": ("Washington State Gambling Commission - blackjack table fees", "wabjstate", "Bea", "Jansen"),
    "NY": ("New York State Gaming Commission - games of chance", "nystate", "Nia", "Stone"),
}


def extend_demo(demo: dict) -> None:
    organization, gm = demo["organization"], demo["people"]["gm"]
    licensee = _registered(AGENCY, "ND", CONTACT, organization)
    _agency_staff(licensee.agency)
    _agency_staff(licensee.agency, *SUPERVISOR, role=RegulatorRole.STATE_SUPERVISOR)
    _licensed(licensee, organization, gm)
    for house in demo.get("pack_houses", ()):  # every site of the house, its fee rooms too
        sites = Site.objects.filter(organization=house["organization"]).values_list("jurisdiction", flat=True)
        for jurisdiction in sorted(set(sites) & set(PACK_AGENCIES)):
            name, login, first, last = PACK_AGENCIES[jurisdiction]
            licensee = _registered(name, jurisdiction, "", house["organization"])
            _agency_staff(licensee.agency, login, first, last)
            _licensed(licensee, house["organization"], house["people"]["gm"])


def _registered(agency_name: str, jurisdiction: str, contact: str, organization) -> Licensee:
    """The organization the licensee of the agency named `agency_name` (the agency made if new),
    registered as an agency registers one (`registry.register_licensee`: its audit event);
    registered once, run again it is found."""
    # The returns filed are those of the pack's sites (read of the agency before it is made, if new).
    agency = Agency(name=agency_name, jurisdiction=jurisdiction)
    licensee, _ = registry.register_licensee(
        acting_user=None,
        agency_name=agency_name,
        jurisdiction=jurisdiction,
        contact=contact,
        name=organization.name,
        licence_number=organization.licence_number,
        expected_from=_first_quarter(agency, organization),
    )
    return licensee


def _licensed(licensee: Licensee, organization, gm) -> None:
    """The organization, the agency's licensee, linked to it (alerts shared), its filed quarters
    never sent delivered, its chain head and alerts received. Made once: run again, it sends
    nothing twice."""
    agency = licensee.agency
    link = services.live_link(organization.pk, agency.jurisdiction)
    credential = registry.credential_for(link.credential) if link else None
    if credential is None:  # first run, or the registry no longer knows the link's credential
        issued = registry.issue_credential(acting_user=None, licensee=licensee)
        link = services.connect_registry(
            acting_user=gm.user,
            organization=organization,
            jurisdiction=agency.jurisdiction,
            url=f"http://127.0.0.1:{os.environ.get('PORT', '8000')}",
            credential=issued.secret,
            share_alerts=True,
        )
        credential = issued.credential
    _deliver_filings(organization, link, credential)
    _amended_returns_answered(organization, gm)
    head = chain_head(organization.pk)
    if head is not None:
        registry.receive_anchors(credential=_used(credential), anchors=[services.anchor_json(head)])
    registry.receive_alerts(credential=_used(credential), alerts=services.alerts_to_share(link))


def _amended_returns_answered(organization, gm) -> None:
    """The amended-return alert of each amendment the registry has receipted (`AmendmentReceipt`),
    resolved by the gaming manager naming the receipt, as a manager documents a return amended: it
    read "file an amended return if it is due" beside the state's receipt of that amended return.
    An alert already resolved, or an amendment not receipted, is left as it is."""
    from compliance.models import Alert, AlertStep
    from compliance.services import resolve_alert_with_documentation

    from .models import AmendmentReceipt

    receipts = AmendmentReceipt.objects.filter(filing__site__organization=organization)
    by_subject = {f"amendment:{r.amendment_id}": r for r in receipts}
    open_alerts = Alert.objects.filter(
        organization=organization, rule="filed_return_amended", subject__in=list(by_subject)
    ).exclude(steps__kind=AlertStep.Kind.RESOLVED)
    for alert in open_alerts.order_by("pk"):
        receipt = by_subject[alert.subject]
        resolve_alert_with_documentation(
            acting_user=gm.user,
            alert=alert,
            note=f"Demo: the amended return was sent to the state with the amendment; receipt "
            f"{receipt.receipt_number}, amending {receipt.amends_receipt_number}.",
        )


def _used(credential):
    """The credential, its use noted as the registry's API notes a request authenticated with it
    (`registry.record_credential_use`): what the demo sends in this process stands for the
    licensee's requests, so the supervisor's page reads when it was last used, not "never" beside
    the filings, anchors and alerts it sent."""
    registry.record_credential_use(credential)
    return credential


def _agency_staff(
    agency: Agency, login: str = "state", first: str = "Dana", last: str = "Olson", role=RegulatorRole.STATE_AUDITOR
) -> None:
    """The agency's staff login (a state auditor unless `role` says otherwise), made once."""
    user = get_user_model().objects.filter(username=login).first()
    if user is None:
        user = get_user_model().objects.create_user(login, password=DEMO_PASSWORD, first_name=first, last_name=last)
    Regulator.objects.get_or_create(user=user, defaults={"agency": agency, "role": role})


def _first_quarter(agency: Agency, organization) -> date:
    """The first quarter the registry holds the licensee to (`Licensee.expected_from`): the first
    quarter the demo filed for it under the agency's pack (its sites of that jurisdiction), so
    every return the demo files reads against its due date, never "not expected" beside a return
    received (registry.queries._timeliness); none filed yet (the Washington and New York houses,
    whose nights are in the current quarter), the current quarter, the first it will file. The
    registry receives each return when the link sends it, on the day the demo loads: it reads
    on time loaded by the due date, late after it. The receipt's time is the registry's own, the
    fact a return's timeliness is judged on: the demo never dates a receipt in the past."""
    first = (
        QuarterFiling.objects.filter(site__organization=organization, site__jurisdiction=agency.jurisdiction)
        .order_by("start")
        .first()
    )
    return Quarter.containing(first.start if first else timezone.localdate()).start


def _deliver_filings(organization, link, credential) -> None:
    """The filed quarters never sent, each with the amendments recorded since and the quarter's
    PDF, delivered as the product delivers them (`services.queue_unsent_filings`,
    `delivery.deliver`), to the registry in this process. A package delivered is not sent again."""
    services.queue_unsent_filings(link)
    pending = Submission.objects.filter(link__organization=organization, delivered_at__isnull=True, refused=False)
    send = _in_process(credential)
    for submission_id in pending.order_by("queued_at", "pk").values_list("pk", flat=True):
        delivery.deliver(submission_id, send=send)


def _in_process(credential):
    """`delivery.deliver`'s transport to the registry of this deployment: its service, answering
    what its API answers (the receipt, with the agency's name)."""

    def send(_link, body: dict, idempotency_key: str) -> dict:
        received, _ = registry.receive_filing(
            credential=_used(credential), idempotency_key=idempotency_key, package=body["package"], pdfs=body["pdfs"]
        )
        return {**registry.receipt_json(received), "agency": credential.licensee.agency.name}

    return send
